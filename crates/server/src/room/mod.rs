//! Game rooms: one task per live game owns its `rookery_core::game::Game`. Commands come in
//! through a channel; the core decides; accepted moves are committed through the group-commit
//! writer *before* anyone hears of them; then each event gets the room's next version, goes
//! into a short history (for reconnects) and out to every subscriber. The room keeps the
//! clock: it sleeps until the core's next deadline, so a flag falls even if nobody sends
//! anything (ARCHITECTURE.md).

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use crate::wallclock::now_ms;

use rookery_core::game::{Command, Event, Game, GameError};
use rookery_core::{ByColor, Color};
use tokio::sync::{broadcast, mpsc, oneshot};

use std::sync::atomic::Ordering;

use futures_util::future::BoxFuture;

use crate::lobby::{Listing, Lobby};
use crate::metrics::METRICS;
use crate::store::writer::{EventWriter, GameWrite};
use crate::store::{Ending, StoreError, StoredMove};
use rematch::Rematch;
pub(crate) use rematch::RematchAnswer;

mod rematch;
mod request;
mod travel;
mod view;
mod watchers;

pub(crate) use request::{Reply, Request, Transport};
pub(crate) use travel::{Replayed, opening, rebuild};

pub(crate) use view::{Can, Moment, View, opening_of};
#[cfg(test)]
use watchers::WATCHERS_EVERY;
use watchers::Watchers;

/// How many recent events a room keeps for clients that reconnect.
const HISTORY: usize = 128;
/// Events a connection may be behind on the live feed before it is resynced.
const FEED: usize = 32;

/// An event with the room version it was published under.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Versioned {
    pub(crate) v: u64,
    pub(crate) event: RoomEvent,
    /// For game events on the live feed: the game as it stood after them, worked out once
    /// for every connection. The history keeps none (what a player may do comes from the
    /// game as it is), only each event's [`Moment`].
    pub(crate) view: Option<Arc<View>>,
    /// For game events: what the event's own readers need (capture, material, check,
    /// clocks), kept in the history too.
    pub(crate) moment: Option<Moment>,
}

/// What a room publishes: the game's events, and players coming and going.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum RoomEvent {
    Game(Event),
    /// A player's last connection closed, or a first one opened. `claim_after` is how long
    /// the opponent must wait, once the player is gone on their turn, to claim the win.
    Presence {
        color: Color,
        connected: bool,
        claim_after: Duration,
    },
    /// How many spectators watch now, and the names of those logged in.
    Watchers {
        n: u32,
        names: Arc<[String]>,
    },
    /// Someone took the open seat (with their account's title, if any).
    Seated {
        color: Color,
        name: String,
        title: Option<crate::accounts::Title>,
    },
    /// A player asks for a rematch of the finished game.
    RematchOffered {
        by: Color,
    },
    /// A player declined or withdrew the rematch offer.
    RematchDeclined {
        by: Color,
    },
    /// Both agreed: the rematch is game `id`.
    Rematch {
        id: String,
    },
    /// A line of chat, stored already (each room is shown to its own audience only).
    Chat(Arc<crate::store::chat::ChatLine>),
}

/// A seat to take: who takes it, and their account's title (shown at once).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct TakeSeat {
    pub(crate) seat: crate::store::writer::SeatTaken,
    pub(crate) title: Option<String>,
}

/// Why the room refused a command.
#[derive(Debug)]
pub(crate) enum RoomError {
    /// The rules said no; nothing changed.
    Game(GameError),
    /// The move could not be stored, so it did not happen.
    Store(StoreError),
    /// The room has shut down.
    Closed,
    /// A rematch needs the game to be over.
    NotOver,
    /// Nobody has taken the other seat yet: nothing but an abort.
    Waiting,
    /// The seat asked for is not open (someone took it first, or the game is over).
    SeatsTaken,
    /// The game's owner (another node) refused, as it would have to its own connection.
    Remote(crate::refusal::Problem),
    /// The game's owner did not answer in time, or no node holds the game just now (it is
    /// moving to another node): nothing happened that anyone was told of; try again.
    Unavailable,
}

impl std::fmt::Display for RoomError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RoomError::Game(e) => e.fmt(f),
            // The store's own message is for the logs.
            RoomError::Store(_) => {
                f.write_str("the move cannot be saved right now; try again in a moment")
            }
            RoomError::Closed => f.write_str("the game room is closed"),
            RoomError::NotOver => f.write_str("a rematch can be offered once the game is over"),
            RoomError::Waiting => {
                f.write_str("wait for an opponent to take the other seat (or abort the game)")
            }
            RoomError::SeatsTaken => f.write_str("both seats are taken"),
            RoomError::Remote(p) => f.write_str(&p.message),
            RoomError::Unavailable => {
                f.write_str("the game's server does not answer just now; try again in a moment")
            }
        }
    }
}

impl std::error::Error for RoomError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RoomError::Game(e) => Some(e),
            RoomError::Store(e) => Some(e),
            RoomError::Closed
            | RoomError::NotOver
            | RoomError::Waiting
            | RoomError::SeatsTaken
            | RoomError::Remote(_)
            | RoomError::Unavailable => None,
        }
    }
}

/// What a subscriber gets: the version it starts from, the events it missed since the
/// version it knew (or `None` when they are gone and it must resync), and the live feed.
/// The feed is this node's: it does not travel (another node's subscription arrives with a
/// closed one, and its transport puts this node's in).
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Subscription {
    pub(crate) v: u64,
    pub(crate) missed: Option<Vec<Versioned>>,
    #[serde(skip, default = "closed_feed")]
    pub(crate) feed: broadcast::Receiver<Versioned>,
}

