//! FIDE's Tournament Report File (TRF): reading and writing.
//!
//! Reads the 2026 report format and the older TRF(x)/TRF(bx) extensions as the pairing
//! programs read them (JaVaFo's advanced user manual, bbpPairings's README):
//!
//! - `001` player lines: starting number (columns 5-8), rating (49-52), points (81-84), then
//!   one 10-column record a round from column 92: opponent (4 digits, `0000` or blank for
//!   none), colour `w`/`b`/`-`, result;
//! - results `1`/`0`/`=` (played), `W`/`D`/`L` (played, other notation), `+`/`-` (forfeit
//!   won/lost), `H` half-point bye, `F` full-point bye, `U` pairing-allocated bye, `Z` zero
//!   point bye, blank (not paired);
//! - `XXR` or `142` the number of rounds; `XXC white1`/`black1` or `152 W`/`B` the first
//!   round's colour for the top player; `BBW`/`BBD`/`BBL`/`BBZ`/`BBF`/`BBU` or `162` the
//!   points of each result; `XXP` and `260` forbidden pairs; `240` byes asked for a round;
//!   `XXA` and `250` accelerations; `192` the pairing system.
//!
//! Every other line (`012` the event's name, `022` its city, ...) is kept as it was and
//! written back unchanged. A fault names its line: the reader never guesses.

use std::collections::BTreeMap;
use std::fmt;

pub use rookery_core::Color;

/// Points, in tenths (the TRF's own precision: `1.5` is 15).
pub type Points = u32;

/// What a round's record says happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A game played and won (`1`, `W`).
    Won,
    /// A game played and drawn (`=`, `D`).
    Drew,
    /// A game played and lost (`0`, `L`).
    Lost,
    /// Won by forfeit (`+`): paired, not played.
    ForfeitWon,
    /// Lost by forfeit (`-`): paired, not played.
    ForfeitLost,
    /// The pairing-allocated bye (`U`).
    PairingBye,
    /// A full-point bye asked for (`F`).
    FullBye,
    /// A half-point bye asked for (`H`).
    HalfBye,
    /// A zero-point bye asked for, or absent (`Z`).
    ZeroBye,
    /// Not paired, no points (a blank result).
    Absent,
}

impl Outcome {
    fn from_char(c: char) -> Option<Outcome> {
        Some(match c.to_ascii_uppercase() {
            '1' | 'W' => Outcome::Won,
            '=' | 'D' => Outcome::Drew,
            '0' | 'L' => Outcome::Lost,
            '+' => Outcome::ForfeitWon,
            '-' => Outcome::ForfeitLost,
            'U' => Outcome::PairingBye,
            'F' => Outcome::FullBye,
            'H' => Outcome::HalfBye,
            'Z' => Outcome::ZeroBye,
            ' ' => Outcome::Absent,
            _ => return None,
        })
    }

    /// The TRF's letter for it (`1`, `=`, `0`, `+`, `-`, `U`, `F`, `H`, `Z`, blank).
    pub fn as_char(self) -> char {
        match self {
            Outcome::Won => '1',
            Outcome::Drew => '=',
            Outcome::Lost => '0',
            Outcome::ForfeitWon => '+',
            Outcome::ForfeitLost => '-',
            Outcome::PairingBye => 'U',
            Outcome::FullBye => 'F',
            Outcome::HalfBye => 'H',
            Outcome::ZeroBye => 'Z',
            Outcome::Absent => ' ',
        }
    }

    /// Whether a game was played over the board (forfeits and byes were not).
    pub fn played(self) -> bool {
        matches!(self, Outcome::Won | Outcome::Drew | Outcome::Lost)
    }

    /// Whether the outcome needs an opponent (games and forfeits) or forbids one (byes).
    fn has_opponent(self) -> bool {
        matches!(
            self,
            Outcome::Won
                | Outcome::Drew
                | Outcome::Lost
                | Outcome::ForfeitWon
                | Outcome::ForfeitLost
        )
    }
}

/// One round of a player's record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    /// The opponent's starting number, if paired against someone.
    pub opponent: Option<u32>,
    /// The colour, if the player was given one (a forfeit may carry it, or `-`).
    pub colour: Option<Color>,
    /// What happened.
    pub outcome: Outcome,
}

