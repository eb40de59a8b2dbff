//! The game WebSocket (docs/PROTOCOL.md): `GET /game/{id}/socket?v=N`. Frames are
//! `{"t": type, "d": data}`. Players send commands; everyone receives the room's events,
//! each with its version `v`. A client that reconnects with `?v=N` gets what it missed, or a
//! full state frame. Unknown or malformed frames get an error frame and change nothing; frames
//! over 4 KiB and floods (more than 20 frames a second) are refused without touching the room.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use rookery_core::game::{Command, Event, Game, MoveText};
use rookery_core::{Bitboard, Color, Square};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Value, json};
use tokio::sync::{broadcast, mpsc};

use super::AppState;
use super::error::ApiError;
use super::games::{game_row, seat_of};
use std::sync::atomic::Ordering;

use crate::metrics::METRICS;
use crate::room::{Can, RoomEvent, RoomHandle, Versioned, View, now_ms};

/// Largest frame a client may send.
const MAX_FRAME: usize = 4096;
/// Room for a couple of the largest client frames.
const READ_BUFFER: usize = 2 * MAX_FRAME;
/// Frames per second a connection may send before it is told to slow down.
const FRAMES_PER_SECOND: u32 = 20;

#[derive(Debug, Deserialize)]
pub(crate) struct SocketQuery {
    /// The last version this client has seen.
    v: Option<u64>,
}

/// `GET /game/{id}/socket`.
pub(crate) async fn upgrade(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<SocketQuery>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let row = game_row(&state, &id).await?;
    let seat = seat_of(&headers, &row);
    let room = state.rooms.get(&id).await?;
    let shutdown = state.shutdown.clone();
    let open = state.socket_open.clone();
    Ok(ws
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        // The default buffers are 128 KiB each way; frames here are small, and at 20,000
        // connections the defaults alone would take gigabytes.
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .on_upgrade(move |socket| async move {
            connection(socket, room, seat, q.v, shutdown).await;
            // Shutdown waits for this to go: the close frame has been sent by now.
            drop(open);
        }))
}

/// One connection: a writer task for outgoing frames, and this loop for incoming frames and
/// the room's feed.
async fn connection(
    socket: WebSocket,
    room: Option<RoomHandle>,
    seat: Option<Color>,
    since: Option<u64>,
    shutdown: tokio::sync::watch::Receiver<bool>,
) {
    METRICS.sockets.fetch_add(1, Ordering::Relaxed);
    serve_socket(socket, room, seat, since, shutdown).await;
    METRICS.sockets.fetch_sub(1, Ordering::Relaxed);
}

