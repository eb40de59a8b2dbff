//! Refusals as clients see them, on the socket and over HTTP: a stable code from [`CODES`]
//! (pages translate it), the English sentence, and the figure some sentences need. Below the
//! rooms and the protocol, so both may speak of a refusal.

use rookery_core::game::GameError;
use serde::Serialize;

/// A refusal as a client sees it, on the socket (`error` frames) and over HTTP (`{"error"}`
/// bodies): a stable `code` that pages translate (`err_<code>` in web/i18n.json, so a
/// Chinese page shows a Chinese sentence), the sentence in English, and the figure some
/// sentences need (`n`: occurrences, moves, seconds).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Problem {
    pub(crate) code: &'static str,
    pub(crate) message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) n: Option<u64>,
}

/// Every code a refusal can carry (docs/PROTOCOL.md, "Errors"); each has its sentence in
/// every page language.
pub(crate) const CODES: &[&str] = &[
    "not_your_turn",
    "game_over",
    "illegal_move",
    "offer_barred",
    "offer_stands",
    "no_offer",
    "no_threefold",
    "no_fifty_moves",
    "abort_too_late",
    "resign_too_early",
    "opponent_not_gone",
    "not_saved",
    "room_closed",
    "not_over",
    "waiting",
    "malformed",
    "slow_down",
    "spectator",
    "not_found",
    "no_seat",
    "seated_already",
    "seats_taken",
    "bad_time_control",
    "bad_fen",
    "bad_request",
    "position_over",
    "bad_pgn",
    "import_refused",
    "internal",
    "cross_site",
    "name_length",
    "name_characters",
    "name_reserved",
    "name_taken",
    "password_short",
    "password_long",
    "wrong_password",
    "rate_limited",
    "bad_token",
    "admin_only",
    "reset_invalid",
    "bad_scope",
    "not_rateable",
    "rated_needs_account",
    "unknown_pool",
    "no_ticket",
    "rating_out_of_range",
    "analysis_needs_end",
    "chat_muted",
    "unavailable",
];

impl Problem {
    /// `code` must be one of [`CODES`].
    pub(crate) fn new(code: &'static str, message: impl Into<String>) -> Problem {
        debug_assert!(CODES.contains(&code), "unlisted code {code}");
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
            GameError::NotYourTurn => Problem::new("not_your_turn", message),
            GameError::GameIsOver => Problem::new("game_over", message),
            GameError::IllegalMove(_) => Problem::new("illegal_move", message),
            GameError::OfferBlocked => Problem::new("offer_barred", message),
            GameError::OfferAlreadyMade => Problem::new("offer_stands", message),
            GameError::NoOfferToAnswer => Problem::new("no_offer", message),
            GameError::NoThreefold { occurrences } => {
                Problem::new("no_threefold", message).with(*occurrences as u64)
            }
            GameError::NoFiftyMoves { moves } => {
                Problem::new("no_fifty_moves", message).with(u64::from(*moves))
            }
            GameError::AbortTooLate => Problem::new("abort_too_late", message),
            GameError::ResignTooEarly => Problem::new("resign_too_early", message),
            GameError::OpponentNotGone { wait } => {
                Problem::new("opponent_not_gone", message).with(wait.as_secs())
            }
        }
    }
}
