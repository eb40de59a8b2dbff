//! The game WebSocket (docs/PROTOCOL.md): `GET /game/{id}/socket?v=N`. Frames are
//! `{"t": type, "d": data}`. Players send commands; everyone receives the room's events,
//! each with its version `v`. A client that reconnects with `?v=N` gets what it missed, or a
//! full state frame. Unknown or malformed frames get an error frame and change nothing; frames
//! over 4 KiB and floods (more than 20 frames a second) are refused without touching the room.

use crate::refusal::Code;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use rookery_core::Color;
use rookery_core::game::Command;
use serde::Deserialize;
use tokio::sync::{broadcast, mpsc};

use super::AppState;
use super::error::ApiError;
use super::identity::InGame;
use std::sync::atomic::Ordering;

use crate::metrics::METRICS;
use crate::protocol::{self, Problem, Request};
use crate::room::{RoomHandle, View};

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
    InGame { row, seat, caller }: InGame,
    Query(q): Query<SocketQuery>,
    place: Option<axum::Extension<super::serve::Place>>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let room = state.rooms.get(&row.game.id).await?;
    let shutdown = state.shutdown.clone();
    let idle = state.socket_idle;
    let open = state.socket_open.clone();
    // A logged-in spectator is listed by name among the watchers.
    let watcher_name = caller.account.as_ref().map(|a| a.user.name.clone());
    // A socket opened with a session or token closes when it is revoked.
    let opened_with = caller
        .account
        .as_ref()
        .map(|a| state.rooms.events().watch(&a.user.id, a.credential()));
    let here = caller.account.map(|a| state.online.enter(&a.user.id));
    Ok(ws
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        // The default buffers are 128 KiB each way; frames here are small, and at 20,000
        // connections the defaults alone would take gigabytes.
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .on_upgrade(move |socket| async move {
            let who = Who {
                seat,
                name: watcher_name,
                opened_with,
            };
            connection(socket, room, who, q.v, (shutdown, idle)).await;
            // Shutdown waits for this to go: the close frame has been sent by now.
            drop(open);
            // The connection's place under the per-address cap, held until now.
            drop(place);
            drop(here);
        }))
}

/// One connection: a writer task for outgoing frames, and this loop for incoming frames and
/// the room's feed.
async fn connection(
    socket: WebSocket,
    room: Option<RoomHandle>,
    who: Who,
    since: Option<u64>,
    ends: (tokio::sync::watch::Receiver<bool>, Duration),
) {
    METRICS.sockets.fetch_add(1, Ordering::Relaxed);
    serve_socket(socket, room, who, since, ends).await;
    METRICS.sockets.fetch_sub(1, Ordering::Relaxed);
}

/// Who is on the other end: a player's seat, the account's name if logged in, and what the
/// socket was opened with (the account's events, to hear it revoked).
struct Who {
    seat: Option<Color>,
    name: Option<String>,
    opened_with: Option<crate::events::Watch>,
}

