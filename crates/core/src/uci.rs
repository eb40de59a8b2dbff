//! UCI move notation, the wire form (`e2e4`, `e7e8q`, `e1g1` or `e1h1` for castling), and the
//! reasons a move from the wire is refused.

use crate::attacks;
use crate::{Bitboard, CastlingSide, Color, Move, Position, Role, Square};

/// A move as sent over the wire: unchecked until [`UciMove::to_move`] finds it legal.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash)]
pub struct UciMove {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<Role>,
}

/// Text that is not UCI move notation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseUciError(pub String);

impl std::fmt::Display for ParseUciError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?} is not a move in UCI notation (like e2e4 or e7e8q)",
            self.0
        )
    }
}

impl std::error::Error for ParseUciError {}

/// Why a move is not legal in a position, in words a player understands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IllegalMoveReason {
    /// There is no piece on the start square.
    NoPiece(Square),
    /// The piece on the start square belongs to the side not to move.
    NotYourPiece { square: Square, turn: Color },
    /// The piece does not move like that (R2).
    CannotMoveThere {
        role: Role,
        from: Square,
        to: Square,
    },
    /// The move would leave (or put) the mover's own king in check (R2).
    KingInCheck,
    /// A pawn reaching the last rank must choose a piece (R3).
    PromotionRequired,
    /// A promotion piece was given for a move that is no promotion, or a king/pawn was chosen.
    BadPromotion,
    /// Castling when one of its conditions (R3) fails.
    Castling(CastlingFault),
}

/// Which castling condition of R3 fails.
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub enum CastlingFault {
    /// Condition 1: the king or that rook has moved.
    RightLost,
    /// Condition 2: a piece stands between king and rook.
    PathBlocked,
    /// Condition 3: castling is no way out of check.
    InCheck,
    /// Conditions 4 and 5: the king would cross or land on an attacked square.
    ThroughCheck,
}

impl std::fmt::Display for IllegalMoveReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            IllegalMoveReason::NoPiece(sq) => write!(f, "there is no piece on {sq}"),
            IllegalMoveReason::NotYourPiece { square, turn } => {
                write!(
                    f,
                    "the piece on {square} is not {turn}'s, and it is {turn}'s turn"
                )
            }
            IllegalMoveReason::CannotMoveThere { role, from, to } => {
                write!(f, "the {} on {from} cannot move to {to}", role.name())
            }
            IllegalMoveReason::KingInCheck => {
                f.write_str("the move would leave your king in check")
            }
            IllegalMoveReason::PromotionRequired => {
                f.write_str("a pawn reaching the last rank must promote: add q, r, b or n")
            }
            IllegalMoveReason::BadPromotion => {
                f.write_str("only a pawn reaching the last rank promotes, to q, r, b or n")
            }
            IllegalMoveReason::Castling(fault) => f.write_str(match fault {
                CastlingFault::RightLost => "cannot castle: the king or that rook has moved",
                CastlingFault::PathBlocked => "cannot castle: pieces stand between king and rook",
                CastlingFault::InCheck => "cannot castle out of check",
                CastlingFault::ThroughCheck => {
                    "cannot castle: the king would cross or land on an attacked square"
                }
            }),
        }
    }
}

/// A move refused by a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveError {
    /// The move as the player wrote it.
    pub text: String,
    pub reason: IllegalMoveReason,
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "illegal move {}: {}", self.text, self.reason)
    }
}

impl std::error::Error for MoveError {}

impl UciMove {
    /// Parses `e2e4` or `e7e8q` (promotion letter in either case).
    ///
    /// # Errors
    /// [`ParseUciError`] when the text is not of that form.
    pub fn from_ascii(s: &[u8]) -> Result<UciMove, ParseUciError> {
        let err = || ParseUciError(String::from_utf8_lossy(s).into_owned());
        let (squares, promotion) = match s.len() {
            4 => (s, None),
            5 => (
                &s[..4],
                Some(Role::from_char(s[4] as char).ok_or_else(err)?),
            ),
            _ => return Err(err()),
        };
        let from = Square::from_ascii(&squares[..2]).ok_or_else(err)?;
        let to = Square::from_ascii(&squares[2..]).ok_or_else(err)?;
        Ok(UciMove {
            from,
            to,
            promotion,
        })
    }

