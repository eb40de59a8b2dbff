//! Bot seats. A bot plays through its room exactly as a person does: it watches the room's
//! feed, and on its turn sends a move command that the core judges like any other. Searches
//! run on blocking threads behind a semaphore of one fewer than the machine's cores, so bots
//! never hold up the async runtime (and so a human's move) however many play at once.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::BoxFuture;
use rookery_core::Color;
use rookery_core::game::{Command, Game, MoveText};
use rookery_engine::{External, Level, Rng, Search, budget};
use tokio::sync::{Semaphore, broadcast};

use crate::ids;
use crate::room::{RoomError, RoomHandle};
use crate::wallclock::now_ms;

/// Longest a bot thinks in an untimed game.
const UNTIMED_BUDGET: Duration = Duration::from_secs(3);

/// Longest a bot thinks over one move on any clock. Level 8's rating was measured at 10 s +
/// 0.1 s a game, about half a second a move (level.rs): a few seconds play at least that well.
const MOST_PER_MOVE: Duration = Duration::from_secs(4);

/// The most a bot spends on its next move in `game`, as `color`, at `now` (ms). A bot keeps
/// the game's pace as a person would: at most half a person's average share of the game
/// (lichess's estimate, `base + 40 x increment` over 40 moves, so 5 s at 5+3), never over
/// [`MOST_PER_MOVE`], and never more than the engine's own budget for what is left on its
/// clock (so a bot short of time hurries, and never flags for thinking).
fn move_limit(game: &Game, color: Color, now: u64) -> Duration {
    let Some(left) = game.clocks_at(now)[color] else {
        return UNTIMED_BUDGET;
    };
    let clock = game.clock();
    let fair = budget(left, clock.per_move(color), clock.moves_to_go(color));
    let pace = clock
        .control()
        .estimated_duration()
        .map_or(MOST_PER_MOVE, |game| (game / 80).min(MOST_PER_MOVE));
    fair.min(pace)
}

/// Runs the bots: one task per bot seat, searches on a bounded pool of blocking threads.
#[derive(Debug, Clone)]
pub(crate) struct Bots {
    permits: Arc<Semaphore>,
    /// Bots waiting for a thread.
    waiting: Arc<AtomicUsize>,
    /// An external UCI engine to use instead of the built-in search.
    external: Option<std::path::PathBuf>,
    /// The built-in search's tables, shared by every seat.
    tables: Tables,
    /// Cluster mode: when no thread is free here, another node with one may think.
    elsewhere: Arc<std::sync::OnceLock<Arc<dyn Elsewhere>>>,
}

/// Other nodes with a search thread free (cluster mode); the cluster plugs one in.
pub(crate) trait Elsewhere: Send + Sync + std::fmt::Debug {
    /// Offers a bot's search to them: the move one of them found (`Some(None)`: there is
    /// none), or `None` if none had a free thread in time.
    fn think<'a>(
        &'a self,
        game: &'a Game,
        level: Level,
        limit: Duration,
        seed: u64,
    ) -> BoxFuture<'a, Option<Option<String>>>;
}

/// The built-in search's tables (transposition table and move-ordering memory; 16 MiB at
/// level 8), shared by all bot seats: a seat takes one for each search and gives it back
/// after. So memory grows with the searches running at once, which the permits bound, not
/// with the games: an idle bot game holds no table. A table that served another seat last
/// is cleared first, so each search sees only its own game.
#[derive(Debug, Clone, Default)]
struct Tables {
    /// A std `Mutex` is fine: it guards a push or a pop, never held across `.await`.
    idle: Arc<Mutex<Vec<Table>>>,
}

#[derive(Debug)]
struct Table {
    mib: usize,
    /// The seat that used it last.
    seat: u64,
    search: Search,
}

