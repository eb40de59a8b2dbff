//! Checking a tournament's rounds against the Dutch system, as bbpPairings's checker
//! (`bbpPairings --dutch FILE -c`) does: each round is paired again from the rounds before it
//! (and the byes and absences the round itself settled), and the pairs the system would have
//! made are compared with the pairs the file records.

use crate::dutch::{self, Board};
use crate::swiss::{Field, FieldError};
use crate::trf::{Color, Record, Trf};

/// What the check found in one round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Paired as the system pairs it.
    AsPaired,
    /// Some pairs differ: the system's and the file's, for the players concerned, in
    /// publication order, as starting numbers (`(n, n)` for the pairing-allocated bye).
    Differs {
        /// The pairs the system makes that the file does not hold.
        system: Vec<(u32, u32)>,
        /// What the file holds for the players of those pairs.
        file: Vec<(u32, u32)>,
    },
    /// No pairing meets the absolute criteria.
    NoValidPairing,
}

/// Every round the file records, checked; the first round is 1.
///
/// # Errors
/// A file that cannot be paired at all: a gap in the starting numbers, no first colour, a
/// point system Baku acceleration cannot use.
pub fn check_dutch(trf: &Trf) -> Result<Vec<Verdict>, FieldError> {
    let played = trf.played_rounds();
    let mut whole = trf.clone();
    whole.initial_colour = Some(Field::first_colour(trf)?);
    whole.rounds = Some(trf.rounds.unwrap_or(played).max(played));
    (1..=played)
        .map(|round| check_round(&whole, round))
        .collect()
}

fn check_round(trf: &Trf, round: u32) -> Result<Verdict, FieldError> {
    let field = Field::for_next_round(&trf.before_round(round))?;
    let Ok(boards) = dutch::pair(&field) else {
        return Ok(Verdict::NoValidPairing);
    };
    let id = |i: usize| field.players[i].id;
    // What the file holds for player `i` this round: the opponent (`i` itself when none)
    // and the colour.
    let held = |i: usize| -> (usize, Option<Color>) {
        let rec = trf.players[&id(i)]
            .records
            .get(round as usize - 1)
            .copied()
            .unwrap_or(Record::ABSENT);
        (rec.opponent.map_or(i, |o| o as usize - 1), rec.colour)
    };
    // A pair as bbpPairings writes it: White first; without colours, the opponent first.
    let pair = |p: usize, (other, colour): (usize, Option<Color>)| {
        if colour == Some(Color::White) {
            (p, other)
        } else {
            (other, p)
        }
    };
    let mut wrong = Vec::new();
    let mut file = Vec::new();
    for board in boards {
        let (white, black) = match board {
            Board::Game { white, black } => (white, black),
            Board::Bye(p) => (p, p),
        };
        let (opponent, colour) = held(white);
        if opponent == black && colour != Some(Color::Black) {
            continue;
        }
        wrong.push(board);
        // The file's pair of each of the two, listed once (from its lower-numbered player).
        let players: &[usize] = if white == black {
            &[white]
        } else {
            &[white, black]
        };
        for &p in players {
            let h = held(p);
            if p <= h.0 {
                file.push(pair(p, h));
            }
        }
    }
    if wrong.is_empty() {
        return Ok(Verdict::AsPaired);
    }
    let as_boards = |pairs: &[(usize, usize)]| -> Vec<Board> {
        pairs
            .iter()
            .map(|&(w, b)| {
                if w == b {
                    Board::Bye(w)
                } else {
                    Board::Game { white: w, black: b }
                }
            })
            .collect()
    };
    let mut file = as_boards(&file);
    dutch::publication_order(&field, &mut wrong);
    dutch::publication_order(&field, &mut file);
    let numbers = |boards: &[Board]| -> Vec<(u32, u32)> {
        boards
            .iter()
            .map(|b| match *b {
                Board::Game { white, black } => (id(white), id(black)),
                Board::Bye(p) => (id(p), id(p)),
            })
            .collect()
    };
    Ok(Verdict::Differs {
        system: numbers(&wrong),
        file: numbers(&file),
    })
}

/// The report as bbpPairings's checker prints it, `name` standing for the file.
pub fn write_report(name: &str, verdicts: &[Verdict]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let number = |p: u32, other: u32| {
        if p == other {
            "0".to_owned()
        } else {
            other.to_string()
        }
    };
    for (r, verdict) in verdicts.iter().enumerate() {
        let round = r + 1;
        let _ = writeln!(out, "{name}: Round #{round}");
        match verdict {
            Verdict::AsPaired => {}
            Verdict::NoValidPairing => {
                let _ = writeln!(out, "No valid pairing exists for round {round}.\n");
            }
            Verdict::Differs { system, file } => {
                let _ = writeln!(out, "  Checker pairings{:8}Tournament pairings ", "");
                let mut system = system.iter();
                for &(w, b) in file {
                    let ours = match system.next() {
                        Some(&(sw, sb)) => format!("{sw:>3} - {:>3}", number(sw, sb)),
                        None => " ".repeat(9),
                    };
                    let _ = writeln!(out, "    {ours}{:16}{w:>3} - {:>3}", "", number(w, b));
                }
                out.push('\n');
            }
        }
    }
    out.push('\n');
    out
}
