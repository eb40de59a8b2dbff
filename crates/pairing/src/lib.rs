//! Tournament pairings for Rookery (docs/TOURNAMENTS.md): who plays whom, with which colour,
//! round by round.
//!
//! - [`berger`]: round robin by FIDE's Berger tables (Handbook C.05 Annex 1), any number of
//!   players, single or double.
//! - [`trf`]: FIDE's tournament report file, read and written.
//! - [`arena`]: an arena's scoring by lichess's rules (streaks, berserk, quick draws).
//!
//! Pure, like `rookery-core`: no IO, no async, no global state; the server and the
//! `rookery pairings` command line feed it and store what it returns.

pub mod arena;
pub mod berger;
pub mod check;
pub mod dutch;
pub mod event;
pub mod matching;
pub mod swiss;
pub mod tiebreak;
pub mod trf;
pub mod wide;
