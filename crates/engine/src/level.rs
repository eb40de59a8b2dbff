//! Playing levels 1-8. The full engine is level 8; lower levels search less and choose among
//! the better moves at random, with a temperature that falls and a cap on the loss allowed
//! per move that tightens as the level rises, so weak levels err like weak players (a slightly
//! worse move, a missed tactic) instead of throwing pieces away.

use std::time::Duration;

use rookery_core::{Move, Position};

use crate::search::{Evaluation, Limits, MATE, Search};

/// A small, fast pseudo-random generator (xorshift64*), seeded by the caller: the engine
/// needs variety, not secrecy.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A float in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A playing level, 1 (a child's first opponent) to 8 (the full engine).
#[derive(Debug, Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// How a level plays.
#[derive(Debug, Copy, Clone)]
struct Style {
    /// Deepest iteration (`None`: as deep as the time allows).
    depth: Option<u32>,
    /// Softmax temperature over move scores, in centipawns (0: always the best).
    temperature: f64,
    /// No move more than this many centipawns worse than the best is chosen.
    max_loss: i32,
    /// Least time to spend on a move, so the bot does not answer instantly.
    min_think: Duration,
}

/// Depth, temperature, loss cap and least think time of levels 1-8. Set so that neighbours
/// are measurable (levels 1-6 score 5-20% against the next one up). Level 7 is the full
/// search with the hand-written evaluation, level 8 the same with the network: at depth 6
/// level 7 measured 1940, 30 points above level 6, a step nobody feels; searched to the clock
/// it measured 2217, between level 6 and level 8. Changing one means measuring its rating
/// again (`tests/python/calibrate.py`, BENCHMARKS.md "Levels 1-8").
const STYLES: [Style; 8] = [
    style(Some(1), 70.0, 160, 1500),
    style(Some(2), 70.0, 160, 1200),
    style(Some(2), 35.0, 80, 1000),
    style(Some(3), 35.0, 80, 800),
    style(Some(3), 12.0, 30, 600),
    style(Some(4), 5.0, 12, 400),
    style(None, 0.0, 0, 200),
    style(None, 0.0, 0, 0),
];

const fn style(depth: Option<u32>, temperature: f64, max_loss: i32, min_think_ms: u64) -> Style {
    Style {
        depth,
        temperature,
        max_loss,
        min_think: Duration::from_millis(min_think_ms),
    }
}

/// Each level's strength on Stockfish 15.1's `UCI_Elo` scale, as measured in games (BENCHMARKS.md,
/// "Levels 1-8"): against Stockfish where its scale reaches (1350 and up), through games
/// between levels below that. Level 8's figure (the network, as it plays since repetitions are
/// counted as the rules count them: the sequential test's 126 games against `UCI_Elo` 2400,
/// 2307 ± 44; the build before, 640 games, 2348 ± 19) is at 10 s + 0.1 s a game (at 60 s +
/// 0.6 s, the build before's sequential test put it near 2441), as is level 7's (60 games
/// against `UCI_Elo` 2200, 2217 ± 72); levels 1-6 search to a fixed depth and do not depend on
/// the clock.
const RATINGS: [u32; 8] = [570, 980, 1250, 1460, 1700, 1910, 2220, 2310];

impl Level {
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(8);

    /// The level `n`, if it is 1 to 8.
    pub fn new(n: u8) -> Option<Level> {
        (1..=8).contains(&n).then_some(Level(n))
    }

    pub fn get(self) -> u8 {
        self.0
    }

    fn style(self) -> Style {
        STYLES[usize::from(self.0 - 1)]
    }

    /// About how strong this level plays, on Stockfish's `UCI_Elo` scale, as measured in games
    /// (BENCHMARKS.md, "Levels 1-8").
    pub fn rating(self) -> u32 {
        RATINGS[usize::from(self.0 - 1)]
    }

    /// The least time this level takes over a move, like a person would.
    pub fn min_think(self) -> Duration {
        self.style().min_think
    }

    /// Chooses a move in `pos` (reached after the positions `history`), spending at most
    /// `budget` (`None`: no time limit beyond the level's depth). `None` only when there is
    /// no legal move.
    pub fn choose(
        self,
        search: &mut Search,
        pos: &Position,
        history: &[u64],
        budget: Option<Duration>,
        rng: &mut Rng,
    ) -> Option<Move> {
        let limits = Limits {
            evaluation: self.evaluation(),
            ..budget.map_or_else(Limits::default, Limits::budget)
        };
        self.choose_within(search, pos, history, &limits, rng)
    }

    /// The evaluation this level plays with: the network at level 8 (it scored higher
    /// against Stockfish 15.1 at `UCI_Elo` 2400 than the hand-written one, docs/benchmarks-log.md), the
    /// hand-written one below, where every level was measured with it.
    pub fn evaluation(self) -> Evaluation {
        if self == Level::MAX {
            Evaluation::Network
        } else {
            Evaluation::Classic
        }
    }