impl Record {
    /// A round the player was not in.
    pub const ABSENT: Record = Record {
        opponent: None,
        colour: None,
        outcome: Outcome::Absent,
    };

    /// Whether the pairing of the round placed the player: against an opponent, the
    /// pairing-allocated bye, or a forfeit win written without an opponent (bbpPairings's
    /// rule). Byes asked for and absences were settled before the pairing.
    pub fn in_pairing(&self) -> bool {
        self.opponent.is_some() || matches!(self.outcome, Outcome::PairingBye | Outcome::ForfeitWon)
    }
}

/// A `001` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// The starting number (pairing number), from 1.
    pub id: u32,
    /// Columns 10-47 as written: sex, title, name (kept for writing back).
    pub identity: String,
    /// The rating (0 when blank).
    pub rating: u32,
    /// Columns 54-79 as written: federation, FIDE id, birth date.
    pub details: String,
    /// The points as written in the file.
    pub points: Points,
    /// The rank as written (0 when blank).
    pub rank: u32,
    /// Round 1 first.
    pub records: Vec<Record>,
}

/// The points each result is worth (`BBW` ... or `162`); FIDE's defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PointSystem {
    /// A win, over the board or by forfeit, and a full-point bye.
    pub win: Points,
    /// A draw, and a half-point bye.
    pub draw: Points,
    /// A loss over the board.
    pub loss: Points,
    /// A zero-point bye.
    pub zero_bye: Points,
    /// A loss by forfeit.
    pub forfeit_loss: Points,
    /// The pairing-allocated bye.
    pub pairing_bye: Points,
}

impl Default for PointSystem {
    fn default() -> PointSystem {
        PointSystem {
            win: 10,
            draw: 5,
            loss: 0,
            zero_bye: 0,
            forfeit_loss: 0,
            pairing_bye: 10,
        }
    }
}

impl PointSystem {
    /// What an outcome is worth.
    pub fn points(&self, outcome: Outcome) -> Points {
        match outcome {
            Outcome::Won | Outcome::ForfeitWon | Outcome::FullBye => self.win,
            Outcome::Drew | Outcome::HalfBye => self.draw,
            Outcome::Lost => self.loss,
            Outcome::ForfeitLost => self.forfeit_loss,
            Outcome::PairingBye => self.pairing_bye,
            Outcome::ZeroBye | Outcome::Absent => self.zero_bye,
        }
    }
}

/// Players who must not meet, in rounds `first..=last` (all rounds for `XXP`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forbidden {
    /// Starting numbers: no two of them may be paired.
    pub players: Vec<u32>,
    /// The first round it applies to (1 for `XXP`).
    pub first: u32,
    /// The last round it applies to (`u32::MAX` for `XXP`).
    pub last: u32,
}

/// A TRF file, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trf {
    /// The lines in their order: players by their starting number, the others verbatim.
    lines: Vec<Line>,
    /// The players by starting number.
    pub players: BTreeMap<u32, Player>,
    /// `XXR`/`142`: the number of rounds planned.
    pub rounds: Option<u32>,
    /// `XXC`/`152`: the colour of the top player in round 1.
    pub initial_colour: Option<Color>,
    /// `XXC rank`: pairing numbers follow the file's order of players, not their numbers.
    pub by_rank: bool,
    /// The point system.
    pub points: PointSystem,
    /// `XXP`/`260`.
    pub forbidden: Vec<Forbidden>,
    /// `240`: byes asked for ahead, (round, kind, starting number).
    pub byes: Vec<(u32, Outcome, u32)>,
    /// `XXA`/`250`: points added for pairing, by player, round 1 first.
    pub accelerations: BTreeMap<u32, Vec<Points>>,
    /// `192`: the pairing system named by the file, as written.
    pub system: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Line {
    Player(u32),
    Other(String),
}

/// A fault in a TRF file, with the line it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrfError {
    /// The line number, from 1 (0: the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub kind: TrfErrorKind,
}