impl Tables {
    fn idle(&self) -> std::sync::MutexGuard<'_, Vec<Table>> {
        crate::locks::lock(&self.idle)
    }

    /// A table of `mib` MiB for `seat`: its own last one if idle, else any (cleared), else
    /// a new one.
    fn take(&self, mib: usize, seat: u64) -> Search {
        let mut idle = self.idle();
        let own = idle.iter().position(|t| t.mib == mib && t.seat == seat);
        let any = own.or_else(|| idle.iter().position(|t| t.mib == mib));
        match any.map(|i| idle.swap_remove(i)) {
            Some(mut table) => {
                drop(idle);
                if table.seat != seat {
                    table.search.clear();
                }
                table.search
            }
            None => {
                drop(idle);
                Search::new(mib)
            }
        }
    }

    fn give_back(&self, mib: usize, seat: u64, search: Search) {
        self.idle().push(Table { mib, seat, search });
    }

    /// How many tables exist now, idle ones (the rest are in searches).
    #[cfg(test)]
    fn idle_count(&self) -> usize {
        self.idle().len()
    }
}

/// What thinks for one bot seat.
struct Brain {
    level: Level,
    /// Names this seat to the shared tables.
    seat: u64,
    tables: Tables,
    /// An external engine, with the built-in search to fall back on if it fails.
    external: Option<External>,
}

impl Bots {
    pub(crate) fn new(external: Option<std::path::PathBuf>) -> Bots {
        // One core stays free for the runtime, so people's moves never wait behind searches.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Bots {
            permits: Arc::new(Semaphore::new(cores.saturating_sub(1).max(1))),
            waiting: Arc::default(),
            external,
            tables: Tables::default(),
            elsewhere: Arc::default(),
        }
    }

    /// Cluster mode: bots here may think on other nodes.
    pub(crate) fn think_elsewhere_through(&self, elsewhere: Arc<dyn Elsewhere>) {
        let _ = self.elsewhere.set(elsewhere);
    }

    /// Thinks for a bot of another node if a thread is free here now: the move (UCI text,
    /// or `None` if there is none), or `Err(())` when busy. The built-in search only.
    pub(crate) async fn think_for_other(
        &self,
        game: Game,
        level: Level,
        limit: Duration,
        seed: u64,
    ) -> Result<Option<String>, ()> {
        let permit = self.permits.clone().try_acquire_owned().map_err(drop)?;
        let mut brain = Brain {
            level,
            seat: ids::seed(),
            tables: self.tables.clone(),
            external: None,
        };
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            brain.think(&game, limit, seed)
        })
        .await
        .map_err(drop)
    }

    /// Seats a bot of `level` as `color` in `room` until its game ends.
    /// The permits of the pool searches run in: computer analyses take them too.
    pub(crate) fn permits(&self) -> Arc<Semaphore> {
        self.permits.clone()
    }

    /// How many bots wait for a search thread now (the analysis board gives way to them).
    pub(crate) fn waiting(&self) -> Arc<AtomicUsize> {
        self.waiting.clone()
    }

    pub(crate) fn seat(&self, room: RoomHandle, color: Color, level: Level) {
        let brain = Brain {
            level,
            seat: ids::seed(),
            tables: self.tables.clone(),
            external: self.external.as_ref().map(External::new),
        };
        // A bot with an external engine keeps it: only the built-in search thinks elsewhere.
        let elsewhere = (self.external.is_none())
            .then(|| self.elsewhere.get().cloned())
            .flatten();
        let pool = (self.permits.clone(), self.waiting.clone(), elsewhere);
        tokio::spawn(drive(room, color, level, pool, brain));
    }
}

