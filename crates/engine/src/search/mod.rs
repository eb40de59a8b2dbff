//! Iterative-deepening principal-variation search with a transposition table, quiescence
//! search, null-move pruning, late-move reductions and pruning, internal iterative reduction,
//! check extension, killer and history move ordering (losing captures after quiet moves) and
//! aspiration windows. Draws by repetition, the fifty-move rule and dead positions are scored
//! as 0. Positions are judged by the classic evaluation (`eval.rs`) or, when
//! [`Limits::evaluation`] asks, by the network (`nn.rs`), whose sums it keeps per ply and
//! brings up to date only for positions it evaluates.
//!
//! Unless every root move is scored (the weak levels), a node searches the table's move
//! before it generates the others ([`Picker`]); quiescence generates captures only once
//! standing pat has not cut, and works out exchanges only where their bounds leave the
//! answer open; it also reads and writes the table. None of this changes the tree the weak
//! levels search. At every level the table keeps each position's static evaluation.
//!
//! The table's entries are in `table.rs`, move ordering in `picker.rs`, the static exchange
//! evaluation in `see.rs`.

mod picker;
mod see;
mod table;

pub(crate) use see::see_value;

use picker::{HISTORY_MAX, Picker, Scores, best_from, capture_order, is_quiet};
use see::{role_value, worth_capturing};
use table::{Bound, Entry, RATED_ENTRY_BYTES, check};

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use arrayvec::ArrayVec;
use rookery_core::{Board, Move, MoveList, Position};

use crate::nn::Accumulator;
use crate::{endgame, eval};

/// The score of giving mate now; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
const INF: i32 = 32_000;
/// Scores beyond this are mates.
const MATE_BOUND: i32 = MATE - 1000;
const MAX_PLY: usize = 128;

/// When to stop searching. Unset limits do not apply; with none set the search goes to
/// `MAX_PLY` and should be given a stop flag.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Stop at once when this much time has passed.
    pub time: Option<Duration>,
    /// Start no new iteration once this much has passed (playing on a clock: the next
    /// iteration would most likely not finish, and time saved is time for later moves).
    /// Level 8 scales it by how settled its best move is (`time_scale`).
    pub soft_time: Option<Duration>,
    /// Set from outside to stop as soon as possible (the best move so far is returned).
    pub stop: Option<Arc<AtomicBool>>,
    /// Search every root move with a full window, so that each gets an exact score (the
    /// weak levels choose among them); slower than the normal search.
    pub score_all: bool,
    /// How positions are judged.
    pub evaluation: Evaluation,
}

/// The static evaluation a search uses.
#[derive(Debug, Copy, Clone, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// Hand-written terms over PeSTO's tables (`eval.rs`): levels 1-7 play with it.
    #[default]
    Classic,
    /// The small network trained on the engine's own games (`nn.rs`): level 8 plays with it
    /// ([`crate::Level::evaluation`]; the UCI option `Evaluation` can choose either).
    Network,
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Exactly `time` (UCI `movetime`).
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// Playing on a clock: at most `budget`, starting no new iteration past half of it (level
    /// 8: 40% to 70% of it and more on a falling score, by `time_scale`). [`crate::budget`]
    /// makes half the budget the time a move aims at.
    pub fn budget(budget: Duration) -> Limits {
        Limits {
            time: Some(budget),
            soft_time: Some(budget / 2),
            ..Limits::default()
        }
    }
}

/// A root move with its score at the deepest completed iteration (exact only with
/// `Limits::score_all`; otherwise a bound for all but the best).
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub struct RootMove {
    pub m: Move,
    pub score: i32,
}

/// What a search found.
#[derive(Debug, Clone)]
pub struct Found {
    /// `None` only when the position has no legal move.
    pub best: Option<Move>,
    /// Centipawns for the side to move, or `MATE - plies` / `-(MATE - plies)`.
    pub score: i32,
    /// The deepest iteration completed.
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
    /// Root moves, best first.
    pub root: Vec<RootMove>,
    /// Time spent.
    pub elapsed: Duration,
}

