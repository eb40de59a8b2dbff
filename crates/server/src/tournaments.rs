//! Tournaments run by Rookery (docs/TOURNAMENTS.md): a Swiss by the FIDE Dutch system or a
//! round robin by the Berger tables, run by its arbiter, over the board or online. The event
//! itself (players, byes, boards, results, the next round's pairing, the standings) is the
//! pairing crate's [`Event`]; this module stores it (as JSON, migration 0019) with what only
//! an online tournament has (its clock, the players' accounts, each board's game), and takes
//! every change as one typed [`Action`] through [`act`], whatever the door (Rookery's API, the
//! pages, lichess's Swiss API), with the same checks: only the arbiter (or a player, for
//! himself) acts, and a change made at the same moment on another node is read again, never
//! lost.
//!
//! Online, a round's games are made through the one game request every door uses
//! ([`crate::new_game::make`]), their ids written with the pairing in the same change (so
//! that two nodes never make a board's game twice); [`sync`] pairs round 1 at its start,
//! forfeits absent players, takes the results of ended games into the event and pairs the
//! next round when it is due (`keeper.rs` calls it for every active tournament).

use rookery_pairing::event::{
    Board, Bye, Entrant, Event, EventError, Result as GameResult, System,
};
use rookery_pairing::tiebreak::{TieBreak, Value};
use rookery_pairing::trf::{Color, PointSystem};
use serde::{Deserialize, Serialize};

use rookery_core::ByColor;
use rookery_core::clock::TimeControl;
use rookery_core::pgn::GameResult as PgnResult;
use rookery_core::rating::ladder::{LadderPoints, LadderResult};
use rookery_core::rating::{RatedSeat, Speed, rateable};

use crate::new_game::{GameSpec, SeatSpec, Source, make};
use crate::refusal::{Code, Problem};
use crate::rooms::Rooms;
use crate::store::{ClubRecord, Status, Store, StoreError};
use crate::wallclock::now_ms;

/// The kind of the tournaments this module keeps (the `tournaments` table also holds arenas,
/// `arenas.rs`).
pub(crate) const KIND: &str = "event";

/// The longest tournament name (it goes into the report's `012` line and onto printed lists).
const MAX_NAME: usize = 80;
/// The longest player name (the report's name field is 33 characters; longer ones are cut
/// there, kept whole here).
const MAX_PLAYER_NAME: usize = 60;
/// Rounds a tournament may plan.
const MAX_ROUNDS: u32 = 30;
/// Players a tournament may have.
const MAX_PLAYERS: usize = 1000;
/// The longest wait between rounds, or for a first move (a day).
const MAX_INTERVAL: u32 = 86_400;
/// The longest description.
const MAX_DESCRIPTION: usize = 2_000;
/// The longest reason for a correction.
const MAX_REASON: usize = 200;
/// Tries of a change that another change overtook.
const TRIES: usize = 20;

/// A new tournament, as its arbiter asks for it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewTournament {
    pub(crate) name: String,
    /// `swiss` (the FIDE Dutch system) or `round-robin`.
    pub(crate) system: String,
    pub(crate) rounds: u32,
    /// The top player's colour in round 1 (`white` or `black`); by lot when not given.
    #[serde(default)]
    pub(crate) first_colour: Option<String>,
    /// Online: the games' clock (`5+3`, `90/40+30`, ...); none for over the board.
    #[serde(default)]
    pub(crate) clock: Option<String>,
    /// Online games count for ratings.
    #[serde(default)]
    pub(crate) rated: bool,
    /// The time limit as the organiser writes it for the score sheets ("40 moves in 2
    /// hours, then 30 minutes"); online, the clock says it.
    #[serde(default)]
    pub(crate) time_limit: Option<String>,
    /// Online: when round 1 is paired by itself (ms since the epoch).
    #[serde(default)]
    pub(crate) starts_at: Option<i64>,
    /// Online: seconds from a round's end to the next round, or `"arbiter"` (every round
    /// waits for the arbiter's `pair`); 0 when not given.
    #[serde(default)]
    pub(crate) round_interval: Option<Interval>,
    /// Online: seconds a player may leave his first move unmade before he loses by forfeit.
    #[serde(default)]
    pub(crate) forfeit_after: Option<u32>,
    /// The tie-breaks in order, by FIDE's short names (`BH/C1`, `SB`, `DE`, ...).
    #[serde(default)]
    pub(crate) tie_breaks: Option<Vec<String>>,
    /// Online: joining needs this word.
    #[serde(default)]
    pub(crate) password: Option<String>,
    /// The club it belongs to (its leaders make it; only its members join).
    #[serde(default)]
    pub(crate) club: Option<String>,
    /// A Swiss: pairs of players who may not meet (family, club mates), by account name or
    /// entered name; names not in the tournament count for nothing.
    #[serde(default)]
    pub(crate) forbidden_pairs: Option<Vec<(String, String)>>,
    /// A Swiss: `"baku"` for Baku acceleration (C.04.7.1).
    #[serde(default)]
    pub(crate) acceleration: Option<String>,
    /// A few lines about it, for its page.
    #[serde(default)]
    pub(crate) description: Option<String>,
}

/// The time between rounds: seconds, or `"arbiter"`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub(crate) enum Interval {
    Seconds(u32),
    Word(String),
}

/// One change to a tournament, from any door.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case", deny_unknown_fields)]
pub(crate) enum Action {
    /// The arbiter enters a player over the board (a Swiss takes late entries from the next
    /// round).
    Enter { name: String, rating: Option<u32> },
    /// The caller's account joins an online tournament (late, in a Swiss, from the next
    /// round), with its rating at the tournament's speed; the password if it has one.
    Join {
        #[serde(default)]
        password: Option<String>,
    },
    /// The arbiter opens or closes the entry.
    Entry { open: bool },
    /// The arbiter sets when the next round begins (ms since the epoch): round 1's start,
    /// or the next round's pairing once the last one has ended.
    Schedule { at: i64 },
    /// The arbiter ends the tournament after the rounds paired so far (games under way
    /// still count when they end).
    Terminate,
    /// Over the board: a board's game entered afterwards from its PGN (its first game). The
    /// moves are checked by the core as an import's are; the board's players name it; a
    /// board without a result takes the game's, and one with a result must agree with it.
    Moves { round: u32, board: u32, pgn: String },
    /// A player leaves from the next round on (the arbiter, or the player himself).
    Withdraw { player: u32 },
    /// A bye asked for a round not paired yet: `half`, `zero` or `full`.
    Bye {
        player: u32,
        round: u32,
        kind: String,
    },
    /// A bye asked for, taken back.
    CancelBye { player: u32, round: u32 },
    /// The next round, paired.
    Pair,
    /// A board's result (`1-0`, `1/2-1/2`, `0-1`, `+/-`, `-/+`, `-/-`), or `null` to clear
    /// it; a correction of a result already in (any round) needs its `reason`, which is kept.
    Result {
        round: u32,
        board: u32,
        result: Option<String>,
        #[serde(default)]
        reason: Option<String>,
    },
}