impl Brain {
    /// A move for the game as it stands (UCI text), within `limit`.
    fn think(&mut self, game: &Game, limit: Duration, seed: u64) -> Option<String> {
        if let Some(engine) = &mut self.external {
            let moves: Vec<String> = game
                .moves()
                .iter()
                .map(|m| m.m.to_uci().to_string())
                .collect();
            match engine.best_move(&game.start().fen(), &moves, self.level, limit) {
                Ok(m) => return Some(m),
                Err(e) => {
                    tracing::warn!(error = %e, "external engine failed; using the built-in one");
                }
            }
        }
        let mib = if self.level == Level::MAX { 16 } else { 1 };
        let mut search = self.tables.take(mib, self.seat);
        let mut rng = Rng::new(seed);
        let chosen = self
            .level
            .choose(
                &mut search,
                game.position(),
                history(game),
                Some(limit),
                &mut rng,
            )
            .map(|m| m.to_uci().to_string());
        self.tables.give_back(mib, self.seat, search);
        chosen
    }
}

/// The name a bot plays under.
pub(crate) fn bot_name(level: Level) -> String {
    format!("Rookery bot level {}", level.get())
}

/// Zobrist keys of the positions before the current one (for repetitions).
fn history(game: &Game) -> &[u64] {
    let hashes = game.position_hashes();
    &hashes[..hashes.len().saturating_sub(1)]
}

/// What a bot's search on this node came to.
enum AtHome {
    /// The move found (none in a position without one).
    Chosen(Option<String>),
    /// The game moved on while the bot waited for a thread: look again.
    Changed,
    /// The room or the search is gone: the bot stops.
    Gone,
}

/// Waits for a search thread here, then thinks on it with a budget from the time left once
/// it has one, shared with the bots still waiting so none of them flags.
async fn think_at_home(
    room: &RoomHandle,
    color: Color,
    (permits, waiting): (&Arc<Semaphore>, &AtomicUsize),
    brain: &mut Option<Brain>,
    rng: &mut Rng,
) -> AtHome {
    waiting.fetch_add(1, Ordering::Relaxed);
    let permit = permits.clone().acquire_owned().await;
    let queued = waiting.fetch_sub(1, Ordering::Relaxed).saturating_sub(1);
    let Ok(permit) = permit else {
        return AtHome::Gone;
    };
    let Ok(crate::room::Snapshot { game, .. }) = room.snapshot().await else {
        return AtHome::Gone;
    };
    if game.is_over() || game.position().turn() != color {
        return AtHome::Changed;
    }
    // Untimed: no flag, so never below a sixth.
    let share = 1 + queued as u32;
    let share = if game.clock().is_timed() {
        share
    } else {
        share.min(6)
    };
    let limit = move_limit(&game, color, now_ms()) / share;
    let seed = rng.next_u64();
    let Some(mut thinker) = brain.take() else {
        return AtHome::Gone;
    };
    let thought = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let m = thinker.think(&game, limit, seed);
        (thinker, m)
    })
    .await;
    let Ok((thinker, chosen)) = thought else {
        tracing::error!("a bot's search failed");
        return AtHome::Gone;
    };
    *brain = Some(thinker);
    AtHome::Chosen(chosen)
}

