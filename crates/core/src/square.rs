//! Files, ranks and squares (R1): a1 is index 0, h1 is 7, a8 is 56, h8 is 63.

use crate::Color;

/// A file, `a` to `h` from White's left.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum File {
    A = 0,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

/// A rank, `1` to `8` from White's side.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    First = 0,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl File {
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with index `i & 7`.
    #[inline]
    pub const fn new(i: u32) -> File {
        File::ALL[(i & 7) as usize]
    }

    pub const fn index(self) -> u32 {
        self as u32
    }

    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    pub const fn from_char(ch: char) -> Option<File> {
        match ch {
            'a'..='h' => Some(File::new(ch as u32 - 'a' as u32)),
            _ => None,
        }
    }

    /// The file `delta` to the right, if on the board.
    pub const fn offset(self, delta: i32) -> Option<File> {
        let i = self as i32 + delta;
        if 0 <= i && i < 8 {
            Some(File::new(i as u32))
        } else {
            None
        }
    }
}

impl Rank {
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// The rank with index `i & 7`.
    #[inline]
    pub const fn new(i: u32) -> Rank {
        Rank::ALL[(i & 7) as usize]
    }

    pub const fn index(self) -> u32 {
        self as u32
    }

    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    pub const fn from_char(ch: char) -> Option<Rank> {
        match ch {
            '1'..='8' => Some(Rank::new(ch as u32 - '1' as u32)),
            _ => None,
        }
    }

    /// The same rank seen from `color`'s side: `First` is White's first and Black's eighth.
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank::new(7 - self as u32),
        }
    }
}

macro_rules! squares {
    ($($sq:ident),* $(,)?) => {
        /// A square of the board.
        #[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[repr(u8)]
        #[rustfmt::skip]
        pub enum Square { $($sq),* }

        impl Square {
            /// All 64 squares, a1, b1, ... h8.
            pub const ALL: [Square; 64] = [$(Square::$sq),*];
        }
    };
}

#[rustfmt::skip]
squares!(
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
);

impl Square {
    /// The square with index `i & 63`.
    #[inline]
    pub const fn new(i: u32) -> Square {
        Square::ALL[(i & 63) as usize]
    }

    /// The square with index `i`, if `i < 64`.
    pub const fn try_new(i: u32) -> Option<Square> {
        if i < 64 { Some(Square::new(i)) } else { None }
    }

    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square::new(file as u32 | (rank as u32) << 3)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn file(self) -> File {
        File::new(self as u32)
    }

    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::new(self as u32 >> 3)
    }

    /// The square `delta` indices away, if it is on the board (no wrap check across files).
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self as i32 + delta;
        if 0 <= i && i < 64 {
            Some(Square::new(i as u32))
        } else {
            None
        }
    }

    /// The same square seen from the other side (a1 <-> a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square::new(self as u32 ^ 56)
    }

    /// `a1`, `h1` and the other dark squares give `true` (R1: h1 is light).
    pub const fn is_dark(self) -> bool {
        (self.file() as u32 + self.rank() as u32) % 2 == 0
    }

    /// Chebyshev distance (king steps).
    pub fn distance(self, other: Square) -> u32 {
        let df = (self.file() as i32 - other.file() as i32).unsigned_abs();
        let dr = (self.rank() as i32 - other.rank() as i32).unsigned_abs();
        df.max(dr)
    }

    /// Parses `e4`.
    pub fn from_ascii(s: &[u8]) -> Option<Square> {
        match *s {
            [f, r] => Some(Square::from_coords(
                File::from_char(f as char)?,
                Rank::from_char(r as char)?,
            )),
            _ => None,
        }
    }
}

impl std::fmt::Display for Square {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl std::fmt::Display for File {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl std::fmt::Display for Rank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.char())
    }
}