/// Why a tournament refused a change; nothing changed.
#[derive(Debug)]
pub(crate) enum TournamentError {
    NotFound,
    NotArbiter,
    Invalid(String),
    Event(EventError),
    Store(StoreError),
}

impl From<StoreError> for TournamentError {
    fn from(e: StoreError) -> TournamentError {
        TournamentError::Store(e)
    }
}

impl TournamentError {
    /// The refusal a client reads.
    pub(crate) fn problem(&self) -> Problem {
        match self {
            TournamentError::NotFound => Problem::new(Code::NotFound, "no such tournament"),
            TournamentError::NotArbiter => Problem::new(
                Code::NotAllowed,
                "only the tournament's arbiter may change it",
            ),
            TournamentError::Invalid(m) => Problem::new(Code::TournamentRefused, m.clone()),
            TournamentError::Event(e) => Problem::new(Code::TournamentRefused, e.to_string()),
            TournamentError::Store(e) => {
                tracing::error!(error = %e, "store error");
                Problem::new(Code::Internal, "internal error")
            }
        }
    }
}

/// The event as stored: the pairing crate's [`Event`], field by field.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Stored {
    name: String,
    system: String,
    rounds: u32,
    first_colour: String,
    players: Vec<StoredPlayer>,
    paired: Vec<Vec<StoredBoard>>,
    byes: Vec<(u32, u32, String)>,
    #[serde(default)]
    online: Option<Online>,
    #[serde(default)]
    time_limit: Option<String>,
    #[serde(default)]
    settings: Settings,
    #[serde(default)]
    baku: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct StoredPlayer {
    name: String,
    rating: u32,
    first_round: u32,
    withdrawn_from: Option<u32>,
    #[serde(default)]
    account: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct StoredBoard {
    white: u32,
    black: Option<u32>,
    result: Option<String>,
    #[serde(default)]
    game: Option<String>,
}

/// What an online tournament's games are, and when its rounds begin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Online {
    /// The clock, as written (`5+3`).
    pub(crate) clock: String,
    pub(crate) rated: bool,
    /// When round 1 is paired by itself (ms since the epoch); without it, the arbiter
    /// pairs round 1.
    #[serde(default)]
    pub(crate) starts_at: Option<i64>,
    /// Seconds between a round's last game ending and the next round's pairing.
    #[serde(default)]
    pub(crate) interval: u32,
    /// Every round waits for the arbiter's `pair` ("when the arbiter says").
    #[serde(default)]
    pub(crate) by_arbiter: bool,
    /// When the next round is due (ms), once the last one has ended.
    #[serde(default)]
    pub(crate) next_at: Option<i64>,
    /// A player who has not made his first move this many seconds after his clock began
    /// (the game made, or the opponent's first move) loses by forfeit; `None`: the game's
    /// own abort after ten idle minutes does it.
    #[serde(default)]
    pub(crate) forfeit_after: Option<u32>,
}

/// What a tournament keeps beside its event and its play.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Settings {
    /// FIDE's short names of the tie-breaks in the organiser's order (C.07: `BH/C1`,
    /// `SB`, ...); empty: the system's defaults.
    #[serde(default)]
    pub(crate) tie_breaks: Vec<String>,
    /// Nobody joins any more (the arbiter still enters players over the board).
    #[serde(default)]
    pub(crate) entry_closed: bool,
    /// Joining needs this word (never shown).
    #[serde(default)]
    pub(crate) password: Option<String>,
    /// Every result changed after it was in, with the arbiter's reason.
    #[serde(default)]
    pub(crate) corrections: Vec<Correction>,
    /// The club it belongs to.
    #[serde(default)]
    pub(crate) club: Option<String>,
    #[serde(default)]
    pub(crate) description: Option<String>,
    /// Over the board and rated: its games move the players' ladder points (R8), each
    /// entered with his points as his rating.
    #[serde(default)]
    pub(crate) ladder: bool,
    /// Pairs of players who may not meet, by account or entered name (a Swiss only).
    #[serde(default)]
    pub(crate) forbidden: Vec<(String, String)>,
}

/// A player's ladder points over a rated event over the board (R8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LadderLine {
    pub(crate) before: LadderPoints,
    pub(crate) after: LadderPoints,
    /// Games played over the board that counted.
    pub(crate) games: u32,
}

/// The ladder points of a rated event over the board (R8, seed 004): each player starts
/// from his rating as entered (the club's points); round by round, every game played over
/// the board (forfeits and byes do not count) moves both players' points by R8's table,
/// from their points at the start of the round (so the order of the boards does not matter).
/// Rounds with a result missing are left out.
pub(crate) fn ladder(event: &Event) -> Vec<LadderLine> {
    let start: Vec<LadderPoints> = event
        .players
        .iter()
        .map(|p| LadderPoints(i64::from(p.rating) * 100))
        .collect();
    let mut now = start.clone();
    let mut games = vec![0u32; start.len()];
    for round in &event.paired {
        if round
            .iter()
            .any(|b| b.black.is_some() && b.result.is_none())
        {
            break;
        }
        let before = now.clone();
        for b in round {
            let (Some(black), Some(result)) = (b.black, b.result) else {
                continue;
            };
            let outcome = match result {
                GameResult::WhiteWins => LadderResult::AWins,
                GameResult::Draw => LadderResult::Draw,
                GameResult::BlackWins => LadderResult::BWins,
                _ => continue,
            };
            let (w, k) = (b.white as usize - 1, black as usize - 1);
            let (dw, dk) = rookery_core::rating::ladder::change(before[w], before[k], outcome);
            now[w].0 += dw;
            now[k].0 += dk;
            games[w] += 1;
            games[k] += 1;
        }
    }
    start
        .into_iter()
        .zip(now)
        .zip(games)
        .map(|((before, after), games)| LadderLine {
            before,
            after,
            games,
        })
        .collect()
}

/// A result changed by the arbiter after it was entered (or taken from the game).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Correction {
    pub(crate) round: u32,
    pub(crate) board: u32,
    /// The result before, and after (`None`: cleared).
    pub(crate) from: Option<String>,
    pub(crate) to: Option<String>,
    pub(crate) reason: String,
    /// Who changed it (the account's name), and when (ms).
    pub(crate) by: String,
    pub(crate) at: i64,
}

/// A tournament: the event, and what the server keeps beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tournament {
    pub(crate) event: Event,
    /// Online play; `None` over the board.
    pub(crate) online: Option<Online>,
    /// Each player's account (index = starting number - 1); `None` over the board.
    pub(crate) accounts: Vec<Option<String>>,
    /// Each board's game, round by round (online).
    pub(crate) games: Vec<Vec<Option<String>>>,
    /// The time limit written for the score sheets.
    pub(crate) time_limit: Option<String>,
    pub(crate) settings: Settings,
}

fn system_name(s: System) -> &'static str {
    match s {
        System::Dutch => "swiss",
        System::RoundRobin => "round-robin",
    }
}

fn parse_system(s: &str) -> Option<System> {
    match s {
        "swiss" | "dutch" => Some(System::Dutch),
        "round-robin" => Some(System::RoundRobin),
        _ => None,
    }
}

