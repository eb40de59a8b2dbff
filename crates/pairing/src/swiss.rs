//! A Swiss tournament as the pairing sees it before a round: who is to be paired, their
//! scores, colours and floats so far (FIDE C.04.1, C.04.3 article 1), read from a TRF.
//!
//! The reading follows bbpPairings's (the FIDE-endorsed engine Rookery's pairings are checked
//! against): pairing numbers are the starting numbers (or the file's order with `XXC rank`);
//! a record in the round to be paired (a bye asked for, an absence) keeps that player out of
//! the pairing; `240` lines do the same; a game counts as played only over the board.

use std::ops::Not;

use crate::trf::{Color, Outcome, PointSystem, Points, Trf};

/// How a past round went for a player, as the pairing rules read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Past {
    /// The opponent's index in [`Field::players`], or the player's own for none.
    pub opponent: usize,
    /// The colour, if one was given.
    pub colour: Option<Color>,
    /// Won (also by forfeit or bye), drawn, or lost (also absent).
    pub score: MatchScore,
    /// Played over the board.
    pub played: bool,
    /// Paired: a game, a forfeit, or the pairing-allocated bye.
    pub in_pairing: bool,
}

/// The result of a round for the pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchScore {
    /// One point, or whatever a win is worth.
    Win,
    /// Half a point.
    Draw,
    /// Nothing.
    Loss,
}

impl Past {
    fn absent(me: usize) -> Past {
        Past {
            opponent: me,
            colour: None,
            score: MatchScore::Loss,
            played: false,
            in_pairing: false,
        }
    }
}

/// One player.
#[derive(Debug, Clone)]
pub struct Entrant {
    /// The starting number.
    pub id: u32,
    /// The pairing number's order among the players in the pairing (0 = first).
    pub rank: usize,
    /// Whether the player is in the tournament at this round.
    pub valid: bool,
    /// Points, without acceleration.
    pub score: Points,
    /// Points added for pairing, by round (from 0).
    pub accelerations: Vec<Points>,
    /// Round by round (from 0); one more than the rounds played when the round to be paired
    /// already holds an entry (a bye asked for, an absence).
    pub history: Vec<Past>,
    // Derived (C.04.3 1.7): colour difference and preference.
    /// Games played over the board.
    pub played_games: usize,
    /// |whites - blacks|.
    pub colour_imbalance: usize,
    /// The colour of the last two games played, when they were the same.
    pub repeated_colour: Option<Color>,
    /// The colour preferred, if any.
    pub colour_preference: Option<Color>,
    /// A strong (not absolute) preference.
    pub strong_preference: bool,
}

impl Entrant {
    /// An absolute colour imbalance: the colour difference is beyond ±1.
    pub fn absolute_imbalance(&self) -> bool {
        self.colour_imbalance > 1
    }

    /// An absolute colour preference (C.04.3 1.7.1).
    pub fn absolute_preference(&self) -> bool {
        self.absolute_imbalance() || self.repeated_colour.is_some()
    }
}

/// Why a file cannot be paired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldError {
    /// Starting numbers must run from 1 without a gap.
    MissingNumber(u32),
    /// More rounds played than the tournament has.
    TooManyRounds,
    /// The number of rounds is not given (`XXR`).
    NoRoundCount,
    /// Nobody had a colour yet and the first round's colour is not given (`XXC white1`).
    NoInitialColour,
    /// Baku acceleration needs a loss worth nothing and a draw worth half a win.
    BakuPoints,
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FieldError::MissingNumber(n) => write!(f, "no player has starting number {n}"),
            FieldError::TooManyRounds => {
                f.write_str("more rounds are played than the tournament has (XXR)")
            }
            FieldError::NoRoundCount => {
                f.write_str("the number of rounds is not given (XXR or 142)")
            }
            FieldError::NoInitialColour => {
                f.write_str("the first round's colour is not given (XXC white1 or black1)")
            }
            FieldError::BakuPoints => f.write_str(
                "Baku acceleration needs a loss worth 0 and a draw worth half a win (BBW, BBD, BBL)",
            ),
        }
    }
}

