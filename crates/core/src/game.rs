//! A game as a state machine (R4-R6): fed commands with plain timestamps, it answers with
//! events or a typed refusal. It decides every rule; whoever drives it (the server's room,
//! a bot, a test) only relays.
//!
//! Clocks follow lichess: each side's first move is not timed, so a side's clock first runs
//! on its second move; a game in which not both sides have moved can be aborted, one in which
//! both have can be resigned. A move that arrives after its flag fell (by the timestamps) is
//! refused and the flag applied.

use std::time::Duration;

use crate::clock::{Clock, FlagFell, TimeControl};
use crate::pgn::{GameRecord, GameResult, RecordedMove};
use crate::{ByColor, Color, Move, Outcome, Position, SanError, SanPlus, UciMove};

/// A point in time, in milliseconds on the caller's clock (any fixed origin).
pub type Millis = u64;

/// How a player names a move.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MoveText {
    Uci(String),
    San(String),
}

/// What a player asks of the game.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Command {
    /// A move, optionally with a draw offer attached (R5.1).
    Move {
        by: Color,
        text: MoveText,
        offer_draw: bool,
        /// What the sender measured, for lag compensation (R6).
        timing: MoveTiming,
    },
    /// A draw offer on one's own turn; it stands once the move is made (R5.1).
    OfferDraw {
        by: Color,
    },
    AcceptDraw {
        by: Color,
    },
    DeclineDraw {
        by: Color,
    },
    /// "Yes to a draw" as lichess's Board API says it: accepts the opponent's standing offer
    /// if there is one, else offers (R5) — decided on the game as it is when the command
    /// arrives, so nothing can land between the look and the act.
    AgreeDraw {
        by: Color,
    },
    /// A claim of threefold repetition or the fifty-move rule, on the position on the board
    /// or on the one the given move would make (R4.4, R4.5).
    ClaimDraw {
        by: Color,
        with_move: Option<MoveText>,
    },
    Resign {
        by: Color,
    },
    /// Berserk, in an arena that allows it (the server decides where): before one's first
    /// move, half one's time and no increment for the rest of the game.
    Berserk {
        by: Color,
    },
    /// `by` gives the opponent [`GIFT`] on their clock (lichess's "+15 seconds"): the game
    /// on, a clock of periods (not correspondence, an hourglass or none).
    GiveTime {
        by: Color,
    },
    /// The opponent left on their own turn and has been away `opponent_away` (the caller
    /// measures presence; the rule of how long is enough is here).
    ClaimVictory {
        by: Color,
        opponent_away: Duration,
    },
    Abort {
        by: Color,
    },
}

/// What is known of a move's journey, for lag compensation (R6). The server's watch runs
/// from sending the opponent's move to receiving this one, so it includes the round trip;
/// the lag is that watch minus the player's own thinking time when the client reports it,
/// else the round trip the server measured. The clock credits it up to the side's quota
/// ([`crate::clock::LagQuota`]), so a client that reports less thinking than it did gains no
/// more than that quota.
#[derive(Debug, Copy, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoveTiming {
    /// How long the client says its player thought on this move.
    pub think: Option<Duration>,
    /// The connection's round trip as the server last measured it.
    pub round_trip: Option<Duration>,
}

impl MoveTiming {
    /// The lag measured on a move that took `elapsed` on the server's watch.
    pub fn lag(&self, elapsed: Duration) -> Duration {
        let lag = match (self.think, self.round_trip) {
            (Some(think), _) => elapsed.saturating_sub(think),
            (None, Some(round_trip)) => round_trip,
            (None, None) => Duration::ZERO,
        };
        lag.min(elapsed)
    }
}

/// How a game ended.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Termination {
    Checkmate,
    Stalemate,
    /// Neither side can mate (R4.2).
    InsufficientMaterial,
    FivefoldRepetition,
    SeventyFiveMoves,
    ThreefoldRepetitionClaimed,
    FiftyMovesClaimed,
    Agreement,
    Resignation,
    /// The opponent left on their own turn and did not come back.
    Abandonment,
    /// A flag fell; a loss, or a draw when the other side cannot mate (R6).
    TimeForfeit,
    Aborted,
    /// A recorded game whose record does not show how it ended (an imported `*` game whose
    /// moves end nothing; PGN's "unterminated").
    Unterminated,
}