fn colour_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn parse_bye(s: &str) -> Option<Bye> {
    match s {
        "half" => Some(Bye::Half),
        "zero" => Some(Bye::Zero),
        "full" => Some(Bye::Full),
        _ => None,
    }
}

fn bye_name(b: Bye) -> &'static str {
    match b {
        Bye::Half => "half",
        Bye::Zero => "zero",
        Bye::Full => "full",
    }
}

impl From<&Tournament> for Stored {
    fn from(t: &Tournament) -> Stored {
        let e = &t.event;
        Stored {
            name: e.name.clone(),
            system: system_name(e.system).to_owned(),
            rounds: e.rounds,
            first_colour: colour_name(e.first_colour).to_owned(),
            players: e
                .players
                .iter()
                .enumerate()
                .map(|(i, p)| StoredPlayer {
                    name: p.name.clone(),
                    rating: p.rating,
                    first_round: p.first_round,
                    withdrawn_from: p.withdrawn_from,
                    account: t.accounts.get(i).cloned().flatten(),
                })
                .collect(),
            paired: e
                .paired
                .iter()
                .enumerate()
                .map(|(r, round)| {
                    round
                        .iter()
                        .enumerate()
                        .map(|(k, b)| StoredBoard {
                            white: b.white,
                            black: b.black,
                            result: b.result.map(|r| r.as_str().to_owned()),
                            game: t.game(r, k).map(str::to_owned),
                        })
                        .collect()
                })
                .collect(),
            byes: e
                .byes
                .iter()
                .map(|&(r, p, b)| (r, p, bye_name(b).to_owned()))
                .collect(),
            online: t.online.clone(),
            time_limit: t.time_limit.clone(),
            settings: t.settings.clone(),
            baku: e.baku,
        }
    }
}

impl Tournament {
    /// The game of board `k` (from 0) of round `r` (from 0), if one was made.
    pub(crate) fn game(&self, r: usize, k: usize) -> Option<&str> {
        self.games.get(r)?.get(k)?.as_deref()
    }

    /// Online with a round under way (paired, and not every round paired with every
    /// result in): the keeper looks at it.
    fn active(&self) -> bool {
        let waiting = self.online.as_ref().is_some_and(|o| o.starts_at.is_some());
        self.online.is_some() && (!self.event.paired.is_empty() || waiting) && !self.finished()
    }

    /// Every round planned is paired and has every result in (or its arbiter ended it before
    /// any round).
    pub(crate) fn finished(&self) -> bool {
        let e = &self.event;
        e.rounds == 0 || (e.next_round() > e.rounds && e.complete_rounds() == e.paired.len())
    }

    /// The tie-breaks of its standings: the organiser's, else the system's defaults.
    pub(crate) fn tie_breaks(&self) -> Vec<TieBreak> {
        let chosen: Option<Vec<TieBreak>> = self
            .settings
            .tie_breaks
            .iter()
            .map(|n| TieBreak::parse(n))
            .collect();
        match chosen {
            Some(list) if !list.is_empty() => list,
            _ => self.event.default_tie_breaks(),
        }
    }

    /// The starting number of `account`'s entry, if it has one.
    pub(crate) fn number_of(&self, account: &str) -> Option<u32> {
        self.accounts
            .iter()
            .position(|a| a.as_deref() == Some(account))
            .map(|i| i as u32 + 1)
    }
}

impl Stored {
    /// The tournament; `None` for a body this version cannot read (written by a newer one).
    fn tournament(&self) -> Option<Tournament> {
        let mut paired = Vec::with_capacity(self.paired.len());
        for round in &self.paired {
            let mut boards = Vec::with_capacity(round.len());
            for b in round {
                let result = match &b.result {
                    None => None,
                    Some(r) => Some(GameResult::parse(r)?),
                };
                boards.push(Board {
                    white: b.white,
                    black: b.black,
                    result,
                });
            }
            paired.push(boards);
        }
        let mut byes = Vec::with_capacity(self.byes.len());
        for (r, p, b) in &self.byes {
            byes.push((*r, *p, parse_bye(b)?));
        }
        let event = Event {
            name: self.name.clone(),
            system: parse_system(&self.system)?,
            rounds: self.rounds,
            first_colour: match self.first_colour.as_str() {
                "white" => Color::White,
                "black" => Color::Black,
                _ => return None,
            },
            points: PointSystem::default(),
            players: self
                .players
                .iter()
                .map(|p| Entrant {
                    name: p.name.clone(),
                    rating: p.rating,
                    first_round: p.first_round,
                    withdrawn_from: p.withdrawn_from,
                })
                .collect(),
            paired,
            byes,
            forbidden: Vec::new(),
            baku: self.baku,
        };
        Some(Tournament {
            event,
            online: self.online.clone(),
            accounts: self.players.iter().map(|p| p.account.clone()).collect(),
            games: self
                .paired
                .iter()
                .map(|round| round.iter().map(|b| b.game.clone()).collect())
                .collect(),
            time_limit: self.time_limit.clone(),
            settings: self.settings.clone(),
        })
    }
}

fn body_of(t: &Tournament) -> String {
    serde_json::to_string(&Stored::from(t)).expect("a tournament writes as JSON")
}

/// The tournament a stored body holds.
///
/// # Errors
/// A body this version cannot read.
pub(crate) fn parse(body: &str) -> Result<Tournament, TournamentError> {
    serde_json::from_str::<Stored>(body)
        .ok()
        .and_then(|s| s.tournament())
        .ok_or_else(|| {
            TournamentError::Store(StoreError::Corrupt(
                "a tournament this version cannot read".into(),
            ))
        })
}

/// Players' indexes in the standings' order: by rank, then by starting number.
pub(crate) fn by_rank(ranks: &[usize]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ranks.len()).collect();
    order.sort_by_key(|&i| (ranks[i], i));
    order
}

/// A tournament's clock, written in the lobby's friendly form (`3+2`), read.
///
/// # Errors
/// A clock that does not read, named.
pub(crate) fn control_of(clock: &str) -> Result<TimeControl, TournamentError> {
    TimeControl::from_friendly(clock).map_err(|e| TournamentError::Invalid(format!("clock: {e}")))
}

/// An account's rating (whole, 0 to 4000) and rated games at the speed of `control` as they
/// stand at `now`: a new player's where it has none, or where the clock has no speed.
///
/// # Errors
/// The store failed.
pub(crate) async fn standing_at(
    store: &Store,
    account: &str,
    control: &TimeControl,
    now: i64,
) -> Result<(Option<Speed>, u32, i64), TournamentError> {
    let speed = Speed::of_control(control);
    let stored = match speed {
        Some(speed) => store
            .ratings_of(account)
            .await?
            .into_iter()
            .find(|(s, _)| *s == speed)
            .map(|(_, r)| r),
        None => None,
    };
    let (glicko, games) = stored.map_or_else(
        || (rookery_core::rating::Glicko::default(), 0),
        |r| (r.at(now), r.games),
    );
    Ok((
        speed,
        glicko.rating.round().clamp(0.0, 4000.0) as u32,
        games,
    ))
}