/// A feed that has ended.
fn closed_feed() -> broadcast::Receiver<Versioned> {
    broadcast::channel(1).1
}

/// What a room's task receives: a request (with where to answer, if it is answered), or
/// word from this node that it no longer holds the game.
pub(crate) enum RoomCmd {
    Request {
        request: Request,
        reply: Option<oneshot::Sender<Result<Reply, RoomError>>>,
    },
    /// Another node holds the game now (or this node hands it over): the room ends.
    Close,
}

/// The room as it stands: its version, its game, and the seat still open, if any.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct Snapshot {
    pub(crate) v: u64,
    #[serde(with = "travel::game")]
    pub(crate) game: Game,
    /// A seat nobody has taken yet: the game waits for its opponent.
    pub(crate) open_seat: Option<Color>,
    /// The seats a bot plays.
    pub(crate) bots: ByColor<bool>,
    /// Its arena lets the players go berserk.
    #[serde(default)]
    pub(crate) berserkable: bool,
    /// Its players may give each other time (not in a tournament's game).
    #[serde(default)]
    pub(crate) gifts: bool,
}

/// A cheap-to-clone handle to a room: its task on this node, or a transport to the game's
/// owner on another node (cluster mode), which the cluster plugs in.
#[derive(Debug, Clone)]
pub(crate) enum RoomHandle {
    Local(mpsc::Sender<RoomCmd>),
    Remote(Arc<dyn Transport>),
}

/// Where a room goes to sleep: the registry that hands it out (`rooms.rs`), which it asks to
/// forget it and to store when it must be loaded again.
pub(crate) trait Sleep: Send + Sync {
    /// Under the registry's lock, if nobody but the registry (and `kept` others: the
    /// cluster's bridge) holds a handle to room `id` and nothing waits in `rx`: forgets the
    /// room and closes `rx`, so that nobody is handed it or can send to it from now on (the
    /// next request loads the game again). False: someone may still ask; the room stays.
    fn unlist(&self, id: &str, rx: &mut mpsc::Receiver<RoomCmd>, kept: usize) -> bool;

    /// Stores that game `id`, loaded under `epoch`, sleeps until `wake_at` (ms on the
    /// calendar).
    fn sleep<'a>(&'a self, id: &'a str, epoch: i64, wake_at: u64) -> BoxFuture<'a, ()>;
}

/// When and where an idle room goes to sleep (issue 55): its task ends and the game is
/// loaded again from the store on the next request, or when its time must be kept.
#[derive(Clone)]
pub(crate) struct Hibernation {
    /// With nobody connected and nothing asked for this long, the room sleeps.
    pub(crate) after: Duration,
    pub(crate) to: Arc<dyn Sleep>,
}

/// How a room behaves beyond its game.
pub(crate) struct RoomOptions {
    /// An unstarted game with no move for this long is aborted (as lichess does).
    pub(crate) idle_abort: Duration,
    /// A finished game's room closes once nobody has been connected for this long.
    pub(crate) linger: Duration,
    /// Called when the room's task ends (to take it out of the registry).
    pub(crate) on_exit: Box<dyn FnOnce() + Send>,
    /// The seat still open when the room starts (a challenge nobody has accepted).
    pub(crate) open_seat: Option<Color>,
    /// Whether the game is a public seek, and where the room says how it lists.
    pub(crate) seek: bool,
    /// The seats a bot plays (a bot never accepts a draw, so nobody is offered to offer one).
    pub(crate) bots: ByColor<bool>,
    pub(crate) lobby: Lobby,
    /// The version before the room's first event: the game's epoch times
    /// [`EPOCH_VERSIONS`], so that a room loaded again never reuses a version.
    pub(crate) first_v: u64,
    /// Cluster mode: the epoch of this node's lease; every write is fenced by it, and a
    /// fenced write closes the room (another node has the game).
    pub(crate) fence: Option<i64>,
    /// An arena's game whose players may go berserk.
    pub(crate) berserkable: bool,
    /// Its players may give each other time (lichess's "+15 seconds"; not in a tournament).
    pub(crate) gifts: bool,
    /// The epoch the game was loaded under (a sleeping game's record names it).
    pub(crate) epoch: i64,
    /// Whether, and where, the room sleeps when nobody is there (`None`: it never does).
    pub(crate) hibernation: Option<Hibernation>,
    /// The game was loaded again (a restart, a takeover, a wake): nobody is connected yet,
    /// and each player counts as gone from the room's start.
    pub(crate) loaded: bool,
}

/// Versions one load of a game may use before the next load's begin (far more events than
/// a room ever publishes; JavaScript's exact integers allow nine million loads).
pub(crate) const EPOCH_VERSIONS: u64 = 1_000_000_000;

impl std::fmt::Debug for RoomOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RoomOptions")
            .field("idle_abort", &self.idle_abort)
            .field("linger", &self.linger)
            .field("first_v", &self.first_v)
            .finish_non_exhaustive()
    }
}

impl Default for RoomOptions {
    fn default() -> RoomOptions {
        RoomOptions {
            idle_abort: IDLE_ABORT,
            linger: LINGER,
            on_exit: Box::new(|| {}),
            first_v: 0,
            fence: None,
            open_seat: None,
            seek: false,
            bots: ByColor::default(),
            lobby: Lobby::default(),
            berserkable: false,
            gifts: true,
            epoch: 0,
            hibernation: None,
            loaded: false,
        }
    }
}

