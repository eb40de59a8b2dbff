//! The Dutch system against bbpPairings's own test cases (tests/data/trf: each input and the
//! next round as bbpPairings pairs it).

use rookery_pairing::dutch::{pair, write_pairs};
use rookery_pairing::swiss::Field;
use rookery_pairing::trf::Trf;

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/trf/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn bbppairings_test_cases_pair_as_bbppairings_pairs_them() {
    // (issue_15 and issue_7 are checklists of the Burstein system: read by tests/trf.rs only.)
    for case in ["dutch_2025_C5", "dutch_2025_C9"] {
        let trf = Trf::parse(&data(&format!("{case}.input"))).unwrap();
        let field = Field::for_next_round(&trf).unwrap_or_else(|e| panic!("{case}: {e}"));
        let boards = pair(&field).unwrap_or_else(|e| panic!("{case}: {e}"));
        let expected = data(&format!("{case}.output.expected")).replace('\r', "\n");
        let expected: String = expected
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| format!("{}\n", l.trim()))
            .collect();
        assert_eq!(write_pairs(&field, &boards), expected, "{case}");
    }
}