async fn serve_socket(
    socket: WebSocket,
    room: Option<RoomHandle>,
    seat: Option<Color>,
    since: Option<u64>,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) {
    let (mut sink, mut stream) = socket.split();
    let (out, mut outgoing) = mpsc::channel::<String>(64);
    let (closing, close_reason) = tokio::sync::oneshot::channel::<&'static str>();
    let writer = tokio::spawn(async move {
        while let Some(text) = outgoing.recv().await {
            if sink.send(Message::Text(text.into())).await.is_err() {
                break;
            }
        }
        // A reason, if the server closes the socket on purpose.
        if let Ok(reason) = close_reason.await {
            let frame = axum::extract::ws::CloseFrame {
                code: 1001,
                reason: reason.into(),
            };
            let _ = sink.send(Message::Close(Some(frame))).await;
        }
        let _ = sink.close().await;
    });
    let Some(room) = room else {
        let _ = out
            .send(frame_of(
                "error",
                json!({"message": "the game is over or gone"}),
            ))
            .await;
        drop((out, closing));
        let _ = writer.await;
        return;
    };
    let Ok(sub) = room.subscribe(since.unwrap_or(u64::MAX)).await else {
        return;
    };
    let mut feed = sub.feed;
    let mut v = sub.v;
    match (since, sub.missed) {
        (Some(_), Some(missed)) => {
            // What a player may do is as of now, after all the missed events.
            let view = room.snapshot().await.ok().map(|s| View::of(&s.1));
            for e in missed {
                v = e.v;
                let _ = out.send(event_frame(&e, seat, view.as_ref())).await;
            }
        }
        _ => {
            if let Ok((sv, game)) = room.snapshot().await {
                v = sv;
                let _ = out.send(state_frame(sv, &game, seat)).await;
            }
        }
    }
    // Players come and go as presence; everyone else counts as a watcher. Announced after
    // the first frame, so this connection hears its own arrival too.
    announce(&room, seat, true).await;
    let mut limiter = Limiter::new();
    let mut closing = Some(closing);
    loop {
        tokio::select! {
            _ = shutdown.changed() => {
                if let Some(c) = closing.take() {
                    let _ = c.send("the server is restarting; reconnect in a moment");
                }
                break;
            }
            msg = stream.next() => {
                let Some(Ok(msg)) = msg else { break };
                let text = match msg {
                    Message::Text(t) => t.to_string(),
                    Message::Close(_) => break,
                    Message::Ping(_) | Message::Pong(_) => continue,
                    Message::Binary(_) => {
                        let _ = out.send(error_frame("binary frames are not understood", None)).await;
                        continue;
                    }
                };
                if !limiter.allow() {
                    let _ = out.send(error_frame("too many messages: slow down", None)).await;
                    continue;
                }
                if let Some(reply) = handle(&room, seat, &text).await {
                    let _ = out.send(reply).await;
                }
            }
            event = feed.recv() => match event {
                Ok(e) if e.v > v => {
                    v = e.v;
                    // Game events carry the state after them (worked out once by the room);
                    // spectators need no destinations but do see checks and running clocks.
                    let _ = out.send(event_frame(&e, seat, e.view.as_deref())).await;
                }
                Ok(_) => {}
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    // Too far behind for the feed: a full state puts the client right.
                    if let Ok((sv, game)) = room.snapshot().await {
                        v = sv;
                        let _ = out.send(state_frame(sv, &game, seat)).await;
                    }
                }
                Err(broadcast::error::RecvError::Closed) => break,
            },
        }
    }
    announce(&room, seat, false).await;
    // Dropping both ends lets the writer finish (with no close reason unless one was sent).
    drop((out, closing));
    let _ = writer.await;
}

/// Tells the room a connection opened or closed: a player's presence, or a watcher.
async fn announce(room: &RoomHandle, seat: Option<Color>, joined: bool) {
    match seat {
        Some(color) => room.presence(color, joined).await,
        None => room.watcher(joined).await,
    }
}

/// One client frame: a reply for the sender (ack or error), or nothing.
async fn handle(room: &RoomHandle, seat: Option<Color>, text: &str) -> Option<String> {
    let Ok(frame) = serde_json::from_str::<Value>(text) else {
        return Some(error_frame(
            "malformed frame: expected {\"t\": type, \"d\": data}",
            None,
        ));
    };
    let t = frame.get("t").and_then(Value::as_str).unwrap_or("");
    let d = frame.get("d").cloned().unwrap_or(Value::Null);
    let ack = d.get("a").and_then(Value::as_u64);
    if t == "ping" {
        return Some(frame_of("pong", Value::Null));
    }
    let Some(by) = seat else {
        return Some(error_frame("spectators cannot play", ack));
    };
    let text_of = |d: &Value| {
        d.get("u")
            .and_then(Value::as_str)
            .map(|u| MoveText::Uci(u.to_owned()))
    };
    let command = match t {
        "move" => match text_of(&d) {
            Some(text) => Command::Move {
                by,
                text,
                offer_draw: d.get("draw").and_then(Value::as_bool).unwrap_or(false),
            },
            None => return Some(error_frame("a move needs \"u\", the move in UCI", ack)),
        },
        "offer-draw" => Command::OfferDraw { by },
        "accept-draw" => Command::AcceptDraw { by },
        "decline-draw" => Command::DeclineDraw { by },
        "claim-draw" => Command::ClaimDraw {
            by,
            with_move: text_of(&d),
        },
        "resign" => Command::Resign { by },
        // The room fills in how long the opponent has been away.
        "claim-victory" => Command::ClaimVictory {
            by,
            opponent_away: Duration::ZERO,
        },
        "abort" => Command::Abort { by },
        other => return Some(error_frame(&format!("unknown frame type {other:?}"), ack)),
    };
    Some(match room.apply(command).await {
        Ok(v) => frame_of("ack", json!({"a": ack, "v": v})),
        Err(e) => error_frame(&e.to_string(), ack),
    })
}