impl std::error::Error for FieldError {}

/// The tournament before the round to be paired.
#[derive(Debug, Clone)]
pub struct Field {
    /// By starting number (index = number - 1).
    pub players: Vec<Entrant>,
    /// Rounds played (the round to be paired is this one, from 0).
    pub played_rounds: usize,
    /// Rounds in all.
    pub total_rounds: usize,
    /// The colour of the top player in round 1.
    pub initial_colour: Color,
    /// What each result is worth.
    pub points: PointSystem,
    /// Pairs that may not meet this round (besides those who met).
    pub forbidden: Vec<(usize, usize)>,
}

impl Field {
    /// The field for pairing the round after the ones a file records.
    ///
    /// # Errors
    /// A gap in the starting numbers, more rounds than `XXR`, no `XXR`, no first colour.
    pub fn for_next_round(trf: &Trf) -> Result<Field, FieldError> {
        let (mut players, played_rounds) = histories(trf)?;
        let total_rounds = trf.rounds.ok_or(FieldError::NoRoundCount)? as usize;
        if played_rounds + 1 > total_rounds {
            return Err(FieldError::TooManyRounds);
        }
        for (i, p) in players.iter_mut().enumerate() {
            if p.history.len() < played_rounds {
                p.history.resize(played_rounds, Past::absent(i));
            }
        }
        // Byes asked for in `240` lines for this round: out of the pairing.
        for &(round, _, id) in &trf.byes {
            if round as usize == played_rounds + 1 {
                let i = id as usize - 1;
                if let Some(p) = players.get_mut(i) {
                    if p.history.len() <= played_rounds {
                        p.history.push(Past::absent(i));
                    }
                }
            }
        }
        let points = trf.points;
        // The score from the results (the file's own was checked against them).
        for p in players.iter_mut() {
            let me = p.id as usize - 1;
            p.score = p
                .history
                .iter()
                .take(played_rounds)
                .map(|m| points_of(&points, me, m))
                .sum();
        }
        // Valid: in the pairing this round, or paired in some earlier round.
        for p in players.iter_mut() {
            p.valid = p.history.len() <= played_rounds || p.history.iter().any(|m| m.in_pairing);
        }
        // Pairing numbers: by starting number, or by the file's order with `XXC rank`.
        let order = pairing_order(trf);
        let mut rank = 0;
        for &i in &order {
            if players[i].valid {
                players[i].rank = rank;
                rank += 1;
            }
        }
        for p in players.iter_mut().filter(|p| p.valid) {
            colour_data(p);
        }
        if trf.accelerations.is_empty() && trf.baku() {
            baku(&mut players, &order, total_rounds, &points)?;
        }
        let initial_colour = match trf.initial_colour {
            Some(c) => c,
            None => infer_first_colour(&players, &order).ok_or(FieldError::NoInitialColour)?,
        };
        let mut forbidden = Vec::new();
        for f in &trf.forbidden {
            let round = played_rounds as u32 + 1;
            if round < f.first || round > f.last {
                continue;
            }
            for (k, &a) in f.players.iter().enumerate() {
                for &b in &f.players[k + 1..] {
                    forbidden.push((a as usize - 1, b as usize - 1));
                }
            }
        }
        Ok(Field {
            players,
            played_rounds,
            total_rounds,
            initial_colour,
            points,
            forbidden,
        })
    }

    /// The colour of the top player in round 1: as the file gives it (`XXC`), or as
    /// bbpPairings infers it from the first round anyone had a colour in.
    ///
    /// # Errors
    /// A gap in the starting numbers; no colour given and none to infer from.
    pub fn first_colour(trf: &Trf) -> Result<Color, FieldError> {
        if let Some(c) = trf.initial_colour {
            return Ok(c);
        }
        let (players, _) = histories(trf)?;
        infer_first_colour(&players, &pairing_order(trf)).ok_or(FieldError::NoInitialColour)
    }