impl Termination {
    /// Every termination, for tables and tests.
    pub const ALL: [Termination; 13] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::InsufficientMaterial,
        Termination::FivefoldRepetition,
        Termination::SeventyFiveMoves,
        Termination::ThreefoldRepetitionClaimed,
        Termination::FiftyMovesClaimed,
        Termination::Agreement,
        Termination::Resignation,
        Termination::Abandonment,
        Termination::TimeForfeit,
        Termination::Aborted,
        Termination::Unterminated,
    ];

    /// Lowercase words for status lines and PGN.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::FivefoldRepetition => "fivefold repetition",
            Termination::SeventyFiveMoves => "seventy-five-move rule",
            Termination::ThreefoldRepetitionClaimed => "threefold repetition",
            Termination::FiftyMovesClaimed => "fifty-move rule",
            Termination::Agreement => "agreement",
            Termination::Resignation => "resignation",
            Termination::Abandonment => "abandonment",
            Termination::TimeForfeit => "time forfeit",
            Termination::Aborted => "aborted",
            Termination::Unterminated => "unterminated",
        }
    }

    /// The end a position's own outcome makes (R4): checkmate a win, stalemate and a dead
    /// position draws.
    pub fn of_outcome(outcome: Outcome) -> (GameResult, Termination) {
        match outcome {
            Outcome::Checkmate {
                winner: Color::White,
            } => (GameResult::WhiteWins, Termination::Checkmate),
            Outcome::Checkmate {
                winner: Color::Black,
            } => (GameResult::BlackWins, Termination::Checkmate),
            Outcome::Stalemate => (GameResult::Draw, Termination::Stalemate),
            Outcome::InsufficientMaterial => (GameResult::Draw, Termination::InsufficientMaterial),
        }
    }

    /// The termination [`Termination::as_str`] names.
    pub fn parse(text: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.as_str() == text)
    }

    /// The PGN `Termination` tag, as lichess writes it: "Normal" for an end on the board or
    /// by the players' will, "Time forfeit", "Abandoned" (lichess's word for an abort and
    /// for a player who left), "Unterminated".
    pub fn pgn_tag(self) -> &'static str {
        match self {
            Termination::TimeForfeit => "Time forfeit",
            Termination::Aborted | Termination::Abandonment => "Abandoned",
            Termination::Unterminated => "Unterminated",
            _ => "Normal",
        }
    }

    /// How a recorded game ended when its moves do not show it, from its PGN `Termination`
    /// tag (any case; missing is "Normal") and result: the inverse of
    /// [`Termination::pgn_tag`] for such ends. A decisive "Normal" game was resigned, a
    /// drawn one agreed; a `*` game is unterminated unless the tag says it was abandoned
    /// (an abort). An end the moves show wins over this ([`Game::restore_end`]).
    pub fn from_pgn_tag(tag: Option<&str>, result: GameResult) -> Termination {
        let tag = tag.unwrap_or("normal").trim().to_ascii_lowercase();
        match (tag.as_str(), result) {
            ("abandoned", GameResult::Unknown) => Termination::Aborted,
            (_, GameResult::Unknown) => Termination::Unterminated,
            ("time forfeit", _) => Termination::TimeForfeit,
            ("abandoned", _) => Termination::Abandonment,
            (_, GameResult::Draw) => Termination::Agreement,
            _ => Termination::Resignation,
        }
    }
}

/// What happened, with what a client needs to redraw without asking again.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Event {
    MovePlayed {
        by: Color,
        /// 1-based.
        ply: usize,
        san: String,
        uci: String,
        fen: String,
        /// Each side's time left after the move (`None` when untimed).
        clocks: ByColor<Option<Duration>>,
    },
    DrawOffered {
        by: Color,
    },
    DrawDeclined {
        by: Color,
    },
    /// `by` went berserk: half his time, no increment.
    Berserked {
        by: Color,
    },
    /// `by` gave the opponent [`GIFT`]; each side's time left now.
    TimeGiven {
        by: Color,
        clocks: ByColor<Option<Duration>>,
    },
    GameOver {
        result: GameResult,
        termination: Termination,
    },
}

