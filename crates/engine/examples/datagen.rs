//! Training positions for the evaluation network, from the engine's own games: each game
//! starts with a few random moves, then both sides search a fixed number of nodes a move (with
//! the classic evaluation; the same seed gives the same games).
//! Quiet positions (not in check, the chosen move neither a capture nor a promotion) are
//! written one a line as `FEN;score;result`: the search's score and the game's result, both
//! from White's side (score in centipawns; result 1, 0.5 or 0).
//!
//! cargo run --release -p rookery-engine --example datagen -- OUT SEED POSITIONS [NODES]
//!     [--openings FENS] [--network]
//!
//! `--openings FENS`: games start from positions in this file (one FEN a line, taken in
//! turn), each followed by `OPENING_RANDOM_PLIES` random moves, instead of from the start
//! position. `--network`: both sides search with the evaluation network.

use std::io::{BufWriter, Write};

use rookery_core::{Color, Position};
use rookery_engine::{Evaluation, Limits, MATE, Rng, Search};

/// Random moves that open each game from the start position.
const RANDOM_PLIES: usize = 8;
/// Random moves after a position from `--openings`.
const OPENING_RANDOM_PLIES: usize = 2;
/// Scores this far from even, held by both sides for `DECIDED_PLIES`, end the game as won.
const DECIDED: i32 = 1500;
const DECIDED_PLIES: usize = 6;
/// A game this long is scored a draw.
const MAX_PLIES: usize = 400;

fn main() {
    let mut args: Vec<String> = std::env::args().collect();
    let network = take_flag(&mut args, "--network");
    let openings: Vec<Position> = match args.iter().position(|a| a == "--openings") {
        Some(i) if i + 1 < args.len() => {
            let path = args.remove(i + 1);
            args.remove(i);
            std::fs::read_to_string(&path)
                .expect("FENS can be read")
                .lines()
                .filter_map(|l| Position::from_fen(l.trim()).ok())
                .collect()
        }
        _ => Vec::new(),
    };
    if args.len() < 4 {
        eprintln!("usage: datagen OUT SEED POSITIONS [NODES] [--openings FENS] [--network]");
        std::process::exit(2);
    }
    let evaluation = if network {
        Evaluation::Network
    } else {
        Evaluation::Classic
    };
    let seed: u64 = args[2].parse().expect("SEED is a number");
    let wanted: usize = args[3].parse().expect("POSITIONS is a number");
    let nodes: u64 = args
        .get(4)
        .map_or(5000, |n| n.parse().expect("NODES is a number"));
    let file = std::fs::File::create(&args[1]).expect("OUT can be created");
    let mut out = BufWriter::new(file);
    let mut rng = Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut search = Search::new(16);
    let (mut written, mut games) = (0, 0);
    while written < wanted {
        let start = if openings.is_empty() {
            opening(&mut rng, Position::new(), RANDOM_PLIES)
        } else {
            let from = openings[games % openings.len()];
            opening(&mut rng, from, OPENING_RANDOM_PLIES)
        };
        let Some(start) = start else {
            games += 1;
            continue;
        };
        search.clear();
        let (lines, result) = play(&mut search, start, nodes, evaluation);
        games += 1;
        for (fen, score) in &lines {
            writeln!(out, "{fen};{score};{result}").expect("OUT is writable");
        }
        written += lines.len();
        if games % 100 == 0 {
            eprintln!("{games} games, {written} positions");
        }
    }
    out.flush().expect("OUT is writable");
}

/// Whether `flag` is among `args` (taken out if so).
fn take_flag(args: &mut Vec<String>, flag: &str) -> bool {
    let before = args.len();
    args.retain(|a| a != flag);
    args.len() != before
}

/// `pos` after `plies` random legal moves, if the game is still on.
fn opening(rng: &mut Rng, mut pos: Position, plies: usize) -> Option<Position> {
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let i = (rng.next_u64() % moves.len() as u64) as usize;
        pos = pos.after(moves[i]);
    }
    (pos.outcome().is_none()).then_some(pos)
}

/// Plays a game from `pos`; returns the quiet positions with their scores (White's side) and
/// the result for White.
fn play(
    search: &mut Search,
    mut pos: Position,
    nodes: u64,
    evaluation: Evaluation,
) -> (Vec<(String, i32)>, &'static str) {
    let limits = Limits {
        nodes: Some(nodes),
        evaluation,
        ..Limits::default()
    };
    let mut keys: Vec<u64> = Vec::new();
    let mut lines = Vec::new();
    let mut decided = 0usize;
    let mut last_sign = 0;
    for _ in 0..MAX_PLIES {
        if let Some(outcome) = pos.outcome() {
            return (lines, result_of(outcome.winner()));
        }
        if pos.halfmoves() >= 100 || keys.iter().filter(|&&k| k == pos.zobrist()).count() >= 2 {
            return (lines, "0.5");
        }
        let found = search.run(&pos, &keys, &limits);
        let Some(best) = found.best else {
            return (lines, "0.5");
        };
        let white = if pos.turn() == Color::White {
            found.score
        } else {
            -found.score
        };
        if white.abs() >= DECIDED {
            let sign = white.signum();
            decided = if sign == last_sign { decided + 1 } else { 1 };
            last_sign = sign;
            if decided >= DECIDED_PLIES {
                let winner = if sign > 0 { Color::White } else { Color::Black };
                return (lines, result_of(Some(winner)));
            }
        } else {
            decided = 0;
            last_sign = 0;
        }
        let quiet =
            !pos.is_check() && pos.captured_role(best).is_none() && best.promotion().is_none();
        if quiet && white.abs() < MATE - 1000 {
            lines.push((pos.fen(), white));
        }
        keys.push(pos.zobrist());
        pos = pos.after(best);
    }
    (lines, "0.5")
}

fn result_of(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::White) => "1",
        Some(Color::Black) => "0",
        None => "0.5",
    }
}