    /// What a past round is worth to player `me`.
    pub fn points_of(&self, me: usize, m: &Past) -> Points {
        points_of(&self.points, me, m)
    }

    /// A player's score with acceleration, as it stood `back` rounds ago.
    pub fn score_with_acceleration(&self, i: usize, back: usize) -> Points {
        let p = &self.players[i];
        let mut score = p.score;
        let mut round = self.played_rounds;
        for _ in 0..back {
            round -= 1;
            score -= self.points_of(i, &p.history[round]);
        }
        score + p.accelerations.get(round).copied().unwrap_or(0)
    }

    /// Whether a player may get the pairing-allocated bye: no bye or forfeit win of a full
    /// point before (C.04.1.d), and not the pairing-allocated bye before.
    pub fn eligible_for_bye(&self, i: usize) -> bool {
        let p = &self.players[i];
        !p.history.iter().any(|m| {
            !m.played
                && (self.points_of(i, m) >= self.points.win || (m.in_pairing && m.opponent == i))
        })
    }
}

/// Player indices by pairing number: starting numbers, or the file's order with `XXC rank`.
fn pairing_order(trf: &Trf) -> Vec<usize> {
    if trf.by_rank {
        trf.player_order().map(|id| id as usize - 1).collect()
    } else {
        (0..trf.players.len()).collect()
    }
}

/// Starting numbers run from 1 without a gap (players are then indexed by number - 1).
///
/// # Errors
/// The first number missing.
pub(crate) fn numbered_from_one(trf: &Trf) -> Result<(), FieldError> {
    for (i, id) in trf.players.keys().enumerate() {
        if *id as usize != i + 1 {
            return Err(FieldError::MissingNumber(i as u32 + 1));
        }
    }
    Ok(())
}

/// Every player's rounds as the pairing reads them, and the number of rounds played.
fn histories(trf: &Trf) -> Result<(Vec<Entrant>, usize), FieldError> {
    let count = trf.players.len();
    numbered_from_one(trf)?;
    let mut players: Vec<Entrant> = Vec::with_capacity(count);
    let mut played_rounds = 0usize;
    for (i, p) in trf.players.values().enumerate() {
        let mut history = Vec::new();
        // Trailing records that say nothing were dropped by the reader; count the
        // rounds the way bbpPairings does: a record counts toward the rounds played
        // when it is paired, or when a later record exists.
        for (r, rec) in p.records.iter().enumerate() {
            let opponent = rec.opponent.map_or(i, |o| o as usize - 1);
            let score = match rec.outcome {
                Outcome::Won | Outcome::ForfeitWon | Outcome::FullBye | Outcome::PairingBye => {
                    MatchScore::Win
                }
                Outcome::Drew | Outcome::HalfBye => MatchScore::Draw,
                Outcome::Lost | Outcome::ForfeitLost | Outcome::ZeroBye | Outcome::Absent => {
                    MatchScore::Loss
                }
            };
            let played = rec.outcome.played() && rec.colour.is_some();
            let in_pairing = rec.opponent.is_some()
                || matches!(rec.outcome, Outcome::PairingBye | Outcome::ForfeitWon);
            // A record before another counts as a round; so does a paired one.
            played_rounds = played_rounds.max(r);
            if in_pairing {
                played_rounds = played_rounds.max(r + 1);
            }
            history.push(Past {
                opponent,
                colour: rec.colour,
                score,
                played,
                in_pairing,
            });
        }
        players.push(Entrant {
            id: p.id,
            rank: 0,
            valid: true,
            score: 0,
            accelerations: trf.accelerations.get(&p.id).cloned().unwrap_or_default(),
            history,
            played_games: 0,
            colour_imbalance: 0,
            repeated_colour: None,
            colour_preference: None,
            strong_preference: false,
        });
    }
    // A round every player already holds a record for is a round played.
    if !players.is_empty() && players.iter().all(|p| p.history.len() > played_rounds) {
        played_rounds += 1;
    }
    Ok((players, played_rounds))
}

