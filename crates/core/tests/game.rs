//! The game state machine, one test per rule sentence of R4-R6 (docs/RULES.md), plus the
//! lichess bugs our rules avoid, plus a property test over random games.

use std::time::Duration;

use rookery_core::Color::{Black, White};
use rookery_core::clock::TimeControl;
use rookery_core::game::{Command, DrawOffers, Event, Game, GameError, MoveText, Termination};
use rookery_core::pgn::GameResult;
use rookery_core::{Color, Position};

fn san(by: Color, text: &str) -> Command {
    Command::Move {
        by,
        text: MoveText::San(text.into()),
        offer_draw: false,
        timing: Default::default(),
    }
}

fn san_offer(by: Color, text: &str) -> Command {
    Command::Move {
        by,
        text: MoveText::San(text.into()),
        offer_draw: true,
        timing: Default::default(),
    }
}

/// The lag grace a flag waits at 1+0 (R6): the starting quota, 3 x 0.39 s.
const GRACE_1_0: u64 = 1170;

fn game(tc: &str) -> Game {
    Game::new(Position::new(), TimeControl::from_pgn(tc).unwrap())
}

/// Plays SAN moves alternately, one second apart, from `t`; returns the time after.
fn play(g: &mut Game, moves: &str, mut t: u64) -> u64 {
    for text in moves.split_whitespace() {
        let by = g.position().turn();
        g.apply(san(by, text), t)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        t += 1000;
    }
    t
}

fn over(g: &Game) -> (GameResult, Termination) {
    g.result().expect("the game should be over")
}

// R4: how a game ends.

#[test]
fn r4_checkmate_wins() {
    let mut g = game("-");
    play(&mut g, "f3 e5 g4 Qh4#", 0);
    assert_eq!(over(&g), (GameResult::BlackWins, Termination::Checkmate));
}

#[test]
fn r4_resignation_loses_and_a_finished_game_accepts_no_command() {
    let mut g = game("-");
    let t = play(&mut g, "e4 e5", 0);
    let events = g.apply(Command::Resign { by: White }, t).unwrap();
    assert_eq!(
        events,
        [Event::GameOver {
            result: GameResult::BlackWins,
            termination: Termination::Resignation
        }]
    );
    assert_eq!(g.apply(san(White, "Nf3"), t), Err(GameError::GameIsOver));
    assert_eq!(
        g.apply(Command::Resign { by: Black }, t),
        Err(GameError::GameIsOver)
    );
}

#[test]
fn a_replayed_game_takes_its_recorded_end_unless_the_moves_ended_it() {
    // A resignation does not show in the moves: the record's end is restored.
    let mut g = game("300+2");
    play(&mut g, "e4 e5", 0);
    g.restore_end(GameResult::BlackWins, Termination::Resignation);
    assert_eq!(over(&g), (GameResult::BlackWins, Termination::Resignation));
    assert_eq!(g.next_deadline(), None, "no clock runs in a finished game");
    // A mate on the board is the end, whatever a record says.
    let mut g = game("-");
    play(&mut g, "f3 e5 g4 Qh4#", 0);
    g.restore_end(GameResult::Draw, Termination::Agreement);
    assert_eq!(over(&g), (GameResult::BlackWins, Termination::Checkmate));
    // `*` ends a game only as an abort.
    let mut g = game("-");
    g.restore_end(GameResult::Unknown, Termination::Resignation);
    assert!(g.result().is_none());
    g.restore_end(GameResult::Unknown, Termination::Aborted);
    assert_eq!(over(&g), (GameResult::Unknown, Termination::Aborted));
    for t in [
        Termination::Checkmate,
        Termination::SeventyFiveMoves,
        Termination::Aborted,
    ] {
        assert_eq!(Termination::parse(t.as_str()), Some(t));
    }
    assert_eq!(Termination::parse("Normal"), None);
}

#[test]
fn r4_2_a_dead_position_is_drawn_at_once() {
    let mut g = Game::new(
        Position::from_fen("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1").unwrap(),
        TimeControl::Untimed,
    );
    g.apply(san(White, "Kxd2"), 0).unwrap();
    assert_eq!(
        over(&g),
        (GameResult::Draw, Termination::InsufficientMaterial)
    );
}

#[test]
fn r4_3_stalemate_is_a_draw() {
    let mut g = Game::new(
        Position::from_fen("7k/5Q2/8/6K1/8/8/8/8 w - - 0 1").unwrap(),
        TimeControl::Untimed,
    );
    g.apply(san(White, "Kg6"), 0).unwrap();
    assert_eq!(over(&g), (GameResult::Draw, Termination::Stalemate));
}