/// What is wrong in a TRF file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrfErrorKind {
    /// A line too short for its fields.
    TooShort(usize),
    /// A field that should be a number is not.
    NotANumber(&'static str, String),
    /// A starting number of 0.
    ZeroId,
    /// Two `001` lines with one starting number.
    RepeatedId(u32),
    /// A round record with an unknown colour or result, or one that contradicts itself.
    BadRecord(u32, String),
    /// A line whose code is known but whose content is not understood.
    BadLine(String),
    /// A player's record names an opponent whose record of that round does not name him
    /// back with the other colour.
    Contradiction {
        /// The player.
        player: u32,
        /// The round, from 1.
        round: u32,
    },
    /// A player's points are not the sum of his results.
    WrongPoints {
        /// The player.
        player: u32,
        /// As written.
        written: Points,
        /// From the results.
        counted: Points,
    },
    /// A record names an opponent with no `001` line.
    UnknownPlayer(u32),
}

impl fmt::Display for TrfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: ", self.line)?;
        }
        match &self.kind {
            TrfErrorKind::TooShort(n) => write!(f, "the line is too short ({n} characters)"),
            TrfErrorKind::NotANumber(what, text) => write!(f, "{what} is not a number: {text:?}"),
            TrfErrorKind::ZeroId => f.write_str("a starting number of 0"),
            TrfErrorKind::RepeatedId(id) => write!(f, "starting number {id} is used twice"),
            TrfErrorKind::BadRecord(round, text) => {
                write!(f, "the record of round {round} is not understood: {text:?}")
            }
            TrfErrorKind::BadLine(why) => f.write_str(why),
            TrfErrorKind::Contradiction { player, round } => write!(
                f,
                "round {round} of player {player} contradicts the opponent's record"
            ),
            TrfErrorKind::WrongPoints {
                player,
                written,
                counted,
            } => write!(
                f,
                "player {player} has {} points, but the results make {}",
                show_points(*written),
                show_points(*counted)
            ),
            TrfErrorKind::UnknownPlayer(id) => write!(f, "no player has starting number {id}"),
        }
    }
}

impl std::error::Error for TrfError {}

/// A round as bbpPairings and JaVaFo write it: the number of boards, then `white black` by
/// starting number, `N 0` for the bye (a board without black).
pub fn write_pairings(boards: impl IntoIterator<Item = (u32, Option<u32>)>) -> String {
    let lines: Vec<String> = boards
        .into_iter()
        .map(|(white, black)| format!("{white} {}\n", black.unwrap_or(0)))
        .collect();
    format!("{}\n{}", lines.len(), lines.concat())
}

/// `15` -> `"1.5"`.
pub fn show_points(points: Points) -> String {
    format!("{}.{}", points / 10, points % 10)
}

fn error(line: usize, kind: TrfErrorKind) -> TrfError {
    TrfError { line, kind }
}

/// Reads a number field, blank as `None`.
fn number(text: &str, what: &'static str) -> Result<Option<u32>, TrfErrorKind> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    t.parse()
        .map(Some)
        .map_err(|_| TrfErrorKind::NotANumber(what, t.to_owned()))
}

/// Reads points written `1.5`, `1,5`, `2` or `1.50`; blank is 0.
fn points(text: &str) -> Result<Points, TrfErrorKind> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(0);
    }
    let bad = || TrfErrorKind::NotANumber("points", t.to_owned());
    let (whole, frac) = match t.split_once(['.', ',']) {
        Some((w, f)) => (w, f),
        None => (t, ""),
    };
    let whole: u32 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| bad())?
    };
    let frac = frac.trim_end_matches('0');
    let tenths: u32 = match frac.len() {
        0 => 0,
        1 => frac.parse().map_err(|_| bad())?,
        _ => return Err(bad()),
    };
    whole
        .checked_mul(10)
        .and_then(|w| w.checked_add(tenths))
        .ok_or_else(bad)
}

/// The characters `from..to` (0-based, end exclusive) of a line, short lines padded.
fn cols(chars: &[char], from: usize, to: usize) -> String {
    (from..to)
        .map(|i| chars.get(i).copied().unwrap_or(' '))
        .collect()
}

