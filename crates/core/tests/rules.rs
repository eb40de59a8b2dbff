//! The rules of R2-R4 as tests, one per rule, named after it.

use rookery_core::{
    CastlingFault, CastlingSide, Color, IllegalMoveReason, Outcome, Position, Role, Square, UciMove,
};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn uci(p: &Position, text: &str) -> Result<rookery_core::Move, IllegalMoveReason> {
    text.parse::<UciMove>()
        .unwrap()
        .to_move(p)
        .map_err(|e| e.reason)
}

fn can_castle(p: &Position, side: CastlingSide) -> bool {
    p.castling_move(side).is_some()
}

// R3 castling, condition by condition.

#[test]
fn castling_both_ways_when_all_conditions_hold() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(can_castle(&p, CastlingSide::KingSide));
    assert!(can_castle(&p, CastlingSide::QueenSide));
    assert_eq!(
        p.san(p.castling_move(CastlingSide::KingSide).unwrap()),
        "O-O"
    );
    assert_eq!(
        p.san(p.castling_move(CastlingSide::QueenSide).unwrap()),
        "O-O-O"
    );
}

#[test]
fn castling_1_a_moved_king_or_rook_loses_the_right_even_after_returning() {
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for san in ["Rh2", "Rh7", "Rh1", "Rh8"] {
        p.play(p.parse_san(san).unwrap()).unwrap();
    }
    // Both h-rooks went away and came back: the king sides are gone, the queen sides stay.
    assert!(!can_castle(&p, CastlingSide::KingSide));
    assert!(can_castle(&p, CastlingSide::QueenSide));
    assert_eq!(
        uci(&p, "e1g1"),
        Err(IllegalMoveReason::Castling(CastlingFault::RightLost))
    );
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for san in ["Kf1", "Kf8", "Ke1", "Ke8"] {
        p.play(p.parse_san(san).unwrap()).unwrap();
    }
    assert_eq!(p.castling_rights().to_string(), "-");
}

#[test]
fn castling_2_is_illegal_with_a_piece_between_king_and_rook() {
    // b1 is occupied: long castling is blocked although the king never crosses b1.
    let p = pos("r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1");
    assert!(!can_castle(&p, CastlingSide::QueenSide));
    assert!(can_castle(&p, CastlingSide::KingSide));
    assert_eq!(
        uci(&p, "e1c1"),
        Err(IllegalMoveReason::Castling(CastlingFault::PathBlocked))
    );
}

#[test]
fn castling_3_is_no_way_out_of_check() {
    let p = pos("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1");
    assert!(!can_castle(&p, CastlingSide::KingSide));
    assert!(!can_castle(&p, CastlingSide::QueenSide));
    assert_eq!(
        uci(&p, "e1g1"),
        Err(IllegalMoveReason::Castling(CastlingFault::InCheck))
    );
}