#[test]
fn r4_4_threefold_may_be_claimed_by_the_player_to_move() {
    let mut g = game("-");
    let t = play(&mut g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1", 0);
    // The start position with White to move stands twice; Black to move now.
    let err = g
        .apply(
            Command::ClaimDraw {
                by: Black,
                with_move: None,
            },
            t,
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "no threefold repetition: this position has occurred twice"
    );
    assert_eq!(g.moves().len(), 7, "a wrong claim changes nothing");
    // Claimed on the position the intended move makes: Ng8 brings the third occurrence.
    let events = g
        .apply(
            Command::ClaimDraw {
                by: Black,
                with_move: Some(MoveText::San("Ng8".into())),
            },
            t,
        )
        .unwrap();
    assert!(matches!(events[0], Event::MovePlayed { .. }));
    assert_eq!(
        over(&g),
        (GameResult::Draw, Termination::ThreefoldRepetitionClaimed)
    );
}

#[test]
fn r4_4_threefold_claim_on_the_board() {
    let mut g = game("-");
    let t = play(&mut g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1", 0);
    assert!(
        !g.may_claim_draw(Black),
        "the position after Ng1 stood twice"
    );
    let t = play(&mut g, "Ng8", t);
    // Three times now, White to move: only White may claim.
    assert!(g.may_claim_draw(White) && !g.may_claim_draw(Black));
    g.apply(
        Command::ClaimDraw {
            by: White,
            with_move: None,
        },
        t,
    )
    .unwrap();
    assert_eq!(over(&g).1, Termination::ThreefoldRepetitionClaimed);
}

#[test]
fn r4_4_fivefold_ends_the_game_automatically() {
    let mut g = game("-");
    play(&mut g, &"Nf3 Nf6 Ng1 Ng8 ".repeat(4), 0);
    assert_eq!(
        over(&g),
        (GameResult::Draw, Termination::FivefoldRepetition)
    );
}

#[test]
fn r4_4_an_en_passant_chance_makes_a_different_position() {
    // After e2-e4 Black may take en passant (d4xe3): that position is not the same as the
    // later one with the same pieces, when the chance is gone.
    let start = Position::from_fen("4k1n1/8/8/8/3p4/8/4P3/4K1N1 w - - 0 1").unwrap();
    let mut g = Game::new(start, TimeControl::Untimed);
    let t = play(&mut g, "e4 Nf6 Nf3 Ng8 Ng1 Nf6 Nf3 Ng8 Ng1", 0);
    let err = g
        .apply(
            Command::ClaimDraw {
                by: Black,
                with_move: None,
            },
            t,
        )
        .unwrap_err();
    assert_eq!(err, GameError::NoThreefold { occurrences: 2 });
    let t = play(&mut g, "Nf6 Nf3 Ng8 Ng1", t);
    g.apply(
        Command::ClaimDraw {
            by: Black,
            with_move: None,
        },
        t,
    )
    .unwrap();
    assert_eq!(over(&g).1, Termination::ThreefoldRepetitionClaimed);
}

#[test]
fn r4_5_fifty_moves_may_be_claimed_and_seventy_five_end_the_game() {
    let start = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 100 80").unwrap();
    assert!(Game::new(start, TimeControl::Untimed).may_claim_draw(White));
    let start = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80").unwrap();
    let mut g = Game::new(start, TimeControl::Untimed);
    assert!(
        !g.may_claim_draw(White),
        "only with the move that makes fifty"
    );
    let err = g
        .apply(
            Command::ClaimDraw {
                by: White,
                with_move: None,
            },
            0,
        )
        .unwrap_err();
    assert_eq!(err, GameError::NoFiftyMoves { moves: 49 });
    g.apply(
        Command::ClaimDraw {
            by: White,
            with_move: Some(MoveText::San("Ra2".into())),
        },
        0,
    )
    .unwrap();
    assert_eq!(over(&g).1, Termination::FiftyMovesClaimed);

    let start = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 149 100").unwrap();
    let mut g = Game::new(start, TimeControl::Untimed);
    g.apply(san(White, "Ra2"), 0).unwrap();
    assert_eq!(over(&g), (GameResult::Draw, Termination::SeventyFiveMoves));
}

#[test]
fn r4_5_checkmate_on_the_seventy_fifth_move_stands() {
    let start = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 100").unwrap();
    let mut g = Game::new(start, TimeControl::Untimed);
    g.apply(san(White, "Ra8#"), 0).unwrap();
    assert_eq!(over(&g), (GameResult::WhiteWins, Termination::Checkmate));
}

#[test]
fn r4_illegal_or_out_of_turn_moves_are_refused_and_change_nothing() {
    let mut g = game("300+0");
    assert_eq!(g.apply(san(Black, "e5"), 0), Err(GameError::NotYourTurn));
    let err = g.apply(san(White, "e5"), 0).unwrap_err();
    assert_eq!(err.to_string(), "no legal move matches e5");
    assert!(g.moves().is_empty());
    g.apply(
        Command::Move {
            by: White,
            text: MoveText::Uci("e2e4".into()),
            offer_draw: false,
            timing: Default::default(),
        },
        0,
    )
    .unwrap();
    assert_eq!(g.moves().len(), 1);
}

// R5: draw offers.

#[test]
fn r5_1_an_offer_travels_with_the_move() {
    let mut g = game("-");
    let events = g.apply(san_offer(White, "e4"), 0).unwrap();
    assert!(events.contains(&Event::DrawOffered { by: White }));
    assert_eq!(g.draw_offer(), Some(White));
    g.apply(Command::AcceptDraw { by: Black }, 0).unwrap();
    assert_eq!(over(&g), (GameResult::Draw, Termination::Agreement));
}

/// lichess's `draw/yes` (R5): one command that accepts a standing offer, else offers — the
/// game decides which, so no other command can land between a look and the act.
#[test]
fn r5_agreeing_to_a_draw_accepts_a_standing_offer_else_offers() {
    let mut g = game("-");
    // No offer stands: on one's own turn it is an offer, which stands with the move.
    assert_eq!(g.apply(Command::AgreeDraw { by: White }, 0), Ok(vec![]));
    let events = g.apply(san(White, "e4"), 0).unwrap();
    assert!(events.contains(&Event::DrawOffered { by: White }));
    // White's offer stands: Black's yes accepts it.
    g.apply(Command::AgreeDraw { by: Black }, 0).unwrap();
    assert_eq!(over(&g), (GameResult::Draw, Termination::Agreement));
    // Off one's turn with nothing to accept, it is refused as an offer would be.
    let mut g = game("-");
    assert_eq!(
        g.apply(Command::AgreeDraw { by: Black }, 0),
        Err(GameError::NotYourTurn)
    );
}

#[test]
fn r5_1_an_offer_on_ones_own_turn_stands_when_the_move_is_made() {
    let mut g = game("-");
    assert!(g.may_offer_draw_now(White) && !g.may_offer_draw_now(Black));
    assert_eq!(
        g.apply(Command::OfferDraw { by: Black }, 0),
        Err(GameError::NotYourTurn)
    );
    assert_eq!(g.apply(Command::OfferDraw { by: White }, 0), Ok(vec![]));
    assert!(!g.may_offer_draw_now(White), "pending already");
    assert_eq!(g.draw_offer(), None, "not yet: the move is not made");
    assert_eq!(
        g.apply(Command::AcceptDraw { by: Black }, 0),
        Err(GameError::NoOfferToAnswer)
    );
    assert!(!g.may_answer_draw(Black));
    let events = g.apply(san(White, "e4"), 0).unwrap();
    assert!(events.contains(&Event::DrawOffered { by: White }));
    assert!(g.may_answer_draw(Black) && !g.may_answer_draw(White));
}

#[test]
fn r5_2_an_offer_cannot_be_withdrawn_or_repeated_while_it_stands() {
    let mut g = game("-");
    g.apply(Command::OfferDraw { by: White }, 0).unwrap();
    assert_eq!(
        g.apply(Command::OfferDraw { by: White }, 0),
        Err(GameError::OfferAlreadyMade)
    );
}

#[test]
fn r5_3_a_move_declines_the_standing_offer() {
    let mut g = game("-");
    g.apply(san_offer(White, "e4"), 0).unwrap();
    let events = g.apply(san(Black, "e5"), 0).unwrap();
    assert_eq!(events[0], Event::DrawDeclined { by: Black });
    assert_eq!(g.draw_offer(), None);
}

#[test]
fn r5_4_no_second_offer_until_the_opponent_has_offered_and_been_declined() {
    let mut g = game("-");
    g.apply(san_offer(White, "e4"), 0).unwrap();
    g.apply(Command::DeclineDraw { by: Black }, 0).unwrap();
    g.apply(san(Black, "e5"), 0).unwrap();
    let err = g.apply(san_offer(White, "Nf3"), 0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "you offered a draw already; wait for your opponent's offer"
    );
    g.apply(san(White, "Nf3"), 0).unwrap();
    // Black offers; White declines by moving — and may offer with that very move.
    g.apply(san_offer(Black, "Nc6"), 0).unwrap();
    let events = g.apply(san_offer(White, "Bc4"), 0).unwrap();
    assert!(events.contains(&Event::DrawDeclined { by: White }));
    assert!(events.contains(&Event::DrawOffered { by: White }));
}

/// lila issue #13138: both players unable to offer after declined offers. Under R5.4 a
/// decline always frees the decliner, so one side can always offer.
#[test]
fn repeated_declines_never_leave_both_sides_unable_to_offer() {
    let mut g = game("-");
    let moves = [
        "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "d3", "d6", "c3", "Nf6", "O-O", "O-O",
    ];
    for (i, m) in moves.iter().enumerate() {
        let by = g.position().turn();
        let offer = g.may_offer_draw(by) && i % 2 == 0;
        g.apply(
            Command::Move {
                by,
                text: MoveText::San((*m).into()),
                offer_draw: offer,
                timing: Default::default(),
            },
            0,
        )
        .unwrap();
        if g.draw_offer().is_some() {
            g.apply(Command::DeclineDraw { by: !by }, 0).unwrap();
        }
        assert!(
            g.may_offer_draw(White) || g.may_offer_draw(Black),
            "both blocked after {m}"
        );
    }
}

#[test]
fn r5_5_a_claim_is_not_an_offer() {
    let mut g = game("-");
    play(&mut g, "e4 e5", 0);
    let before = g.draw_offers();
    assert!(
        g.apply(
            Command::ClaimDraw {
                by: White,
                with_move: None
            },
            0
        )
        .is_err()
    );
    // Nothing pending (an offer made on one's turn waits there for the move), nothing
    // standing, nobody barred: the whole offer state is as it was.
    assert_eq!(g.draw_offers(), before);
    assert_eq!((g.draw_offers().pending, g.draw_offer()), (None, None));
    // A wrong claim with a move: refused, the move not played, nothing pending for it.
    let with_move = Command::ClaimDraw {
        by: White,
        with_move: Some(MoveText::San("Nf3".into())),
    };
    assert!(g.apply(with_move, 0).is_err());
    assert_eq!(g.moves().len(), 2);
    assert_eq!(g.draw_offers(), before);
    // So Black has nothing to accept, and after White's move no offer stands.
    assert_eq!(
        g.apply(Command::AcceptDraw { by: Black }, 0),
        Err(GameError::NoOfferToAnswer)
    );
    g.apply(san(White, "Nf3"), 0).unwrap();
    assert_eq!(g.draw_offer(), None);
    assert_eq!(g.draw_offers().may_offer, before.may_offer, "nobody barred");
}

// R6: clocks.

#[test]
fn r6_each_sides_first_move_is_not_timed() {
    let mut g = game("60+0");
    g.apply(san(White, "e4"), 50_000).unwrap();
    g.apply(san(Black, "e5"), 110_000).unwrap();
    assert_eq!(g.clock().remaining(White), Duration::from_secs(60));
    assert_eq!(g.clock().remaining(Black), Duration::from_secs(60));
    // White's 60 s from Black's move, plus the lag grace (R6; 1.17 s at 1+0).
    assert_eq!(g.next_deadline(), Some(170_000 + GRACE_1_0));
}

#[test]
fn r6_the_server_keeps_time_and_the_flag_falls_without_a_move() {
    let mut g = game("60+0");
    let t = play(&mut g, "e4 e5", 0); // White's clock runs from t - 1000.
    let (events, next) = g.tick(t + 10_000);
    assert!(events.is_empty());
    assert_eq!(next, Some(t - 1000 + 60_000 + GRACE_1_0));
    // At zero the flag waits the lag grace for a move on its way, then falls.
    let (events, _) = g.tick(t - 1000 + 60_000);
    assert!(events.is_empty());
    let (events, next) = g.tick(t - 1000 + 60_000 + GRACE_1_0);
    assert_eq!(
        events,
        [Event::GameOver {
            result: GameResult::BlackWins,
            termination: Termination::TimeForfeit
        }]
    );
    assert_eq!(next, None);
    // The fallen flag's clock shows zero from then on, the other's stands; the books
    // balance (granted = used + left).
    for now in [t + 60_000, t + 600_000] {
        let clocks = g.clocks_at(now);
        assert_eq!(clocks.white, Some(Duration::ZERO));
        assert_eq!(clocks.black, Some(Duration::from_secs(60)));
    }
    for c in [White, Black] {
        assert_eq!(
            g.clock().granted(c),
            g.clock().used(c) + g.clock().remaining(c)
        );
    }
}

#[test]
fn r6_a_move_after_the_flag_fell_is_refused_and_the_flag_applied() {
    let mut g = game("60+0");
    let t = play(&mut g, "e4 e5", 0);
    let events = g.apply(san(White, "Nf3"), t + 70_000).unwrap();
    assert_eq!(
        events,
        [Event::GameOver {
            result: GameResult::BlackWins,
            termination: Termination::TimeForfeit
        }]
    );
    assert_eq!(g.moves().len(), 2);
}

#[test]
fn r6_flag_fall_draws_when_the_opponent_cannot_mate() {
    let start = Position::from_fen("4k3/8/8/8/8/8/4P3/4K2B w - - 0 1").unwrap();
    let mut g = Game::new(start, TimeControl::from_pgn("60").unwrap());
    let t = play(&mut g, "Kd2 Kd7 Kd3", 0);
    // Black (a lone king) is to move and runs out: White can still mate, so Black loses.
    g.tick(t + 120_000);
    assert_eq!(over(&g).0, GameResult::WhiteWins);
    // The other way round: White flags against a lone king — drawn.
    let mut g = Game::new(
        Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap(),
        TimeControl::from_pgn("60").unwrap(),
    );
    let t = play(&mut g, "Kd2 Kd7", 0);
    g.tick(t + 120_000);
    assert_eq!(over(&g), (GameResult::Draw, Termination::TimeForfeit));
}

#[test]
fn abort_only_before_both_sides_have_moved_and_resign_only_after() {
    let mut g = game("-");
    assert!(g.may_abort() && !g.may_resign());
    assert_eq!(g.position_hashes(), [Position::new().zobrist()]);
    assert_eq!(
        g.apply(Command::Resign { by: White }, 0),
        Err(GameError::ResignTooEarly)
    );
    g.apply(san(White, "e4"), 0).unwrap();
    assert!(g.may_abort());
    g.apply(Command::Abort { by: Black }, 0).unwrap();
    assert!(!g.may_abort() && !g.may_resign(), "over");
    assert_eq!(over(&g), (GameResult::Unknown, Termination::Aborted));
    let mut g = game("-");
    play(&mut g, "e4 e5", 0);
    assert!(!g.may_abort() && g.may_resign());
    assert_eq!(
        g.apply(Command::Abort { by: White }, 0),
        Err(GameError::AbortTooLate)
    );
}

/// lila issue #12941: `%clk` values in exported PGN that were not the clock after the move.
/// Ours are the mover's time left after its move, increment included.
#[test]
fn exported_clocks_are_the_time_left_after_each_move() {
    let mut g = game("180+2");
    let mut t = 0;
    for (text, think) in [("e4", 0), ("e5", 0), ("Nf3", 5_000), ("Nc6", 12_345)] {
        t += think;
        let by = g.position().turn();
        g.apply(san(by, text), t).unwrap();
    }
    let record = g.to_record();
    let clocks: Vec<_> = record
        .moves
        .iter()
        .map(|m| m.clock.unwrap().as_millis())
        .collect();
    // First moves untimed (+2 s each), then 5 s and 12.345 s thinking, +2 s each.
    assert_eq!(clocks, [182_000, 182_000, 179_000, 171_655]);
    let pgn = rookery_core::pgn::write(&record);
    assert!(pgn.contains("{ [%clk 0:02:51.655] }"), "{pgn}");
    assert!(pgn.contains("[TimeControl \"180+2\"]"), "{pgn}");
}

/// A game begun from a set-up position is exported from that position (PGN `FEN` and
/// `SetUp` tags), not from the initial one.
#[test]
fn a_game_from_a_set_up_position_is_recorded_from_it() {
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let start = Position::from_fen(fen).unwrap();
    let mut g = Game::new(start, TimeControl::Untimed);
    g.apply(san(White, "e4"), 0).unwrap();
    let record = g.to_record();
    assert_eq!(record.start.fen(), fen);
    assert_eq!(
        record.final_position().fen(),
        "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1"
    );
    let pgn = rookery_core::pgn::write(&record);
    assert!(pgn.contains(&format!("[FEN \"{fen}\"]")), "{pgn}");
}

/// Property: random legal games with random offers, claims and thinking times never break
/// an invariant: clocks never negative after an accepted move, a finished game accepts no
/// command, and for each side time used + time left = time granted, to the millisecond.
#[test]
fn random_games_keep_every_invariant() {
    let mut seed = 0xfeed_2026_1130_0042u64;
    let mut rand = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n.max(1)
    };
    for i in 0..400 {
        let tc = ["60+1", "30", "40/120+1:60+1", "20d3", "20b3", "-", "*20"][i % 7];
        let mut g = game(tc);
        let mut t = 0u64;
        for _ in 0..300 {
            if g.is_over() {
                break;
            }
            t += rand(3000);
            let by = g.position().turn();
            let command = match rand(20) {
                0 => Command::OfferDraw { by },
                1 => Command::AcceptDraw { by },
                2 => Command::DeclineDraw {
                    by: if rand(2) == 0 { by } else { !by },
                },
                3 => Command::ClaimDraw {
                    by,
                    with_move: None,
                },
                4 if rand(10) == 0 => Command::Resign { by },
                5 if rand(10) == 0 => Command::Abort { by },
                _ => {
                    let moves = g.position().legal_moves();
                    let m = moves[rand(moves.len() as u64) as usize];
                    Command::Move {
                        by,
                        text: MoveText::Uci(m.to_uci().to_string()),
                        offer_draw: rand(8) == 0,
                        timing: Default::default(),
                    }
                }
            };
            let before = g.moves().len();
            match g.apply(command, t) {
                Ok(_) => {}
                Err(_) => assert_eq!(g.moves().len(), before, "a refusal changes nothing"),
            }
            let clock = g.clock();
            for c in [White, Black] {
                assert_eq!(clock.granted(c), clock.used(c) + clock.remaining(c));
            }
            if let Some(last) = g.moves().last() {
                assert!(last.clock.is_none_or(|c| c > Duration::ZERO || tc == "-"));
            }
            if g.is_over() {
                assert_eq!(
                    g.apply(Command::Resign { by }, t),
                    Err(GameError::GameIsOver)
                );
                assert_eq!(g.next_deadline(), None);
            }
        }
    }
}

#[test]
fn resuming_after_a_restart_charges_nothing_for_the_downtime() {
    let mut g = game("60+0");
    let t = play(&mut g, "e4 e5", 0);
    // The server went down at t + 10 s and came back at t + 100 s.
    g.resume(t + 100_000, t - 1000);
    assert_eq!(g.next_deadline(), Some(t + 100_000 + 60_000 + GRACE_1_0));
    g.apply(san(White, "Nf3"), t + 105_000).unwrap();
    assert_eq!(g.clock().remaining(White), Duration::from_secs(55));
}

#[test]
fn the_opponent_of_a_player_gone_on_their_turn_may_claim_the_win() {
    let mut g = game("180+2");
    let t = play(&mut g, "e4 e5", 0);
    // 180 s + 40 x 2 s = 260 s: a tenth is 26 s.
    assert_eq!(g.abandonment_wait(), Duration::from_secs(26));
    let claim = |away| Command::ClaimVictory {
        by: Black,
        opponent_away: Duration::from_secs(away),
    };
    let err = g.apply(claim(10), t).unwrap_err();
    assert_eq!(
        err.to_string(),
        "your opponent may still come back: a win can be claimed after 26 s away on their turn"
    );
    // Not on one's own turn.
    assert!(
        g.apply(
            Command::ClaimVictory {
                by: White,
                opponent_away: Duration::from_secs(99)
            },
            t
        )
        .is_err()
    );
    g.apply(claim(30), t).unwrap();
    assert_eq!(over(&g), (GameResult::BlackWins, Termination::Abandonment));
}

#[test]
fn r5_the_draw_offer_state_survives_a_rebuild_from_the_moves() {
    // R5.4: White's offer was declined, so White may not offer again; Black's offer stands.
    let mut g = game("-");
    g.apply(san_offer(White, "e4"), 0).unwrap();
    g.apply(Command::DeclineDraw { by: Black }, 0).unwrap();
    g.apply(san(Black, "e5"), 0).unwrap();
    g.apply(san(White, "Nf3"), 0).unwrap();
    g.apply(san_offer(Black, "Nc6"), 0).unwrap();
    let offers = g.draw_offers();
    assert_eq!(offers.standing, Some(Black));
    assert!(!offers.may_offer.white && offers.may_offer.black);
    // The stored text reads back to the same state, and nothing else reads at all.
    let text = offers.to_text();
    assert_eq!(text, "pending=- standing=b may=b");
    assert_eq!(DrawOffers::parse(&text), Some(offers));
    for junk in [
        "",
        "pending=x standing=- may=wb",
        "pending=- standing=- may=wb extra",
    ] {
        assert_eq!(DrawOffers::parse(junk), None, "{junk}");
    }
    // Rebuilt from its moves alone the game forgets; given the state back it resumes exactly.
    let mut rebuilt = game("-");
    play(&mut rebuilt, "e4 e5 Nf3 Nc6", 0);
    assert_ne!(rebuilt.draw_offers(), offers);
    rebuilt.restore_draw_offers(DrawOffers::parse(&text).unwrap());
    assert!(rebuilt.may_answer_draw(White));
    assert_eq!(
        rebuilt.apply(Command::OfferDraw { by: White }, 0),
        Err(GameError::OfferAlreadyMade)
    );
    rebuilt.apply(Command::AcceptDraw { by: White }, 0).unwrap();
    assert_eq!(over(&rebuilt), (GameResult::Draw, Termination::Agreement));
}

fn record(pgn: &str) -> rookery_core::pgn::GameRecord {
    rookery_core::pgn::Reader::new(pgn.as_bytes())
        .next()
        .unwrap()
        .unwrap()
}

#[test]
fn r4_a_record_that_plays_on_after_fivefold_repetition_is_refused() {
    let shuffle = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 \
                   7. Nf3 Nf6 8. Ng1 Ng8";
    // The start position stands a fifth time after 8...Ng8: the game is over there (R4.4).
    let ended = Game::from_record(&record(&format!("{shuffle} 1/2-1/2"))).unwrap();
    assert_eq!(
        ended.result(),
        Some((GameResult::Draw, Termination::FivefoldRepetition))
    );
    let on = Game::from_record(&record(&format!("{shuffle} 9. e4 1/2-1/2")));
    assert!(matches!(on, Err((17, GameError::GameIsOver))), "{on:?}");
}

#[test]
fn a_record_ends_as_its_moves_show_or_else_as_its_tags_say() {
    // Mate on the board wins over a `*` result.
    let mate = Game::from_record(&record("1. f3 e5 2. g4 Qh4# *")).unwrap();
    assert_eq!(
        mate.result(),
        Some((GameResult::BlackWins, Termination::Checkmate))
    );
    let cases = [
        ("1-0", None, GameResult::WhiteWins, Termination::Resignation),
        (
            "1/2-1/2",
            Some("Normal"),
            GameResult::Draw,
            Termination::Agreement,
        ),
        (
            "0-1",
            Some("Time forfeit"),
            GameResult::BlackWins,
            Termination::TimeForfeit,
        ),
        (
            "1-0",
            Some("abandoned"),
            GameResult::WhiteWins,
            Termination::Abandonment,
        ),
        (
            "*",
            Some("Abandoned"),
            GameResult::Unknown,
            Termination::Aborted,
        ),
        ("*", None, GameResult::Unknown, Termination::Unterminated),
    ];
    for (result, tag, want_result, want) in cases {
        let tags = tag.map_or(String::new(), |t| format!("[Termination \"{t}\"]\n"));
        let g = Game::from_record(&record(&format!("{tags}\n1. e4 e5 {result}"))).unwrap();
        assert_eq!(g.result(), Some((want_result, want)), "{result} {tag:?}");
        // The tag the core writes reads back to the same ending.
        assert_eq!(
            Termination::from_pgn_tag(Some(want.pgn_tag()), want_result),
            want,
            "{want:?}"
        );
    }
    for t in Termination::ALL {
        assert_eq!(Termination::parse(t.as_str()), Some(t));
    }
}

#[test]
fn material_points_count_each_piece_by_its_r7_value() {
    let points = Position::new().board().points();
    assert_eq!((points.white, points.black), (39, 39));
    let pos = Position::from_fen("4k3/8/8/8/8/8/1p6/R3K3 b - - 0 30").unwrap();
    let points = pos.board().points();
    assert_eq!((points.white, points.black), (5, 1));
}

#[test]
fn r4_a_game_from_a_position_that_is_already_over_is_over_at_once() {
    let cases = [
        // Fool's mate: White is mated.
        (
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            GameResult::BlackWins,
            Termination::Checkmate,
        ),
        (
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            GameResult::Draw,
            Termination::Stalemate,
        ),
        (
            "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
            GameResult::Draw,
            Termination::InsufficientMaterial,
        ),
        (
            "8/8/4k3/8/8/3K4/8/7R w - - 150 120",
            GameResult::Draw,
            Termination::SeventyFiveMoves,
        ),
    ];
    for (fen, result, termination) in cases {
        let g = Game::new(Position::from_fen(fen).unwrap(), TimeControl::Untimed);
        assert_eq!(g.result(), Some((result, termination)), "{fen}");
        assert_eq!(
            Game::new(Position::from_fen(fen).unwrap(), TimeControl::Untimed)
                .apply(Command::Resign { by: White }, 0),
            Err(GameError::GameIsOver)
        );
    }
    assert!(!Game::new(Position::new(), TimeControl::Untimed).is_over());
}

#[test]
fn a_correspondence_clock_counts_calendar_days_across_a_restart() {
    // R6: downtime is charged to nobody — except in correspondence, whose days run on the
    // calendar from the last move.
    let day = 24 * 60 * 60 * 1000;
    let mut g = game("2d");
    let t = play(&mut g, "e4 e5", 0); // White's turn began at t - 1000.
    let began = t - 1000;
    g.resume(began + day, began);
    assert_eq!(g.next_deadline(), Some(began + 2 * day));
    assert!(g.tick(began + 2 * day - 1).0.is_empty());
    // The server was down past the two days: on its return the flag is due at once.
    let mut late = g.clone();
    late.resume(began + 3 * day, began);
    let (events, _) = late.tick(began + 3 * day);
    assert_eq!(over(&late).1, Termination::TimeForfeit, "{events:?}");
    // A move in time refills the days for the next one.
    g.apply(san(White, "Nf3"), began + day + 5).unwrap();
    assert_eq!(g.clock().remaining(White), Duration::from_millis(2 * day));
}

#[test]
fn an_untimed_game_nobody_moves_in_is_abandoned_after_lichess_idle_time() {
    use rookery_core::game::{IDLE_AGAINST_BOT, IDLE_BETWEEN_PEOPLE};
    const DAY: u64 = 24 * 3600 * 1000;
    // Not started: the server aborts it; the idle rule does not apply yet.
    let mut g = game("-");
    assert_eq!(g.idle_deadline(false), None);
    // `play` answers the time after its last move, made a second before.
    let t = play(&mut g, "e4 e5", 1_000) - 1000;
    assert_eq!(g.idle_deadline(false), Some(t + 21 * DAY));
    assert_eq!(g.idle_deadline(true), Some(t + DAY / 4));
    assert_eq!(IDLE_BETWEEN_PEOPLE.as_millis() as u64, 21 * DAY);
    assert_eq!(IDLE_AGAINST_BOT.as_millis() as u64, DAY / 4);
    // A minute early nothing happens; a move starts the count again.
    assert!(g.end_if_idle(t + 21 * DAY - 60_000, false).is_empty());
    g.apply(san(White, "Nf3"), t + 20 * DAY).unwrap();
    assert!(g.end_if_idle(t + 21 * DAY, false).is_empty());
    assert!(!g.is_over());
    // A restart counts from the last move on the calendar, not from the restart.
    let last = t + 20 * DAY;
    g.resume(last + 10 * DAY, last);
    assert_eq!(g.idle_deadline(false), Some(last + 21 * DAY));
    let events = g.end_if_idle(last + 21 * DAY, false);
    assert_eq!(events.len(), 1);
    assert_eq!(over(&g), (GameResult::Draw, Termination::Abandonment));
    assert_eq!(Termination::Abandonment.pgn_tag(), "Abandoned");
    // Over, it has no deadline; a timed game or a correspondence game never has one.
    assert_eq!(g.idle_deadline(false), None);
    for control in ["180+2", "1/259200"] {
        let mut timed = game(control);
        play(&mut timed, "e4 e5", 0);
        assert_eq!(timed.idle_deadline(true), None, "{control}");
        assert!(
            timed.end_if_idle(u64::MAX / 2, true).is_empty(),
            "{control}"
        );
    }
}

// Berserk (lichess's arenas; the server allows it only where an arena does).

#[test]
fn berserk_halves_the_time_and_takes_the_increment_away() {
    // 3+2 (180 s + 2 s): Black goes berserk before moving: 90 s, and no increment after.
    let mut g = game("180+2");
    assert_eq!(
        g.apply(Command::Berserk { by: Black }, 0).unwrap(),
        [Event::Berserked { by: Black }]
    );
    assert!(g.clock().is_berserk(Black) && !g.clock().is_berserk(White));
    assert_eq!(g.clock().remaining(Black), Duration::from_secs(90));
    assert_eq!(g.clock().remaining(White), Duration::from_secs(180));
    // Each side's first move is not timed (R6); then one second each.
    let t = play(&mut g, "e4 e5", 0);
    play(&mut g, "Nf3 Nc6", t);
    assert_eq!(
        g.clock().remaining(White),
        Duration::from_secs(180 + 2 + 2 - 1)
    );
    assert_eq!(g.clock().remaining(Black), Duration::from_secs(90 - 1));
    // The books balance: granted = used + left.
    for c in [White, Black] {
        assert_eq!(
            g.clock().granted(c),
            g.clock().used(c) + g.clock().remaining(c),
            "{c:?}"
        );
    }
}

#[test]
fn berserk_only_once_and_only_before_ones_first_move() {
    let mut g = game("60+0");
    g.apply(Command::Berserk { by: White }, 0).unwrap();
    assert_eq!(
        g.apply(Command::Berserk { by: White }, 0),
        Err(GameError::CannotBerserk)
    );
    let t = play(&mut g, "e4", 0);
    assert_eq!(g.clock().remaining(White), Duration::from_secs(30));
    // Black has not moved: still may; after his move, not.
    let mut h = game("60+0");
    let t2 = play(&mut h, "e4 e5", t);
    assert_eq!(
        h.apply(Command::Berserk { by: Black }, t2),
        Err(GameError::CannotBerserk)
    );
    assert_eq!(
        h.apply(Command::Berserk { by: White }, t2),
        Err(GameError::CannotBerserk)
    );
    assert!(g.apply(Command::Berserk { by: Black }, t).is_ok());
}

#[test]
fn berserk_needs_a_clock_of_one_period_with_a_base_time() {
    for tc in ["-", "0+3", "40/5400+30:1800+30", "300d5", "*180", "3d"] {
        let control = TimeControl::from_pgn(tc)
            .or_else(|_| TimeControl::from_friendly(tc))
            .unwrap();
        let mut g = Game::new(Position::new(), control);
        assert_eq!(
            g.apply(Command::Berserk { by: White }, 0),
            Err(GameError::CannotBerserk),
            "{tc}"
        );
        assert!(!g.clock().is_berserk(White), "{tc}: unchanged");
    }
}

// Time given to the opponent (lichess's "+15 seconds"; the server allows it between people
// outside tournaments).

#[test]
fn giving_time_adds_fifteen_seconds_to_the_opponents_clock() {
    let mut g = game("180+2");
    let t = play(&mut g, "e4 e5", 0);
    // White to move, his clock running: he gives Black 15 s, then thinks 3 s.
    let events = g.apply(Command::GiveTime { by: White }, t + 1000).unwrap();
    let [Event::TimeGiven { by, clocks }] = events.as_slice() else {
        panic!("{events:?}");
    };
    assert_eq!(*by, White);
    assert_eq!(clocks.black, Some(Duration::from_secs(180 + 2 + 15)));
    // White's own clock runs on, untouched.
    assert_eq!(*clocks, g.clocks_at(t + 1000));
    assert!(clocks.white < Some(g.clock().remaining(White)));
    assert_eq!(g.clock().remaining(Black), Duration::from_secs(197));
    assert_eq!(
        g.gifts(),
        [rookery_core::game::Gift {
            by: White,
            plies: 2
        }]
    );
    // Given to the side to move, it lengthens the running clock and its flag's time (R6).
    let before = g.next_deadline().unwrap();
    let t = play(&mut g, "Nf3", t + 3000);
    let deadline = g.next_deadline().unwrap();
    g.apply(Command::GiveTime { by: White }, t).unwrap();
    assert_eq!(g.next_deadline().unwrap(), deadline + 15_000);
    assert!(deadline > before);
    for c in [White, Black] {
        assert_eq!(
            g.clock().granted(c),
            g.clock().used(c) + g.clock().remaining(c),
            "{c:?}"
        );
    }
}

#[test]
fn time_is_given_only_on_a_clock_of_minutes_and_while_the_game_is_on() {
    for control in [TimeControl::Untimed, TimeControl::Correspondence(3)] {
        let mut g = Game::new(Position::new(), control.clone());
        play(&mut g, "e4 e5", 0);
        assert_eq!(
            g.apply(Command::GiveTime { by: White }, 1000),
            Err(GameError::CannotGiveTime),
            "{control:?}"
        );
        assert!(!g.may_give_time());
    }
    let mut g = game("60+0");
    assert!(g.may_give_time());
    play(&mut g, "f3 e5 g4 Qh4#", 0);
    assert_eq!(
        g.apply(Command::GiveTime { by: White }, 1000),
        Err(GameError::GameIsOver)
    );
    assert!(!g.may_give_time());
}