impl Trf {
    /// Reads a TRF file.
    ///
    /// # Errors
    /// The first fault found, with its line: a malformed line, a record that contradicts
    /// the opponent's, points that are not the sum of the results.
    pub fn parse(text: &str) -> Result<Trf, TrfError> {
        let mut trf = Trf {
            lines: Vec::new(),
            players: BTreeMap::new(),
            rounds: None,
            initial_colour: None,
            by_rank: false,
            points: PointSystem::default(),
            forbidden: Vec::new(),
            byes: Vec::new(),
            accelerations: BTreeMap::new(),
            system: None,
        };
        let mut pairing_bye_set = false;
        let mut player_lines = BTreeMap::new();
        for (index, raw) in lines(text).enumerate() {
            let n = index + 1;
            let line = raw.strip_prefix('\u{feff}').unwrap_or(raw);
            let chars: Vec<char> = line.chars().collect();
            let code: String = chars.iter().take(3).collect();
            let rest = || cols(&chars, 3, chars.len());
            let set = |points: &mut Points| -> Result<(), TrfError> {
                *points = self::points(&rest()).map_err(|k| error(n, k))?;
                Ok(())
            };
            match code.as_str() {
                "001" => {
                    let player = read_player(&chars).map_err(|k| error(n, k))?;
                    if trf.players.contains_key(&player.id) {
                        return Err(error(n, TrfErrorKind::RepeatedId(player.id)));
                    }
                    player_lines.insert(player.id, n);
                    trf.lines.push(Line::Player(player.id));
                    trf.players.insert(player.id, player);
                    continue;
                }
                "XXR" | "142" => {
                    trf.rounds = Some(
                        number(&rest(), "the number of rounds")
                            .map_err(|k| error(n, k))?
                            .filter(|&r| r > 0)
                            .ok_or_else(|| {
                                error(n, TrfErrorKind::BadLine("no number of rounds".into()))
                            })?,
                    );
                }
                "XXC" => {
                    for word in rest().split_whitespace() {
                        match word {
                            "white1" => trf.initial_colour = Some(Color::White),
                            "black1" => trf.initial_colour = Some(Color::Black),
                            "rank" => trf.by_rank = true,
                            other => {
                                return Err(error(
                                    n,
                                    TrfErrorKind::BadLine(format!("unknown XXC word {other:?}")),
                                ));
                            }
                        }
                    }
                }
                "152" => {
                    trf.initial_colour = Some(match rest().trim() {
                        "W" => Color::White,
                        "B" => Color::Black,
                        other => {
                            return Err(error(
                                n,
                                TrfErrorKind::BadLine(format!("152 must be W or B, not {other:?}")),
                            ));
                        }
                    })
                }
                "BBW" => {
                    set(&mut trf.points.win)?;
                    if !pairing_bye_set {
                        trf.points.pairing_bye = trf.points.win;
                    }
                }
                "BBD" => set(&mut trf.points.draw)?,
                "BBL" => set(&mut trf.points.loss)?,
                "BBZ" => set(&mut trf.points.zero_bye)?,
                "BBF" => set(&mut trf.points.forfeit_loss)?,
                "BBU" => {
                    set(&mut trf.points.pairing_bye)?;
                    pairing_bye_set = true;
                }
                "162" => read_point_system(&chars, &mut trf.points, &mut pairing_bye_set)
                    .map_err(|k| error(n, k))?,
                "XXP" => {
                    let players = rest()
                        .split_whitespace()
                        .map(|w| id(w).map_err(|k| error(n, k)))
                        .collect::<Result<Vec<_>, _>>()?;
                    trf.forbidden.push(Forbidden {
                        players,
                        first: 1,
                        last: u32::MAX,
                    });
                }
                "260" => {
                    let first = round_field(&cols(&chars, 4, 7)).map_err(|k| error(n, k))?;
                    let last = round_field(&cols(&chars, 8, 11)).map_err(|k| error(n, k))?;
                    let players = cols(&chars, 12, chars.len())
                        .split_whitespace()
                        .map(|w| id(w).map_err(|k| error(n, k)))
                        .collect::<Result<Vec<_>, _>>()?;
                    trf.forbidden.push(Forbidden {
                        players,
                        first,
                        last,
                    });
                }
                "240" => {
                    let kind = match chars.get(4).copied().unwrap_or(' ') {
                        'F' => Outcome::FullBye,
                        'H' => Outcome::HalfBye,
                        'Z' => Outcome::ZeroBye,
                        other => {
                            return Err(error(
                                n,
                                TrfErrorKind::BadLine(format!(
                                    "240 needs a bye of kind F, H or Z, not {other:?}"
                                )),
                            ));
                        }
                    };
                    let round = round_field(&cols(&chars, 6, 9)).map_err(|k| error(n, k))?;
                    for w in cols(&chars, 10, chars.len()).split_whitespace() {
                        trf.byes
                            .push((round, kind, id(w).map_err(|k| error(n, k))?));
                    }
                }
                "XXA" => {
                    let player = id(&cols(&chars, 4, 8)).map_err(|k| error(n, k))?;
                    let mut list = Vec::new();
                    let mut at = 9;
                    while at < chars.len() {
                        list.push(points(&cols(&chars, at, at + 4)).map_err(|k| error(n, k))?);
                        at += 5;
                    }
                    trf.accelerations.insert(player, list);
                }
                "250" => {
                    let gained = points(&cols(&chars, 9, 13)).map_err(|k| error(n, k))?;
                    let first = round_field(&cols(&chars, 14, 17)).map_err(|k| error(n, k))?;
                    let last = round_field(&cols(&chars, 18, 21)).map_err(|k| error(n, k))?;
                    let low = id(&cols(&chars, 22, 26)).map_err(|k| error(n, k))?;
                    let high = id(&cols(&chars, 27, 31)).map_err(|k| error(n, k))?;
                    if first > last || low > high {
                        return Err(error(n, TrfErrorKind::BadLine("an empty 250 range".into())));
                    }
                    for player in low..=high {
                        let list = trf.accelerations.entry(player).or_default();
                        if list.len() < last as usize {
                            list.resize(last as usize, 0);
                        }
                        for slot in &mut list[first as usize - 1..last as usize] {
                            *slot = gained;
                        }
                    }
                }
                "192" => trf.system = Some(rest().trim().to_owned()),
                _ => {}
            }
            trf.lines.push(Line::Other(line.to_owned()));
        }
        trf.validate(&player_lines)?;
        Ok(trf)
    }

