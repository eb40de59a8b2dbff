//! `rookery pgn check`: reads every game of every file, validates every move with
//! rookery-core, and prints one line per game (NDJSON with `--json`). Exit status 0 when
//! every game is valid, 1 otherwise (2 when a file cannot be opened).

use std::fs::File;
use std::io::{BufRead, BufReader, IsTerminal, Write};
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rookery_core::pgn::{GameRecord, PgnError, Reader, final_outcome};

use crate::cli::CheckArgs;

pub(crate) fn run(args: &CheckArgs) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let progress = progress_bar(args);
    let mut game = 0;
    let mut all_ok = true;
    for path in &args.files {
        let input: Box<dyn BufRead> = if path.as_os_str() == "-" {
            Box::new(std::io::stdin().lock())
        } else {
            match File::open(path) {
                Ok(f) => Box::new(BufReader::with_capacity(1 << 16, f)),
                Err(e) => {
                    eprintln!("rookery: cannot open {}: {e}", path.display());
                    return ExitCode::from(2);
                }
            }
        };
        let mut reader = Reader::new(input);
        let mut last_bytes = 0;
        while let Some(item) = reader.next() {
            game += 1;
            all_ok &= item.is_ok();
            let line = if args.json {
                json_line(game, &item)
            } else {
                text_line(game, &item)
            };
            if writeln!(out, "{line}").is_err() {
                // The reader of our output went away (e.g. `| head`): stop quietly.
                return ExitCode::from(if all_ok { 0 } else { 1 });
            }
            if let Some(bar) = &progress {
                let bytes = reader.bytes_read();
                bar.inc(bytes - last_bytes);
                last_bytes = bytes;
            }
        }
    }
    let _ = out.flush();
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    ExitCode::from(if all_ok { 0 } else { 1 })
}

/// A byte-count bar on stderr, only for a person at a terminal and never with `--json`.
fn progress_bar(args: &CheckArgs) -> Option<ProgressBar> {
    if args.json || !std::io::stderr().is_terminal() {
        return None;
    }
    Some(files_bar(&args.files, "{bytes_per_sec} eta {eta}"))
}

/// A bar over the total size of `files`, drawn on stderr (hidden when it is no terminal),
/// with `extra` after the byte counts.
pub(crate) fn files_bar(files: &[std::path::PathBuf], extra: &str) -> ProgressBar {
    let total: u64 = files
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(&format!("{{bar:40}} {{bytes}}/{{total_bytes}} {extra}"))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

fn json_line(game: usize, item: &Result<GameRecord, PgnError>) -> String {
    match item {
        Ok(record) => {
            let (end, outcome) = final_outcome(&record.start, record.moves.iter().map(|rm| rm.m));
            let outcome = outcome.map_or("none", |o| o.as_str());
            format!(
                r#"{{"game":{game},"ok":true,"plies":{},"fen":{},"outcome":"{outcome}","result":"{}"}}"#,
                record.moves.len(),
                json_string(&end.fen()),
                record.result
            )
        }
        Err(e) => format!(
            r#"{{"game":{game},"ok":false,"ply":{},"move":{},"error":{}}}"#,
            e.ply,
            json_string(&e.text),
            json_string(&e.kind.to_string())
        ),
    }
}

fn text_line(game: usize, item: &Result<GameRecord, PgnError>) -> String {
    match item {
        Ok(record) => {
            let (_, outcome) = final_outcome(&record.start, record.moves.iter().map(|rm| rm.m));
            let outcome = outcome.map_or("no ending on the board", |o| o.as_str());
            let players = match (record.tags.get("White"), record.tags.get("Black")) {
                (None, None) => String::new(),
                (w, b) => format!(" ({} - {})", w.unwrap_or("?"), b.unwrap_or("?")),
            };
            format!(
                "game {game}{players}: ok, {} plies, result {}, {outcome}",
                record.moves.len(),
                record.result
            )
        }
        Err(e) => {
            // The reader numbers games per file; show the running number.
            let e = PgnError { game, ..e.clone() };
            format!("{e}")
        }
    }
}

/// A JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::json_string;

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\nd\u{1}"), r#""a\"b\\c\nd\u0001""#);
    }
}
