//! Tie-breaks by FIDE's tie-break regulations (Handbook C.07, with the rules for unplayed
//! rounds as amended for 2026), computed as FIDE's own tie-break checker computes them.
//!
//! Each player's rounds are read from the tournament file: what the round was worth, whether
//! it was played over the board (the pairing-allocated bye counts as played, as in the
//! regulations' categories), the opponent, and whether it is a *voluntary unplayed round*
//! (VUR, C.07 16.2: a forfeit loss, a half- or zero-point bye, an absence; not a win without
//! playing). From those:
//!
//! - **Adjusted score** (16.3), what a player is worth to his opponents' Buchholz: his points,
//!   except that his unplayed rounds without an opponent after his last round that was not a
//!   VUR count as draws (a player who withdrew is counted as drawing the rest).
//! - **Buchholz** (BH, 8.1): the sum of the opponents' adjusted scores; a round played by
//!   neither over the board (a forfeit, a bye) counts as a game against oneself, valued at the
//!   player's own score but at most the forfeiting opponent's adjusted score (16.4.1) or, with
//!   no opponent, at most a draw in every round (16.4.2).
//! - **Sonneborn-Berger** (SB, 8.3): each round's Buchholz value times the points the player
//!   scored in it.
//! - Cuts (14): `/C1` drops the least significant value, `/M1` the least and the most; a VUR
//!   is cut first (14.6).
//! - **Progressive score** (PS, 8.5), **wins** (WIN: rounds worth a win, played or not),
//!   **games won** over the board (WON), **games played with Black** (BPG), **won with Black**
//!   (BWG), **rounds elected to play** (REP: played, or a win without playing), **average
//!   rating of opponents** (ARO, games over the board, rounded half up) and **tournament
//!   performance rating** (TPR: ARO plus FIDE's dp for the percentage scored, B.02 8.1.a).
//! - **Direct encounter** (DE, 6): among players still tied by the tie-breaks before it, the
//!   points scored in the games between them, when every one of them has met every other (or,
//!   in a Swiss, when one scored more than any other could have); applied again within the
//!   groups still tied.
//!
//! In a round robin an unplayed game against an opponent counts as played (its result as
//! given), and a round without an opponent counts for nothing (C.07 16.1).

use std::fmt;

use crate::swiss::FieldError;
use crate::trf::{Color, Outcome, Trf};

/// One tie-break of the organiser's list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TieBreak {
    /// Points (PTS).
    Points,
    /// Rounds worth a win, played or not (WIN).
    Wins,
    /// Games won over the board (WON).
    GamesWon,
    /// Games played with Black (BPG).
    BlackGames,
    /// Games won with Black (BWG).
    BlackWins,
    /// Rounds one elected to play (REP).
    RoundsElected,
    /// Buchholz (BH), with its cuts (least significant values, most significant values).
    Buchholz(u32, u32),
    /// Sonneborn-Berger (SB), with its low cuts.
    SonnebornBerger(u32),
    /// Progressive score (PS), the first rounds cut.
    Progressive(u32),
    /// Average rating of opponents (ARO), with its cuts.
    AverageRating(u32, u32),
    /// Tournament performance rating (TPR).
    Performance,
    /// Direct encounter (DE).
    DirectEncounter,
}

impl TieBreak {
    /// Reads FIDE's short name with its modifier: `BH`, `BH/C1`, `BH/M1`, `SB/C1`, `ARO`,
    /// `TPR`, `DE`, ...
    pub fn parse(text: &str) -> Option<TieBreak> {
        let upper = text.trim().to_ascii_uppercase();
        let (name, modifier) = match upper.split_once(['/', '#', '!']) {
            Some((n, m)) => (n, Some(m)),
            None => (upper.as_str(), None),
        };
        let (cut, both) = match modifier {
            None => (0, false),
            Some(m) => {
                let (kind, n) = m.split_at(1.min(m.len()));
                let n: u32 = n.parse().ok()?;
                match kind {
                    "C" => (n, false),
                    "M" => (n, true),
                    _ => return None,
                }
            }
        };
        let high = if both { cut } else { 0 };
        let plain = |t: TieBreak| (modifier.is_none()).then_some(t);
        match name {
            "PTS" => plain(TieBreak::Points),
            "WIN" => plain(TieBreak::Wins),
            "WON" => plain(TieBreak::GamesWon),
            "BPG" => plain(TieBreak::BlackGames),
            "BWG" => plain(TieBreak::BlackWins),
            "REP" | "GE" => plain(TieBreak::RoundsElected),
            "TPR" => plain(TieBreak::Performance),
            "DE" => plain(TieBreak::DirectEncounter),
            "BH" => Some(TieBreak::Buchholz(cut, high)),
            "SB" if !both => Some(TieBreak::SonnebornBerger(cut)),
            "PS" if !both => Some(TieBreak::Progressive(cut)),
            "ARO" => Some(TieBreak::AverageRating(cut, high)),
            _ => None,
        }
    }