    /// Each record against an opponent is mirrored by the opponent's, and each player's
    /// points are the sum of his results (plus, where the file adds it, his acceleration or
    /// the next round's bye already entered).
    fn validate(&self, lines: &BTreeMap<u32, usize>) -> Result<(), TrfError> {
        for player in self.players.values() {
            let at = lines[&player.id];
            for (r, record) in player.records.iter().enumerate() {
                let round = r as u32 + 1;
                let Some(opp) = record.opponent else {
                    continue;
                };
                let other = self
                    .players
                    .get(&opp)
                    .ok_or_else(|| error(at, TrfErrorKind::UnknownPlayer(opp)))?;
                let theirs = other.records.get(r).copied().unwrap_or(Record::ABSENT);
                // A game played has both colours, opposite; a forfeit needs only the pair.
                let mirrored = theirs.opponent == Some(player.id)
                    && record.outcome.played() == theirs.outcome.played()
                    && (!record.outcome.played()
                        || matches!((record.colour, theirs.colour), (Some(a), Some(b)) if a != b));
                if !mirrored {
                    return Err(error(
                        at,
                        TrfErrorKind::Contradiction {
                            player: player.id,
                            round,
                        },
                    ));
                }
            }
            let counted: Points = player
                .records
                .iter()
                .map(|r| self.points.points(r.outcome))
                .sum();
            let acceleration: Points = self
                .accelerations
                .get(&player.id)
                .map_or(0, |list| list.iter().sum());
            let written = player.points;
            let accepted = written == counted
                || written == counted + acceleration
                || self.last_record_is_ahead(player)
                    && written + self.points.points(player.records.last().unwrap().outcome)
                        == counted;
            if !accepted {
                return Err(error(
                    at,
                    TrfErrorKind::WrongPoints {
                        player: player.id,
                        written,
                        counted,
                    },
                ));
            }
        }
        Ok(())
    }