impl RoomHandle {
    /// Starts the task of game `id`.
    pub(crate) fn spawn(
        id: String,
        game: Game,
        writer: EventWriter,
        options: RoomOptions,
    ) -> RoomHandle {
        let (tx, rx) = mpsc::channel(256);
        // Every slot is allocated up front (about 160 bytes each), so the feed is short: a
        // connection that falls further behind gets a full state instead.
        let (feed, _) = broadcast::channel(FEED);
        if !game.is_over() {
            METRICS.live_games.fetch_add(1, Ordering::Relaxed);
        }
        let started = tokio::time::Instant::now();
        let room = Room {
            id,
            game,
            writer,
            v: options.first_v,
            history: VecDeque::new(),
            feed,
            idle_abort: options.idle_abort,
            linger: options.linger,
            last_activity: started,
            quiet_since: started,
            connections: ByColor::default(),
            gone_since: ByColor::new_with(|_| options.loaded.then_some(started)),
            watchers: Watchers::default(),
            rematch: Rematch::None,
            open_seat: options.open_seat,
            seek: options.seek,
            bots: options.bots,
            lobby: options.lobby,
            fence: options.fence,
            closing: false,
            berserkable: options.berserkable,
            gifts: options.gifts,
            epoch: options.epoch,
            hibernation: options.hibernation,
        };
        let on_exit = options.on_exit;
        let (lobby, key) = (room.lobby.clone(), room.id.clone());
        METRICS.rooms.fetch_add(1, Ordering::Relaxed);
        tokio::spawn(async move {
            if room.run(rx).await {
                // Closed or asleep with its game still on (here: it is live elsewhere).
                METRICS.live_games.fetch_sub(1, Ordering::Relaxed);
            }
            lobby.set(&key, None);
            METRICS.rooms.fetch_sub(1, Ordering::Relaxed);
            on_exit();
        });
        RoomHandle::Local(tx)
    }

    /// Whether the room runs on this node.
    pub(crate) fn is_local(&self) -> bool {
        matches!(self, RoomHandle::Local(_))
    }

    /// Whether the room's task has ended (a room on another node: whether its owner did not
    /// answer the last request).
    pub(crate) fn is_closed(&self) -> bool {
        match self {
            RoomHandle::Local(tx) => tx.is_closed(),
            RoomHandle::Remote(room) => room.is_gone(),
        }
    }

    /// Sends `request` wherever the room is; a told request is answered [`Reply::Done`] at
    /// once.
    pub(crate) async fn request(&self, request: Request) -> Result<Reply, RoomError> {
        match self {
            RoomHandle::Local(tx) => {
                if !request.is_answered() {
                    let _ = tx
                        .send(RoomCmd::Request {
                            request,
                            reply: None,
                        })
                        .await;
                    return Ok(Reply::Done);
                }
                let (reply, answer) = oneshot::channel();
                let cmd = RoomCmd::Request {
                    request,
                    reply: Some(reply),
                };
                tx.send(cmd).await.map_err(|_| RoomError::Closed)?;
                answer.await.map_err(|_| RoomError::Closed)?
            }
            RoomHandle::Remote(room) if !request.is_answered() => {
                room.tell(request).await;
                Ok(Reply::Done)
            }
            RoomHandle::Remote(room) => room.ask(request).await,
        }
    }

    /// A request answered with a version.
    async fn versioned(&self, request: Request) -> Result<u64, RoomError> {
        match self.request(request).await? {
            Reply::Version(v) => Ok(v),
            other => Err(unexpected(&other)),
        }
    }

    /// A player of the finished game asks for a rematch.
    pub(crate) async fn rematch(&self, by: Color) -> Result<RematchAnswer, RoomError> {
        match self.request(Request::Rematch { by }).await? {
            Reply::Rematch(answer) => Ok(answer),
            other => Err(unexpected(&other)),
        }
    }

    /// Takes the open seat: answered once the room has stored it and told everyone (the
    /// taker's first move then finds the seat taken), with the version of that event.
    ///
    /// # Errors
    /// [`RoomError::SeatsTaken`] when the seat is not open; the store's failure (nothing
    /// stored); the owner unreachable.
    pub(crate) async fn take_seat(&self, seat: TakeSeat) -> Result<u64, RoomError> {
        self.versioned(Request::TakeSeat(seat)).await
    }

    /// Feeds a command; returns the room version after the events it caused.
    pub(crate) async fn apply(&self, command: Command) -> Result<u64, RoomError> {
        self.versioned(Request::Apply(command)).await
    }

    /// Subscribes, knowing events up to version `since`.
    pub(crate) async fn subscribe(&self, since: u64) -> Result<Subscription, RoomError> {
        match self.request(Request::Subscribe { since }).await? {
            Reply::Subscribed(sub) => Ok(sub),
            other => Err(unexpected(&other)),
        }
    }

    /// The game as it stands, with its version.
    pub(crate) async fn snapshot(&self) -> Result<Snapshot, RoomError> {
        match self.request(Request::Snapshot).await? {
            Reply::Snapshot(snapshot) => Ok(*snapshot),
            other => Err(unexpected(&other)),
        }
    }

    /// Tells the room something that has no answer.
    pub(crate) async fn tell(&self, request: Request) {
        debug_assert!(!request.is_answered());
        let _ = self.request(request).await;
    }

    /// A player's connection opened or closed.
    pub(crate) async fn presence(&self, color: Color, connected: bool) {
        self.tell(Request::Presence { color, connected }).await;
    }

