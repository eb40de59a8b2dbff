//! The server's two fuzz targets' entry points (`rookery_server::fuzzing`: the game socket's
//! client frames and the API's bodies) on their committed seeds (`fuzz/seeds/`) and on 20,000
//! deterministic mutations of them each: nothing panics. CI's fuzzing step runs the core's
//! targets under libFuzzer (building the server for the fuzzer takes minutes more); these two
//! run here on every test run, and `fuzz/run.sh 60 ws_frame api_body` fuzzes them for real.

use std::path::PathBuf;

use rookery_engine::Rng;

const MUTATIONS: usize = 20_000;

fn seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../fuzz/seeds/{target}"));
    let mut out: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| std::fs::read(entry.unwrap().path()).unwrap())
        .collect();
    out.sort();
    assert!(out.len() >= 5, "{target}: only {} seeds", out.len());
    out
}

/// A number below `n` from the engine's seeded generator: the same mutations on every run.
fn below(rng: &mut Rng, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

/// Pieces a JSON or form reader meets at its edges.
const TOKENS: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b"\\",
    b":",
    b",",
    b"\\u0000",
    b"\\ud800",
    b"null",
    b"true",
    b"-0",
    b"1e999",
    b"18446744073709551616",
    b"%",
    b"%zz",
    b"&",
    b"=",
    b"\xff",
    b"\xe4\xb8\xad",
    b"\"t\":",
    b"\"m\":",
    b"\"time_control\":",
    b"\"fen\":",
    b"99999+99999",
    b"/",
    b"+",
];

fn mutate(rng: &mut Rng, seed: &[u8], other: &[u8]) -> Vec<u8> {
    let mut out = seed.to_vec();
    for _ in 0..1 + below(rng, 4) {
        let at = below(rng, out.len() + 1);
        match below(rng, 6) {
            0 if !out.is_empty() => {
                let i = below(rng, out.len());
                out[i] ^= 1 << below(rng, 8);
            }
            1 => out.insert(at, rng.next_u64() as u8),
            2 if !out.is_empty() => {
                let end = (at + 1 + below(rng, 8)).min(out.len());
                out.drain(at.min(end)..end);
            }
            3 => {
                let token = TOKENS[below(rng, TOKENS.len())];
                out.splice(at..at, token.iter().copied());
            }
            4 if !other.is_empty() => {
                let from = below(rng, other.len());
                let piece = &other[from..(from + 1 + below(rng, 16)).min(other.len())];
                out.splice(at..at, piece.iter().copied());
            }
            _ => out.truncate(at),
        }
    }
    out
}

fn run(target: &str, entry: fn(&[u8])) {
    let seeds = seeds(target);
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15 ^ target.len() as u64);
    for seed in &seeds {
        entry(seed);
    }
    for _ in 0..MUTATIONS {
        let seed = &seeds[below(&mut rng, seeds.len())];
        let other = &seeds[below(&mut rng, seeds.len())];
        let input = mutate(&mut rng, seed, other);
        entry(&input);
    }
}

#[test]
fn socket_frames_never_panic() {
    run("ws_frame", rookery_server::fuzzing::client_frame);
}

#[test]
fn api_bodies_never_panic() {
    run("api_body", rookery_server::fuzzing::api_body);
}