    /// Whether a player's last record is a bye entered for the round not yet played (a file
    /// may carry the next round's requested byes in the players' lines).
    fn last_record_is_ahead(&self, player: &Player) -> bool {
        let played = self.played_rounds();
        player.records.len() as u32 > played
            && player
                .records
                .last()
                .is_some_and(|r| r.opponent.is_none() && r.outcome != Outcome::Absent)
    }

    /// The starting numbers in the order of the file's player lines.
    pub fn player_order(&self) -> impl Iterator<Item = u32> + '_ {
        self.lines.iter().filter_map(|l| match l {
            Line::Player(id) => Some(*id),
            Line::Other(_) => None,
        })
    }

    /// Whether the file names the Dutch system with Baku acceleration (`192
    /// FIDE_DUTCH_2025_BAKU`, as bbpPairings reads it).
    pub fn baku(&self) -> bool {
        matches!(
            self.system.as_deref(),
            Some("FIDE_DUTCH_2025_BAKU" | "FIDE_DUTCH_BAKU")
        )
    }

    /// The number of rounds someone was placed in by the pairing (a game, a forfeit, the
    /// pairing-allocated bye).
    pub fn played_rounds(&self) -> u32 {
        self.players
            .values()
            .filter_map(|p| p.records.iter().rposition(Record::in_pairing))
            .max()
            .map_or(0, |i| i as u32 + 1)
    }

    /// The tournament as it stood before round `round` (from 1) was paired: every player's
    /// records of the rounds before it, plus what round `round` settled outside the pairing
    /// (byes asked for, absences); scores from those records. What a checker pairs again.
    pub fn before_round(&self, round: u32) -> Trf {
        let mut before = self.clone();
        let kept = round.saturating_sub(1) as usize;
        let played = self.played_rounds() as usize;
        for p in before.players.values_mut() {
            // A round left blank at the end of a line (a withdrawal) is an absence.
            let ahead = match p.records.get(kept) {
                Some(r) => Some(*r),
                None if kept < played => Some(Record::ABSENT),
                None => None,
            }
            .filter(|r| !r.in_pairing());
            p.records.truncate(kept);
            p.records.resize(kept, Record::ABSENT);
            if let Some(rec) = ahead {
                p.records.push(rec);
            }
            p.points = p.records[..p.records.len().min(kept)]
                .iter()
                .map(|r| self.points.points(r.outcome))
                .sum();
        }
        // The round's byes are in its records now; `240` lines asked for others.
        before.byes.clear();
        before
    }

    /// The file, written back: the players' lines from their records, every other line as
    /// it was read.
    pub fn write(&self) -> String {
        let mut out = String::new();
        for line in &self.lines {
            match line {
                Line::Player(id) => out.push_str(&write_player(&self.players[id])),
                Line::Other(text) => out.push_str(text),
            }
            out.push('\n');
        }
        // Players added since the file was read come after the others.
        let written: std::collections::HashSet<u32> = self
            .lines
            .iter()
            .filter_map(|l| match l {
                Line::Player(id) => Some(*id),
                Line::Other(_) => None,
            })
            .collect();
        for (id, player) in &self.players {
            if !written.contains(id) {
                out.push_str(&write_player(player));
                out.push('\n');
            }
        }
        out
    }
}

/// The lines of a file whose lines end in LF, CR LF or CR alone (bbpPairings writes CR).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let text = text
        .strip_suffix("\r\n")
        .or_else(|| text.strip_suffix(['\n', '\r']))
        .unwrap_or(text);
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let t = rest?;
        match t.find(['\n', '\r']) {
            Some(i) => {
                let skip = if t[i..].starts_with("\r\n") { 2 } else { 1 };
                rest = Some(&t[i + skip..]);
                Some(&t[..i])
            }
            None => {
                rest = None;
                Some(t)
            }
        }
    })
}

fn id(text: &str) -> Result<u32, TrfErrorKind> {
    match number(text, "a starting number")? {
        Some(0) => Err(TrfErrorKind::ZeroId),
        Some(id) => Ok(id),
        None => Err(TrfErrorKind::NotANumber("a starting number", String::new())),
    }
}

