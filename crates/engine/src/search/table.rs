//! The transposition table's entries: 16 bytes each (bound, depth, age, the move, the score
//! and the static evaluation), and mate scores made relative to the node for storing.

use rookery_core::Move;

use super::{INF, MATE_BOUND};

#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub(super) enum Bound {
    Exact,
    Lower,
    Upper,
}

impl Bound {
    /// What a node's `best` score, searched with the window `alpha`..`beta`, is.
    pub(super) fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// A table entry: 16 bytes, so that a table holds half as many again as at 24 (twice the
/// slots for a power-of-two size; the Zobrist key's low bits choose the slot, its high half is
/// kept to tell positions apart, and scores fit 16 bits).
#[derive(Debug, Copy, Clone)]
pub(super) struct Entry {
    /// The high half of the position's Zobrist key ([`check`]).
    pub(super) key: u32,
    pub(super) m: Option<Move>,
    /// As [`to_tt`] writes it.
    pub(super) score: i16,
    /// The position's static evaluation ([`NO_EVAL`] in check, or out of range), so that a
    /// node met again is not evaluated again.
    pub(super) eval: i16,
    /// Plies searched below the node; 0 for a quiescence node.
    pub(super) depth: i8,
    /// The search that wrote it ([`Search::age`]): at level 8 an older entry gives way to
    /// any new one, one of this search only to an exact one or one at most three plies
    /// shallower ([`Search::store`]).
    pub(super) age: u8,
    pub(super) bound: Bound,
}

/// [`Entry::eval`] when there is none.
pub(super) const NO_EVAL: i16 = i16::MIN;

impl Entry {
    /// An entry for the position `key`, its score `score` at `ply` and its `static_eval`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        key: u64,
        m: Option<Move>,
        score: i32,
        ply: usize,
        static_eval: i32,
        depth: i32,
        age: u8,
        bound: Bound,
    ) -> Entry {
        Entry {
            key: check(key),
            m,
            score: to_tt(score, ply).clamp(-INF, INF) as i16,
            eval: stored_eval(static_eval),
            depth: depth.clamp(0, i32::from(i8::MAX)) as i8,
            age,
            bound,
        }
    }

    /// The stored score (mates counted from this node).
    pub(super) fn score(&self) -> i32 {
        i32::from(self.score)
    }

    pub(super) fn eval(&self) -> Option<i32> {
        (self.eval != NO_EVAL).then_some(i32::from(self.eval))
    }

    /// The entry's score at `ply`, where its bound settles the window `alpha`..`beta`.
    pub(super) fn cut(&self, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        let score = from_tt(self.score(), ply);
        let settled = match self.bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        };
        settled.then_some(score)
    }
}

/// The size of an entry when the weak levels were rated: their share of a table is as many
/// slots as a table of its size held then ([`Search::weak_slots`]).
pub(super) const RATED_ENTRY_BYTES: usize = 24;

/// What an entry keeps of a Zobrist key: its high half (the low bits choose the slot).
pub(super) fn check(key: u64) -> u32 {
    (key >> 32) as u32
}

/// A static evaluation as an entry keeps it: none for `-INF` (what a node in check holds)
/// or for a value out of range.
pub(super) fn stored_eval(eval: i32) -> i16 {
    i16::try_from(eval)
        .ok()
        .filter(|&e| e != NO_EVAL && eval != -INF)
        .unwrap_or(NO_EVAL)
}

/// Mate scores are stored relative to the node, read back relative to the root.
pub(super) fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub(super) fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stored static evaluation is the one the position has, and an evaluation out of
    /// the entry's range is not stored at all.
    #[test]
    fn stored_evaluations_are_exact_or_absent() {
        for v in [-32_767, -1, 0, 1, 250, 32_767] {
            let e = Entry {
                key: 0,
                m: None,
                score: 0,
                eval: stored_eval(v),
                depth: 0,
                age: 0,
                bound: Bound::Exact,
            };
            assert_eq!(e.eval(), Some(v));
        }
        for v in [-40_000, i32::from(i16::MIN), 40_000] {
            assert_eq!(stored_eval(v), NO_EVAL, "{v}");
        }
    }
}
