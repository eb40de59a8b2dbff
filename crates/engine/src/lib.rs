//! Rookery's chess engine: the search behind the bots (levels 1-8) and the `rookery-engine`
//! UCI binary. It judges positions with `rookery-core` only: every move it searches comes
//! from the core's legal move generator. (The one exception is offline: `endgame.rs` solves
//! its king and pawn against king table with king steps and pawn pushes of its own, checked
//! against Stockfish's table; no move is played from it.)
//!
//! ```
//! use rookery_core::Position;
//! use rookery_engine::{Limits, Search};
//!
//! let pos = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1").unwrap();
//! let found = Search::new(1).run(&pos, &[], &Limits::depth(3));
//! assert_eq!(found.best.unwrap().to_uci().to_string(), "a1a8");
//! ```

pub mod analysis;
mod endgame;
mod epd;
mod eval;
mod external;
mod level;
mod nn;
mod pesto;
mod search;
mod uci;

pub use epd::{EpdCase, parse_epd};
pub use eval::evaluate;
pub use external::{External, ExternalEval};
pub use level::{Level, Rng, budget};
pub use search::{Evaluation, Found, Limits, MATE, RootMove, Search};
pub use uci::serve as serve_uci;
