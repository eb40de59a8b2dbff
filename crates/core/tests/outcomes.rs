//! How a position ends the game (R4), against positions labelled by others: sunfish's
//! terminal set and final positions of real games labelled by python-chess.

use std::path::Path;

use rookery_core::{Outcome, Position};

fn read(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fen")
        .join(file);
    std::fs::read_to_string(path).unwrap()
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen.trim()).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn has_mate_in_one(p: &Position) -> bool {
    p.legal_moves().iter().any(|&m| p.after(m).is_checkmate())
}

#[test]
fn sunfish_terminal_positions() {
    let mut seen = std::collections::BTreeMap::new();
    for line in read("sunfish/terminal_bench.epd").lines() {
        let Some((fen, rest)) = line.split_once(';') else {
            continue;
        };
        // `FEN; class <label>;` optionally followed by free notes.
        let class = rest
            .trim()
            .trim_start_matches("class ")
            .split(';')
            .next()
            .unwrap_or("");
        let p = pos(fen);
        let ok = match class {
            "mate-now" | "mate-now-corner" => p.is_checkmate(),
            "stalemate-now" => p.is_stalemate() && p.outcome() == Some(Outcome::Stalemate),
            "parent-of-mate" => has_mate_in_one(&p),
            "parent-of-stalemate" => p.legal_moves().iter().any(|&m| p.after(m).is_stalemate()),
            _ => continue, // engine-search notions, not rules
        };
        assert!(ok, "{class}: {fen}");
        *seen.entry(class.to_owned()).or_insert(0) += 1;
    }
    assert_eq!(seen["mate-now"] + seen["mate-now-corner"], 65);
    assert_eq!(seen["stalemate-now"], 26);
    assert_eq!(seen["parent-of-mate"], 26);
    assert_eq!(seen["parent-of-stalemate"], 4);
}

#[test]
fn sunfish_mates_in_one_and_stalemates() {
    let mates: Vec<_> = read("sunfish/mate1.fen")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(pos)
        .collect();
    assert_eq!(mates.len(), 8);
    assert!(mates.iter().all(has_mate_in_one));
    let stalemates: Vec<_> = read("sunfish/stalemate0.fen")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(pos)
        .collect();
    assert_eq!(stalemates.len(), 4);
    assert!(stalemates.iter().all(Position::is_stalemate));
}

/// python-chess's label of each final position must be ours: checkmate, stalemate and
/// insufficient material exactly; fifty-move claimable ⇔ half-move clock ≥ 100.
#[test]
fn final_positions_of_real_games_agree_with_python_chess() {
    let text = read("game-end-positions.csv");
    let mut counted = std::collections::BTreeMap::new();
    for line in text.lines().skip(1) {
        let mut cols = line.split(',');
        let (fen, label) = (cols.next().unwrap(), cols.next().unwrap());
        let p = pos(fen);
        let outcome = p.outcome();
        match label {
            "checkmate" => assert!(matches!(outcome, Some(Outcome::Checkmate { .. })), "{fen}"),
            "stalemate" => assert_eq!(outcome, Some(Outcome::Stalemate), "{fen}"),
            "insufficient_material" => {
                assert_eq!(outcome, Some(Outcome::InsufficientMaterial), "{fen}")
            }
            _ => assert_eq!(outcome, None, "{label}: {fen}"),
        }
        assert_eq!(
            label.contains("fifty_moves"),
            p.halfmoves() >= 100,
            "{label}: {fen}"
        );
        *counted.entry(label.to_owned()).or_insert(0) += 1;
    }
    assert_eq!(counted["checkmate"], 166);
    assert_eq!(counted["stalemate"], 9);
    assert_eq!(counted["insufficient_material"], 17);
}
