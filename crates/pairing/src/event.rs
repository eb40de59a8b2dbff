//! A tournament as it is run: its players (late entries and withdrawals included), the byes
//! they ask for, each round's boards and results (corrections too), the next round paired by
//! its system, the standings by its tie-breaks. Pure: the server stores it, shows it and
//! makes its games; an arbiter's results come in through the same calls as the server's.
//!
//! Every pairing reads the tournament's own report file ([`Event::trf`]), the file a
//! federation gets and FIDE's checkers read: what is paired is what is reported.

use crate::berger;
use crate::dutch;
use crate::swiss::{Field, FieldError};
use crate::tiebreak::{self, TieBreak, Value};
use crate::trf::{Color, Outcome, Player as TrfPlayer, PointSystem, Points, Record, Trf};

/// How the rounds are paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum System {
    /// The FIDE Dutch system (C.04.3).
    Dutch,
    /// FIDE's Berger tables (C.05 Annex 1): every player meets every other, twice when the
    /// event plans two cycles of rounds.
    RoundRobin,
}

/// A player of the event; the starting number is the index plus one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    /// The name as the report and the pairing lists show it.
    pub name: String,
    /// The rating the event uses (0: unrated).
    pub rating: u32,
    /// The first round the player is in (1 unless entered late).
    pub first_round: u32,
    /// The round from which the player is out (withdrawn), if any.
    pub withdrawn_from: Option<u32>,
}

/// A board's result, as an arbiter writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Result {
    /// `1-0`.
    WhiteWins,
    /// `½-½`.
    Draw,
    /// `0-1`.
    BlackWins,
    /// `+/-`: Black did not play.
    WhiteByForfeit,
    /// `-/+`: White did not play.
    BlackByForfeit,
    /// `-/-`: neither played.
    DoubleForfeit,
}

impl Result {
    /// What each side's record says: (White's, Black's).
    fn outcomes(self) -> (Outcome, Outcome) {
        match self {
            Result::WhiteWins => (Outcome::Won, Outcome::Lost),
            Result::Draw => (Outcome::Drew, Outcome::Drew),
            Result::BlackWins => (Outcome::Lost, Outcome::Won),
            Result::WhiteByForfeit => (Outcome::ForfeitWon, Outcome::ForfeitLost),
            Result::BlackByForfeit => (Outcome::ForfeitLost, Outcome::ForfeitWon),
            Result::DoubleForfeit => (Outcome::ForfeitLost, Outcome::ForfeitLost),
        }
    }

    /// The arbiter's way of writing it: `1-0`, `1/2-1/2` (or `½-½`), `0-1`, `+/-`, `-/+`,
    /// `-/-`.
    pub fn parse(text: &str) -> Option<Result> {
        Some(match text.trim() {
            "1-0" => Result::WhiteWins,
            "1/2-1/2" | "½-½" | "=" => Result::Draw,
            "0-1" => Result::BlackWins,
            "+/-" | "+-" => Result::WhiteByForfeit,
            "-/+" | "-+" => Result::BlackByForfeit,
            "-/-" | "--" => Result::DoubleForfeit,
            _ => return None,
        })
    }

    /// As [`Result::parse`] reads it (`1/2-1/2` for a draw).
    pub fn as_str(self) -> &'static str {
        match self {
            Result::WhiteWins => "1-0",
            Result::Draw => "1/2-1/2",
            Result::BlackWins => "0-1",
            Result::WhiteByForfeit => "+/-",
            Result::BlackByForfeit => "-/+",
            Result::DoubleForfeit => "-/-",
        }
    }
}

/// One board of a round: two players, or one with the pairing-allocated bye.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    /// Starting numbers from 1.
    pub white: u32,
    /// `None`: the pairing-allocated bye (a round robin's odd player out: no game, no point).
    pub black: Option<u32>,
    /// Not yet known while the game goes on.
    pub result: Option<Result>,
}

/// A bye asked for ahead of a round's pairing (C.04.3: half-point and zero-point byes; a
/// full-point one where the event's rules allow it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bye {
    /// `H`.
    Half,
    /// `Z`.
    Zero,
    /// `F`.
    Full,
}

