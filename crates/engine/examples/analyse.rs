//! Analyses the games of a PGN file as the server does (`analysis::analyse_game`, the default
//! budget or `--nodes N`) and writes every position's evaluation, one line each:
//! `GAME PLY SCORE BEST` (tab-separated; PLY 0 is the start; SCORE `cp:17`, `mate:-3` or `-`
//! where the game is over, from White's side; BEST the engine's move in UCI or `-`).
//!
//! cargo run --release -p rookery-engine --example analyse -- games.pgn [--nodes N] [--games N]
//!
//! `crates/engine/tests/python/stockfish_judge.py` judges these against Stockfish's.

use std::io::Write;

use rookery_core::pgn::Reader;
use rookery_engine::Search;
use rookery_engine::analysis::{Score, analyse_game};

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut file, mut nodes, mut games) = (None, 200_000u64, usize::MAX);
    while let Some(arg) = args.next() {
        let mut value = || args.next().and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
        match arg.as_str() {
            "--nodes" => nodes = value(),
            "--games" => games = value() as usize,
            _ => file = Some(arg),
        }
    }
    let Some(file) = file else {
        eprintln!("usage: analyse FILE.pgn [--nodes N] [--games N]");
        std::process::exit(2);
    };
    let text = std::fs::read(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut search = Search::new(8);
    let out = std::io::stdout();
    let mut out = out.lock();
    for (g, record) in Reader::new(&text[..])
        .filter_map(Result::ok)
        .take(games)
        .enumerate()
    {
        let moves: Vec<_> = record.moves.iter().map(|m| m.m).collect();
        search.clear();
        let evals = analyse_game(&mut search, record.start, &moves, nodes);
        for (ply, eval) in evals.iter().enumerate() {
            let score = match eval.score {
                Some(Score::Cp(cp)) => format!("cp:{cp}"),
                Some(Score::Mate(n)) => format!("mate:{n}"),
                None => "-".to_owned(),
            };
            let best = eval.best.map_or("-".to_owned(), |m| m.to_uci().to_string());
            writeln!(out, "{g}\t{ply}\t{score}\t{best}").unwrap();
        }
    }
}
