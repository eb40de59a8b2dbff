//! Static evaluation: material and piece placement, tapered between the middlegame and the
//! endgame by the material left on the board. Scores are centipawns from the side to move's
//! point of view.
//!
//! Placement is PeSTO's tuned tables (see `pesto.rs` for where they come from). Material,
//! pawn structure, passed pawns, mobility, outposts, rooks on open files and the seventh rank,
//! the bishop pair, threats and king safety are our own terms, whose weights ([`WEIGHTS`])
//! were fitted to the results of the engine's own games (`examples/selfplay.rs`,
//! `examples/tune.rs`; BENCHMARKS.md says how).

use crate::pesto;
use rookery_core::{Bitboard, Color, File, Position, Role, Square, attacks};

/// A middlegame and an endgame value.
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub struct S {
    pub mg: i32,
    pub eg: i32,
}

const fn s(mg: i32, eg: i32) -> S {
    S { mg, eg }
}

/// The evaluation's weights: each (middlegame, endgame) unless said otherwise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weights {
    /// Pawn, knight, bishop, rook, queen.
    pub material: [S; 5],
    pub bishop_pair: S,
    /// Per pawn beyond the first on a file.
    pub doubled: S,
    /// Per pawn with no friendly pawn on a neighbouring file.
    pub isolated: S,
    /// Per pawn defended by a pawn.
    pub supported: S,
    /// Per pawn with a friendly pawn beside it.
    pub phalanx: S,
    /// Passed pawn by its rank from its own side (the second to the seventh).
    pub passed: [S; 6],
    /// A passed pawn whose next square is occupied.
    pub passed_blocked: S,
    /// Per square of distance from each king to a passed pawn's next square, times the
    /// pawn's rank past the third.
    pub passed_own_king: S,
    pub passed_their_king: S,
    /// Per square a piece attacks that is neither its own side's nor attacked by an enemy
    /// pawn, counted from a middling number (knight 4, bishop 6, rook 7, queen 13).
    pub mobility: [S; 4],
    /// A knight or bishop on the fourth to sixth rank, defended by a pawn and out of reach
    /// of the enemy's pawns.
    pub outpost: [S; 2],
    pub rook_open_file: S,
    pub rook_half_open_file: S,
    pub rook_seventh: S,
    /// Per piece (not pawn or king) attacked by an enemy pawn.
    pub pawn_threat: S,
    /// Per piece (not pawn or king) attacked and not defended.
    pub hanging: S,
    /// Per own pawn (at most three) in front of the king.
    pub king_shelter: S,
    /// No own pawn on the king's file.
    pub king_open_file: S,
    /// Units per attack on a square next to the enemy king, by knight, bishop, rook, queen;
    /// the middlegame loses the square of the sum over 256.
    pub king_attack: [i32; 4],
    /// The side to move's edge.
    pub tempo: S,
}

/// The weights the engine plays with.
pub const WEIGHTS: Weights = Weights {
    material: [
        s(82, 94),
        s(337, 281),
        s(365, 297),
        s(477, 512),
        s(1025, 936),
    ],
    bishop_pair: s(24, 44),
    doubled: s(-21, -6),
    isolated: s(5, -11),
    supported: s(20, 8),
    phalanx: s(4, 6),
    passed: [
        s(-15, 35),
        s(-10, 44),
        s(-36, 67),
        s(-32, 82),
        s(11, 69),
        s(39, 6),
    ],
    passed_blocked: s(0, -20),
    passed_own_king: s(0, -5),
    passed_their_king: s(2, 6),
    mobility: [s(3, -3), s(4, 2), s(6, -4), s(2, 2)],
    outpost: [s(45, 5), s(36, 4)],
    rook_open_file: s(48, -37),
    rook_half_open_file: s(24, 5),
    rook_seventh: s(7, -2),
    pawn_threat: s(-47, -18),
    hanging: s(-24, -23),
    king_shelter: s(15, -7),
    king_open_file: s(-5, -5),
    king_attack: [21, 35, 31, 42],
    tempo: s(16, 2),
};

