//! The record of one game: tags, start position, moves with their clocks and comments,
//! result — what a score sheet (seed 003) and a PGN file carry.

use std::time::Duration;

use crate::{Move, Outcome, Position, SanPlus};

/// Tag pairs in the order they were read or set. Names are case-sensitive, as in PGN.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tags(Vec<(String, String)>);

impl Tags {
    pub fn new() -> Tags {
        Tags(Vec::new())
    }

    /// The value of tag `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name`, replacing an earlier value in place or adding it at the end.
    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.0.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.0.push((name.to_owned(), value)),
        }
    }

    pub fn remove(&mut self, name: &str) -> Option<String> {
        let i = self.0.iter().position(|(n, _)| n == name)?;
        Some(self.0.remove(i).1)
    }

    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Whether tag `name` is written from the record itself (its start position: `FEN`, `SetUp`;
/// its result: `Result`) rather than kept as given.
fn is_derived_tag(name: &str) -> bool {
    matches!(name, "FEN" | "SetUp" | "Result")
}

/// The result of a game as PGN writes it.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    /// `*`: unknown, unfinished or abandoned.
    Unknown,
}

impl GameResult {
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads a result in the standard forms and the spellings found in the wild
    /// (`½-½`, en or em dashes, `0.5-0.5`).
    pub fn parse(text: &str) -> Option<GameResult> {
        match text {
            "1-0" => return Some(GameResult::WhiteWins),
            "0-1" => return Some(GameResult::BlackWins),
            "1/2-1/2" => return Some(GameResult::Draw),
            "*" => return Some(GameResult::Unknown),
            _ if text.len() > 12 || !text.starts_with(['0', '1', '½', '+', '-', ' ']) => {
                return None;
            }
            _ => {}
        }
        let norm: String = text
            .trim()
            .chars()
            .map(|c| if crate::san::is_dash(c) { '-' } else { c })
            .collect();
        match norm.as_str() {
            // `+--` and `--+`: won by forfeit, as some sites write it.
            "1-0" | "+--" => Some(GameResult::WhiteWins),
            "0-1" | "--+" => Some(GameResult::BlackWins),
            "1/2-1/2" | "½-½" | "0.5-0.5" | "1/2" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unknown),
            _ => None,
        }
    }
}

impl std::fmt::Display for GameResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One move of a game record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedMove {
    pub m: Move,
    /// The move in standard SAN (whatever spelling the source used).
    pub san: SanPlus,
    /// The mover's clock after the move (`[%clk]`).
    pub clock: Option<Duration>,
    /// Time the move took (`[%emt]`).
    pub elapsed: Option<Duration>,
    /// Comments after the move, without the clock commands.
    pub comments: Vec<String>,
    /// Numeric annotation glyphs, `$1`..`$255` (`!` is 1, `?` is 2, ...).
    pub nags: Vec<u8>,
}

/// A whole game as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    pub tags: Tags,
    /// The start position: the standard one, or the `FEN` tag's.
    pub start: Position,
    /// Comments before the first move.
    pub intro: Vec<String>,
    pub moves: Vec<RecordedMove>,
    /// The result written after the moves, else the `Result` tag's, else unknown.
    pub result: GameResult,
}

impl GameRecord {
    /// An empty record from the standard start position.
    pub fn new() -> GameRecord {
        GameRecord {
            tags: Tags::new(),
            start: Position::new(),
            intro: Vec::new(),
            moves: Vec::new(),
            result: GameResult::Unknown,
        }
    }

    /// Its tags but those its start position and result decide (`FEN`, `SetUp`, `Result`):
    /// what a game keeps of the file it came from.
    pub fn own_tags(&self) -> impl Iterator<Item = (&str, &str)> {
        self.tags.iter().filter(|(name, _)| !is_derived_tag(name))
    }

    /// The position after the last move.
    pub fn final_position(&self) -> Position {
        let mut pos = self.start;
        for rm in &self.moves {
            pos.play_unchecked(rm.m);
        }
        pos
    }

    /// The `Termination` tag.
    pub fn termination(&self) -> Option<&str> {
        self.tags.get("Termination")
    }
}

impl Default for GameRecord {
    fn default() -> GameRecord {
        GameRecord::new()
    }
}

/// How the final position of a record stands on the board (R4), including the endings that
/// need the game's history: fivefold repetition (R4.4) and the 75-move rule (R4.5).
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub enum FinalOutcome {
    Board(Outcome),
    FivefoldRepetition,
    SeventyFiveMoves,
}

impl FinalOutcome {
    /// `checkmate`, `stalemate`, `insufficient_material`, `fivefold_repetition` or
    /// `seventyfive_moves`.
    pub fn as_str(self) -> &'static str {
        match self {
            FinalOutcome::Board(Outcome::Checkmate { .. }) => "checkmate",
            FinalOutcome::Board(Outcome::Stalemate) => "stalemate",
            FinalOutcome::Board(Outcome::InsufficientMaterial) => "insufficient_material",
            FinalOutcome::FivefoldRepetition => "fivefold_repetition",
            FinalOutcome::SeventyFiveMoves => "seventyfive_moves",
        }
    }
}

/// The ending on the board after `moves` from `start`, in the order python-chess reports
/// them: checkmate, insufficient material, stalemate, 75 moves (a mate on the 75th move
/// stands), fivefold repetition of the final position. Returns the final position too.
pub fn final_outcome(
    start: &Position,
    moves: impl IntoIterator<Item = Move>,
) -> (Position, Option<FinalOutcome>) {
    let mut pos = *start;
    let mut hashes = vec![pos.zobrist()];
    let mut played = Vec::new();
    for m in moves {
        pos.play_unchecked(m);
        hashes.push(pos.zobrist());
        played.push(m);
    }
    if let Some(outcome) = pos.outcome() {
        return (pos, Some(FinalOutcome::Board(outcome)));
    }
    if pos.halfmoves() >= 150 {
        return (pos, Some(FinalOutcome::SeventyFiveMoves));
    }
    // Hashes pick the candidates; only then does the full identity (R4.4) decide.
    let mut outcome = None;
    if hashes.iter().filter(|&&h| h == pos.zobrist()).count() >= 5 {
        let key = pos.repetition_key();
        let mut replay = *start;
        let mut repeats = usize::from(replay.repetition_key() == key);
        for m in played {
            replay.play_unchecked(m);
            repeats += usize::from(replay.repetition_key() == key);
        }
        outcome = (repeats >= 5).then_some(FinalOutcome::FivefoldRepetition);
    }
    (pos, outcome)
}