impl Bye {
    fn outcome(self) -> Outcome {
        match self {
            Bye::Half => Outcome::HalfBye,
            Bye::Zero => Outcome::ZeroBye,
            Bye::Full => Outcome::FullBye,
        }
    }
}

/// Why the event refused a call; nothing changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventError {
    /// No player has this starting number.
    UnknownPlayer(u32),
    /// The round asked for is not the one to be paired, or not paired yet.
    NoSuchRound(u32),
    /// A round is paired only when every board of the last one has its result.
    RoundUnfinished(u32),
    /// Every planned round is paired.
    Finished,
    /// No board of that round has this number.
    NoSuchBoard(u32),
    /// A round robin takes its players before its first round.
    RoundRobinStarted,
    /// The player is out of the event (withdrawn) or not in yet.
    NotPlaying(u32),
    /// The player holds a board in that round already.
    AlreadyPaired(u32),
    /// No pairing meets the absolute criteria (C.04.3 2.1).
    NoPairing,
    /// The report could not be paired (a fault in it; never expected of an event's own).
    Field(FieldError),
}

impl std::fmt::Display for EventError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EventError::UnknownPlayer(n) => write!(f, "no player has starting number {n}"),
            EventError::NoSuchRound(r) => write!(f, "round {r} is not paired"),
            EventError::RoundUnfinished(r) => {
                write!(f, "round {r} still has boards without a result")
            }
            EventError::Finished => f.write_str("every round of the event is paired"),
            EventError::NoSuchBoard(b) => write!(f, "the round has no board {b}"),
            EventError::RoundRobinStarted => {
                f.write_str("a round robin takes no player after its first round is paired")
            }
            EventError::NotPlaying(n) => {
                write!(f, "player {n} is not in the event for that round")
            }
            EventError::AlreadyPaired(n) => write!(f, "player {n} is paired in that round"),
            EventError::NoPairing => f.write_str(
                "no pairing exists: the players cannot all be paired without a second meeting \
                 or an absolute colour clash",
            ),
            EventError::Field(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for EventError {}

/// A tournament being run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The name on the report (`012`).
    pub name: String,
    pub system: System,
    /// Rounds planned.
    pub rounds: u32,
    /// The colour of the top player in round 1 (the arbiter's draw of lots).
    pub first_colour: Color,
    pub points: PointSystem,
    /// By starting number.
    pub players: Vec<Entrant>,
    /// Each paired round's boards, round 1 first.
    pub paired: Vec<Vec<Board>>,
    /// Byes asked for ahead: (round, starting number, kind).
    pub byes: Vec<(u32, u32, Bye)>,
    /// Pairs of starting numbers that may not meet (the organiser's: family, club mates;
    /// `XXP` in the file the next pairing reads, not in the report).
    pub forbidden: Vec<(u32, u32)>,
    /// Baku acceleration (C.04.7.1): the top half's players count a virtual point in the
    /// first rounds (`192 FIDE_DUTCH_2025_BAKU` in its files, as bbpPairings reads it).
    pub baku: bool,
}

impl Event {
    /// A new event with no players.
    pub fn new(name: &str, system: System, rounds: u32, first_colour: Color) -> Event {
        Event {
            name: name.to_owned(),
            system,
            rounds,
            first_colour,
            points: PointSystem::default(),
            players: Vec::new(),
            paired: Vec::new(),
            byes: Vec::new(),
            forbidden: Vec::new(),
            baku: false,
        }
    }

    /// The round to be paired next, from 1.
    pub fn next_round(&self) -> u32 {
        self.paired.len() as u32 + 1
    }

    /// The paired rounds with every result in, from round 1 (what the report and the
    /// standings count).
    pub fn complete_rounds(&self) -> usize {
        self.paired
            .iter()
            .take_while(|round| {
                round
                    .iter()
                    .all(|b| b.black.is_none() || b.result.is_some())
            })
            .count()
    }

    /// Enters a player (late, in a Swiss: from the next round to be paired, the rounds
    /// missed scoring nothing); answers the starting number.
    ///
    /// # Errors
    /// A round robin already under way.
    pub fn enter(&mut self, name: &str, rating: u32) -> std::result::Result<u32, EventError> {
        if self.system == System::RoundRobin && !self.paired.is_empty() {
            return Err(EventError::RoundRobinStarted);
        }
        self.players.push(Entrant {
            name: name.to_owned(),
            rating,
            first_round: self.next_round(),
            withdrawn_from: None,
        });
        Ok(self.players.len() as u32)
    }

