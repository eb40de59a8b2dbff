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
use futures_util::SinkExt;
use rookery_core::Color;
use rookery_core::game::Command;
use serde::Deserialize;
use tokio::sync::broadcast;

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
/// Frames fed to the socket are written when this much waits, else at the flush after them.
const WRITE_BUFFER: usize = 4 * MAX_FRAME;
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
        // connections the defaults alone would take gigabytes. (The read buffer is allocated
        // at once; the write buffer grows only to what is sent before a flush, and this size
        // is the point where a frame is written without waiting for one.)
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
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
    mut socket: WebSocket,
    room: Option<RoomHandle>,
    Who {
        seat,
        name,
        mut opened_with,
    }: Who,
    since: Option<u64>,
    (mut shutdown, idle): (tokio::sync::watch::Receiver<bool>, Duration),
) {
    // One task reads and writes the socket (issue 55: a writer task of its own, fed through a
    // channel, and the lock splitting the socket in two were a cost of every frame). A client
    // that reads slowly holds up only its own connection.
    // Pings carry the time they left, so their pongs measure the round trip (R6).
    let born = tokio::time::Instant::now();
    // A ping every third of the idle limit: a live client answers, a dead one does not. A
    // player's connection is measured more often, for its lag.
    let every = if seat.is_some() {
        (idle / 3).min(PLAYER_PING)
    } else {
        idle / 3
    };
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    let Some(room) = room else {
        let refusal = protocol::error(
            &Problem::new(Code::NotFound, "the game is over or gone"),
            None,
        );
        let _ = socket.send(Message::Text(refusal.into())).await;
        let _ = SinkExt::close(&mut socket).await;
        return;
    };
    let Ok(sub) = room.subscribe(since.unwrap_or(u64::MAX)).await else {
        return;
    };
    let mut feed = sub.feed;
    let mut v = sub.v;
    let mut first = Vec::new();
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
                    first.push(frame);
                }
            }
        }
        _ => {
            if let Ok(snapshot) = room.snapshot().await {
                v = snapshot.v;
                first.push(protocol::state(&snapshot, seat));
            }
        }
    }
    for frame in first {
        if socket.send(Message::Text(frame.into())).await.is_err() {
            return;
        }
    }
    // Players come and go as presence; everyone else counts as a watcher. Announced after
    // the first frame, so this connection hears its own arrival too.
    announce(&room, seat, name.clone(), true).await;
    let mut limiter = Limiter::new();
    let mut close_reason: Option<&'static str> = None;
    let mut heard = tokio::time::Instant::now();
    let mut round_trip = RoundTrip::default();
    // The silence timer is set once an idle period and checked when it fires, not made anew
    // on every frame: a timer registered and dropped for each frame in and out was a cost of
    // every move (issue 55).
    let silence = tokio::time::sleep_until(heard + idle);
    tokio::pin!(silence);
    loop {
        // What to send, if anything, once the branch that woke is done.
        let frame: Message = tokio::select! {
            () = crate::events::Watch::revoked(&mut opened_with) => {
                // Logged out (here or everywhere), or the token revoked: the page reconnects
                // as whoever it is now.
                close_reason = Some("logged out");
                break;
            }
            () = &mut silence => {
                if heard + idle > tokio::time::Instant::now() {
                    silence.as_mut().reset(heard + idle);
                    continue;
                }
                tracing::debug!("a silent socket closed");
                break;
            }
            _ = shutdown.changed() => {
                close_reason = Some("the server is restarting; reconnect in a moment");
                break;
            }
            _ = ping.tick() => {
                let sent = born.elapsed().as_millis() as u64;
                Message::Ping(axum::body::Bytes::copy_from_slice(&sent.to_be_bytes()))
            }
            msg = socket.recv() => {
                let Some(Ok(msg)) = msg else { break };
                heard = tokio::time::Instant::now();
                match msg {
                    Message::Text(text) if limiter.allow() => Message::Text(
                        handle(&room, seat, text.as_str(), round_trip.estimate).await.into(),
                    ),
                    Message::Text(_) => Message::Text(
                        protocol::error(&Problem::new(Code::SlowDown, "too many messages: slow down"), None)
                            .into(),
                    ),
                    Message::Close(_) => break,
                    Message::Pong(data) => {
                        round_trip.pong(&data, born.elapsed());
                        continue;
                    }
                    Message::Ping(_) => continue,
                    Message::Binary(_) => Message::Text(
                        protocol::error(&Problem::new(Code::Malformed, "binary frames are not understood"), None)
                            .into(),
                    ),
                }
            }
            event = feed.recv() => match from_feed(&room, seat, &mut v, event).await {
                Fed::Frame(frame) => frame,
                Fed::Nothing => continue,
                Fed::Closed => {
                    close_reason = Some(ROOM_MOVED);
                    break;
                }
            },
        };
        // With it, every event the room has published since (a move's ack and the move
        // itself, say): one write to the socket for all of them, not one each (issue 55).
        if socket.feed(frame).await.is_err() {
            break;
        }
        let mut stop = false;
        while !stop {
            let event = match feed.try_recv() {
                Ok(e) => Ok(e),
                Err(broadcast::error::TryRecvError::Empty) => break,
                Err(broadcast::error::TryRecvError::Lagged(n)) => {
                    Err(broadcast::error::RecvError::Lagged(n))
                }
                Err(broadcast::error::TryRecvError::Closed) => {
                    Err(broadcast::error::RecvError::Closed)
                }
            };
            stop = match from_feed(&room, seat, &mut v, event).await {
                Fed::Frame(frame) => socket.feed(frame).await.is_err(),
                Fed::Nothing => false,
                Fed::Closed => {
                    close_reason = Some(ROOM_MOVED);
                    true
                }
            };
        }
        if socket.flush().await.is_err() || stop {
            // The client stopped reading, or left; or the room is gone.
            break;
        }
    }
    announce(&room, seat, name, false).await;
    // A reason, if the server closes the socket on purpose.
    if let Some(reason) = close_reason {
        let frame = axum::extract::ws::CloseFrame {
            code: 1001,
            reason: reason.into(),
        };
        let _ = socket.send(Message::Close(Some(frame))).await;
    }
    let _ = SinkExt::close(&mut socket).await;
}