#[test]
fn castling_4_through_an_attacked_square_is_illegal() {
    // Black rook on f8 attacks f1, which the king crosses.
    let p = pos("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(!can_castle(&p, CastlingSide::KingSide));
    assert!(can_castle(&p, CastlingSide::QueenSide));
    assert_eq!(
        uci(&p, "e1g1"),
        Err(IllegalMoveReason::Castling(CastlingFault::ThroughCheck))
    );
}

#[test]
fn castling_5_onto_an_attacked_square_is_illegal() {
    let p = pos("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(!can_castle(&p, CastlingSide::KingSide));
    let p = pos("2r1k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(!can_castle(&p, CastlingSide::QueenSide));
}

#[test]
fn castling_6_a_promoted_rook_above_the_king_never_castles() {
    // e8 is not on the king's first rank; a rook there gives no castling right at all.
    let p = pos("4R3/8/8/8/8/8/8/k3K3 w - - 0 1");
    assert!(p.castling_rights().is_empty());
    assert!(Position::from_fen("4R3/8/8/8/8/8/8/k3K3 w K - 0 1").is_err());
    assert!(p.legal_moves().iter().all(|m| m.castling_side().is_none()));
}

#[test]
fn castling_allowed_after_an_earlier_check() {
    let mut p = pos("4k3/8/8/8/5B2/1q6/8/R3K2R b KQ - 0 1");
    p.play(p.parse_san("Qb4+").unwrap()).unwrap();
    assert!(p.is_check());
    for san in ["Bd2", "Ke7"] {
        p.play(p.parse_san(san).unwrap()).unwrap();
    }
    // The king was in check, but neither it nor a rook moved: both castlings stand.
    assert!(can_castle(&p, CastlingSide::KingSide));
    assert!(can_castle(&p, CastlingSide::QueenSide));
}

#[test]
fn castling_allowed_when_the_rook_is_attacked() {
    // Black rook on h8 attacks h1: short castling is still legal.
    let p = pos("4k2r/8/8/8/8/8/8/4K2R w K - 0 1");
    assert!(
        p.board()
            .attackers_to(Square::H1, Color::Black, p.board().occupied())
            .nonempty()
    );
    assert!(can_castle(&p, CastlingSide::KingSide));
}

#[test]
fn long_castling_allowed_when_the_rook_crosses_an_attacked_square() {
    // Black rook on b8 attacks b1, which only the rook crosses.
    let p = pos("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert!(can_castle(&p, CastlingSide::QueenSide));
}

#[test]
fn castling_may_be_sent_as_the_king_onto_its_rook() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(
        uci(&p, "e1h1").unwrap(),
        p.castling_move(CastlingSide::KingSide).unwrap()
    );
    assert_eq!(
        uci(&p, "e1a1").unwrap(),
        p.castling_move(CastlingSide::QueenSide).unwrap()
    );
    assert_eq!(uci(&p, "e1g1").unwrap().to_uci().to_string(), "e1g1");
}

// R3 en passant.

#[test]
fn en_passant_only_on_the_very_next_move() {
    let mut p = pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    p.play(p.parse_san("d5").unwrap()).unwrap();
    let ep = uci(&p, "e5d6").unwrap();
    assert!(ep.is_en_passant());
    let after = p.after(ep);
    assert_eq!(after.board().piece_at(Square::D5), None);
    // One tempo later the chance is gone.
    for san in ["Kd1", "Ke7", "Ke1", "Ke8"] {
        p.play(p.parse_san(san).unwrap()).unwrap();
    }
    assert_eq!(
        uci(&p, "e5d6"),
        Err(IllegalMoveReason::CannotMoveThere {
            role: Role::Pawn,
            from: Square::E5,
            to: Square::D6
        })
    );
}

#[test]
fn en_passant_is_illegal_when_both_pawns_leave_the_kings_rank_to_a_rook() {
    // The horizontal case of R3: king a5, pawns b5/c5, rook h5.
    let p = pos("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1");
    assert!(uci(&p, "b5c6").is_err());
    assert!(p.legal_moves().iter().all(|m| !m.is_en_passant()));
    // The unusable square is not part of the position (R4.4): not written, not hashed.
    assert_eq!(p.fen(), "8/8/8/KPp4r/8/8/8/4k3 w - - 0 1");
    assert_eq!(p, pos("8/8/8/KPp4r/8/8/8/4k3 w - - 0 1"));
    // Reached by play, the same holds.
    let mut q = pos("8/2p5/8/KP5r/8/8/8/4k3 b - - 0 1");
    q.play(q.parse_san("c5").unwrap()).unwrap();
    assert_eq!(q, pos("8/8/8/KPp4r/8/8/8/4k3 w - - 0 2"));
}

#[test]
fn en_passant_answers_a_check_by_the_pawn_that_just_moved() {
    // Black's d7-d5 gave check to the king on e4; e5xd6 en passant removes the checker.
    let p = pos("8/8/8/3pP3/4K3/8/8/7k w - d6 0 1");
    assert!(p.is_check());
    assert!(uci(&p, "e5d6").unwrap().is_en_passant());
}

// R3 promotion.

#[test]
fn promotion_to_each_of_four_pieces_and_never_a_king() {
    let p = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    let promos: Vec<Role> = p
        .legal_moves()
        .iter()
        .filter_map(|m| m.promotion())
        .collect();
    assert_eq!(promos.len(), 4);
    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
        assert!(promos.contains(&role));
    }
    assert_eq!(uci(&p, "e7e8"), Err(IllegalMoveReason::PromotionRequired));
    assert_eq!(uci(&p, "e7e8k"), Err(IllegalMoveReason::BadPromotion));
    assert_eq!(p.san(uci(&p, "e7e8n").unwrap()), "e8=N");
}

// R2: pins and checks.

#[test]
fn a_pinned_piece_moves_only_along_the_pin() {
    let p = pos("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1");
    let rook_moves = p.legal_moves_from(Square::E2);
    assert!(
        rook_moves
            .iter()
            .all(|m| m.to().file() == Square::E2.file())
    );
    assert_eq!(uci(&p, "e2d2"), Err(IllegalMoveReason::KingInCheck));
}

#[test]
fn in_double_check_only_the_king_moves() {
    let p = pos("4k3/8/8/8/8/5n2/8/r3K2R w K - 0 1");
    assert_eq!(p.checkers().count(), 2);
    assert!(p.legal_moves().iter().all(|m| m.role() == Role::King));
}

#[test]
fn a_king_may_not_step_along_the_line_of_a_slider_checking_it() {
    let p = pos("4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
    assert_eq!(uci(&p, "e1f1"), Err(IllegalMoveReason::KingInCheck));
    assert!(uci(&p, "e1e2").is_ok());
}

#[test]
fn moves_from_the_wrong_side_or_an_empty_square_are_refused_with_the_reason() {
    let p = Position::new();
    assert_eq!(uci(&p, "e3e4"), Err(IllegalMoveReason::NoPiece(Square::E3)));
    assert_eq!(
        uci(&p, "e7e5"),
        Err(IllegalMoveReason::NotYourPiece {
            square: Square::E7,
            turn: Color::White
        })
    );
    assert_eq!(
        uci(&p, "g1g3"),
        Err(IllegalMoveReason::CannotMoveThere {
            role: Role::Knight,
            from: Square::G1,
            to: Square::G3
        })
    );
    let e = "e2e5".parse::<UciMove>().unwrap().to_move(&p).unwrap_err();
    assert_eq!(
        e.to_string(),
        "illegal move e2e5: the pawn on e2 cannot move to e5"
    );
}

// R4: how a game ends.

#[test]
fn fools_mate_is_checkmate() {
    let mut p = Position::new();
    for san in ["f3", "e5", "g4", "Qh4#"] {
        p.play(p.parse_san(san).unwrap()).unwrap();
    }
    assert!(p.is_checkmate());
    assert_eq!(
        p.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::Black
        })
    );
}

#[test]
fn stalemate_is_a_draw() {
    let p = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(p.is_stalemate());
    assert_eq!(p.outcome(), Some(Outcome::Stalemate));
}

#[test]
fn dead_positions_of_r4_2() {
    for fen in [
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",     // K v K
        "8/8/8/4k3/8/8/8/2B1K3 w - - 0 1",   // K+B v K
        "8/8/8/4k3/8/8/8/1N2K3 w - - 0 1",   // K+N v K
        "8/8/3b4/4k3/8/8/8/2B1K3 w - - 0 1", // K+B v K+B, both on dark squares (c1, d6)
    ] {
        assert!(pos(fen).is_insufficient_material(), "{fen}");
    }
    for fen in [
        "8/8/2b5/4k3/8/8/8/2B1K3 w - - 0 1", // bishops on c1 (dark) and c6 (light)
        "8/8/8/4k3/8/8/8/1NN1K3 w - - 0 1",  // two knights: a mate exists (with help)
        "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",   // a pawn can promote
    ] {
        assert!(!pos(fen).is_insufficient_material(), "{fen}");
    }
}

#[test]
fn per_side_mating_material_for_flag_fall() {
    // R6, python-chess's rule: a lone knight cannot mate a side with only king and queens
    // (nothing could block its own king's flight), but the queen's side can still mate.
    let p = pos("8/8/8/4k3/8/8/8/1N2K2q w - - 0 1");
    assert!(p.has_insufficient_material(Color::White));
    assert!(p.can_mate(Color::Black));
    // K+N v K+R: the rook could block a square and allow a knight mate.
    let p = pos("8/8/8/4k3/8/8/8/1N2K2r w - - 0 1");
    assert!(p.can_mate(Color::White));
    // A lone king never mates.
    assert!(!pos("8/8/8/4k3/8/8/8/4K2q w - - 0 1").can_mate(Color::White));
}

#[test]
fn repetition_ignores_an_en_passant_square_that_cannot_be_used() {
    // R4.4: after 1. e4 the e3 square counts for nothing: no black pawn can take.
    let mut a = Position::new();
    a.play(a.parse_san("e4").unwrap()).unwrap();
    let b = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(a.repetition_key(), b.repetition_key());
    assert_eq!(a.zobrist(), b.zobrist());
    // With a black pawn on d4 it counts.
    let c = pos("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    let d = pos("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_ne!(c.repetition_key(), d.repetition_key());
    assert_ne!(c.zobrist(), d.zobrist());
}

#[test]
fn the_incremental_hash_equals_the_hash_from_scratch_along_random_games() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..200 {
        let mut p = Position::new();
        for _ in 0..200 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            p.play(moves[(seed % moves.len() as u64) as usize]).unwrap();
            let fresh = Position::from_fen(&p.fen()).unwrap();
            assert_eq!(p.zobrist(), fresh.zobrist(), "{}", p.fen());
            assert_eq!(p.repetition_key(), fresh.repetition_key());
        }
    }
}

