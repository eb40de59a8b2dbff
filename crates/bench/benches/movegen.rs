//! Move generation and move validation speed of rookery-core, against shakmaty and
//! cozy-chess measured in the same run on the same machine.
//!
//! `cargo bench -p rookery-bench` (add `-- --quick` for one round instead of five).
//!
//! Perft is measured in two modes: "full" plays every move down to the last ply; "bulk"
//! counts the legal moves of the last ply without playing them. Each library runs the same
//! recursion; every count is checked against the known figure. Rounds are interleaved so
//! that machine noise hits all libraries alike; the median round is reported.

use std::hint::black_box;
use std::time::{Duration, Instant};

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

mod rookery {
    use rookery_core::{Position, SanPlus, UciMove};

    pub(crate) fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    pub(crate) fn perft(p: &Position, depth: u32, bulk: bool) -> u64 {
        if bulk {
            rookery_core::perft_bulk(p, depth)
        } else {
            rookery_core::perft(p, depth)
        }
    }

    /// UCI text -> legal move -> SAN -> play -> outcome.
    pub(crate) fn validate(p: &Position, uci: &str) -> usize {
        let m = uci.parse::<UciMove>().unwrap().to_move(p).unwrap();
        let mut next = *p;
        let san = SanPlus::of_and_play(&mut next, m);
        usize::from(san.check) + usize::from(next.outcome().is_some())
    }
}

mod shakmaty_ref {
    use super::leaf;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen, san::SanPlus, uci::UciMove};

    pub(crate) fn pos(fen: &str) -> Chess {
        Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    pub(crate) fn perft(p: &Chess, depth: u32, bulk: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = p.legal_moves();
        if bulk && depth == 1 {
            return moves.len() as u64;
        }
        let mut n = 0;
        for m in moves {
            let mut child = p.clone();
            child.play_unchecked(m);
            n += if depth == 1 {
                leaf(&child)
            } else {
                perft(&child, depth - 1, bulk)
            };
        }
        n
    }

    pub(crate) fn validate(p: &Chess, uci: &str) -> usize {
        let m = UciMove::from_ascii(uci.as_bytes())
            .unwrap()
            .to_move(p)
            .unwrap();
        let mut next = p.clone();
        let san = SanPlus::from_move_and_play_unchecked(&mut next, m);
        usize::from(san.suffix.is_some()) + usize::from(next.outcome().is_known())
    }
}

mod cozy {
    use super::leaf;
    use cozy_chess::Board;

    pub(crate) fn pos(fen: &str) -> Board {
        Board::from_fen(fen, false).unwrap()
    }

    pub(crate) fn perft(b: &Board, depth: u32, bulk: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut n = 0;
        if bulk && depth == 1 {
            b.generate_moves(|moves| {
                n += moves.len() as u64;
                false
            });
            return n;
        }
        b.generate_moves(|moves| {
            for m in moves {
                let mut child = b.clone();
                child.play_unchecked(m);
                n += if depth == 1 {
                    leaf(&child)
                } else {
                    perft(&child, depth - 1, bulk)
                };
            }
            false
        });
        n
    }
}

/// A leaf of full-mode perft: the played child must exist in memory, so that no library's
/// move-making can be optimised away (rookery-core's own `perft` does the same).
fn leaf<T>(child: &T) -> u64 {
    std::hint::black_box(child);
    1
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn time<F: FnMut() -> u64>(mut f: F) -> (u64, Duration) {
    let start = Instant::now();
    let n = black_box(f());
    (n, start.elapsed())
}

struct Case {
    name: &'static str,
    fen: &'static str,
    depth: u32,
    nodes: u64,
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let rounds = if quick { 1 } else { 5 };
    println!("rookery-core movegen benchmark: {rounds} round(s), median reported, Mnps");
    println!();
    println!(
        "| position | mode | rookery | shakmaty 0.30.1 | cozy-chess 0.3.4 | rookery / faster |"
    );
    println!("|---|---|---|---|---|---|");
    let cases = [
        Case {
            name: "startpos d6",
            fen: STARTPOS,
            depth: 6,
            nodes: 119_060_324,
        },
        Case {
            name: "kiwipete d5",
            fen: KIWIPETE,
            depth: 5,
            nodes: 193_690_690,
        },
    ];
    for case in &cases {
        for bulk in [false, true] {
            let (r, s, c) = (
                rookery::pos(case.fen),
                shakmaty_ref::pos(case.fen),
                cozy::pos(case.fen),
            );
            let mut speeds = [Vec::new(), Vec::new(), Vec::new()];
            for _ in 0..rounds {
                let runs = [
                    time(|| rookery::perft(&r, case.depth, bulk)),
                    time(|| shakmaty_ref::perft(&s, case.depth, bulk)),
                    time(|| cozy::perft(&c, case.depth, bulk)),
                ];
                for (i, (n, d)) in runs.into_iter().enumerate() {
                    assert_eq!(n, case.nodes, "{} library {i}", case.name);
                    speeds[i].push(n as f64 / d.as_secs_f64() / 1e6);
                }
            }
            let [r, s, c] = speeds.map(median);
            println!(
                "| {} | {} | {r:.0} | {s:.0} | {c:.0} | {:.2}x |",
                case.name,
                if bulk { "bulk" } else { "full" },
                r / s.max(c)
            );
        }
    }

    // Validating one move, over positions and moves from varied random games.
    let samples = sample_moves(20_000);
    let r: Vec<_> = samples
        .iter()
        .map(|(f, u)| (rookery::pos(f), u.as_str()))
        .collect();
    let s: Vec<_> = samples
        .iter()
        .map(|(f, u)| (shakmaty_ref::pos(f), u.as_str()))
        .collect();
    // Each move timed on its own (the figures include about 20 ns of timer overhead),
    // libraries interleaved move by move; median and 99th percentile over all moves.
    let mut times = [Vec::new(), Vec::new()];
    for _ in 0..rounds {
        for ((rp, ru), (sp, su)) in r.iter().zip(&s) {
            let start = Instant::now();
            black_box(rookery::validate(rp, ru));
            times[0].push(start.elapsed().as_nanos() as f64);
            let start = Instant::now();
            black_box(shakmaty_ref::validate(sp, su));
            times[1].push(start.elapsed().as_nanos() as f64);
        }
    }
    let pct = |v: &mut Vec<f64>, p: f64| {
        v.sort_by(|a, b| a.total_cmp(b));
        v[((v.len() - 1) as f64 * p) as usize]
    };
    let [mut rt, mut st] = times;
    println!();
    println!(
        "| validate one move (UCI -> legal move -> SAN -> play -> outcome), {} moves x {rounds} | rookery | shakmaty 0.30.1 |",
        r.len()
    );
    println!("|---|---|---|");
    println!(
        "| median ns | {:.0} | {:.0} |",
        pct(&mut rt, 0.5),
        pct(&mut st, 0.5)
    );
    println!(
        "| 99th percentile ns | {:.0} | {:.0} |",
        pct(&mut rt, 0.99),
        pct(&mut st, 0.99)
    );
}

/// Positions from random games (seeded) with one random legal move each.
fn sample_moves(n: usize) -> Vec<(String, String)> {
    let mut seed = 0x5151_2026_1130_0001u64;
    let mut rand = move |k: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % k as u64) as usize
    };
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut p = rookery_core::Position::new();
        for _ in 0..rand(120) {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.play_unchecked(moves[rand(moves.len())]);
        }
        let moves = p.legal_moves();
        if !moves.is_empty() {
            out.push((p.fen(), moves[rand(moves.len())].to_uci().to_string()));
        }
    }
    out
}
