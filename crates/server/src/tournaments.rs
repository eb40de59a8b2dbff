//! Tournaments run by Rookery (docs/TOURNAMENTS.md): a Swiss by the FIDE Dutch system or a
//! round robin by the Berger tables, run by its arbiter. The event itself (players, byes,
//! boards, results, the next round's pairing, the standings) is the pairing crate's
//! [`Event`]; this module stores it (as JSON, migration 0019) and takes every change as one
//! typed [`Action`] through [`act`], whatever the door (the API today; the pages and the
//! server's own round keeping next), with the same checks: only the arbiter acts, and a
//! change made at the same moment on another node is read again, never lost.

use rookery_pairing::event::{
    Board, Bye, Entrant, Event, EventError, Result as GameResult, System,
};
use rookery_pairing::tiebreak::{TieBreak, Value};
use rookery_pairing::trf::{Color, PointSystem};
use serde::{Deserialize, Serialize};

use crate::refusal::{Code, Problem};
use crate::store::{Store, StoreError};

/// The longest tournament name (it goes into the report's `012` line and onto printed lists).
const MAX_NAME: usize = 80;
/// The longest player name (the report's name field is 33 characters; longer ones are cut
/// there, kept whole here).
const MAX_PLAYER_NAME: usize = 60;
/// Rounds a tournament may plan.
const MAX_ROUNDS: u32 = 30;
/// Players a tournament may have.
const MAX_PLAYERS: usize = 1000;
/// Tries of a change that another change overtook.
const TRIES: usize = 5;

/// A new tournament, as its arbiter asks for it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewTournament {
    pub(crate) name: String,
    /// `swiss` (the FIDE Dutch system) or `round-robin`.
    pub(crate) system: String,
    pub(crate) rounds: u32,
    /// The top player's colour in round 1 (`white` or `black`); by lot when not given.
    #[serde(default)]
    pub(crate) first_colour: Option<String>,
}

