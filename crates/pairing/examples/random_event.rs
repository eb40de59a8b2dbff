//! Writes the report (TRF) of a random Swiss run by `event.rs` to standard output:
//! `cargo run --release -p rookery-pairing --example random_event -- SEED PLAYERS ROUNDS`.
//! `tests/python/check_events.py` gives such reports to bbpPairings's checker. When a round
//! cannot be paired, the report as that round's pairing read it, and exit status 3.

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("SEED PLAYERS ROUNDS, whole numbers"))
        .collect();
    let [seed, players, rounds] = args[..] else {
        eprintln!("usage: random_event SEED PLAYERS ROUNDS");
        std::process::exit(2);
    };
    let (event, run) = rookery_pairing::event::random_event(seed, players as u32, rounds as u32);
    match run {
        Ok(()) => print!("{}", event.trf(false)),
        // The round that could not be paired, as its pairing read it: exit status 3.
        Err(rookery_pairing::event::EventError::NoPairing) => {
            print!("{}", event.trf(true));
            std::process::exit(3);
        }
        Err(e) => {
            eprintln!("random_event: {e}");
            std::process::exit(1);
        }
    }
}
