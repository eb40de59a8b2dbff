//! Which games may be rated (docs/RATINGS.md "Rated games"), one rule for every door that
//! makes a game: both seats held by accounts (a seat still open is taken by an account only),
//! no bot, the normal start, and a speed (a clock, or days a move: correspondence is rated in
//! its own speed, as lichess rates it; an untimed game is not).

use std::fmt;

use crate::clock::TimeControl;
use crate::color::ByColor;
use crate::position::Position;

use super::Speed;

/// Who holds a seat, as far as rating goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RatedSeat {
    /// A player's account.
    Account,
    /// A person without an account (a guest).
    Guest,
    /// A built-in or external engine seated by the server.
    Bot,
    /// Nobody yet: whoever takes it must be an account.
    Open,
}

/// Why a game cannot be rated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotRateable {
    /// A seat is a guest's.
    Guest,
    /// A seat is a bot's.
    Bot,
    /// The game starts from another position than the normal one.
    NotStandardStart,
    /// The game has no clock (and is not correspondence).
    Untimed,
}

impl fmt::Display for NotRateable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotRateable::Guest => "log in to play rated games: both players need an account",
            NotRateable::Bot => "games against the built-in bots are not rated",
            NotRateable::NotStandardStart => "only games from the normal start are rated",
            NotRateable::Untimed => "untimed games are not rated (give a clock, or days a move)",
        })
    }
}

impl std::error::Error for NotRateable {}

/// Whether a game with these seats, start and time control may be rated; if so, the speed
/// whose rating it counts for.
///
/// # Errors
/// The first reason it may not, checked in the order of [`NotRateable`].
///
/// # Examples
/// ```
/// use rookery_core::clock::TimeControl;
/// use rookery_core::rating::{rateable, NotRateable, RatedSeat, Speed};
/// use rookery_core::{ByColor, Position};
///
/// let accounts = ByColor { white: RatedSeat::Account, black: RatedSeat::Open };
/// let days = TimeControl::Correspondence(3);
/// assert_eq!(rateable(accounts, &Position::new(), &days), Ok(Speed::Correspondence));
/// let bot = ByColor { white: RatedSeat::Account, black: RatedSeat::Bot };
/// assert_eq!(rateable(bot, &Position::new(), &days), Err(NotRateable::Bot));
/// ```
pub fn rateable(
    seats: ByColor<RatedSeat>,
    start: &Position,
    control: &TimeControl,
) -> Result<Speed, NotRateable> {
    let held = [seats.white, seats.black];
    if held.contains(&RatedSeat::Guest) {
        return Err(NotRateable::Guest);
    }
    if held.contains(&RatedSeat::Bot) {
        return Err(NotRateable::Bot);
    }
    if *start != Position::new() {
        return Err(NotRateable::NotStandardStart);
    }
    Speed::of_control(control).ok_or(NotRateable::Untimed)
}
