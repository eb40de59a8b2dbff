//! One way to make a game, whatever the door (STYLE.md 14): the lobby form, a friend's link,
//! quick pairing, a rematch, a lichess challenge or seek, a game against the bot, and the
//! tournaments to come each build a [`GameSpec`] and call [`make`]. [`GameSpec::validate`]
//! holds every check a new game passes; whether it may be rated is the core's one rule
//! (`rookery_core::rating::rateable`).

use crate::refusal::Code;
use std::fmt;

use rookery_core::clock::TimeControl;
use rookery_core::game::{Game, Termination};
use rookery_core::rating::{NotRateable, RatedSeat, Speed, rateable};
use rookery_core::{ByColor, Color, Position};
use rookery_engine::Level;

use crate::bot::bot_name;
use crate::ids;
use crate::rooms::Rooms;
use crate::store::{ClubRecord, NewGame, StoreError};
use crate::wallclock::now_ms;

/// Where a game request came from (for the log, and for the checks that depend on it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// The lobby's form (a seek, a friend's link, or a game against the bot).
    Lobby,
    /// Quick pairing.
    Pool,
    /// A lichess challenge, accepted.
    Challenge,
    /// lichess's `POST /api/challenge/ai`.
    Ai,
    /// lichess's `POST /api/board/seek`.
    Seek,
    /// Both players of a finished game agreed to play again.
    Rematch,
    /// A tournament's round was paired.
    Tournament,
}

/// A person's seat in a new game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Person {
    /// The name shown (an account's name, or a guest's generated one).
    pub(crate) name: String,
    /// The account's id; `None` for a guest.
    pub(crate) account: Option<String>,
    /// The seat token to keep (a rematch keeps each player's); `None`: a new one.
    pub(crate) token: Option<String>,
}

/// Who sits on one side of a new game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SeatSpec {
    /// A person, seated now.
    Person(Person),
    /// A built-in bot of this level (or the external engine playing it).
    Bot(Level),
    /// Nobody yet: whoever opens the link first, or answers the seek.
    Open,
}

impl SeatSpec {
    /// A person seated under `name`, with `account` (or a guest), a new seat token.
    pub(crate) fn person(name: String, account: Option<String>) -> SeatSpec {
        SeatSpec::Person(Person {
            name,
            account,
            token: None,
        })
    }

    fn rated_seat(&self) -> RatedSeat {
        match self {
            SeatSpec::Person(Person {
                account: Some(_), ..
            }) => RatedSeat::Account,
            SeatSpec::Person(_) => RatedSeat::Guest,
            SeatSpec::Bot(_) => RatedSeat::Bot,
            SeatSpec::Open => RatedSeat::Open,
        }
    }
}

/// A colour as a request chooses it; parsed once for every door.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ColorChoice {
    White,
    Black,
    Random,
}

impl ColorChoice {
    /// `white`, `black` or `random`; nothing is `random`.
    ///
    /// # Errors
    /// Any other word, named in the error.
    pub(crate) fn parse(text: Option<&str>) -> Result<ColorChoice, SpecError> {
        match text.map(str::trim) {
            None | Some("" | "random") => Ok(ColorChoice::Random),
            Some("white") => Ok(ColorChoice::White),
            Some("black") => Ok(ColorChoice::Black),
            Some(other) => Err(SpecError::Color(other.chars().take(20).collect())),
        }
    }

    /// The stored word.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            ColorChoice::White => "white",
            ColorChoice::Black => "black",
            ColorChoice::Random => "random",
        }
    }

    /// The colour: as chosen, or by a fair coin.
    pub(crate) fn resolve(self) -> Color {
        match self {
            ColorChoice::White => Color::White,
            ColorChoice::Black => Color::Black,
            ColorChoice::Random => Color::from_white(ids::coin()),
        }
    }
}

/// A rating range as written, `1400-1800`; its bounds are checked by
/// [`GameSpec::validate`].
///
/// # Errors
/// Not two whole numbers around a `-`.
pub(crate) fn parse_range(text: &str) -> Result<Option<(i64, i64)>, SpecError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let bad = || SpecError::RatingRange(RangeFault::Written(text.chars().take(20).collect()));
    let (lo, hi) = text.split_once('-').ok_or_else(bad)?;
    let lo = lo.trim().parse().map_err(|_| bad())?;
    let hi = hi.trim().parse().map_err(|_| bad())?;
    Ok(Some((lo, hi)))
}

