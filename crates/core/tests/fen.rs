//! FEN reading and writing: cozy-chess's valid and invalid sets (independent data), and the
//! fault named for each kind of broken FEN.

use std::path::Path;

use rookery_core::{FenError, Position};

fn lines(file: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fen")
        .join(file);
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

fn err(fen: &str) -> String {
    Position::from_fen(fen).unwrap_err().to_string()
}

/// Every valid FEN is accepted, except the Chess960 ones that standard chess cannot express:
/// Shredder castling letters b-g, or castling rights whose king or rook is off the standard
/// squares. Those are counted and their number asserted.
#[test]
fn every_valid_cozy_chess_fen_is_accepted_unless_chess960() {
    let mut accepted = 0;
    let mut chess960 = 0;
    for fen in lines("cozy-chess/valid.sfens") {
        match Position::from_fen(&fen) {
            Ok(pos) => {
                accepted += 1;
                // What we write, we read back to the same position.
                let again = Position::from_fen(&pos.fen()).unwrap();
                assert_eq!(again, pos, "{fen}");
            }
            Err(FenError::Chess960Castling(_)) => chess960 += 1,
            Err(FenError::Position(
                e @ (rookery_core::PositionError::CastlingWithoutKing { .. }
                | rookery_core::PositionError::CastlingWithoutRook { .. }),
            )) => {
                let castling = fen.split(' ').nth(2).unwrap();
                assert!(castling != "-", "{fen}: {e}");
                chess960 += 1;
            }
            Err(e) => panic!("{fen}: {e}"),
        }
    }
    println!("valid.sfens: {accepted} accepted, {chess960} skipped as Chess960 castling");
    assert_eq!(accepted + chess960, 10_000);
    // python-chess 1.11.2 in standard mode (`chess.Board(fen, chess960=False).is_valid()`)
    // finds exactly the same split: 5,929 valid, 4,071 with bad castling rights.
    assert_eq!(accepted, 5_929);
}

#[test]
fn every_invalid_cozy_chess_fen_is_rejected() {
    let all = lines("cozy-chess/invalid.sfens");
    assert_eq!(all.len(), 9_992);
    for fen in all {
        assert!(
            Position::from_fen(&fen).is_err(),
            "accepted invalid FEN {fen}"
        );
    }
}

#[test]
fn faults_are_named() {
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/4P4/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
        "rank 3 has 9 squares"
    );
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1"),
        "white has 2 kings"
    );
    assert_eq!(
        err("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"),
        "black has no king"
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/4q3/4K3 b - - 0 1"),
        "the side not to move is in check"
    );
    assert_eq!(err("4k2P/8/8/8/8/8/8/4K3 w - - 0 1"), "pawn on rank 8 (h8)");
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
        "castling right K but no rook on h1"
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/3K3R w K - 0 1"),
        "castling right K but no king on e1"
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 b - e3 0 1"),
        "en passant square e3 but no pawn on e4"
    );
    assert_eq!(
        err("QQQQkQQQ/QQQQQQQQ/Q7/8/8/8/8/4K3 w - - 0 1"),
        "too many pieces: white has 17, at most 16"
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 x - - 0 1"),
        "side to move \"x\" is not w or b"
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8 w - - 0 1"),
        "the board has 7 ranks, not 8"
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K2Z w - - 0 1"),
        "'Z' is not a piece letter or a digit 1-8"
    );
    assert_eq!(err(""), "empty FEN");
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra"),
        "FEN has 7 fields; expected 6 (or at least the first 4)"
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 w - - x 1"),
        "half-move clock \"x\" is not a number"
    );
    assert_eq!(
        err("r3k3/8/8/8/8/8/8/4K3 b k - 0 1"),
        "castling right k but no rook on h8"
    );
    // Two rooks checking along one line: one would have blocked the other.
    assert_eq!(
        err("4k3/8/8/8/r3K2r/8/8/8 w - - 0 1"),
        "the king is in check in a way no legal move could give"
    );
}

#[test]
fn writing_puts_the_en_passant_square_only_when_the_capture_is_legal() {
    // After 1. e4 no black pawn can take: no square written (R4.4).
    let mut pos = Position::new();
    pos.play(pos.parse_san("e4").unwrap()).unwrap();
    assert_eq!(
        pos.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    // A pawn beside, free to take: written.
    let pos = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap();
    assert_eq!(pos.fen(), "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    // A pawn beside but pinned along the rank (R3 horizontal case): not written.
    let pos = Position::from_fen("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1").unwrap();
    assert_eq!(pos.fen(), "8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1");
}

#[test]
fn four_field_fen_defaults_the_counters() {
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").unwrap();
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn shredder_letters_for_the_standard_rooks_mean_standard_castling() {
    let a = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").unwrap();
    let b = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    assert_eq!(a, b);
}
