//! What a connection shows after a game event ([`View`]): worked out once by the room from
//! the core's answers, for every connection.

use rookery_core::game::Game;
use rookery_core::{ByColor, Color, Move, Position, San, Square};

/// What a connection shows after a game event, as the core says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct View {
    /// The side to move's legal moves; empty once the game is over.
    pub(crate) legal: Vec<Move>,
    pub(crate) turn: Color,
    pub(crate) can: ByColor<Can>,
    /// What the event did, the part that the history keeps too.
    pub(crate) moment: Moment,
    /// The opening played so far (lichess's names; none from a set-up position).
    pub(crate) opening: Option<&'static rookery_openings::Opening>,
    /// The position it was worked out on (what another node works it out again from).
    pub(crate) position: Position,
}

/// What a reader needs of one game event that the next events change, kept with the event
/// in the room's history (a few bytes, where a whole [`View`] would cost its legal moves), so
/// a reconnecting client replays each missed move as it was and a reader folds events
/// without asking for the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Moment {
    /// Whether the last move took a piece (the page plays its sound).
    pub(crate) capture: bool,
    /// Material after the event ([`View::material`]).
    pub(crate) material: i32,
    /// The square of the king in check, if the side to move is in check.
    pub(crate) check: Option<Square>,
    /// Whose clock runs.
    pub(crate) running: Option<Color>,
    /// Each side's time left as the event happened (a fallen flag's is zero).
    pub(crate) clocks: ByColor<Option<std::time::Duration>>,
    /// The side whose draw offer stands after the event.
    pub(crate) offer: Option<Color>,
    /// The game's end, once it is over.
    pub(crate) end: Option<(
        rookery_core::pgn::GameResult,
        rookery_core::game::Termination,
    )>,
}

/// What a player may do now (docs/RULES.md R4-R5; the core decides each).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Can {
    pub(crate) offer_draw: bool,
    /// The player may not offer again until the opponent has offered (R5.4): the page says
    /// why the offer is gone.
    pub(crate) offer_barred: bool,
    pub(crate) answer_draw: bool,
    pub(crate) claim_draw: bool,
    pub(crate) abort: bool,
    pub(crate) resign: bool,
    /// Go berserk (an arena's game that allows it, before one's first move).
    #[serde(default)]
    pub(crate) berserk: bool,
    /// Give the opponent time (lichess's "+15 seconds").
    #[serde(default)]
    pub(crate) moretime: bool,
}

impl View {
    /// The view of `game`; while it `waits` for an opponent, nobody may do anything but
    /// abort. Nobody is offered to offer a draw to a bot (seats in `bots`), which never
    /// accepts one.
    pub(crate) fn of(
        game: &Game,
        waits: bool,
        bots: ByColor<bool>,
        berserkable: bool,
        gifts: bool,
    ) -> View {
        let position = game.position();
        let turn = position.turn();
        let can = |color: Color| Can {
            offer_draw: !waits && !bots[!color] && game.may_offer_draw_now(color),
            offer_barred: !waits
                && !bots[!color]
                && !game.is_over()
                && !game.draw_offers().may_offer[color],
            answer_draw: !waits && game.may_answer_draw(color),
            claim_draw: !waits && game.may_claim_draw(color),
            abort: game.may_abort(),
            resign: !waits && game.may_resign(),
            berserk: berserkable && !waits && !bots[color] && game.may_berserk(color),
            moretime: gifts && !waits && !bots[!color] && game.may_give_time(),
        };
        View {
            legal: if game.is_over() || waits {
                Vec::new()
            } else {
                position.legal_moves().to_vec()
            },
            turn,
            can: ByColor {
                white: can(Color::White),
                black: can(Color::Black),
            },
            moment: Moment {
                capture: game
                    .moves()
                    .last()
                    .is_some_and(|m| matches!(m.san.san, San::Normal { capture: true, .. })),
                material: View::material(position),
                check: position.is_check().then(|| position.king_of(turn)),
                running: game.next_deadline().filter(|_| !waits).map(|_| turn),
                clocks: game.clocks_at(crate::wallclock::now_ms()),
                offer: game.draw_offer(),
                end: game.result(),
            },
            opening: opening_of(game),
            position: *position,
        }
    }

    /// Material on the board in points (R7 values, [`rookery_core::Role::value`]), White's
    /// minus Black's, as the page shows it beside the players.
    pub(crate) fn material(position: &Position) -> i32 {
        let points = position.board().points();
        points.white as i32 - points.black as i32
    }
}

/// The opening a game has played so far: the deepest named position of its first 40 plies,
/// found by the positions' hashes the game keeps (no replay); none from a set-up position.
pub(crate) fn opening_of(game: &Game) -> Option<&'static rookery_openings::Opening> {
    (*game.start() == Position::new())
        .then(|| rookery_openings::of_hashes(game.position_hashes()))
        .flatten()
}
