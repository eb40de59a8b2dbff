//! The PGN reader: one game at a time from any buffered input, every move validated.
//!
//! Lenient where real files differ from the standard (BOM, CRLF, `1.e4` without a space,
//! `12. ...`, nested braces, `[pgn]` delimiters, an unclosed quote in a tag, unicode results
//! and invisible characters), strict about the chess: every move must be legal.
//! Variations are skipped (never read as the main line); comments and NAGs are kept.

use std::io::{BufRead, Read};
use std::time::Duration;

use super::record::{GameRecord, GameResult, RecordedMove, Tags};
use crate::{FenError, Position, SanError, SanPlus};

/// A line longer than this is refused rather than held in memory.
const MAX_LINE: u64 = 16 << 20;

/// Why a game could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// A move that is unknown, ambiguous or illegal in its position.
    Move(SanError),
    /// A null move (`--`, `Z0`): not a legal chess move.
    NullMove,
    /// The `FEN` tag does not hold a legal position.
    BadFen(FenError),
    /// A `Variant` tag naming something other than standard chess.
    Variant(String),
    /// A `{` comment still open at the end of the input.
    UnterminatedComment,
    /// A `(` variation still open at the end of the input.
    UnterminatedVariation,
    /// A line longer than 16 MiB.
    LineTooLong,
    /// The input could not be read.
    Io(String),
}

impl std::fmt::Display for PgnErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PgnErrorKind::Move(e) => e.fmt(f),
            PgnErrorKind::NullMove => f.write_str("null move: not a legal chess move"),
            PgnErrorKind::BadFen(e) => write!(f, "bad FEN tag: {e}"),
            PgnErrorKind::Variant(v) => {
                write!(f, "variant {v:?} is not supported (standard chess only)")
            }
            PgnErrorKind::UnterminatedComment => f.write_str("unterminated comment: { without }"),
            PgnErrorKind::UnterminatedVariation => {
                f.write_str("unterminated variation: ( without )")
            }
            PgnErrorKind::LineTooLong => f.write_str("line longer than 16 MiB"),
            PgnErrorKind::Io(e) => write!(f, "read error: {e}"),
        }
    }
}

/// A game that could not be read, located: game number, players, ply and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnError {
    /// 1-based index of the game in the input.
    pub game: usize,
    pub white: Option<String>,
    pub black: Option<String>,
    /// 1-based ply of the offending move; 0 when the fault is not a move.
    pub ply: usize,
    /// The offending text as written (a move, a tag value), or empty.
    pub text: String,
    pub kind: PgnErrorKind,
}

