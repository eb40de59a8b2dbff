//! TRF reading and writing, on files written by others (tests/data/trf, bbpPairings's test
//! cases) and on faults, each of which must name its line and leave nothing half read.

use rookery_pairing::trf::{Color, Outcome, Record, Trf, TrfErrorKind};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/trf/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

const INPUTS: [&str; 4] = [
    "dutch_2025_C5.input",
    "dutch_2025_C9.input",
    "issue_15.input",
    "issue_7.input",
];

#[test]
fn files_written_by_others_read_and_write_back_byte_for_byte() {
    for name in INPUTS {
        let text = data(name);
        let trf = Trf::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!trf.players.is_empty(), "{name}");
        let normalised: String = text
            .replace("\r\n", "\n")
            .replace('\r', "\n")
            .lines()
            .map(|l| format!("{}\n", l.trim_end()))
            .collect();
        let written = trf.write();
        for (n, (ours, theirs)) in written.lines().zip(normalised.lines()).enumerate() {
            assert_eq!(ours, theirs, "{name}, line {}", n + 1);
        }
        assert_eq!(
            written.lines().count(),
            normalised.lines().count(),
            "{name}"
        );
        assert_eq!(Trf::parse(&trf.write()).unwrap(), trf, "{name}");
    }
}

#[test]
fn a_players_line_reads_field_by_field() {
    let trf = Trf::parse(&data("dutch_2025_C5.input")).unwrap();
    assert_eq!(trf.rounds, Some(3));
    let p4 = &trf.players[&4];
    assert_eq!((p4.rating, p4.points, p4.rank), (2689, 0, 5));
    assert_eq!(
        p4.records,
        [
            Record {
                opponent: Some(1),
                colour: Some(Color::Black),
                outcome: Outcome::Lost
            },
            Record {
                opponent: Some(3),
                colour: Some(Color::White),
                outcome: Outcome::Lost
            },
            // The zero-point bye asked for the round to be paired.
            Record {
                opponent: None,
                colour: None,
                outcome: Outcome::ZeroBye
            },
        ]
    );
    assert_eq!(trf.played_rounds(), 2);
    assert_eq!(trf.players[&2].points, 10);
}

#[test]
fn lines_may_end_in_cr_alone_as_bbppairings_writes_them() {
    let text = data("dutch_2025_C5.input").replace("\r\n", "\n");
    let cr = text.replace('\n', "\r");
    assert_eq!(Trf::parse(&cr).unwrap(), Trf::parse(&text).unwrap());
}

/// The C5 file with one line replaced; the fault must be reported on that line.
fn with_line(n: usize, line: &str) -> Result<Trf, rookery_pairing::trf::TrfError> {
    let text: Vec<String> = data("dutch_2025_C5.input")
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i + 1 == n {
                line.to_owned()
            } else {
                l.to_owned()
            }
        })
        .collect();
    Trf::parse(&text.join("\n"))
}

const P1: &str = "001    1      Test0001 Player0001               2720                             2.0    1     4 w 1     2 b 1";

#[test]
fn faults_name_their_line() {
    // A colour that is no colour.
    let e = with_line(2, &P1.replace("4 w 1", "4 x 1")).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(matches!(e.kind, TrfErrorKind::BadRecord(1, _)), "{e}");
    assert_eq!(
        e.to_string(),
        "line 2: the record of round 1 is not understood: \"   4 x 1\""
    );
    // Points that do not add up.
    let e = with_line(2, &P1.replace("2.0", "1.5")).unwrap_err();
    assert_eq!(
        (e.line, e.kind.clone()),
        (
            2,
            TrfErrorKind::WrongPoints {
                player: 1,
                written: 15,
                counted: 20
            }
        )
    );
    assert_eq!(
        e.to_string(),
        "line 2: player 1 has 1.5 points, but the results make 2.0"
    );
    // Player 1 says he beat 4 with White; 4 says he lost to 1 with Black. Make 1 say he
    // played 5 instead: 1's line contradicts 5's record, and 5 is also paired with 2.
    let e = with_line(2, &P1.replace("   4 w 1", "   5 w 1")).unwrap_err();
    assert_eq!(
        e.kind,
        TrfErrorKind::Contradiction {
            player: 1,
            round: 1
        }
    );
    assert_eq!(e.line, 2);
    // Both colours White.
    let e = with_line(2, &P1.replace("2 b 1", "2 w 1")).unwrap_err();
    assert!(
        matches!(e.kind, TrfErrorKind::Contradiction { round: 2, .. }),
        "{e}"
    );
    // One starting number twice.
    let e = with_line(3, P1).unwrap_err();
    assert_eq!((e.line, e.kind), (3, TrfErrorKind::RepeatedId(1)));
    // An opponent nobody is.
    let e = with_line(2, &P1.replace("   4 w 1", "  99 w 1")).unwrap_err();
    assert_eq!((e.line, e.kind), (2, TrfErrorKind::UnknownPlayer(99)));
    // A short player line, and a round count that is no number.
    assert_eq!(
        with_line(2, "001    1").unwrap_err().kind,
        TrfErrorKind::TooShort(8)
    );
    let e = with_line(8, "XXR three").unwrap_err();
    assert_eq!(e.line, 8);
    // A bye with an opponent.
    let e = with_line(2, &P1.replace("   4 w 1", "   4 w H")).unwrap_err();
    assert!(matches!(e.kind, TrfErrorKind::BadRecord(1, _)), "{e}");
}
