//! The game API over real sockets, on a fresh SQLite file: create, join, play to mate,
//! watch the state, export PGN; every refusal has its error and changes nothing; a restart
//! loads live games back with their moves.

mod common;

use common::{
    Server, call, field, free_port, http_move, new_game, request_at, start, start_with, temp_url,
};

#[test]
fn two_players_play_to_mate_and_the_pgn_says_so() {
    let (dir, url) = temp_url("mate");
    let metrics_port = free_port();
    let s = start_with(
        &url,
        &["--metrics-listen", &format!("127.0.0.1:{metrics_port}")],
    );
    let created = call(
        &s,
        "POST",
        "/api/games",
        None,
        Some(r#"{"time_control":"5+3","color":"white"}"#),
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let id = field(&created.body, "id").to_owned();
    let white = created.cookie.unwrap();
    let joined = call(&s, "POST", &format!("/api/games/{id}/join"), None, None);
    assert_eq!(joined.status, 200, "{}", joined.body);
    assert_eq!(field(&joined.body, "color"), "black");
    let black = joined.cookie.unwrap();
    // A third visitor finds both seats taken.
    let third = call(&s, "POST", &format!("/api/games/{id}/join"), None, None);
    assert_eq!(
        (third.status, third.body.as_str()),
        (
            409,
            r#"{"error":"both seats are taken","code":"seats_taken"}"#
        )
    );

    let mv = |cookie: &str, m: &str| {
        call(
            &s,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(cookie),
            Some(&format!(r#"{{"m":"{m}"}}"#)),
        )
    };
    for (cookie, m) in [(&white, "f2f3"), (&black, "e5"), (&white, "g4")] {
        let r = mv(cookie, m);
        assert_eq!(r.status, 200, "{m}: {}", r.body);
    }
    // Refusals, each with its reason, none changing the game.
    assert_eq!(
        mv(&white, "a3").body,
        r#"{"error":"it is not your turn","code":"not_your_turn"}"#
    );
    assert_eq!(mv(&black, "Qh5h4").status, 400);
    let forged = format!("rk_{id}=00000000000000000000000000000000");
    assert_eq!(mv(&forged, "Qh4").status, 403);
    let junk = call(
        &s,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(&black),
        Some("{not json"),
    );
    assert_eq!(junk.status, 400, "{}", junk.body);
    assert!(junk.body.starts_with(r#"{"error":"#), "{}", junk.body);
    let state = call(&s, "GET", &format!("/api/games/{id}"), Some(&black), None);
    assert!(
        state.body.contains(r#""san":["f3","e5","g4"]"#),
        "{}",
        state.body
    );
    assert_eq!(field(&state.body, "you"), "black");

    assert_eq!(mv(&black, "Qh4").status, 200);
    let state = call(&s, "GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(field(&state.body, "status"), "over");
    assert_eq!(field(&state.body, "termination"), "checkmate");
    assert_eq!(
        mv(&white, "a3").body,
        r#"{"error":"the game is over","code":"game_over"}"#
    );

    let pgn = call(&s, "GET", &format!("/game/export/{id}"), None, None);
    assert_eq!(pgn.status, 200);
    assert!(pgn.body.contains("[Result \"0-1\"]"), "{}", pgn.body);
    assert!(
        pgn.body
            .contains("1. f3 { [%clk 0:05:03] } 1... e5 { [%clk 0:05:03] } 2. g4"),
        "{}",
        pgn.body
    );
    assert!(pgn.body.contains("Qh4# { [%clk"), "{}", pgn.body);
    // Whole seconds (docs/API.md), and the game's absolute address as its Site.
    for clk in pgn.body.split("[%clk ").skip(1) {
        let value = &clk[..clk.find(']').unwrap()];
        assert!(!value.contains('.'), "{value}");
    }
    assert!(
        pgn.body
            .contains(&format!("[Site \"http://localhost/game/{id}\"]")),
        "{}",
        pgn.body
    );
    assert!(pgn.body.contains("[TimeControl \"300+3\"]"), "{}", pgn.body);
    // The metrics are not public: only on their own listener.
    assert_eq!(call(&s, "GET", "/metrics", None, None).status, 404);
    let metrics = request_at(metrics_port, "GET", "/metrics", &[], None)
        .expect("the metrics listener answers")
        .body;
    assert!(metrics.contains("rookery_moves_total 4\n"), "{metrics}");
    assert!(metrics.contains("rookery_live_games 0\n"), "{metrics}");
    assert!(
        metrics.contains("rookery_move_latency_seconds_count 4\n"),
        "{metrics}"
    );
    assert!(
        metrics.contains("# TYPE rookery_store_commit_seconds histogram"),
        "{metrics}"
    );
    let bare = call(
        &s,
        "GET",
        &format!("/game/export/{id}?clocks=false"),
        None,
        None,
    );
    assert!(
        bare.body.contains("1. f3 e5 2. g4 Qh4# 0-1"),
        "{}",
        bare.body
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_restarted_server_loads_live_games_back() {
    let (dir, url) = temp_url("restart");
    let s = start(&url);
    let (id, black, white) = new_game(&s, r#"{"time_control":"untimed","color":"black"}"#);
    let mv = |s: &Server, cookie: &str, m: &str| http_move(s, &id, cookie, m).status;
    assert_eq!(mv(&s, &white, "e4"), 200);
    assert_eq!(mv(&s, &black, "c5"), 200);
    drop(s);
    let s = start(&url);
    assert_eq!(mv(&s, &white, "Nf3"), 200);
    let state = call(&s, "GET", &format!("/api/games/{id}"), None, None);
    assert!(
        state.body.contains(r#""san":["e4","c5","Nf3"]"#),
        "{}",
        state.body
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 54, lichess's "+15 seconds": a player gives the opponent time through the game's
/// action door; it stands on the clock, survives a restart (replayed at its place), and is
/// refused in an untimed game.
#[test]
fn time_given_to_the_opponent_stands_across_a_restart() {
    let (dir, url) = temp_url("moretime");
    let s = start(&url);
    let (id, white, black) = new_game(&s, r#"{"time_control":"1+0","color":"white"}"#);
    let mv = |s: &Server, cookie: &str, m: &str| http_move(s, &id, cookie, m).status;
    assert_eq!(mv(&s, &white, "e4"), 200);
    assert_eq!(mv(&s, &black, "e5"), 200);
    let black_ms = |s: &Server| {
        let state = call(s, "GET", &format!("/api/games/{id}"), None, None).body;
        let v: serde_json::Value = serde_json::from_str(&state).unwrap();
        v["clocks"]["black"].as_u64().unwrap()
    };
    assert_eq!(black_ms(&s), 60_000);
    let r = call(
        &s,
        "POST",
        &format!("/api/games/{id}/moretime"),
        Some(&white),
        None,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(black_ms(&s), 75_000);
    drop(s);
    let s = start(&url);
    assert_eq!(black_ms(&s), 75_000, "the gift is replayed after a restart");
    assert_eq!(mv(&s, &white, "Nf3"), 200);
    drop(s);
    // No clock of minutes, no gift.
    let s = start(&url);
    let (id, white, black) = new_game(&s, r#"{"time_control":"untimed","color":"white"}"#);
    assert_eq!(http_move(&s, &id, &white, "e4").status, 200);
    assert_eq!(http_move(&s, &id, &black, "e5").status, 200);
    let r = call(
        &s,
        "POST",
        &format!("/api/games/{id}/moretime"),
        Some(&white),
        None,
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("cannot_give_time"), "{}", r.body);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 54, the explorer of the site's own games: imported games and a game played to its
/// end here count; each move from a position with how it scored; transpositions meet; an
/// aborted game does not count.
#[test]
fn the_explorer_counts_the_sites_finished_games_by_position() {
    common::agent::on_both("explorer", explorer_flow);
}

fn explorer_flow(url: &str) {
    let s = start(url);
    for pgn in [
        "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
        "1. e4 c5 2. Nf3 d6 1/2-1/2",
        "1. Nf3 d5 2. d4 Nf6 0-1",
    ] {
        let r = call(&s, "POST", "/api/import", None, Some(pgn));
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // Played here and resigned: 1. d4 d5 2. Nf3 Nc6, White resigns.
    let (id, white, black) = new_game(&s, r#"{"time_control":"5+3","color":"white"}"#);
    for (cookie, m) in [
        (&white, "d4"),
        (&black, "d5"),
        (&white, "Nf3"),
        (&black, "Nc6"),
    ] {
        assert_eq!(http_move(&s, &id, cookie, m).status, 200, "{m}");
    }
    let r = call(
        &s,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&white),
        None,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    // Aborted after one move: not counted.
    let (id, white, _) = new_game(&s, r#"{"time_control":"5+3","color":"white"}"#);
    assert_eq!(http_move(&s, &id, &white, "g4").status, 200);
    let r = call(
        &s,
        "POST",
        &format!("/api/games/{id}/abort"),
        Some(&white),
        None,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let explore = |fen: &str| -> serde_json::Value {
        let q = fen.replace(' ', "%20").replace('/', "%2F");
        let r = call(&s, "GET", &format!("/api/explorer?fen={q}"), None, None);
        assert_eq!(r.status, 200, "{}", r.body);
        serde_json::from_str(&r.body).unwrap()
    };
    let start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let v = explore(start_fen);
    assert_eq!(
        (
            v["white"].as_i64(),
            v["draws"].as_i64(),
            v["black"].as_i64()
        ),
        (Some(1), Some(1), Some(2)),
        "{v}"
    );
    assert_eq!(v["moves"][0]["san"], "e4", "{v}");
    assert_eq!(
        (
            v["moves"][0]["white"].as_i64(),
            v["moves"][0]["draws"].as_i64()
        ),
        (Some(1), Some(1))
    );
    let sans: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap())
        .collect();
    assert_eq!(sans.len(), 3, "{v}");
    assert!(!sans.contains(&"g4"), "an aborted game is not counted: {v}");
    // After 1. Nf3 d5 2. d4 and 1. d4 d5 2. Nf3: one position, two games, two moves.
    let v = explore("rnbqkbnr/ppp1pppp/8/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R b KQkq - 1 2");
    assert_eq!(v["black"].as_i64(), Some(2), "{v}");
    let mut sans: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap())
        .collect();
    sans.sort_unstable();
    assert_eq!(sans, ["Nc6", "Nf6"], "{v}");
    let r = call(&s, "GET", "/api/explorer?fen=nonsense", None, None);
    assert_eq!(r.status, 400, "{}", r.body);
    drop(s);
}

#[test]
fn bad_requests_get_json_errors() {
    let (dir, url) = temp_url("bad");
    let s = start(&url);
    let r = call(
        &s,
        "POST",
        "/api/games",
        None,
        Some(r#"{"time_control":"5+x"}"#),
    );
    assert_eq!(
        (r.status, r.body.as_str()),
        (
            400,
            r#"{"error":"time control \"5+x\": increment must be a number","code":"bad_time_control"}"#
        )
    );
    let r = call(
        &s,
        "POST",
        "/api/games",
        None,
        Some(r#"{"time_control":"5+3","fen":"8/8/8 w - - 0 1"}"#),
    );
    assert_eq!(
        (r.status, r.body.as_str()),
        (
            400,
            r#"{"error":"bad FEN: the board has 3 ranks, not 8","code":"bad_fen"}"#
        )
    );
    let r = call(&s, "GET", "/api/games/nope", None, None);
    assert_eq!(
        (r.status, r.body.as_str()),
        (404, r#"{"error":"no such game","code":"not_found"}"#)
    );
    let big = format!(r#"{{"time_control":"{}"}}"#, "9".repeat(100_000));
    let r = call(&s, "POST", "/api/games", None, Some(&big));
    assert_eq!(r.status, 413, "{}", r.body);
    assert!(r.body.starts_with(r#"{"error":"#), "{}", r.body);
    // What a probe found: 422 where 400 is documented, plain-text errors, NUL bytes, an
    // 18,000-character time control, a game from a finished position.
    let json_error = |r: &common::Reply, status: u16| {
        assert_eq!(r.status, status, "{}", r.body);
        let v: serde_json::Value = serde_json::from_str(&r.body)
            .unwrap_or_else(|e| panic!("{e}: {} {:?}", r.status, r.body));
        assert!(
            v["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{}",
            r.body
        );
    };
    let create = |body: &str| call(&s, "POST", "/api/games", None, Some(body));
    json_error(&create(r#"{"time_control":5}"#), 400);
    json_error(&create(r#"{"color":"white"}"#), 400);
    let long = format!(r#"{{"time_control":"{}"}}"#, "40/90:".repeat(3000));
    let r = create(&long);
    json_error(&r, 400);
    assert!(r.body.contains("too long"), "{}", r.body);
    let mated = r#"{"time_control":"5+3","bot":3,"fen":"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"}"#;
    let r = create(mated);
    json_error(&r, 400);
    assert!(r.body.contains("over already (checkmate)"), "{}", r.body);
    let stalemate = r#"{"time_control":"5+3","bot":8,"fen":"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}"#;
    json_error(&create(stalemate), 400);
    json_error(&call(&s, "GET", "/api/nothing-here", None, None), 404);
    json_error(&call(&s, "DELETE", "/api/games", None, None), 405);
    json_error(&call(&s, "GET", "/api/games/%00", None, None), 404);
    json_error(&call(&s, "GET", "/game/export/a%00b", None, None), 404);
    let r = call(&s, "GET", "/api/games/user/a%00b", None, None);
    assert_eq!((r.status, r.body.as_str()), (200, ""));
    let (id, white, _) = new_game(&s, r#"{"time_control":"5+3"}"#);
    json_error(
        &call(
            &s,
            "GET",
            &format!("/game/export/{id}?clocks=maybe"),
            None,
            None,
        ),
        400,
    );
    json_error(
        &call(
            &s,
            "POST",
            &format!("/api/games/{id}/dance"),
            Some(&white),
            None,
        ),
        404,
    );
    json_error(
        &call(
            &s,
            "POST",
            "/api/import",
            None,
            Some("[White \"a\u{0}b\"]\n\n1. e4 *"),
        ),
        400,
    );
    let long_name = format!("[White \"{}\"]\n\n1. e4 *", "x".repeat(101));
    json_error(
        &call(&s, "POST", "/api/import", None, Some(&long_name)),
        400,
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn import_lists_and_player_exports() {
    let (dir, url) = temp_url("import");
    let s = start(&url);
    let pgn = "[White \"Anna\"]\n[Black \"Bo\"]\n[Result \"0-1\"]\n[TimeControl \"300+3\"]\n\n\
               1. f3 { [%clk 0:05:00] } e5 2. g4 Qh4# 0-1\n";
    let r = call(&s, "POST", "/api/import", None, Some(pgn));
    assert_eq!(r.status, 200, "{}", r.body);
    let id = field(&r.body, "id").to_owned();
    let exported = call(&s, "GET", &format!("/game/export/{id}"), None, None).body;
    assert!(
        exported.contains("[White \"Anna\"]")
            && exported.contains("1. f3 { [%clk 0:05:00] } 1... e5 2. g4 Qh4# 0-1"),
        "{exported}"
    );

    // An invalid game stores nothing and says where it went wrong.
    let bad = call(
        &s,
        "POST",
        "/api/import",
        None,
        Some("[White \"X\"]\n\n1. e4 e5 2. Ke3 *"),
    );
    assert_eq!(bad.status, 400);
    assert_eq!(
        bad.body,
        r#"{"error":"game 1 (X - ?), ply 3 (2. Ke3): no legal move matches Ke3","code":"bad_pgn"}"#
    );

    // The form field works as well as the raw body.
    let form = "pgn=%5BWhite%20%22Anna%22%5D%0A%0A1.%20e4%20e5%201-0";
    let mut raw = std::net::TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    use std::io::{Read, Write};
    write!(
        raw,
        "POST /api/import HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{form}",
        form.len()
    )
    .unwrap();
    let mut reply = String::new();
    raw.read_to_string(&mut reply).unwrap();
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");

    let all = call(&s, "GET", "/api/games/user/Anna", None, None).body;
    assert_eq!(all.matches("[Event ").count(), 2, "{all}");
    // A whole history comes in pages: `max` games, then the rest `after` the last one.
    let next_after = |r: &common::Reply| {
        r.head
            .lines()
            .find_map(|l| l.strip_prefix("x-next-after: "))
            .map(str::to_owned)
    };
    let first = call(&s, "GET", "/api/games/user/Anna?max=1", None, None);
    assert_eq!(first.body.matches("[Event ").count(), 1, "{}", first.body);
    let cursor = next_after(&first).expect("more games follow");
    assert!(
        first.body.contains(&format!("/game/{cursor}\"")),
        "{}",
        first.body
    );
    let second = call(
        &s,
        "GET",
        &format!("/api/games/user/Anna?max=1&after={cursor}"),
        None,
        None,
    );
    assert_eq!(second.body.matches("[Event ").count(), 1, "{}", second.body);
    assert_eq!(next_after(&second), None, "the last page says no more");
    assert_eq!(format!("{}{}", first.body, second.body), all);
    let live = call(
        &s,
        "POST",
        "/api/games",
        None,
        Some(r#"{"time_control":"3+2"}"#),
    );
    let live_id = field(&live.body, "id").to_owned();
    // Neither a finished game nor a game for a friend (reached by its link) is listed.
    let list = call(&s, "GET", "/api/games", None, None).body;
    assert!(!list.contains(&live_id) && !list.contains(&id), "{list}");
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_import_command_takes_valid_games_and_reports_the_rest() {
    let (dir, url) = temp_url("import-cli");
    let file = dir.join("games.pgn");
    std::fs::write(
        &file,
        "1. e4 e5 1-0\n\n1. e4 e5 2. Ke3 *\n\n[White \"Z\"]\n\n1. d4 d5 *\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rookery"))
        .args(["import", "--database-url", &url])
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    // An unfinished game (`*`, its moves ending nothing) is refused as the page refuses it
    // (issue 54): only finished games are imported.
    assert!(stdout.contains("rejected 2"), "{stdout}");
    assert!(stderr.contains("ply 3 (2. Ke3)"), "{stderr}");
    assert!(stderr.contains("the game is not finished"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}

/// A probe stored a PGN whose moves went on after fivefold repetition; its game, its export
/// and its player's whole export then failed. Imports are replayed through the rules (R4.4):
/// such a game is refused and nothing is stored.
#[test]
fn an_import_that_plays_on_past_fivefold_repetition_is_refused() {
    let (dir, url) = temp_url("import-fivefold");
    let s = start(&url);
    let shuffle = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 \
                   7. Nf3 Nf6 8. Ng1 Ng8";
    let pgn = format!("[White \"Probe\"]\n[Black \"Probe2\"]\n\n{shuffle} 9. e4 1-0\n");
    let refused = call(&s, "POST", "/api/import", None, Some(&pgn));
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(refused.body.contains("ply 17"), "{}", refused.body);
    let theirs = call(&s, "GET", "/api/games/user/Probe", None, None);
    assert_eq!((theirs.status, theirs.body.as_str()), (200, ""));
    // Stopped at the automatic end, the same game is taken as drawn by fivefold repetition,
    // whatever its result tag said; and a `*` game ending in mate is a win everywhere.
    let ended = call(
        &s,
        "POST",
        "/api/import",
        None,
        Some(&format!("{shuffle} 1-0\n")),
    );
    assert_eq!(ended.status, 200, "{}", ended.body);
    let game = call(
        &s,
        "GET",
        &format!("/api/games/{}", field(&ended.body, "id")),
        None,
        None,
    );
    assert_eq!(field(&game.body, "termination"), "fivefold repetition");
    assert_eq!(field(&game.body, "result"), "1/2-1/2");
    let mate = call(
        &s,
        "POST",
        "/api/import",
        None,
        Some("1. f3 e5 2. g4 Qh4# *\n"),
    );
    let id = field(&mate.body, "id").to_owned();
    let game = call(&s, "GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(field(&game.body, "result"), "0-1");
    let pgn = call(&s, "GET", &format!("/game/export/{id}"), None, None);
    assert!(pgn.body.contains("[Result \"0-1\"]"), "{}", pgn.body);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