fn points_of(points: &PointSystem, me: usize, m: &Past) -> Points {
    match m.score {
        MatchScore::Loss => {
            if m.in_pairing {
                if m.played {
                    points.loss
                } else {
                    points.forfeit_loss
                }
            } else {
                points.zero_bye
            }
        }
        MatchScore::Win => {
            if m.opponent == me && m.in_pairing {
                points.pairing_bye
            } else {
                points.win
            }
        }
        MatchScore::Draw => points.draw,
    }
}

/// Baku acceleration (C.04.5.1, as bbpPairings applies it when the file names the system
/// `FIDE_DUTCH_2025_BAKU`): the first half of the players by pairing order (rounded up) get
/// a win's points added for the first half of the first half of the rounds (rounded up) and
/// a draw's for the rest of the first half; nobody after that.
fn baku(
    players: &mut [Entrant],
    order: &[usize],
    total_rounds: usize,
    points: &PointSystem,
) -> Result<(), FieldError> {
    if points.loss != 0 || points.draw.checked_mul(2) != Some(points.win) {
        return Err(FieldError::BakuPoints);
    }
    if order.is_empty() || total_rounds == 0 {
        return Ok(());
    }
    let last_round = (total_rounds - 1) / 2;
    let last_full_round = last_round / 2;
    for &i in &order[..=(order.len() - 1) / 2] {
        players[i].accelerations = (0..=last_round)
            .map(|r| {
                if r <= last_full_round {
                    points.win
                } else {
                    points.draw
                }
            })
            .collect();
    }
    Ok(())
}

/// Colour difference and preference from the games played (C.04.3 1.7).
fn colour_data(p: &mut Entrant) {
    let (mut whites, mut blacks, mut run) = (0usize, 0usize, 0usize);
    let mut last: Option<Color> = None;
    for m in p.history.iter().filter(|m| m.played) {
        let c = m.colour.expect("a played game has a colour");
        match c {
            Color::White => whites += 1,
            Color::Black => blacks += 1,
        }
        run = if run == 0 || Some(c) != last {
            1
        } else {
            run + 1
        };
        last = Some(c);
        p.played_games += 1;
    }
    let lower = if whites > blacks {
        Color::Black
    } else {
        Color::White
    };
    p.colour_imbalance = whites.abs_diff(blacks);
    p.colour_preference = if p.colour_imbalance > 1 {
        Some(lower)
    } else if run > 1 {
        last.map(Color::not)
    } else if p.colour_imbalance > 0 {
        Some(lower)
    } else if run > 0 {
        last.map(Color::not)
    } else {
        None
    };
    p.repeated_colour = if run > 1 { last } else { None };
    p.strong_preference = !p.absolute_preference() && p.colour_imbalance > 0;
}

/// The first round's colour of the top player, from the first round in which anyone had a
/// colour: the colour then of the first player (in pairing order) who was paired by then,
/// or of the next one reversed, and so on.
fn infer_first_colour(players: &[Entrant], order: &[usize]) -> Option<Color> {
    let first = players
        .iter()
        .filter(|p| p.valid)
        .filter_map(|p| p.history.iter().position(|m| m.colour.is_some()))
        .min()?;
    let mut effective = 0usize;
    for &i in order {
        let p = &players[i];
        if p.history.iter().take(first + 1).any(|m| m.in_pairing) {
            if let Some(c) = p.history.get(first).and_then(|m| m.colour) {
                return Some(if effective % 2 == 1 { !c } else { c });
            }
            effective += 1;
        }
    }
    None
}
