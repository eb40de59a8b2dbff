//! The JSON bodies of the game API (docs/API.md): what requests carry and what answers say.

use serde::{Deserialize, Serialize};

/// `POST /api/games`.
#[derive(Debug, Deserialize)]
pub(crate) struct CreateGame {
    /// Friendly form: "5+3", "40/90+30:30+30", "15d5", "untimed".
    pub(crate) time_control: String,
    /// "white", "black" or "random" (the default).
    #[serde(default)]
    pub(crate) color: Option<String>,
    /// A start position other than the standard one.
    #[serde(default)]
    pub(crate) fen: Option<String>,
    /// Play a bot of this level (1-8) instead of a person.
    #[serde(default)]
    pub(crate) bot: Option<u8>,
    /// List the game in the lobby as a public seek (else it is reached by its link only).
    #[serde(default)]
    pub(crate) seek: bool,
    /// Count the game for both players' ratings: both must be logged in, the game timed,
    /// from the normal start, and against a person.
    #[serde(default)]
    pub(crate) rated: bool,
    /// A public seek's rating range, "1400-1800": only logged-in players whose rating at the
    /// game's speed lies within it may join.
    #[serde(default)]
    pub(crate) rating_range: Option<String>,
    /// For club play (seed 003's score sheet; PGN `Event`, `Round`, `Board`): at most 64
    /// characters each.
    #[serde(default)]
    pub(crate) event: Option<String>,
    #[serde(default)]
    pub(crate) round: Option<String>,
    #[serde(default)]
    pub(crate) table: Option<String>,
}

/// A seat taken (create, join, rematch); the seat cookie goes with it.
#[derive(Debug, Serialize)]
pub(crate) struct Seated {
    pub(crate) id: String,
    pub(crate) url: String,
    pub(crate) color: &'static str,
    pub(crate) name: String,
}

/// `GET /api/games/{id}`.
#[derive(Debug, Serialize)]
pub(crate) struct GameState {
    pub(crate) id: String,
    pub(crate) v: u64,
    pub(crate) status: &'static str,
    pub(crate) fen: String,
    pub(crate) turn: &'static str,
    pub(crate) san: Vec<String>,
    pub(crate) uci: Vec<String>,
    /// Milliseconds left per side (`null` untimed).
    pub(crate) clocks: PerColor<Option<u64>>,
    pub(crate) time_control: String,
    pub(crate) white: String,
    pub(crate) black: String,
    /// The players' titles (GM, IM, ...), when their accounts have one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) white_title: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) black_title: Option<&'static str>,
    pub(crate) result: Option<&'static str>,
    pub(crate) termination: Option<&'static str>,
    /// The color this browser plays, if any.
    pub(crate) you: Option<&'static str>,
    /// Bot levels of the seats (`null`: a person).
    pub(crate) bots: PerColor<Option<i64>>,
    /// The id of the rematch, once both agreed to one.
    pub(crate) rematch: Option<String>,
    /// A rated game's ratings (absent for an unrated one; docs/RATINGS.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) ratings: Option<PerColor<Option<SeatRatingView>>>,
}

/// One player's rating in a rated game: before it (`1500?` while provisional), and once it
/// has counted, the rating after it, the change (`+7`) and the ladder points moved (`+10`,
/// `-2.5`).
#[derive(Debug, Serialize)]
pub(crate) struct SeatRatingView {
    pub(crate) rating: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) after: Option<String>,
    pub(crate) diff: Option<String>,
    pub(crate) ladder: Option<String>,
}

impl SeatRatingView {
    pub(crate) fn of(seat: &crate::export::SeatRating) -> SeatRatingView {
        SeatRatingView {
            rating: seat.before.shown(),
            after: seat.after.map(|g| g.shown()),
            diff: seat.diff.map(crate::export::signed),
            ladder: seat.ladder.map(|h| {
                let shown = rookery_core::rating::LadderPoints(h).shown();
                if h >= 0 { format!("+{shown}") } else { shown }
            }),
        }
    }
}

/// One value per side, as JSON `{"white": .., "black": ..}`.
#[derive(Debug, Serialize)]
pub(crate) struct PerColor<T> {
    pub(crate) white: T,
    pub(crate) black: T,
}

/// `POST /api/games/{id}/move`.
#[derive(Debug, Deserialize)]
pub(crate) struct MoveRequest {
    /// UCI (`e2e4`, `e7e8q`, `e1h1`) or SAN.
    #[serde(alias = "uci", alias = "san")]
    pub(crate) m: String,
    #[serde(default)]
    pub(crate) offer_draw: bool,
}

