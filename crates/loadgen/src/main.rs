//! `rookery-loadgen`: plays many games against a Rookery server over its real API and
//! WebSockets, and reports throughput and latency.
//!
//! For each game it creates the game over HTTP, joins the second seat, connects both players
//! (and optionally spectators) by WebSocket, and plays random legal moves (chosen with
//! rookery-core) at a set rate. A finished game is replaced by a new one. It measures each
//! move's latency from sending to its acknowledgement and to the opponent's receiving it, and
//! counts errors by kind and the sockets held. It stops by itself after `--seconds` or
//! `--max-moves`, and talks to loopback addresses only.
//!
//! Two more modes: `--idle N` sets up N games that then sit still (for memory per idle
//! game), and `--record FILE` / `--verify FILE` write down every acknowledged move and later
//! check that the server (typically restarted after a kill) still has each of them.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use rookery_core::Position;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

mod arena;
mod args;
mod net;
mod players;
mod stats;
mod verify;

use args::*;
use net::*;
use players::*;
use stats::*;
use verify::*;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args = Arc::new(Args::parse());
    if let Some(addr) = args.server.iter().find(|a| !a.ip().is_loopback()) {
        eprintln!("rookery-loadgen: {addr} is not a loopback address; refusing");
        return std::process::ExitCode::from(2);
    }
    if let Some(path) = &args.verify {
        return verify(&args, path).await;
    }
    if let Some(n) = args.idle {
        return idle(&args, n).await;
    }
    let stats = Arc::new(Stats::default());
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let cpus = || {
        (
            args.pid.and_then(cpu_seconds),
            cpu_seconds(std::process::id()),
        )
    };
    let mut cpu_at_start = cpus();
    // Where the measured window starts: when, and how many moves had been acknowledged.
    let mut window = (started, 0u64);
    stats.measuring.store(args.warmup == 0, Ordering::Relaxed);
    let mut slots = Vec::new();
    let arena_run = match args.arena {
        Some(n) => {
            let ctx = Ctx {
                args: args.clone(),
                stats: stats.clone(),
                stop: stop.clone(),
            };
            match arena::start(&ctx, n).await {
                Ok(run) => Some(run),
                Err(e) => {
                    eprintln!("rookery-loadgen: {e}");
                    return std::process::ExitCode::FAILURE;
                }
            }
        }
        None => None,
    };
    let games = if arena_run.is_some() { 0 } else { args.games };
    // Set the games up a batch at a time, so the server is not hit by every handshake at once.
    for batch in (0..games as u64)
        .collect::<Vec<_>>()
        .chunks(args.setup_concurrency.max(1))
    {
        for &i in batch {
            let ctx = Ctx {
                args: args.clone(),
                stats: stats.clone(),
                stop: stop.clone(),
            };
            slots.push(tokio::spawn(slot(ctx, i)));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    if args.logins_per_second > 0.0 {
        tokio::spawn(logins(Ctx {
            args: args.clone(),
            stats: stats.clone(),
            stop: stop.clone(),
        }));
    }
    let deadline = started + Duration::from_secs(args.seconds);
    let mut last = (Instant::now(), 0u64);
    while Instant::now() < deadline && !stop.load(Ordering::Relaxed) {
        tokio::time::sleep(
            Duration::from_secs(1).min(deadline.saturating_duration_since(Instant::now())),
        )
        .await;
        if !stats.measuring.load(Ordering::Relaxed)
            && started.elapsed() >= Duration::from_secs(args.warmup)
        {
            stats.measuring.store(true, Ordering::Relaxed);
            window = (Instant::now(), stats.moves.load(Ordering::Relaxed));
            cpu_at_start = cpus();
        }
        if let Some(kib) = args.pid.and_then(rss_kib) {
            stats.max_rss_kib.fetch_max(kib, Ordering::Relaxed);
        }
        if last.0.elapsed() >= Duration::from_secs(args.progress_every.max(1)) {
            let moves = stats.moves.load(Ordering::Relaxed);
            let rss = args
                .pid
                .and_then(rss_kib)
                .map(|kib| format!(", server RSS {:.1} MiB", kib as f64 / 1024.0))
                .unwrap_or_default();
            eprintln!(
                "{:>5.0} s: {:.0} moves/s, {} sockets{rss}",
                started.elapsed().as_secs_f64(),
                (moves - last.1) as f64 / last.0.elapsed().as_secs_f64(),
                stats.sockets.load(Ordering::Relaxed)
            );
            last = (Instant::now(), moves);
        }
    }
    let sockets_at_end = stats.sockets.load(Ordering::Relaxed);
    let stalled = stats
        .last_ack
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .values()
        .filter(|at| at.elapsed() > STALLED)
        .count();
    let rss_at_end = args.pid.and_then(rss_kib);
    let cpu_at_end = cpus();
    let moves_at_end = stats.moves.load(Ordering::Relaxed);
    stop.store(true, Ordering::Relaxed);
    let elapsed = window.0.elapsed().as_secs_f64();
    // Bounded: give the tasks a moment to close their sockets, then report regardless.
    let _ = tokio::time::timeout(Duration::from_secs(10), async {
        for s in slots {
            let _ = s.await;
        }
    })
    .await;
    let moves = moves_at_end - window.1;
    println!(
        "{} games at once ({} started), {} spectators each, {:.1} moves/s per game asked",
        args.games,
        stats.games_started.load(Ordering::Relaxed),
        args.spectators,
        args.rate
    );
    let warm = if args.warmup > 0 {
        format!(" (after {} s of warm-up)", args.warmup)
    } else {
        String::new()
    };
    println!(
        "{moves} moves acknowledged in {elapsed:.1} s{warm} = {:.0} moves/s",
        moves as f64 / elapsed
    );
    println!("{}", percentiles("sent -> ack", &stats.ack_us));
    println!("{}", percentiles("sent -> opponent", &stats.opponent_us));
    if args.logins_per_second > 0.0 {
        println!(
            "log-ins: {} ({:.1}/s asked)",
            stats.logins.load(Ordering::Relaxed),
            args.logins_per_second
        );
        println!("{}", percentiles("log-in", &stats.login_us));
    }
    println!("sockets held at the end: {sockets_at_end}");
    println!(
        "games without an acknowledged move in the last {} s of the run: {stalled}",
        STALLED.as_secs()
    );
    if args.reconnect {
        println!(
            "reconnections: {}",
            stats.reconnects.load(Ordering::Relaxed)
        );
        println!("{}", percentiles("interruption", &stats.interruption_us));
    }
    let used = |start: Option<f64>, end: Option<f64>| end.zip(start).map(|(e, s)| e - s);
    if let Some(server) = used(cpu_at_start.0, cpu_at_end.0) {
        let own = used(cpu_at_start.1, cpu_at_end.1).unwrap_or(0.0);
        let wall = elapsed;
        println!(
            "CPU: server {server:.1} s ({:.0}% of a core), load generator {own:.1} s ({:.0}%); \
             server {:.0} us per move",
            100.0 * server / wall,
            100.0 * own / wall,
            1e6 * server / (moves.max(1) as f64)
        );
    }
    if let Some(kib) = rss_at_end {
        println!(
            "server RSS: {:.1} MiB at the end, {:.1} MiB at most",
            kib as f64 / 1024.0,
            stats.max_rss_kib.load(Ordering::Relaxed) as f64 / 1024.0
        );
    }
    if let Some(path) = &args.record {
        let acked = stats
            .acked
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut text = String::new();
        for (id, moves) in acked.iter() {
            text.push_str(id);
            for m in moves {
                text.push(' ');
                text.push_str(m);
            }
            text.push('\n');
        }
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("rookery-loadgen: cannot write {}: {e}", path.display());
            return std::process::ExitCode::FAILURE;
        }
        let count: usize = acked.iter().map(|(_, m)| m.len()).sum();
        println!(
            "recorded {count} acknowledged moves of {} games in {}",
            acked.len(),
            path.display()
        );
    }
    let counted = match &arena_run {
        Some(run) => arena::report(&args, run).await,
        None => true,
    };
    let errors = stats
        .errors
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if errors.is_empty() {
        println!("errors: none");
    } else {
        for (kind, n) in errors.iter() {
            println!("error: {n} x {kind}");
        }
    }
    if counted {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}
