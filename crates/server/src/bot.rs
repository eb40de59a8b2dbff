//! Bot seats. A bot plays through its room exactly as a person does: it watches the room's
//! feed, and on its turn sends a move command that the core judges like any other. Searches
//! run on blocking threads behind a semaphore sized to the machine, so bots never hold up
//! the async runtime (and so a human's move) however many play at once.

use std::sync::Arc;
use std::time::Duration;

use rookery_core::game::{Command, Game, MoveText};
use rookery_core::{Color, Position};
use rookery_engine::{Level, Rng, Search, budget};
use tokio::sync::{Semaphore, broadcast};

use crate::identity;
use crate::room::{RoomError, RoomHandle, now_ms};

/// Longest a bot thinks in an untimed game.
const UNTIMED_BUDGET: Duration = Duration::from_secs(3);

/// Runs the bots: one task per bot seat, searches on a bounded pool of blocking threads.
#[derive(Debug, Clone)]
pub(crate) struct Bots {
    permits: Arc<Semaphore>,
}

impl Bots {
    pub(crate) fn new() -> Bots {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        Bots {
            permits: Arc::new(Semaphore::new(threads)),
        }
    }

    /// Seats a bot of `level` as `color` in `room` until its game ends.
    pub(crate) fn seat(&self, room: RoomHandle, color: Color, level: Level) {
        tokio::spawn(drive(room, color, level, self.permits.clone()));
    }
}

/// The name a bot plays under.
pub(crate) fn bot_name(level: Level) -> String {
    format!("Rookery bot level {}", level.get())
}

/// Zobrist keys of the positions before the current one (for repetitions).
fn history(game: &Game) -> Vec<u64> {
    let mut pos: Position = *game.start();
    let mut keys = Vec::with_capacity(game.moves().len());
    for played in game.moves() {
        keys.push(pos.zobrist());
        pos = pos.after(played.m);
    }
    keys
}

async fn drive(room: RoomHandle, color: Color, level: Level, permits: Arc<Semaphore>) {
    let Ok(mut sub) = room.subscribe(u64::MAX).await else {
        return;
    };
    let table_mib = if level == Level::MAX { 16 } else { 1 };
    let mut search = Some(Search::new(table_mib));
    let mut rng = Rng::new(identity::seed());
    loop {
        let Ok((_, game)) = room.snapshot().await else {
            return;
        };
        if game.is_over() {
            return;
        }
        if game.position().turn() == color {
            let started = tokio::time::Instant::now();
            let remaining = game.clocks_at(now_ms())[color];
            let limit = match remaining {
                Some(left) => budget(
                    left,
                    game.clock().per_move(color),
                    game.clock().moves_to_go(color),
                ),
                None => UNTIMED_BUDGET,
            };
            // Like a person, not instantly; but never so slowly that a fast clock suffers.
            let min_think =
                remaining.map_or(level.min_think(), |left| level.min_think().min(left / 40));
            let Ok(permit) = permits.clone().acquire_owned().await else {
                return;
            };
            let pos = *game.position();
            let keys = history(&game);
            let seed = rng.next_u64();
            let Some(mut engine) = search.take() else {
                return;
            };
            let thought = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                let mut rng = Rng::new(seed);
                let m = level.choose(&mut engine, &pos, &keys, Some(limit), &mut rng);
                (engine, m)
            })
            .await;
            let Ok((engine, chosen)) = thought else {
                tracing::error!("a bot's search failed");
                return;
            };
            search = Some(engine);
            let Some(m) = chosen else {
                // No legal move: the core has ended the game already.
                continue;
            };
            tokio::time::sleep_until(started + min_think).await;
            let command = Command::Move {
                by: color,
                text: MoveText::Uci(m.to_uci().to_string()),
                offer_draw: false,
            };
            match room.apply(command).await {
                Ok(_) => continue,
                Err(RoomError::Closed) => return,
                Err(e) => {
                    // The game moved on meanwhile (ended, or the store failed): look again.
                    tracing::debug!(error = %e, "bot move refused");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            }
        }
        match sub.feed.recv().await {
            Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}