/// A command accepted and stored: the room version after all it caused.
#[derive(Debug, Serialize)]
pub(crate) struct Done {
    pub(crate) v: u64,
}

/// `POST /api/games/{id}/rematch` when the offer stands.
#[derive(Debug, Serialize)]
pub(crate) struct Offered {
    pub(crate) offered: bool,
}

/// `POST /api/games/{id}/decline-rematch`.
#[derive(Debug, Serialize)]
pub(crate) struct Ok {
    pub(crate) ok: bool,
}

/// `?clocks=true|false` on PGN exports.
#[derive(Debug, Deserialize)]
pub(crate) struct ExportQuery {
    #[serde(default = "yes")]
    pub(crate) clocks: bool,
    /// A player's games: at most this many (and never more than `MAX_EXPORT`).
    pub(crate) max: Option<u32>,
    /// A player's games: those after this game (the previous page's `X-Next-After`).
    pub(crate) after: Option<String>,
}

fn yes() -> bool {
    true
}

/// One game of `GET /api/games`.
#[derive(Debug, Serialize)]
pub(crate) struct Listed {
    pub(crate) id: String,
    pub(crate) white: String,
    pub(crate) black: String,
    /// The players' titles (GM, IM, ...), when their accounts have one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) white_title: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) black_title: Option<&'static str>,
    pub(crate) time_control: String,
    /// The same in the lobby's form (`10+5`, `15d5`, `untimed`).
    pub(crate) time_control_friendly: String,
    /// The same in words, in the reader's language (`5 min + 3 s a move`), as the lobby shows it.
    pub(crate) time_control_words: String,
    /// Whether a seat is still open (a seek anyone may join).
    pub(crate) open: bool,
    /// The open seat's color, for a seek (`null` otherwise).
    pub(crate) open_color: Option<&'static str>,
    /// Whether the game counts for ratings.
    pub(crate) rated: bool,
    /// Each account's rating at the game's speed, as shown (`1500?` while provisional).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) white_rating: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) black_rating: Option<String>,
    /// A seek's rating range, "1400-1800".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) rating_range: Option<String>,
    /// The opening played so far: `{"eco", "name"}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) opening: Option<OpeningTag>,
}

/// An opening as lichess names it.
#[derive(Debug, Serialize)]
pub(crate) struct OpeningTag {
    pub(crate) eco: &'static str,
    pub(crate) name: &'static str,
}

impl OpeningTag {
    pub(crate) fn of(opening: &rookery_openings::Opening) -> OpeningTag {
        OpeningTag {
            eco: opening.eco,
            name: opening.name,
        }
    }
}

/// The form of `POST /api/import`.
#[derive(Debug, Deserialize)]
pub(crate) struct ImportForm {
    pub(crate) pgn: String,
}

/// `POST /api/import`: the stored game.
#[derive(Debug, Serialize)]
pub(crate) struct Imported {
    pub(crate) id: String,
    pub(crate) url: String,
}

/// `POST /api/pool`: join the quick-pairing pool of a grid control.
#[derive(Debug, Deserialize)]
pub(crate) struct JoinPool {
    /// One of the grid's controls ("3+2", "40/90+30:30+30", ...; `GET /api/pools`).
    pub(crate) time_control: String,
}

/// The answer to joining a pool: the ticket to ask after (`GET /api/pool/{ticket}`).
#[derive(Debug, Serialize)]
pub(crate) struct PoolTicket {
    pub(crate) ticket: String,
    pub(crate) time_control: String,
    pub(crate) rated: bool,
    /// The rating the pairing uses (none for anonymous players).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) rating: Option<String>,
}

/// A ticket still waiting.
#[derive(Debug, Serialize)]
pub(crate) struct PoolWaiting {
    pub(crate) waiting: bool,
    pub(crate) time_control: String,
    pub(crate) rated: bool,
}

/// One cell of the grid, `GET /api/pools`.
#[derive(Debug, Serialize)]
pub(crate) struct PoolInfo {
    pub(crate) time_control: &'static str,
    pub(crate) time_control_words: String,
    pub(crate) speed: &'static str,
    /// Players waiting now in its rated and casual pools.
    pub(crate) rated_waiting: usize,
    pub(crate) casual_waiting: usize,
}
