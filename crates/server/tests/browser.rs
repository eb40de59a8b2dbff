//! The browser client end to end in a real Chromium: `e2e/run.mjs` drives it with
//! playwright-core (mate by dragging with a spectator, PGN download read by python-chess,
//! promotion picker, castling by king drag, draw offer with a move, flag, reload, phone-sized
//! touch play, the phone layout upright and on its side at move 31, the result panel after
//! each kind of end, Chinese pages and refusals, no console errors; screenshots of the lobby,
//! a game, the result panel and the phone layout in both languages under
//! target/e2e-screenshots/).
//! Runs when `ROOKERY_E2E` is set (CI sets it after installing Debian's chromium and running
//! `npm ci` in `e2e/`); prints SKIPPED otherwise.

use std::io::Write as _;
use std::path::Path;
use std::process::Command;

#[test]
fn the_browser_client_end_to_end() {
    if std::env::var_os("ROOKERY_E2E").is_none() {
        let _ = std::io::stderr().write_all(
            b"SKIPPED: browser end-to-end tests (set ROOKERY_E2E=1; needs chromium and npm ci in e2e/)\n",
        );
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let status = Command::new("node")
        .arg("e2e/run.mjs")
        .current_dir(&root)
        .env("ROOKERY_BIN", env!("CARGO_BIN_EXE_rookery"))
        .status()
        .expect("node runs e2e/run.mjs");
    assert!(
        status.success(),
        "the browser tests failed (their output is above)"
    );
}