/// Why a command was refused. The game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameError {
    NotYourTurn,
    GameIsOver,
    IllegalMove(SanError),
    /// R5.4: the last offer of this player was declined and the opponent has not offered since.
    OfferBlocked,
    /// R5.2: an offer stands already.
    OfferAlreadyMade,
    NoOfferToAnswer,
    NoThreefold {
        occurrences: usize,
    },
    NoFiftyMoves {
        moves: u32,
    },
    AbortTooLate,
    ResignTooEarly,
    /// A victory claim too early, or on one's own turn.
    OpponentNotGone {
        wait: Duration,
    },
    /// Berserk after one's first move, twice, or with a clock that has no simple base time.
    CannotBerserk,
    /// Time given where no clock of periods runs.
    CannotGiveTime,
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameError::NotYourTurn => f.write_str("it is not your turn"),
            GameError::GameIsOver => f.write_str("the game is over"),
            GameError::IllegalMove(e) => e.fmt(f),
            GameError::OfferBlocked => {
                f.write_str("you offered a draw already; wait for your opponent's offer")
            }
            GameError::OfferAlreadyMade => f.write_str("a draw offer stands already"),
            GameError::NoOfferToAnswer => f.write_str("there is no draw offer to answer"),
            GameError::NoThreefold { occurrences } => {
                let times = match occurrences {
                    1 => "once".to_owned(),
                    2 => "twice".to_owned(),
                    n => format!("{n} times"),
                };
                write!(
                    f,
                    "no threefold repetition: this position has occurred {times}"
                )
            }
            GameError::NoFiftyMoves { moves } => write!(
                f,
                "no fifty-move rule: {moves} moves by each side without a capture or pawn move"
            ),
            GameError::AbortTooLate => {
                f.write_str("both sides have moved: the game can be resigned, not aborted")
            }
            GameError::OpponentNotGone { wait } => write!(
                f,
                "your opponent may still come back: a win can be claimed after {} s away on their turn",
                wait.as_secs()
            ),
            GameError::CannotBerserk => f.write_str(
                "berserk: only in an arena that allows it, once, before your first move, with a clock of minutes",
            ),
            GameError::ResignTooEarly => {
                f.write_str("the game has not started: it can be aborted, not resigned")
            }
            GameError::CannotGiveTime => {
                f.write_str("time can be given only in a game with a clock of minutes")
            }
        }
    }
}

impl std::error::Error for GameError {}

/// One move as played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedMove {
    pub m: Move,
    pub san: SanPlus,
    /// The mover's time left after the move (`None` untimed).
    pub clock: Option<Duration>,
    /// Time the move took on the mover's clock (zero for untimed first moves), the lag
    /// credited not included.
    pub elapsed: Duration,
    /// The network lag credited to the move (R6); the server's watch ran `elapsed + lag`.
    pub lag: Duration,
    pub at: Millis,
}

/// The draw-offer state (R5): rule state that the moves alone do not show, so a game
/// resumed from its record (after a restart) must be given it back
/// ([`Game::restore_draw_offers`]) to go on exactly as it stood.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawOffers {
    /// An offer made on the offerer's turn, waiting for the offerer's move (R5.1).
    pub pending: Option<Color>,
    /// An offer the opponent may accept or decline.
    pub standing: Option<Color>,
    /// Whether each side may offer (R5.4: not again until the opponent has offered).
    pub may_offer: ByColor<bool>,
}

impl Default for DrawOffers {
    /// No offer, and both sides may make one.
    fn default() -> DrawOffers {
        DrawOffers {
            pending: None,
            standing: None,
            may_offer: ByColor {
                white: true,
                black: true,
            },
        }
    }
}

impl DrawOffers {
    /// A short text to store: `pending=- standing=w may=wb` (`-` for none; `may` lists the
    /// sides that may offer).
    pub fn to_text(&self) -> String {
        let side = |c: Option<Color>| c.map_or("-", |c| c.fold("w", "b"));
        let may = match (self.may_offer.white, self.may_offer.black) {
            (true, true) => "wb",
            (true, false) => "w",
            (false, true) => "b",
            (false, false) => "-",
        };
        format!(
            "pending={} standing={} may={may}",
            side(self.pending),
            side(self.standing)
        )
    }

    /// Reads [`DrawOffers::to_text`]'s form; `None` for anything else.
    pub fn parse(text: &str) -> Option<DrawOffers> {
        let side = |s: &str| match s {
            "-" => Some(None),
            "w" => Some(Some(Color::White)),
            "b" => Some(Some(Color::Black)),
            _ => None,
        };
        let mut fields = text.split(' ');
        let pending = side(fields.next()?.strip_prefix("pending=")?)?;
        let standing = side(fields.next()?.strip_prefix("standing=")?)?;
        let may = fields.next()?.strip_prefix("may=")?;
        if fields.next().is_some() || !matches!(may, "wb" | "w" | "b" | "-") {
            return None;
        }
        Some(DrawOffers {
            pending,
            standing,
            may_offer: ByColor {
                white: may.contains('w'),
                black: may.contains('b'),
            },
        })
    }
}

/// How long an untimed game between people may wait for a move ([`Game::idle_deadline`]).
pub const IDLE_BETWEEN_PEOPLE: Duration = Duration::from_secs(21 * 24 * 3600);
/// How long an untimed game against a bot may wait for a move.
pub const IDLE_AGAINST_BOT: Duration = Duration::from_secs(6 * 3600);