    /// The legal move this names in `pos`. Castling may be written as the king's two-square
    /// step (`e1g1`) or as the king onto its own rook (`e1h1`), as R3 allows online.
    ///
    /// # Errors
    /// [`MoveError`] with the reason the move is refused.
    pub fn to_move(&self, pos: &Position) -> Result<Move, MoveError> {
        let legal = pos.legal_moves();
        let rook_to_castle = self.castling_via_rook(pos);
        let found = legal.iter().copied().find(|m| {
            m.from() == self.from
                && m.promotion() == self.promotion
                && (m.to() == self.to
                    || (rook_to_castle.is_some() && m.castling_side() == rook_to_castle))
        });
        found.ok_or_else(|| MoveError {
            text: self.to_string(),
            reason: explain(pos, self.from, self.to, self.promotion, rook_to_castle),
        })
    }

    /// If this is the king moving onto its own castling rook, that castling side.
    fn castling_via_rook(&self, pos: &Position) -> Option<CastlingSide> {
        let us = pos.turn();
        let b = pos.board();
        if self.promotion.is_some()
            || !(b.kings() & b.by_color(us)).contains(self.from)
            || !(b.rooks() & b.by_color(us)).contains(self.to)
        {
            return None;
        }
        CastlingSide::ALL
            .into_iter()
            .find(|s| s.king_from(us) == self.from && s.rook_from(us) == self.to)
    }
}

/// Why `from`-`to` is not a legal move (called only once no legal move matched).
pub(crate) fn explain(
    pos: &Position,
    from: Square,
    to: Square,
    promotion: Option<Role>,
    castling: Option<CastlingSide>,
) -> IllegalMoveReason {
    let b = pos.board();
    let us = pos.turn();
    let Some(piece) = b.piece_at(from) else {
        return IllegalMoveReason::NoPiece(from);
    };
    if piece.color != us {
        return IllegalMoveReason::NotYourPiece {
            square: from,
            turn: us,
        };
    }
    let castling = castling.or_else(|| {
        (piece.role == Role::King && from.distance(to) == 2 && from.rank() == to.rank())
            .then(|| CastlingSide::from_king_to(to))
            .flatten()
            .filter(|s| s.king_from(us) == from)
    });
    if let Some(side) = castling {
        return IllegalMoveReason::Castling(castling_fault(pos, side));
    }
    let same_squares: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.from() == from && m.to() == to)
        .collect();
    if !same_squares.is_empty() {
        return if promotion.is_none() {
            IllegalMoveReason::PromotionRequired
        } else {
            IllegalMoveReason::BadPromotion
        };
    }
    let occupied = b.occupied();
    let shape_ok = !b.by_color(us).contains(to)
        && match piece.role {
            Role::Pawn => pawn_shape(pos, from, to),
            _ => attacks::attacks(piece, from, occupied).contains(to),
        };
    if !shape_ok {
        return IllegalMoveReason::CannotMoveThere {
            role: piece.role,
            from,
            to,
        };
    }
    let reaches_last_rank = piece.role == Role::Pawn && Bitboard::BACKRANKS.contains(to);
    match promotion {
        None if reaches_last_rank => IllegalMoveReason::PromotionRequired,
        Some(_) if !reaches_last_rank => IllegalMoveReason::BadPromotion,
        Some(Role::Pawn | Role::King) => IllegalMoveReason::BadPromotion,
        _ => IllegalMoveReason::KingInCheck,
    }
}

/// Whether a pawn could go from `from` to `to` if its king were not a concern.
fn pawn_shape(pos: &Position, from: Square, to: Square) -> bool {
    let b = pos.board();
    let us = pos.turn();
    let up: i32 = if us == Color::White { 8 } else { -8 };
    let occupied = b.occupied();
    let one = from.offset(up).filter(|s| !occupied.contains(*s));
    if one == Some(to) {
        return true;
    }
    let start_rank = crate::Rank::Second.relative_to(us);
    if from.rank() == start_rank && one.is_some() && from.offset(2 * up) == Some(to) {
        return !occupied.contains(to);
    }
    attacks::pawn_attacks(us, from).contains(to)
        && (b.by_color(!us).contains(to) || pos.ep_square() == Some(to))
}

fn castling_fault(pos: &Position, side: CastlingSide) -> CastlingFault {
    let us = pos.turn();
    if !pos.castling_rights().has(us, side) {
        return CastlingFault::RightLost;
    }
    let b = pos.board();
    let king = side.king_from(us);
    if (attacks::between(king, side.rook_from(us)) & b.occupied()).nonempty() {
        return CastlingFault::PathBlocked;
    }
    if pos.is_check() {
        return CastlingFault::InCheck;
    }
    CastlingFault::ThroughCheck
}

impl std::str::FromStr for UciMove {
    type Err = ParseUciError;

    fn from_str(s: &str) -> Result<UciMove, ParseUciError> {
        UciMove::from_ascii(s.as_bytes())
    }
}

impl std::fmt::Display for UciMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(p) = self.promotion {
            write!(f, "{}", p.char())?;
        }
        Ok(())
    }
}