    /// Withdraws a player from the next round to be paired on (the rounds played stand).
    ///
    /// # Errors
    /// An unknown player.
    pub fn withdraw(&mut self, player: u32) -> std::result::Result<(), EventError> {
        let next = self.next_round();
        let p = self.entrant_mut(player)?;
        p.withdrawn_from = Some(p.withdrawn_from.map_or(next, |w| w.min(next)));
        Ok(())
    }

    /// Asks for a bye in a round not yet paired (a second request for the round replaces
    /// the first).
    ///
    /// # Errors
    /// An unknown player, a round already paired or beyond the event, a player out then.
    pub fn ask_bye(
        &mut self,
        player: u32,
        round: u32,
        bye: Bye,
    ) -> std::result::Result<(), EventError> {
        if round < self.next_round() || round > self.rounds {
            return Err(EventError::NoSuchRound(round));
        }
        if !self.plays_in(self.entrant(player)?, round) {
            return Err(EventError::NotPlaying(player));
        }
        self.byes.retain(|&(r, p, _)| (r, p) != (round, player));
        self.byes.push((round, player, bye));
        Ok(())
    }

    /// Takes back a bye asked for a round not yet paired.
    pub fn cancel_bye(&mut self, player: u32, round: u32) {
        if round >= self.next_round() {
            self.byes.retain(|&(r, p, _)| (r, p) != (round, player));
        }
    }

    /// Sets (or corrects) the result of board `board` (from 1) of round `round`.
    ///
    /// # Errors
    /// No such round or board, or the board is the pairing-allocated bye.
    pub fn set_result(
        &mut self,
        round: u32,
        board: u32,
        result: Option<Result>,
    ) -> std::result::Result<(), EventError> {
        let boards = self
            .paired
            .get_mut((round as usize).wrapping_sub(1))
            .ok_or(EventError::NoSuchRound(round))?;
        let b = boards
            .get_mut((board as usize).wrapping_sub(1))
            .filter(|b| b.black.is_some())
            .ok_or(EventError::NoSuchBoard(board))?;
        b.result = result;
        Ok(())
    }

    /// Pairs the next round by the event's system and keeps it; answers its boards, in the
    /// order a pairing list is published (the bye last).
    ///
    /// # Errors
    /// The last round still has boards without results, every round is paired, no pairing
    /// meets the absolute criteria.
    pub fn pair_next(&mut self) -> std::result::Result<&[Board], EventError> {
        let round = self.next_round();
        if round > self.rounds {
            return Err(EventError::Finished);
        }
        if let Some(last) = self.paired.last() {
            if last.iter().any(|b| b.black.is_some() && b.result.is_none()) {
                return Err(EventError::RoundUnfinished(round - 1));
            }
        }
        let trf = Trf::parse(&self.trf(true)).expect("an event's own report reads");
        let pairs: Vec<(u32, Option<u32>)> = match self.system {
            System::Dutch => {
                let field = Field::for_next_round(&trf).map_err(EventError::Field)?;
                let mut boards = dutch::pair(&field).map_err(|_| EventError::NoPairing)?;
                dutch::publication_order(&field, &mut boards);
                let id = |i: usize| field.players[i].id;
                boards
                    .iter()
                    .map(|b| match *b {
                        dutch::Board::Game { white, black } => (id(white), Some(id(black))),
                        dutch::Board::Bye(p) => (id(p), None),
                    })
                    .collect()
            }
            System::RoundRobin => berger::next_round(&trf).map_err(|_| EventError::Finished)?,
        };
        self.paired.push(
            pairs
                .into_iter()
                .map(|(white, black)| Board {
                    white,
                    black,
                    result: None,
                })
                .collect(),
        );
        Ok(self.paired.last().expect("just pushed"))
    }

