//! The registry of rooms, by game id, and loading games back into rooms from the store (on
//! start, and on first use). A finished game's room closes by itself once nobody has been
//! connected for a while, and leaves the registry as it does; a game under way nobody is
//! connected to sleeps (its room ends, the store keeps when it must be loaded to keep its
//! time) and is loaded again by the next request or by the waker.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use futures_util::future::BoxFuture;

use rookery_core::game::Game;
use rookery_core::{ByColor, Position};
use rookery_engine::Level;

use crate::bot::Bots;
use crate::lobby::Lobby;
use crate::locks::lock;
use crate::room::{
    EPOCH_VERSIONS, Hibernation, Replayed, RoomCmd, RoomHandle, RoomOptions, Sleep, rebuild,
};
use crate::store::writer::{EventWriter, GameWrite};
use crate::store::{Ending, GameRow, NewGame, Status, Store, StoreError};
use crate::wallclock::now_ms;

/// Live rooms. A std `Mutex` is fine: it guards a map lookup and is never held across
/// `.await`.
#[derive(Debug, Clone)]
pub(crate) struct Rooms {
    inner: Arc<Mutex<HashMap<String, RoomHandle>>>,
    store: Store,
    writer: EventWriter,
    bots: Bots,
    /// How each open room lists in the lobby.
    lobby: Lobby,
    /// What happens to accounts (games starting), for their event streams.
    events: crate::events::Events,
    /// Cluster mode: where games are held (leases, other nodes' rooms), plugged in by the
    /// cluster.
    placement: Option<Arc<dyn Placement>>,
    /// One load of a game at a time (locks by the id's hash), so two requests never load
    /// the same game twice: in cluster mode the second lease would fence the first room; on
    /// one node the second load's epoch would outdate the first room's sleep.
    loading: Arc<[tokio::sync::Mutex<()>; LOAD_LOCKS]>,
    /// How long a game under way may sit with nobody there before its room sleeps.
    sleep_after: Option<Duration>,
    /// Games whose room is going to sleep just now (forgotten here, its waking time not yet
    /// stored): a load meanwhile keeps their clocks running as a sleeping game's.
    falling_asleep: Arc<Mutex<HashSet<String>>>,
}

/// Locks of [`Rooms::loading`].
const LOAD_LOCKS: usize = 64;
/// How often the waker looks for sleeping games due (one node), and how far ahead (a
/// cluster's leases of sleeping games run out as far ahead): a game is loaded before its
/// flag, which its room then keeps to the millisecond.
const WAKE_LOOK: Duration = Duration::from_millis(500);
pub(crate) const WAKE_AHEAD: Duration = Duration::from_secs(3);
/// Sleeping games the waker loads at once.
const WAKE_AT_ONCE: usize = 16;

/// Where a game's room runs when several nodes share the database: the cluster plugs one
/// into the rooms, which know nothing of how.
pub(crate) trait Placement: Send + Sync + std::fmt::Debug {
    /// Stores a new game already held by this node (its insert is its lease): its epoch.
    fn create_held<'a>(&'a self, row: &'a NewGame) -> BoxFuture<'a, Result<i64, StoreError>>;

    /// Takes game `id` here if nobody holds it: the epoch of the new lease.
    fn take<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<i64>, StoreError>>;

    /// The room of game `id` on whichever node holds it.
    fn remote(&self, id: &str) -> RoomHandle;

    /// Serves a room held here to the other nodes until it closes; `taken`: another node
    /// (or this one before a restart) held the game before.
    fn serve(&self, id: &str, room: RoomHandle, taken: bool);

    /// Keeps this node's leases and takes over games nobody holds, while the node runs.
    fn start(&self, rooms: Rooms);

    /// Lets game `id`, held here under `epoch`, sleep until `wake_at` (ms): its lease is
    /// given up until then. False: another load has it now.
    fn sleep<'a>(
        &'a self,
        id: &'a str,
        epoch: i64,
        wake_at: i64,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
}

/// What a room going to sleep asks of the registry ([`Sleep`]).
struct Sleeper {
    registry: Weak<Mutex<HashMap<String, RoomHandle>>>,
    store: Store,
    placement: Option<Arc<dyn Placement>>,
    falling_asleep: Arc<Mutex<HashSet<String>>>,
}

impl Sleep for Sleeper {
    fn unlist(&self, id: &str, rx: &mut tokio::sync::mpsc::Receiver<RoomCmd>, kept: usize) -> bool {
        let Some(registry) = self.registry.upgrade() else {
            return false;
        };
        let mut map = lock(&registry);
        // The registry's handle and the kept ones only: nobody else can send (handles are
        // given out under this lock), so nothing is lost by closing.
        if rx.sender_strong_count() > 1 + kept || !rx.is_empty() {
            return false;
        }
        rx.close();
        // Only this room's entry: a new room may have replaced it already.
        if map.get(id).is_some_and(RoomHandle::is_closed) {
            map.remove(id);
        }
        lock(&self.falling_asleep).insert(id.to_owned());
        true
    }