impl Weights {
    /// Every weight with its name, in a fixed order (for the tuner).
    pub fn fields_mut(&mut self) -> Vec<(String, &mut i32)> {
        let mut pairs: Vec<(String, &mut S)> = Vec::new();
        for (i, x) in self.material.iter_mut().enumerate() {
            pairs.push((format!("material[{i}]"), x));
        }
        for (name, x) in [
            ("bishop_pair", &mut self.bishop_pair),
            ("doubled", &mut self.doubled),
            ("isolated", &mut self.isolated),
            ("supported", &mut self.supported),
            ("phalanx", &mut self.phalanx),
            ("passed_blocked", &mut self.passed_blocked),
            ("passed_own_king", &mut self.passed_own_king),
            ("passed_their_king", &mut self.passed_their_king),
            ("rook_open_file", &mut self.rook_open_file),
            ("rook_half_open_file", &mut self.rook_half_open_file),
            ("rook_seventh", &mut self.rook_seventh),
            ("pawn_threat", &mut self.pawn_threat),
            ("hanging", &mut self.hanging),
            ("king_shelter", &mut self.king_shelter),
            ("king_open_file", &mut self.king_open_file),
            ("tempo", &mut self.tempo),
        ] {
            pairs.push((name.to_string(), x));
        }
        for (i, x) in self.passed.iter_mut().enumerate() {
            pairs.push((format!("passed[{i}]"), x));
        }
        for (i, x) in self.mobility.iter_mut().enumerate() {
            pairs.push((format!("mobility[{i}]"), x));
        }
        for (i, x) in self.outpost.iter_mut().enumerate() {
            pairs.push((format!("outpost[{i}]"), x));
        }
        let mut out = Vec::new();
        for (name, x) in pairs {
            out.push((format!("{name}.mg"), &mut x.mg));
            out.push((format!("{name}.eg"), &mut x.eg));
        }
        for (i, x) in self.king_attack.iter_mut().enumerate() {
            out.push((format!("king_attack[{i}]"), x));
        }
        out
    }
}

/// A running (middlegame, endgame) sum.
#[derive(Default)]
struct Sum {
    mg: i32,
    eg: i32,
}

impl Sum {
    fn add(&mut self, w: S, n: i32) {
        self.mg += w.mg * n;
        self.eg += w.eg * n;
    }
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
    files & ranks_ahead(color, sq)
}

/// Whole ranks above (White) or below (Black) `sq`'s.
fn ranks_ahead(color: Color, sq: Square) -> Bitboard {
    let rank = sq.rank() as u32;
    Bitboard(match color {
        Color::White if rank == 7 => 0,
        Color::White => !0u64 << (8 * (rank + 1)),
        Color::Black if rank == 0 => 0,
        Color::Black => !0u64 >> (8 * (8 - rank)),
    })
}

/// Squares attacked by `color`'s `pawns`.
fn pawn_attack_span(color: Color, pawns: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for sq in pawns {
        out |= attacks::pawn_attacks(color, sq);
    }
    out
}

/// How much each role counts towards the middlegame phase (24 at the start).
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const FULL_PHASE: i32 = 24;

/// Mobility is counted from these numbers of squares: knight, bishop, rook, queen.
const MOBILITY_BASE: [i32; 4] = [4, 6, 7, 13];

/// Placement of a piece on `sq` for `color`, as (middlegame, endgame): PeSTO's tables.
fn placement(role: Role, color: Color, sq: Square) -> (i32, i32) {
    let i = pesto::index(color, sq);
    let r = role as usize;
    (i32::from(pesto::MG[r][i]), i32::from(pesto::EG[r][i]))
}

/// The position's value for the side to move, in centipawns.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &WEIGHTS)
}

/// What one side's pass leaves for the other's: squares attacked, and attack units on the
/// enemy king's surroundings.
struct Reach {
    attacked: Bitboard,
    pawn_attacks: Bitboard,
    king_units: i32,
}