    /// The event's report (TRF, as FIDE's tools read it): every paired round whose results
    /// are all known; with `ahead`, also the byes and absences already settled for the next
    /// round (what its pairing reads).
    pub fn trf(&self, ahead: bool) -> String {
        let mut text = format!("012 {}\n", self.name.replace(['\n', '\r'], " "));
        let complete = self.complete_rounds();
        let mut trf = Trf::parse(&text).expect("a header reads");
        for (i, p) in self.players.iter().enumerate() {
            let id = i as u32 + 1;
            let mut records: Vec<Record> = (1..=complete as u32)
                .map(|round| self.record(id, round))
                .collect();
            if ahead {
                let round = complete as u32 + 1;
                if round <= self.rounds {
                    if let Some(rec) = self.record_ahead(id, round) {
                        records.push(rec);
                    }
                }
            }
            let points = records
                .iter()
                .take(complete)
                .map(|r| self.points.points(r.outcome))
                .sum();
            trf.players.insert(
                id,
                TrfPlayer {
                    id,
                    identity: format!("     {:<33}", truncate(&p.name, 33)),
                    rating: p.rating,
                    details: " ".repeat(26),
                    points,
                    rank: 0,
                    records,
                },
            );
        }
        text = trf.write();
        text.push_str(&format!(
            "XXR {}\nXXC {}1\n",
            self.rounds,
            match self.first_colour {
                Color::White => "white",
                Color::Black => "black",
            }
        ));
        if self.baku {
            text.push_str("192 FIDE_DUTCH_2025_BAKU\n");
        }
        if ahead {
            for (a, b) in &self.forbidden {
                text.push_str(&format!("XXP {a} {b}\n"));
            }
        }
        text
    }

    /// The standings: every player's tie-break values (in the order of `list`) and rank,
    /// over the rounds whose results are all known.
    pub fn standings(&self, list: &[TieBreak]) -> (Vec<Vec<Value>>, Vec<usize>) {
        let trf = Trf::parse(&self.trf(false)).expect("an event's own report reads");
        let values = tiebreak::compute(
            &trf,
            trf.played_rounds() as usize,
            self.tie_break_system(),
            list,
        )
        .expect("an event numbers its players from 1");
        let ranks = tiebreak::ranks(&values, list);
        (values, ranks)
    }

    /// How the tie-breaks read unplayed games in this event.
    fn tie_break_system(&self) -> tiebreak::System {
        match self.system {
            System::Dutch => tiebreak::System::Swiss,
            System::RoundRobin => tiebreak::System::RoundRobin,
        }
    }

    /// The tie-breaks its standings use unless the organiser names others.
    pub fn default_tie_breaks(&self) -> Vec<TieBreak> {
        tiebreak::defaults(self.tie_break_system())
    }

    fn entrant(&self, player: u32) -> std::result::Result<&Entrant, EventError> {
        self.players
            .get((player as usize).wrapping_sub(1))
            .ok_or(EventError::UnknownPlayer(player))
    }

    fn entrant_mut(&mut self, player: u32) -> std::result::Result<&mut Entrant, EventError> {
        self.players
            .get_mut((player as usize).wrapping_sub(1))
            .ok_or(EventError::UnknownPlayer(player))
    }

    fn plays_in(&self, p: &Entrant, round: u32) -> bool {
        p.first_round <= round && p.withdrawn_from.is_none_or(|w| round < w)
    }

    /// The bye player `id` asked for in `round`, if any.
    fn bye_asked(&self, id: u32, round: u32) -> Option<Bye> {
        self.byes
            .iter()
            .find(|&&(r, p, _)| (r, p) == (round, id))
            .map(|&(_, _, b)| b)
    }

    /// What player `id`'s record says of a paired round.
    fn record(&self, id: u32, round: u32) -> Record {
        for b in &self.paired[round as usize - 1] {
            match b.black {
                None if b.white == id => {
                    let outcome = match self.system {
                        System::Dutch => Outcome::PairingBye,
                        // A round robin's player out has no game and no point.
                        System::RoundRobin => Outcome::ZeroBye,
                    };
                    return Record {
                        opponent: None,
                        colour: None,
                        outcome,
                    };
                }
                Some(black) if b.white == id || black == id => {
                    let result = b.result.expect("a complete round");
                    let (w, k) = result.outcomes();
                    let (colour, opponent, outcome) = if b.white == id {
                        (Color::White, black, w)
                    } else {
                        (Color::Black, b.white, k)
                    };
                    return Record {
                        opponent: Some(opponent),
                        colour: outcome.played().then_some(colour),
                        outcome,
                    };
                }
                _ => {}
            }
        }
        // Not paired: a bye asked for, or out of the event.
        let bye = self.bye_asked(id, round);
        Record {
            opponent: None,
            colour: None,
            outcome: bye.map_or(Outcome::ZeroBye, Bye::outcome),
        }
    }