async fn serve_socket(
    socket: WebSocket,
    room: Option<RoomHandle>,
    Who {
        seat,
        name,
        mut opened_with,
    }: Who,
    since: Option<u64>,
    (mut shutdown, idle): (tokio::sync::watch::Receiver<bool>, Duration),
) {
    let (mut sink, mut stream) = socket.split();
    let (out, mut outgoing) = mpsc::channel::<String>(64);
    let (closing, close_reason) = tokio::sync::oneshot::channel::<&'static str>();
    // Pings carry the time they left, so their pongs measure the round trip (R6).
    let born = tokio::time::Instant::now();
    let writer = tokio::spawn(async move {
        // A ping every third of the idle limit: a live client answers, a dead one does not.
        // A player's connection is measured more often, for its lag.
        let every = if seat.is_some() {
            (idle / 3).min(PLAYER_PING)
        } else {
            idle / 3
        };
        let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        loop {
            let message = tokio::select! {
                text = outgoing.recv() => match text {
                    Some(text) => Message::Text(text.into()),
                    None => break,
                },
                _ = ping.tick() => {
                    let sent = born.elapsed().as_millis() as u64;
                    Message::Ping(axum::body::Bytes::copy_from_slice(&sent.to_be_bytes()))
                }
            };
            if sink.send(message).await.is_err() {
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
            .send(protocol::error(
                &Problem::new(Code::NotFound, "the game is over or gone"),
                None,
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
            let view = room.snapshot().await.ok().map(|s| {
                View::of(
                    &s.game,
                    s.open_seat.is_some(),
                    s.bots,
                    s.berserkable,
                    s.gifts,
                )
            });
            for e in missed {
                v = e.v;
                if let Some(frame) = protocol::event(&e, seat, view.as_ref()) {
                    let _ = out.send(frame).await;
                }
            }
        }
        _ => {
            if let Ok(snapshot) = room.snapshot().await {
                v = snapshot.v;
                let _ = out.send(protocol::state(&snapshot, seat)).await;
            }
        }
    }
    // Players come and go as presence; everyone else counts as a watcher. Announced after
    // the first frame, so this connection hears its own arrival too.
    announce(&room, seat, name.clone(), true).await;
    let mut limiter = Limiter::new();
    let mut closing = Some(closing);
    let mut heard = tokio::time::Instant::now();
    let mut round_trip = RoundTrip::default();
    loop {
        tokio::select! {
            () = crate::events::Watch::revoked(&mut opened_with) => {
                // Logged out (here or everywhere), or the token revoked: the page reconnects
                // as whoever it is now.
                if let Some(c) = closing.take() {
                    let _ = c.send("logged out");
                }
                break;
            }
            () = tokio::time::sleep_until(heard + idle) => {
                tracing::debug!("a silent socket closed");
                break;
            }
            _ = shutdown.changed() => {
                if let Some(c) = closing.take() {
                    let _ = c.send("the server is restarting; reconnect in a moment");
                }
                break;
            }
            msg = stream.next() => {
                let Some(Ok(msg)) = msg else { break };
                heard = tokio::time::Instant::now();
                let text = match msg {
                    Message::Text(t) => t.to_string(),
                    Message::Close(_) => break,
                    Message::Pong(data) => {
                        round_trip.pong(&data, born.elapsed());
                        continue;
                    }
                    Message::Ping(_) => continue,
                    Message::Binary(_) => {
                        if out.send(protocol::error(&Problem::new(Code::Malformed, "binary frames are not understood"), None)).await.is_err() {
                            // The writer is gone: the client stopped reading (or left).
                            break;
                        }
                        continue;
                    }
                };
                if !limiter.allow() {
                    if out.send(protocol::error(&Problem::new(Code::SlowDown, "too many messages: slow down"), None)).await.is_err() {
                        // The writer is gone: the client stopped reading (or left).
                        break;
                    }
                    continue;
                }
                if out.send(handle(&room, seat, &text, round_trip.estimate).await).await.is_err() {
                    // The writer is gone: the client stopped reading (or left).
                    break;
                }
            }
            event = feed.recv() => match event {
                Ok(e) if e.v > v => {
                    v = e.v;
                    // Game events carry the state after them (worked out once by the room);
                    // spectators need no destinations but do see checks and running clocks.
                    if let Some(frame) = protocol::event(&e, seat, e.view.as_deref()) {
                        if out.send(frame).await.is_err() {
                            // The writer is gone: the client stopped reading (or left).
                            break;
                        }
                    }
                }
                Ok(_) => {}
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    // Too far behind for the feed: a full state puts the client right.
                    if let Ok(snapshot) = room.snapshot().await {
                        v = snapshot.v;
                        if out.send(protocol::state(&snapshot, seat)).await.is_err() {
                            // The writer is gone: the client stopped reading (or left).
                            break;
                        }
                    }
                }
                Err(broadcast::error::RecvError::Closed) => {
                    // The room closed under the connection: its game moved to another node
                    // (cluster mode), which the client reaches by connecting again.
                    if let Some(c) = closing.take() {
                        let _ = c.send("the game moved to another server; reconnect");
                    }
                    break;
                }
            },
        }
    }
    announce(&room, seat, name, false).await;
    // Dropping both ends lets the writer finish (with no close reason unless one was sent).
    drop((out, closing));
    let _ = writer.await;
}

/// Tells the room a connection opened or closed: a player's presence, or a watcher.
async fn announce(room: &RoomHandle, seat: Option<Color>, name: Option<String>, joined: bool) {
    match seat {
        Some(color) => room.presence(color, joined).await,
        None => room.watcher(joined, name).await,
    }
}

/// How often a player's connection is pinged, to measure its round trip.
const PLAYER_PING: Duration = Duration::from_secs(3);

/// The connection's round trip, from the server's pings and their pongs: a moving average
/// (a quarter of each new figure), given to the core with each move when the page reports
/// no thinking time of its own (R6).
#[derive(Debug, Default)]
struct RoundTrip {
    estimate: Option<Duration>,
}

impl RoundTrip {
    /// A pong arrived `now` after the connection opened, carrying its ping's send time.
    fn pong(&mut self, data: &[u8], now: Duration) {
        // Only our own pings' pongs carry 8 bytes; anything else measures nothing.
        let Ok(bytes) = <[u8; 8]>::try_from(data) else {
            return;
        };
        let sent = Duration::from_millis(u64::from_be_bytes(bytes));
        let Some(rtt) = now.checked_sub(sent) else {
            return;
        };
        self.estimate = Some(match self.estimate {
            None => rtt,
            Some(old) => (old * 3 + rtt) / 4,
        });
    }
}

/// One client frame: the answer for the sender (ack, error or pong).
async fn handle(
    room: &RoomHandle,
    seat: Option<Color>,
    text: &str,
    round_trip: Option<Duration>,
) -> String {
    let (action, ack) = match protocol::read(text) {
        Ok(Request::Ping) => return protocol::pong(),
        Ok(Request::Act { action, ack }) => (action, ack),
        Err(refused) => {
            return protocol::error(&Problem::new(Code::Malformed, refused.message), refused.ack);
        }
    };
    let Some(by) = seat else {
        return protocol::error(
            &Problem::new(Code::Spectator, "spectators cannot play"),
            ack,
        );
    };
    let mut command = action.by(by);
    if let Command::Move { timing, .. } = &mut command {
        timing.round_trip = round_trip;
    }
    match room.apply(command).await {
        Ok(v) => protocol::ack(ack, v),
        Err(e) => protocol::error(&Problem::from(&e), ack),
    }
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