    /// Whether more is better (DE is a rank: less is better).
    fn higher_is_better(self) -> bool {
        self != TieBreak::DirectEncounter
    }
}

impl fmt::Display for TieBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cuts = |f: &mut fmt::Formatter<'_>, name: &str, low: u32, high: u32| match (low, high) {
            (0, 0) => write!(f, "{name}"),
            (l, 0) => write!(f, "{name}/C{l}"),
            (l, _) => write!(f, "{name}/M{l}"),
        };
        match *self {
            TieBreak::Points => f.write_str("PTS"),
            TieBreak::Wins => f.write_str("WIN"),
            TieBreak::GamesWon => f.write_str("WON"),
            TieBreak::BlackGames => f.write_str("BPG"),
            TieBreak::BlackWins => f.write_str("BWG"),
            TieBreak::RoundsElected => f.write_str("REP"),
            TieBreak::Buchholz(l, h) => cuts(f, "BH", l, h),
            TieBreak::SonnebornBerger(l) => cuts(f, "SB", l, 0),
            TieBreak::Progressive(l) => cuts(f, "PS", l, 0),
            TieBreak::AverageRating(l, h) => cuts(f, "ARO", l, h),
            TieBreak::Performance => f.write_str("TPR"),
            TieBreak::DirectEncounter => f.write_str("DE"),
        }
    }
}

/// The tie-breaks used when the organiser names none (docs/TOURNAMENTS.md).
pub fn defaults(system: System) -> Vec<TieBreak> {
    let names: &[&str] = match system {
        System::Swiss => &["PTS", "BH/C1", "BH", "SB", "DE"],
        System::RoundRobin => &["PTS", "DE", "SB", "WIN"],
    };
    names
        .iter()
        .map(|n| TieBreak::parse(n).expect("a known tie-break"))
        .collect()
}

/// A tie-break's value for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Value {
    /// Points, in hundredths of a point (SB multiplies two scores).
    Points(i64),
    /// A count, a rating or a rank.
    Number(i64),
    /// Nothing to compute it from (a rating average without rated games).
    None,
}

impl Value {
    fn key(self) -> i64 {
        match self {
            Value::Points(v) | Value::Number(v) => v,
            Value::None => i64::MIN / 2,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Value::Points(h) => {
                let sign = if h < 0 { "-" } else { "" };
                let h = h.abs();
                if h % 10 == 0 {
                    write!(f, "{sign}{}.{}", h / 100, (h % 100) / 10)
                } else {
                    write!(f, "{sign}{}.{:02}", h / 100, h % 100)
                }
            }
            Value::Number(n) => write!(f, "{n}"),
            Value::None => f.write_str("-"),
        }
    }
}

/// Whether unplayed games count as played (a round robin) or not (a Swiss).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum System {
    /// Swiss: unplayed rounds by the rules of C.07 16.
    Swiss,
    /// Round robin (pre-determined pairings): an unplayed game counts as played.
    RoundRobin,
}

/// One player's round, as the tie-breaks read it.
#[derive(Debug, Clone, Copy)]
struct Round {
    /// Points, in tenths (the file's unit).
    points: i64,
    /// Over the board, or the pairing-allocated bye.
    played: bool,
    opponent: Option<usize>,
    colour: Option<Color>,
    /// A voluntary unplayed round (C.07 16.2).
    vur: bool,
    /// The points for rating purposes (1, ½, 0 for a win, draw, loss), in tenths.
    rating_points: i64,
}

struct Player {
    rating: u32,
    rounds: Vec<Round>,
    /// Points, in tenths.
    total: i64,
    /// The adjusted score for opponents' Buchholz, in tenths.
    adjusted: i64,
}

