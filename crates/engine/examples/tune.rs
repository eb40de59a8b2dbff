//! Fits the evaluation's weights to game results (Texel's method): the static evaluation of
//! each quiet position, through a logistic curve, should predict the result of the game it
//! came from. Each weight in turn is moved up or down by a step while that lowers the mean
//! squared error; steps of 8, 4, 2 then 1.
//!
//! cargo run --release -p rookery-engine --example tune -- [--max N] [--passes P]
//!     [--fixed NAME]... DATA...
//!
//! `--fixed material` keeps every weight whose name starts with `material` as it is.
//!
//! DATA files hold `FEN;RESULT` lines (RESULT 1, 0.5 or 0 for White), as written by the
//! `selfplay` example. The weights reached are printed after each pass as a Rust
//! expression for `eval::WEIGHTS`.

use std::fs::File;
use std::io::{BufRead, BufReader};

use rookery_core::{Color, Position};
use rookery_engine::{WEIGHTS, Weights, evaluate_with};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (mut max, mut passes, mut files) = (usize::MAX, 4usize, Vec::new());
    // Weights whose names start with one of these are left as they are.
    let mut fixed: Vec<String> = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--max" => max = args.next().ok_or("--max needs a number")?.parse()?,
            "--passes" => passes = args.next().ok_or("--passes needs a number")?.parse()?,
            "--fixed" => fixed.push(args.next().ok_or("--fixed needs a name")?),
            _ => files.push(a),
        }
    }
    let mut data = Vec::new();
    for path in &files {
        for line in BufReader::new(File::open(path)?).lines() {
            let line = line?;
            let Some((fen, result)) = line.rsplit_once(';') else {
                return Err(format!("{path}: no result in {line:?}").into());
            };
            data.push((Position::from_fen(fen)?, result.parse::<f64>()?));
        }
    }
    // Spread the sample over all games when it is cut short.
    if data.len() > max {
        let stride = data.len() as f64 / max as f64;
        data = (0..max)
            .map(|i| data[(i as f64 * stride) as usize])
            .collect();
    }
    eprintln!("{} positions", data.len());
    let mut w = WEIGHTS;
    let k = fit_scale(&data, &w);
    let mut best = error(&data, &w, k);
    eprintln!("scale {k:.3}, error {best:.6}");
    let count = w.fields_mut().len();
    for step in [8, 4, 2, 1] {
        for pass in 0..passes {
            let mut improved = false;
            for i in 0..count {
                if fixed
                    .iter()
                    .any(|f| w.fields_mut()[i].0.starts_with(f.as_str()))
                {
                    continue;
                }
                for delta in [step, -step] {
                    *w.fields_mut()[i].1 += delta;
                    let e = error(&data, &w, k);
                    if e < best {
                        best = e;
                        improved = true;
                        break;
                    }
                    *w.fields_mut()[i].1 -= delta;
                }
            }
            eprintln!("step {step} pass {pass}: error {best:.6}");
            println!("// step {step} pass {pass}: error {best:.6}\n{w:#?}");
            if !improved {
                break;
            }
        }
    }
    for (name, v) in w.fields_mut() {
        eprintln!("{name} = {v}");
    }
    Ok(())
}

/// The evaluation's scale: the `k` for which the starting weights predict best.
fn fit_scale(data: &[(Position, f64)], w: &Weights) -> f64 {
    let mut best = (f64::MAX, 1.0);
    for i in 8..=40 {
        let k = f64::from(i) / 20.0;
        let e = error(data, w, k);
        if e < best.0 {
            best = (e, k);
        }
    }
    best.1
}

/// Mean squared error of the predicted results, over two threads.
fn error(data: &[(Position, f64)], w: &Weights, k: f64) -> f64 {
    let half = data.len() / 2;
    let (a, b) = data.split_at(half);
    let sum = std::thread::scope(|scope| {
        let other = scope.spawn(|| squared_errors(b, w, k));
        squared_errors(a, w, k) + other.join().unwrap_or(f64::NAN)
    });
    sum / data.len().max(1) as f64
}

fn squared_errors(data: &[(Position, f64)], w: &Weights, k: f64) -> f64 {
    data.iter()
        .map(|(pos, result)| {
            let score = evaluate_with(pos, w);
            let white = if pos.turn() == Color::White {
                score
            } else {
                -score
            };
            let predicted = 1.0 / (1.0 + 10f64.powf(-k * f64::from(white) / 400.0));
            (result - predicted).powi(2)
        })
        .sum()
}