/// `color`'s terms other than material, placement and threats, as a sum good for `color`.
fn side(pos: &Position, w: &Weights, color: Color, their_pawn_attacks: Bitboard) -> (Sum, Reach) {
    let board = pos.board();
    let occupied = board.occupied();
    let ours = board.by_color(color);
    let theirs = board.by_color(!color);
    let pawns = ours & board.pawns();
    let their_pawns = theirs & board.pawns();
    let our_king = pos.king_of(color);
    let their_king = pos.king_of(!color);
    let mut sum = Sum::default();
    if (ours & board.bishops()).more_than_one() {
        sum.add(w.bishop_pair, 1);
    }
    for file in File::ALL {
        let n = (pawns & Bitboard::from_file(file)).count() as i32;
        if n > 1 {
            sum.add(w.doubled, n - 1);
        }
        if n > 0 && (pawns & neighbour_files(file)).is_empty() {
            sum.add(w.isolated, n);
        }
    }
    let pawn_attacks = pawn_attack_span(color, pawns);
    for sq in pawns {
        if pawn_attacks.contains(sq) {
            sum.add(w.supported, 1);
        }
        if (neighbour_files(sq.file()) & Bitboard::from_rank(sq.rank()) & pawns).nonempty() {
            sum.add(w.phalanx, 1);
        }
        // Passed: no enemy pawn ahead on this or a neighbouring file.
        if (their_pawns & front_span(color, sq)).is_empty() {
            let rank = sq.rank().relative_to(color) as i32;
            sum.add(w.passed[(rank - 1).clamp(0, 5) as usize], 1);
            let step = if color == Color::White { 8 } else { -8 };
            if let Some(next) = sq.offset(step) {
                if occupied.contains(next) {
                    sum.add(w.passed_blocked, 1);
                }
                if rank > 2 {
                    let scale = rank - 2;
                    sum.add(w.passed_own_king, scale * our_king.distance(next) as i32);
                    sum.add(
                        w.passed_their_king,
                        scale * their_king.distance(next) as i32,
                    );
                }
            }
        }
    }
    let safe = !ours & !their_pawn_attacks;
    let zone = attacks::king_attacks(their_king);
    let mut attacked = pawn_attacks | attacks::king_attacks(our_king);
    let mut king_units = 0;
    for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .enumerate()
    {
        for sq in ours & board.by_role(role) {
            let reach = attacks::attacks(rookery_core::Piece { color, role }, sq, occupied);
            attacked |= reach;
            sum.add(
                w.mobility[i],
                (reach & safe).count() as i32 - MOBILITY_BASE[i],
            );
            king_units += w.king_attack[i] * (reach & zone).count() as i32;
            let rank = sq.rank().relative_to(color) as i32;
            if i < 2
                && (3..=5).contains(&rank)
                && pawn_attacks.contains(sq)
                && (their_pawns & neighbour_files(sq.file()) & ranks_ahead(color, sq)).is_empty()
            {
                sum.add(w.outpost[i], 1);
            }
            if role == Role::Rook {
                let file = Bitboard::from_file(sq.file());
                if (file & board.pawns()).is_empty() {
                    sum.add(w.rook_open_file, 1);
                } else if (file & pawns).is_empty() {
                    sum.add(w.rook_half_open_file, 1);
                }
                if rank == 6 {
                    sum.add(w.rook_seventh, 1);
                }
            }
        }
    }
    let shelter = attacks::king_attacks(our_king) & front_span(color, our_king) & pawns;
    sum.add(w.king_shelter, shelter.count().min(3) as i32);
    if (Bitboard::from_file(our_king.file()) & pawns).is_empty() {
        sum.add(w.king_open_file, 1);
    }
    let reach = Reach {
        attacked,
        pawn_attacks,
        king_units,
    };
    (sum, reach)
}