/// What [`Command::GiveTime`] gives.
pub const GIFT: Duration = Duration::from_secs(15);

/// Time given to the opponent ([`Command::GiveTime`]): by whom, after how many moves.
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Gift {
    pub by: Color,
    /// Moves played when it was given.
    pub plies: usize,
}

/// A game of chess: moves, clocks, offers, claims and its end.
#[derive(Debug, Clone)]
pub struct Game {
    start: Position,
    position: Position,
    clock: Clock,
    moves: Vec<PlayedMove>,
    /// Hash of every position so far, the start included (R4.4).
    hashes: Vec<u64>,
    /// When the side to move began thinking, once its clock runs.
    turn_started: Option<Millis>,
    offers: DrawOffers,
    result: Option<(GameResult, Termination)>,
    /// Time given, in order ([`Command::GiveTime`]).
    gifts: Vec<Gift>,
}

impl Game {
    /// A new game from `start` under `control`. A start that is over already (checkmate,
    /// stalemate, a dead position, the 75-move count reached: R4) makes a game that is over
    /// at once, with that result; a server refuses such starts ([`Game::is_over`]).
    pub fn new(start: Position, control: TimeControl) -> Game {
        let mut game = Game::fresh(start, control);
        if let Some((result, termination)) = game.automatic_end() {
            game.result = Some((result, termination));
        }
        game
    }

