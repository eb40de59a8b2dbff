//! A move: which piece goes from where to where, and how (R2, R3).

use crate::{Color, Role, Square};

/// How a move is special, if at all.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move or capture that is none of the below, including a pawn's double step.
    Normal,
    /// A pawn takes a pawn that just passed it (R3): lands on `to`, removes the pawn beside `from`.
    EnPassant,
    /// The king goes two squares toward a rook, which jumps over it (R3); `to` is the
    /// king's destination (g1, c1, g8 or c8).
    Castle,
    /// A pawn reaches the last rank and becomes this piece (R3).
    Promotion(Role),
}

/// Which side of the board castling goes to.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// O-O, toward the h-file.
    KingSide,
    /// O-O-O, toward the a-file.
    QueenSide,
}

impl CastlingSide {
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// Where the king starts (standard chess: e1 or e8).
    pub const fn king_from(self, color: Color) -> Square {
        match color {
            Color::White => Square::E1,
            Color::Black => Square::E8,
        }
    }

    /// Where the king lands.
    pub const fn king_to(self, color: Color) -> Square {
        match (self, color) {
            (CastlingSide::KingSide, Color::White) => Square::G1,
            (CastlingSide::QueenSide, Color::White) => Square::C1,
            (CastlingSide::KingSide, Color::Black) => Square::G8,
            (CastlingSide::QueenSide, Color::Black) => Square::C8,
        }
    }

    /// Where the rook starts.
    pub const fn rook_from(self, color: Color) -> Square {
        match (self, color) {
            (CastlingSide::KingSide, Color::White) => Square::H1,
            (CastlingSide::QueenSide, Color::White) => Square::A1,
            (CastlingSide::KingSide, Color::Black) => Square::H8,
            (CastlingSide::QueenSide, Color::Black) => Square::A8,
        }
    }

    /// Where the rook lands: the square the king crossed.
    pub const fn rook_to(self, color: Color) -> Square {
        match (self, color) {
            (CastlingSide::KingSide, Color::White) => Square::F1,
            (CastlingSide::QueenSide, Color::White) => Square::D1,
            (CastlingSide::KingSide, Color::Black) => Square::F8,
            (CastlingSide::QueenSide, Color::Black) => Square::D8,
        }
    }

    /// The side whose king destination is `to`, if any.
    pub const fn from_king_to(to: Square) -> Option<CastlingSide> {
        match to {
            Square::G1 | Square::G8 => Some(CastlingSide::KingSide),
            Square::C1 | Square::C8 => Some(CastlingSide::QueenSide),
            _ => None,
        }
    }

    /// `O-O` or `O-O-O`.
    pub const fn san(self) -> &'static str {
        match self {
            CastlingSide::KingSide => "O-O",
            CastlingSide::QueenSide => "O-O-O",
        }
    }
}

/// A move in some position. Moves come from a position's legal move list or from
/// parsing notation against a position; they are only meaningful there.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move {
    role: Role,
    from: Square,
    to: Square,
    kind: MoveKind,
}

impl Move {
    #[inline]
    pub(crate) const fn new(role: Role, from: Square, to: Square, kind: MoveKind) -> Move {
        Move {
            role,
            from,
            to,
            kind,
        }
    }

    /// The piece that moves (a pawn for promotions, the king for castling).
    #[inline]
    pub const fn role(self) -> Role {
        self.role
    }

    #[inline]
    pub const fn from(self) -> Square {
        self.from
    }

    /// The destination; for castling, the king's destination.
    #[inline]
    pub const fn to(self) -> Square {
        self.to
    }

    #[inline]
    pub const fn kind(self) -> MoveKind {
        self.kind
    }

    /// The piece a pawn becomes, for a promotion.
    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        match self.kind {
            MoveKind::Promotion(role) => Some(role),
            _ => None,
        }
    }

    #[inline]
    pub const fn is_en_passant(self) -> bool {
        matches!(self.kind, MoveKind::EnPassant)
    }

    /// The castling side, for castling.
    #[inline]
    pub const fn castling_side(self) -> Option<CastlingSide> {
        match self.kind {
            MoveKind::Castle => CastlingSide::from_king_to(self.to),
            _ => None,
        }
    }

    /// The move in UCI wire form (castling as the king's two-square step, `e1g1`).
    pub fn to_uci(self) -> crate::UciMove {
        crate::UciMove {
            from: self.from,
            to: self.to,
            promotion: self.promotion(),
        }
    }
}

impl std::fmt::Display for Move {
    /// Long algebraic without check marks, e.g. `Ng1-f3`, `e7-e8=Q`, `O-O`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(side) = self.castling_side() {
            return f.write_str(side.san());
        }
        if self.role != Role::Pawn {
            write!(f, "{}", self.role.upper_char())?;
        }
        write!(f, "{}-{}", self.from, self.to)?;
        if let Some(p) = self.promotion() {
            write!(f, "={}", p.upper_char())?;
        }
        Ok(())
    }
}
