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

const SCALE_FULL: i32 = 64;

/// What one side's pieces reach: every square, by role, and its bearing on the enemy king.
#[derive(Default)]
struct Attack {
    all: Bitboard,
    by_role: [Bitboard; 6],
    /// Pieces that reach a square next to the enemy king (or its own).
    attackers: i32,
    /// Those squares reached, weighted by [`KING_ATTACK`].
    units: i32,
}

/// Weight of a piece's reach next to the enemy king, by role, pawn first.
const KING_ATTACK: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// How much of a score the side ahead can expect to turn into a win, out of
/// [`SCALE_FULL`]: without pawns, less than a rook more is rarely enough (a minor piece alone,
/// rook against minor, rook and minor against rook); bishops of opposite colours with only
/// pawns besides are drawish.
fn endgame_scale(pos: &Position, score: i32) -> i32 {
    let board = pos.board();
    let strong = if score > 0 {
        Color::White
    } else {
        Color::Black
    };
    let pieces = |c: Color| board.by_color(c) & !board.pawns() & !board.kings();
    let worth = |c: Color| -> i32 {
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .into_iter()
            .map(|r| MATERIAL[r as usize].0 * (pieces(c) & board.by_role(r)).count() as i32)
            .sum()
    };
    if (board.by_color(strong) & board.pawns()).is_empty() {
        let lead = worth(strong) - worth(!strong);
        if worth(strong) < MATERIAL[Role::Rook as usize].0 {
            return 0;
        }
        if lead < MATERIAL[Role::Rook as usize].0 {
            return SCALE_FULL / 8;
        }
    }
    let bishops = board.bishops();
    if let (Some(a), Some(b)) = (
        (pieces(Color::White) & bishops).single(),
        (pieces(Color::Black) & bishops).single(),
    ) {
        let only_bishops = (pieces(Color::White) | pieces(Color::Black)) == bishops;
        if only_bishops && a.is_dark() != b.is_dark() {
            return SCALE_FULL / 2;
        }
    }
    SCALE_FULL
}