/// Tie-break values for every player (by starting number order: index = number - 1), for
/// the first `rounds` rounds, in the order of `list`.
///
/// # Errors
/// A gap in the starting numbers.
pub fn compute(
    trf: &Trf,
    rounds: usize,
    system: System,
    list: &[TieBreak],
) -> Result<Vec<Vec<Value>>, FieldError> {
    crate::swiss::numbered_from_one(trf)?;
    let players = read_players(trf, rounds, system);
    let mut values: Vec<Vec<Value>> = vec![Vec::with_capacity(list.len()); players.len()];
    for (k, tb) in list.iter().enumerate() {
        let column: Vec<Value> = match *tb {
            TieBreak::DirectEncounter => direct_encounter(&players, &values, &list[..k], system),
            _ => (0..players.len())
                .map(|i| single(&players, i, *tb, rounds, system, trf))
                .collect(),
        };
        for (row, v) in values.iter_mut().zip(column) {
            row.push(v);
        }
    }
    Ok(values)
}

/// Each player's rank (from 1) by the list's values; equal values share a rank.
pub fn ranks(values: &[Vec<Value>], list: &[TieBreak]) -> Vec<usize> {
    let key = |row: &Vec<Value>| -> Vec<i64> {
        row.iter()
            .zip(list)
            .map(|(v, tb)| {
                if tb.higher_is_better() {
                    -v.key()
                } else {
                    v.key()
                }
            })
            .collect()
    };
    let keys: Vec<Vec<i64>> = values.iter().map(key).collect();
    keys.iter()
        .map(|k| 1 + keys.iter().filter(|other| *other < k).count())
        .collect()
}

fn read_players(trf: &Trf, rounds: usize, system: System) -> Vec<Player> {
    let ps = &trf.points;
    let win = ps.win as i64;
    let mut players: Vec<Player> = trf
        .players
        .values()
        .map(|p| {
            let rounds: Vec<Round> = (0..rounds)
                .map(|r| {
                    let rec = p
                        .records
                        .get(r)
                        .copied()
                        .unwrap_or(crate::trf::Record::ABSENT);
                    let points = ps.points(rec.outcome) as i64;
                    let played = rec.outcome.played() || rec.outcome == Outcome::PairingBye;
                    let rating_points = match rec.outcome {
                        Outcome::Won => 10,
                        Outcome::Drew => 5,
                        _ => 0,
                    };
                    Round {
                        points,
                        played,
                        opponent: rec.opponent.map(|o| o as usize - 1),
                        colour: rec.colour,
                        vur: !played && points != win,
                        rating_points,
                    }
                })
                .collect();
            let total = rounds.iter().map(|r| r.points).sum();
            Player {
                rating: p.rating,
                rounds,
                total,
                adjusted: 0,
            }
        })
        .collect();
    let draw = ps.draw as i64;
    for p in players.iter_mut() {
        // The last round that was not a voluntary unplayed one (16.2).
        let last = p.rounds.iter().rposition(|r| !r.vur);
        p.adjusted = p
            .rounds
            .iter()
            .enumerate()
            .map(|(r, round)| {
                if round.opponent.is_some() || last.is_some_and(|l| r <= l) {
                    round.points
                } else if system == System::RoundRobin {
                    0
                } else {
                    draw
                }
            })
            .sum();
    }
    players
}

/// One tie-break for player `i`.
fn single(
    players: &[Player],
    i: usize,
    tb: TieBreak,
    rounds: usize,
    system: System,
    trf: &Trf,
) -> Value {
    let p = &players[i];
    let win = trf.points.win as i64;
    let count =
        |f: &dyn Fn(&Round) -> bool| Value::Number(p.rounds.iter().filter(|r| f(r)).count() as i64);
    let over_the_board = |r: &Round| r.played && r.opponent.is_some();
    match tb {
        TieBreak::Points => Value::Points(p.total * 10),
        TieBreak::Wins => count(&|r| r.points == win),
        TieBreak::GamesWon => count(&|r| over_the_board(r) && r.points == win),
        TieBreak::BlackGames => count(&|r| r.played && r.colour == Some(Color::Black)),
        TieBreak::BlackWins => {
            count(&|r| r.played && r.colour == Some(Color::Black) && r.points == win)
        }
        TieBreak::RoundsElected => count(&|r| r.played || r.points == win),
        TieBreak::Buchholz(low, high) => {
            buchholz(players, i, rounds, system, trf, false, low, high)
        }
        TieBreak::SonnebornBerger(low) => buchholz(players, i, rounds, system, trf, true, low, 0),
        TieBreak::Progressive(low) => {
            let mut so_far = 0;
            let mut sum = 0;
            for (r, round) in p.rounds.iter().enumerate() {
                so_far += round.points;
                if r >= low as usize {
                    sum += so_far;
                }
            }
            Value::Points(sum * 10)
        }
        TieBreak::AverageRating(low, high) => {
            let (ratings, _) = rated_games(players, i, low, high);
            average(&ratings).map_or(Value::None, Value::Number)
        }
        TieBreak::Performance => {
            let (ratings, score) = rated_games(players, i, 0, 0);
            match average(&ratings) {
                None => Value::None,
                Some(aro) => {
                    // The percentage scored, to the nearest hundredth (half up).
                    let n = ratings.len() as i64;
                    let pct = (score * 10 + n / 2) / n;
                    Value::Number(aro + DP[pct as usize] as i64)
                }
            }
        }
        TieBreak::DirectEncounter => unreachable!("computed over the tied groups"),
    }
}

