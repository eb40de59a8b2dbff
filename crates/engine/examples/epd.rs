//! Scores the engine on an EPD test suite at a fixed time (or node count) per position.
//!
//! cargo run --release -p rookery-engine --example epd -- crates/engine/tests/data/wac.epd --ms 1000
//!
//! Prints each position not solved and a last line `solved S/N`. `--network` searches with the
//! evaluation network instead of the classic evaluation.

use std::time::{Duration, Instant};

use rookery_engine::{Evaluation, Limits, Search, parse_epd};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut file = None;
    let mut limits = Limits::default();
    let mut hash = 64;
    while let Some(arg) = args.next() {
        let mut value = || args.next().and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
        match arg.as_str() {
            "--ms" => limits.time = Some(Duration::from_millis(value())),
            "--nodes" => limits.nodes = Some(value()),
            "--depth" => limits.depth = Some(value() as u32),
            "--hash" => hash = value() as usize,
            "--network" => limits.evaluation = Evaluation::Network,
            _ => file = Some(arg),
        }
    }
    let Some(file) = file else {
        eprintln!("usage: epd FILE [--ms N | --nodes N | --depth N] [--hash MiB] [--network]");
        std::process::exit(2);
    };
    if limits.time.is_none() && limits.nodes.is_none() && limits.depth.is_none() {
        limits.time = Some(Duration::from_secs(1));
    }
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(2);
    });
    let (mut solved, mut total, mut nodes) = (0, 0, 0u64);
    let started = Instant::now();
    for line in text.lines() {
        let case = match parse_epd(line) {
            Ok(Some(case)) => case,
            Ok(None) => continue,
            Err(e) => {
                eprintln!("skipped: {e}");
                continue;
            }
        };
        total += 1;
        let mut search = Search::new(hash);
        let found = search.run(&case.position, &[], &limits);
        nodes += found.nodes;
        match found.best {
            Some(m) if case.solved_by(m) => solved += 1,
            other => println!(
                "{}: played {} (depth {}, score {})",
                case.id,
                other.map_or("nothing".into(), |m| case.position.san(m)),
                found.depth,
                found.score
            ),
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{nodes} nodes in {secs:.1} s ({:.0} knps)",
        nodes as f64 / secs / 1000.0
    );
    println!("solved {solved}/{total}");
}
