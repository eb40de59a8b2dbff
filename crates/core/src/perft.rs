//! Perft: the number of leaf nodes of the legal move tree, the standard test of a move
//! generator against independent counts.

use crate::{MoveList, Position};

/// Counts leaf nodes `depth` plies down, playing every move including the last ply.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    count(pos, depth, false)
}

/// Counts leaf nodes `depth` plies down, counting (not playing) the moves of the last ply.
pub fn perft_bulk(pos: &Position, depth: u32) -> u64 {
    count(pos, depth, true)
}

fn count(pos: &Position, depth: u32, bulk: bool) -> u64 {
    match depth {
        0 => return 1,
        1 if bulk => return pos.count_legal_moves(),
        _ => {}
    }
    let mut moves = MoveList::new();
    pos.fill_legal_moves(&mut moves);
    let mut n = 0;
    for &m in &moves {
        // Copy, then play in place: cheaper than returning a new position by value.
        let mut child = *pos;
        child.play_unchecked(m);
        n += if depth == 1 {
            // Through black_box the whole child must exist in memory, so no part of
            // playing the move can be optimised away.
            u64::from(std::hint::black_box(&child).turn() != pos.turn())
        } else {
            count(&child, depth - 1, bulk)
        };
    }
    n
}
