//! The engine's speed: a fixed-depth search of each bench position (the same work on every
//! run), reporting nodes, time and nodes per second.
//!
//! cargo run --release -p rookery-engine --example bench [-- DEPTH [network] [--all]
//!     [--fens FILE]]
//!
//! With `network`, positions are judged by the evaluation network instead of the hand-written
//! evaluation; with `--all`, every root move is scored (as the weak levels search); with
//! `--fens`, the positions are the file's lines (`tests/data/bench80.fen`: 80 positions from
//! real games) instead of the twelve below. Two builds compared on the same positions and
//! depth search the same tree when their node counts agree.

use std::time::Instant;

use rookery_core::Position;
use rookery_engine::{Evaluation, Limits, Search};

/// Openings, middlegames and endgames (the first six are chessprogramming.org's perft
/// positions).
const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    "2rq1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB1QBPPP/2R2RK1 w - - 0 12",
    "r1b2rk1/2q1bppp/p2ppn2/1p6/3BPP2/2N2B2/PPPQ2PP/R4R1K b - - 0 14",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
    "8/5pk1/6p1/8/3R4/6P1/5PK1/r7 w - - 0 40",
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth = args.first().and_then(|d| d.parse().ok()).unwrap_or(9);
    let limits = Limits {
        evaluation: if args.iter().any(|a| a == "network") {
            Evaluation::Network
        } else {
            Evaluation::Classic
        },
        score_all: args.iter().any(|a| a == "--all"),
        ..Limits::depth(depth)
    };
    let file = args
        .iter()
        .position(|a| a == "--fens")
        .and_then(|i| args.get(i + 1))
        .map(|path| {
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
        });
    let positions: Vec<&str> = match &file {
        Some(text) => text.lines().filter(|l| !l.trim().is_empty()).collect(),
        None => POSITIONS.to_vec(),
    };
    let (mut nodes, started) = (0u64, Instant::now());
    for fen in positions {
        let pos = Position::from_fen(fen).expect("bench FEN");
        let found = Search::new(16).run(&pos, &[], &limits);
        nodes += found.nodes;
        println!(
            "{:>10} nodes  {:>6} ms  {}  {}",
            found.nodes,
            found.elapsed.as_millis(),
            found.best.map_or("-".into(), |m| pos.san(m)),
            fen
        );
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "depth {depth}: {nodes} nodes in {secs:.2} s = {:.0} knps",
        nodes as f64 / secs / 1000.0
    );
}