/// A name or a line of text as a tournament takes it: 1 to `most` characters, no line break
/// or other control character.
pub(crate) fn one_line(text: &str, most: usize) -> bool {
    !text.is_empty() && text.chars().count() <= most && !text.chars().any(char::is_control)
}

/// Who acts: an account, by id and name.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Actor<'a> {
    pub(crate) id: &'a str,
    pub(crate) name: &'a str,
}

/// Creates a tournament run by account `owner`; answers its id.
///
/// # Errors
/// A name empty or too long, an unknown system or colour, no rounds or too many, a clock
/// that does not read.
pub(crate) async fn create(
    store: &Store,
    owner: &str,
    new: &NewTournament,
    now: i64,
) -> Result<String, TournamentError> {
    let name = new.name.trim();
    if !one_line(name, MAX_NAME) {
        return Err(TournamentError::Invalid(format!(
            "name: 1 to {MAX_NAME} characters, on one line"
        )));
    }
    let system = parse_system(&new.system)
        .ok_or_else(|| TournamentError::Invalid("system: swiss or round-robin".into()))?;
    if new.rounds == 0 || new.rounds > MAX_ROUNDS {
        return Err(TournamentError::Invalid(format!(
            "rounds: 1 to {MAX_ROUNDS}"
        )));
    }
    let first = match new.first_colour.as_deref() {
        None => Color::from_white(crate::ids::coin()),
        Some("white") => Color::White,
        Some("black") => Color::Black,
        Some(_) => {
            return Err(TournamentError::Invalid(
                "first_colour: white or black".into(),
            ));
        }
    };
    let online = match &new.clock {
        // Over the board, "rated" is the club's ladder (R8), kept by the tournament.
        None => None,
        Some(clock) => {
            let control = control_of(clock)?;
            if new.rated {
                rateable(
                    ByColor::new_with(|_| RatedSeat::Account),
                    &rookery_core::Position::new(),
                    &control,
                )
                .map_err(|e| TournamentError::Invalid(format!("rated: {e}")))?;
            }
            let (interval, by_arbiter) = match &new.round_interval {
                None => (0, false),
                Some(Interval::Seconds(s)) if *s <= MAX_INTERVAL => (*s, false),
                Some(Interval::Word(w)) if w == "arbiter" => (0, true),
                Some(_) => {
                    return Err(TournamentError::Invalid(format!(
                        "round_interval: 0 to {MAX_INTERVAL} seconds, or \"arbiter\""
                    )));
                }
            };
            if new
                .forfeit_after
                .is_some_and(|s| !(10..=MAX_INTERVAL).contains(&s))
            {
                return Err(TournamentError::Invalid(format!(
                    "forfeit_after: 10 to {MAX_INTERVAL} seconds"
                )));
            }
            Some(Online {
                clock: clock.trim().to_owned(),
                rated: new.rated,
                starts_at: new.starts_at,
                interval,
                by_arbiter,
                next_at: None,
                forfeit_after: new.forfeit_after,
            })
        }
    };
    if online.is_none()
        && (new.starts_at.is_some()
            || new.round_interval.is_some()
            || new.forfeit_after.is_some()
            || new.password.is_some())
    {
        return Err(TournamentError::Invalid(
            "starts_at, round_interval, forfeit_after and password are for an online \
             tournament (with a clock); over the board, the arbiter pairs and enters players"
                .into(),
        ));
    }
    let mut tie_breaks = Vec::new();
    for name in new.tie_breaks.iter().flatten() {
        let tb = TieBreak::parse(name).ok_or_else(|| {
            TournamentError::Invalid(format!(
                "tie_breaks: {name:?} is not one of FIDE's (PTS, BH, BH/C1, BH/M1, SB, DE, \
                 WIN, WON, BPG, BWG, REP, ARO, TPR, PS)"
            ))
        })?;
        tie_breaks.push(tb.to_string());
    }
    let password = match new.password.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(p) if one_line(p, MAX_PLAYER_NAME) => Some(p.to_owned()),
        Some(_) => {
            return Err(TournamentError::Invalid(format!(
                "password: at most {MAX_PLAYER_NAME} characters, on one line"
            )));
        }
    };
    let time_limit = match new.time_limit.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) if one_line(text, MAX_NAME) => Some(text.to_owned()),
        Some(_) => {
            return Err(TournamentError::Invalid(format!(
                "time_limit: at most {MAX_NAME} characters, on one line"
            )));
        }
    };
    let baku = match new.acceleration.as_deref() {
        None | Some("" | "none") => false,
        Some("baku") if system == System::Dutch => true,
        Some(_) => {
            return Err(TournamentError::Invalid(
                "acceleration: \"baku\" (a Swiss), or none".into(),
            ));
        }
    };
    let forbidden = new.forbidden_pairs.clone().unwrap_or_default();
    if !forbidden.is_empty() && system != System::Dutch {
        return Err(TournamentError::Invalid(
            "forbidden_pairs: a round robin's pairings are its table's".into(),
        ));
    }
    if forbidden.len() > MAX_PLAYERS
        || forbidden
            .iter()
            .any(|(a, b)| !one_line(a, MAX_PLAYER_NAME) || !one_line(b, MAX_PLAYER_NAME))
    {
        return Err(TournamentError::Invalid(format!(
            "forbidden_pairs: pairs of names of 1 to {MAX_PLAYER_NAME} characters"
        )));
    }
    if let Some(club) = &new.club {
        if store.membership(club, owner).await? != Some(true) {
            return Err(TournamentError::NotArbiter);
        }
    }
    let description = match new.description.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(d) if d.chars().count() <= MAX_DESCRIPTION => Some(d.to_owned()),
        Some(_) => {
            return Err(TournamentError::Invalid(format!(
                "description: at most {MAX_DESCRIPTION} characters"
            )));
        }
    };
    let mut event = Event::new(name, system, new.rounds, first);
    event.baku = baku;
    let t = Tournament {
        event,
        online,
        accounts: Vec::new(),
        games: Vec::new(),
        time_limit,
        settings: Settings {
            tie_breaks,
            password,
            club: new.club.clone(),
            description,
            ladder: new.rated && new.clock.is_none(),
            forbidden,
            ..Settings::default()
        },
    };
    let id = crate::ids::game_id();
    let row = crate::store::tournaments::StoredTournament {
        id: id.clone(),
        owner: owner.to_owned(),
        created_at: now,
        version: 1,
        body: body_of(&t),
        club: new.club.clone(),
        kind: KIND.to_owned(),
    };
    // A start time makes it active at once: the keeper pairs round 1 then.
    store.add_tournament(&row, t.active()).await?;
    Ok(id)
}

/// Tournament `id` as stored (an arena's id is no tournament here).
///
/// # Errors
/// No such tournament.
pub(crate) async fn stored(
    store: &Store,
    id: &str,
) -> Result<crate::store::tournaments::StoredTournament, TournamentError> {
    store
        .tournament(id)
        .await?
        .filter(|t| t.kind == KIND)
        .ok_or(TournamentError::NotFound)
}