/// A start position as a request gives it: FEN, or nothing (or blank) for the normal start.
///
/// # Errors
/// The FEN does not read, or is not a legal position.
pub(crate) fn parse_start(fen: Option<&str>) -> Result<Position, SpecError> {
    match fen.map(str::trim).filter(|f| !f.is_empty()) {
        Some(fen) => Position::from_fen(fen).map_err(|e| SpecError::Fen(e.to_string())),
        None => Ok(Position::new()),
    }
}

/// The highest rating a range may name.
const MAX_RATING: i64 = 4000;
/// The longest club field (it goes into a PGN tag and onto a printed sheet).
const MAX_CLUB_FIELD: usize = 64;

/// One game request, from any door.
#[derive(Debug, Clone)]
pub(crate) struct GameSpec {
    /// The game's id when the door has one already (an accepted challenge's, as lichess);
    /// else a new one.
    pub(crate) id: Option<String>,
    pub(crate) seats: ByColor<SeatSpec>,
    pub(crate) control: TimeControl,
    pub(crate) start: Position,
    pub(crate) rated: bool,
    /// Listed in the lobby as a public seek (else reached by its link only).
    pub(crate) listed: bool,
    /// A public seek's rating range: who may take the open seat.
    pub(crate) rating_range: Option<(i64, i64)>,
    /// A club game's event, round and table (seed 003).
    pub(crate) club: ClubRecord,
    /// The game this one is the rematch of.
    pub(crate) rematch_of: Option<String>,
    /// An arena's game whose players may go berserk.
    pub(crate) berserkable: bool,
    pub(crate) source: Source,
    /// Where a guest asks from, and how many games guests from there may play at once.
    pub(crate) guests: Option<GuestQuota>,
}

/// Games under way guests from one address may play at once unless the operator says
/// otherwise (`--guest-games-per-address`): a club evening's or a school room's worth.
pub(crate) const GUEST_GAMES_PER_ADDRESS: u32 = 50;

/// Guests have no account to count their games by: their address counts instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GuestQuota {
    /// The client address (IPv4, or an IPv6 /64).
    pub(crate) address: String,
    /// Games under way guests from it may play at once (`--guest-games-per-address`), half
    /// of them against bots.
    pub(crate) games: u32,
}

impl GameSpec {
    /// A casual game from the normal start with these seats and clock; the door sets the
    /// rest.
    pub(crate) fn new(source: Source, seats: ByColor<SeatSpec>, control: TimeControl) -> GameSpec {
        GameSpec {
            id: None,
            seats,
            control,
            start: Position::new(),
            rated: false,
            listed: false,
            rating_range: None,
            club: ClubRecord::default(),
            rematch_of: None,
            berserkable: false,
            source,
            guests: None,
        }
    }

    /// Seats `me` on `color` and `other` opposite.
    pub(crate) fn seats_for(color: Color, me: SeatSpec, other: SeatSpec) -> ByColor<SeatSpec> {
        match color {
            Color::White => ByColor {
                white: me,
                black: other,
            },
            Color::Black => ByColor {
                white: other,
                black: me,
            },
        }
    }

    /// Every check a new game passes, whatever its door.
    ///
    /// # Errors
    /// The first fault found, as a [`SpecError`].
    pub(crate) fn validate(&self) -> Result<(), SpecError> {
        if let Some((_, termination)) = Game::new(self.start, self.control.clone()).result() {
            // Nothing to play (R4): such a game would be over before it began.
            return Err(SpecError::PositionOver(termination));
        }
        let held = ByColor::new_with(|color| self.seats[color].rated_seat());
        if self.rated {
            rateable(held, &self.start, &self.control).map_err(SpecError::NotRateable)?;
        }
        let open = [&self.seats.white, &self.seats.black]
            .into_iter()
            .filter(|s| **s == SeatSpec::Open)
            .count();
        if self.listed && open != 1 {
            return Err(SpecError::Listing);
        }
        if let Some((lo, hi)) = self.rating_range {
            let by_account = held.white == RatedSeat::Account || held.black == RatedSeat::Account;
            if !self.listed || !by_account {
                return Err(SpecError::RatingRange(RangeFault::NotASeek));
            }
            if Speed::of_control(&self.control).is_none() {
                return Err(SpecError::RatingRange(RangeFault::Untimed));
            }
            if !(0 <= lo && lo <= hi && hi <= MAX_RATING) {
                return Err(SpecError::RatingRange(RangeFault::Bounds(lo, hi)));
            }
        }
        for (what, field) in [
            ("event", &self.club.event),
            ("round", &self.club.round),
            ("table", &self.club.table),
        ] {
            if let Some(text) = field
                && (text.chars().count() > MAX_CLUB_FIELD || text.chars().any(char::is_control))
            {
                return Err(SpecError::ClubField(what));
            }
        }
        Ok(())
    }
}

