//! Refusals as clients see them, on the socket and over HTTP: a stable [`Code`]
//! (pages translate it), the English sentence, and the figure some sentences need. Below the
//! rooms and the protocol, so both may speak of a refusal.

use rookery_core::game::GameError;
use serde::{Deserialize, Serialize};

/// A refusal as a client sees it, on the socket (`error` frames) and over HTTP (`{"error"}`
/// bodies): a stable `code` that pages translate (`err_<code>` in web/i18n.json, so a
/// Chinese page shows a Chinese sentence), the sentence in English, and the figure some
/// sentences need (`n`: occurrences, moves, seconds). It travels between nodes as it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Problem {
    pub(crate) code: Code,
    pub(crate) message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) n: Option<u64>,
}

/// Declares [`Code`]: each refusal's variant, its text on the wire and its HTTP status.
macro_rules! codes {
    ($($name:ident = $text:literal => $status:ident,)*) => {
        /// Every code a refusal can carry (docs/PROTOCOL.md, "Errors"); each has its
        /// sentence in every page language and one HTTP status, whichever door refuses.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub(crate) enum Code {
            $($name,)*
        }

        impl Code {
            pub(crate) const ALL: &[Code] = &[$(Code::$name,)*];

            /// The code as clients read it.
            pub(crate) fn as_str(self) -> &'static str {
                match self {
                    $(Code::$name => $text,)*
                }
            }

            /// The HTTP status of a refusal with this code.
            pub(crate) fn status(self) -> axum::http::StatusCode {
                match self {
                    $(Code::$name => axum::http::StatusCode::$status,)*
                }
            }
        }
    };
}

codes! {
    NotYourTurn = "not_your_turn" => BAD_REQUEST,
    GameOver = "game_over" => CONFLICT,
    IllegalMove = "illegal_move" => BAD_REQUEST,
    OfferBarred = "offer_barred" => BAD_REQUEST,
    OfferStands = "offer_stands" => BAD_REQUEST,
    NoOffer = "no_offer" => BAD_REQUEST,
    NoThreefold = "no_threefold" => BAD_REQUEST,
    NoFiftyMoves = "no_fifty_moves" => BAD_REQUEST,
    AbortTooLate = "abort_too_late" => BAD_REQUEST,
    ResignTooEarly = "resign_too_early" => BAD_REQUEST,
    OpponentNotGone = "opponent_not_gone" => BAD_REQUEST,
    NotSaved = "not_saved" => SERVICE_UNAVAILABLE,
    RoomClosed = "room_closed" => GONE,
    NotOver = "not_over" => CONFLICT,
    Waiting = "waiting" => CONFLICT,
    Malformed = "malformed" => BAD_REQUEST,
    SlowDown = "slow_down" => TOO_MANY_REQUESTS,
    Spectator = "spectator" => FORBIDDEN,
    NotFound = "not_found" => NOT_FOUND,
    NoSeat = "no_seat" => FORBIDDEN,
    SeatedAlready = "seated_already" => CONFLICT,
    SeatsTaken = "seats_taken" => CONFLICT,
    BadTimeControl = "bad_time_control" => BAD_REQUEST,
    BadFen = "bad_fen" => BAD_REQUEST,
    BadRequest = "bad_request" => BAD_REQUEST,
    PositionOver = "position_over" => BAD_REQUEST,
    BadPgn = "bad_pgn" => BAD_REQUEST,
    ImportRefused = "import_refused" => BAD_REQUEST,
    TournamentRefused = "tournament_refused" => BAD_REQUEST,
    Internal = "internal" => INTERNAL_SERVER_ERROR,
    CrossSite = "cross_site" => FORBIDDEN,
    NameLength = "name_length" => BAD_REQUEST,
    NameCharacters = "name_characters" => BAD_REQUEST,
    NameReserved = "name_reserved" => BAD_REQUEST,
    NameTaken = "name_taken" => CONFLICT,
    PasswordShort = "password_short" => BAD_REQUEST,
    PasswordLong = "password_long" => BAD_REQUEST,
    WrongPassword = "wrong_password" => UNAUTHORIZED,
    RateLimited = "rate_limited" => TOO_MANY_REQUESTS,
    BadToken = "bad_token" => UNAUTHORIZED,
    AdminOnly = "admin_only" => FORBIDDEN,
    ResetInvalid = "reset_invalid" => GONE,
    BadScope = "bad_scope" => BAD_REQUEST,
    NotAllowed = "not_allowed" => FORBIDDEN,
    NotRateable = "not_rateable" => BAD_REQUEST,
    RatedNeedsAccount = "rated_needs_account" => FORBIDDEN,
    UnknownPool = "unknown_pool" => BAD_REQUEST,
    NoTicket = "no_ticket" => NOT_FOUND,
    RatingOutOfRange = "rating_out_of_range" => FORBIDDEN,
    AnalysisNeedsEnd = "analysis_needs_end" => CONFLICT,
    NeedsAnalysis = "needs_analysis" => CONFLICT,
    ChatMuted = "chat_muted" => FORBIDDEN,
    CannotBerserk = "cannot_berserk" => BAD_REQUEST,
    CannotGiveTime = "cannot_give_time" => BAD_REQUEST,
    Unavailable = "unavailable" => SERVICE_UNAVAILABLE,
}