    fn fresh(start: Position, control: TimeControl) -> Game {
        Game {
            start,
            position: start,
            clock: Clock::new(control),
            moves: Vec::new(),
            hashes: vec![start.zobrist()],
            turn_started: None,
            offers: DrawOffers::default(),
            result: None,
            gifts: Vec::new(),
        }
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The result and how the game ended, once it has.
    pub fn result(&self) -> Option<(GameResult, Termination)> {
        self.result
    }

    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// The whole draw-offer state, for a record that must resume the game exactly.
    pub fn draw_offers(&self) -> DrawOffers {
        self.offers
    }

    /// Gives a game rebuilt from its moves the draw-offer state it had (the moves alone
    /// cannot show it). Ignored once the game is over, which has no offers.
    pub fn restore_draw_offers(&mut self, offers: DrawOffers) {
        if !self.is_over() {
            self.offers = offers;
        }
    }

    /// The standing draw offer, if any.
    pub fn draw_offer(&self) -> Option<Color> {
        self.offers.standing
    }

    /// Whether `color` may offer a draw now (R5.1, R5.4).
    pub fn may_offer_draw(&self, color: Color) -> bool {
        !self.is_over() && self.offers.may_offer[color] && self.offers.standing.is_none()
    }

    /// Whether `color` may offer a draw right now (R5.1, R5.2, R5.4): the game is on, it is
    /// their turn, no offer is pending or standing, and they are not barred from offering.
    pub fn may_offer_draw_now(&self, color: Color) -> bool {
        self.position.turn() == color && self.offers.pending.is_none() && self.may_offer_draw(color)
    }

    /// Whether `color` may accept or decline a draw now: the opponent's offer stands.
    pub fn may_answer_draw(&self, color: Color) -> bool {
        !self.is_over() && self.offers.standing == Some(!color)
    }

    /// The Zobrist hash of every position of the game so far, the start first and the
    /// current one last (what repetitions are counted from).
    pub fn position_hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// Whether a player may abort now: the game is on and has not started.
    pub fn may_abort(&self) -> bool {
        !self.is_over() && !self.has_started()
    }

    /// Whether a player may resign now: the game is on and has started.
    pub fn may_resign(&self) -> bool {
        !self.is_over() && self.has_started()
    }

    /// Whether `color` may claim a draw on the position on the board now: it is their turn
    /// and the position has stood three times, or fifty moves passed without a capture or a
    /// pawn move (R4.4, R4.5). A claim with a move may succeed when this is false.
    pub fn may_claim_draw(&self, color: Color) -> bool {
        !self.is_over()
            && self.position.turn() == color
            && (self.occurrences(&self.position) >= 3 || self.position.halfmoves() >= 100)
    }

    /// Both sides have moved: the clocks run, abort gives way to resignation.
    pub fn has_started(&self) -> bool {
        self.moves.len() >= 2
    }

    /// Whether `color` may go berserk now ([`Command::Berserk`]): the game on, his first
    /// move not made, a clock that allows it ([`Clock::can_berserk`]).
    pub fn may_berserk(&self, color: Color) -> bool {
        !self.is_over() && !self.has_moved(color) && self.clock.can_berserk(color)
    }

    /// Whether `color` may give the opponent time now ([`Command::GiveTime`]).
    pub fn may_give_time(&self) -> bool {
        !self.is_over() && self.clock.can_give()
    }

    /// The time given in this game, in order.
    pub fn gifts(&self) -> &[Gift] {
        &self.gifts
    }

    /// Whether `color` has made a move in this game.
    pub fn has_moved(&self, color: Color) -> bool {
        let first = self.start.turn();
        self.moves.len() >= if color == first { 1 } else { 2 }
    }

    /// Each side's time left at `now` (the side to move's clock running).
    pub fn clocks_at(&self, now: Millis) -> ByColor<Option<Duration>> {
        ByColor::new_with(|c| {
            if !self.clock.is_timed() {
                return None;
            }
            match self.turn_started {
                Some(t) if c == self.position.turn() && !self.is_over() => Some(
                    self.clock
                        .remaining_after(c, Duration::from_millis(now.saturating_sub(t))),
                ),
                _ => Some(self.clock.remaining(c)),
            }
        })
    }

    /// When the side to move began thinking (on the caller's clock), once its clock runs:
    /// with [`Game::resume`], what carries a running game to another process exactly.
    pub fn turn_started(&self) -> Option<Millis> {
        self.turn_started
    }

    /// Restarts the running clock after a server restart (docs/RULES.md R6): at `now`,
    /// without charging the time since it last ran, so nobody loses on time to downtime —
    /// except in correspondence, whose days are calendar days: there the clock runs from
    /// `turn_began`, when the last move was made, and a flag that fell meanwhile is due.
    /// An untimed game's turn also runs from `turn_began`: it has no clock to charge, and
    /// its idle time ([`Game::idle_deadline`]) counts on the calendar.
    pub fn resume(&mut self, now: Millis, turn_began: Millis) {
        if self.turn_started.is_some() && !self.is_over() {
            let calendar = self.clock.control().runs_on_calendar();
            self.turn_started = Some(if calendar { turn_began } else { now });
        }
    }

    /// Ends a game rebuilt from a record whose moves do not show its end (a resignation, an
    /// agreement, a flag): the recorded result stands. Nothing changes if the moves ended
    /// the game already, or if the result is `*` for anything but an abort.
    pub fn restore_end(&mut self, result: GameResult, termination: Termination) {
        let finished = result != GameResult::Unknown
            || matches!(
                termination,
                Termination::Aborted | Termination::Unterminated
            );
        if self.result.is_none() && finished {
            self.end(result, termination);
        }
    }

    /// How long a player must be gone on their own turn before the opponent may claim the
    /// win: a tenth of the base time, between 15 and 60 seconds (60 untimed), as lichess
    /// scales it by speed.
    pub fn abandonment_wait(&self) -> Duration {
        let base = match self.clock.control() {
            TimeControl::Periods(p) => p[0].base + p[0].increment * 40,
            TimeControl::Sandclock(d) => *d,
            TimeControl::Untimed => return Duration::from_secs(60),
            // Days away are a correspondence player's right: the move's days are the wait.
            TimeControl::Correspondence(days) => {
                return crate::clock::DAY * *days;
            }
        };
        (base / 10).clamp(Duration::from_secs(15), Duration::from_secs(60))
    }

    /// When the side to move's flag falls, if its clock runs.
    pub fn next_deadline(&self) -> Option<Millis> {
        if self.is_over() {
            return None;
        }
        let start = self.turn_started?;
        let turn = self.position.turn();
        // The flag waits the lag grace for a move that may be on its way (R6).
        let allowance = self.clock.allowance(turn)? + self.clock.lag_quota(turn).grace();
        Some(start + allowance.as_millis() as u64)
    }

    /// When an untimed game nobody moves in is over, abandoned: 21 days after the last move
    /// between people, 6 hours against a bot (docs/RULES.md R4). Not a rule of the seeds:
    /// lichess's online decision (its `abandonedDays` and `aiAbandonedHours`), so such a game
    /// cannot hold a seat and a room for ever. A timed game ends by its flag instead, and one
    /// not started yet is the server's to abort.
    pub fn idle_deadline(&self, against_bot: bool) -> Option<Millis> {
        if self.is_over() || !matches!(self.clock.control(), TimeControl::Untimed) {
            return None;
        }
        let limit = if against_bot {
            IDLE_AGAINST_BOT
        } else {
            IDLE_BETWEEN_PEOPLE
        };
        Some(self.turn_started? + limit.as_millis() as u64)
    }

    /// Ends the game as abandoned if its [`Game::idle_deadline`] passed by `now`: a draw
    /// (nobody won; lichess finishes it with no winner), PGN termination "Abandoned".
    pub fn end_if_idle(&mut self, now: Millis, against_bot: bool) -> Vec<Event> {
        match self.idle_deadline(against_bot) {
            Some(deadline) if now >= deadline => {
                self.end(GameResult::Draw, Termination::Abandonment)
            }
            _ => Vec::new(),
        }
    }

    /// Applies the flag fall if it became due by `now`. Returns the events and the next
    /// deadline, so a caller can sleep exactly until it.
    pub fn tick(&mut self, now: Millis) -> (Vec<Event>, Option<Millis>) {
        let events = match self.next_deadline() {
            Some(deadline) if now >= deadline => self.flag(),
            _ => Vec::new(),
        };
        (events, self.next_deadline())
    }

    /// R6: the side to move ran out of time; its clock shows zero.
    fn flag(&mut self) -> Vec<Event> {
        let loser = self.position.turn();
        self.clock.run_out(loser);
        let result = if self.position.can_mate(!loser) {
            if loser == Color::White {
                GameResult::BlackWins
            } else {
                GameResult::WhiteWins
            }
        } else {
            GameResult::Draw
        };
        self.end(result, Termination::TimeForfeit)
    }

    fn end(&mut self, result: GameResult, termination: Termination) -> Vec<Event> {
        self.result = Some((result, termination));
        self.offers.pending = None;
        self.offers.standing = None;
        vec![Event::GameOver {
            result,
            termination,
        }]
    }

    /// Feeds a command at time `now`.
    ///
    /// # Errors
    /// A [`GameError`] saying why; the game is then unchanged.
    pub fn apply(&mut self, command: Command, now: Millis) -> Result<Vec<Event>, GameError> {
        if self.is_over() {
            return Err(GameError::GameIsOver);
        }
        // A flag that fell before this command wins over it (R6).
        if self.next_deadline().is_some_and(|d| now >= d) {
            return Ok(self.flag());
        }
        match command {
            Command::Move {
                by,
                text,
                offer_draw,
                timing,
            } => self.play(by, &text, offer_draw, timing, now),
            Command::OfferDraw { by } => self.offer(by),
            Command::AcceptDraw { by } => {
                if self.offers.standing != Some(!by) {
                    return Err(GameError::NoOfferToAnswer);
                }
                Ok(self.end(GameResult::Draw, Termination::Agreement))
            }
            Command::AgreeDraw { by } if self.offers.standing == Some(!by) => {
                Ok(self.end(GameResult::Draw, Termination::Agreement))
            }
            Command::AgreeDraw { by } => self.offer(by),
            Command::DeclineDraw { by } => {
                if self.offers.standing != Some(!by) {
                    return Err(GameError::NoOfferToAnswer);
                }
                Ok(self.decline())
            }
            Command::ClaimDraw { by, with_move } => self.claim(by, with_move.as_ref(), now),
            Command::ClaimVictory { by, opponent_away } => {
                let wait = self.abandonment_wait();
                if self.position.turn() == by || !self.has_started() || opponent_away < wait {
                    return Err(GameError::OpponentNotGone { wait });
                }
                // As on flag fall (R6): a win, or a draw when the claimant cannot mate.
                let result = if !self.position.can_mate(by) {
                    GameResult::Draw
                } else if by == Color::White {
                    GameResult::WhiteWins
                } else {
                    GameResult::BlackWins
                };
                Ok(self.end(result, Termination::Abandonment))
            }
            Command::Berserk { by } => {
                if self.has_moved(by) || !self.clock.berserk(by) {
                    return Err(GameError::CannotBerserk);
                }
                Ok(vec![Event::Berserked { by }])
            }
            Command::GiveTime { by } => {
                if !self.clock.give(!by, GIFT) {
                    return Err(GameError::CannotGiveTime);
                }
                self.gifts.push(Gift {
                    by,
                    plies: self.moves.len(),
                });
                Ok(vec![Event::TimeGiven {
                    by,
                    clocks: self.clocks_at(now),
                }])
            }
            Command::Resign { by } => {
                if !self.has_started() {
                    return Err(GameError::ResignTooEarly);
                }
                let result = if by == Color::White {
                    GameResult::BlackWins
                } else {
                    GameResult::WhiteWins
                };
                Ok(self.end(result, Termination::Resignation))
            }
            Command::Abort { .. } => {
                if self.has_started() {
                    return Err(GameError::AbortTooLate);
                }
                Ok(self.end(GameResult::Unknown, Termination::Aborted))
            }
        }
    }

    /// R5.3, R5.4: the standing offer is declined; its maker may not offer again until the
    /// other side has offered (and been declined).
    fn decline(&mut self) -> Vec<Event> {
        let Some(offerer) = self.offers.standing.take() else {
            return Vec::new();
        };
        self.offers.may_offer[offerer] = false;
        self.offers.may_offer[!offerer] = true;
        vec![Event::DrawDeclined { by: !offerer }]
    }

    fn offer(&mut self, by: Color) -> Result<Vec<Event>, GameError> {
        if self.position.turn() != by {
            return Err(GameError::NotYourTurn);
        }
        if self.offers.standing.is_some() || self.offers.pending.is_some() {
            return Err(GameError::OfferAlreadyMade);
        }
        if !self.offers.may_offer[by] {
            return Err(GameError::OfferBlocked);
        }
        // R5.1: made on one's own turn, it stands when the move is made.
        self.offers.pending = Some(by);
        Ok(Vec::new())
    }

    fn parse_move(&self, text: &MoveText) -> Result<Move, GameError> {
        match text {
            MoveText::Uci(t) => t
                .parse::<UciMove>()
                .map_err(|e| GameError::IllegalMove(SanError::Syntax(e.0)))?
                .to_move(&self.position)
                .map_err(|e| GameError::IllegalMove(SanError::Illegal(e))),
            MoveText::San(t) => self.position.parse_san(t).map_err(GameError::IllegalMove),
        }
    }

    fn play(
        &mut self,
        by: Color,
        text: &MoveText,
        offer_draw: bool,
        timing: MoveTiming,
        now: Millis,
    ) -> Result<Vec<Event>, GameError> {
        if self.position.turn() != by {
            return Err(GameError::NotYourTurn);
        }
        let m = self.parse_move(text)?;
        // An offer with the move: allowed unless blocked (R5.4). Declining the opponent's
        // standing offer, which this very move does, lifts the block.
        if offer_draw
            && self.offers.pending.is_none()
            && !self.offers.may_offer[by]
            && self.offers.standing != Some(!by)
        {
            return Err(GameError::OfferBlocked);
        }
        // Each side's first move is not timed (R6); a timed one is credited its lag.
        let (elapsed, lag) = match self.turn_started {
            None => match self.clock.press(by, Duration::ZERO) {
                Ok(()) => (Duration::ZERO, Duration::ZERO),
                Err(FlagFell) => return Ok(self.flag()),
            },
            Some(t) => {
                let watch = Duration::from_millis(now.saturating_sub(t));
                match self.clock.press_with_lag(by, watch, timing.lag(watch)) {
                    Ok(lag) => (watch - lag, lag),
                    // Past the allowance, within the grace, without lag enough to cover it.
                    Err(FlagFell) => return Ok(self.flag()),
                }
            }
        };
        let mut events = Vec::new();
        // R5.3: a move declines the opponent's standing offer.
        if self.offers.standing == Some(!by) {
            events.extend(self.decline());
        }
        let san = SanPlus::of_and_play(&mut self.position, m);
        self.hashes.push(self.position.zobrist());
        let clock = self.clock.is_timed().then(|| self.clock.remaining(by));
        self.moves.push(PlayedMove {
            m,
            san,
            clock,
            elapsed,
            lag,
            at: now,
        });
        self.turn_started = (self.moves.len() >= 2).then_some(now);
        events.push(Event::MovePlayed {
            by,
            ply: self.moves.len(),
            san: san.to_string(),
            uci: m.to_uci().to_string(),
            fen: self.position.fen(),
            clocks: ByColor::new_with(|c| self.clock.is_timed().then(|| self.clock.remaining(c))),
        });
        if offer_draw || self.offers.pending == Some(by) {
            self.offers.pending = None;
            self.offers.standing = Some(by);
            events.push(Event::DrawOffered { by });
        }
        if let Some((result, termination)) = self.automatic_end() {
            events.extend(self.end(result, termination));
        }
        Ok(events)
    }

    /// Endings that need no claim: checkmate (which stands even on the 75th move),
    /// stalemate, dead position, the 75-move rule, fivefold repetition (R4).
    fn automatic_end(&self) -> Option<(GameResult, Termination)> {
        let pos = &self.position;
        if let Some(outcome) = pos.outcome() {
            return Some(Termination::of_outcome(outcome));
        }
        if pos.halfmoves() >= 150 {
            return Some((GameResult::Draw, Termination::SeventyFiveMoves));
        }
        if self.occurrences(pos) >= 5 {
            return Some((GameResult::Draw, Termination::FivefoldRepetition));
        }
        None
    }

    /// How many times `pos` has stood in this game, by the identity of R4.4 (hashes find the
    /// candidates, a replay confirms them).
    fn occurrences(&self, pos: &Position) -> usize {
        let hash = pos.zobrist();
        let candidates = self.hashes.iter().filter(|h| **h == hash).count();
        // The position on the board, standing once: nothing to confirm. This is the common
        // case after every move (the fivefold check, the claims the view offers), and a
        // replay of the whole game for it was a cost of every move (issue 55).
        if candidates == 0
            || (candidates == 1
                && self.hashes.last() == Some(&hash)
                && pos.repetition_key() == self.position.repetition_key())
        {
            return candidates;
        }
        let key = pos.repetition_key();
        let mut replay = self.start;
        let mut count = usize::from(replay.repetition_key() == key);
        for played in &self.moves {
            replay.play_unchecked(played.m);
            count += usize::from(replay.zobrist() == hash && replay.repetition_key() == key);
        }
        count
    }

    fn claim(
        &mut self,
        by: Color,
        with_move: Option<&MoveText>,
        now: Millis,
    ) -> Result<Vec<Event>, GameError> {
        if self.position.turn() != by {
            return Err(GameError::NotYourTurn);
        }
        let (target, m) = match with_move {
            None => (self.position, None),
            Some(text) => {
                let m = self.parse_move(text)?;
                (self.position.after(m), Some(m))
            }
        };
        // The position the move would make counts once more than it has stood.
        let occurrences = self.occurrences(&target) + usize::from(m.is_some());
        let threefold = occurrences >= 3;
        let fifty = target.halfmoves() >= 100;
        if !threefold && !fifty {
            return Err(if target.halfmoves() >= 80 {
                GameError::NoFiftyMoves {
                    moves: target.halfmoves() / 2,
                }
            } else {
                GameError::NoThreefold { occurrences }
            });
        }
        let mut events = Vec::new();
        if let Some(m) = m {
            let uci = MoveText::Uci(m.to_uci().to_string());
            events = self.play(by, &uci, false, MoveTiming::default(), now)?;
            if self.is_over() {
                // The move itself ended the game (mate stands over a claim).
                return Ok(events);
            }
        }
        let termination = if threefold {
            Termination::ThreefoldRepetitionClaimed
        } else {
            Termination::FiftyMovesClaimed
        };
        events.extend(self.end(GameResult::Draw, termination));
        Ok(events)
    }

    /// A finished game rebuilt from its record: every move replayed through the rules,
    /// then the recorded end where the moves do not show one ([`Termination::from_pgn_tag`]).
    /// An end the moves show stands over the record's result: a `*` game that ends in mate
    /// is a win. The record's times are not replayed (a record is what happened, and its
    /// `[%emt]` may not fit its clock), so no flag falls.
    ///
    /// # Errors
    /// The 1-based ply of the first move the rules refuse, with why: an illegal move, or one
    /// played after the game had ended by itself (fivefold repetition, the 75-move rule,
    /// mate, R4).
    pub fn from_record(record: &GameRecord) -> Result<Game, (usize, GameError)> {
        let control = record
            .tags
            .get("TimeControl")
            .and_then(|tc| TimeControl::from_pgn(tc).ok())
            .unwrap_or(TimeControl::Untimed);
        let mut game = Game::new(record.start, control);
        for (i, rm) in record.moves.iter().enumerate() {
            let command = Command::Move {
                by: game.position.turn(),
                text: MoveText::Uci(rm.m.to_uci().to_string()),
                offer_draw: false,
                timing: Default::default(),
            };
            game.apply(command, 0).map_err(|e| (i + 1, e))?;
        }
        let termination = Termination::from_pgn_tag(record.tags.get("Termination"), record.result);
        game.restore_end(record.result, termination);
        Ok(game)
    }

    /// The game as a PGN record: moves with SAN and clocks, result, and the TimeControl and
    /// Termination tags. The caller adds players, event and dates.
    pub fn to_record(&self) -> GameRecord {
        let mut record = GameRecord {
            start: self.start,
            ..GameRecord::new()
        };
        record
            .tags
            .set("TimeControl", self.clock.control().to_pgn());
        if let Some((result, termination)) = self.result {
            record.result = result;
            record.tags.set("Termination", termination.pgn_tag());
        }
        record.moves = self
            .moves
            .iter()
            .map(|p| RecordedMove {
                m: p.m,
                san: p.san,
                clock: p.clock,
                elapsed: None,
                comments: Vec::new(),
                nags: Vec::new(),
            })
            .collect();
        record
    }
}