/// Why a connection closes when its room closes under it: its game moved to another node
/// (cluster mode), which the client reaches by connecting again.
const ROOM_MOVED: &str = "the game moved to another server; reconnect";

/// What an event from the room's feed gives the client.
enum Fed {
    Frame(Message),
    /// Nothing to send (an event seen already, or not for this client).
    Nothing,
    /// The room closed.
    Closed,
}

/// The frame for what the room's feed gave: an event after version `v` (which it advances),
/// or, for a connection too far behind for the feed, a full state that puts the client right.
async fn from_feed(
    room: &RoomHandle,
    seat: Option<Color>,
    v: &mut u64,
    event: Result<crate::room::Versioned, broadcast::error::RecvError>,
) -> Fed {
    match event {
        Ok(e) if e.v > *v => {
            *v = e.v;
            // Game events carry the state after them (worked out once by the room);
            // spectators need no destinations but do see checks and running clocks.
            match protocol::event(&e, seat, e.view.as_deref()) {
                Some(frame) => Fed::Frame(Message::Text(frame.into())),
                None => Fed::Nothing,
            }
        }
        Ok(_) => Fed::Nothing,
        Err(broadcast::error::RecvError::Lagged(_)) => match room.snapshot().await {
            Ok(snapshot) => {
                *v = snapshot.v;
                Fed::Frame(Message::Text(protocol::state(&snapshot, seat).into()))
            }
            Err(_) => Fed::Nothing,
        },
        Err(broadcast::error::RecvError::Closed) => Fed::Closed,
    }
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
