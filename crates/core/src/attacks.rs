//! Attack sets of every piece from every square, from tables precomputed by `build.rs`
//! (fancy magic bitboards for the sliders).

use crate::{Bitboard, Color, Role, Square};

pub(crate) struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/attack_tables.rs"));

#[inline]
fn magic_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    let idx = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    Bitboard(SLIDER_TABLE[m.offset + idx])
}

/// Squares a rook on `sq` attacks, given the occupied squares.
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK_MAGICS[sq.index()], occupied)
}

/// Squares a bishop on `sq` attacks, given the occupied squares.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP_MAGICS[sq.index()], occupied)
}

/// Squares a queen on `sq` attacks, given the occupied squares.
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT_ATTACKS[sq.index()])
}

#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING_ATTACKS[sq.index()])
}

/// The squares a pawn of `color` on `sq` attacks (captures onto).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    match color {
        Color::White => Bitboard(WHITE_PAWN_ATTACKS[sq.index()]),
        Color::Black => Bitboard(BLACK_PAWN_ATTACKS[sq.index()]),
    }
}

/// Squares attacked by a piece on `sq`.
pub fn attacks(piece: crate::Piece, sq: Square, occupied: Bitboard) -> Bitboard {
    match piece.role {
        Role::Pawn => pawn_attacks(piece.color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// Squares a rook on `sq` would attack on an empty board.
#[inline]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(ROOK_RAYS[sq.index()])
}

/// Squares a bishop on `sq` would attack on an empty board.
#[inline]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(BISHOP_RAYS[sq.index()])
}

/// The squares strictly between `a` and `b` if they share a rank, file or diagonal.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index() * 64 + b.index()])
}

/// The whole line (edge to edge) through `a` and `b`, or empty if they share none.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a.index() * 64 + b.index()])
}

/// Whether `c` lies on the line through `a` and `b`.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rook_on_a1_sees_the_blocker_and_stops() {
        let occ = Bitboard::from_square(Square::A4) | Square::D1;
        let att = rook_attacks(Square::A1, occ);
        let expect: Bitboard = [
            Square::A2,
            Square::A3,
            Square::A4,
            Square::B1,
            Square::C1,
            Square::D1,
        ]
        .into_iter()
        .collect();
        assert_eq!(att, expect);
    }

    #[test]
    fn bishop_in_the_corner_sees_the_long_diagonal() {
        assert_eq!(bishop_attacks(Square::A1, Bitboard::EMPTY).count(), 7);
        assert_eq!(bishop_attacks(Square::D4, Bitboard::EMPTY).count(), 13);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(Square::A1, Square::D4).count(), 2);
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(line(Square::B2, Square::C3).count(), 8);
        assert!(aligned(Square::E1, Square::E8, Square::E4));
        assert!(!aligned(Square::E1, Square::E8, Square::D4));
    }

    #[test]
    fn magic_lookup_matches_a_slow_ray_walk_on_many_occupancies() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let occ = Bitboard(seed & seed.rotate_left(23));
            for sq in Square::ALL {
                assert_eq!(
                    rook_attacks(sq, occ),
                    slow(sq, occ, &[(1, 0), (-1, 0), (0, 1), (0, -1)])
                );
                assert_eq!(
                    bishop_attacks(sq, occ),
                    slow(sq, occ, &[(1, 1), (1, -1), (-1, 1), (-1, -1)])
                );
            }
        }
    }

    fn slow(sq: Square, occ: Bitboard, dirs: &[(i32, i32)]) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for &(df, dr) in dirs {
            let (mut f, mut r) = (sq.file() as i32 + df, sq.rank() as i32 + dr);
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let s = Square::new((r * 8 + f) as u32);
                out.set(s);
                if occ.contains(s) {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        out
    }
}