/// Tournament `id` brought up to date ([`sync`]), with its stored row (its arbiter, when it
/// was made): what every door that shows a tournament reads.
///
/// # Errors
/// No such tournament; the store failed.
pub(crate) async fn read_kept(
    rooms: &Rooms,
    id: &str,
) -> Result<(Tournament, crate::store::tournaments::StoredTournament), TournamentError> {
    let row = stored(rooms.store(), id).await?;
    let t = sync(rooms, id, parse(&row.body)?).await?;
    Ok((t, row))
}

/// Tournament `id`.
///
/// # Errors
/// No such tournament.
pub(crate) async fn read(store: &Store, id: &str) -> Result<Tournament, TournamentError> {
    let stored = stored(store, id).await?;
    parse(&stored.body)
}

/// Applies `action` to tournament `id` for `by`: the tournament after it (online, with the
/// new round's games made, and the results of ended games taken in).
///
/// # Errors
/// No such tournament, not allowed to `by`, an action the event refuses (nothing changes).
pub(crate) async fn act(
    rooms: &Rooms,
    id: &str,
    by: Actor<'_>,
    action: &Action,
) -> Result<Tournament, TournamentError> {
    let store = rooms.store();
    let mut joining = None;
    if matches!(action, Action::Join { .. }) {
        let t = read(store, id).await?;
        let online = t.online.as_ref().ok_or_else(|| {
            TournamentError::Invalid(
                "players enter an over-the-board tournament by the arbiter".into(),
            )
        })?;
        let control = control_of(&online.clock)?;
        let (_, rating, _) = standing_at(store, by.id, &control, now_ms() as i64).await?;
        joining = Some(rating);
        if let Some(club) = &t.settings.club {
            if store.membership(club, by.id).await?.is_none() {
                return Err(TournamentError::Invalid(
                    "only the club's members join its tournaments".into(),
                ));
            }
        }
    }
    let imported = match action {
        Action::Moves { round, board, pgn } => {
            Some(import_moves(store, id, by, *round, *board, pgn).await?)
        }
        _ => None,
    };
    let now = now_ms() as i64;
    let prepared = Prepared { joining, imported };
    let t = update(store, id, |t, owner| {
        allowed(t, owner, by, action)?;
        apply(t, by, &prepared, action, now)
    })
    .await?;
    sync(rooms, id, t).await
}

/// What an action needed from the store before it met the tournament: a joining account's
/// rating; an imported game's id and result.
struct Prepared {
    joining: Option<u32>,
    imported: Option<(String, Option<GameResult>)>,
}

/// The board `board` (from 1) of round `round` (from 1), with its index.
fn board_at(
    t: &Tournament,
    round: u32,
    board: u32,
) -> Result<(usize, usize, Board), TournamentError> {
    let (r, k) = (
        (round as usize).wrapping_sub(1),
        (board as usize).wrapping_sub(1),
    );
    t.event
        .paired
        .get(r)
        .and_then(|boards| boards.get(k))
        .map(|b| (r, k, *b))
        .ok_or_else(|| TournamentError::Invalid(format!("round {round} has no board {board}")))
}

/// Over the board: checks that board `board` of round `round` may take a game, reads the
/// PGN's first game and stores it (the core checks every move), named by the board's players
/// and marked with the event, round, table and tournament. Its id and result.
async fn import_moves(
    store: &Store,
    id: &str,
    by: Actor<'_>,
    round: u32,
    board: u32,
    pgn: &str,
) -> Result<(String, Option<GameResult>), TournamentError> {
    let stored = stored(store, id).await?;
    if stored.owner != by.id {
        return Err(TournamentError::NotArbiter);
    }
    let t = parse(&stored.body)?;
    if t.online.is_some() {
        return Err(TournamentError::Invalid(
            "an online tournament's games are played here; moves are entered over the board only"
                .into(),
        ));
    }
    let (r, k, b) = board_at(&t, round, board)?;
    let Some(black) = b.black else {
        return Err(TournamentError::Invalid("the bye has no game".into()));
    };
    if t.game(r, k).is_some() {
        return Err(TournamentError::Invalid(format!(
            "round {round}, board {board} has its moves already"
        )));
    }
    let record = match rookery_core::pgn::Reader::new(std::io::Cursor::new(pgn.as_bytes())).next() {
        Some(Ok(record)) => record,
        Some(Err(e)) => return Err(TournamentError::Invalid(format!("pgn: {e}"))),
        None => return Err(TournamentError::Invalid("pgn: no game in it".into())),
    };
    let result = match rookery_core::game::Game::from_record(&record) {
        Ok(game) => game.result().and_then(|(r, _)| match r {
            PgnResult::WhiteWins => Some(GameResult::WhiteWins),
            PgnResult::BlackWins => Some(GameResult::BlackWins),
            PgnResult::Draw => Some(GameResult::Draw),
            PgnResult::Unknown => None,
        }),
        Err((ply, reason)) => {
            return Err(TournamentError::Invalid(format!(
                "pgn: ply {ply}: {reason}"
            )));
        }
    };
    agrees(b.result, result, round, board)?;
    let name = |n: u32| t.event.players[n as usize - 1].name.clone();
    let (white, black) = (name(b.white), name(black));
    let club = ClubRecord {
        event: Some(t.event.name.chars().take(64).collect()),
        round: Some(round.to_string()),
        table: Some(board.to_string()),
        tournament: Some(id.to_owned()),
    };
    match crate::import::store_record_as(store, &record, Some((&white, &black)), club).await? {
        Ok(game) => Ok((game, result)),
        Err(e) => Err(TournamentError::Invalid(format!("pgn: {e}"))),
    }
}

/// A board's result and its game's must not disagree (a forfeit has no game).
fn agrees(
    board: Option<GameResult>,
    game: Option<GameResult>,
    round: u32,
    number: u32,
) -> Result<(), TournamentError> {
    match (board, game) {
        (Some(b), Some(g)) if b != g => Err(TournamentError::Invalid(format!(
            "round {round}, board {number}: the moves end {} but the board's result is {}; \
             correct the result first",
            g.as_str(),
            b.as_str()
        ))),
        (
            Some(
                b @ (GameResult::WhiteByForfeit
                | GameResult::BlackByForfeit
                | GameResult::DoubleForfeit),
            ),
            _,
        ) => Err(TournamentError::Invalid(format!(
            "round {round}, board {number} was a forfeit ({}): no game was played",
            b.as_str()
        ))),
        _ => Ok(()),
    }
}

/// A change to tournament `id`, made on what is stored and written back if nobody changed
/// it meanwhile (else made again on the newer one).
async fn update(
    store: &Store,
    id: &str,
    change: impl Fn(&mut Tournament, &str) -> Result<(), TournamentError>,
) -> Result<Tournament, TournamentError> {
    update_kind(store, id, KIND, parse, |t| (body_of(t), t.active()), change).await
}