async fn drive(
    room: RoomHandle,
    color: Color,
    level: Level,
    (permits, waiting, elsewhere): (Arc<Semaphore>, Arc<AtomicUsize>, Option<Arc<dyn Elsewhere>>),
    brain: Brain,
) {
    let Ok(mut sub) = room.subscribe(u64::MAX).await else {
        return;
    };
    let mut brain = Some(brain);
    let mut rng = Rng::new(ids::seed());
    // Moves of this bot refused in a row.
    let mut refused = 0u32;
    loop {
        let Ok(crate::room::Snapshot { game, .. }) = room.snapshot().await else {
            return;
        };
        if game.is_over() {
            return;
        }
        if game.position().turn() == color {
            let started = tokio::time::Instant::now();
            // Like a person, not instantly; but never so slowly that a fast clock suffers.
            let min_think = game.clocks_at(now_ms())[color]
                .map_or(level.min_think(), |left| level.min_think().min(left / 40));
            // No thread free here: a node with one may think (cluster mode).
            let far = match &elsewhere {
                Some(elsewhere) if permits.available_permits() == 0 => {
                    let limit = move_limit(&game, color, now_ms());
                    elsewhere.think(&game, level, limit, rng.next_u64()).await
                }
                _ => None,
            };
            let chosen = match far {
                Some(chosen) => chosen,
                None => {
                    match think_at_home(&room, color, (&permits, &waiting), &mut brain, &mut rng)
                        .await
                    {
                        AtHome::Chosen(chosen) => chosen,
                        AtHome::Changed => continue,
                        AtHome::Gone => return,
                    }
                }
            };
            let Some(uci) = chosen else {
                // No move to play: the core ends such a game by itself, so this is not
                // reached in play; should it be, wait for the room to change rather than
                // search the same position again.
                tracing::warn!(?color, "a bot found no move");
                if sub.feed.recv().await.is_err() {
                    return;
                }
                continue;
            };
            tokio::time::sleep_until(started + min_think).await;
            let command = Command::Move {
                by: color,
                text: MoveText::Uci(uci),
                offer_draw: false,
                timing: Default::default(),
            };
            match room.apply(command).await {
                Ok(_) => {
                    refused = 0;
                    continue;
                }
                Err(RoomError::Closed) => return,
                Err(e) => {
                    // The game moved on meanwhile (ended, or the store failed), or an external
                    // engine suggested nonsense: look again after a pause that grows, so a
                    // move refused again and again never keeps a core busy.
                    refused += 1;
                    tracing::debug!(error = %e, refused, "bot move refused");
                    tokio::time::sleep(Duration::from_millis(100) * refused.min(50)).await;
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

#[cfg(test)]
mod tests {
    use super::*;
    use rookery_core::clock::TimeControl;

    fn limit_at_start(control: &str) -> Duration {
        let control = TimeControl::from_friendly(control).unwrap();
        let game = Game::new(rookery_core::Position::new(), control);
        move_limit(&game, Color::White, 0)
    }

    /// A probe saw level 8 spend 20-30 s a move at 5+3 (the engine's tournament budget,
    /// 33 s at the start). A bot keeps a person's pace instead.
    #[test]
    fn a_bot_thinks_at_the_games_pace_not_a_tournaments() {
        assert_eq!(limit_at_start("5+3"), MOST_PER_MOVE);
        assert_eq!(limit_at_start("1+0"), Duration::from_millis(750));
        assert_eq!(limit_at_start("3+2"), Duration::from_millis(3250));
        assert_eq!(limit_at_start("0.5+0"), Duration::from_millis(375));
        assert_eq!(limit_at_start("90+30"), MOST_PER_MOVE);
        assert_eq!(limit_at_start("untimed"), UNTIMED_BUDGET);
    }

    /// A probe found each level-8 bot game took about 16 MB at creation. Tables are now
    /// taken per search: however many seats, the tables are as many as the searches that
    /// ran at once.
    #[test]
    fn seats_share_tables_as_many_as_the_searches_at_once() {
        let tables = Tables::default();
        let game = Game::new(
            rookery_core::Position::new(),
            rookery_core::clock::TimeControl::Untimed,
        );
        let mut brains: Vec<Brain> = (0..200)
            .map(|seat| Brain {
                level: Level::new(1).unwrap(),
                seat,
                tables: tables.clone(),
                external: None,
            })
            .collect();
        assert_eq!(tables.idle_count(), 0, "seating takes no table");
        for brain in &mut brains {
            assert!(brain.think(&game, Duration::from_millis(20), 1).is_some());
        }
        // One search at a time here: one table served all 200 seats.
        assert_eq!(tables.idle_count(), 1);
        // Its own table goes back to the same seat as it was; another's is cleared first.
        let search = tables.take(1, 199);
        tables.give_back(1, 199, search);
        let a = tables.take(1, 7);
        let b = tables.take(1, 8);
        assert_eq!(tables.idle_count(), 0);
        tables.give_back(1, 7, a);
        tables.give_back(1, 8, b);
        assert_eq!(tables.idle_count(), 2);
    }
}
