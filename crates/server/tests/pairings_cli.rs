//! `rookery pairings`: the next round written as bbpPairings writes it, exit statuses as
//! theirs, and a bad file named by its line with nothing written (docs/TOURNAMENTS.md).

use std::path::{Path, PathBuf};
use std::process::Command;

fn rookery(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn trf_data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../pairing/tests/data/trf")
        .join(name)
}

/// `rookery pairings --dutch INPUT -p OUT` into a fresh OUT: (status, stderr, OUT's text if
/// it was written).
fn pair_into_file(input: &Path, name: &str) -> (i32, String, Option<String>) {
    let out = scratch(name, "");
    std::fs::remove_file(&out).unwrap();
    let (status, _, err) = rookery(&[
        "pairings",
        "--dutch",
        input.to_str().unwrap(),
        "-p",
        out.to_str().unwrap(),
    ]);
    (status, err, std::fs::read_to_string(&out).ok())
}

fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rookery-pairings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn the_dutch_round_is_written_as_bbppairings_writes_it() {
    let input = trf_data("dutch_2025_C5.input");
    let (status, err, written) = pair_into_file(&input, "c5.out");
    assert_eq!(status, 0, "{err}");
    // bbpPairings's expected output for this file (its test case dutch_2025_C5).
    assert_eq!(written.as_deref(), Some("3\n1 5\n3 2\n6 0\n"));
    // -p without a file: standard output.
    let (status, stdout, _) = rookery(&["pairings", "--dutch", input.to_str().unwrap(), "-p"]);
    assert_eq!((status, stdout.as_str()), (0, "3\n1 5\n3 2\n6 0\n"));
}

#[test]
fn a_round_robin_round_is_the_berger_tables() {
    let mut text = String::new();
    for id in 1..=5 {
        text.push_str(&format!(
            "001 {id:>4}      Player {id:<28}1500                             0.0\n"
        ));
    }
    text.push_str("XXR 5\n");
    let input = scratch("rr.trf", &text);
    let (status, stdout, err) =
        rookery(&["pairings", "--round-robin", input.to_str().unwrap(), "-p"]);
    // Five players: 6 counts as the bye (C.05 Annex 1, round 1: 1-6, 2-5, 3-4).
    assert_eq!(
        (status, stdout.as_str()),
        (0, "3\n2 5\n3 4\n1 0\n"),
        "{err}"
    );
}

#[test]
fn a_bad_file_is_named_by_its_line_and_nothing_is_written() {
    let good = std::fs::read_to_string(trf_data("dutch_2025_C5.input")).unwrap();
    let bad = good.replacen("4 w 1", "4 x 1", 1);
    let input = scratch("bad.trf", &bad);
    let (status, err, written) = pair_into_file(&input, "bad.out");
    assert_eq!(status, 3);
    assert!(
        err.contains("line 2: the record of round 1 is not understood"),
        "{err}"
    );
    assert_eq!(written, None);
    // A file that is not there.
    let (status, _, err) = rookery(&["pairings", "--dutch", "/nonexistent.trf", "-p"]);
    assert_eq!(status, 5, "{err}");
}

#[test]
fn no_pairing_without_breaking_the_absolute_criteria_is_status_1() {
    // Two players who have met: they cannot meet again, and one cannot be left alone.
    let text = "001    1      A                                 2000                             1.0          2 w 1\n\
                001    2      B                                 1900                             0.0          1 b 0\n\
                XXR 3\n";
    let input = scratch("stuck.trf", text);
    let (status, stdout, err) = rookery(&["pairings", "--dutch", input.to_str().unwrap(), "-p"]);
    assert_eq!((status, stdout.as_str()), (1, ""), "{err}");
    assert!(err.contains("no pairing exists"), "{err}");
}

#[test]
fn the_check_prints_bbppairings_report_and_says_by_its_status_whether_a_round_is_wrong() {
    for (name, status) in [("checker-generated", 0), ("checker-tampered", 1)] {
        let input = trf_data(&format!("{name}.trf"));
        let (code, stdout, err) = rookery(&["pairings", "--dutch", input.to_str().unwrap(), "-c"]);
        assert_eq!(code, status, "{name}: {err}");
        let expected = std::fs::read_to_string(trf_data(&format!("{name}.expected"))).unwrap();
        assert_eq!(stdout, expected, "{name}");
    }
    // Only the Dutch system has a checker; -c and -p do not go together.
    let input = trf_data("checker-generated.trf");
    let input = input.to_str().unwrap();
    let (code, _, _) = rookery(&["pairings", "--round-robin", input, "-c"]);
    assert_ne!(code, 0);
    let (code, _, _) = rookery(&["pairings", "--dutch", input, "-c", "-p"]);
    assert_ne!(code, 0);
}