    /// What player `id`'s record says of round `round` (from 1) once it is known: `None`
    /// for a round not paired yet, or while his game goes on.
    pub fn record_of(&self, id: u32, round: u32) -> Option<Record> {
        let boards = self.paired.get((round as usize).wrapping_sub(1))?;
        let running = boards.iter().any(|b| {
            b.result.is_none() && b.black.is_some() && (b.white == id || b.black == Some(id))
        });
        (!running && (1..=self.players.len() as u32).contains(&id)).then(|| self.record(id, round))
    }

    /// Player `id`'s points over the rounds before `round` whose records are known.
    pub fn points_before(&self, id: u32, round: u32) -> Points {
        (1..round)
            .filter_map(|r| self.record_of(id, r))
            .map(|r| self.points.points(r.outcome))
            .sum()
    }

    /// Player `id`'s record for the round about to be paired, when it is settled already: a
    /// bye asked for, or not in the event then.
    fn record_ahead(&self, id: u32, round: u32) -> Option<Record> {
        let p = &self.players[id as usize - 1];
        match self.bye_asked(id, round) {
            Some(b) => Some(Record {
                opponent: None,
                colour: None,
                outcome: b.outcome(),
            }),
            None if !self.plays_in(p, round) => Some(Record {
                opponent: None,
                colour: None,
                outcome: Outcome::ZeroBye,
            }),
            None => None,
        }
    }
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// A random Swiss run to its end, for tests and demonstrations: `players` entered (a few
/// more late), results drawn (draws, forfeits), half-point and zero-point byes asked for,
/// withdrawals. The same seed gives the same event. A round that cannot be paired (a small
/// field runs out of opponents) ends it: the event as it stood, and why.
pub fn random_event(
    seed: u64,
    players: u32,
    rounds: u32,
) -> (Event, std::result::Result<(), EventError>) {
    let mut event = Event::new(
        &format!("Random event {seed}"),
        System::Dutch,
        rounds,
        Color::White,
    );
    let run = run_random(&mut event, seed, players, rounds);
    (event, run)
}

fn run_random(
    event: &mut Event,
    seed: u64,
    players: u32,
    rounds: u32,
) -> std::result::Result<(), EventError> {
    let mut state = seed | 1;
    let mut next = move |n: u64| -> u64 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n.max(1)
    };
    event.first_colour = if next(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    for i in 0..players {
        event.enter(
            &format!("Player {:04}", i + 1),
            2600 - 1400 * i / players.max(1),
        )?;
    }
    for round in 1..=rounds {
        if round > 1 && next(3) == 0 {
            let rating = 1200 + next(1400) as u32;
            event.enter(&format!("Late {round}"), rating)?;
        }
        let count = event.players.len() as u32;
        for _ in 0..count / 15 + 1 {
            let p = next(u64::from(count)) as u32 + 1;
            match next(10) {
                0 => event.withdraw(p)?,
                1 | 2 => {
                    let bye = if next(2) == 0 { Bye::Half } else { Bye::Zero };
                    // A player out by then cannot ask.
                    let _ = event.ask_bye(p, round, bye);
                }
                _ => {}
            }
        }
        let boards = event.pair_next()?.len() as u32;
        for b in 1..=boards {
            let result = match next(40) {
                0 => Result::WhiteByForfeit,
                1 => Result::BlackByForfeit,
                2..=15 => Result::Draw,
                16..=28 => Result::WhiteWins,
                _ => Result::BlackWins,
            };
            match event.set_result(round, b, Some(result)) {
                Ok(()) | Err(EventError::NoSuchBoard(_)) => {}
                Err(e) => return Err(e),
            }
        }
    }
    Ok(())
}
