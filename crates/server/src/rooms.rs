//! The registry of rooms, by game id, and loading games back into rooms from the store (on
//! start, and on first use). A finished game's room closes by itself once nobody has been
//! connected for a while, and leaves the registry as it does.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rookery_core::clock::TimeControl;
use rookery_core::game::{Command, Game, MoveText, Termination};
use rookery_core::pgn::GameResult;
use rookery_core::{ByColor, Position};
use rookery_engine::Level;

use crate::bot::Bots;
use crate::room::{RoomHandle, RoomOptions, now_ms};
use crate::store::writer::MoveWriter;
use crate::store::{GameRow, NewGame, Store, StoreError};

/// Live rooms. A std `Mutex` is fine: it guards a map lookup and is never held across
/// `.await`.
#[derive(Debug, Clone)]
pub(crate) struct Rooms {
    inner: Arc<Mutex<HashMap<String, RoomHandle>>>,
    store: Store,
    writer: MoveWriter,
    bots: Bots,
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
    pub(crate) fn new(store: Store, writer: MoveWriter, bots: Bots) -> Rooms {
        Rooms {
            inner: Arc::new(Mutex::new(HashMap::new())),
            store,
            writer,
            bots,
        }
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, RoomHandle>> {
        // A panic while holding the lock leaves a consistent map (inserts are atomic).
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Starts a room (and its bots, if the game is on); the caller registers it.
    fn spawn(&self, id: &str, game: Game, bots: ByColor<Option<Level>>) -> RoomHandle {
        let over = game.is_over();
        let registry = Arc::downgrade(&self.inner);
        let key = id.to_owned();
        let options = RoomOptions {
            on_exit: Box::new(move || {
                let Some(registry) = registry.upgrade() else {
                    return;
                };
                let mut map = registry
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                // Only this room's entry: a new room may have replaced it already.
                if map.get(&key).is_some_and(RoomHandle::is_closed) {
                    map.remove(&key);
                }
            }),
            ..RoomOptions::default()
        };
        let room = RoomHandle::spawn(
            id.to_owned(),
            game,
            self.store.clone(),
            self.writer.clone(),
            options,
        );
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

    /// Starts the room of a new game.
    pub(crate) fn open(&self, id: &str, game: Game, bots: ByColor<Option<Level>>) -> RoomHandle {
        let room = self.spawn(id, game, bots);
        self.map().insert(id.to_owned(), room.clone());
        room
    }

    /// The room of game `id` if it is open now (nothing is loaded).
    pub(crate) fn running(&self, id: &str) -> Option<RoomHandle> {
        self.map().get(id).filter(|r| !r.is_closed()).cloned()
    }

    /// The room of game `id`: open already, or loaded from the store (a finished game's
    /// room serves its last state and rematch offers, then closes when nobody is there).
    pub(crate) async fn get(&self, id: &str) -> Result<Option<RoomHandle>, StoreError> {
        if let Some(room) = self.running(id) {
            return Ok(Some(room));
        }
        let Some(row) = self.store.game(id).await? else {
            return Ok(None);
        };
        let game = self.replay(&row).await?;
        // Another request may have loaded it meanwhile: keep the first.
        let mut map = self.map();
        if let Some(room) = map.get(id).filter(|r| !r.is_closed()) {
            return Ok(Some(room.clone()));
        }
        let room = self.spawn(id, game, bot_levels(&row.game));
        map.insert(id.to_owned(), room.clone());
        Ok(Some(room))
    }

    /// The game as it stands: from its room if open, else replayed from the store.
    pub(crate) async fn game_of(&self, row: &GameRow) -> Result<(u64, Game), StoreError> {
        if let Some(room) = self.running(&row.game.id) {
            if let Ok(snapshot) = room.snapshot().await {
                return Ok(snapshot);
            }
        }
        Ok((0, self.replay(row).await?))
    }

    /// Loads every live game into a room (on start), so their clocks run again.
    pub(crate) async fn recover(&self) -> Result<usize, StoreError> {
        let live = self.store.live_games().await?;
        for row in &live {
            self.get(&row.game.id).await?;
        }
        Ok(live.len())
    }

    /// Rebuilds a game from its stored moves, replayed through the core with the thinking
    /// time each was charged; the running clock resumes now (docs/RULES.md R6: downtime is
    /// charged to nobody).
    pub(crate) async fn replay(&self, row: &GameRow) -> Result<Game, StoreError> {
        let bad = |what: String| StoreError(format!("game {}: {what}", row.game.id));
        let start = match &row.game.start_fen {
            Some(fen) => Position::from_fen(fen).map_err(|e| bad(e.to_string()))?,
            None => Position::new(),
        };
        let control =
            TimeControl::from_pgn(&row.game.time_control).map_err(|e| bad(e.to_string()))?;
        let mut game = Game::new(start, control);
        // Replayed on a timeline of their own: each move charged exactly what it was.
        let mut t = 0u64;
        for m in self.store.moves(&row.game.id).await? {
            t += m.elapsed_ms as u64;
            let by = game.position().turn();
            let command = Command::Move {
                by,
                text: MoveText::Uci(m.uci.clone()),
                offer_draw: false,
            };
            game.apply(command, t)
                .map_err(|e| bad(format!("ply {}: {e}", m.ply)))?;
        }
        if row.status == "over" {
            let result = row
                .result
                .as_deref()
                .and_then(GameResult::parse)
                .unwrap_or(GameResult::Unknown);
            game.restore_end(result, recorded_end(row.termination.as_deref(), result));
        }
        game.resume(now_ms());
        Ok(game)
    }
}

/// How a stored game ended: our own words for games played here, or an imported game's PGN
/// `Termination` tag, where "Normal" with no end on the board means a resignation (or, drawn,
/// an agreement).
fn recorded_end(termination: Option<&str>, result: GameResult) -> Termination {
    if let Some(t) = termination.and_then(Termination::parse) {
        return t;
    }
    let tag = termination.unwrap_or("normal").to_ascii_lowercase();
    match (tag.as_str(), result) {
        (_, GameResult::Unknown) => Termination::Aborted,
        ("time forfeit", _) => Termination::TimeForfeit,
        ("abandoned", _) => Termination::Abandonment,
        (_, GameResult::Draw) => Termination::Agreement,
        _ => Termination::Resignation,
    }
}