/// A searcher: its transposition table and move-ordering memory persist between searches
/// of the same game.
#[derive(Debug)]
pub struct Search {
    tt: Vec<Option<Entry>>,
    /// The slots the weak levels (which score every root move) use: as many as the table had
    /// when their ratings were measured, with [`RATED_ENTRY_BYTES`]-byte entries, so that they
    /// search the same trees ([`Search::slot`]).
    weak_slots: usize,
    /// Counts the searches run, so that the table can tell this search's entries from those
    /// of searches before (which give way first).
    age: u8,
    /// The evaluation the table's entries were written with (they keep static values).
    judged_by: Evaluation,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    /// Positions before the current node (the game's, then the search path's).
    keys: Vec<u64>,
    /// How many of `keys` are the game's, before the root.
    game_keys: usize,
    nodes: u64,
    started: Instant,
    limits: Limits,
    aborted: bool,
    /// The best move of the iteration in progress, among those fully searched.
    partial: Option<(Move, i32)>,
    /// The network's hidden sums and the board at each ply of the current path; the sums
    /// are up to date up to ply `fresh` (brought further only when a position is evaluated).
    accumulators: Vec<Accumulator>,
    boards: Vec<Board>,
    fresh: usize,
}

impl Search {
    /// A searcher with a transposition table of about `mib` MiB.
    pub fn new(mib: usize) -> Search {
        let bytes = mib.max(1) << 20;
        let entries = bytes / std::mem::size_of::<Option<Entry>>();
        // The largest power of two that fits.
        let slots = 1 << (usize::BITS - 1 - entries.leading_zeros());
        endgame::prepare();
        Search {
            tt: vec![None; slots],
            weak_slots: ((bytes / RATED_ENTRY_BYTES).next_power_of_two() / 2).min(slots),
            age: 0,
            judged_by: Evaluation::default(),
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 64 * 64],
            keys: Vec::new(),
            game_keys: 0,
            nodes: 0,
            started: Instant::now(),
            limits: Limits::default(),
            aborted: false,
            partial: None,
            accumulators: Vec::with_capacity(MAX_PLY + 1),
            boards: Vec::with_capacity(MAX_PLY + 1),
            fresh: 0,
        }
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.iter_mut().for_each(|e| *e = None);
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    /// Searches `pos`, reached after the positions whose Zobrist keys are `history` (oldest
    /// first; used to see repetitions), within `limits`.
    pub fn run(&mut self, pos: &Position, history: &[u64], limits: &Limits) -> Found {
        self.run_reporting(pos, history, limits, &mut |_| {})
    }

    /// As [`Search::run`], calling `report` after each completed iteration (for UCI `info`).
    pub fn run_reporting(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        report: &mut dyn FnMut(&Found),
    ) -> Found {
        self.keys.clear();
        self.keys.extend_from_slice(history);
        self.game_keys = history.len();
        if limits.evaluation != self.judged_by {
            // Another evaluation's static values and scores would mislead this one.
            self.clear();
            self.judged_by = limits.evaluation;
        }
        self.nodes = 0;
        self.age = self.age.wrapping_add(1);
        self.started = Instant::now();
        self.limits = limits.clone();
        self.aborted = false;
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h /= 8);
        if limits.evaluation == Evaluation::Network {
            let acc = Accumulator::new(pos.board());
            self.accumulators = vec![acc; MAX_PLY + 1];
            self.boards = vec![*pos.board(); MAX_PLY + 1];
            self.fresh = 0;
        }

