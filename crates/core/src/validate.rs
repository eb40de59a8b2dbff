//! Whether a setup could arise in a game: the checks that make a [`crate::Setup`] a
//! [`crate::Position`], each failure named.

use crate::attacks::line;
use crate::{Bitboard, CastlingRights, Color, Rank, Role, Setup, Square};

/// Why a setup is not a legal position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    MissingKing(Color),
    TooManyKings {
        color: Color,
        count: u32,
    },
    TooManyPieces {
        color: Color,
        count: u32,
    },
    TooManyPawns {
        color: Color,
        count: u32,
    },
    PawnOnBackRank(Square),
    /// A castling right whose rook is not on its start square (R3.1, R3.6).
    CastlingWithoutRook {
        right: char,
        rook: Square,
    },
    /// A castling right whose king is not on its start square.
    CastlingWithoutKing {
        right: char,
        king: Square,
    },
    EpSquareWrongRank(Square),
    EpSquareWithoutPawn {
        ep: Square,
        pawn: Square,
    },
    EpSquareOccupied(Square),
    EpOriginOccupied {
        ep: Square,
        origin: Square,
    },
    /// The side that just moved left its king in check.
    OppositeCheck,
    TooManyCheckers(u32),
    /// Checks that no legal last move could have given.
    ImpossibleCheck,
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            PositionError::MissingKing(c) => write!(f, "{c} has no king"),
            PositionError::TooManyKings { color, count } => write!(f, "{color} has {count} kings"),
            PositionError::TooManyPieces { color, count } => {
                write!(f, "too many pieces: {color} has {count}, at most 16")
            }
            PositionError::TooManyPawns { color, count } => {
                write!(f, "too many pawns: {color} has {count}, at most 8")
            }
            PositionError::PawnOnBackRank(sq) => {
                write!(f, "pawn on rank {} ({sq})", sq.rank().char())
            }
            PositionError::CastlingWithoutRook { right, rook } => {
                write!(f, "castling right {right} but no rook on {rook}")
            }
            PositionError::CastlingWithoutKing { right, king } => {
                write!(f, "castling right {right} but no king on {king}")
            }
            PositionError::EpSquareWrongRank(sq) => {
                write!(
                    f,
                    "en passant square {sq} is not on the rank behind a double-stepped pawn"
                )
            }
            PositionError::EpSquareWithoutPawn { ep, pawn } => {
                write!(f, "en passant square {ep} but no pawn on {pawn}")
            }
            PositionError::EpSquareOccupied(sq) => {
                write!(f, "en passant square {sq} is occupied")
            }
            PositionError::EpOriginOccupied { ep, origin } => {
                write!(f, "en passant square {ep} but {origin} is occupied")
            }
            PositionError::OppositeCheck => f.write_str("the side not to move is in check"),
            PositionError::TooManyCheckers(n) => {
                write!(f, "the king is in check from {n} pieces at once")
            }
            PositionError::ImpossibleCheck => {
                f.write_str("the king is in check in a way no legal move could give")
            }
        }
    }
}

impl std::error::Error for PositionError {}

pub(crate) fn validate(setup: &Setup, allow_impossible_check: bool) -> Result<(), PositionError> {
    let b = &setup.board;
    for color in Color::ALL {
        let ours = b.by_color(color);
        match (b.kings() & ours).count() {
            0 => return Err(PositionError::MissingKing(color)),
            1 => {}
            count => return Err(PositionError::TooManyKings { color, count }),
        }
        if ours.count() > 16 {
            return Err(PositionError::TooManyPieces {
                color,
                count: ours.count(),
            });
        }
        if (ours & b.pawns()).count() > 8 {
            return Err(PositionError::TooManyPawns {
                color,
                count: (ours & b.pawns()).count(),
            });
        }
    }
    if let Some(sq) = (b.pawns() & Bitboard::BACKRANKS).first() {
        return Err(PositionError::PawnOnBackRank(sq));
    }
    validate_castling(setup)?;
    let ep = validate_ep(setup)?;

    let us = setup.turn;
    let occupied = b.occupied();
    let their_king = b.king_of(!us).unwrap_or(Square::A1);
    if b.attackers_to(their_king, us, occupied).nonempty() {
        return Err(PositionError::OppositeCheck);
    }
    let king = b.king_of(us).unwrap_or(Square::A1);
    let checkers = b.attackers_to(king, !us, occupied);
    if checkers.count() > 2 {
        return Err(PositionError::TooManyCheckers(checkers.count()));
    }
    if allow_impossible_check {
        return Ok(());
    }
    if let Some(ep) = ep {
        // The last move was the double step: either the pawn gives check itself, or it
        // uncovered a single check that was not there before it moved.
        let pushed_to = Square::new(ep as u32 ^ 8);
        let pushed_from = Square::new(ep as u32 ^ 24);
        let before = occupied.without(pushed_to).with(pushed_from);
        let discovered = b.attackers_to(king, !us, before).without(pushed_to);
        if checkers.more_than_one()
            || (checkers.nonempty() && checkers.first() != Some(pushed_to) && discovered.nonempty())
        {
            return Err(PositionError::ImpossibleCheck);
        }
    } else if checkers.more_than_one() {
        // Two checkers on one line through the king: one would have blocked the other.
        let (a, c) = (
            checkers.first(),
            checkers.without(checkers.first().unwrap_or(king)).first(),
        );
        if let (Some(a), Some(c)) = (a, c) {
            if line(a, c).contains(king) {
                return Err(PositionError::ImpossibleCheck);
            }
        }
    }
    Ok(())
}

fn validate_castling(setup: &Setup) -> Result<(), PositionError> {
    let b = &setup.board;
    for (color, side) in setup.castling.iter() {
        let right = CastlingRights::char(color, side);
        let king = side.king_from(color);
        if !(b.kings() & b.by_color(color)).contains(king) {
            return Err(PositionError::CastlingWithoutKing { right, king });
        }
        let rook = side.rook_from(color);
        if !(b.rooks() & b.by_color(color)).contains(rook) {
            return Err(PositionError::CastlingWithoutRook { right, rook });
        }
    }
    Ok(())
}

/// The en passant square, checked against the double step it claims just happened.
fn validate_ep(setup: &Setup) -> Result<Option<Square>, PositionError> {
    let Some(ep) = setup.ep_square else {
        return Ok(None);
    };
    let us = setup.turn;
    if ep.rank() != Rank::Sixth.relative_to(us) {
        return Err(PositionError::EpSquareWrongRank(ep));
    }
    let b = &setup.board;
    let pawn = Square::new(ep as u32 ^ 8);
    if !(b.by_color(!us) & b.by_role(Role::Pawn)).contains(pawn) {
        return Err(PositionError::EpSquareWithoutPawn { ep, pawn });
    }
    if b.occupied().contains(ep) {
        return Err(PositionError::EpSquareOccupied(ep));
    }
    let origin = Square::new(ep as u32 ^ 24);
    if b.occupied().contains(origin) {
        return Err(PositionError::EpOriginOccupied { ep, origin });
    }
    Ok(Some(ep))
}
