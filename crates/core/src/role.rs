//! Piece kinds and colored pieces.

use crate::Color;

/// A kind of piece, without color.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// What a pawn may become (R3): queen, rook, bishop or knight, strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// The lowercase letter, as in FEN for Black and in UCI promotions (`'p'` for a pawn).
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The uppercase letter used in SAN (R7).
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// Parses a letter in either case.
    pub const fn from_char(ch: char) -> Option<Role> {
        match ch.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }

    /// Value for display and evaluation (R7): P 1, N 3, B 3, R 5, Q 9; the king has none.
    pub const fn value(self) -> u32 {
        match self {
            Role::Pawn => 1,
            Role::Knight | Role::Bishop => 3,
            Role::Rook => 5,
            Role::Queen => 9,
            Role::King => 0,
        }
    }

    /// The lowercase English name.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }

    #[inline]
    pub(crate) const fn index(self) -> usize {
        self as usize
    }

    pub const fn of(self, color: Color) -> Piece {
        Piece { color, role: self }
    }
}

/// A piece of a color.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    /// The FEN letter: uppercase for White.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// Parses a FEN letter.
    pub const fn from_char(ch: char) -> Option<Piece> {
        match Role::from_char(ch) {
            Some(role) => Some(Piece {
                color: Color::from_white(ch.is_ascii_uppercase()),
                role,
            }),
            None => None,
        }
    }
}

impl std::fmt::Display for Piece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.color, self.role.name())
    }
}
