//! A set of squares as 64 bits, bit `i` for the square with index `i`.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::{File, Rank, Square};

/// A set of squares.
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(!0);
    pub const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);
    pub const LIGHT_SQUARES: Bitboard = Bitboard(!0xaa55_aa55_aa55_aa55);
    /// The first and eighth ranks, where pawns never stand.
    pub const BACKRANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);

    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq as u32)
    }

    #[inline]
    pub const fn from_file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file as u32)
    }

    #[inline]
    pub const fn from_rank(rank: Rank) -> Bitboard {
        Bitboard(0xff << (8 * rank as u32))
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn nonempty(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq as u32) != 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(self.0.trailing_zeros()))
        }
    }

    /// The only square, if there is exactly one.
    #[inline]
    pub const fn single(self) -> Option<Square> {
        if self.more_than_one() {
            None
        } else {
            self.first()
        }
    }

    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq as u32)
    }

    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq as u32))
    }

    #[inline]
    pub const fn toggled(self, sq: Square) -> Bitboard {
        Bitboard(self.0 ^ 1 << sq as u32)
    }

    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1 << sq as u32;
    }

    #[inline]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1 << sq as u32;
    }

    #[inline]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1 << sq as u32);
    }

    /// Every square moved `delta` ranks toward Black (negative: toward White); squares
    /// pushed off the board vanish.
    #[inline]
    pub const fn shift_ranks(self, delta: i32) -> Bitboard {
        if delta >= 0 {
            Bitboard(self.0 << (8 * delta))
        } else {
            Bitboard(self.0 >> (-8 * delta))
        }
    }

    /// Removes and returns the lowest square.
    #[inline]
    pub fn pop(&mut self) -> Option<Square> {
        let sq = self.first();
        self.0 &= self.0.wrapping_sub(1);
        sq
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        self.pop()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let sq = Square::from_coords(file, *rank);
                f.write_str(if self.contains(sq) { "1" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

macro_rules! bit_ops {
    ($($tr:ident $f:ident $tra:ident $fa:ident $op:tt),*) => {$(
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $tr<Square> for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Square) -> Bitboard { Bitboard(self.0 $op (1u64 << rhs as u32)) }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
        impl $tra<Square> for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Square) { self.0 = self.0 $op (1u64 << rhs as u32); }
        }
    )*};
}

bit_ops!(
    BitAnd bitand BitAndAssign bitand_assign &,
    BitOr bitor BitOrAssign bitor_assign |,
    BitXor bitxor BitXorAssign bitxor_assign ^
);

impl Not for Bitboard {
    type Output = Bitboard;

    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}
