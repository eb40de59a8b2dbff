//! Castling rights (R3.1): which king-rook pairs have never moved.

use crate::{CastlingSide, Color, Square};

/// The four castling rights of standard chess, as a set.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(u8);

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights(0);
    pub const ALL: CastlingRights = CastlingRights(0b1111);

    #[inline]
    const fn bit(color: Color, side: CastlingSide) -> u8 {
        1 << (2 * color as u8
            + match side {
                CastlingSide::KingSide => 0,
                CastlingSide::QueenSide => 1,
            })
    }

    #[inline]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.0 & Self::bit(color, side) != 0
    }

    #[inline]
    pub const fn has_color(self, color: Color) -> bool {
        self.0 & (0b11 << (2 * color as u8)) != 0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn add(&mut self, color: Color, side: CastlingSide) {
        self.0 |= Self::bit(color, side);
    }

    pub fn remove(&mut self, color: Color, side: CastlingSide) {
        self.0 &= !Self::bit(color, side);
    }

    pub fn discard_color(&mut self, color: Color) {
        self.0 &= !(0b11 << (2 * color as u8));
    }

    /// The rights that survive a move touching `sq` (a king or rook leaving its start
    /// square, or a rook being captured there; R3.1).
    #[inline]
    pub(crate) fn touch(&mut self, sq: Square) {
        self.0 &= KEEP_WHEN_TOUCHED[sq.index()];
    }

    /// The raw 4-bit index, 0..16 (for hashing).
    #[inline]
    pub(crate) const fn bits(self) -> u8 {
        self.0
    }

    /// Every right held, White first, king side first.
    pub fn iter(self) -> impl Iterator<Item = (Color, CastlingSide)> {
        [
            (Color::White, CastlingSide::KingSide),
            (Color::White, CastlingSide::QueenSide),
            (Color::Black, CastlingSide::KingSide),
            (Color::Black, CastlingSide::QueenSide),
        ]
        .into_iter()
        .filter(move |&(c, s)| self.has(c, s))
    }

    /// The FEN letter of one right.
    pub const fn char(color: Color, side: CastlingSide) -> char {
        match (color, side) {
            (Color::White, CastlingSide::KingSide) => 'K',
            (Color::White, CastlingSide::QueenSide) => 'Q',
            (Color::Black, CastlingSide::KingSide) => 'k',
            (Color::Black, CastlingSide::QueenSide) => 'q',
        }
    }
}

/// For each square, the rights that survive a move from or to it.
const KEEP_WHEN_TOUCHED: [u8; 64] = {
    let mut keep = [0b1111u8; 64];
    keep[Square::E1 as usize] = 0b1100;
    keep[Square::H1 as usize] = 0b1110;
    keep[Square::A1 as usize] = 0b1101;
    keep[Square::E8 as usize] = 0b0011;
    keep[Square::H8 as usize] = 0b1011;
    keep[Square::A8 as usize] = 0b0111;
    keep
};

impl std::fmt::Display for CastlingRights {
    /// The FEN field: `KQkq`, or `-` when empty.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for (c, s) in self.iter() {
            write!(f, "{}", CastlingRights::char(c, s))?;
        }
        Ok(())
    }
}

impl std::fmt::Debug for CastlingRights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CastlingRights({self})")
    }
}