impl Code {
    /// The code named `text`, if there is one.
    pub(crate) fn parse(text: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| c.as_str() == text)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Code {
    /// A code this version does not know (a newer node's) reads as `internal`.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Code, D::Error> {
        let text = std::borrow::Cow::<'de, str>::deserialize(d)?;
        Ok(Code::parse(&text).unwrap_or(Code::Internal))
    }
}

impl Problem {
    pub(crate) fn new(code: Code, message: impl Into<String>) -> Problem {
        Problem {
            code,
            message: message.into(),
            n: None,
        }
    }

    pub(crate) fn with(mut self, n: u64) -> Problem {
        self.n = Some(n);
        self
    }
}

impl From<&GameError> for Problem {
    fn from(e: &GameError) -> Problem {
        let message = e.to_string();
        match e {
            GameError::NotYourTurn => Problem::new(Code::NotYourTurn, message),
            GameError::GameIsOver => Problem::new(Code::GameOver, message),
            GameError::IllegalMove(_) => Problem::new(Code::IllegalMove, message),
            GameError::OfferBlocked => Problem::new(Code::OfferBarred, message),
            GameError::OfferAlreadyMade => Problem::new(Code::OfferStands, message),
            GameError::NoOfferToAnswer => Problem::new(Code::NoOffer, message),
            GameError::NoThreefold { occurrences } => {
                Problem::new(Code::NoThreefold, message).with(*occurrences as u64)
            }
            GameError::NoFiftyMoves { moves } => {
                Problem::new(Code::NoFiftyMoves, message).with(u64::from(*moves))
            }
            GameError::AbortTooLate => Problem::new(Code::AbortTooLate, message),
            GameError::CannotBerserk => Problem::new(Code::CannotBerserk, message),
            GameError::CannotGiveTime => Problem::new(Code::CannotGiveTime, message),
            GameError::ResignTooEarly => Problem::new(Code::ResignTooEarly, message),
            GameError::OpponentNotGone { wait } => {
                Problem::new(Code::OpponentNotGone, message).with(wait.as_secs())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A refusal crosses nodes as JSON and comes back the same; a code a newer node sends
    /// reads as `internal`, never as a failure to read the answer.
    #[test]
    fn codes_travel_as_their_text_and_come_back_the_same() {
        for &code in Code::ALL {
            let text = serde_json::to_string(&code).unwrap();
            assert_eq!(text, format!("\"{}\"", code.as_str()));
            assert_eq!(serde_json::from_str::<Code>(&text).unwrap(), code);
            assert_eq!(Code::parse(code.as_str()), Some(code));
        }
        let newer: Problem =
            serde_json::from_str(r#"{"code":"from_the_future","message":"m"}"#).unwrap();
        assert_eq!(newer.code, Code::Internal);
        let texts: std::collections::BTreeSet<&str> =
            Code::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(texts.len(), Code::ALL.len(), "each code has its own text");
    }

    /// One status per code, whichever door refuses: a finished game refuses a move with 409
    /// over every door, a missing seat with 403.
    #[test]
    fn a_refusal_has_its_codes_status() {
        use axum::http::StatusCode;
        assert_eq!(Code::GameOver.status(), StatusCode::CONFLICT);
        assert_eq!(Code::NoSeat.status(), StatusCode::FORBIDDEN);
        assert_eq!(Code::RateLimited.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(
            Problem::from(&GameError::NotYourTurn).code.status(),
            StatusCode::BAD_REQUEST
        );
        assert!(
            Code::ALL
                .iter()
                .all(|c| c.status().is_client_error() || c.status().is_server_error())
        );
    }
}
