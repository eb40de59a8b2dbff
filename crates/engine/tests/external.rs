//! The external UCI driver against real engines: our own `rookery-engine` binary always, and
//! Stockfish when it is installed (`/usr/games/stockfish`, Debian's package); an engine that
//! dies is started again.

use std::time::Duration;

use rookery_core::{Position, UciMove};
use rookery_engine::{External, Level};

fn legal(fen: &str, moves: &[String], m: &str) -> bool {
    let mut pos = Position::from_fen(fen).unwrap();
    for text in moves {
        let mv = text.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        pos.play(mv).unwrap();
    }
    m.parse::<UciMove>().is_ok_and(|u| u.to_move(&pos).is_ok())
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn drives_our_own_engine_at_every_level() {
    let mut engine = External::new(env!("CARGO_BIN_EXE_rookery-engine"));
    let moves = vec!["e2e4".to_owned(), "e7e5".to_owned()];
    for n in [1, 4, 8] {
        let level = Level::new(n).unwrap();
        let m = engine
            .best_move(START, &moves, level, Duration::from_millis(100))
            .unwrap();
        assert!(legal(START, &moves, &m), "level {n}: {m}");
    }
    // Mate in one is found at the top level.
    let fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
    let m = engine
        .best_move(fen, &[], Level::MAX, Duration::from_millis(200))
        .unwrap();
    assert_eq!(m, "a1a8");
}

#[test]
fn an_engine_that_cannot_start_or_dies_is_an_error_then_restarted() {
    let mut missing = External::new("/nonexistent/engine");
    let err = missing
        .best_move(START, &[], Level::MAX, Duration::from_millis(50))
        .unwrap_err();
    assert!(err.contains("cannot start"), "{err}");

    // A fake engine that completes the handshake, then exits when asked to search.
    let dir = std::env::temp_dir().join(format!("rookery-fake-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("fake.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile read line; do case \"$line\" in\n\
         uci) echo 'id name fake'; echo uciok;;\n isready) echo readyok;;\n go*) exit 3;;\n\
         esac; done\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let mut fake = External::new(&script);
    for _ in 0..2 {
        let err = fake
            .best_move(START, &[], Level::MAX, Duration::from_millis(50))
            .unwrap_err();
        assert!(
            err.contains("exited") || err.contains("stopped reading"),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn drives_stockfish_when_installed() {
    let path = "/usr/games/stockfish";
    if !std::path::Path::new(path).exists() {
        use std::io::Write as _;
        let _ = std::io::stderr()
            .write_all(b"SKIPPED: drives_stockfish_when_installed (apt-get install stockfish)\n");
        return;
    }
    let mut engine = External::new(path);
    for n in [1, 8] {
        let m = engine
            .best_move(
                START,
                &[],
                Level::new(n).unwrap(),
                Duration::from_millis(100),
            )
            .unwrap();
        assert!(legal(START, &[], &m), "{m}");
    }
}