/// One change to a tournament, from any door.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case", deny_unknown_fields)]
pub(crate) enum Action {
    /// A player enters (a Swiss takes late entries from the next round).
    Enter { name: String, rating: Option<u32> },
    /// A player leaves from the next round on.
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
    /// it; a correction of an earlier round too.
    Result {
        round: u32,
        board: u32,
        result: Option<String>,
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
            TournamentError::Invalid(m) => Problem::new(Code::BadRequest, m.clone()),
            TournamentError::Event(e) => Problem::new(Code::BadRequest, e.to_string()),
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
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct StoredPlayer {
    name: String,
    rating: u32,
    first_round: u32,
    withdrawn_from: Option<u32>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct StoredBoard {
    white: u32,
    black: Option<u32>,
    result: Option<String>,
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

impl From<&Event> for Stored {
    fn from(e: &Event) -> Stored {
        Stored {
            name: e.name.clone(),
            system: system_name(e.system).to_owned(),
            rounds: e.rounds,
            first_colour: colour_name(e.first_colour).to_owned(),
            players: e
                .players
                .iter()
                .map(|p| StoredPlayer {
                    name: p.name.clone(),
                    rating: p.rating,
                    first_round: p.first_round,
                    withdrawn_from: p.withdrawn_from,
                })
                .collect(),
            paired: e
                .paired
                .iter()
                .map(|round| {
                    round
                        .iter()
                        .map(|b| StoredBoard {
                            white: b.white,
                            black: b.black,
                            result: b.result.map(|r| r.as_str().to_owned()),
                        })
                        .collect()
                })
                .collect(),
            byes: e
                .byes
                .iter()
                .map(|&(r, p, b)| (r, p, bye_name(b).to_owned()))
                .collect(),
        }
    }
}

impl Stored {
    /// The event; `None` for a body this version cannot read (written by a newer one).
    fn event(&self) -> Option<Event> {
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
        Some(Event {
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
        })
    }
}

fn body_of(event: &Event) -> String {
    serde_json::to_string(&Stored::from(event)).expect("an event writes as JSON")
}

fn event_of(body: &str) -> Result<Event, TournamentError> {
    serde_json::from_str::<Stored>(body)
        .ok()
        .and_then(|s| s.event())
        .ok_or_else(|| {
            TournamentError::Store(StoreError::Corrupt(
                "a tournament this version cannot read".into(),
            ))
        })
}

/// Creates a tournament run by account `owner`; answers its id.
///
/// # Errors
/// A name empty or too long, an unknown system or colour, no rounds or too many.
pub(crate) async fn create(
    store: &Store,
    owner: &str,
    new: &NewTournament,
    now: i64,
) -> Result<String, TournamentError> {
    let name = new.name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control) {
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
    let event = Event::new(name, system, new.rounds, first);
    let id = crate::ids::game_id();
    store
        .add_tournament(&id, owner, now, &body_of(&event))
        .await?;
    Ok(id)
}

/// Tournament `id` and its arbiter's account.
///
/// # Errors
/// No such tournament.
pub(crate) async fn read(store: &Store, id: &str) -> Result<(Event, String), TournamentError> {
    let stored = store
        .tournament(id)
        .await?
        .ok_or(TournamentError::NotFound)?;
    Ok((event_of(&stored.body)?, stored.owner))
}

/// Applies `action` to tournament `id` for account `by`: the event after it.
///
/// # Errors
/// No such tournament, not its arbiter, an action the event refuses (nothing changes).
pub(crate) async fn act(
    store: &Store,
    id: &str,
    by: &str,
    action: &Action,
) -> Result<Event, TournamentError> {
    for _ in 0..TRIES {
        let stored = store
            .tournament(id)
            .await?
            .ok_or(TournamentError::NotFound)?;
        if stored.owner != by {
            return Err(TournamentError::NotArbiter);
        }
        let mut event = event_of(&stored.body)?;
        apply(&mut event, action)?;
        if store
            .update_tournament(id, stored.version, &body_of(&event))
            .await?
        {
            return Ok(event);
        }
        // Another change came first: read it and apply this one to it.
    }
    Err(TournamentError::Invalid(
        "the tournament is being changed by others: try again".into(),
    ))
}

/// The one place an action meets the event.
fn apply(event: &mut Event, action: &Action) -> Result<(), TournamentError> {
    let ev = TournamentError::Event;
    match action {
        Action::Enter { name, rating } => {
            let name = name.trim();
            if name.is_empty()
                || name.chars().count() > MAX_PLAYER_NAME
                || name.chars().any(char::is_control)
            {
                return Err(TournamentError::Invalid(format!(
                    "name: 1 to {MAX_PLAYER_NAME} characters, on one line"
                )));
            }
            if event.players.len() >= MAX_PLAYERS {
                return Err(TournamentError::Invalid(format!(
                    "a tournament takes at most {MAX_PLAYERS} players"
                )));
            }
            let rating = rating.unwrap_or(0);
            if rating > 4000 {
                return Err(TournamentError::Invalid("rating: 0 to 4000".into()));
            }
            event.enter(name, rating).map_err(ev)?;
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
        Action::Pair => {
            event.pair_next().map_err(ev)?;
        }
        Action::Result {
            round,
            board,
            result,
        } => {
            let result = match result.as_deref() {
                None => None,
                Some(text) => Some(GameResult::parse(text).ok_or_else(|| {
                    TournamentError::Invalid("result: 1-0, 1/2-1/2, 0-1, +/-, -/+ or -/-".into())
                })?),
            };
            event.set_result(*round, *board, result).map_err(ev)?;
        }
    }
    Ok(())
}

/// The tie-breaks a tournament's standings show (docs/TOURNAMENTS.md's defaults).
pub(crate) fn tie_breaks(system: System) -> Vec<TieBreak> {
    let names: &[&str] = match system {
        System::Dutch => &["PTS", "BH/C1", "BH", "SB", "DE"],
        System::RoundRobin => &["PTS", "DE", "SB", "WIN"],
    };
    names
        .iter()
        .map(|n| TieBreak::parse(n).expect("a known tie-break"))
        .collect()
}

/// The tournament as the API shows it.
pub(crate) fn view(id: &str, event: &Event) -> serde_json::Value {
    use serde_json::json;
    let list = tie_breaks(event.system);
    let (values, ranks) = event.standings(&list);
    let mut order: Vec<usize> = (0..event.players.len()).collect();
    order.sort_by_key(|&i| (ranks[i], i));
    let show = |v: &Value| v.to_string();
    json!({
        "id": id,
        "name": event.name,
        "system": system_name(event.system),
        "rounds": event.rounds,
        "next_round": event.next_round(),
        "first_colour": colour_name(event.first_colour),
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
        "pairings": event.paired.iter().map(|round| {
            round.iter().enumerate().map(|(k, b)| json!({
                "board": k + 1,
                "white": b.white,
                "black": b.black,
                "result": b.result.map(|r| r.as_str()),
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