    /// A spectator's connection opened or closed (with the account's name if logged in).
    pub(crate) async fn watcher(&self, joined: bool, name: Option<String>) {
        self.tell(Request::Watcher { joined, name }).await;
    }

    /// Ends the room (this node no longer holds its game); nothing for a remote room.
    pub(crate) async fn close(&self) {
        if let RoomHandle::Local(tx) = self {
            let _ = tx.send(RoomCmd::Close).await;
        }
    }
}

/// An answer of the wrong kind (a newer owner's?): said as the owner being unavailable.
fn unexpected(reply: &Reply) -> RoomError {
    tracing::warn!(?reply, "an answer of the wrong kind");
    RoomError::Unavailable
}

struct Room {
    id: String,
    game: Game,
    writer: EventWriter,
    /// Version of the last published event.
    v: u64,
    history: VecDeque<Versioned>,
    feed: broadcast::Sender<Versioned>,
    /// An unstarted game with no move for this long is aborted (as lichess does).
    idle_abort: Duration,
    /// A finished game's room closes after this long with nobody connected.
    linger: Duration,
    /// When the last move was made, the room opened, or (once the game is over) the last
    /// connection came or went.
    last_activity: tokio::time::Instant,
    /// Open connections of each player.
    connections: ByColor<u32>,
    /// Since when each player has had no connection (`None`: connected, or never was).
    gone_since: ByColor<Option<tokio::time::Instant>>,
    /// Open spectator connections, and when their count is next told.
    watchers: Watchers,
    /// Where a rematch of the finished game stands.
    rematch: Rematch,
    /// The seat nobody has taken yet: until someone does, no move is played (only an abort).
    open_seat: Option<Color>,
    /// A public seek (listed in the lobby while its creator is there).
    seek: bool,
    /// The seats a bot plays.
    bots: ByColor<bool>,
    /// Where the room says how it lists.
    lobby: Lobby,
    /// Cluster mode: the epoch of this node's lease, which fences every write.
    fence: Option<i64>,
    /// The room ends after this turn of its loop (another node holds the game).
    closing: bool,
    /// Its arena lets the players go berserk.
    berserkable: bool,
    /// Its players may give each other time.
    gifts: bool,
    /// The epoch the game was loaded under.
    epoch: i64,
    /// Whether, and where, the room sleeps when nobody is there.
    hibernation: Option<Hibernation>,
    /// When the room was last asked anything (it sleeps after a while of quiet).
    quiet_since: tokio::time::Instant,
}

/// How long a game that has not started may wait for a move before it is aborted.
const IDLE_ABORT: Duration = Duration::from_secs(600);
/// A room whose game must keep its time within this long does not sleep (the waker would
/// load it again at once).
const STAY_AWAKE: Duration = Duration::from_secs(10);
/// How long a finished game's room stays open with nobody connected (for a rematch, or a
/// last look).
const LINGER: Duration = Duration::from_secs(120);

impl Room {
    /// Serves the room until it closes or sleeps: whether its game is still on.
    async fn run(mut self, rx: mpsc::Receiver<RoomCmd>) -> bool {
        self.serve(rx).await;
        !self.game.is_over()
    }

    async fn serve(&mut self, mut rx: mpsc::Receiver<RoomCmd>) {
        loop {
            // How the room lists, after whatever the last turn of the loop changed.
            self.list();
            let flag = self.game.next_deadline().map(|d| {
                tokio::time::Instant::now() + Duration::from_millis(d.saturating_sub(now_ms()))
            });
            let abort = self.abort_at();
            // An untimed game nobody moves in ends abandoned (the core's rule of how long).
            let against_bot = self.bots.white || self.bots.black;
            let idle = self.game.idle_deadline(against_bot).map(|d| {
                tokio::time::Instant::now() + Duration::from_millis(d.saturating_sub(now_ms()))
            });
            let close = (self.game.is_over() && self.connected() == 0)
                .then(|| self.last_activity + self.linger);
            let sleep_at = self
                .hibernation
                .as_ref()
                .filter(|_| self.may_sleep())
                .map(|h| self.quiet_since + h.after);
            let deadline = [flag, abort, idle, close, self.watchers.due, sleep_at]
                .into_iter()
                .flatten()
                .min();
            let sleep = async {
                match deadline {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            if self.closing {
                return;
            }
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => return,
                },
                () = sleep => {
                    let now = tokio::time::Instant::now();
                    if close.is_some_and(|c| now >= c) {
                        return;
                    }
                    if sleep_at.is_some_and(|s| now >= s) {
                        if self.hibernate(&mut rx).await {
                            return;
                        }
                        // Someone holds the room still: quiet is counted again.
                        self.quiet_since = now;
                        continue;
                    }
                    if let Some((n, names)) = self.watchers.publish_due(now) {
                        self.publish_room(RoomEvent::Watchers { n, names });
                        // TV picks by audience: the lobby hears the new count too.
                        self.list();
                    }
                    let mut next = self.game.clone();
                    let (mut events, _) = next.tick(now_ms());
                    if events.is_empty() && abort.is_some_and(|a| tokio::time::Instant::now() >= a) {
                        let by = next.position().turn();
                        events = next.apply(Command::Abort { by }, now_ms()).unwrap_or_default();
                    }
                    if events.is_empty() {
                        events = next.end_if_idle(now_ms(), against_bot);
                    }
                    if !events.is_empty() {
                        let stored = self.persist(&next, &events).await;
                        if stored.is_ok() {
                            self.game = next;
                            self.publish(events);
                        } else if self.closing {
                            return;
                        } else {
                            // The store is down: try the flag again shortly, without spinning.
                            tokio::time::sleep(Duration::from_millis(250)).await;
                        }
                    }
                }
            }
        }
    }