        let mut root: Vec<RootMove> = pos
            .legal_moves()
            .into_iter()
            .map(|m| RootMove { m, score: -INF })
            .collect();
        let mut found = Found {
            best: root.first().map(|r| r.m),
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            root: root.clone(),
            elapsed: Duration::ZERO,
        };
        if root.is_empty() {
            found.score = if pos.is_check() { -MATE } else { 0 };
            return found;
        }
        // Captures first for the first iteration.
        root.sort_by_key(|r| -self.order_score(pos, r.m, None, 0));
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).max(1);
        let mut previous = 0;
        // Iterations in a row that ended on the same best move.
        let mut same_best = 0;
        for depth in 1..=max_depth {
            let score = if depth >= 4 && !limits.score_all {
                self.aspiration(pos, &mut root, depth as i32, previous)
            } else {
                self.root_search(pos, &mut root, depth as i32, -INF, INF)
            };
            if self.aborted && depth > 1 {
                // An unfinished iteration still counts where it found a better move than
                // the last one's (the old best is searched first, so it was beaten).
                if let Some((m, score)) = self.partial {
                    if Some(m) != found.best {
                        found.best = Some(m);
                        found.score = score;
                        found.pv = vec![m];
                    }
                }
                break;
            }
            let fall = previous - score;
            previous = score;
            root.sort_by_key(|r| -r.score);
            same_best = if found.best == Some(root[0].m) {
                same_best + 1
            } else {
                0
            };
            found.best = Some(root[0].m);
            found.score = root[0].score;
            found.depth = depth;
            found.root = root.clone();
            found.nodes = self.nodes;
            found.elapsed = self.started.elapsed();
            found.pv = self.principal_variation(pos, found.best);
            report(&found);
            if self.aborted
                || score.abs() >= MATE_BOUND && depth > 1 && (MATE - score.abs()) < depth as i32
            {
                break;
            }
            if let Some(soft) = limits.soft_time {
                // Level 8 moves sooner on a settled choice and thinks on after a change.
                let soft = if limits.score_all || depth < 4 {
                    soft
                } else {
                    soft.mul_f64(time_scale(same_best, fall))
                };
                if self.started.elapsed() > soft {
                    break;
                }
            }
        }
        found.nodes = self.nodes;
        found.elapsed = self.started.elapsed();
        found
    }

    fn aspiration(&mut self, pos: &Position, root: &mut [RootMove], depth: i32, guess: i32) -> i32 {
        let mut delta = 40;
        let (mut alpha, mut beta) = (guess - delta, guess + delta);
        loop {
            let score = self.root_search(pos, root, depth, alpha, beta);
            if self.aborted {
                return score;
            }
            if score <= alpha {
                alpha = (alpha - delta).max(-INF);
            } else if score >= beta {
                beta = (beta + delta).min(INF);
            } else {
                return score;
            }
            delta *= 3;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// One iteration at the root; each root move's score is stored in `root`.
    fn root_search(
        &mut self,
        pos: &Position,
        root: &mut [RootMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let score_all = self.limits.score_all;
        let mut best = -INF;
        self.partial = None;
        self.keys.push(pos.zobrist());
        for (i, r) in root.iter_mut().enumerate() {
            let child = pos.after(r.m);
            let score = if score_all {
                -self.negamax(&child, depth - 1, -INF, INF, 1, true)
            } else if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, 1, true)
            } else {
                let s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1, true);
                if s > alpha && s < beta {
                    -self.negamax(&child, depth - 1, -beta, -alpha, 1, true)
                } else {
                    s
                }
            };
            if self.aborted {
                break;
            }
            r.score = if score > alpha || score_all || i == 0 {
                score
            } else {
                // Only a bound: keep it below the best.
                score.min(alpha) - 1
            };
            if score > best {
                best = score;
                // Only a move that beat the window is known to be better than the first.
                if i == 0 || score > alpha {
                    self.partial = Some((r.m, score));
                }
            }
            if score > alpha && !score_all {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        self.keys.pop();
        best
    }

    fn out_of_budget(&mut self) -> bool {
        if self.nodes & 1023 != 0 {
            return self.aborted;
        }
        let limits = &self.limits;
        if limits.nodes.is_some_and(|n| self.nodes >= n)
            || limits.time.is_some_and(|t| self.started.elapsed() >= t)
            || limits
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Whether `pos` is scored a draw: the fifty-move rule, a dead position, or a repetition
    /// as the rules count it (R4.4, threefold): a position already met on
    /// the search's own path after the root (the side that repeats could deviate, so it will
    /// not count on more), or one the game had twice before. A single earlier occurrence in
    /// the game is no draw: the opponent may deviate.
    fn is_draw(&self, pos: &Position) -> bool {
        if pos.halfmoves() >= 100 || pos.is_insufficient_material() {
            return true;
        }
        let key = pos.zobrist();
        let n = self.keys.len();
        let back = (pos.halfmoves() as usize).min(n);
        let mut in_game = 0;
        for d in (2..=back).step_by(2) {
            if self.keys[n - d] == key {
                if n - d > self.game_keys {
                    return true;
                }
                in_game += 1;
                if in_game == 2 {
                    return true;
                }
            }
        }
        false
    }

    /// Notes `pos` as the path's position at `ply`. The network's sums for it are computed
    /// only when it is evaluated: many nodes end before that (on the table's score, a draw)
    /// or never evaluate (in check).
    fn enter(&mut self, pos: &Position, ply: usize) {
        if self.limits.evaluation == Evaluation::Classic || ply == 0 || ply > MAX_PLY {
            return;
        }
        self.boards[ply] = *pos.board();
        self.fresh = self.fresh.min(ply - 1);
    }

    /// The static value of `pos`, at `ply` (entered), for the side to move.
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        let value = self.static_value(pos, ply);
        // Level 8 adds what is known of some endings (the weak levels search as rated).
        if self.limits.score_all {
            value
        } else {
            endgame::adjust(pos, value)
        }
    }

    /// The evaluation's own value of `pos`, at `ply` (entered), for the side to move.
    fn static_value(&mut self, pos: &Position, ply: usize) -> i32 {
        if self.limits.evaluation == Evaluation::Classic {
            return eval::evaluate(pos);
        }
        let ply = ply.min(MAX_PLY);
        // Each ply's sums from the ply before's, with the pieces that move changed.
        while self.fresh < ply {
            let at = self.fresh;
            let (before, after) = self.accumulators.split_at_mut(at + 1);
            after[0] = before[at];
            after[0].update(&self.boards[at], &self.boards[at + 1]);
            self.fresh = at + 1;
        }
        let value = self.accumulators[ply].evaluate(pos);
        debug_assert_eq!(value, crate::nn::evaluate(pos), "incremental sums drifted");
        value
    }

    /// Asks the processor to fetch the table's entry for `key` into the cache while other
    /// work goes on. The table is far larger than the caches: reading an entry cold was 17% of
    /// a search's time, and this hint, given as a child is entered, took about 8% off the
    /// time to a fixed depth (docs/benchmarks-log.md, "Speed at the same tree").
    #[allow(unsafe_code)]
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let entry: *const Option<Entry> = &self.tt[self.slot(key)];
            // SAFETY: a prefetch reads nothing and cannot fault; it only hints the cache, and
            // the address is that of a live element of the table. SSE is in every x86-64.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(entry.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    fn slot(&self, key: u64) -> usize {
        let slots = if self.limits.score_all {
            self.weak_slots
        } else {
            self.tt.len()
        };
        (key as usize) & (slots - 1)
    }

    fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        allow_null: bool,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        self.enter(pos, ply);
        if self.is_draw(pos) {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.evaluate(pos, ply);
        }
        let in_check = pos.is_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply);
        }
        let key = pos.zobrist();
        let slot = self.slot(key);
        let mut tt_move = None;
        let hit = self.tt[slot].filter(|e| e.key == check(key));
        if let Some(e) = hit {
            tt_move = e.m;
            if i32::from(e.depth) >= depth && beta - alpha == 1 {
                if let Some(score) = e.cut(ply, alpha, beta) {
                    return score;
                }
            }
        }
        // The weak levels (which score every root move) search as they were measured: all
        // moves generated and ordered up front. Otherwise the table's move goes first, alone,
        // and nothing is generated before reverse futility and the null move have had their
        // chance to cut: a stalemate far above beta (the side to move well ahead, and stuck)
        // is then cut as any such node, not scored 0.
        let mut moves = Picker::new(self, pos, tt_move, ply, self.limits.score_all);
        if moves.none_at_all() {
            return if in_check { -(MATE - ply as i32) } else { 0 };
        }
        let board = pos.board();
        let has_pieces = (board.by_color(pos.turn()) & !board.pawns() & !board.kings()).nonempty();
        let pv_node = beta - alpha > 1;
        // The table keeps the static evaluation (the same value, computed once).
        let static_eval = if in_check {
            -INF
        } else {
            hit.and_then(|e| e.eval())
                .unwrap_or_else(|| self.evaluate(pos, ply))
        };
        // At level 8 the table's score, where its bound puts it nearer the truth than the
        // static evaluation, stands in for it in the pruning below.
        let eval = match hit {
            Some(e) if !self.limits.score_all && !in_check && e.score().abs() < MATE_BOUND => {
                match e.bound {
                    Bound::Exact => e.score(),
                    Bound::Lower => static_eval.max(e.score()),
                    Bound::Upper => static_eval.min(e.score()),
                }
            }
            _ => static_eval,
        };
        // Reverse futility: far above beta near the leaves, a quiet move will not fall back.
        if !pv_node && !in_check && depth <= 4 && beta.abs() < MATE_BOUND {
            let margin = 90 * depth;
            if eval - margin >= beta {
                return eval - margin;
            }
        }
        if allow_null
            && !in_check
            && depth >= 3
            && has_pieces
            && beta.abs() < MATE_BOUND
            && eval >= beta
        {
            if let Some(null) = pos.null_move() {
                self.keys.push(key);
                // Deeper searches, and positions far above beta, reduce more.
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                let score = -self.negamax(&null, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                self.keys.pop();
                if self.aborted {
                    return 0;
                }
                if score >= beta {
                    return beta;
                }
            }
        }

        // Without a move from the table this node is new: search it a little shallower (the
        // next iteration will have the move).
        if tt_move.is_none() && depth >= 4 {
            depth -= 1;
        }
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        // Futility: near the leaves, quiet moves cannot lift a hopeless score to alpha.
        let futile = !pv_node
            && !in_check
            && depth <= 2
            && alpha.abs() < MATE_BOUND
            && eval + 120 + 100 * depth <= alpha;
        // Late-move pruning: near the leaves, quiet moves this far down the order rarely
        // matter.
        let late = (!pv_node && !in_check && depth <= 3).then_some(3 + (depth * depth) as usize);
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();
        self.keys.push(key);
        while let Some((i, m)) = moves.next(self, pos, ply) {
            let quiet = is_quiet(pos, m);
            // From here on every quiet move that does not give check is pruned.
            let pruning = i > 0 && best > -MATE_BOUND && (futile || late.is_some_and(|n| i >= n));
            if pruning {
                moves.drop_quiet_moves(pos);
            }
            if quiet && pruning && !pos.gives_check(m) {
                continue;
            }
            let child = pos.after(m);
            if depth >= 2 {
                self.prefetch(child.zobrist());
            }
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true)
            } else {
                let killer = self.killers[ply.min(MAX_PLY)].contains(&Some(m));
                let reduce = if depth >= 3 && i >= 3 && quiet && !in_check && !child.is_check() {
                    // Later and deeper moves are reduced more; killers less.
                    let r = 0.75 + (f64::from(depth)).ln() * (i as f64).ln() / 2.25;
                    (r as i32 - i32::from(killer) - i32::from(pv_node)).clamp(0, depth - 2)
                } else {
                    0
                };
                let mut s = -self.negamax(
                    &child,
                    depth - 1 - reduce,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    true,
                );
                if s > alpha && reduce > 0 {
                    s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, true);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true);
                }
                s
            };
            if self.aborted {
                self.keys.pop();
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if quiet {
                    let k = &mut self.killers[ply];
                    if k[0] != Some(m) {
                        k[1] = k[0];
                        k[0] = Some(m);
                    }
                    self.reward(m, depth * depth);
                    // The quiet moves tried before it did not cut: they sink.
                    for &q in &quiets_tried {
                        self.reward(q, -depth * depth);
                    }
                }
                break;
            }
            if quiet {
                let _ = quiets_tried.try_push(m);
            }
        }
        self.keys.pop();
        if best_move.is_none() {
            // No legal move (the first move is never pruned).
            return if in_check { -(MATE - ply as i32) } else { 0 };
        }
        let bound = Bound::of(best, original_alpha, beta);
        let entry = Entry::new(
            key,
            best_move,
            best,
            ply,
            static_eval,
            depth,
            self.age,
            bound,
        );
        self.store(slot, entry);
        best
    }

    /// Writes `entry` to the table. The weak levels replace whatever was there, as they were
    /// measured; level 8 keeps an entry of this search over a much shallower bound (a
    /// quiescence node's, say), and the move it had where the new entry has none.
    fn store(&mut self, slot: usize, mut entry: Entry) {
        if !self.limits.score_all {
            if let Some(old) = self.tt[slot] {
                if old.age == self.age
                    && i32::from(old.depth) > i32::from(entry.depth) + 3
                    && entry.bound != Bound::Exact
                {
                    return;
                }
                if old.key == entry.key && entry.m.is_none() {
                    entry.m = old.m;
                }
            }
        }
        self.tt[slot] = Some(entry);
    }

    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        self.enter(pos, ply);
        // Level 8 reads and writes the table here too (the weak levels search as measured).
        let sharp = !self.limits.score_all;
        let key = pos.zobrist();
        let hit = self.tt[self.slot(key)].filter(|e| sharp && e.key == check(key));
        if let Some(score) = hit
            .filter(|_| beta - alpha == 1)
            .and_then(|e| e.cut(ply, alpha, beta))
        {
            return score;
        }
        let original_alpha = alpha;
        let in_check = pos.is_check();
        let mut moves = MoveList::new();
        if in_check {
            // Every evasion: a check is not quiet.
            pos.fill_legal_moves(&mut moves);
            if moves.is_empty() {
                return -(MATE - ply as i32);
            }
        }
        if pos.is_insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.evaluate(pos, ply);
        }
        let mut best = -INF;
        let mut best_move = None;
        let mut stand = -INF;
        if !in_check {
            stand = hit
                .and_then(|e| e.eval())
                .unwrap_or_else(|| self.evaluate(pos, ply));
            if stand >= beta {
                if sharp {
                    self.store_quiet(key, None, stand, stand, Bound::Lower, ply);
                }
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            // Only now, when standing pat has not already cut, the captures.
            pos.fill_noisy_moves(&mut moves);
        }
        // Each move's ordering score, and what it wins by exchanges where ordering had to
        // work that out. (Filled in place: these lists are large to move around.)
        let mut scores = Scores::new();
        let mut gains: ArrayVec<Option<i32>, { rookery_core::MAX_LEGAL_MOVES }> = ArrayVec::new();
        for &m in &moves {
            let (score, gain) = match pos.captured_role(m) {
                Some(victim) if !in_check => capture_order(pos, m, victim),
                _ => (self.order_score(pos, m, None, ply), None),
            };
            scores.push(score);
            gains.push(gain);
        }
        for i in 0..moves.len() {
            let j = best_from(&scores, i);
            moves.swap(i, j);
            scores.swap(i, j);
            gains.swap(i, j);
            let m = moves[i];
            if !in_check && !worth_capturing(pos, m, gains[i], stand, alpha) {
                continue;
            }
            let child = pos.after(m);
            if sharp {
                self.prefetch(child.zobrist());
            }
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        if sharp {
            let bound = Bound::of(best, original_alpha, beta);
            self.store_quiet(key, best_move, best, stand, bound, ply);
        }
        best
    }

    /// Notes a quiescence node's result (`stand`, its static evaluation, is `-INF` in
    /// check).
    fn store_quiet(
        &mut self,
        key: u64,
        m: Option<Move>,
        score: i32,
        stand: i32,
        bound: Bound,
        ply: usize,
    ) {
        let entry = Entry::new(key, m, score, ply, stand, 0, self.age, bound);
        self.store(self.slot(key), entry);
    }

    /// Moves a quiet move's history score towards a bound, by `bonus` scaled down as the
    /// score nears it (so that scores stay comparable across the search).
    fn reward(&mut self, m: Move, bonus: i32) {
        let h = &mut self.history[m.from().index() * 64 + m.to().index()];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// Higher first: the table's move, captures by most valuable victim and least valuable
    /// attacker, promotions, killers, then by history; captures that lose material (by SEE)
    /// last.
    fn order_score(&self, pos: &Position, m: Move, tt_move: Option<Move>, ply: usize) -> i32 {
        if Some(m) == tt_move {
            return 10_000_000;
        }
        if let Some(victim) = pos.captured_role(m) {
            return capture_order(pos, m, victim).0;
        }
        if let Some(p) = m.promotion() {
            return 4_000_000 + role_value(p);
        }
        let k = self.killers[ply.min(MAX_PLY)];
        if k[0] == Some(m) {
            return 3_000_000;
        }
        if k[1] == Some(m) {
            return 2_900_000;
        }
        self.history[m.from().index() * 64 + m.to().index()]
    }

    fn principal_variation(&self, pos: &Position, best: Option<Move>) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut pos = *pos;
        let mut next = best;
        while let Some(m) = next {
            if pv.len() >= 32 || !pos.is_legal(m) {
                break;
            }
            pv.push(m);
            pos = pos.after(m);
            next = self.tt[self.slot(pos.zobrist())]
                .filter(|e| e.key == check(pos.zobrist()))
                .and_then(|e| e.m);
        }
        pv
    }
}