    fn sleep<'a>(&'a self, id: &'a str, epoch: i64, wake_at: u64) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let wake_at = i64::try_from(wake_at).unwrap_or(i64::MAX);
            // Until it is stored nothing would wake the game: the store is asked again.
            loop {
                let stored = match &self.placement {
                    Some(placement) => placement.sleep(id, epoch, wake_at).await,
                    None => self.store.sleep_game(id, epoch, wake_at, None).await,
                };
                match stored {
                    Ok(true) => break,
                    Ok(false) => {
                        tracing::debug!(game = %id, "loaded again before it slept");
                        break;
                    }
                    Err(e) => {
                        tracing::warn!(game = %id, error = %e, "a sleeping game's waking time not stored yet");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
            lock(&self.falling_asleep).remove(id);
        })
    }
}

/// The bot levels of a game's seats (`None`: a person).
pub(crate) fn bot_levels(game: &NewGame) -> ByColor<Option<Level>> {
    let level = |l: Option<i64>| l.and_then(|l| u8::try_from(l).ok()).and_then(Level::new);
    ByColor {
        white: level(game.white_bot),
        black: level(game.black_bot),
    }
}

impl Rooms {
    pub(crate) fn new(store: Store, writer: EventWriter, bots: Bots) -> Rooms {
        Rooms {
            inner: Arc::new(Mutex::new(HashMap::new())),
            store,
            writer,
            bots,
            lobby: Lobby::default(),
            events: crate::events::Events::default(),
            placement: None,
            loading: Arc::new(std::array::from_fn(|_| tokio::sync::Mutex::new(()))),
            sleep_after: None,
            falling_asleep: Arc::default(),
        }
    }

    /// Lets a game's room sleep once nobody has been there for `after`.
    pub(crate) fn sleeping_after(mut self, after: Duration) -> Rooms {
        self.sleep_after = Some(after);
        self
    }

    /// Makes this registry a cluster node's: live games are held by lease, rooms held
    /// elsewhere are reached through their owner.
    pub(crate) fn placed_by(mut self, placement: Arc<dyn Placement>) -> Rooms {
        self.placement = Some(placement);
        self
    }

    /// The database the games are stored in.
    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    /// The accounts' event hub.
    pub(crate) fn events(&self) -> &crate::events::Events {
        &self.events
    }

    /// Tells both accounts of a game whose seats are all taken that it began.
    pub(crate) fn announce_start(&self, game: &NewGame) {
        if game.open_seat().is_some() {
            return;
        }
        for user in [&game.white_user, &game.black_user].into_iter().flatten() {
            self.events
                .send(user, crate::events::UserEvent::GameStart(game.id.clone()));
        }
    }

