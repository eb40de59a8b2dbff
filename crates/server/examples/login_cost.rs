//! What a log-in costs on this machine: Argon2id hashing (sign-up, password change) and
//! checking (log-in), on one thread, against an anchor measured in the same run — a game's
//! move applied through the rules (`Game::apply`, what the server does for every move). The
//! ratio says how many moves' worth of CPU one log-in takes; the server checks one password
//! at a time, so the time of one check also bounds log-ins a second per core.
//!
//!   cargo run --release -p rookery-server --example login_cost [-- ROUNDS]

use std::time::{Duration, Instant};

use rookery_core::clock::TimeControl;
use rookery_core::game::{Command, Game, MoveText};
use rookery_core::{Color, Position};

/// A real game's moves (Morphy's opera game), replayed as the anchor.
const OPERA: &[&str] = &[
    "e4", "e5", "Nf3", "d6", "d4", "Bg4", "dxe5", "Bxf3", "Qxf3", "dxe5", "Bc4", "Nf6", "Qb3",
    "Qe7", "Nc3", "c6", "Bg5", "b5", "Nxb5", "cxb5", "Bxb5+", "Nbd7", "O-O-O", "Rd8", "Rxd7",
    "Rxd7", "Rd1", "Qe6", "Bxd7+", "Nxd7", "Qb8+", "Nxb8", "Rd8#",
];

fn replay() -> usize {
    let mut game = Game::new(Position::new(), TimeControl::Untimed);
    let mut now = 0u64; // ms
    for (i, san) in OPERA.iter().enumerate() {
        let by = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        now += 500;
        game.apply(
            Command::Move {
                by,
                text: MoveText::San((*san).to_owned()),
                offer_draw: false,
                timing: Default::default(),
            },
            now,
        )
        .expect("the opera game is legal");
    }
    OPERA.len()
}

fn per(d: Duration, n: usize) -> f64 {
    d.as_secs_f64() / n as f64
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    // Anchor: moves through the rules.
    let started = Instant::now();
    let mut moves = 0;
    while started.elapsed() < Duration::from_secs(2) {
        moves += replay();
    }
    let move_s = per(started.elapsed(), moves);
    let started = Instant::now();
    let mut hash = String::new();
    for i in 0..rounds {
        hash = rookery_server::measure::password_hash(&format!("password number {i}"));
    }
    let hash_s = per(started.elapsed(), rounds);
    let started = Instant::now();
    let mut good = 0;
    for _ in 0..rounds {
        good += usize::from(rookery_server::measure::password_verify(
            &format!("password number {}", rounds - 1),
            &hash,
        ));
    }
    let verify_s = per(started.elapsed(), rounds);
    assert_eq!(good, rounds);
    println!(
        "anchor: a move through the rules (Game::apply): {:.2} us ({moves} moves)",
        move_s * 1e6
    );
    println!(
        "Argon2id hash (sign-up): {:.1} ms = {:.0} moves",
        hash_s * 1e3,
        hash_s / move_s
    );
    println!(
        "Argon2id check (log-in): {:.1} ms = {:.0} moves; at most {:.0} log-ins/s on one core",
        verify_s * 1e3,
        verify_s / move_s,
        1.0 / verify_s
    );
}
