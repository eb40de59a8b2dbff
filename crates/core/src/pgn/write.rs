//! The PGN writer: the Seven Tag Roster in order, then the other tags; movetext with clocks
//! as `{ [%clk H:MM:SS] }`; lines of at most 80 characters; the standard's escaping.

use std::fmt::Write as _;
use std::time::Duration;

use super::record::GameRecord;
use crate::{Color, Position};

/// The Seven Tag Roster, in the order the PGN standard (8.1.1) requires, with the value
/// written when a tag is missing.
const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

const MAX_LINE: usize = 80;

/// Writes a game as PGN text (ending with a blank line, ready to concatenate).
pub fn write(record: &GameRecord) -> String {
    let mut out = String::with_capacity(256 + record.moves.len() * 12);
    for (name, default) in SEVEN_TAG_ROSTER {
        let value = match name {
            "Result" => record.result.as_str(),
            _ => record.tags.get(name).unwrap_or(default),
        };
        write_tag(&mut out, name, value);
    }
    for (name, value) in record.own_tags() {
        if !SEVEN_TAG_ROSTER.iter().any(|(n, _)| *n == name) {
            write_tag(&mut out, name, value);
        }
    }
    if record.start != Position::new() {
        write_tag(&mut out, "SetUp", "1");
        write_tag(&mut out, "FEN", &record.start.fen());
    }
    out.push('\n');

    let mut lines = LineWriter {
        out: &mut out,
        len: 0,
    };
    for comment in &record.intro {
        lines.comment(comment);
    }
    let mut pos = record.start;
    let mut need_number = true;
    for rm in &record.moves {
        let number = pos.fullmoves();
        match pos.turn() {
            Color::White => lines.word(&format!("{number}.")),
            Color::Black if need_number => lines.word(&format!("{number}...")),
            Color::Black => {}
        }
        lines.word(&rm.san.to_string());
        for nag in &rm.nags {
            lines.word(&format!("${nag}"));
        }
        // Clock commands go in the first comment; each further comment keeps its own braces.
        let mut first = String::new();
        if let Some(clock) = rm.clock {
            let _ = write!(first, "[%clk {}] ", write_clock(clock));
        }
        if let Some(emt) = rm.elapsed {
            let _ = write!(first, "[%emt {}] ", write_clock(emt));
        }
        let mut comments = rm.comments.iter();
        if !first.is_empty() {
            first.push_str(comments.next().map_or("", String::as_str));
            lines.comment(first.trim_end());
        }
        for text in comments {
            lines.comment(text);
        }
        need_number = rm.clock.is_some()
            || rm.elapsed.is_some()
            || !rm.comments.is_empty()
            || !rm.nags.is_empty();
        pos.play_unchecked(rm.m);
    }
    lines.word(record.result.as_str());
    out.push_str("\n\n");
    out
}

/// `H:MM:SS`, with tenths (or finer) only when the time has them, as lichess writes clocks.
pub fn write_clock(d: Duration) -> String {
    let millis = d.as_millis();
    let (h, m, s, ms) = (
        millis / 3_600_000,
        millis / 60_000 % 60,
        millis / 1000 % 60,
        millis % 1000,
    );
    let mut out = format!("{h}:{m:02}:{s:02}");
    if ms != 0 {
        let frac = format!("{ms:03}");
        out.push('.');
        out.push_str(frac.trim_end_matches('0'));
    }
    out
}

fn write_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for ch in value.chars() {
        match ch {
            '\\' | '"' => {
                out.push('\\');
                out.push(ch);
            }
            // A tag is one line (PGN standard 8.1).
            '\n' | '\r' | '\t' => out.push(' '),
            _ => out.push(ch),
        }
    }
    out.push_str("\"]\n");
}

/// Joins words into lines of at most 80 characters.
struct LineWriter<'a> {
    out: &'a mut String,
    /// Characters on the current line.
    len: usize,
}

impl LineWriter<'_> {
    fn word(&mut self, word: &str) {
        let width = word.chars().count();
        // A line that begins with `%` is an escape line, which readers skip (PGN standard
        // 6): a comment's word that begins with `%` stays on the line before, longer than
        // 80 characters if need be (found by the fuzz target `pgn`).
        let escape = word.starts_with('%');
        if self.len > 0 && self.len + 1 + width > MAX_LINE && !escape {
            self.out.push('\n');
            self.len = 0;
        }
        if self.len > 0 {
            self.out.push(' ');
            self.len += 1;
        }
        self.out.push_str(word);
        self.len += width;
    }

    /// `{ text }`, broken at spaces; braces inside the text become parentheses, since a
    /// PGN comment cannot contain them.
    fn comment(&mut self, text: &str) {
        self.word("{");
        for word in text.split_whitespace() {
            self.word(&word.replace('{', "(").replace('}', ")"));
        }
        self.word("}");
    }
}
