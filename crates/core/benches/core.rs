//! rookery-core on its own: perft speed (full and bulk) and the cost of validating one move.
//! `cargo bench -p rookery-core`. For the same figures beside shakmaty and cozy-chess, measured
//! in one run, use `cargo bench -p rookery-bench` (see BENCHMARKS.md).

use std::hint::black_box;
use std::time::Instant;

use rookery_core::{Position, SanPlus, UciMove, perft, perft_bulk};

fn main() {
    let cases = [
        (
            "startpos d6",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            6,
            119_060_324,
        ),
        (
            "kiwipete d5",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            5,
            193_690_690,
        ),
    ];
    for (name, fen, depth, nodes) in cases {
        let pos = Position::from_fen(fen).unwrap();
        for bulk in [false, true] {
            let start = Instant::now();
            let n = if bulk {
                perft_bulk(&pos, depth)
            } else {
                perft(&pos, depth)
            };
            let secs = start.elapsed().as_secs_f64();
            assert_eq!(n, nodes);
            let mode = if bulk { "bulk" } else { "full" };
            println!("perft {name} {mode}: {:.0} Mnps", n as f64 / secs / 1e6);
        }
    }

    // UCI text -> legal move -> SAN -> play -> outcome, on positions of a fixed game.
    let mut samples = Vec::new();
    let mut pos = Position::new();
    for san in [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
        "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7", "c4", "c6", "cxb5", "axb5", "Nc3", "Bb7",
    ] {
        let m = pos.parse_san(san).unwrap();
        samples.push((pos, m.to_uci().to_string()));
        pos.play(m).unwrap();
    }
    let rounds = 20_000;
    let start = Instant::now();
    for _ in 0..rounds {
        for (p, uci) in &samples {
            let m = uci.parse::<UciMove>().unwrap().to_move(p).unwrap();
            let mut next = *p;
            let san = SanPlus::of_and_play(&mut next, m);
            black_box((san, next.outcome()));
        }
    }
    let per = start.elapsed().as_nanos() as f64 / (rounds * samples.len()) as f64;
    println!("validate one move (UCI -> legal move -> SAN -> play -> outcome): {per:.0} ns");
}
