//! Move ordering: a node's moves in search order ([`Picker`]), the table's move first, then
//! captures by victim and attacker (losing ones last), killers and quiet moves by history.

use arrayvec::ArrayVec;
use rookery_core::{Move, MoveList, Position, Role};

use super::Search;
use super::see::{role_value, see};

/// History scores stay within plus or minus this.
pub(super) const HISTORY_MAX: i32 = 1 << 16;

/// Ordering scores, beside a list of moves.
pub(super) type Scores = ArrayVec<i32, { rookery_core::MAX_LEGAL_MOVES }>;

/// A node's moves in search order. Generated and ordered up front, or (lazily) only when
/// needed: then the table's move is tried before the others are generated (alone, it often
/// cuts the node off), and the rest are ordered by what the history has learnt meanwhile.
pub(super) struct Picker {
    tt_move: Option<Move>,
    /// Generated only when needed (else up front, and the order kept exactly as measured).
    lazy: bool,
    /// The quiet moves that do not give check have been dropped from the rest.
    dropped: bool,
    generated: bool,
    moves: MoveList,
    scores: Scores,
    next: usize,
}

impl Picker {
    pub(super) fn new(
        search: &Search,
        pos: &Position,
        tt_move: Option<Move>,
        ply: usize,
        eager: bool,
    ) -> Picker {
        let mut picker = Picker {
            tt_move,
            lazy: !eager,
            dropped: false,
            generated: false,
            moves: MoveList::new(),
            scores: Scores::new(),
            next: 0,
        };
        if eager {
            picker.generate(search, pos, ply);
        }
        picker
    }

    pub(super) fn generate(&mut self, search: &Search, pos: &Position, ply: usize) {
        pos.fill_legal_moves(&mut self.moves);
        for &m in &self.moves {
            self.scores
                .push(search.order_score(pos, m, self.tt_move, ply));
        }
        self.generated = true;
    }

    /// Known already to have no legal move (only when generated up front).
    pub(super) fn none_at_all(&self) -> bool {
        self.generated && self.moves.is_empty()
    }

    /// Drops the quiet moves that do not give check from those not yet picked, once the node
    /// prunes them all: picking them one by one costs a scan of the rest each. (Lazy only:
    /// the order of equal scores may change.)
    pub(super) fn drop_quiet_moves(&mut self, pos: &Position) {
        if !self.lazy || self.dropped || !self.generated {
            return;
        }
        self.dropped = true;
        let mut kept = self.next;
        for j in self.next..self.moves.len() {
            let m = self.moves[j];
            if !is_quiet(pos, m) || pos.gives_check(m) {
                self.moves[kept] = m;
                self.scores[kept] = self.scores[j];
                kept += 1;
            }
        }
        self.moves.truncate(kept);
        self.scores.truncate(kept);
    }

    /// Brings the best remaining move to `i`.
    pub(super) fn pick(&mut self, i: usize) -> Move {
        let best = best_from(&self.scores, i);
        self.moves.swap(i, best);
        self.scores.swap(i, best);
        self.moves[i]
    }

    /// The next move with its place in the order (0 first).
    pub(super) fn next(
        &mut self,
        search: &Search,
        pos: &Position,
        ply: usize,
    ) -> Option<(usize, Move)> {
        let i = self.next;
        self.next += 1;
        if !self.generated {
            if i == 0 {
                if let Some(m) = self.tt_move.filter(|&m| pos.is_legal(m)) {
                    return Some((0, m));
                }
            }
            self.generate(search, pos, ply);
            if i > 0 {
                // The table's move went first, before the rest were generated: scored above
                // all, it takes place 0 again, and the rest follow it.
                self.pick(0);
            }
        }
        (i < self.moves.len()).then(|| (i, self.pick(i)))
    }
}

/// Neither a capture nor a promotion: the moves that history orders and that pruning near
/// the leaves may skip.
pub(super) fn is_quiet(pos: &Position, m: Move) -> bool {
    pos.captured_role(m).is_none() && m.promotion().is_none()
}

/// A capture's ordering score: by most valuable victim and least valuable attacker, those
/// that lose material (by SEE) after the quiet moves. With it, what the exchange wins where
/// the score needed it (a victim worth less than the attacker).
pub(super) fn capture_order(pos: &Position, m: Move, victim: Role) -> (i32, Option<i32>) {
    let mvv_lva = 100 * role_value(victim) - role_value(m.role());
    if role_value(victim) >= role_value(m.role()) {
        return (5_000_000 + mvv_lva, None);
    }
    let gain = see(pos, m);
    let score = if gain >= 0 {
        5_000_000 + mvv_lva
    } else {
        -5_000_000 + mvv_lva
    };
    (score, Some(gain))
}

/// Where the best score from `i` on is (the first of equals): a selection sort goes one step
/// at a time, as most nodes cut off after a move or two.
pub(super) fn best_from(scores: &[i32], i: usize) -> usize {
    let mut best = i;
    for j in i + 1..scores.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    best
}
