//! Static evaluation: material and piece placement, tapered between the middlegame and the
//! endgame by the material left on the board. Scores are centipawns from the side to move's
//! point of view.
//!
//! Material and placement are PeSTO's tuned tables (see `pesto.rs` for where they come from);
//! pawn structure, mobility, rooks on open files, the bishop pair and king safety are our own
//! terms on top.

use crate::pesto;
use rookery_core::{Bitboard, Color, File, Position, Role, Square, attacks};

/// Passed pawn bonus by relative rank, (middlegame, endgame).
const PASSED: [(i32, i32); 8] = [
    (0, 0),
    (5, 10),
    (5, 15),
    (10, 25),
    (20, 45),
    (35, 80),
    (60, 130),
    (0, 0),
];

/// The bonus of `color`'s passed pawns (no enemy pawn ahead on their own or a neighbouring
/// file), (middlegame, endgame).
fn passed_bonus(color: Color, pawns: Bitboard, their_pawns: Bitboard) -> (i32, i32) {
    let (mut mg, mut eg) = (0, 0);
    for sq in pawns {
        if (their_pawns & front_span(color, sq)).is_empty() {
            let rank = sq.rank().relative_to(color) as usize;
            mg += PASSED[rank].0;
            eg += PASSED[rank].1;
        }
    }
    (mg, eg)
}

fn neighbour_files(file: File) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for delta in [-1, 1] {
        if let Some(f) = file.offset(delta) {
            out |= Bitboard::from_file(f);
        }
    }
    out
}

/// The squares ahead of `sq` (from `color`'s side) on its file and the neighbouring ones.
fn front_span(color: Color, sq: Square) -> Bitboard {
    let files = Bitboard::from_file(sq.file()) | neighbour_files(sq.file());
    let rank = sq.rank() as u32;
    // Whole ranks above (white) or below (black) this one.
    let ahead = match color {
        Color::White if rank == 7 => 0,
        Color::White => !0u64 << (8 * (rank + 1)),
        Color::Black if rank == 0 => 0,
        Color::Black => !0u64 >> (8 * (8 - rank)),
    };
    files & Bitboard(ahead)
}

/// Squares attacked by `color`'s `pawns`.
fn pawn_attack_span(color: Color, pawns: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for sq in pawns {
        out |= attacks::pawn_attacks(color, sq);
    }
    out
}

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