    /// Tells the lobby how this room lists now (a finished game lists nothing).
    fn list(&self) {
        let listing = (!self.game.is_over()).then(|| Listing {
            seek: self.seek,
            open: self.open_seat.is_some(),
            creator_here: self
                .open_seat
                .is_some_and(|open| self.connections[!open] > 0),
            moves: self.game.moves().len(),
            opening: view::opening_of(&self.game),
            watchers: self.watchers.n,
        });
        self.lobby.set(&self.id, listing);
    }

    /// Open connections, players' and spectators'.
    fn connected(&self) -> u32 {
        self.connections.white + self.connections.black + self.watchers.n
    }

    /// Whether the room may sleep: a game under way with both seats taken by people, and
    /// nobody connected or following its feed (but this node's bridge, in cluster mode).
    fn may_sleep(&self) -> bool {
        !self.game.is_over()
            && !self.closing
            && self.open_seat.is_none()
            && !self.bots.white
            && !self.bots.black
            && self.connected() == 0
            && self.watchers.due.is_none()
            && self.feed.receiver_count() <= self.bridged()
    }

    /// Handles and feeds this node's bridge holds (cluster mode: the room is served to the
    /// other nodes).
    fn bridged(&self) -> usize {
        usize::from(self.fence.is_some())
    }

    /// When a game not begun is aborted for want of a move.
    fn abort_at(&self) -> Option<tokio::time::Instant> {
        (!self.game.has_started() && !self.game.is_over())
            .then(|| self.last_activity + self.idle_abort)
    }

    /// Goes to sleep if nobody can ask anything of the room any more (true): the store then
    /// keeps when the game must be loaded to keep its time. A request the cluster's bridge
    /// forwarded meanwhile is answered "unavailable" (nothing was done; asked again, the game
    /// is loaded again).
    async fn hibernate(&mut self, rx: &mut mpsc::Receiver<RoomCmd>) -> bool {
        let Some(hibernation) = self.hibernation.clone() else {
            return false;
        };
        // A game due soon stays awake: it would be loaded again at once to keep its time.
        let wake_at = self.wake_at();
        if wake_at < now_ms() + STAY_AWAKE.as_millis() as u64 {
            return false;
        }
        if !hibernation.to.unlist(&self.id, rx, self.bridged()) {
            return false;
        }
        while let Ok(cmd) = rx.try_recv() {
            if let RoomCmd::Request {
                reply: Some(reply), ..
            } = cmd
            {
                let _ = reply.send(Err(RoomError::Unavailable));
            }
        }
        hibernation.to.sleep(&self.id, self.epoch, wake_at).await;
        METRICS.slept.fetch_add(1, Ordering::Relaxed);
        true
    }

    /// When a sleeping game must be loaded again (ms on the calendar): its next flag, the
    /// abort of a game not begun, or the abandonment of an untimed one, whichever is first;
    /// in a month if none (a look that costs nothing when nothing is due).
    fn wake_at(&self) -> u64 {
        let now = now_ms();
        let abort = self.abort_at().map(|at| {
            now + at
                .saturating_duration_since(tokio::time::Instant::now())
                .as_millis() as u64
        });
        [
            self.game.next_deadline(),
            abort,
            self.game.idle_deadline(false),
        ]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(now + 30 * 24 * 3_600_000)
    }

    async fn handle(&mut self, cmd: RoomCmd) {
        self.quiet_since = tokio::time::Instant::now();
        match cmd {
            RoomCmd::Request { request, reply } => {
                let answer = self.answer(request).await;
                if let Some(reply) = reply {
                    let _ = reply.send(answer);
                }
            }
            RoomCmd::Close => self.closing = true,
        }
    }

    /// Does what `request` asks: the one place each request is decided.
    async fn answer(&mut self, request: Request) -> Result<Reply, RoomError> {
        if matches!(request, Request::Presence { .. } | Request::Watcher { .. })
            && self.game.is_over()
        {
            // A finished game's room lingers from the last time someone came or went.
            self.last_activity = tokio::time::Instant::now();
        }
        Ok(match request {
            Request::Apply(command) => Reply::Version(self.apply(command).await?),
            Request::Subscribe { since } => Reply::Subscribed(self.subscribe(since)),
            Request::Presence { color, connected } => {
                self.presence(color, connected);
                Reply::Done
            }
            Request::Watcher { joined, name } => {
                self.watchers
                    .change(joined, name, tokio::time::Instant::now());
                Reply::Done
            }
            Request::Snapshot => Reply::Snapshot(Box::new(Snapshot {
                v: self.v,
                game: self.game.clone(),
                open_seat: self.open_seat,
                bots: self.bots,
                berserkable: self.berserkable,
                gifts: self.gifts,
            })),
            Request::Rematch { by } => Reply::Rematch(self.rematch(by)?),
            Request::RematchDecline { by } => {
                if let Some(event) = self.rematch.decline(by) {
                    self.publish_room(event);
                }
                Reply::Done
            }
            Request::RematchMade { id } => {
                if let Some(event) = self.rematch.made(id) {
                    self.publish_room(event);
                }
                Reply::Done
            }
            Request::Chat(line) => {
                self.publish_room(RoomEvent::Chat(line));
                Reply::Done
            }
            Request::TakeSeat(seat) => Reply::Version(self.take_seat(seat).await?),
        })
    }