#[test]
fn the_half_move_clock_resets_on_pawn_moves_and_captures() {
    let mut p = Position::new();
    for (san, clock) in [("Nf3", 1), ("Nf6", 2), ("e4", 0), ("Nxe4", 0), ("Nc3", 1)] {
        p.play(p.parse_san(san).unwrap()).unwrap();
        assert_eq!(p.halfmoves(), clock, "after {san}");
    }
    assert_eq!(p.fullmoves(), 3);
}

/// The noisy-move generator (for quiescence searches) gives exactly the legal captures and
/// queen promotions, on every position of a perft suite and those one and two plies on.
#[test]
fn noisy_moves_are_the_legal_captures_and_queen_promotions() {
    let mut text = String::new();
    for file in ["jordanbray-chess-movegen-tests.epd", "cpw-positions.epd"] {
        let path = format!("{}/tests/data/perft/{file}", env!("CARGO_MANIFEST_DIR"));
        text += &std::fs::read_to_string(path).unwrap();
    }
    let mut checked = 0;
    let mut list = rookery_core::MoveList::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fen = line.split(';').next().unwrap().trim();
        let Ok(root) = Position::from_fen(fen) else {
            continue;
        };
        // The position, and every position one and two plies on.
        let mut positions = vec![root];
        for &m in &root.legal_moves() {
            let next = root.after(m);
            positions.push(next);
            positions.extend(next.legal_moves().iter().map(|&r| next.after(r)));
        }
        for p in positions {
            let mut want: Vec<_> = p
                .legal_moves()
                .into_iter()
                .filter(|&m| p.is_capture(m) || m.promotion() == Some(rookery_core::Role::Queen))
                .collect();
            p.fill_noisy_moves(&mut list);
            let mut got: Vec<_> = list.to_vec();
            let key = |m: &rookery_core::Move| m.to_uci().to_string();
            want.sort_by_key(key);
            got.sort_by_key(key);
            assert_eq!(got, want, "{}", p.fen());
            checked += 1;
        }
    }
    assert!(checked > 15_000, "{checked}");
}

/// R7's move numbers: the plies before a position follow from its move number and side.
#[test]
fn r7_plies_before_a_position_follow_its_move_number() {
    use rookery_core::Position;
    assert_eq!(Position::new().plies_before(), 0);
    let after_e4 =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    assert_eq!(after_e4.plies_before(), 1);
    let move_30_black = Position::from_fen("r3k3/8/8/8/8/8/1p6/R3K3 b - - 0 30").unwrap();
    assert_eq!(move_30_black.plies_before(), 59);
}
