//! Static evaluation: material and piece placement, tapered between the middlegame and the
//! endgame by the material left on the board. Scores are centipawns from the side to move's
//! point of view.
//!
//! The material figures are PeSTO's (Ronald Friederich's tuned values, as published on the
//! Chess Programming Wiki); the placement terms are our own simple shapes.

use rookery_core::{Bitboard, Color, Position, Role, Square};

/// Middlegame and endgame value of each role, pawn first.
const MATERIAL: [(i32, i32); 6] = [
    (82, 94),
    (337, 281),
    (365, 297),
    (477, 512),
    (1025, 936),
    (0, 0),
];

/// How much each role counts towards the middlegame phase (24 at the start).
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const FULL_PHASE: i32 = 24;

/// A square's distance from the centre: 0 on d4/e4/d5/e5, up to 6 in a corner.
fn centre_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    ((2 * f - 7).abs() + (2 * r - 7).abs()) / 2 - 1
}

/// Placement of a piece on `sq` for `color`, as (middlegame, endgame).
fn placement(role: Role, color: Color, sq: Square) -> (i32, i32) {
    let rel = match color {
        Color::White => sq,
        Color::Black => sq.flip_vertical(),
    };
    let rank = rel.rank() as i32;
    let file = rel.file() as i32;
    let centre = centre_distance(sq);
    match role {
        Role::Pawn => {
            const MG: [i32; 8] = [0, 0, 2, 8, 18, 30, 55, 0];
            const EG: [i32; 8] = [0, 5, 8, 18, 35, 60, 100, 0];
            let central = if (3..=4).contains(&file) && (2..=4).contains(&rank) {
                12
            } else {
                0
            };
            (MG[rank as usize] + central, EG[rank as usize])
        }
        Role::Knight => (-8 * centre + 10, -6 * centre + 8),
        Role::Bishop => (-4 * centre + 6, -4 * centre + 6),
        Role::Rook => (if rank == 6 { 20 } else { 0 }, 0),
        Role::Queen => (-2 * centre, -4 * centre + 6),
        Role::King => {
            let shelter = match (rank, file) {
                (0, 0..=2 | 6..=7) => 25,
                (0, _) => 0,
                (1, _) => -15,
                _ => -40 - 10 * rank,
            };
            (shelter, -10 * centre + 20)
        }
    }
}

/// The position's value for the side to move, in centipawns.
pub fn evaluate(pos: &Position) -> i32 {
    let board = pos.board();
    let mut mg = 0;
    let mut eg = 0;
    let mut phase = 0;
    for (sq, piece) in board.pieces() {
        let i = piece.role as usize;
        let (pm, pe) = placement(piece.role, piece.color, sq);
        let sign = if piece.color == Color::White { 1 } else { -1 };
        mg += sign * (MATERIAL[i].0 + pm);
        eg += sign * (MATERIAL[i].1 + pe);
        phase += PHASE[i];
    }
    for color in [Color::White, Color::Black] {
        let sign = if color == Color::White { 1 } else { -1 };
        let ours = board.by_color(color);
        if (ours & board.bishops()).more_than_one() {
            mg += sign * 30;
            eg += sign * 50;
        }
        // Doubled pawns.
        let pawns = ours & board.pawns();
        for file in rookery_core::File::ALL {
            let n = (pawns & Bitboard::from_file(file)).count() as i32;
            if n > 1 {
                mg -= sign * 12 * (n - 1);
                eg -= sign * 20 * (n - 1);
            }
        }
    }
    let phase = phase.min(FULL_PHASE);
    let score = (mg * phase + eg * (FULL_PHASE - phase)) / FULL_PHASE;
    // The side to move has a small edge (tempo).
    let ours = match pos.turn() {
        Color::White => score,
        Color::Black => -score,
    };
    ours + 10
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_even_and_mirrored_positions_score_alike() {
        assert_eq!(evaluate(&Position::new()), 10);
        let w = Position::from_fen("4k3/8/8/3p4/8/2N5/1P6/4K3 w - - 0 1").unwrap();
        let b = Position::from_fen("4k3/1p6/2n5/8/3P4/8/8/4K3 b - - 0 1").unwrap();
        assert_eq!(evaluate(&w), evaluate(&b));
    }

    #[test]
    fn more_material_is_better() {
        let up = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert!(evaluate(&up) > 800);
        let down = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        assert!(evaluate(&down) < -800);
    }
}
