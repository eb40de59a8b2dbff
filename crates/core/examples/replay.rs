//! Replays games given as UCI moves and prints what the core judges at every ply, for
//! comparison with another implementation (`tests/python/differential.py`).
//!
//! Input: one game per line, `<fen>|<uci> <uci> ...` (an empty FEN means the start position).
//! Output: per ply, one tab-separated line: the sorted legal moves (UCI) of the position
//! before the move, the move's SAN, the FEN after it, the outcome after it
//! (`checkmate|stalemate|insufficient_material|none`), and how many times the position after
//! the move has occurred in the game so far (R4.4 identity). A line `end` closes each game.

use std::collections::HashMap;
use std::io::{BufRead, BufWriter, Write};

use rookery_core::{Outcome, Position, SanPlus, UciMove};

fn main() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut out = BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let line = line?;
        let (fen, moves) = line.split_once('|').unwrap_or(("", &line));
        let mut pos = if fen.is_empty() {
            Position::new()
        } else {
            match Position::from_fen(fen) {
                Ok(p) => p,
                Err(e) => {
                    writeln!(out, "error\tbad fen: {e}")?;
                    continue;
                }
            }
        };
        let mut seen: HashMap<_, u32> = HashMap::new();
        *seen.entry(pos.repetition_key()).or_default() += 1;
        for text in moves.split_whitespace() {
            let mut legal: Vec<String> = pos
                .legal_moves()
                .iter()
                .map(|m| m.to_uci().to_string())
                .collect();
            legal.sort();
            let m = match text
                .parse::<UciMove>()
                .map_err(|e| e.to_string())
                .and_then(|u| u.to_move(&pos).map_err(|e| e.to_string()))
            {
                Ok(m) => m,
                Err(e) => {
                    writeln!(out, "error\t{e}")?;
                    break;
                }
            };
            let san = SanPlus::of_and_play(&mut pos, m);
            let outcome = match pos.outcome() {
                Some(Outcome::Checkmate { .. }) => "checkmate",
                Some(Outcome::Stalemate) => "stalemate",
                Some(Outcome::InsufficientMaterial) => "insufficient_material",
                None => "none",
            };
            let count = seen.entry(pos.repetition_key()).or_default();
            *count += 1;
            writeln!(
                out,
                "{}\t{san}\t{}\t{outcome}\t{count}",
                legal.join(","),
                pos.fen()
            )?;
        }
        writeln!(out, "end")?;
    }
    out.flush()
}
