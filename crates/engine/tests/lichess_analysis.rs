//! The computer analysis against lichess's own (docs/ANALYSIS.md): the 37 games of
//! `data/lichess-evals.pgn` carry lichess's server analysis (`[%eval]` after every move);
//! each game is analysed again by ours from its moves alone, and both sets of evaluations are
//! judged by the same rules (lichess's, `analysis::advice` and `analysis::review`). A
//! blunder of lichess's is found when ours calls the move a mistake or a blunder (recall); a
//! blunder of ours is right when lichess's calls it one of those (precision); the same one
//! class down for mistakes (an inaccuracy or worse). Each side's accuracy is compared too.
//! Minutes in release mode: `cargo test --release -p rookery-engine --test lichess_analysis
//! -- --ignored --nocapture` (CI runs it).

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rookery_core::pgn::Reader;
use rookery_core::{Color, Move, Position};
use rookery_engine::Search;
use rookery_engine::analysis::{Judgement, Score, advice, analyse_game, review};

/// The analysis budget the server uses by default (`--analysis-nodes`); as there,
/// `ROOKERY_ANALYSIS_NODES` sets another.
const NODES: u64 = 200_000;

fn nodes() -> u64 {
    std::env::var("ROOKERY_ANALYSIS_NODES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(NODES)
}
/// Lichess's value of a game's first position when it judges the first move (its
/// `Cp.initial`).
const LICHESS_START: Score = Score::Cp(15);

struct Game {
    site: String,
    start: Position,
    moves: Vec<Move>,
    /// Lichess's evaluation of the position after each move (none after a mate).
    lichess: Vec<Option<Score>>,
}

fn eval_of(comment: &str) -> Option<Score> {
    let at = comment.find("[%eval ")? + "[%eval ".len();
    let text = comment[at..].split(']').next()?.trim();
    match text.strip_prefix('#') {
        Some(mate) => mate.parse().ok().map(Score::Mate),
        None => text
            .parse::<f64>()
            .ok()
            .map(|pawns| Score::Cp((pawns * 100.0).round() as i32)),
    }
}

fn games() -> Vec<Game> {
    let text = include_str!("data/lichess-evals.pgn");
    Reader::new(text.as_bytes())
        .map(|record| {
            let record = record.expect("the test data reads");
            Game {
                site: record.tags.get("Site").unwrap_or("?").to_owned(),
                start: record.start,
                moves: record.moves.iter().map(|m| m.m).collect(),
                lichess: record
                    .moves
                    .iter()
                    .map(|m| m.comments.iter().find_map(|c| eval_of(c)))
                    .collect(),
            }
        })
        .collect()
}

/// How often one judge's moves of a class were found by the other: a move of `class` by
/// `of` counts as found when `by` gives it at least the class below (any judgement for an
/// inaccuracy).
fn agreement(
    of: &[Option<Judgement>],
    by: &[Option<Judgement>],
    class: Judgement,
) -> (usize, usize) {
    let floor = match class {
        Judgement::Blunder => Judgement::Mistake,
        Judgement::Mistake | Judgement::Inaccuracy => Judgement::Inaccuracy,
    };
    let mut found = 0;
    let mut all = 0;
    for (a, b) in of.iter().zip(by) {
        if *a == Some(class) {
            all += 1;
            if b.is_some_and(|b| b >= floor) {
                found += 1;
            }
        }
    }
    (found, all)
}

#[test]
#[ignore = "minutes in release mode; CI runs it"]
fn analysis_agrees_with_lichess() {
    let games = games();
    assert_eq!(games.len(), 37);
    let plies: usize = games.iter().map(|g| g.moves.len()).sum();
    let evaluated: usize = games
        .iter()
        .map(|g| g.lichess.iter().filter(|e| e.is_some()).count())
        .sum();
    assert!(
        evaluated + 20 >= plies,
        "the test data lost its evaluations"
    );

    // Games shared among threads, each with its own search (one search thread a game).
    let next = AtomicUsize::new(0);
    let results = Mutex::new(vec![None; games.len()]);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut search = Search::new(8);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(game) = games.get(i) else { break };
                    search.clear();
                    let started = Instant::now();
                    let evals = analyse_game(&mut search, game.start, &game.moves, nodes());
                    let took = started.elapsed();
                    let scores: Vec<Option<Score>> = evals.iter().map(|e| e.score).collect();
                    let engine_moves: Vec<bool> = game
                        .moves
                        .iter()
                        .zip(&evals)
                        .map(|(m, e)| e.best == Some(*m))
                        .collect();
                    results.lock().unwrap()[i] = Some((scores, engine_moves, took));
                }
            });
        }
    });
    let results: Vec<(Vec<Option<Score>>, Vec<bool>, Duration)> = results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(Option::unwrap)
        .collect();

    // For study: every position's two evaluations, one a line (`site ply ours lichess`).
    if let Ok(path) = std::env::var("ROOKERY_ANALYSIS_DUMP") {
        let mut out = String::new();
        for (game, (ours, ..)) in games.iter().zip(&results) {
            for (i, theirs) in game.lichess.iter().enumerate() {
                out += &format!("{} {} {:?} {:?}\n", game.site, i + 1, ours[i + 1], theirs);
            }
        }
        std::fs::write(path, out).unwrap();
    }
    let mut ours_all = Vec::new();
    let mut theirs_all = Vec::new();
    let mut accuracy_gaps = Vec::new();
    let mut busy = Duration::ZERO;
    for (game, (ours, engine_moves, took)) in games.iter().zip(&results) {
        busy += *took;
        let first = game.start.turn();
        let mut theirs = vec![Some(LICHESS_START)];
        theirs.extend(game.lichess.iter().copied());
        // Only the moves lichess's analysis judged (it has no evaluation after a mate).
        let judged = game.lichess.iter().take_while(|e| e.is_some()).count();
        let ours_review = review(first, &ours[..=judged], engine_moves);
        // Lichess's analysis lines are not in the file: every move counts as not its engine's.
        let theirs_review = review(first, &theirs[..=judged], &[]);
        let mine: Vec<_> = (0..judged)
            .map(|i| {
                let mover = if i % 2 == 0 { first } else { !first };
                advice(ours[i], ours[i + 1], mover).filter(|_| !engine_moves[i])
            })
            .collect();
        assert_eq!(mine, ours_review.judgements);
        for (i, (a, b)) in ours_review
            .judgements
            .iter()
            .zip(&theirs_review.judgements)
            .enumerate()
        {
            if a != b
                && (a.is_some_and(|j| j >= Judgement::Mistake)
                    || b.is_some_and(|j| j >= Judgement::Mistake))
            {
                println!(
                    "{} ply {}: ours {:?} ({:?} -> {:?}), lichess {:?} ({:?} -> {:?})",
                    game.site,
                    i + 1,
                    a,
                    ours[i],
                    ours[i + 1],
                    b,
                    theirs[i],
                    theirs[i + 1]
                );
            }
        }
        ours_all.extend(ours_review.judgements.iter().copied());
        theirs_all.extend(theirs_review.judgements.iter().copied());
        for color in [Color::White, Color::Black] {
            if let (Some(a), Some(b)) = (
                ours_review.sides.get(color).accuracy,
                theirs_review.sides.get(color).accuracy,
            ) {
                accuracy_gaps.push((a - b).abs());
            }
        }
    }

    let ratio = |(found, all): (usize, usize)| {
        if all == 0 {
            1.0
        } else {
            found as f64 / all as f64
        }
    };
    let mut figures = Vec::new();
    for class in [
        Judgement::Blunder,
        Judgement::Mistake,
        Judgement::Inaccuracy,
    ] {
        let recall = agreement(&theirs_all, &ours_all, class);
        let precision = agreement(&ours_all, &theirs_all, class);
        println!(
            "{:>11}: recall {:.3} ({} of lichess's {}), precision {:.3} ({} of our {})",
            format!("{}s", class.word()).replace("ys", "ies"),
            ratio(recall),
            recall.0,
            recall.1,
            ratio(precision),
            precision.0,
            precision.1
        );
        figures.push((class, ratio(recall), ratio(precision)));
    }
    accuracy_gaps.sort_by(f64::total_cmp);
    let mean = accuracy_gaps.iter().sum::<f64>() / accuracy_gaps.len() as f64;
    let within = accuracy_gaps.iter().filter(|g| **g <= 3.0).count();
    println!(
        "accuracy: |ours - lichess's| mean {mean:.2}, median {:.2}, max {:.2}; {within} of {} sides within 3 points",
        accuracy_gaps[accuracy_gaps.len() / 2],
        accuracy_gaps[accuracy_gaps.len() - 1],
        accuracy_gaps.len()
    );
    println!(
        "time: {plies} plies in {:.1} s of search ({:.1} s for 80 plies, one thread)",
        busy.as_secs_f64(),
        busy.as_secs_f64() * 80.0 / plies as f64
    );
    let (_, recall, precision) = figures[0];
    println!(
        "goal: blunders' recall and precision at least {GOAL} each ({})",
        if recall >= GOAL && precision >= GOAL {
            "met"
        } else {
            "not met"
        }
    );
    assert!(
        recall >= MIN_RECALL && precision >= MIN_PRECISION,
        "blunders: recall {recall:.3} (at least {MIN_RECALL}), precision {precision:.3} (at least \
         {MIN_PRECISION})"
    );
}

/// The goal (docs/ANALYSIS.md): lichess's own analysis agreed with on 95% of blunders both
/// ways. Not met yet: the floors below are what the analysis measures today (0.819 and 0.908,
/// 2026-12-07) less a little, so that a change that loses agreement fails here; raise them with
/// every gain.
const GOAL: f64 = 0.95;
const MIN_RECALL: f64 = 0.80;
const MIN_PRECISION: f64 = 0.89;
