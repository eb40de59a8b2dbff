//! Games of the engine against itself at a fixed number of nodes a move, written as
//! positions labelled with the game's result: the data the evaluation's weights are tuned on
//! (see the `tune` example).
//!
//! cargo run --release -p rookery-engine --example selfplay -- OPENINGS.pgn OUT GAMES NODES SEED
//!
//! Each game starts from the first 4-13 plies of a game in OPENINGS, then one random legal
//! move, so that games differ. Every position after that which is not in check, whose
//! chosen move is neither a capture nor a promotion and whose score is not a mate is written
//! as `FEN;RESULT` with RESULT 1, 0.5 or 0 for White. A game ends by the rules (checkmate,
//! stalemate, dead position, fifty moves, a position's third occurrence), when both sides
//! have seen a score beyond 10 pawns for 4 plies running (a win), or at 400 plies (a draw).
//! Same arguments, same games: the searches have node limits, not time limits.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};

use rookery_core::pgn::Reader;
use rookery_core::{Color, Move, Position};
use rookery_engine::{Limits, MATE, Rng, Search};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [openings, out, games, nodes, seed] = args.as_slice() else {
        return Err("usage: selfplay OPENINGS.pgn OUT GAMES NODES SEED".into());
    };
    let games: u64 = games.parse()?;
    let nodes: u64 = nodes.parse()?;
    let seed: u64 = seed.parse()?;
    let lines: Vec<Vec<Move>> = Reader::new(BufReader::new(File::open(openings)?))
        .filter_map(Result::ok)
        .filter(|g| g.start == Position::new() && g.moves.len() >= 13)
        .map(|g| g.moves.iter().map(|m| m.m).collect())
        .collect();
    if lines.is_empty() {
        return Err("no games from the start position in the openings file".into());
    }
    let mut out = BufWriter::new(File::create(out)?);
    let mut rng = Rng::new(seed);
    let mut search = Search::new(16);
    let (mut written, mut decisive) = (0usize, 0u64);
    for g in 0..games {
        let line = &lines[(rng.next_u64() % lines.len() as u64) as usize];
        let plies = 4 + (rng.next_u64() % 10) as usize;
        let (positions, result) = play(&mut search, &line[..plies], &mut rng, nodes);
        if result != 0.5 {
            decisive += 1;
        }
        for fen in &positions {
            writeln!(out, "{fen};{result}")?;
        }
        written += positions.len();
        if (g + 1) % 100 == 0 {
            eprintln!("{} games, {written} positions, {decisive} decisive", g + 1);
        }
    }
    out.flush()?;
    eprintln!("{games} games, {written} positions, {decisive} decisive");
    Ok(())
}

/// One game after `opening` and a random move: the positions kept and White's result.
fn play(search: &mut Search, opening: &[Move], rng: &mut Rng, nodes: u64) -> (Vec<String>, f64) {
    let mut pos = Position::new();
    let mut keys = Vec::new();
    for &m in opening {
        keys.push(pos.zobrist());
        pos.play_unchecked(m);
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return (Vec::new(), 0.5);
    }
    keys.push(pos.zobrist());
    pos.play_unchecked(moves[(rng.next_u64() % moves.len() as u64) as usize]);
    search.clear();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut kept = Vec::new();
    let mut winning = [0u32; 2];
    for _ in 0..400 {
        if let Some(outcome) = pos.outcome() {
            let result = match outcome.winner() {
                Some(Color::White) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
            return (kept, result);
        }
        if keys.iter().filter(|&&k| k == pos.zobrist()).count() >= 2 {
            return (kept, 0.5);
        }
        let found = search.run(&pos, &keys, &limits);
        let Some(best) = found.best else {
            break;
        };
        let white = if pos.turn() == Color::White { 1 } else { -1 };
        let side = usize::from(pos.turn() == Color::Black);
        // Both sides agree on who is winning: the side ahead wins.
        winning[side] = if found.score.abs() >= 1000 {
            winning[side] + 1
        } else {
            0
        };
        if winning[0] >= 4 && winning[1] >= 4 {
            return (kept, if found.score * white > 0 { 1.0 } else { 0.0 });
        }
        let quiet = !pos.is_check()
            && !pos.is_capture(best)
            && best.promotion().is_none()
            && found.score.abs() < MATE - 1000;
        if quiet {
            kept.push(pos.fen());
        }
        keys.push(pos.zobrist());
        pos.play_unchecked(best);
    }
    (kept, 0.5)
}
