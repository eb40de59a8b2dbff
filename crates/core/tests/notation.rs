//! SAN and UCI (R7): exact writing, lenient reading, and errors that say what is wrong.

use rookery_core::{Position, SanError, UciMove};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn play_all(sans: &[&str]) -> Position {
    let mut p = Position::new();
    for san in sans {
        let m = p.parse_san(san).unwrap_or_else(|e| panic!("{san}: {e}"));
        p.play(m).unwrap();
    }
    p
}

#[test]
fn disambiguation_by_file_then_rank_then_both() {
    // Knights on c3 and g3: the file tells them apart.
    let p = pos("4k3/8/8/8/8/2N3N1/8/4K3 w - - 0 1");
    assert_eq!(p.san(p.parse_san("Nce4").unwrap()), "Nce4");
    // Rooks on a1 and a8 share the file: the rank tells them apart.
    let p = pos("R7/7k/8/8/8/8/8/R3K3 w - - 0 1");
    let m = p.parse_san("R1a4").unwrap();
    assert_eq!(p.san(m), "R1a4");
    assert_eq!(p.san(p.parse_san("R8a4").unwrap()), "R8a4");
    // Queens on e4, h4 and h1 all reach e1: h4 shares a file with h1 and a rank with e4, so
    // it needs both (R7's `Qh4e1`); h1 is told apart by its rank, e4 by its file.
    let p = pos("8/8/1k6/8/4Q2Q/8/8/1K5Q w - - 0 1");
    assert_eq!(p.san(p.parse_san("Qh4e1").unwrap()), "Qh4e1");
    assert_eq!(p.san(p.parse_san("Qh1e1").unwrap()), "Q1e1");
    assert_eq!(p.san(p.parse_san("Qe4e1").unwrap()), "Qee1");
}

#[test]
fn disambiguation_ignores_a_pinned_rival() {
    // Knights on c2 and e2 both reach d4, but e2 is pinned by the rook on e7.
    let p = pos("4k3/4r3/8/8/8/8/2N1N3/4K3 w - - 0 1");
    assert_eq!(p.san(p.parse_san("Ncd4").unwrap()), "Nd4");
}

