//! Computer analysis of whole games (`analysis.rs`): a hung queen is a blunder (`??`) at that
//! move, and a quiet, well-played line has none.

use rookery_core::{Color, Position};
use rookery_engine::Search;
use rookery_engine::analysis::{Judgement, Score, evaluate, review};

/// The evaluation of every position of the game `sans` (the start's first).
fn cps_of(sans: &[&str], nodes: u64) -> Vec<Option<Score>> {
    let mut search = Search::new(8);
    let mut pos = Position::new();
    let mut history = Vec::new();
    let mut cps = Vec::new();
    for i in 0..=sans.len() {
        let eval = evaluate(&mut search, &pos, &history, nodes);
        cps.push(eval.score);
        if i == sans.len() {
            break;
        }
        history.push(pos.zobrist());
        let m = pos.parse_san(sans[i]).unwrap();
        pos.play_unchecked(m);
    }
    cps
}

#[test]
fn a_hung_queen_is_a_blunder_at_that_move() {
    // 3. Qxg7 takes a pawn the bishop guards: the queen is lost.
    let game = ["e4", "e5", "Qg4", "d6", "Qxg7", "Bxg7"];
    let r = review(Color::White, &cps_of(&game, 100_000), &[]);
    assert_eq!(
        r.judgements[4],
        Some(Judgement::Blunder),
        "{:?}",
        r.judgements
    );
    assert_eq!(r.judgements[5], None, "taking the queen is no error");
    assert!(
        r.sides.white.blunders >= 1 && r.sides.black.blunders == 0,
        "{:?}",
        r.sides
    );
    assert!(r.sides.white.acpl > r.sides.black.acpl);
}

#[test]
fn a_quiet_well_played_line_has_no_blunder() {
    // The Berlin endgame, as masters play it.
    let game = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6", "O-O", "Nxe4", "d4", "Nd6", "Bxc6", "dxc6", "dxe5",
        "Nf5", "Qxd8+", "Kxd8",
    ];
    let r = review(Color::White, &cps_of(&game, 100_000), &[]);
    assert!(
        r.judgements.iter().all(|j| *j != Some(Judgement::Blunder)),
        "{:?}",
        r.judgements
    );
    assert_eq!(r.sides.white.blunders + r.sides.black.blunders, 0);
    assert!(r.sides.white.accuracy.unwrap() > 80.0, "{:?}", r.sides);
}