impl std::fmt::Display for PgnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "game {}", self.game)?;
        if self.white.is_some() || self.black.is_some() {
            write!(
                f,
                " ({} - {})",
                self.white.as_deref().unwrap_or("?"),
                self.black.as_deref().unwrap_or("?")
            )?;
        }
        if self.ply > 0 {
            let (number, dots) = (
                self.ply.div_ceil(2),
                if self.ply % 2 == 1 { "." } else { "..." },
            );
            write!(f, ", ply {} ({number}{dots} {})", self.ply, self.text)?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl std::error::Error for PgnError {}

/// Reads games one at a time; an iterator of `Result<GameRecord, PgnError>`. A bad game is
/// reported and skipped; reading goes on with the next one. Memory is bounded by the longest
/// game, not the input.
#[derive(Debug)]
pub struct Reader<R> {
    input: R,
    /// The current line, without its line end.
    line: Vec<u8>,
    /// Cursor in `line`.
    at: usize,
    /// Whether the input may still have lines.
    more: bool,
    /// Whether the next line read is the first (for a byte-order mark).
    first_line: bool,
    /// Games started so far.
    games: usize,
    /// Bytes consumed so far (for progress reports).
    bytes: u64,
    /// Whether the game just read ended with a result token.
    last_had_result: bool,
    /// Scratch buffer for the current movetext word.
    word: String,
}

/// What one game has gathered while it is being read.
struct Game {
    tags: Tags,
    record: Option<GameRecord>,
    pos: Position,
    result: Option<GameResult>,
    error: Option<PgnError>,
    /// Whether any movetext token has been seen.
    movetext: bool,
    /// Comments read before the movetext began: the record's intro once it does. They do
    /// not fix the start position, so that tags after them still count (found by the fuzz
    /// target `pgn`: a `Variant` or `FEN` tag after such a comment was kept but not checked).
    intro: Vec<String>,
}

enum Token {
    /// Anything that is not the end of this game.
    Continue,
    /// The game ended (result read, or the next game's tags begin, or the input ended).
    EndOfGame,
}

impl<R: BufRead> Reader<R> {
    pub fn new(input: R) -> Reader<R> {
        Reader {
            input,
            line: Vec::new(),
            at: 0,
            more: true,
            first_line: true,
            games: 0,
            bytes: 0,
            last_had_result: false,
            word: String::new(),
        }
    }

    /// Bytes of input consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes
    }

    /// Makes sure the cursor stands on a character; false at the end of the input.
    fn fill(&mut self) -> Result<bool, PgnErrorKind> {
        while self.at >= self.line.len() {
            if !self.more {
                return Ok(false);
            }
            self.line.clear();
            self.at = 0;
            let mut raw = Vec::new();
            let n = (&mut self.input)
                .take(MAX_LINE)
                .read_until(b'\n', &mut raw)
                .map_err(|e| PgnErrorKind::Io(e.to_string()))?;
            self.bytes += n as u64;
            if n == 0 {
                self.more = false;
                return Ok(false);
            }
            if n as u64 == MAX_LINE && raw.last() != Some(&b'\n') {
                self.more = false;
                return Err(PgnErrorKind::LineTooLong);
            }
            let mut raw = raw.as_slice();
            if std::mem::take(&mut self.first_line) {
                raw = raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw);
            }
            if raw.is_ascii() {
                self.line.extend(
                    raw.iter()
                        .map(|&b| if b.is_ascii_whitespace() { b' ' } else { b }),
                );
                if self.line.first() == Some(&b'%') {
                    self.line.clear();
                }
                continue;
            }
            // Invisible and non-breaking spaces count as spaces.
            let text = String::from_utf8_lossy(raw);
            for ch in text.chars() {
                match ch {
                    '\u{a0}' | '\u{200b}' | '\u{feff}' | '\u{2060}' | '\t' | '\r' | '\n' => {
                        self.line.push(b' ')
                    }
                    _ => {
                        let mut buf = [0u8; 4];
                        self.line
                            .extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                    }
                }
            }
            // `%` in the first column escapes the whole line (PGN standard 6).
            if self.line.first() == Some(&b'%') {
                self.line.clear();
            }
        }
        Ok(true)
    }

    fn skip_spaces(&mut self) -> Result<bool, PgnErrorKind> {
        loop {
            if !self.fill()? {
                return Ok(false);
            }
            while self.at < self.line.len() && self.line[self.at] == b' ' {
                self.at += 1;
            }
            if self.at < self.line.len() {
                return Ok(true);
            }
        }
    }

    fn read_game(&mut self) -> Option<Result<GameRecord, PgnError>> {
        loop {
            let item = self.read_one()?;
            // Comments or stray text between games, with no tags, moves or result, are
            // no game.
            if let Ok(r) = &item {
                if r.tags.is_empty() && r.moves.is_empty() && !self.last_had_result {
                    self.games -= 1;
                    continue;
                }
            }
            return Some(item);
        }
    }

    fn read_one(&mut self) -> Option<Result<GameRecord, PgnError>> {
        let mut game = Game {
            tags: Tags::new(),
            record: None,
            pos: Position::new(),
            result: None,
            error: None,
            movetext: false,
            intro: Vec::new(),
        };
        let mut started = false;
        loop {
            let step = match self.skip_spaces() {
                Ok(false) => Ok(Token::EndOfGame),
                Ok(true) => {
                    if !started {
                        started = true;
                        self.games += 1;
                    }
                    self.token(&mut game)
                }
                Err(kind) => Err(kind),
            };
            match step {
                Ok(Token::Continue) => {}
                Ok(Token::EndOfGame) => break,
                Err(kind) => {
                    if !started {
                        self.games += 1;
                    }
                    let e = self.error(&game, 0, String::new(), kind);
                    game.error.get_or_insert(e);
                    break;
                }
            }
        }
        if !started {
            return None;
        }
        if let Some(e) = game.error {
            return Some(Err(e));
        }
        if let Err(e) = self.begin_movetext(&mut game) {
            return Some(Err(*e));
        }
        self.last_had_result = game.result.is_some();
        let mut record = game.record.take().unwrap_or_default();
        record.tags = game.tags;
        let tag_result = record.tags.get("Result").and_then(GameResult::parse);
        record.result = game.result.or(tag_result).unwrap_or(GameResult::Unknown);
        Some(Ok(record))
    }

    fn error(&self, game: &Game, ply: usize, text: String, kind: PgnErrorKind) -> PgnError {
        PgnError {
            game: self.games,
            white: game.tags.get("White").map(str::to_owned),
            black: game.tags.get("Black").map(str::to_owned),
            ply,
            text,
            kind,
        }
    }

    /// Reads one token at the cursor (which stands on a non-space).
    fn token(&mut self, game: &mut Game) -> Result<Token, PgnErrorKind> {
        let c = self.line[self.at];
        match c {
            b'[' => self.bracket(game),
            b'{' => {
                self.at += 1;
                let text = self.brace_comment()?;
                self.comment(game, text);
                Ok(Token::Continue)
            }
            b';' => {
                let text = String::from_utf8_lossy(&self.line[self.at + 1..])
                    .trim()
                    .to_owned();
                self.at = self.line.len();
                self.comment(game, text);
                Ok(Token::Continue)
            }
            b'(' => {
                self.at += 1;
                self.skip_variation()?;
                Ok(Token::Continue)
            }
            b')' | b']' | b'}' => {
                self.at += 1;
                Ok(Token::Continue)
            }
            b'$' => {
                self.at += 1;
                let start = self.at;
                while self.at < self.line.len() && self.line[self.at].is_ascii_digit() {
                    self.at += 1;
                }
                let digits = std::str::from_utf8(&self.line[start..self.at]).unwrap_or("");
                if let Ok(nag) = digits.parse::<u8>() {
                    self.nag(game, nag);
                }
                Ok(Token::Continue)
            }
            _ => {
                let start = self.at;
                while self.at < self.line.len()
                    && !matches!(
                        self.line[self.at],
                        b' ' | b'{' | b'}' | b'(' | b')' | b';' | b'[' | b']' | b'$'
                    )
                {
                    self.at += 1;
                }
                // Lines hold valid UTF-8 (see `fill`); the buffer is reused word after word.
                let mut word = std::mem::take(&mut self.word);
                word.clear();
                word.push_str(std::str::from_utf8(&self.line[start..self.at]).unwrap_or(""));
                let step = self.word(game, &word);
                self.word = word;
                step
            }
        }
    }

    /// `[Name "value"]`, or a bracketed token that is no tag (`[pgn]`, `[/pgn]`).
    fn bracket(&mut self, game: &mut Game) -> Result<Token, PgnErrorKind> {
        let rest = &self.line[self.at + 1..];
        let name_len = rest
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        let after_name = &rest[name_len..];
        let quote = after_name.iter().position(|&b| b != b' ');
        let is_tag = name_len > 0 && quote.is_some_and(|q| after_name[q] == b'"');
        if !is_tag {
            // Not a tag: skip to the closing bracket.
            let close = rest
                .iter()
                .position(|&b| b == b']')
                .map_or(self.line.len(), |i| self.at + 2 + i);
            self.at = close;
            return Ok(Token::Continue);
        }
        let name = String::from_utf8_lossy(&rest[..name_len]).into_owned();
        if game.movetext || game.tags.contains(&name) {
            // The next game's tags: this game ends here, the cursor stays.
            return Ok(Token::EndOfGame);
        }
        let value_start = self.at + 1 + name_len + quote.unwrap_or(0) + 1;
        let mut value = Vec::new();
        let mut i = value_start;
        let mut closed = false;
        while i < self.line.len() {
            match self.line[i] {
                b'\\' if i + 1 < self.line.len() && matches!(self.line[i + 1], b'"' | b'\\') => {
                    value.push(self.line[i + 1]);
                    i += 2;
                }
                b'"' => {
                    closed = true;
                    i += 1;
                    break;
                }
                b => {
                    value.push(b);
                    i += 1;
                }
            }
        }
        if !closed {
            // An unclosed quote: the value runs to the last `]` on the line.
            let end = self
                .line
                .iter()
                .rposition(|&b| b == b']')
                .filter(|&e| e >= value_start);
            let end = end.unwrap_or(self.line.len());
            value = self.line[value_start..end].to_vec();
            i = end;
        }
        // Past the closing bracket.
        while i < self.line.len() && self.line[i] != b']' {
            i += 1;
        }
        self.at = (i + 1).min(self.line.len());
        game.tags
            // Spaces around a value carry nothing (`[Variant "  Standard  "]`).
            .set(&name, String::from_utf8_lossy(&value).trim().to_owned());
        Ok(Token::Continue)
    }

    /// The text of a `{...}` comment (the cursor is past `{`); braces nest.
    fn brace_comment(&mut self) -> Result<String, PgnErrorKind> {
        // Usually the comment closes on its own line with nothing nested: take the slice.
        let rest = &self.line[self.at..];
        if let Some(close) = rest.iter().position(|&b| b == b'}') {
            if !rest[..close].contains(&b'{') {
                let text = std::str::from_utf8(&rest[..close])
                    .unwrap_or("")
                    .trim()
                    .to_owned();
                self.at += close + 1;
                return Ok(text);
            }
        }
        let mut text = Vec::new();
        let mut depth = 1;
        loop {
            if !self.fill()? {
                return Err(PgnErrorKind::UnterminatedComment);
            }
            while self.at < self.line.len() {
                let b = self.line[self.at];
                self.at += 1;
                match b {
                    b'{' => depth += 1,
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            return Ok(String::from_utf8_lossy(&text).trim().to_owned());
                        }
                    }
                    _ => {}
                }
                text.push(b);
            }
            text.push(b' ');
        }
    }

    /// Skips a `(...)` variation (the cursor is past `(`), with nested variations and
    /// comments.
    fn skip_variation(&mut self) -> Result<(), PgnErrorKind> {
        let mut depth = 1;
        loop {
            if !self.fill()? {
                return Err(PgnErrorKind::UnterminatedVariation);
            }
            while self.at < self.line.len() {
                let b = self.line[self.at];
                self.at += 1;
                match b {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            return Ok(());
                        }
                    }
                    b'{' => {
                        self.brace_comment()?;
                    }
                    b';' => self.at = self.line.len(),
                    _ => {}
                }
            }
        }
    }

    /// Sets up the start position from the tags, once, when the movetext begins.
    fn begin_movetext(&self, game: &mut Game) -> Result<(), Box<PgnError>> {
        if game.record.is_some() {
            return Ok(());
        }
        if let Some(variant) = game.tags.get("Variant") {
            let v = variant.trim().to_ascii_lowercase();
            if !matches!(
                v.as_str(),
                "" | "standard" | "chess" | "normal" | "from position"
            ) {
                return Err(Box::new(self.error(
                    game,
                    0,
                    variant.to_owned(),
                    PgnErrorKind::Variant(variant.to_owned()),
                )));
            }
        }
        let start = match game.tags.get("FEN").map(str::trim) {
            Some(fen) if !fen.is_empty() => position_from_fen_tag(fen).map_err(|e| {
                Box::new(self.error(game, 0, fen.to_owned(), PgnErrorKind::BadFen(e)))
            })?,
            _ => Position::new(),
        };
        game.pos = start;
        game.record = Some(GameRecord {
            start,
            intro: std::mem::take(&mut game.intro),
            ..GameRecord::new()
        });
        Ok(())
    }

    /// A movetext word: move number, result, glyph or move.
    fn word(&mut self, game: &mut Game, word: &str) -> Result<Token, PgnErrorKind> {
        if !game.movetext {
            game.movetext = true;
            if let Err(e) = self.begin_movetext(game) {
                game.error.get_or_insert(*e);
            }
        }
        if let Some(result) = GameResult::parse(word) {
            game.result = Some(result);
            return Ok(Token::EndOfGame);
        }
        // Move numbers: `12.`, `12...`, `1.e4`; bare dots.
        let mut rest = word;
        if rest.starts_with(|c: char| c.is_ascii_digit()) {
            let digits = rest.trim_start_matches(|c: char| c.is_ascii_digit());
            if digits.starts_with(['.', '…']) || digits.is_empty() {
                rest = digits;
            }
        }
        let rest = rest.trim_start_matches(['.', '…']);
        if rest.is_empty() || matches!(rest, "e.p." | "ep" | "e.p" | "(ep)") {
            return Ok(Token::Continue);
        }
        if let Some(nag) = glyph_nag(rest) {
            self.nag(game, nag);
            return Ok(Token::Continue);
        }
        if game.error.is_some() {
            return Ok(Token::Continue);
        }
        let ply = game.record.as_ref().map_or(0, |r| r.moves.len()) + 1;
        if matches!(rest, "--" | "Z0" | "0000" | "@@@@" | "<>") {
            let e = self.error(game, ply, rest.to_owned(), PgnErrorKind::NullMove);
            game.error = Some(e);
            return Ok(Token::Continue);
        }
        let (san, glyph) = split_glyph(rest);
        match game.pos.parse_san(san) {
            Ok(m) => {
                let san = SanPlus::of_and_play(&mut game.pos, m);
                let record = game.record.get_or_insert_with(GameRecord::new);
                record.moves.push(RecordedMove {
                    m,
                    san,
                    clock: None,
                    elapsed: None,
                    comments: Vec::new(),
                    nags: glyph.into_iter().collect(),
                });
            }
            Err(e) => {
                let e = self.error(game, ply, rest.to_owned(), PgnErrorKind::Move(e));
                game.error = Some(e);
            }
        }
        Ok(Token::Continue)
    }

    fn comment(&mut self, game: &mut Game, text: String) {
        let Some(record) = game.record.as_mut() else {
            let text = collapse_spaces(&text);
            if !text.is_empty() {
                game.intro.push(text);
            }
            return;
        };
        match record.moves.last_mut() {
            None => {
                let text = collapse_spaces(&text);
                if !text.is_empty() {
                    record.intro.push(text);
                }
            }
            Some(last) => {
                let (text, clock, elapsed) = take_clock_commands(&text);
                last.clock = clock.or(last.clock);
                last.elapsed = elapsed.or(last.elapsed);
                if !text.is_empty() {
                    last.comments.push(text);
                }
            }
        }
    }

    fn nag(&mut self, game: &mut Game, nag: u8) {
        if let Some(last) = game.record.as_mut().and_then(|r| r.moves.last_mut()) {
            last.nags.push(nag);
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<GameRecord, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.read_game()
    }
}

