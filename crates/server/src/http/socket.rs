//! The game WebSocket (docs/PROTOCOL.md): `GET /game/{id}/socket?v=N`. Frames are
//! `{"t": type, "d": data}`. Players send commands; everyone receives the room's events,
//! each with its version `v`. A client that reconnects with `?v=N` gets what it missed, or a
//! full state frame. Unknown or malformed frames get an error frame and change nothing; frames
//! over 4 KiB and floods (more than 20 frames a second) are refused without touching the room.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use rookery_core::game::{Command, Event, Game, MoveText};
use rookery_core::{Color, Position};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::{broadcast, mpsc};

use super::AppState;
use super::error::ApiError;
use super::games::{game_row, seat_of};
use std::sync::atomic::Ordering;

use crate::metrics::METRICS;
use crate::room::{RoomEvent, RoomHandle, Versioned, now_ms};

/// Largest frame a client may send.
const MAX_FRAME: usize = 4096;
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
            let game = room.snapshot().await.ok().map(|s| s.1);
            for e in missed {
                v = e.v;
                let _ = out.send(event_frame(&e, seat, game.as_ref())).await;
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
                    // Game events carry the state after them; spectators need no destinations
                    // but do see checks and running clocks.
                    let game = if matches!(e.event, RoomEvent::Game(_)) {
                        room.snapshot().await.ok().map(|s| s.1)
                    } else {
                        None
                    };
                    let _ = out.send(event_frame(&e, seat, game.as_ref())).await;
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

fn clocks_json(clocks: rookery_core::ByColor<Option<Duration>>) -> Value {
    json!({
        "white": clocks.white.map(|d| d.as_millis() as u64),
        "black": clocks.black.map(|d| d.as_millis() as u64),
    })
}

/// Legal destinations by origin square, for the player to move (`{"e2": ["e3", "e4"]}`).
/// A castling king lists both its destination and its rook's square (`"e1": ["g1", "h1"]`),
/// the two ways UCI names the move.
fn dests(game: &Game, seat: Option<Color>) -> Option<Value> {
    if game.is_over() || seat != Some(game.position().turn()) {
        return None;
    }
    let turn = game.position().turn();
    let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for m in game.position().legal_moves() {
        let list = map.entry(m.from().to_string()).or_default();
        let mut targets = vec![m.to()];
        if let Some(side) = m.castling_side() {
            targets.push(side.rook_from(turn));
        }
        for to in targets {
            let to = to.to_string();
            if !list.contains(&to) {
                list.push(to);
            }
        }
    }
    Some(json!(map))
}

/// What a player may do now besides moving, as the core says (`null` for spectators).
fn abilities(game: &Game, seat: Option<Color>) -> Value {
    let Some(color) = seat else {
        return Value::Null;
    };
    json!({
        "offer_draw": game.may_offer_draw_now(color),
        "answer_draw": game.may_answer_draw(color),
        "claim_draw": game.may_claim_draw(color),
        "abort": game.may_abort(),
        "resign": game.may_resign(),
    })
}

/// The square of the king in check, if any.
fn check_square(game: &Game) -> Value {
    let pos = game.position();
    if pos.is_check() {
        json!(pos.king_of(pos.turn()).to_string())
    } else {
        Value::Null
    }
}

/// The side whose clock runs now, if any.
fn running(game: &Game) -> Value {
    match game.next_deadline() {
        Some(_) => json!(game.position().turn().name()),
        None => Value::Null,
    }
}

fn state_frame(v: u64, game: &Game, seat: Option<Color>) -> String {
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
        "clocks": clocks_json(game.clocks_at(now_ms())),
        "running": running(game),
        "check": check_square(game),
        "offer": game.draw_offer().map(Color::name),
        "over": result,
        "you": seat.map(Color::name),
        "dests": dests(game, seat),
        "can": abilities(game, seat),
    });
    json!({"t": "state", "v": v, "d": d}).to_string()
}

fn event_frame(e: &Versioned, seat: Option<Color>, game: Option<&Game>) -> String {
    let (t, mut d) = match &e.event {
        RoomEvent::Game(Event::MovePlayed {
            by,
            ply,
            san,
            uci,
            fen,
            clocks,
        }) => (
            "move",
            json!({
                "by": by.name(), "ply": ply, "san": san, "uci": uci, "fen": fen,
                "clocks": clocks_json(*clocks),
                "dests": game.and_then(|g| dests(g, seat)),
            }),
        ),
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
    if let (RoomEvent::Game(event), Value::Object(map)) = (&e.event, &mut d) {
        if let Event::MovePlayed { fen, .. } = event {
            // The king in check in the position the move made.
            let check = Position::from_fen(fen)
                .ok()
                .and_then(|p| p.is_check().then(|| p.king_of(p.turn()).to_string()));
            map.insert("check".into(), json!(check));
        }
        if let Some(g) = game {
            // The game as it stands now: whose clock runs, what the player may do.
            map.insert("running".into(), running(g));
            map.insert("can".into(), abilities(g, seat));
        }
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