/// A club field as a request gives it: trimmed, none if empty (its length and line are
/// checked by [`GameSpec::validate`]).
pub(crate) fn club_field(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

/// What is wrong with a rating range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RangeFault {
    /// Not written `low-high`.
    Written(String),
    /// Outside 0-4000, or low above high.
    Bounds(i64, i64),
    /// Not a logged-in player's public seek.
    NotASeek,
    /// An untimed game has no rating to range over.
    Untimed,
}

/// Why a game request is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SpecError {
    /// The start position does not read.
    Fen(String),
    /// The start position is over already (R4).
    PositionOver(Termination),
    /// Asked rated, and it cannot be.
    NotRateable(NotRateable),
    /// A colour that is not white, black or random.
    Color(String),
    RatingRange(RangeFault),
    /// A public seek has exactly one open seat.
    Listing,
    /// A club field is too long, or not on one line.
    ClubField(&'static str),
    /// The account plays as many games at once as it may ([`MAX_LIVE_GAMES`]), or as many
    /// against bots ([`MAX_LIVE_BOT_GAMES`]).
    TooManyGames {
        bots: bool,
    },
    /// Guests from this address play as many games at once as they may ([`GuestQuota`]):
    /// this many (against bots, if `bots`).
    TooManyGuestGames {
        bots: bool,
        most: u32,
    },
}

/// Games under way one account may play at once (issue 50: 6,000 never-ending games between
/// two accounts in 37 s, all reloaded at every restart).
pub(crate) const MAX_LIVE_GAMES: i64 = 100;
/// Of those, games against a bot (3,000 level-8 bot games in 4 s).
pub(crate) const MAX_LIVE_BOT_GAMES: i64 = 10;

impl SpecError {
    /// The refusal's stable code (`protocol::CODES`).
    pub(crate) fn code(&self) -> Code {
        match self {
            SpecError::Fen(_) => Code::BadFen,
            SpecError::PositionOver(_) => Code::PositionOver,
            SpecError::NotRateable(_) => Code::NotRateable,
            SpecError::Color(_)
            | SpecError::RatingRange(_)
            | SpecError::Listing
            | SpecError::ClubField(_) => Code::BadRequest,
            SpecError::TooManyGames { .. } | SpecError::TooManyGuestGames { .. } => {
                Code::RateLimited
            }
        }
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::Fen(e) => write!(f, "bad FEN: {e}"),
            SpecError::PositionOver(t) => write!(
                f,
                "this position is over already ({}): choose one with a move to play",
                t.as_str()
            ),
            SpecError::NotRateable(why) => write!(f, "{why}"),
            SpecError::Color(c) => write!(f, "color {c:?}: choose white, black or random"),
            SpecError::RatingRange(RangeFault::Written(t)) => write!(
                f,
                "rating range {t:?}: write it as two ratings, low-high (1400-1800)"
            ),
            SpecError::RatingRange(RangeFault::Bounds(lo, hi)) => write!(
                f,
                "rating range {lo}-{hi}: low first, both within 0-{MAX_RATING}"
            ),
            SpecError::RatingRange(RangeFault::NotASeek) => {
                f.write_str("a rating range is for a logged-in player's public seek")
            }
            SpecError::RatingRange(RangeFault::Untimed) => {
                f.write_str("untimed games have no rating to range over")
            }
            SpecError::Listing => f.write_str("a public seek leaves one seat open"),
            SpecError::TooManyGames { bots: false } => write!(
                f,
                "you play {MAX_LIVE_GAMES} games already: finish one before starting another"
            ),
            SpecError::TooManyGames { bots: true } => write!(
                f,
                "you play {MAX_LIVE_BOT_GAMES} games against bots already: finish one first"
            ),
            SpecError::TooManyGuestGames { bots: false, most } => write!(
                f,
                "guests from your address play {most} games already: finish one, or log in"
            ),
            SpecError::TooManyGuestGames { bots: true, most } => write!(
                f,
                "guests from your address play {most} games against bots already: finish \
                 one, or log in"
            ),
            SpecError::ClubField(what) => {
                write!(
                    f,
                    "{what}: at most {MAX_CLUB_FIELD} characters, on one line"
                )
            }
        }
    }
}