/// The position's value for the side to move under weights `w` (the tuner varies them).
#[inline]
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let board = pos.board();
    let mut total = Sum::default();
    let mut phase = 0;
    for (sq, piece) in board.pieces() {
        let i = piece.role as usize;
        let (pm, pe) = placement(piece.role, piece.color, sq);
        let sign = if piece.color == Color::White { 1 } else { -1 };
        let value = w.material.get(i).copied().unwrap_or(s(0, 0));
        total.mg += sign * (value.mg + pm);
        total.eg += sign * (value.eg + pe);
        phase += PHASE[i];
    }
    let pawn_attacks = |c: Color| pawn_attack_span(c, board.by_color(c) & board.pawns());
    let (white, white_reach) = side(pos, w, Color::White, pawn_attacks(Color::Black));
    let (black, black_reach) = side(pos, w, Color::Black, pawn_attacks(Color::White));
    total.mg += white.mg - black.mg;
    total.eg += white.eg - black.eg;
    for (color, sign, our_reach, their_reach) in [
        (Color::White, 1, &white_reach, &black_reach),
        (Color::Black, -1, &black_reach, &white_reach),
    ] {
        let pieces = board.by_color(color) & !board.pawns() & !board.kings();
        let threatened = (pieces & their_reach.pawn_attacks).count() as i32;
        let hanging = (pieces & their_reach.attacked & !our_reach.attacked).count() as i32;
        let units = their_reach.king_units.min(400);
        let mut sum = Sum::default();
        sum.add(w.pawn_threat, threatened);
        sum.add(w.hanging, hanging);
        sum.mg -= units * units / 256;
        total.mg += sign * sum.mg;
        total.eg += sign * sum.eg;
    }
    let mover = if pos.turn() == Color::White { 1 } else { -1 };
    total.add(w.tempo, mover);
    let phase = phase.min(FULL_PHASE);
    let score = (total.mg * phase + total.eg * (FULL_PHASE - phase)) / FULL_PHASE;
    score * mover
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_even_and_mirrored_positions_score_alike() {
        // Only the side to move's edge, at the full middlegame phase.
        assert_eq!(evaluate(&Position::new()), WEIGHTS.tempo.mg);
        let w = Position::from_fen("4k3/8/8/3p4/8/2N5/1P6/4K3 w - - 0 1").unwrap();
        let b = Position::from_fen("4k3/1p6/2n5/8/3P4/8/8/4K3 b - - 0 1").unwrap();
        assert_eq!(evaluate(&w), evaluate(&b));
    }

    /// The same position with the colours swapped and the board turned upside down.
    fn mirrored(fen: &str) -> Position {
        let fields: Vec<&str> = fen.split(' ').collect();
        let swap = |t: &str| -> String {
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
        let board: Vec<String> = fields[0].split('/').rev().map(swap).collect();
        let turn = if fields[1] == "w" { "b" } else { "w" };
        let castling = if fields[2] == "-" {
            "-".to_string()
        } else {
            let mut c: Vec<char> = swap(fields[2]).chars().collect();
            c.sort_by_key(|c| (c.is_ascii_lowercase(), "KQkq".find(c.to_ascii_uppercase())));
            c.into_iter().collect()
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
        // Every weight non-zero and different, so that a term read for the wrong side shows.
        let mut w = WEIGHTS;
        for (i, (_, v)) in w.fields_mut().into_iter().enumerate() {
            *v += 3 + i as i32 % 7;
        }
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r1bq1rk1/pp3ppp/2n1pn2/2bp2B1/2P5/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "2r3k1/1P3pp1/4p2p/3nN3/1R6/6P1/5PKP/8 b - - 0 35",
            "r4rk1/1R3ppp/2p5/p1P1n3/3NP3/6P1/P4P1P/5RK1 w - - 0 25",
            "6k1/5p2/6p1/3N3p/1Q5P/6P1/q4PK1/8 b - - 0 50",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(
                evaluate_with(&pos, &w),
                evaluate_with(&mirrored(fen), &w),
                "{fen}"
            );
        }
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

    #[test]
    fn more_material_is_better() {
        let up = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert!(evaluate(&up) > 800);
        let down = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        assert!(evaluate(&down) < -800);
    }
}
