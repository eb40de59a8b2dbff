//! The Laws of Chess for Rookery (see `docs/RULES.md` R1-R7): board types, positions,
//! legal moves, FEN, UCI and SAN notation, and how a position ends a game.
//!
//! Pure: no IO, no async, no global mutable state. The server and the bots judge moves with
//! this crate and nothing else.
//!
//! ```
//! use rookery_core::{Position, UciMove};
//!
//! let mut pos = Position::new();
//! for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
//!     let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
//!     pos.play(m).unwrap();
//! }
//! assert!(pos.is_checkmate());
//! ```

pub mod attacks;
mod bitboard;
mod board;
mod castling;
pub mod clock;
mod color;
pub mod fen;
pub mod game;
mod m;
mod movegen;
mod perft;
pub mod pgn;
mod position;
pub mod rating;
mod role;
mod san;
mod square;
mod uci;
mod validate;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use castling::CastlingRights;
pub use color::{ByColor, Color};
pub use fen::FenError;
pub use m::{CastlingSide, Move, MoveKind};
pub use movegen::{MAX_LEGAL_MOVES, MoveList};
pub use perft::{perft, perft_bulk};
pub use position::{IllegalMoveError, Outcome, Position, RepetitionKey, Setup};
pub use role::{Piece, Role};
pub use san::{San, SanError, SanPlus};
pub use square::{File, Rank, Square};
pub use uci::{CastlingFault, IllegalMoveReason, MoveError, ParseUciError, UciMove};
pub use validate::PositionError;