/// What `units` of attack (reach next to a king weighted by [`KING_ATTACK`], and safe
/// checks) by `attackers` pieces are worth to the attacker in the middlegame: growing with
/// the square of the units, a third of the units when one piece attacks alone.
fn king_danger(units: i32, attackers: i32) -> i32 {
    let units = if attackers >= 2 { units } else { units / 3 };
    (units * units / 8).min(600)
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
    let mut attack = [Attack::default(), Attack::default()];
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
        // Passed pawns: no enemy pawn ahead on this or a neighbouring file. In the endgame
        // the kings' distances to the square in front count, the more the further it is.
        let our_king = pos.king_of(color);
        let their_king = pos.king_of(!color);
        for sq in pawns {
            if (their_pawns & front_span(color, sq)).is_empty() {
                let rank = sq.rank().relative_to(color) as usize;
                mg += sign * PASSED[rank].0;
                eg += sign * PASSED[rank].1;
                let step = if color == Color::White { 8 } else { -8 };
                if let Some(stop) = sq.offset(step).filter(|_| rank >= 3) {
                    let weight = rank as i32 - 2;
                    let theirs_far = their_king.distance(stop).min(5) as i32;
                    let ours_far = our_king.distance(stop).min(5) as i32;
                    eg += sign * weight * (5 * theirs_far - 2 * ours_far);
                }
            }
        }
        // Mobility: squares each piece attacks that are not its own side's.
        let their_pawn_attacks = pawn_attack_span(!color, their_pawns);
        let safe = !ours & !their_pawn_attacks;
        let at = &mut attack[color as usize];
        let zone = attacks::king_attacks(their_king).with(their_king);
        at.all |= pawn_attack_span(color, pawns) | attacks::king_attacks(our_king);
        let mut bear = |reach: Bitboard, role: Role| {
            at.all |= reach;
            at.by_role[role as usize] |= reach;
            let hits = (reach & zone).count() as i32;
            if hits > 0 {
                at.attackers += 1;
                at.units += hits * KING_ATTACK[role as usize];
            }
        };
        for sq in ours & board.knights() {
            let reach = attacks::knight_attacks(sq);
            bear(reach, Role::Knight);
            let n = (reach & safe).count() as i32;
            mg += sign * 4 * (n - 4);
            eg += sign * 4 * (n - 4);
        }
        for sq in ours & board.bishops() {
            let reach = attacks::bishop_attacks(sq, occupied);
            bear(reach, Role::Bishop);
            let n = (reach & safe).count() as i32;
            mg += sign * 5 * (n - 6);
            eg += sign * 5 * (n - 6);
        }
        for sq in ours & board.rooks() {
            let reach = attacks::rook_attacks(sq, occupied);
            bear(reach, Role::Rook);
            let n = (reach & safe).count() as i32;
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
            let reach = attacks::queen_attacks(sq, occupied);
            bear(reach, Role::Queen);
            let n = (reach & safe).count() as i32;
            mg += sign * (n - 13);
            eg += sign * 2 * (n - 13);
        }
        // King shelter: own pawns in front of the king, in the middlegame.
        if let Some(king) = (ours & board.kings()).first() {
            let shield = attacks::king_attacks(king) & front_span(color, king) & pawns;
            mg += sign * 12 * shield.count().min(3) as i32;
        }
    }
    // King safety: pieces bearing on the squares around a king, and the checks they could
    // give from squares the king's side does not guard; one attacker alone counts little.
    for color in [Color::White, Color::Black] {
        let sign = if color == Color::White { 1 } else { -1 };
        let at = &attack[color as usize];
        let king = pos.king_of(!color);
        let safe = !attack[!color as usize].all & !board.by_color(color);
        let checks = [
            (Role::Knight, attacks::knight_attacks(king)),
            (Role::Bishop, attacks::bishop_attacks(king, occupied)),
            (Role::Rook, attacks::rook_attacks(king, occupied)),
            (Role::Queen, attacks::queen_attacks(king, occupied)),
        ]
        .into_iter()
        .map(|(role, from)| (from & at.by_role[role as usize] & safe).count() as i32)
        .sum::<i32>();
        mg += sign * king_danger(at.units + 3 * checks, at.attackers);
    }
    let phase = phase.min(FULL_PHASE);
    let score = (mg * phase + eg * (FULL_PHASE - phase)) / FULL_PHASE;
    let score = score * endgame_scale(pos, score) / SCALE_FULL;
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
        // A passed pawn scores; the same pawn blocked on the next file does not.
        let passed = Position::from_fen("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1").unwrap();
        let held = Position::from_fen("4k3/4p3/8/3P4/8/8/8/4K3 w - - 0 1").unwrap();
        assert!(evaluate(&passed) > evaluate(&held) - 94 + 60);
    }

    /// The same position with the colours swapped and the board turned upside down.
    fn mirrored(fen: &str) -> Position {
        let fields: Vec<&str> = fen.split(' ').collect();
        let swap_case = |t: &str| -> String {
            t.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        };
        let board: Vec<String> = fields[0].split('/').rev().map(swap_case).collect();
        let turn = if fields[1] == "w" { "b" } else { "w" };
        let castling = match fields[2] {
            "-" => "-".to_string(),
            c => {
                let swapped = swap_case(c);
                "KQkq".chars().filter(|x| swapped.contains(*x)).collect()
            }
        };
        let ep = match fields[3].as_bytes() {
            [f, b'3'] => format!("{}6", *f as char),
            [f, b'6'] => format!("{}3", *f as char),
            _ => "-".to_string(),
        };
        let text = format!("{} {turn} {castling} {ep} 0 1", board.join("/"));
        Position::from_fen(&text).unwrap()
    }

    #[test]
    fn every_term_scores_alike_for_both_colours() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r1bq1rk1/pp3ppp/2n1pn2/2bp2B1/2P5/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "2r3k1/1P3pp1/4p2p/3nN3/1R6/6P1/5PKP/8 b - - 0 35",
            "6k1/5p2/6p1/3N3p/1Q5P/6P1/q4PK1/8 b - - 0 50",
            "r4rk1/pppbq1pp/1b1p4/3Pnp2/1P2pP1N/P3P1P1/1BQPB2P/R4RK1 b - f3 0 15",
            "1r3rk1/3bbpp1/2pp1q1p/p3p3/B3PP2/2NQ2P1/PPP4P/2KR1R2 b - - 0 16",
            "4k3/5b2/8/8/8/P7/P1P5/2B1K3 w - - 0 1",
            "r3k3/8/8/8/8/8/8/R1B1K3 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&mirrored(fen)), "{fen}");
        }
    }

    #[test]
    fn pieces_gathering_round_a_king_count_more_together() {
        // A queen reaching three squares next to the king and a rook reaching two: together
        // they count for more than each alone, and one attacker alone counts little.
        let queen = 3 * KING_ATTACK[Role::Queen as usize];
        let rook = 2 * KING_ATTACK[Role::Rook as usize];
        assert!(king_danger(queen + rook, 2) > 2 * (king_danger(queen, 1) + king_danger(rook, 1)));
        assert!(king_danger(queen, 1) < king_danger(queen, 2) / 4);
    }

    #[test]
    fn material_that_cannot_win_is_scaled_down() {
        let eval = |fen: &str| evaluate(&Position::from_fen(fen).unwrap());
        // A bishop alone, rook against knight, rook and bishop against rook: far below
        // their material; a queen against a rook is not.
        assert!(eval("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1").abs() < 40);
        assert!(eval("4k3/8/3n4/8/8/8/8/R3K3 w - - 0 1") < 100);
        assert!(eval("r3k3/8/8/8/8/8/8/R1B1K3 w - - 0 1") < 100);
        assert!(eval("r3k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 400);
        // Bishops of opposite colours: half of what the same pawns score with bishops
        // on one colour.
        let opposite = eval("4k3/5b2/8/8/8/P7/P1P5/2B1K3 w - - 0 1");
        let same = eval("4k3/4b3/8/8/8/P7/P1P5/2B1K3 w - - 0 1");
        assert!(
            opposite > 0 && opposite * 3 < same * 2,
            "{opposite} vs {same}"
        );
        // Mirrored, the other side gets the same.
        assert_eq!(eval("2b1k3/p1p5/p7/8/8/8/5B2/4K3 b - - 0 1"), opposite);
    }

    #[test]
    fn a_passed_pawn_is_worth_more_far_from_the_enemy_king() {
        let near = Position::from_fen("8/8/4k3/8/3P4/8/8/4K3 w - - 0 1").unwrap();
        let far = Position::from_fen("8/8/k7/8/3P4/8/8/4K3 w - - 0 1").unwrap();
        assert!(evaluate(&far) > evaluate(&near) + 20);
    }

    #[test]
    fn more_material_is_better() {
        let up = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert!(evaluate(&up) > 800);
        let down = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        assert!(evaluate(&down) < -800);
    }
}