/// The lock a change of tournament `id` takes on this node: one of a fixed set, by the id's
/// hash (two tournaments may share one; a change is short).
fn change_lock(id: &str) -> &'static tokio::sync::Mutex<()> {
    use std::hash::{Hash, Hasher};
    static LOCKS: std::sync::LazyLock<Vec<tokio::sync::Mutex<()>>> =
        std::sync::LazyLock::new(|| (0..64).map(|_| tokio::sync::Mutex::new(())).collect());
    let mut h = std::collections::hash_map::DefaultHasher::new();
    id.hash(&mut h);
    &LOCKS[(h.finish() % 64) as usize]
}

/// A change to the stored JSON of tournament `id` of `kind` (read by `read`, written back
/// with whether it is active by `write`) made on what is stored and written back if nobody
/// changed it meanwhile (else made again on the newer one): one way of changing for every
/// kind of tournament.
///
/// # Errors
/// No such tournament of that kind, a change refused, the store failed, or others kept
/// changing it.
pub(crate) async fn update_kind<T>(
    store: &Store,
    id: &str,
    kind: &str,
    read: impl Fn(&str) -> Result<T, TournamentError>,
    write: impl Fn(&T) -> (String, bool),
    change: impl Fn(&mut T, &str) -> Result<(), TournamentError>,
) -> Result<T, TournamentError> {
    // One change at a time on this node (many players join an arena at once); between
    // nodes, the version, tried again after a short random pause.
    let _turn = change_lock(id).lock().await;
    for attempt in 0..TRIES {
        if attempt > 0 {
            let jitter = u64::from(crate::ids::random_bytes::<1>()[0] % 40);
            let pause = 5 + jitter + 10 * attempt.min(10) as u64;
            tokio::time::sleep(std::time::Duration::from_millis(pause)).await;
        }
        let stored = store
            .tournament(id)
            .await?
            .filter(|t| t.kind == kind)
            .ok_or(TournamentError::NotFound)?;
        let mut t = read(&stored.body)?;
        change(&mut t, &stored.owner)?;
        let (body, active) = write(&t);
        if store
            .update_tournament(id, stored.version, &body, active)
            .await?
        {
            return Ok(t);
        }
    }
    Err(TournamentError::Invalid(
        "the tournament is being changed by others: try again".into(),
    ))
}

/// Who may do what: the arbiter everything; an account joins, and withdraws itself.
fn allowed(
    t: &Tournament,
    owner: &str,
    by: Actor<'_>,
    action: &Action,
) -> Result<(), TournamentError> {
    if by.id == owner {
        return Ok(());
    }
    match action {
        Action::Join { .. } => Ok(()),
        Action::Withdraw { player } if t.number_of(by.id) == Some(*player) => Ok(()),
        _ => Err(TournamentError::NotArbiter),
    }
}

/// The one place an action meets the tournament.
fn apply(
    t: &mut Tournament,
    by: Actor<'_>,
    prepared: &Prepared,
    action: &Action,
    now: i64,
) -> Result<(), TournamentError> {
    let joining = prepared.joining;
    let ev = TournamentError::Event;
    let event = &mut t.event;
    match action {
        Action::Enter { name, rating } => {
            if t.online.is_some() {
                return Err(TournamentError::Invalid(
                    "players join an online tournament themselves".into(),
                ));
            }
            let name = name.trim();
            if !one_line(name, MAX_PLAYER_NAME) {
                return Err(TournamentError::Invalid(format!(
                    "name: 1 to {MAX_PLAYER_NAME} characters, on one line"
                )));
            }
            let rating = rating.unwrap_or(0);
            if rating > 4000 {
                return Err(TournamentError::Invalid("rating: 0 to 4000".into()));
            }
            enter(t, name, rating, None)?;
        }
        Action::Join { password } => {
            if t.number_of(by.id).is_some() {
                return Err(TournamentError::Invalid(
                    "you are in this tournament already".into(),
                ));
            }
            if t.settings.entry_closed {
                return Err(TournamentError::Invalid(
                    "the entry of this tournament is closed".into(),
                ));
            }
            if let Some(word) = &t.settings.password {
                if password.as_deref().map(str::trim) != Some(word.as_str()) {
                    return Err(TournamentError::Invalid(
                        "this tournament needs its password to join".into(),
                    ));
                }
            }
            enter(t, by.name, joining.unwrap_or(0), Some(by.id))?;
        }
        Action::Entry { open } => t.settings.entry_closed = !open,
        Action::Schedule { at } => {
            let online = t.online.as_mut().ok_or_else(|| {
                TournamentError::Invalid("over the board, the arbiter pairs each round".into())
            })?;
            if event.paired.is_empty() {
                online.starts_at = Some(*at);
            } else {
                online.next_at = Some(*at);
            }
        }
        Action::Moves { round, board, .. } => {
            let Some((game, result)) = prepared.imported.clone() else {
                return Err(TournamentError::Invalid("no game was read".into()));
            };
            let (r, k, b) = board_at(t, *round, *board)?;
            if t.game(r, k).is_some() {
                return Err(TournamentError::Invalid(format!(
                    "round {round}, board {board} has its moves already"
                )));
            }
            agrees(b.result, result, *round, *board)?;
            if b.result.is_none() && result.is_some() {
                t.event.set_result(*round, *board, result).map_err(ev)?;
            }
            t.games.resize(t.event.paired.len(), Vec::new());
            let boards = t.event.paired[r].len();
            t.games[r].resize(boards, None);
            t.games[r][k] = Some(game);
        }
        Action::Terminate => {
            let paired = event.paired.len() as u32;
            event.rounds = paired;
            t.settings.entry_closed = true;
            if let Some(o) = t.online.as_mut() {
                o.starts_at = None;
                o.next_at = None;
            }
        }
        Action::Withdraw { player } => event.withdraw(*player).map_err(ev)?,
        Action::Bye {
            player,
            round,
            kind,
        } => {
            let bye = parse_bye(kind)
                .ok_or_else(|| TournamentError::Invalid("kind: half, zero or full".into()))?;
            event.ask_bye(*player, *round, bye).map_err(ev)?;
        }
        Action::CancelBye { player, round } => event.cancel_bye(*player, *round),
        Action::Pair => pair(t)?,
        Action::Result {
            round,
            board,
            result,
            reason,
        } => {
            let result = match result.as_deref() {
                None => None,
                Some(text) => Some(GameResult::parse(text).ok_or_else(|| {
                    TournamentError::Invalid("result: 1-0, 1/2-1/2, 0-1, +/-, -/+ or -/-".into())
                })?),
            };
            let before = event
                .paired
                .get((*round as usize).wrapping_sub(1))
                .and_then(|r| r.get((*board as usize).wrapping_sub(1)))
                .and_then(|b| b.result);
            let reason = reason.as_deref().map(str::trim).unwrap_or("");
            let correcting = before.is_some() && before != result;
            if correcting && !one_line(reason, MAX_REASON) {
                return Err(TournamentError::Invalid(format!(
                    "reason: a result already in is corrected with a reason (1 to \
                     {MAX_REASON} characters, on one line), which is kept"
                )));
            }
            event.set_result(*round, *board, result).map_err(ev)?;
            if correcting {
                t.settings.corrections.push(Correction {
                    round: *round,
                    board: *board,
                    from: before.map(|r| r.as_str().to_owned()),
                    to: result.map(|r| r.as_str().to_owned()),
                    reason: reason.to_owned(),
                    by: by.name.to_owned(),
                    at: now,
                });
            }
        }
    }
    Ok(())
}