    /// The feed from now on, and what a subscriber that knew version `since` missed.
    fn subscribe(&self, since: u64) -> Subscription {
        let feed = self.feed.subscribe();
        let missed = if since == self.v {
            Some(Vec::new())
        } else if since < self.v && self.history.front().is_some_and(|e| e.v <= since + 1) {
            Some(
                self.history
                    .iter()
                    .filter(|e| e.v > since)
                    .cloned()
                    .collect(),
            )
        } else {
            None
        };
        Subscription {
            v: self.v,
            missed,
            feed,
        }
    }

    /// A player's connection opened or closed: told when the player comes or goes.
    fn presence(&mut self, color: Color, connected: bool) {
        let before = self.connections[color];
        self.connections[color] = if connected {
            before + 1
        } else {
            before.saturating_sub(1)
        };
        let now_gone = self.connections[color] == 0;
        if (before == 0) != now_gone {
            self.gone_since[color] = now_gone.then(tokio::time::Instant::now);
            let claim_after = self.game.abandonment_wait();
            self.publish_room(RoomEvent::Presence {
                color,
                connected: !now_gone,
                claim_after,
            });
        }
    }

    /// The open seat taken: stored under the lease's epoch first, then told.
    async fn take_seat(&mut self, seat: TakeSeat) -> Result<u64, RoomError> {
        if self.open_seat != Some(seat.seat.color) || self.game.is_over() {
            return Err(RoomError::SeatsTaken);
        }
        let stored = self
            .writer
            .take_seat(&self.id, &seat.seat, self.fence)
            .await;
        if stored == Err(StoreError::Fenced) {
            tracing::warn!(game = %self.id, "fenced: the room closes");
            self.closing = true;
        }
        if !stored.map_err(RoomError::Store)? {
            return Err(RoomError::SeatsTaken);
        }
        self.open_seat = None;
        let title = seat
            .title
            .as_deref()
            .and_then(crate::accounts::Title::parse);
        // The game can begin: the event carries what each player may now do.
        let view = Arc::new(View::of(
            &self.game,
            self.open_seat.is_some(),
            self.bots,
            self.berserkable,
            self.gifts,
        ));
        let name = seat.seat.name;
        let color = seat.seat.color;
        self.send(RoomEvent::Seated { color, name, title }, Some(view));
        Ok(self.v)
    }

    /// A rematch request ([`Rematch`] keeps the state).
    fn rematch(&mut self, by: Color) -> Result<RematchAnswer, RoomError> {
        if !self.game.is_over() {
            return Err(RoomError::NotOver);
        }
        let (answer, event) = self.rematch.ask(by);
        if let Some(event) = event {
            self.publish_room(event);
        }
        Ok(answer)
    }

    /// The core decides on a copy; the copy becomes the game only once stored.
    async fn apply(&mut self, mut command: Command) -> Result<u64, RoomError> {
        let started = std::time::Instant::now();
        // The room measures presence; the core judges whether it is long enough.
        if let Command::ClaimVictory { by, opponent_away } = &mut command {
            *opponent_away = self.gone_since[!*by].map_or(Duration::ZERO, |t| t.elapsed());
        }
        if self.open_seat.is_some() && !matches!(command, Command::Abort { .. }) {
            return Err(RoomError::Waiting);
        }
        // Berserk is an arena's, where it allows it; the core judges the rest.
        if matches!(command, Command::Berserk { .. }) && !self.berserkable {
            return Err(RoomError::Game(
                rookery_core::game::GameError::CannotBerserk,
            ));
        }
        // Time is given between people outside tournaments; the core judges the clock.
        if let Command::GiveTime { by } = command {
            if !self.gifts || self.bots[!by] {
                return Err(RoomError::Game(
                    rookery_core::game::GameError::CannotGiveTime,
                ));
            }
        }
        let is_move = matches!(command, Command::Move { .. });
        let mut next = self.game.clone();
        let events = next.apply(command, now_ms()).map_err(RoomError::Game)?;
        self.persist(&next, &events)
            .await
            .map_err(RoomError::Store)?;
        self.game = next;
        self.publish(events);
        if is_move {
            self.last_activity = tokio::time::Instant::now();
            METRICS.move_latency.observe(started.elapsed());
        }
        Ok(self.v)
    }

    /// Commits what a command did to `next`, whole, through the group-commit writer: the
    /// moves it played with what they caused (the end, a change of the draw offers).
    async fn persist(&mut self, next: &Game, events: &[Event]) -> Result<(), StoreError> {
        let mut write = GameWrite {
            game_id: self.id.clone(),
            epoch: self.fence,
            ..GameWrite::default()
        };
        for event in events {
            match event {
                Event::MovePlayed { ply, san, uci, .. } => {
                    let played = &next.moves()[ply - 1];
                    write.moves.push(StoredMove {
                        game_id: self.id.clone(),
                        ply: *ply as i64,
                        uci: uci.clone(),
                        san: san.clone(),
                        clock_ms: played.clock.map(|c| c.as_millis() as i64),
                        at_ms: played.at as i64,
                        elapsed_ms: played.elapsed.as_millis() as i64,
                        lag_ms: played.lag.as_millis() as i64,
                    });
                }
                Event::GameOver {
                    result,
                    termination,
                } => {
                    let ending = Ending {
                        result: *result,
                        termination: *termination,
                    };
                    write.ending = Some((ending, now_ms() as i64));
                    write.explorer = crate::store::ExplorerRow::of(next);
                }
                Event::DrawOffered { .. } | Event::DrawDeclined { .. } => {}
                Event::Berserked { .. } => {
                    write.berserk = Some(ByColor::new_with(|c| next.clock().is_berserk(c)));
                }
                Event::TimeGiven { .. } => write.gifts = Some(next.gifts().to_vec()),
            }
        }
        if !next.is_over() && next.draw_offers() != self.game.draw_offers() {
            write.draw_offers = Some(next.draw_offers());
        }
        if write
            == (GameWrite {
                game_id: self.id.clone(),
                epoch: self.fence,
                ..GameWrite::default()
            })
        {
            return Ok(());
        }
        let written = self.writer.write(write).await;
        if written == Err(StoreError::Fenced) {
            // Another node took the game over: it alone may go on with it.
            tracing::warn!(game = %self.id, "fenced: the room closes");
            self.closing = true;
        }
        written
    }

