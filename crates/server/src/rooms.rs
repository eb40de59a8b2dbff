//! The registry of live rooms, by game id, and loading games back into rooms from the store
//! (on start, and on first use after a restart).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rookery_core::Position;
use rookery_core::clock::TimeControl;
use rookery_core::game::{Command, Game, MoveText};

use crate::room::{RoomHandle, now_ms};
use crate::store::writer::MoveWriter;
use crate::store::{GameRow, Store, StoreError};

/// Live rooms. A std `Mutex` is fine: it guards a map lookup and is never held across
/// `.await`.
#[derive(Debug, Clone)]
pub(crate) struct Rooms {
    inner: Arc<Mutex<HashMap<String, RoomHandle>>>,
    store: Store,
    writer: MoveWriter,
}

impl Rooms {
    pub(crate) fn new(store: Store, writer: MoveWriter) -> Rooms {
        Rooms {
            inner: Arc::new(Mutex::new(HashMap::new())),
            store,
            writer,
        }
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, RoomHandle>> {
        // A panic while holding the lock leaves a consistent map (inserts are atomic).
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Starts the room of a new game.
    pub(crate) fn open(&self, id: &str, game: Game) -> RoomHandle {
        let room = RoomHandle::spawn(id.to_owned(), game, self.store.clone(), self.writer.clone());
        self.map().insert(id.to_owned(), room.clone());
        room
    }

    /// The room of game `id`: running already, or loaded from the store if the game is live.
    pub(crate) async fn get(&self, id: &str) -> Result<Option<RoomHandle>, StoreError> {
        if let Some(room) = self.map().get(id).cloned() {
            return Ok(Some(room));
        }
        let Some(row) = self.store.game(id).await? else {
            return Ok(None);
        };
        if row.status != "live" {
            return Ok(None);
        }
        let game = self.replay(&row).await?;
        // Another request may have loaded it meanwhile: keep the first.
        let mut map = self.map();
        let room = map.entry(id.to_owned()).or_insert_with(|| {
            RoomHandle::spawn(id.to_owned(), game, self.store.clone(), self.writer.clone())
        });
        Ok(Some(room.clone()))
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
        game.resume(now_ms());
        Ok(game)
    }
}