fn frame_of(t: &str, d: Value) -> String {
    json!({"t": t, "d": d}).to_string()
}

fn error_frame(message: &str, ack: Option<u64>) -> String {
    frame_of("error", json!({"message": message, "a": ack}))
}

/// Each side's time left in milliseconds (`null` untimed), as every frame writes it.
#[derive(Serialize)]
struct Clocks {
    white: Option<u64>,
    black: Option<u64>,
}

impl Clocks {
    fn of(clocks: rookery_core::ByColor<Option<Duration>>) -> Clocks {
        let ms = |d: Option<Duration>| d.map(|d| d.as_millis() as u64);
        Clocks {
            white: ms(clocks.white),
            black: ms(clocks.black),
        }
    }
}

/// Legal destinations by origin square, for the player to move (`{"e2": ["e3", "e4"]}`).
/// A castling king lists both its destination and its rook's square (`"e1": ["g1", "h1"]`),
/// the two ways UCI names the move.
fn dests(view: &View, seat: Option<Color>) -> Option<Value> {
    dests_text(view, seat).map(|text| serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// [`dests`] as JSON text, written directly (square names need no escaping): this runs for
/// every move, so it builds no intermediate map.
fn dests_text(view: &View, seat: Option<Color>) -> Option<String> {
    if view.legal.is_empty() || seat != Some(view.turn) {
        return None;
    }
    let mut targets = [Bitboard::EMPTY; 64];
    for m in &view.legal {
        let to = &mut targets[m.from().index()];
        to.set(m.to());
        if let Some(side) = m.castling_side() {
            to.set(side.rook_from(view.turn));
        }
    }
    let mut out = String::with_capacity(16 * view.legal.len());
    out.push('{');
    for (from, to) in Square::ALL.iter().zip(targets) {
        if to.is_empty() {
            continue;
        }
        if out.len() > 1 {
            out.push(',');
        }
        let _ = write!(out, "\"{from}\":[");
        for (i, sq) in to.into_iter().enumerate() {
            let _ = write!(out, "{}\"{sq}\"", if i > 0 { "," } else { "" });
        }
        out.push(']');
    }
    out.push('}');
    Some(out)
}

/// What a player may do now besides moving, as the core says (`null` for spectators).
fn abilities(view: &View, seat: Option<Color>) -> Value {
    let Some(color) = seat else {
        return Value::Null;
    };
    let can = view.can.get(color);
    json!({
        "offer_draw": can.offer_draw,
        "answer_draw": can.answer_draw,
        "claim_draw": can.claim_draw,
        "abort": can.abort,
        "resign": can.resign,
    })
}

/// The square of the king in check, if any.
/// The side whose clock runs now, if any.
fn running(view: &View) -> Value {
    json!(view.running.map(Color::name))
}

fn state_frame(v: u64, game: &Game, seat: Option<Color>) -> String {
    let view = View::of(game);
    let result = game
        .result()
        .map(|(r, t)| json!({"result": r.as_str(), "termination": t.as_str()}));
    // The position after each ply, so a client can show earlier positions without rules.
    let mut fens = Vec::with_capacity(game.moves().len());
    let mut pos = *game.start();
    for played in game.moves() {
        pos = pos.after(played.m);
        fens.push(pos.fen());
    }
    let d = json!({
        "fen": game.position().fen(),
        "start_fen": game.start().fen(),
        "fens": fens,
        "turn": game.position().turn().name(),
        "san": game.moves().iter().map(|m| m.san.to_string()).collect::<Vec<_>>(),
        "uci": game.moves().iter().map(|m| m.m.to_uci().to_string()).collect::<Vec<_>>(),
        "clocks": Clocks::of(game.clocks_at(now_ms())),
        "running": running(&view),
        "check": view.check.map(|sq| sq.to_string()),
        "offer": game.draw_offer().map(Color::name),
        "over": result,
        "you": seat.map(Color::name),
        "dests": dests(&view, seat),
        "can": abilities(&view, seat),
    });
    json!({"t": "state", "v": v, "d": d}).to_string()
}

/// A `move` event, the frame sent most: serialized straight from borrowed parts.
#[derive(Serialize)]
struct MoveFrame<'a> {
    t: &'static str,
    v: u64,
    d: MoveData<'a>,
}

#[derive(Serialize)]
struct MoveData<'a> {
    by: &'static str,
    ply: usize,
    san: &'a str,
    uci: &'a str,
    fen: &'a str,
    clocks: Clocks,
    dests: Option<Box<RawValue>>,
    check: Option<String>,
    running: Option<&'static str>,
    can: Option<Can>,
}

