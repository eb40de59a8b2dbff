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

/// A field of `n` players before round 1 of `rounds`, with the given extra lines.
fn new_field(
    n: u32,
    rounds: u32,
    extra: &str,
) -> Result<Field, rookery_pairing::swiss::FieldError> {
    let mut text = String::from("012 Baku\n");
    for i in 1..=n {
        text.push_str(&format!(
            "001 {i:>4}      Test{i:04} Player{i:04}               {:>4}                             0.0 {i:>4}\n",
            2700 - i * 10
        ));
    }
    text.push_str(&format!("XXR {rounds}\nXXC white1\n{extra}"));
    Field::for_next_round(&Trf::parse(&text).unwrap())
}

#[test]
fn baku_acceleration_adds_points_to_the_first_half_for_the_first_rounds() {
    // C.04.5.1 as bbpPairings applies it: 11 players, 9 rounds: the first 6 players (half,
    // rounded up) get a win's points in rounds 1-3 and a draw's in rounds 4-5.
    let field = new_field(11, 9, "192 FIDE_DUTCH_2025_BAKU\n").unwrap();
    for p in &field.players {
        let expected: Vec<u32> = if p.id <= 6 {
            vec![10, 10, 10, 5, 5]
        } else {
            vec![]
        };
        assert_eq!(p.accelerations, expected, "player {}", p.id);
    }
    // The first round pairs the accelerated half by itself (1-4, 2-5, 3-6) and the rest
    // among themselves, as bbpPairings pairs this file (without the `192` line it pairs 1-6,
    // 7-2, 3-8, 9-4, 5-10, 11 bye).
    let boards = pair(&field).unwrap();
    let text = write_pairs(&field, &boards);
    assert_eq!(text, "6\n1 4\n5 2\n3 6\n7 9\n10 8\n11 0\n");
    // Without the line: no acceleration.
    let plain = new_field(11, 9, "").unwrap();
    assert!(plain.players.iter().all(|p| p.accelerations.is_empty()));
    // Accelerations given by hand win over Baku (bbpPairings's rule).
    let manual = new_field(11, 9, "192 FIDE_DUTCH_2025_BAKU\nXXA    2  1.0\n").unwrap();
    assert_eq!(manual.players[1].accelerations, vec![10]);
    assert!(manual.players[0].accelerations.is_empty());
}

#[test]
fn baku_acceleration_refuses_a_point_system_it_cannot_use() {
    let err = new_field(8, 5, "192 FIDE_DUTCH_2025_BAKU\nBBD  0.4\n").unwrap_err();
    assert_eq!(err, rookery_pairing::swiss::FieldError::BakuPoints);
}