impl std::error::Error for SpecError {}

/// Why a game could not be made.
#[derive(Debug)]
pub(crate) enum MakeError {
    /// The request is refused; nothing was stored.
    Spec(SpecError),
    /// The store failed; nothing was stored.
    Store(StoreError),
}

impl From<SpecError> for MakeError {
    fn from(e: SpecError) -> MakeError {
        MakeError::Spec(e)
    }
}

impl From<StoreError> for MakeError {
    fn from(e: StoreError) -> MakeError {
        MakeError::Store(e)
    }
}

impl fmt::Display for MakeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MakeError::Spec(e) => write!(f, "{e}"),
            MakeError::Store(e) => write!(f, "{e}"),
        }
    }
}

/// Whether one more game is past a cap, given the games under way `(all, against bots)`:
/// `Some(false)` past `most`, `Some(true)` past `most_with_bots` when the new game is against
/// a bot, `None` within both.
fn over_cap(
    (live, with_bots): (i64, i64),
    most: i64,
    most_with_bots: i64,
    against_bot: bool,
) -> Option<bool> {
    if live >= most {
        Some(false)
    } else if against_bot && with_bots >= most_with_bots {
        Some(true)
    } else {
        None
    }
}

/// A game made: its id, and the seat token of each person seated in it (a bot's seat and an
/// open one have none to give).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Made {
    pub(crate) id: String,
    pub(crate) tokens: ByColor<Option<String>>,
    pub(crate) created_at: i64,
}