/// The position of a `FEN` tag. Castling rights whose king or rook is not in place are
/// dropped first, as other readers do: such files exist, and the rights could never be used.
fn position_from_fen_tag(fen: &str) -> Result<Position, FenError> {
    let mut setup = crate::fen::parse_setup(fen)?;
    setup.discard_impossible_castling_rights();
    Ok(Position::from_setup(setup)?)
}

/// The NAG of a standalone glyph (PGN standard 10: `!` is $1 ... `-+` is $19).
fn glyph_nag(word: &str) -> Option<u8> {
    Some(match word {
        "!" => 1,
        "?" => 2,
        "!!" | "‼" => 3,
        "??" | "⁇" => 4,
        "!?" | "⁉" => 5,
        "?!" | "⁈" => 6,
        "□" => 7,
        "=" => 10,
        "∞" => 13,
        "+=" | "+/=" | "⩲" => 14,
        "=+" | "=/+" | "⩱" => 15,
        "±" | "+/-" => 16,
        "∓" | "-/+" => 17,
        "+-" => 18,
        "-+" => 19,
        _ => return None,
    })
}

/// Splits a trailing `!`/`?` glyph off a move (`e4!?` -> `e4`, $5).
fn split_glyph(word: &str) -> (&str, Option<u8>) {
    let core = word.trim_end_matches(['!', '?']);
    (core, glyph_nag(&word[core.len()..]))
}