    /// How the open rooms list in the lobby.
    pub(crate) fn lobby(&self) -> &Lobby {
        &self.lobby
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, RoomHandle>> {
        lock(&self.inner)
    }

    /// Starts a room (and its bots, if the game is on); the caller registers it. `fence`:
    /// the epoch of this node's lease (cluster mode), which fences the room's writes; `new`:
    /// the game was just made (no node held it before).
    fn spawn(
        &self,
        row: &NewGame,
        game: Game,
        epoch: i64,
        fence: Option<i64>,
        new: bool,
    ) -> RoomHandle {
        let (id, bots) = (row.id.as_str(), bot_levels(row));
        let over = game.is_over();
        let registry = Arc::downgrade(&self.inner);
        let key = id.to_owned();
        let options = RoomOptions {
            on_exit: Box::new(move || {
                let Some(registry) = registry.upgrade() else {
                    return;
                };
                let mut map = lock(&registry);
                // Only this room's entry: a new room may have replaced it already.
                if map.get(&key).is_some_and(RoomHandle::is_closed) {
                    map.remove(&key);
                }
            }),
            first_v: u64::try_from(epoch).unwrap_or(0) * EPOCH_VERSIONS,
            open_seat: row.open_seat(),
            seek: row.seek,
            bots: bots.map(|level| level.is_some()),
            lobby: self.lobby.clone(),
            fence,
            berserkable: row.berserkable,
            gifts: row.club.tournament.is_none(),
            epoch,
            hibernation: self.sleep_after.map(|after| Hibernation {
                after,
                to: Arc::new(Sleeper {
                    registry: Arc::downgrade(&self.inner),
                    store: self.store.clone(),
                    placement: self.placement.clone(),
                    falling_asleep: self.falling_asleep.clone(),
                }),
            }),
            loaded: !new,
            ..RoomOptions::default()
        };
        let room = RoomHandle::spawn(id.to_owned(), game, self.writer.clone(), options);
        if let (Some(placement), Some(_)) = (&self.placement, fence) {
            placement.serve(id, room.clone(), !new);
        }
        if !over {
            for (color, level) in [
                (rookery_core::Color::White, bots.white),
                (rookery_core::Color::Black, bots.black),
            ] {
                if let Some(level) = level {
                    self.bots.seat(room.clone(), color, level);
                }
            }
        }
        room
    }

    /// Stores a new game and opens its room (with its bots).
    pub(crate) async fn create(&self, row: &NewGame, game: Game) -> Result<(), StoreError> {
        let (epoch, fence) = match &self.placement {
            // The node that makes a game holds it from its first moment.
            Some(placement) => {
                let epoch = placement.create_held(row).await?;
                (epoch, Some(epoch))
            }
            // A new game's first load is epoch 0; loads after it claim their own.
            None => {
                self.store.create_game(row).await?;
                (0, None)
            }
        };
        let room = self.spawn(row, game, epoch, fence, true);
        self.map().insert(row.id.clone(), room);
        self.announce_start(row);
        Ok(())
    }

    /// The room of game `id` if it runs on this node now (nothing is loaded).
    pub(crate) fn running(&self, id: &str) -> Option<RoomHandle> {
        self.map()
            .get(id)
            .filter(|r| r.is_local() && !r.is_closed())
            .cloned()
    }

    /// The room of game `id` as this node knows it: running here, or on the owner it was
    /// last reached through (cluster mode).
    fn known(&self, id: &str) -> Option<RoomHandle> {
        self.map().get(id).filter(|r| !r.is_closed()).cloned()
    }

    /// The room of game `id` wherever it is open (cluster mode: on its owner, if any), to
    /// be told of something; nothing is loaded.
    pub(crate) fn open_anywhere(&self, id: &str) -> Option<RoomHandle> {
        self.known(id)
            .or_else(|| self.placement.as_ref().map(|p| p.remote(id)))
    }

    /// Forgets how game `id` was reached on another node, so the next [`Rooms::get`] tries
    /// to take it here (a takeover).
    pub(crate) fn forget_remote(&self, id: &str) {
        let mut map = self.map();
        if map.get(id).is_some_and(|r| !r.is_local()) {
            map.remove(id);
        }
    }

    /// The room of game `id`: open already (here, or on the owner it was last reached
    /// through, which is asked directly again: no lock, no lease to try), or loaded from the
    /// store (a finished game's room serves its last state and rematch offers, then closes
    /// when nobody is there).
    pub(crate) async fn get(&self, id: &str) -> Result<Option<RoomHandle>, StoreError> {
        self.load(id, false).await
    }

    /// [`Rooms::get`]; `restart`: the server has just started, so the running clock of a
    /// game under way resumes now whether it slept or not (docs/RULES.md R6), where a game
    /// woken from sleep otherwise goes on as if its room had never stopped.
    async fn load(&self, id: &str, restart: bool) -> Result<Option<RoomHandle>, StoreError> {
        if let Some(room) = self.known(id) {
            return Ok(Some(room));
        }
        let stripe = id
            .bytes()
            .fold(0usize, |h, b| h.wrapping_mul(31) + usize::from(b));
        let _one_load = self.loading[stripe % LOAD_LOCKS].lock().await;
        if let Some(room) = self.known(id) {
            return Ok(Some(room));
        }
        // Asked before the row is read: once it leaves this set, its row says it sleeps.
        let falling_asleep = lock(&self.falling_asleep).contains(id);
        let Some(row) = self.store.game(id).await? else {
            return Ok(None);
        };
        let mut fence = None;
        if let Some(placement) = &self.placement {
            // A game's room runs where its lease is (a finished game's too: its rematch
            // offers are in it): here if this node can take it, else on its owner, which
            // later requests reach directly. Its moves are read after the lease is taken,
            // so every write of an earlier owner is either in them or fenced.
            match placement.take(id).await? {
                Some(epoch) => fence = Some(epoch),
                None => {
                    let remote = placement.remote(id);
                    let mut map = self.map();
                    if map.len() % 256 == 0 {
                        // Handles to owners elsewhere expire; the stale ones go now and then.
                        map.retain(|_, r| r.is_local() || !r.is_closed());
                    }
                    map.insert(id.to_owned(), remote.clone());
                    return Ok(Some(remote));
                }
            }
        }
        let asleep = !restart && (falling_asleep || row.wake_at.is_some());
        let game = self.rebuild(&row, asleep).await?;
        if let (Status::Live, Some((result, termination))) = (row.status, game.result()) {
            // Stored as live, but over by the rules (a start position that was over already,
            // accepted before such starts were refused): record the end, once.
            let ending = Ending {
                result,
                termination,
            };
            self.writer
                .write(GameWrite {
                    game_id: id.to_owned(),
                    ending: Some((ending, now_ms() as i64)),
                    epoch: fence,
                    ..GameWrite::default()
                })
                .await?;
        }
        let epoch = match fence {
            Some(epoch) => epoch,
            None => self.store.next_epoch(id).await?,
        };
        // Another request may have loaded it meanwhile: keep the first.
        let mut map = self.map();
        if let Some(room) = map.get(id).filter(|r| r.is_local() && !r.is_closed()) {
            return Ok(Some(room.clone()));
        }
        let room = self.spawn(&row.game, game, epoch, fence, false);
        map.insert(id.to_owned(), room.clone());
        Ok(Some(room))
    }

    /// The game as it stands: from its room if open, else replayed from the store.
    pub(crate) async fn game_of(&self, row: &GameRow) -> Result<(u64, Game), StoreError> {
        if let Some(room) = self.running(&row.game.id) {
            if let Ok(snapshot) = room.snapshot().await {
                return Ok((snapshot.v, snapshot.game));
            }
        }
        Ok((0, self.replay(row).await?))
    }

    /// Loads every live game into a room (on start), so their clocks run again, but for
    /// sleeping games whose time runs on the calendar: the waker loads them when due.
    pub(crate) async fn recover(&self) -> Result<usize, StoreError> {
        if let Some(placement) = &self.placement {
            // Nodes take games nobody holds as they find them, a few at a time.
            placement.start(self.clone());
            return Ok(0);
        }
        let live = self.store.live_games().await?;
        let mut loaded = 0;
        for row in &live {
            if row.wake_at.is_some() && row.game.time_control.runs_on_calendar() {
                continue;
            }
            self.load(&row.game.id, true).await?;
            loaded += 1;
        }
        self.wake_sleepers();
        Ok(loaded)
    }

    /// One node: loads each sleeping game a little before it must keep its time (a cluster's
    /// look for unowned games does this there). Its room then keeps the flag exactly.
    fn wake_sleepers(&self) {
        use futures_util::StreamExt;
        let rooms = self.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(WAKE_LOOK);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                let until = (now_ms() + WAKE_AHEAD.as_millis() as u64) as i64;
                let due = match rooms.store.waking_games(until).await {
                    Ok(due) => due,
                    Err(e) => {
                        tracing::warn!(error = %e, "cannot look for sleeping games to wake");
                        continue;
                    }
                };
                futures_util::stream::iter(due)
                    .for_each_concurrent(WAKE_AT_ONCE, |id| {
                        let rooms = &rooms;
                        async move {
                            if let Err(e) = rooms.get(&id).await {
                                tracing::warn!(game = %id, error = %e, "cannot wake the game");
                            }
                        }
                    })
                    .await;
            }
        });
    }

    /// Rebuilds a game from its stored moves, replayed through the core with the thinking
    /// time each was charged. A game that slept goes on as if its room had never stopped;
    /// otherwise the running clock resumes now (docs/RULES.md R6: downtime is charged to
    /// nobody).
    pub(crate) async fn replay(&self, row: &GameRow) -> Result<Game, StoreError> {
        self.rebuild(row, row.wake_at.is_some()).await
    }

    /// [`Rooms::replay`]; `asleep`: the game slept (its clock ran on meanwhile).
    async fn rebuild(&self, row: &GameRow, asleep: bool) -> Result<Game, StoreError> {
        let bad = |what: String| StoreError::Corrupt(format!("game {}: {what}", row.game.id));
        let start = match &row.game.start_fen {
            Some(fen) => Position::from_fen(fen).map_err(|e| bad(e.to_string()))?,
            None => Position::new(),
        };
        let control = row.game.time_control.clone();
        let moves = self.store.moves(&row.game.id).await?;
        // When the turn now running began, on the calendar (correspondence counts from it).
        let turn_began = moves.last().map_or(row.game.created_at, |m| m.at_ms).max(0) as u64;
        let played = moves.iter().map(|m| Replayed {
            uci: &m.uci,
            elapsed_ms: m.elapsed_ms,
            lag_ms: m.lag_ms,
        });
        let mut game = rebuild(
            &row.game.id,
            start,
            control,
            row.berserk,
            &row.gifts,
            played,
        );
        if let Some(offers) = row.draw_offers {
            game.restore_draw_offers(offers);
        }
        if let Some(ending) = row.ending {
            game.restore_end(ending.result, ending.termination);
        }
        game.resume(if asleep { turn_began } else { now_ms() }, turn_began);
        Ok(game)
    }
}