/// Checks `spec`, stores the game it asks for and opens its room (with its bots): the one
/// function every door calls.
///
/// # Errors
/// The request is refused ([`SpecError`]) or could not be stored; nothing was made.
pub(crate) async fn make(rooms: &Rooms, spec: GameSpec) -> Result<Made, MakeError> {
    spec.validate()?;
    // Each account seated may start one more game.
    let against_bot = spec
        .seats
        .iter()
        .any(|(_, s)| matches!(s, SeatSpec::Bot(_)));
    for (_, seat) in spec.seats.iter() {
        if let SeatSpec::Person(Person {
            account: Some(user),
            ..
        }) = seat
        {
            let counts = rooms.store().live_counts_of(user).await?;
            if let Some(bots) = over_cap(counts, MAX_LIVE_GAMES, MAX_LIVE_BOT_GAMES, against_bot) {
                return Err(SpecError::TooManyGames { bots }.into());
            }
        }
    }
    // Guests have no account to count by: their address counts instead.
    let guest = spec
        .seats
        .iter()
        .any(|(_, s)| matches!(s, SeatSpec::Person(Person { account: None, .. })));
    let quota = spec.guests.clone().filter(|_| guest);
    if let Some(GuestQuota { address, games }) = &quota {
        let counts = rooms.store().live_counts_from(address).await?;
        let (most, most_with_bots) = (*games, games / 2);
        if let Some(bots) = over_cap(
            counts,
            i64::from(most),
            i64::from(most_with_bots),
            against_bot,
        ) {
            let most = if bots { most_with_bots } else { most };
            return Err(SpecError::TooManyGuestGames { bots, most }.into());
        }
    }
    let guest_address = quota.map(|q| q.address);
    let game = Game::new(spec.start, spec.control.clone());
    let id = spec.id.clone().unwrap_or_else(ids::game_id);
    let created_at = now_ms() as i64;
    let mut tokens = ByColor {
        white: None,
        black: None,
    };
    let mut row = NewGame {
        id: id.clone(),
        created_at,
        start_fen: (spec.start != Position::new()).then(|| spec.start.fen()),
        time_control: spec.control.clone(),
        rematch_of: spec.rematch_of.clone(),
        seek: spec.listed,
        rated: spec.rated,
        rating_range: spec.rating_range,
        club: spec.club.clone(),
        berserkable: spec.berserkable,
        guest_address,
        ..NewGame::default()
    };
    for color in [Color::White, Color::Black] {
        let (name, seat, bot, user) = match &spec.seats[color] {
            SeatSpec::Person(p) => {
                let token = p.token.clone().unwrap_or_else(ids::seat_token);
                tokens[color] = Some(token.clone());
                (p.name.clone(), Some(token), None, p.account.clone())
            }
            // A bot's seat has a token nobody is given: the seat is taken.
            SeatSpec::Bot(level) => (
                bot_name(*level),
                Some(ids::seat_token()),
                Some(i64::from(level.get())),
                None,
            ),
            SeatSpec::Open => ("?".to_owned(), None, None, None),
        };
        match color {
            Color::White => {
                (
                    row.white_name,
                    row.white_seat,
                    row.white_bot,
                    row.white_user,
                ) = (name, seat, bot, user);
            }
            Color::Black => {
                (
                    row.black_name,
                    row.black_seat,
                    row.black_bot,
                    row.black_user,
                ) = (name, seat, bot, user);
            }
        }
    }
    rooms.create(&row, game).await?;
    tracing::info!(game = %id, source = ?spec.source, rated = spec.rated, "game made");
    Ok(Made {
        id,
        tokens,
        created_at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(account: Option<&str>) -> SeatSpec {
        SeatSpec::person("p".into(), account.map(str::to_owned))
    }

    fn spec(white: SeatSpec, black: SeatSpec, control: &str) -> GameSpec {
        GameSpec::new(
            Source::Lobby,
            ByColor { white, black },
            TimeControl::from_friendly(control).unwrap(),
        )
    }

    #[test]
    fn a_rated_correspondence_game_is_valid_and_a_guest_cannot_be_rated() {
        let mut s = spec(person(Some("anna")), SeatSpec::Open, "3d");
        s.rated = true;
        assert_eq!(s.validate(), Ok(()));
        s.seats.white = person(None);
        assert_eq!(
            s.validate(),
            Err(SpecError::NotRateable(NotRateable::Guest))
        );
        s.seats.white = SeatSpec::Bot(Level::new(1).unwrap());
        assert_eq!(s.validate(), Err(SpecError::NotRateable(NotRateable::Bot)));
    }

    #[test]
    fn a_rating_range_is_a_logged_in_seek_within_bounds() {
        let mut s = spec(person(Some("anna")), SeatSpec::Open, "5+3");
        s.rating_range = parse_range("1400-1800").unwrap();
        assert_eq!(
            s.validate(),
            Err(SpecError::RatingRange(RangeFault::NotASeek))
        );
        s.listed = true;
        assert_eq!(s.validate(), Ok(()));
        s.rating_range = Some((1400, 5000));
        assert_eq!(
            s.validate(),
            Err(SpecError::RatingRange(RangeFault::Bounds(1400, 5000)))
        );
        s.rating_range = Some((1800, 1400));
        assert!(s.validate().is_err());
        assert!(parse_range("abc").is_err());
        assert_eq!(parse_range(" ").unwrap(), None);
        s.rating_range = Some((1400, 1800));
        s.control = TimeControl::Untimed;
        assert_eq!(
            s.validate(),
            Err(SpecError::RatingRange(RangeFault::Untimed))
        );
    }

    #[test]
    fn a_finished_start_and_long_club_fields_are_refused() {
        let mut s = spec(person(None), SeatSpec::Open, "5+3");
        s.start = Position::from_fen("7k/5QQ1/8/8/8/8/8/K7 b - - 0 1").unwrap();
        assert!(matches!(s.validate(), Err(SpecError::PositionOver(_))));
        s.start = Position::new();
        s.club.round = Some("x".repeat(65));
        assert_eq!(s.validate(), Err(SpecError::ClubField("round")));
        s.club.round = Some("7".into());
        assert_eq!(s.validate(), Ok(()));
        s.listed = true;
        s.seats.black = person(None);
        assert_eq!(s.validate(), Err(SpecError::Listing));
    }

    #[test]
    fn colours_are_parsed_once() {
        assert_eq!(ColorChoice::parse(None), Ok(ColorChoice::Random));
        assert_eq!(ColorChoice::parse(Some("black")), Ok(ColorChoice::Black));
        assert!(ColorChoice::parse(Some("purple")).is_err());
    }
}
