//! Counts perft nodes: `perft <depth> "<fen>" [--bulk] [--divide]`.
//!
//! Without `--bulk` every move down to the last ply is played; with it the last ply counts
//! the legal move list. `--divide` first prints one line per root move. The total node
//! count is always the last line.

use std::process::ExitCode;
use std::time::Instant;

use rookery_core::{Position, perft, perft_bulk};

fn main() -> ExitCode {
    let mut bulk = false;
    let mut divide = false;
    let mut positional = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--bulk" => bulk = true,
            "--divide" => divide = true,
            _ => positional.push(arg),
        }
    }
    let usage = "usage: perft <depth> \"<fen>\" [--bulk] [--divide]";
    let (Some(depth), fen) = (positional.first(), positional.get(1)) else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    let Ok(depth) = depth.parse::<u32>() else {
        eprintln!("depth {depth:?} is not a number\n{usage}");
        return ExitCode::from(2);
    };
    let pos = match fen.map(|f| Position::from_fen(f)).transpose() {
        Ok(pos) => pos.unwrap_or_default(),
        Err(e) => {
            eprintln!("bad FEN: {e}");
            return ExitCode::from(2);
        }
    };
    let count = |p: &Position, d: u32| if bulk { perft_bulk(p, d) } else { perft(p, d) };
    let start = Instant::now();
    let total = if divide && depth > 0 {
        let mut total = 0;
        for m in pos.legal_moves() {
            let n = count(&pos.after(m), depth - 1);
            println!("{}: {n}", m.to_uci());
            total += n;
        }
        total
    } else {
        count(&pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{total} nodes in {secs:.3} s ({:.1} Mnps)",
        total as f64 / secs / 1e6
    );
    println!("{total}");
    ExitCode::SUCCESS
}