    fn publish(&mut self, events: Vec<Event>) {
        if events.is_empty() {
            return;
        }
        let view = Arc::new(View::of(
            &self.game,
            self.open_seat.is_some(),
            self.bots,
            self.berserkable,
            self.gifts,
        ));
        for event in events {
            if matches!(event, Event::GameOver { .. }) {
                METRICS.live_games.fetch_sub(1, Ordering::Relaxed);
                self.last_activity = tokio::time::Instant::now();
            }
            self.send(RoomEvent::Game(event), Some(view.clone()));
        }
    }

    /// Gives an event the next version, keeps it in the history and sends it out.
    fn publish_room(&mut self, event: RoomEvent) {
        self.send(event, None);
    }

    fn send(&mut self, event: RoomEvent, view: Option<Arc<View>>) {
        self.v += 1;
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        let moment = view.as_deref().map(|v| v.moment);
        self.history.push_back(Versioned {
            v: self.v,
            event: event.clone(),
            view: None,
            moment,
        });
        // Nobody listening is fine.
        let _ = self.feed.send(Versioned {
            v: self.v,
            event,
            view,
            moment,
        });
    }
}

#[cfg(test)]
mod tests {
    use rookery_core::Color::{Black, White};
    use rookery_core::Position;
    use rookery_core::clock::TimeControl;
    use rookery_core::game::{MoveText, Termination};
    use rookery_core::pgn::GameResult;

    use super::*;
    use crate::store::{NewGame, Status, Store};