/// One round's value for Buchholz or Sonneborn-Berger.
struct Contribution {
    vur: bool,
    /// The opponent's (or the stand-in's) score, in tenths.
    score: i64,
    /// What the round adds: the score (BH) or score times points (SB), in hundredths.
    value: i64,
}

#[allow(clippy::too_many_arguments)]
fn buchholz(
    players: &[Player],
    i: usize,
    rounds: usize,
    system: System,
    trf: &Trf,
    sonneborn: bool,
    low: u32,
    high: u32,
) -> Value {
    let p = &players[i];
    let draw = trf.points.draw as i64;
    let mut parts: Vec<Contribution> = Vec::new();
    for round in &p.rounds {
        let played = round.played || system == System::RoundRobin;
        let (score, vur) = match (played, round.opponent) {
            (true, Some(o)) => (players[o].adjusted, false),
            (_, opponent) if system == System::Swiss => {
                // A game against oneself, capped (16.4).
                let cap = opponent.map_or(draw * rounds as i64, |o| players[o].adjusted);
                (p.total.min(cap), round.vur)
            }
            (_, Some(_)) => (0, round.vur),
            // A round robin's round without an opponent counts for nothing.
            (_, None) => continue,
        };
        let value = if sonneborn {
            score * round.points
        } else {
            score * 10
        };
        parts.push(Contribution { vur, score, value });
    }
    let n = parts.len() as u32;
    let low = low.min(n);
    let high = high.min(n - low);
    for _ in 0..low {
        // The least significant value; a voluntary unplayed round first (14.6), unless the
        // least by score is worth less than it.
        let least = min_index(&parts, |c| (c.score, c.value));
        let vur = min_index(&parts, |c| (i64::from(!c.vur), c.score, c.value));
        let cut = if parts[least].value > parts[vur].value {
            least
        } else {
            vur
        };
        parts.remove(cut);
    }
    for _ in 0..high {
        let most = min_index(&parts, |c| (-c.score, -c.value));
        parts.remove(most);
    }
    Value::Points(parts.iter().map(|c| c.value).sum())
}

/// The first index with the smallest key (as a stable sort would put first).
fn min_index<K: Ord>(parts: &[Contribution], key: impl Fn(&Contribution) -> K) -> usize {
    let mut best = 0;
    for k in 1..parts.len() {
        if key(&parts[k]) < key(&parts[best]) {
            best = k;
        }
    }
    best
}

/// The ratings of the opponents met over the board (the lowest `low` and highest `high`
/// cut), and the points scored against them for rating purposes, in tenths.
fn rated_games(players: &[Player], i: usize, low: u32, high: u32) -> (Vec<i64>, i64) {
    let mut games: Vec<(i64, i64)> = players[i]
        .rounds
        .iter()
        .filter(|r| r.played)
        .filter_map(|r| {
            r.opponent
                .map(|o| (players[o].rating as i64, r.rating_points))
        })
        .collect();
    // Stable: among equal ratings the earliest round goes first.
    games.sort_by_key(|g| g.0);
    let n = games.len();
    let low = (low as usize).min(n);
    let high = (high as usize).min(n - low);
    let kept = &games[low..n - high];
    (
        kept.iter().map(|g| g.0).collect(),
        kept.iter().map(|g| g.1).sum(),
    )
}

/// The average, rounded half up; none for no games.
fn average(ratings: &[i64]) -> Option<i64> {
    let n = ratings.len() as i64;
    (n > 0).then(|| (2 * ratings.iter().sum::<i64>() + n) / (2 * n))
}

