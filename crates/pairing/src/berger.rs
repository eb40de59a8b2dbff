//! Round robin by FIDE's Berger tables (Handbook C.05 Annex 1).
//!
//! The published tables cover 3 to 16 players; they follow one rule, which this module
//! computes for any size. With `n` players (one more, a "bye", when the count is odd: the
//! highest number counts as a bye) and `m = n - 1`:
//!
//! - in round `r` (from 1), player `n` meets player `p` with `2p = r + 1 (mod m)`, that is
//!   `p = (r + 1) / 2` in odd rounds and `n / 2 + r / 2` in even rounds; `p` has White in odd
//!   rounds, `n` in even rounds; that game is on board 1;
//! - on board `k` (from 2) player `p + (k - 1)` has White against `p - (k - 1)` (numbers taken
//!   round 1 to `m`).
//!
//! A double round robin plays the table twice, colours reversed in the second cycle; FIDE
//! recommends swapping the last two rounds of the first cycle, so that nobody has the same
//! colour three times running across the turn (C.05 Annex 1), which [`Schedule::double`] does.

/// One game of a round: starting numbers from 1, White first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pairing {
    /// The starting number of the player with White.
    pub white: usize,
    /// The starting number of the player with Black.
    pub black: usize,
}

/// One round: its games by board, and the player with no game (odd counts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    /// Board 1 first.
    pub boards: Vec<Pairing>,
    /// The player whose opponent is the missing number (the bye), if the count is odd.
    pub bye: Option<usize>,
}

/// Why a round robin cannot be drawn up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BergerError {
    /// Fewer than two players.
    TooFewPlayers(usize),
    /// Every round is paired already (this many).
    Finished(usize),
}

impl std::fmt::Display for BergerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BergerError::TooFewPlayers(n) => {
                write!(f, "a round robin needs at least 2 players, not {n}")
            }
            BergerError::Finished(n) => {
                write!(f, "every round of the round robin is paired ({n})")
            }
        }
    }
}

impl std::error::Error for BergerError {}

/// Every round of a round robin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    /// Round 1 first.
    pub rounds: Vec<Round>,
}

impl Schedule {
    /// A single round robin of `players` players (starting numbers 1 to `players`).
    ///
    /// # Errors
    /// [`BergerError::TooFewPlayers`] below two players.
    pub fn single(players: usize) -> Result<Schedule, BergerError> {
        if players < 2 {
            return Err(BergerError::TooFewPlayers(players));
        }
        let n = players + players % 2;
        let rounds = (1..n).map(|r| round(n, r, players)).collect();
        Ok(Schedule { rounds })
    }

    /// A double round robin: the single one, its last two rounds swapped (when it has more
    /// than two), then again with colours reversed.
    ///
    /// # Errors
    /// [`BergerError::TooFewPlayers`] below two players.
    pub fn double(players: usize) -> Result<Schedule, BergerError> {
        let mut first = Schedule::single(players)?.rounds;
        let len = first.len();
        if len > 2 {
            first.swap(len - 2, len - 1);
        }
        let second: Vec<Round> = first
            .iter()
            .map(|round| Round {
                boards: round
                    .boards
                    .iter()
                    .map(|p| Pairing {
                        white: p.black,
                        black: p.white,
                    })
                    .collect(),
                bye: round.bye,
            })
            .collect();
        first.extend(second);
        Ok(Schedule { rounds: first })
    }
}

/// The next round of a round robin recorded in a TRF file: its players by starting number
/// (the first the table's 1), a double round robin when the file plans more rounds than one
/// cycle has. Boards as [`crate::trf::write_pairings`] takes them, the bye last.
///
/// # Errors
/// Fewer than two players, or every round paired.
pub fn next_round(trf: &crate::trf::Trf) -> Result<Vec<(u32, Option<u32>)>, BergerError> {
    let players = trf.players.len();
    let ids: Vec<u32> = trf.players.keys().copied().collect();
    let cycle = players + players % 2 - 1;
    let planned = trf.rounds.map_or(cycle, |r| r as usize);
    let schedule = if planned > cycle {
        Schedule::double(players)
    } else {
        Schedule::single(players)
    }?;
    let next = trf.played_rounds() as usize;
    let round = schedule
        .rounds
        .get(next)
        .ok_or(BergerError::Finished(next))?;
    let mut boards: Vec<(u32, Option<u32>)> = round
        .boards
        .iter()
        .map(|b| (ids[b.white - 1], Some(ids[b.black - 1])))
        .collect();
    boards.extend(round.bye.map(|b| (ids[b - 1], None)));
    Ok(boards)
}

/// Round `r` (from 1) of the table for `n` (even) numbers, of which the first `players` are
/// real players.
fn round(n: usize, r: usize, players: usize) -> Round {
    let m = n - 1;
    // Numbers 1..=m on a circle: `wrap` brings any offset from `p` back onto it.
    let wrap = |x: isize| -> usize { (x - 1).rem_euclid(m as isize) as usize + 1 };
    let p = if r % 2 == 1 {
        r.div_ceil(2)
    } else {
        n / 2 + r / 2
    };
    let mut games = Vec::with_capacity(n / 2);
    games.push(if r % 2 == 1 {
        Pairing { white: p, black: n }
    } else {
        Pairing { white: n, black: p }
    });
    for k in 1..n / 2 {
        games.push(Pairing {
            white: wrap(p as isize + k as isize),
            black: wrap(p as isize - k as isize),
        });
    }
    let mut bye = None;
    let boards = games
        .into_iter()
        .filter(|g| {
            let missing = g.white > players || g.black > players;
            if missing {
                bye = Some(g.white.min(g.black));
            }
            !missing
        })
        .collect();
    Round { boards, bye }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_meets_once_and_colours_balance() {
        for players in 2..=40 {
            let schedule = Schedule::single(players).unwrap();
            let mut met = vec![vec![0; players + 1]; players + 1];
            let mut whites = vec![0usize; players + 1];
            for round in &schedule.rounds {
                let mut seen = vec![false; players + 1];
                for g in &round.boards {
                    for x in [g.white, g.black] {
                        assert!(!seen[x], "{players} players: {x} twice in a round");
                        seen[x] = true;
                    }
                    met[g.white][g.black] += 1;
                    met[g.black][g.white] += 1;
                    whites[g.white] += 1;
                }
                if let Some(b) = round.bye {
                    assert!(!seen[b]);
                }
            }
            for a in 1..=players {
                for (b, &count) in met[a].iter().enumerate().skip(1) {
                    assert_eq!(count, usize::from(a != b), "{players}: {a}-{b}");
                }
                // Each player has White in half of his games, rounded either way.
                let games = players - 1;
                assert!(whites[a] * 2 >= games - 1 && whites[a] * 2 <= games + 1);
            }
        }
    }

    #[test]
    fn too_few_players_is_an_error() {
        assert_eq!(Schedule::single(1), Err(BergerError::TooFewPlayers(1)));
        assert_eq!(Schedule::double(0), Err(BergerError::TooFewPlayers(0)));
    }
}
