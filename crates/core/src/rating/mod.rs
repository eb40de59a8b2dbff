//! Ratings: Glicko-2 as lichess plays it, one rating per speed (`Speed`, by a time control's
//! estimated duration), and the seeds' ladder points with their classes (docs/RULES.md R8).
//! Pure arithmetic, no storage.

pub mod glicko2;
pub mod ladder;
mod rateable;
mod speed;

pub use glicko2::{Glicko, Outcome as Score};
pub use ladder::{Class, LadderPoints, LadderResult};
pub use rateable::{NotRateable, RatedSeat, rateable};
pub use speed::Speed;