/// How much of its soft time limit level 8 allows itself after an iteration whose best move
/// had been the best `same_best` iterations before it and whose score fell by `fall`
/// centipawns (rose, if negative): less while the choice holds, more just after it changed or
/// when the score drops.
fn time_scale(same_best: u32, fall: i32) -> f64 {
    let settled = match same_best {
        0 => 1.4,
        1 => 1.15,
        2 => 1.0,
        3 => 0.9,
        _ => 0.8,
    };
    settled * (1.0 + f64::from(fall.clamp(0, 100)) / 200.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn best(fen: &str, depth: u32) -> Found {
        let pos = Position::from_fen(fen).unwrap();
        Search::new(4).run(&pos, &[], &Limits::depth(depth))
    }

    fn uci(m: Option<Move>) -> String {
        m.unwrap().to_uci().to_string()
    }

    #[test]
    fn finds_mate_in_one_and_two() {
        let f = best("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", 3);
        assert_eq!((uci(f.best), f.score), ("a1a8".to_owned(), MATE - 1));
        // Mate in two with two rooks (1. Rb7 and 2. Ra8#): found as mate in three plies.
        let f = best("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 5);
        assert_eq!(f.score, MATE - 3);
    }

    #[test]
    fn takes_a_hanging_queen_and_avoids_losing_its_own() {
        let f = best("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", 4);
        assert_eq!(uci(f.best), "d2d5");
        assert!(f.score > 400);
    }

    #[test]
    fn sees_stalemate_and_repetition_as_draws() {
        // Black to move has no move: stalemate.
        let f = best("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 3);
        assert_eq!((f.best, f.score), (None, 0));
        // A lone king is a draw whatever the search does.
        let f = best("7k/8/6K1/8/8/8/8/8 w - - 0 1", 4);
        assert_eq!(f.score, 0);
        // White, a queen against a rook down, has one way out: a rook move back to a
        // position the game has had twice (with Black to move): the third time is a draw.
        // Without that history it loses, and so it does when the game had it once (Black
        // need not repeat).
        let pos = Position::from_fen("7k/8/8/8/3q4/8/8/1R5K w - - 10 40").unwrap();
        let back = "b1b2"
            .parse::<rookery_core::UciMove>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        let lost = Search::new(4).run(&pos, &[], &Limits::depth(4));
        assert!(lost.score < -300, "{}", lost.score);
        let (again, other) = (pos.after(back).zobrist(), pos.zobrist() ^ 1);
        let once = Search::new(4).run(&pos, &[other, again], &Limits::depth(4));
        assert!(once.score < -300, "{}", once.score);
        let twice = [other, again, other, again];
        let f = Search::new(4).run(&pos, &twice, &Limits::depth(4));
        assert_eq!((f.best, f.score), (Some(back), 0));
    }

    /// An entry is 16 bytes; the weak levels still use as many slots as their tables had
    /// when they were measured (24-byte entries then), level 8 all of them.
    #[test]
    fn a_table_entry_is_16_bytes_and_the_weak_levels_keep_their_slots() {
        assert_eq!(std::mem::size_of::<Option<Entry>>(), 16);
        for (mib, weak, all) in [
            (1, 1 << 15, 1 << 16),
            (16, 1 << 19, 1 << 20),
            (100, 1 << 22, 1 << 22),
        ] {
            let search = Search::new(mib);
            assert_eq!(
                (search.weak_slots, search.tt.len()),
                (weak, all),
                "{mib} MiB"
            );
        }
    }

    #[test]
    fn a_settled_choice_moves_sooner_than_a_changed_or_falling_one() {
        assert!(time_scale(5, 0) < time_scale(2, 0));
        assert!(time_scale(2, 0) < time_scale(0, 0));
        assert!(time_scale(2, 60) > time_scale(2, 0));
        // A rising score is no reason to think longer; a collapse counts as a pawn's fall.
        assert_eq!(time_scale(2, -80), time_scale(2, 0));
        assert_eq!(time_scale(2, 900), time_scale(2, 100));
    }

    /// Switching evaluations forgets the table: its entries hold the other one's values.
    #[test]
    fn another_evaluation_starts_from_an_empty_table() {
        let pos = Position::new();
        let mut search = Search::new(1);
        search.run(&pos, &[], &Limits::depth(5));
        assert!(search.tt.iter().any(Option::is_some));
        let network = Limits {
            evaluation: Evaluation::Network,
            ..Limits::depth(1)
        };
        search.run(&pos, &[], &network);
        let filled = search.tt.iter().filter(|e| e.is_some()).count();
        assert!(filled <= pos.legal_moves().len() + 1, "{filled}");
    }

    #[test]
    fn a_stop_flag_or_node_limit_ends_the_search_with_a_legal_move() {
        let pos = Position::new();
        let stop = Arc::new(AtomicBool::new(true));
        let limits = Limits {
            stop: Some(stop),
            ..Limits::default()
        };
        let f = Search::new(1).run(&pos, &[], &limits);
        assert!(pos.is_legal(f.best.unwrap()));
        let limits = Limits {
            nodes: Some(5_000),
            ..Limits::default()
        };
        let f = Search::new(1).run(&pos, &[], &limits);
        assert!(f.nodes < 7_000 && pos.is_legal(f.best.unwrap()));
    }
}