fn move_frame(e: &Versioned, seat: Option<Color>, view: Option<&View>) -> String {
    let RoomEvent::Game(Event::MovePlayed {
        by,
        ply,
        san,
        uci,
        fen,
        clocks,
    }) = &e.event
    else {
        return event_frame(e, seat, view);
    };
    let d = MoveData {
        by: by.name(),
        ply: *ply,
        san,
        uci,
        fen,
        clocks: Clocks::of(*clocks),
        dests: view
            .and_then(|view| dests_text(view, seat))
            .and_then(|text| RawValue::from_string(text).ok()),
        check: view.and_then(|view| view.check.map(|sq| sq.to_string())),
        running: view.and_then(|view| view.running.map(Color::name)),
        can: view.zip(seat).map(|(view, color)| *view.can.get(color)),
    };
    // Plain strings, numbers and JSON already checked: this cannot fail.
    serde_json::to_string(&MoveFrame {
        t: "move",
        v: e.v,
        d,
    })
    .unwrap_or_default()
}

fn event_frame(e: &Versioned, seat: Option<Color>, view: Option<&View>) -> String {
    let (t, mut d) = match &e.event {
        RoomEvent::Game(Event::MovePlayed { .. }) => return move_frame(e, seat, view),
        RoomEvent::Game(Event::DrawOffered { by }) => ("draw-offered", json!({"by": by.name()})),
        RoomEvent::Game(Event::DrawDeclined { by }) => ("draw-declined", json!({"by": by.name()})),
        RoomEvent::Game(Event::GameOver {
            result,
            termination,
        }) => (
            "end",
            json!({"result": result.as_str(), "termination": termination.as_str()}),
        ),
        RoomEvent::Watchers { n } => ("watchers", json!({"n": n})),
        RoomEvent::Seated { color, name } => {
            ("seated", json!({"color": color.name(), "name": name}))
        }
        RoomEvent::RematchOffered { by } => ("rematch-offered", json!({"by": by.name()})),
        RoomEvent::RematchDeclined { by } => ("rematch-declined", json!({"by": by.name()})),
        RoomEvent::Rematch { id } => ("rematch", json!({"id": id})),
        RoomEvent::Presence {
            color,
            connected,
            claim_after,
        } => (
            "presence",
            json!({
                "color": color.name(),
                "connected": connected,
                "claim_after_ms": claim_after.as_millis() as u64,
            }),
        ),
    };
    if let (RoomEvent::Game(_), Value::Object(map), Some(view)) = (&e.event, &mut d, view) {
        // The game as it stands after the event: whose clock runs, what the player may do.
        map.insert("running".into(), running(view));
        map.insert("can".into(), abilities(view, seat));
    }
    json!({"t": t, "v": e.v, "d": d}).to_string()
}

/// A token bucket: `FRAMES_PER_SECOND` a second, bursts up to that many.
struct Limiter {
    tokens: f64,
    last: Instant,
}

impl Limiter {
    fn new() -> Limiter {
        Limiter {
            tokens: f64::from(FRAMES_PER_SECOND),
            last: Instant::now(),
        }
    }

    fn allow(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * f64::from(FRAMES_PER_SECOND);
        self.tokens = (self.tokens + refill).min(f64::from(FRAMES_PER_SECOND));
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}