fn enter(
    t: &mut Tournament,
    name: &str,
    rating: u32,
    account: Option<&str>,
) -> Result<(), TournamentError> {
    if t.event.players.len() >= MAX_PLAYERS {
        return Err(TournamentError::Invalid(format!(
            "a tournament takes at most {MAX_PLAYERS} players"
        )));
    }
    t.event
        .enter(name, rating)
        .map_err(TournamentError::Event)?;
    t.accounts.resize(t.event.players.len() - 1, None);
    t.accounts.push(account.map(str::to_owned));
    Ok(())
}

/// The starting number of the player named `name`: by account, else by entered name
/// (letter case aside).
fn number_named(t: &Tournament, name: &str) -> Option<u32> {
    let folded = name.trim().to_lowercase();
    t.number_of(&folded).or_else(|| {
        t.event
            .players
            .iter()
            .position(|p| p.name.to_lowercase() == folded)
            .map(|i| i as u32 + 1)
    })
}

/// Pairs the next round; online, each board's game gets its id in the same change.
fn pair(t: &mut Tournament) -> Result<(), TournamentError> {
    let forbidden: Vec<(u32, u32)> = t
        .settings
        .forbidden
        .iter()
        .filter_map(|(a, b)| Some((number_named(t, a)?, number_named(t, b)?)))
        .filter(|(a, b)| a != b)
        .collect();
    t.event.forbidden = forbidden;
    let boards = t
        .event
        .pair_next()
        .map_err(TournamentError::Event)?
        .to_vec();
    if let Some(o) = t.online.as_mut() {
        o.next_at = None;
    }
    t.games.resize(t.event.paired.len() - 1, Vec::new());
    t.games.push(
        boards
            .iter()
            .map(|b| (t.online.is_some() && b.black.is_some()).then(crate::ids::game_id))
            .collect(),
    );
    Ok(())
}

/// Online: pairs round 1 at its start time, makes the last round's games not made yet,
/// forfeits a player absent past the tournament's forfeit time, takes in the results of its
/// ended games, and pairs the next round when it is due (every game of the last one ended,
/// and the interval gone by; never by itself when the arbiter pairs), until nothing
/// changes. The tournament as it then stands.
///
/// # Errors
/// The store failed.
pub(crate) async fn sync(
    rooms: &Rooms,
    id: &str,
    mut t: Tournament,
) -> Result<Tournament, TournamentError> {
    loop {
        let Some(online) = t.online.clone() else {
            return Ok(t);
        };
        let now = now_ms() as i64;
        let Some(round) = t.event.paired.len().checked_sub(1) else {
            if online.starts_at.is_none_or(|at| now < at) {
                return Ok(t);
            }
            t = update(rooms.store(), id, |t, _| {
                if t.event.paired.is_empty() {
                    if let Err(e) = pair(t) {
                        // Nobody to pair at the start: the arbiter pairs when he can.
                        tracing::warn!(tournament = %id, error = ?e, "round 1 cannot be paired at its start");
                        if let Some(o) = t.online.as_mut() {
                            o.starts_at = None;
                        }
                    }
                }
                Ok(())
            })
            .await?;
            continue;
        };
        make_games(rooms, id, &t, round, &online).await?;
        let mut ended = Vec::new();
        for (k, b) in t.event.paired[round].iter().enumerate() {
            if b.result.is_some() {
                continue;
            }
            let Some(game) = t.game(round, k) else {
                continue;
            };
            if let Some(result) = result_of(rooms, game, online.forfeit_after, now).await? {
                ended.push((k, result));
            }
        }
        let complete = |t: &Tournament| {
            t.event.paired[round]
                .iter()
                .all(|b| b.black.is_none() || b.result.is_some())
        };
        let more = |t: &Tournament| t.event.next_round() <= t.event.rounds;
        // Due: at the time set (by the interval, or by the arbiter's `schedule`); with no
        // time set, at once unless the arbiter pairs.
        let due = |o: &Online| o.next_at.map_or(!o.by_arbiter, |at| now >= at);
        if ended.is_empty() && !(complete(&t) && more(&t) && due(&online)) {
            return Ok(t);
        }
        let before = t.event.paired.len();
        t = update(rooms.store(), id, |t, _| {
            if t.event.paired.len() != before {
                // Another node moved on already.
                return Ok(());
            }
            for &(k, result) in &ended {
                if t.event.paired[round][k].result.is_none() {
                    t.event
                        .set_result(round as u32 + 1, k as u32 + 1, Some(result))
                        .map_err(TournamentError::Event)?;
                }
            }
            if !(complete(t) && more(t)) {
                return Ok(());
            }
            let Some(o) = t.online.as_mut() else {
                return Ok(());
            };
            if o.by_arbiter && o.next_at.is_none() {
                return Ok(());
            }
            let at = *o.next_at.get_or_insert(now + i64::from(o.interval) * 1000);
            if now >= at {
                // A round that cannot be paired (no pairing meets the absolute criteria)
                // waits for the arbiter, whose `pair` says why; the results stand and the
                // tournament stays readable.
                if let Err(e) = pair(t) {
                    tracing::warn!(tournament = %id, error = ?e, "the next round cannot be paired");
                }
            }
            Ok(())
        })
        .await?;
        if t.event.paired.len() == before {
            return Ok(t);
        }
    }
}

/// Makes the games of round `round` (from 0) that have an id and no game yet, through the
/// one game request every door uses.
async fn make_games(
    rooms: &Rooms,
    id: &str,
    t: &Tournament,
    round: usize,
    online: &Online,
) -> Result<(), TournamentError> {
    let control = control_of(&online.clock)?;
    for (k, b) in t.event.paired[round].iter().enumerate() {
        let (Some(game), Some(black)) = (t.game(round, k), b.black) else {
            continue;
        };
        if b.result.is_some() {
            continue;
        }
        let seat = |n: u32| {
            let i = n as usize - 1;
            SeatSpec::person(
                t.event.players[i].name.clone(),
                t.accounts.get(i).cloned().flatten(),
            )
        };
        let club = ClubRecord {
            event: Some(t.event.name.chars().take(64).collect()),
            round: Some((round + 1).to_string()),
            table: Some((k + 1).to_string()),
            tournament: Some(id.to_owned()),
        };
        let seats = ByColor {
            white: seat(b.white),
            black: seat(black),
        };
        make_game(rooms, game, seats, &control, (online.rated, false), club).await?;
    }
    Ok(())
}

