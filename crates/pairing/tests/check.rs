//! The checker (`rookery pairings --dutch FILE -c`) against bbpPairings's checker: the same
//! report, byte for byte, for a tournament paired by bbpPairings and for the same tournament
//! with one game's colours swapped (tests/data/trf/README.md).

use rookery_pairing::check::{Verdict, check_dutch, write_report};
use rookery_pairing::trf::Trf;

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/trf/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

fn report(name: &str) -> (Vec<Verdict>, String) {
    let trf = Trf::parse(&data(&format!("{name}.trf"))).unwrap();
    let verdicts = check_dutch(&trf).unwrap();
    let text = write_report(name, &verdicts);
    (verdicts, text)
}

#[test]
fn a_tournament_paired_by_bbppairings_passes_the_check() {
    let (verdicts, text) = report("checker-generated");
    assert_eq!(verdicts.len(), 7);
    assert!(verdicts.iter().all(|v| *v == Verdict::AsPaired), "{text}");
    assert_eq!(text, data("checker-generated.expected"));
}

#[test]
fn swapped_colours_are_reported_as_bbppairings_reports_them() {
    let (verdicts, text) = report("checker-tampered");
    assert_eq!(text, data("checker-tampered.expected"));
    // Round 5 holds the swapped game; round 6 is paired from other colour histories.
    assert_eq!(
        verdicts[4],
        Verdict::Differs {
            system: vec![(19, 24)],
            file: vec![(24, 19)]
        }
    );
    assert!(matches!(verdicts[5], Verdict::Differs { .. }));
    for r in [0, 1, 2, 3, 6] {
        assert_eq!(verdicts[r], Verdict::AsPaired, "round {}", r + 1);
    }
}