/// Direct encounter (C.07 6): a rank within each group tied on the tie-breaks before it.
fn direct_encounter(
    players: &[Player],
    before: &[Vec<Value>],
    list: &[TieBreak],
    system: System,
) -> Vec<Value> {
    let n = players.len();
    // The rank so far: by the earlier tie-breaks.
    let mut rank: Vec<usize> = if list.is_empty() {
        vec![1; n]
    } else {
        ranks(before, list)
    };
    loop {
        let mut changed = false;
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (rank[i], i));
        for i in order {
            match groups.last_mut() {
                Some(g) if rank[g[0]] == rank[i] => g.push(i),
                _ => groups.push(vec![i]),
            }
        }
        for group in groups.iter().filter(|g| g.len() > 1) {
            changed |= encounter_round(players, group, &mut rank, system);
        }
        if !changed {
            break;
        }
    }
    // Reported as FIDE's checker reports it: within each group tied before DE, 1 for the
    // first, 2 ...; 0 for the whole group when DE separates none of it (and for a player
    // tied with nobody).
    let earlier = if list.is_empty() {
        vec![1; n]
    } else {
        ranks(before, list)
    };
    (0..n)
        .map(|i| {
            let group = (0..n).filter(|&j| earlier[j] == earlier[i]);
            let (first, last) = group.fold((usize::MAX, 0), |(lo, hi), j| {
                (lo.min(rank[j]), hi.max(rank[j]))
            });
            if first == last {
                Value::Number(0)
            } else {
                Value::Number((rank[i] - first + 1) as i64)
            }
        })
        .collect()
}

/// One pass of DE over one tied group; whether a rank changed.
fn encounter_round(
    players: &[Player],
    group: &[usize],
    rank: &mut [usize],
    system: System,
) -> bool {
    let top = rank[group[0]];
    let others = group.len() - 1;
    // Points scored against the group (a repeated pairing counts as its average), and how
    // many of the group were met.
    let mut scored: Vec<(usize, f64, usize)> = Vec::new();
    let mut met_all = true;
    for &i in group {
        let mut against: Vec<(usize, i64, usize)> = Vec::new();
        for r in &players[i].rounds {
            let counts = r.played || system == System::RoundRobin;
            if let Some(o) = r.opponent.filter(|&o| counts && group.contains(&o)) {
                match against.iter_mut().find(|a| a.0 == o) {
                    Some(a) => {
                        a.1 += r.points;
                        a.2 += 1;
                    }
                    None => against.push((o, r.points, 1)),
                }
            }
        }
        let sum: f64 = against.iter().map(|a| a.1 as f64 / a.2 as f64).sum();
        if system == System::Swiss && against.len() < others {
            met_all = false;
        }
        scored.push((i, sum, against.len()));
    }
    let win = 10.0;
    let mut changed = false;
    if met_all {
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut current = top;
        for (k, &(i, sum, _)) in scored.iter().enumerate() {
            if k > 0 && sum != scored[k - 1].1 {
                current = top + k;
                changed = true;
            }
            rank[i] = current;
        }
    } else {
        // Most possible: the points scored plus a win against each one not met.
        let most = |s: &(usize, f64, usize)| s.1 + (others - s.2) as f64 * win;
        scored.sort_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then(most(b).total_cmp(&most(a)))
                .then(a.0.cmp(&b.0))
        });
        let mut unique = true;
        let mut current = top;
        for k in 0..scored.len() {
            let i = scored[k].0;
            if k > 0 {
                let best_rest = scored[k..].iter().map(most).fold(f64::MIN, f64::max);
                if unique && scored[k - 1].1 > best_rest {
                    current = top + k;
                    changed = true;
                } else {
                    unique = false;
                }
            }
            rank[i] = current;
        }
    }
    changed
}

/// FIDE's table of rating differences by percentage scored (Handbook B.02 8.1.a), index =
/// percentage from 0 to 100.
const DP: [i16; 101] = [
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383, -366, -351, -336, -322, -309, -296,
    -284, -273, -262, -251, -240, -230, -220, -211, -202, -193, -184, -175, -166, -158, -149, -141,
    -133, -125, -117, -110, -102, -95, -87, -80, -72, -65, -57, -50, -43, -36, -29, -21, -14, -7,
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158,
    166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];