/// Makes a tournament's game `game` (its id written with its pairing) unless it is made
/// already, through the one game request every door uses. A game another node made a
/// moment ago is left as it is; one that cannot be made is logged (its board waits).
///
/// # Errors
/// The store failed.
pub(crate) async fn make_game(
    rooms: &Rooms,
    game: &str,
    seats: ByColor<SeatSpec>,
    control: &TimeControl,
    (rated, berserkable): (bool, bool),
    club: ClubRecord,
) -> Result<(), TournamentError> {
    if rooms.store().game(game).await?.is_some() {
        return Ok(());
    }
    let mut spec = GameSpec::new(Source::Tournament, seats, control.clone());
    spec.id = Some(game.to_owned());
    spec.rated = rated;
    spec.berserkable = berserkable;
    spec.club = club;
    match make(rooms, spec).await {
        Ok(_) => {}
        // Another node made it a moment ago.
        Err(_) if rooms.store().game(game).await?.is_some() => {}
        Err(e) => {
            tracing::warn!(game, error = %e, "a tournament game could not be made");
        }
    }
    Ok(())
}

/// The result a tournament takes from game `id`, once it has ended: the game's result; an
/// aborted game is lost by forfeit by the side that never moved. With a forfeit time, a
/// game whose player to move has not made his first move that long after his clock began
/// (the game made, or White's first move) is ended for him there (aborted: the same
/// forfeit).
async fn result_of(
    rooms: &Rooms,
    id: &str,
    forfeit_after: Option<u32>,
    now: i64,
) -> Result<Option<GameResult>, TournamentError> {
    let store = rooms.store();
    let Some(mut row) = store.game(id).await? else {
        return Ok(None);
    };
    if row.status != Status::Over {
        let Some(after) = forfeit_after else {
            return Ok(None);
        };
        let due = row.game.created_at + i64::from(after) * 1000;
        if now < due {
            return Ok(None);
        }
        let moves = store.moves(id).await?;
        let began = match moves.as_slice() {
            [] => row.game.created_at,
            [first] => first.at_ms,
            _ => return Ok(None),
        };
        if now < began + i64::from(after) * 1000 {
            return Ok(None);
        }
        let absent = if moves.is_empty() {
            rookery_core::Color::White
        } else {
            rookery_core::Color::Black
        };
        if let Some(room) = rooms.get(id).await? {
            if let Err(e) = room
                .apply(rookery_core::game::Command::Abort { by: absent })
                .await
            {
                tracing::warn!(game = id, error = ?e, "an absent player's game could not be ended");
            }
        }
        match store.game(id).await? {
            Some(again) if again.status == Status::Over => row = again,
            _ => return Ok(None),
        }
    }
    let Some(ending) = row.ending else {
        return Ok(None);
    };
    Ok(Some(match ending.result {
        PgnResult::WhiteWins => GameResult::WhiteWins,
        PgnResult::BlackWins => GameResult::BlackWins,
        PgnResult::Draw => GameResult::Draw,
        PgnResult::Unknown => {
            if store.moves(id).await?.is_empty() {
                GameResult::BlackByForfeit
            } else {
                GameResult::WhiteByForfeit
            }
        }
    }))
}

/// The tournament as the API shows it.
pub(crate) fn view(id: &str, t: &Tournament) -> serde_json::Value {
    use serde_json::json;
    let event = &t.event;
    let list = t.tie_breaks();
    let (values, ranks) = event.standings(&list);
    let order = by_rank(&ranks);
    let show = |v: &Value| v.to_string();
    json!({
        "id": id,
        "name": event.name,
        "system": system_name(event.system),
        "rounds": event.rounds,
        "next_round": event.next_round(),
        "first_colour": colour_name(event.first_colour),
        "acceleration": event.baku.then_some("baku"),
        "online": t.online.as_ref().map(|o| json!({
            "clock": o.clock,
            "rated": o.rated,
            "starts_at": o.starts_at,
            "round_interval": if o.by_arbiter { json!("arbiter") } else { json!(o.interval) },
            "next_round_at": o.next_at,
            "forfeit_after": o.forfeit_after,
        })),
        "entry_open": !t.settings.entry_closed,
        "password": t.settings.password.is_some(),
        "corrections": t.settings.corrections,
        "ladder": t.settings.ladder.then(|| ladder(event).iter().enumerate().map(|(i, l)| json!({
            "number": i + 1,
            "name": event.players[i].name,
            "before": l.before.shown(),
            "after": l.after.shown(),
            "games": l.games,
        })).collect::<Vec<_>>()),
        "time_limit": t.time_limit,
        "players": event.players.iter().enumerate().map(|(i, p)| json!({
            "number": i + 1,
            "name": p.name,
            "rating": p.rating,
            "first_round": p.first_round,
            "withdrawn_from": p.withdrawn_from,
        })).collect::<Vec<_>>(),
        "byes": event.byes.iter().map(|&(r, p, b)| json!({
            "round": r, "player": p, "kind": bye_name(b),
        })).collect::<Vec<_>>(),
        "pairings": event.paired.iter().enumerate().map(|(r, round)| {
            round.iter().enumerate().map(|(k, b)| json!({
                "board": k + 1,
                "white": b.white,
                "black": b.black,
                "result": b.result.map(|r| r.as_str()),
                "game": t.game(r, k),
            })).collect::<Vec<_>>()
        }).collect::<Vec<_>>(),
        "tie_breaks": list.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "standings": order.iter().map(|&i| json!({
            "rank": ranks[i],
            "number": i + 1,
            "name": event.players[i].name,
            "values": values[i].iter().map(show).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// R8's table by hand (docs/RULES.md): a higher-rated win at d = 50 gains 10 - 50/12.5 =
    /// 6; a draw at d = 200 gives the lower d/4 = 50; a lower-rated win at d = 256 gains d/2
    /// = 128, from the points at the round's start; a forfeit and a round still being played
    /// count nothing.
    #[test]
    fn an_over_the_board_event_moves_ladder_points_by_r8() {
        let mut e = Event::new("Ladder night", System::Dutch, 3, Color::White);
        for (name, points) in [("A", 1500), ("B", 1450), ("C", 1200), ("D", 1400)] {
            e.enter(name, points).unwrap();
        }
        let board = |white, black, result| Board {
            white,
            black: Some(black),
            result,
        };
        e.paired = vec![
            vec![
                board(1, 2, Some(GameResult::WhiteWins)),
                board(3, 4, Some(GameResult::Draw)),
            ],
            vec![
                board(1, 3, Some(GameResult::BlackWins)),
                board(2, 4, Some(GameResult::WhiteByForfeit)),
            ],
            vec![board(1, 4, Some(GameResult::WhiteWins)), board(2, 3, None)],
        ];
        let l = ladder(&e);
        let after: Vec<i64> = l.iter().map(|l| l.after.0).collect();
        assert_eq!(after, [137_800, 144_400, 137_800, 135_000]);
        let games: Vec<u32> = l.iter().map(|l| l.games).collect();
        assert_eq!(games, [2, 1, 2, 1]);
        assert_eq!(l[0].before, LadderPoints(150_000));
        // Zero-sum, as R8 is.
        let total: i64 = l.iter().map(|l| l.after.0 - l.before.0).sum();
        assert_eq!(total, 0);
    }
}