    /// As [`Level::choose`], within outer `limits` (time, nodes, stop flag; the level's own
    /// depth applies when it is lower). Level 8 searches with `limits.evaluation` (the UCI
    /// option); levels 1-7 always with the hand-written evaluation.
    pub fn choose_within(
        self,
        search: &mut Search,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        rng: &mut Rng,
    ) -> Option<Move> {
        let mut style = self.style();
        if self == Level::MAX && pos.fullmoves() <= 4 {
            // Opening variety: among moves within a few centipawns of the best.
            style.temperature = 4.0;
            style.max_loss = 12;
        }
        let sampled = style.temperature > 0.0;
        let depth = match (style.depth, limits.depth) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let limits = Limits {
            depth,
            score_all: sampled,
            // Below level 8 the level's own evaluation, the one its rating was measured with.
            evaluation: if self == Level::MAX {
                limits.evaluation
            } else {
                self.evaluation()
            },
            ..limits.clone()
        };
        let found = search.run(pos, history, &limits);
        if !sampled || found.root.len() < 2 {
            return found.best;
        }
        let best = found.root[0].score.clamp(-2 * MATE, 2 * MATE);
        let close: Vec<(Move, f64)> = found
            .root
            .iter()
            .filter(|r| best - r.score <= style.max_loss)
            .map(|r| {
                let loss = f64::from((best - r.score).min(2000));
                (r.m, (-loss / style.temperature).exp())
            })
            .collect();
        let total: f64 = close.iter().map(|c| c.1).sum();
        let mut x = rng.unit() * total;
        for (m, w) in &close {
            if x < *w {
                return Some(*m);
            }
            x -= w;
        }
        found.best
    }
}

/// The most to think with `remaining` on the clock, `increment` per move, and `moves_to_go`
/// moves before the next time control (if known; else 22 are planned for). The time the
/// search aims at is the clock shared over those moves with the increments still to come
/// counted in ([`Limits::budget`] starts no new iteration past half of what this returns);
/// the limit is twice that, so an iteration begun in time can finish, and never more than a
/// third of the clock. (A 22nd of the clock plus three quarters of the increment, with new
/// iterations stopped at 65% of it, left about 2.8 s of 10 s unused at the end of games at
/// 10 s + 0.1 s, where Stockfish left 0.4 s: the soft limit sat below the increment once
/// the clock fell to about 2.8 s. docs/benchmarks-log.md, "The clock's reserve, 16-byte table
/// entries, a singular extension".)
pub fn budget(remaining: Duration, increment: Duration, moves_to_go: Option<u32>) -> Duration {
    let moves = moves_to_go.unwrap_or(22).clamp(1, 40).max(2);
    let aim = (remaining + increment * (moves - 1)) / moves;
    (aim * 2)
        .min(remaining / 3)
        .max(Duration::from_millis(5).min(remaining / 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_plays_a_legal_move_and_the_top_one_takes_a_hanging_queen() {
        let pos =
            Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .unwrap();
        let mut rng = Rng::new(7);
        for n in 1..=8 {
            let level = Level::new(n).unwrap();
            let mut search = Search::new(1);
            let m = level
                .choose(
                    &mut search,
                    &pos,
                    &[],
                    Some(Duration::from_millis(200)),
                    &mut rng,
                )
                .unwrap();
            assert!(pos.is_legal(m), "level {n}");
        }
        assert!(Level::new(0).is_none() && Level::new(9).is_none());
        // The top level takes a queen left en prise (Nxd4 wins it for a knight at most).
        let hanging =
            Position::from_fen("r1b1kbnr/pppp1ppp/2n5/4p3/3qP3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 4")
                .unwrap();
        let top = Level::MAX
            .choose(
                &mut Search::new(1),
                &hanging,
                &[],
                Some(Duration::from_millis(300)),
                &mut rng,
            )
            .unwrap();
        assert_eq!(top.to_uci().to_string(), "f3d4");
    }

    #[test]
    fn low_levels_vary_and_never_give_away_a_queen_for_nothing() {
        // The queen is attacked by a pawn: many retreats are safe, some squares lose it.
        // Even level 1 picks among the safe ones (the loss cap), and not always the same.
        let pos = Position::from_fen("4k3/8/8/4p3/3Q4/8/8/4K3 w - - 0 1").unwrap();
        let mut rng = Rng::new(42);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..40 {
            let mut search = Search::new(1);
            let m = Level::MIN
                .choose(&mut search, &pos, &[], None, &mut rng)
                .unwrap();
            seen.insert(m);
            let after = pos.after(m);
            // The queen is not left to be taken for free.
            let reply = Search::new(1).run(&after, &[], &crate::Limits::depth(2));
            assert!(reply.score < 600, "{m:?} loses the queen");
        }
        assert!(seen.len() > 3, "level 1 should vary: {seen:?}");
    }

    #[test]
    fn the_measured_ratings_rise_with_the_level() {
        let ratings: Vec<u32> = (1..=8).map(|n| Level::new(n).unwrap().rating()).collect();
        assert!(ratings.windows(2).all(|w| w[0] < w[1]), "{ratings:?}");
    }

    /// Level 8 plays with the network; the lower levels were measured with the hand-written
    /// evaluation and keep it.
    #[test]
    fn only_level_8_plays_with_the_network() {
        for n in 1..=8 {
            let level = Level::new(n).unwrap();
            let network = level.evaluation() == Evaluation::Network;
            assert_eq!(network, level == Level::MAX, "level {n}");
        }
    }

    #[test]
    fn budgets_stay_within_the_clock() {
        // 60 s + 1 s: (60 + 21 x 1) / 22 = 3.7 s aimed at, at most twice that.
        let b = budget(Duration::from_secs(60), Duration::from_secs(1), None);
        assert!(
            b > Duration::from_secs(7) && b < Duration::from_millis(7500),
            "{b:?}"
        );
        // Low on time, never more than a third of what is left, whatever the increment.
        let b = budget(Duration::from_millis(600), Duration::from_secs(1), None);
        assert!(b <= Duration::from_millis(200), "{b:?}");
        let b = budget(Duration::from_millis(90), Duration::ZERO, None);
        assert!(b <= Duration::from_millis(30));
    }
}