fn round_field(text: &str) -> Result<u32, TrfErrorKind> {
    match number(text, "a round")? {
        Some(r) if r > 0 => Ok(r),
        _ => Err(TrfErrorKind::NotANumber("a round", text.trim().to_owned())),
    }
}

fn read_point_system(
    chars: &[char],
    system: &mut PointSystem,
    pairing_bye_set: &mut bool,
) -> Result<(), TrfErrorKind> {
    // `162 W 1.0    D 0.5 ...`: a letter and its points every 9 columns from column 6.
    let mut at = 5;
    while at < chars.len() {
        let letter = chars[at];
        let value = points(&cols(chars, at + 1, at + 5))?;
        match letter {
            'W' => {
                system.win = value;
                if !*pairing_bye_set {
                    system.pairing_bye = value;
                }
            }
            'D' => system.draw = value,
            'L' => system.loss = value,
            'Z' => {
                system.zero_bye = value;
                system.forfeit_loss = value;
            }
            'P' => {
                system.pairing_bye = value;
                *pairing_bye_set = true;
            }
            ' ' => {}
            other => {
                return Err(TrfErrorKind::BadLine(format!(
                    "162: unknown result letter {other:?}"
                )));
            }
        }
        at += 9;
    }
    Ok(())
}

fn read_player(chars: &[char]) -> Result<Player, TrfErrorKind> {
    if chars.len() < 84 {
        return Err(TrfErrorKind::TooShort(chars.len()));
    }
    let own = id(&cols(chars, 4, 8))?;
    let rating = number(&cols(chars, 48, 52), "the rating")?.unwrap_or(0);
    let points = points(&cols(chars, 80, 84))?;
    let rank = number(&cols(chars, 85, 89), "the rank")?.unwrap_or(0);
    let mut records = Vec::new();
    // Rounds whose field is all blank: nothing happened (a trailing run of them is no round).
    let mut blank = Vec::new();
    let mut at = 91;
    while at < chars.len() {
        let round = records.len() as u32 + 1;
        let field = cols(chars, at, at + 8);
        let bad = || TrfErrorKind::BadRecord(round, field.clone());
        let opponent = match field[..4].trim() {
            "" | "0000" => None,
            text => Some(id(text).map_err(|_| bad())?),
        };
        if opponent == Some(own) {
            return Err(bad());
        }
        let f: Vec<char> = field.chars().collect();
        let colour = match f[5] {
            '-' | ' ' => None,
            c => Some(Color::from_char(c.to_ascii_lowercase()).ok_or_else(bad)?),
        };
        let outcome = Outcome::from_char(f[7]).ok_or_else(bad)?;
        // A game or a forfeit has an opponent; a bye has none and no colour; a played game
        // has a colour.
        let consistent = if outcome.has_opponent() {
            opponent.is_some() && (colour.is_some() || !outcome.played())
        } else {
            opponent.is_none() && colour.is_none()
        };
        if !consistent || f[4] != ' ' || f[6] != ' ' {
            return Err(bad());
        }
        records.push(Record {
            opponent,
            colour,
            outcome,
        });
        blank.push(field.trim().is_empty());
        at += 10;
    }
    // Trailing rounds with nothing in them are no rounds (`0000 -` is an absence: kept).
    while blank.pop() == Some(true) {
        records.pop();
    }
    Ok(Player {
        id: own,
        identity: cols(chars, 9, 47),
        rating,
        details: cols(chars, 53, 79),
        points,
        rank,
        records,
    })
}

fn write_player(p: &Player) -> String {
    let rating = if p.rating == 0 {
        "    ".to_owned()
    } else {
        format!("{:>4}", p.rating)
    };
    let rank = if p.rank == 0 {
        "    ".to_owned()
    } else {
        format!("{:>4}", p.rank)
    };
    let mut line = format!(
        "001 {:>4} {:<38} {} {:<26} {:>4} {}",
        p.id,
        p.identity,
        rating,
        p.details,
        show_points(p.points),
        rank
    );
    for r in &p.records {
        let opp = r.opponent.map_or("0000".to_owned(), |o| format!("{o:>4}"));
        let colour = r.colour.map_or('-', Color::char);
        line.push_str(&format!("  {opp} {colour} {}", r.outcome.as_char()));
    }
    line.trim_end().to_owned()
}
