//! PGN: any bytes are read game by game, each game whole or refused with its place; a game
//! read writes PGN that reads back with the same moves and result.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for game in rookery_core::pgn::Reader::new(data).take(8) {
        let Ok(record) = game else {
            continue;
        };
        let text = rookery_core::pgn::write(&record);
        let again = rookery_core::pgn::Reader::new(text.as_bytes())
            .next()
            .expect("a game")
            .unwrap_or_else(|e| panic!("our own PGN does not read back: {e}\n{text}"));
        let moves =
            |r: &rookery_core::pgn::GameRecord| r.moves.iter().map(|m| m.m).collect::<Vec<_>>();
        assert_eq!(moves(&again), moves(&record), "{text}");
        assert_eq!(again.result, record.result, "{text}");
    }
});
