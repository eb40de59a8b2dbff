//! Perft: the number of leaf nodes of the legal move tree, the standard test of a move
//! generator against independent counts.

use crate::Position;

/// Counts leaf nodes `depth` plies down, playing every move including the last ply.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        // Play each move anyway: this mode measures make-move as well as generation.
        let mut n = 0;
        for &m in &moves {
            // The reference through black_box makes the whole child exist in memory, so
            // no part of playing the move can be optimised away.
            let mut child = *pos;
            child.play_unchecked(m);
            n += u64::from(std::hint::black_box(&child).turn() != pos.turn());
        }
        return n;
    }
    moves.iter().map(|&m| perft(&pos.after(m), depth - 1)).sum()
}

/// Counts leaf nodes `depth` plies down, counting (not playing) the moves of the last ply.
pub fn perft_bulk(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => pos
            .legal_moves()
            .iter()
            .map(|&m| perft_bulk(&pos.after(m), depth - 1))
            .sum(),
    }
}