/// Removes `[%clk ...]` and `[%emt ...]` from a comment, returning the rest and the times.
fn take_clock_commands(text: &str) -> (String, Option<Duration>, Option<Duration>) {
    if !text.contains("[%") {
        return (collapse_spaces(text), None, None);
    }
    let mut rest = String::with_capacity(text.len());
    let (mut clock, mut elapsed) = (None, None);
    let mut s = text;
    while let Some(open) = s.find("[%") {
        push_words(&mut rest, &s[..open]);
        let Some(close) = s[open..].find(']') else {
            break;
        };
        let command = &s[open + 2..open + close];
        let mut parts = command.split_whitespace();
        match (parts.next(), parts.next().and_then(parse_duration)) {
            (Some("clk"), Some(d)) => clock = Some(d),
            (Some("emt"), Some(d)) => elapsed = Some(d),
            _ => push_words(&mut rest, &s[open..open + close + 1]),
        }
        s = &s[open + close + 1..];
    }
    push_words(&mut rest, s);
    (rest, clock, elapsed)
}

/// The words of `text` joined by single spaces: line breaks and runs of spaces inside a
/// comment carry no meaning.
fn collapse_spaces(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_words(&mut out, text);
    out
}

fn push_words(out: &mut String, text: &str) {
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
}

/// `H:MM:SS`, `MM:SS` or `H:MM:SS.f`.
fn parse_duration(text: &str) -> Option<Duration> {
    let mut secs = 0f64;
    for part in text.split(':') {
        let v: f64 = part
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite() && *v >= 0.0)?;
        secs = secs * 60.0 + v;
    }
    (secs < 1e9).then(|| Duration::from_millis((secs * 1000.0).round() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_commands_come_out_of_comments() {
        let (rest, clk, emt) = take_clock_commands("good [%clk 0:04:58.3] move [%emt 0:00:05]");
        assert_eq!(rest, "good move");
        assert_eq!(clk, Some(Duration::from_millis(298_300)));
        assert_eq!(emt, Some(Duration::from_secs(5)));
        let (rest, ..) = take_clock_commands("[%eval 0.3] [%cal Ge2e4]");
        assert_eq!(rest, "[%eval 0.3] [%cal Ge2e4]");
    }
}
