//! `rookery pgn check`: the exact NDJSON shape outside checks rely on, and exit statuses.

mod common;

fn check(args: &[&str], stdin: &str) -> (i32, String) {
    let args: Vec<&str> = ["pgn", "check"].iter().chain(args).copied().collect();
    common::run_rookery(&args, stdin)
}

const GAMES: &str = "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
                     [White \"C\"]\n\n1. e4 e5 2. Ke3 *\n\n\
                     1. e4 \"quoted\" *\n";

#[test]
fn json_lines_have_the_exact_shape() {
    let (status, out) = check(&["--json", "-"], GAMES);
    assert_eq!(status, 1, "one bad game makes the status 1");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            r#"{"game":1,"ok":true,"plies":4,"fen":"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3","outcome":"checkmate","result":"0-1"}"#,
            r#"{"game":2,"ok":false,"ply":3,"move":"Ke3","error":"no legal move matches Ke3"}"#,
            r#"{"game":3,"ok":false,"ply":2,"move":"\"quoted\"","error":"\"\\\"quoted\\\"\" is not a move in algebraic notation"}"#,
        ]
    );
}

#[test]
fn all_good_means_status_zero_and_one_line_per_game() {
    let (status, out) = check(&["-"], "1. e4 e5 1/2-1/2\n\n1. d4 *\n");
    assert_eq!(status, 0);
    assert_eq!(out.lines().count(), 2);
    assert!(
        out.starts_with("game 1: ok, 2 plies, result 1/2-1/2"),
        "{out}"
    );
}

#[test]
fn outcomes_that_need_the_game_history() {
    // Knights out and back four times: the start position stands for the fifth time.
    let shuffle = "Nf3 Nf6 Ng1 Ng8 ".repeat(4);
    let (_, out) = check(&["--json", "-"], &format!("{shuffle}*\n"));
    assert!(
        out.contains(r#""plies":16,"#) && out.contains(r#""outcome":"fivefold_repetition""#),
        "{out}"
    );
}

/// Every outcome `pgn check` names, each from a game that ends in it (R4), and `none` for a
/// game that goes on; the positions are python-chess's verdict too
/// (`board.outcome(claim_draw=False)`).
#[test]
fn every_outcome_is_named() {
    let setup = |fen: &str, moves: &str| format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n{moves} *\n");
    let cases = [
        // Sam Loyd's ten-move stalemate.
        (
            "1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 \
             8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6 *\n"
                .to_owned(),
            "stalemate",
        ),
        // The king takes the last knight: king against king.
        (
            setup("4k3/8/8/8/8/8/4n3/4K3 w - - 0 1", "1. Kxe2"),
            "insufficient_material",
        ),
        // The 150th half-move without a capture or a pawn move, no mate on it.
        (
            setup("4k3/8/8/8/8/8/R7/4K3 w - - 149 80", "80. Rb2"),
            "seventyfive_moves",
        ),
        ("1. e4 e5 *\n".to_owned(), "none"),
    ];
    for (game, want) in cases {
        let (status, out) = check(&["--json", "-"], &game);
        assert_eq!(status, 0, "{out}");
        assert!(
            out.contains(&format!(r#""outcome":"{want}""#)),
            "{want}: {out}"
        );
    }
}

#[test]
fn a_missing_file_is_status_two() {
    let (status, _) = check(&["/nonexistent/file.pgn"], "");
    assert_eq!(status, 2);
}