#[test]
fn check_mate_promotion_and_castling_marks() {
    let p = play_all(&["f3", "e5", "g4"]);
    assert_eq!(p.san(p.parse_san("Qh4").unwrap()), "Qh4#");
    let p = pos("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(p.san(p.parse_san("b8Q").unwrap()), "b8=Q+");
    let p = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(p.san(p.parse_san("0-0").unwrap()), "O-O");
    let p = pos("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert_eq!(p.san(p.parse_san("O-O-O").unwrap()), "O-O-O+");
}

#[test]
fn lenient_spellings_all_name_the_same_move() {
    let p = pos("2k5/4P3/8/8/8/8/8/4K3 w - - 0 1");
    let want = p.parse_san("e8=Q+").unwrap();
    for text in ["e8Q", "e8=Q", "e8q", "e7e8q", "e8(Q)", "e8=Q+!?", "e7-e8=Q"] {
        assert_eq!(p.parse_san(text).unwrap(), want, "{text}");
    }
    let p = play_all(&["e4", "a6", "e5", "d5"]);
    let want = p.parse_san("exd6").unwrap();
    assert!(want.is_en_passant());
    for text in [
        "exd6e.p.",
        "exd6 e.p.",
        "exd6ep",
        "e5xd6",
        "e5×d6",
        "exd6!",
        "e5d6",
    ] {
        assert_eq!(p.parse_san(text).unwrap(), want, "{text}");
    }
    let p = Position::new();
    let want = p.parse_san("Nf3").unwrap();
    for text in [
        "Ngf3", "Ng1f3", "Ng1-f3", "Ng1—f3", "g1f3", "N1f3", "Nf3?!", "Nf3!!",
    ] {
        assert_eq!(p.parse_san(text).unwrap(), want, "{text}");
    }
    let p = pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    let want = p.parse_san("O-O-O").unwrap();
    for text in ["0-0-0", "O-O-O+", "e1c1", "e1a1"] {
        assert_eq!(p.parse_san(text).unwrap(), want, "{text}");
    }
    let p = pos("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert_eq!(p.san(p.parse_san("Ra1xa8").unwrap()), "Rxa8+");
    assert_eq!(p.san(p.parse_san("Ra1×a8").unwrap()), "Rxa8+");
}

#[test]
fn errors_say_which_fault() {
    let p = Position::new();
    assert_eq!(p.parse_san("Xe4"), Err(SanError::UnknownPiece('X')));
    assert!(matches!(
        p.parse_san("马f3"),
        Err(SanError::UnknownPiece('马'))
    ));
    assert_eq!(
        p.parse_san("Nf4").unwrap_err().to_string(),
        "no legal move matches Nf4"
    );
    assert_eq!(p.parse_san("zz"), Err(SanError::Syntax("zz".into())));
    assert_eq!(p.parse_san(""), Err(SanError::Syntax("".into())));
    let p = pos("4k3/8/8/8/8/2N3N1/8/4K3 w - - 0 1");
    match p.parse_san("Ne4") {
        Err(SanError::Ambiguous { candidates, .. }) => assert_eq!(candidates, ["Nce4", "Nge4"]),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        p.parse_san("Ne4").unwrap_err().to_string(),
        "Ne4 is ambiguous: it could be Nce4 or Nge4"
    );
    // A pinned piece: the move exists in shape but is illegal, with the reason.
    let p = pos("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    assert_eq!(
        p.parse_san("Nc3").unwrap_err().to_string(),
        "illegal move Nc3: the move would leave your king in check"
    );
    let p = pos("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    assert_eq!(
        p.parse_san("O-O").unwrap_err().to_string(),
        "illegal move O-O: cannot castle: the king or that rook has moved"
    );
}

#[test]
fn uci_wire_form() {
    assert_eq!("e7e8q".parse::<UciMove>().unwrap().to_string(), "e7e8q");
    for bad in ["", "e2", "e2e9", "e2e4x", "i2e4", "e2e4qq", "0000"] {
        assert!(bad.parse::<UciMove>().is_err(), "{bad}");
    }
}

#[test]
fn long_algebraic_display_of_moves() {
    let p = Position::new();
    assert_eq!(p.parse_san("Nf3").unwrap().to_string(), "Ng1-f3");
    assert_eq!(p.parse_san("e4").unwrap().to_string(), "e2-e4");
}

/// R7: the seeds' long form (seed 000, 完整記錄): piece, from, `-` or `×`, to; `0-0`.
#[test]
fn r7_the_seeds_long_form() {
    let p = Position::new();
    assert_eq!(p.long_form(p.parse_san("Nf3").unwrap()), "Ng1-f3");
    assert_eq!(p.long_form(p.parse_san("e4").unwrap()), "e2-e4");
    let p = pos("r3k3/8/8/8/8/8/8/R3K2R w KQq - 0 1");
    assert_eq!(p.long_form(p.parse_san("Rxa8+").unwrap()), "Ra1×a8+");
    assert_eq!(p.long_form(p.parse_san("O-O").unwrap()), "0-0");
    assert_eq!(p.long_form(p.parse_san("O-O-O").unwrap()), "0-0-0");
    let p = play_all(&["e4", "d5", "e5", "f5"]);
    assert_eq!(p.long_form(p.parse_san("exf6").unwrap()), "e5×f6");
    let p = pos("2k5/4P3/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(p.long_form(p.parse_san("e8=Q").unwrap()), "e7-e8=Q+");
    let p = play_all(&["f3", "e5", "g4"]);
    assert_eq!(p.long_form(p.parse_san("Qh4").unwrap()), "Qd8-h4#");
}

/// Every legal move of many random positions: its SAN (and its long algebraic and UCI
/// forms) reads back as the same move.
#[test]
fn every_legal_move_reads_back_from_its_san() {
    let mut seed = 0x0bad_cafe_dead_beefu64;
    let mut rand = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut checked = 0;
    for _ in 0..300 {
        let mut p = Position::new();
        for _ in 0..rand(150) {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            for &m in &moves {
                let san = p.san(m);
                assert_eq!(p.parse_san(&san), Ok(m), "{san} in {}", p.fen());
                assert_eq!(
                    p.parse_san(&m.to_uci().to_string()),
                    Ok(m),
                    "{} in {}",
                    m.to_uci(),
                    p.fen()
                );
                if m.castling_side().is_none() {
                    assert_eq!(p.parse_san(&m.to_string()), Ok(m), "{m} in {}", p.fen());
                }
                let long = p.long_form(m);
                assert_eq!(p.parse_san(&long), Ok(m), "{long} in {}", p.fen());
                checked += 1;
            }
            p.play(moves[rand(moves.len())]).unwrap();
        }
    }
    assert!(checked > 100_000, "{checked}");
}