/// Placement of a piece on `sq` for `color`, as (middlegame, endgame): PeSTO's tables.
fn placement(role: Role, color: Color, sq: Square) -> (i32, i32) {
    let i = pesto::index(color, sq);
    let r = role as usize;
    (i32::from(pesto::MG[r][i]), i32::from(pesto::EG[r][i]))
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
    let occupied = board.occupied();
    for color in [Color::White, Color::Black] {
        let sign = if color == Color::White { 1 } else { -1 };
        let ours = board.by_color(color);
        let theirs = board.by_color(!color);
        if (ours & board.bishops()).more_than_one() {
            mg += sign * 30;
            eg += sign * 50;
        }
        let pawns = ours & board.pawns();
        let their_pawns = theirs & board.pawns();
        for file in File::ALL {
            let on_file = Bitboard::from_file(file);
            let n = (pawns & on_file).count() as i32;
            // Doubled pawns.
            if n > 1 {
                mg -= sign * 12 * (n - 1);
                eg -= sign * 20 * (n - 1);
            }
            // Isolated pawns: no friendly pawn on a neighbouring file.
            if n > 0 && (pawns & neighbour_files(file)).is_empty() {
                mg -= sign * 10 * n;
                eg -= sign * 12 * n;
            }
        }
        let (passed_mg, passed_eg) = passed_bonus(color, pawns, their_pawns);
        mg += sign * passed_mg;
        eg += sign * passed_eg;
        // Mobility: squares each piece attacks that are not its own side's.
        let their_pawn_attacks = pawn_attack_span(!color, their_pawns);
        let safe = !ours & !their_pawn_attacks;
        for sq in ours & board.knights() {
            let n = (attacks::knight_attacks(sq) & safe).count() as i32;
            mg += sign * 4 * (n - 4);
            eg += sign * 4 * (n - 4);
        }
        for sq in ours & board.bishops() {
            let n = (attacks::bishop_attacks(sq, occupied) & safe).count() as i32;
            mg += sign * 5 * (n - 6);
            eg += sign * 5 * (n - 6);
        }
        for sq in ours & board.rooks() {
            let n = (attacks::rook_attacks(sq, occupied) & safe).count() as i32;
            mg += sign * 2 * (n - 7);
            eg += sign * 4 * (n - 7);
            // Open and half-open files.
            let file = Bitboard::from_file(sq.file());
            if (file & board.pawns()).is_empty() {
                mg += sign * 25;
                eg += sign * 10;
            } else if (file & pawns).is_empty() {
                mg += sign * 12;
                eg += sign * 6;
            }
        }
        for sq in ours & board.queens() {
            let n = (attacks::queen_attacks(sq, occupied) & safe).count() as i32;
            mg += sign * (n - 13);
            eg += sign * 2 * (n - 13);
        }
        // King shelter: own pawns in front of the king, in the middlegame.
        if let Some(king) = (ours & board.kings()).first() {
            let shield = attacks::king_attacks(king) & front_span(color, king) & pawns;
            mg += sign * 12 * shield.count().min(3) as i32;
            // Enemy pieces bearing on the squares around the king.
            let zone = attacks::king_attacks(king);
            let mut pressure = 0;
            for sq in theirs & (board.knights() | board.bishops() | board.rooks() | board.queens())
            {
                if let Some(piece) = board.piece_at(sq) {
                    let hits = (attacks::attacks(piece, sq, occupied) & zone).count() as i32;
                    pressure += hits * if piece.role == Role::Queen { 3 } else { 2 };
                }
            }
            mg -= sign * pressure * pressure / 4;
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
    fn the_span_ahead_of_a_pawn() {
        let e4 = Square::E4;
        let white = front_span(Color::White, e4);
        assert!(
            white.contains(Square::D5) && white.contains(Square::F8) && white.contains(Square::E5)
        );
        assert!(
            !white.contains(Square::E4)
                && !white.contains(Square::D3)
                && !white.contains(Square::G5)
        );
        let black = front_span(Color::Black, e4);
        assert!(
            black.contains(Square::E3) && black.contains(Square::D1) && !black.contains(Square::E5)
        );
        assert!(front_span(Color::White, Square::A8).is_empty());
        assert!(front_span(Color::Black, Square::H1).is_empty());
    }

    #[test]
    fn a_passed_pawn_scores_by_its_rank_and_a_held_one_does_not() {
        let bonus = |fen: &str, color: Color| {
            let board = *Position::from_fen(fen).unwrap().board();
            let pawns = board.pawns();
            passed_bonus(
                color,
                pawns & board.by_color(color),
                pawns & board.by_color(!color),
            )
        };
        // White's d5 pawn, fifth rank: passed with nothing ahead, held by a pawn on e7.
        assert_eq!(
            bonus("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", Color::White),
            PASSED[4]
        );
        assert_eq!(
            bonus("4k3/4p3/8/3P4/8/8/8/4K3 w - - 0 1", Color::White),
            (0, 0)
        );
        // A pawn behind it on a neighbouring file does not hold it.
        assert_eq!(
            bonus("4k3/8/8/3P4/4p3/8/8/4K3 w - - 0 1", Color::White),
            PASSED[4]
        );
        // Ranks count from each side's own: Black's d4 pawn is on its fifth.
        assert_eq!(
            bonus("4k3/8/8/8/3p4/8/8/4K3 b - - 0 1", Color::Black),
            PASSED[4]
        );
        assert!(PASSED[6].1 > PASSED[4].1 && PASSED[4].1 > PASSED[2].1);
    }

    #[test]
    fn more_material_is_better() {
        let up = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert!(evaluate(&up) > 800);
        let down = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        assert!(evaluate(&down) < -800);
    }
}
