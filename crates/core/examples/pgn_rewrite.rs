//! Rewrites PGN through rookery-core: `pgn_rewrite FILE... > out.pgn` writes every valid game
//! as Rookery writes PGN (invalid games are reported on stderr and left out).
//! `pgn_rewrite --summary FILE...` prints instead one tab-separated line per valid game:
//! the tags as `name=value` joined by `\x1f`, the moves in UCI, and the result — what
//! `tests/python/pgn_readback.py` compares with other readers' reading of the written file.

use std::io::{BufReader, Write};

use rookery_core::pgn::{Reader, write};

fn main() -> std::io::Result<()> {
    let mut summary = false;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for arg in std::env::args().skip(1) {
        if arg == "--summary" {
            summary = true;
            continue;
        }
        let file = std::fs::File::open(&arg)?;
        for game in Reader::new(BufReader::new(file)) {
            match game {
                Ok(record) if summary => {
                    let tags: Vec<String> = record
                        .tags
                        .iter()
                        .map(|(n, v)| format!("{n}={v}"))
                        .collect();
                    let moves: Vec<String> = record
                        .moves
                        .iter()
                        .map(|m| m.m.to_uci().to_string())
                        .collect();
                    writeln!(
                        out,
                        "{}\t{}\t{}",
                        tags.join("\x1f"),
                        moves.join(" "),
                        record.result
                    )?;
                }
                Ok(record) => out.write_all(write(&record).as_bytes())?,
                Err(e) => eprintln!("{arg}: {e}"),
            }
        }
    }
    out.flush()
}