    async fn setup(name: &str, tc: &str) -> (Store, RoomHandle, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("rookery-room-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let store = Store::open(&format!("sqlite://{}", dir.join("t.db").display()))
            .await
            .unwrap();
        store.create_game(&test_game(tc)).await.unwrap();
        let writer = EventWriter::start(store.clone());
        let g = Game::new(Position::new(), TimeControl::from_pgn(tc).unwrap());
        let room = RoomHandle::spawn("g".into(), g, writer, RoomOptions::default());
        (store, room, dir)
    }

    fn test_game(tc: &str) -> NewGame {
        NewGame {
            id: "g".into(),
            created_at: 0,
            start_fen: None,
            time_control: TimeControl::from_pgn(tc).unwrap(),
            white_name: "w".into(),
            black_name: "b".into(),
            white_seat: None,
            black_seat: None,
            ..NewGame::default()
        }
    }

    fn mv(by: rookery_core::Color, san: &str) -> Command {
        Command::Move {
            by,
            text: MoveText::San(san.into()),
            offer_draw: false,
            timing: Default::default(),
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_move_is_stored_before_it_is_acknowledged_or_published() {
        let (store, room, dir) = setup("ack", "-").await;
        let mut sub = room.subscribe(0).await.unwrap();
        for (by, san) in [(White, "f3"), (Black, "e5"), (White, "g4"), (Black, "Qh4#")] {
            let v = room.apply(mv(by, san)).await.unwrap();
            // Acknowledged: it is on disk already.
            assert_eq!(store.moves("g").await.unwrap().len() as u64, v.min(4));
        }
        let mut seen = Vec::new();
        while let Ok(e) = sub.feed.try_recv() {
            seen.push(e);
        }
        assert_eq!(seen.len(), 5, "four moves and the end");
        assert!(seen.windows(2).all(|w| w[1].v == w[0].v + 1));
        assert_eq!(
            seen[4].event,
            RoomEvent::Game(Event::GameOver {
                result: GameResult::BlackWins,
                termination: Termination::Checkmate
            })
        );
        let row = store.game("g").await.unwrap().unwrap();
        assert_eq!(
            (row.status, row.ending.map(|e| e.result)),
            (Status::Over, Some(GameResult::BlackWins))
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn refused_commands_change_nothing_and_reconnects_get_what_they_missed() {
        let (store, room, dir) = setup("refuse", "-").await;
        room.apply(mv(White, "e4")).await.unwrap();
        assert!(matches!(
            room.apply(mv(White, "d4")).await,
            Err(RoomError::Game(GameError::NotYourTurn))
        ));
        assert!(matches!(
            room.apply(mv(Black, "e4")).await,
            Err(RoomError::Game(_))
        ));
        room.apply(mv(Black, "e5")).await.unwrap();
        assert_eq!(store.moves("g").await.unwrap().len(), 2);
        let Snapshot { v, game, .. } = room.snapshot().await.unwrap();
        assert_eq!((v, game.moves().len()), (2, 2));
        let sub = room.subscribe(1).await.unwrap();
        assert_eq!(sub.v, 2);
        let missed = sub.missed.unwrap();
        assert_eq!(missed.len(), 1);
        assert!(
            matches!(&missed[0].event, RoomEvent::Game(Event::MovePlayed { san, .. }) if san == "e5")
        );
        // A version from the future cannot be served from history: resync.
        assert!(room.subscribe(99).await.unwrap().missed.is_none());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn rematch_offers_agree_once_and_a_finished_room_closes_when_left_alone() {
        let (store, _room, dir) = setup("linger", "-").await;
        store
            .create_game(&NewGame {
                id: "l".into(),
                ..test_game("-")
            })
            .await
            .unwrap();
        let (closed, exited) = oneshot::channel();
        let options = RoomOptions {
            linger: Duration::from_millis(300),
            on_exit: Box::new(move || {
                let _ = closed.send(());
            }),
            ..RoomOptions::default()
        };
        let g = Game::new(Position::new(), TimeControl::Untimed);
        let writer = EventWriter::start(store.clone());
        let room = RoomHandle::spawn("l".into(), g, writer, options);
        assert!(matches!(room.rematch(White).await, Err(RoomError::NotOver)));
        room.apply(Command::Abort { by: White }).await.unwrap();
        // A watcher keeps the finished room open past its linger time.
        room.watcher(true, None).await;
        assert_eq!(room.rematch(White).await.unwrap(), RematchAnswer::Offered);
        assert_eq!(room.rematch(White).await.unwrap(), RematchAnswer::Offered);
        assert_eq!(room.rematch(Black).await.unwrap(), RematchAnswer::Agreed);
        // While it is being made, a second agreement does not make another.
        assert_eq!(room.rematch(Black).await.unwrap(), RematchAnswer::Offered);
        room.tell(Request::RematchMade {
            id: Some("next".into()),
        })
        .await;
        assert_eq!(
            room.rematch(White).await.unwrap(),
            RematchAnswer::Made("next".into())
        );
        tokio::time::sleep(Duration::from_millis(600)).await;
        assert!(!room.is_closed(), "someone is watching");
        room.watcher(false, None).await;
        tokio::time::timeout(Duration::from_secs(5), exited)
            .await
            .expect("the room closes once nobody is there")
            .unwrap();
        assert!(room.is_closed());
        let _ = std::fs::remove_dir_all(dir);
    }

    /// A probe's 2,000 watchers of one game caused 1.5 million `watchers` frames: one event
    /// per arrival, sent to everyone already there. Now the count goes out at most every
    /// quarter second, so the events of an arriving audience do not grow with its size.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_audience_arriving_at_once_is_counted_in_a_few_events() {
        let (_store, room, dir) = setup("watchers", "-").await;
        let mut sub = room.subscribe(0).await.unwrap();
        let started = std::time::Instant::now();
        for _ in 0..2000 {
            room.watcher(true, None).await;
        }
        for _ in 0..500 {
            room.watcher(false, None).await;
        }
        let intervals = started.elapsed().as_millis() / WATCHERS_EVERY.as_millis();
        let mut counts = Vec::new();
        loop {
            match tokio::time::timeout(Duration::from_secs(1), sub.feed.recv()).await {
                Ok(Ok(Versioned {
                    event: RoomEvent::Watchers { n, .. },
                    ..
                })) => counts.push(n),
                Ok(other) => panic!("{other:?}"),
                Err(_) => break,
            }
        }
        assert_eq!(
            counts.last(),
            Some(&1500),
            "the last count is exact: {counts:?}"
        );
        // 2,500 arrivals and departures: one event per quarter second while they come, and
        // one after (where there used to be 2,500), however fast the machine.
        let most = intervals as usize + 2;
        assert!(
            counts.len() <= most,
            "{} events, at most {most}: {counts:?}",
            counts.len()
        );
        assert!(
            most < 100,
            "sending 2,500 commands took {intervals} intervals"
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_game_nobody_plays_is_aborted_after_the_idle_time() {
        let (store, _room, dir) = setup("idle", "-").await;
        let writer = EventWriter::start(store.clone());
        let mut second = NewGame {
            id: "h".into(),
            ..test_game("-")
        };
        second.id = "h".into();
        store.create_game(&second).await.unwrap();
        let g = Game::new(Position::new(), TimeControl::Untimed);
        let options = RoomOptions {
            idle_abort: Duration::from_millis(200),
            ..RoomOptions::default()
        };
        let room = RoomHandle::spawn("h".into(), g, writer, options);
        room.apply(mv(White, "e4")).await.unwrap();
        let mut sub = room.subscribe(1).await.unwrap();
        let end = tokio::time::timeout(Duration::from_secs(5), sub.feed.recv())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            end.event,
            RoomEvent::Game(Event::GameOver {
                result: GameResult::Unknown,
                termination: Termination::Aborted
            })
        );
        assert_eq!(store.game("h").await.unwrap().unwrap().status, Status::Over);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_room_keeps_time_and_the_flag_falls_with_nobody_sending_anything() {
        let (store, room, dir) = setup("flag", "1").await;
        let mut sub = room.subscribe(0).await.unwrap();
        room.apply(mv(White, "e4")).await.unwrap();
        room.apply(mv(Black, "e5")).await.unwrap();
        // White's clock now runs: one second, then the flag.
        let over = tokio::time::timeout(Duration::from_secs(5), async {
            loop {
                let e = sub.feed.recv().await.unwrap();
                if let RoomEvent::Game(Event::GameOver {
                    result,
                    termination,
                }) = e.event
                {
                    return (result, termination);
                }
            }
        })
        .await
        .expect("the flag should fall by itself");
        assert_eq!(over, (GameResult::BlackWins, Termination::TimeForfeit));
        assert_eq!(
            store
                .game("g")
                .await
                .unwrap()
                .unwrap()
                .ending
                .map(|e| e.termination),
            Some(Termination::TimeForfeit)
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}
