//! PGN, the portable game notation: the game record ([`GameRecord`]), a streaming reader
//! that validates every move ([`Reader`]) and a writer ([`write`]).
//!
//! The reader takes any [`std::io::BufRead`] the caller opened; this crate itself never
//! touches files or sockets.

mod read;
mod record;
mod write;

pub use read::{PgnError, PgnErrorKind, Reader};
pub use record::{FinalOutcome, GameRecord, GameResult, RecordedMove, Tags, final_outcome};
pub use write::{write, write_clock};
