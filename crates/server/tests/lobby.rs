//! The lobby beyond two people: cancelling a seek, playing a bot (its moves go through the
//! room like a person's, judged by the core), and rematches (both agree, colors swap, a new
//! game id).

mod common;

use std::time::{Duration, Instant};

use rookery_core::Position;

use common::{Server, call, field, http_move, new_game, start, start_with, temp_url};

/// Polls the game's state until `done` holds on its JSON body (bots think a human-like
/// moment first).
fn wait_for(s: &Server, id: &str, cookie: Option<&str>, done: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let state = call(s, "GET", &format!("/api/games/{id}"), cookie, None);
        if done(&state.body) {
            return state.body;
        }
        assert!(Instant::now() < deadline, "gave up waiting: {}", state.body);
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn json(body: &str) -> serde_json::Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// A legal move in the game's position, chosen by the core from its FEN (a bot varies its
/// openings, so a fixed list of replies can all be illegal: after a check, say). It is one
/// that leaves the bot no mate in one, so the game is still live when the test looks.
fn a_legal_move(state: &str) -> String {
    let fen = json(state)["fen"].as_str().unwrap_or_default().to_owned();
    let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{e}: {state}"));
    let moves = pos.legal_moves();
    let safe = moves.iter().find(|&&m| {
        let next = pos.after(m);
        !next
            .legal_moves()
            .iter()
            .any(|&r| next.after(r).is_checkmate())
    });
    safe.or(moves.first())
        .unwrap_or_else(|| panic!("no legal move in {state}"))
        .to_uci()
        .to_string()
}

fn moves_in(state: &str) -> usize {
    json(state)["san"].as_array().map_or(0, Vec::len)
}

#[test]
fn a_seek_can_be_cancelled_by_its_creator_until_someone_joins() {
    let (dir, url) = temp_url("cancel");
    let s = start(&url);
    let created = call(
        &s,
        "POST",
        "/api/games",
        None,
        Some(r#"{"time_control":"3+2"}"#),
    );
    let id = field(&created.body, "id").to_owned();
    let cookie = created.cookie.unwrap();
    let cancelled = call(
        &s,
        "POST",
        &format!("/api/games/{id}/abort"),
        Some(&cookie),
        None,
    );
    assert_eq!(cancelled.status, 200, "{}", cancelled.body);
    assert!(!call(&s, "GET", "/api/games", None, None).body.contains(&id));
    let late = call(&s, "POST", &format!("/api/games/{id}/join"), None, None);
    assert_eq!(
        (late.status, late.body.as_str()),
        (409, r#"{"error":"the game is over","code":"game_over"}"#)
    );
    let state = call(&s, "GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(field(&state.body, "termination"), "aborted");
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_bot_answers_every_move_through_the_room_and_cannot_be_unseated() {
    let (dir, url) = temp_url("bot");
    let s = start(&url);
    // Bad levels are refused.
    for bad in [r#""bot":0"#, r#""bot":9"#] {
        let body = format!(r#"{{"time_control":"untimed",{bad}}}"#);
        let r = call(&s, "POST", "/api/games", None, Some(&body));
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(r.body.contains("choose 1 to 8"), "{}", r.body);
    }
    // The human plays black: the bot (white) moves first, by itself.
    let created = call(
        &s,
        "POST",
        "/api/games",
        None,
        Some(r#"{"time_control":"5+0","color":"black","bot":2}"#),
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let id = field(&created.body, "id").to_owned();
    let me = created.cookie.unwrap();
    let state = json(&call(&s, "GET", &format!("/api/games/{id}"), None, None).body);
    assert_eq!(state["white"], "Rookery bot level 2");
    assert_eq!(
        state["bots"],
        serde_json::json!({"white": 2, "black": null})
    );
    // Nobody can take the bot's seat.
    let join = call(&s, "POST", &format!("/api/games/{id}/join"), None, None);
    assert_eq!(join.status, 409, "{}", join.body);
    assert!(
        !call(&s, "GET", "/api/games", None, None)
            .body
            .contains(r#""open":true"#)
    );

    // Six plies: the bot's three answers come through the same path as a person's moves.
    for ply in [1, 3, 5] {
        let state = wait_for(&s, &id, Some(&me), |b| moves_in(b) == ply);
        assert_eq!(json(&state)["turn"], "black");
        let reply = a_legal_move(&state);
        let r = http_move(&s, &id, &me, &reply);
        assert_eq!(r.status, 200, "{reply} in {state}: {}", r.body);
    }
    let state = json(&wait_for(&s, &id, Some(&me), |b| moves_in(b) == 7));
    assert_eq!(state["status"], "live");
    // The bot's clock ran while it thought (at least its human-like pause), and no more
    // than the whole budget.
    let white_ms = state["clocks"]["white"].as_u64().unwrap();
    assert!(white_ms < 300_000 && white_ms > 200_000, "{state}");
    let resign = call(
        &s,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&me),
        None,
    );
    assert_eq!(resign.status, 200, "{}", resign.body);

    // A rematch against a bot is agreed at once; colors swap.
    let again = call(
        &s,
        "POST",
        &format!("/api/games/{id}/rematch"),
        Some(&me),
        None,
    );
    assert_eq!(again.status, 201, "{}", again.body);
    assert_eq!(field(&again.body, "color"), "white");
    let next = field(&again.body, "id").to_owned();
    let cookie = again.cookie.unwrap();
    assert_eq!(http_move(&s, &next, &cookie, "e2e4").status, 200);
    let state = json(&wait_for(&s, &next, Some(&cookie), |b| moves_in(b) == 2));
    assert_eq!(state["black"], "Rookery bot level 2");
    assert_eq!(state["you"], "white");
    // After a restart the bot takes its seat again and goes on playing.
    drop(s);
    let s = start(&url);
    let state = call(
        &s,
        "GET",
        &format!("/api/games/{next}"),
        Some(&cookie),
        None,
    )
    .body;
    let reply = a_legal_move(&state);
    let r = http_move(&s, &next, &cookie, &reply);
    assert_eq!(r.status, 200, "{reply} in {state}: {}", r.body);
    wait_for(&s, &next, Some(&cookie), |b| moves_in(b) == 4);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_rematch_needs_both_players_and_swaps_colors() {
    let (dir, url) = temp_url("rematch");
    let s = start(&url);
    let (id, white, black) = new_game(&s, r#"{"time_control":"3+2","color":"white"}"#);
    let rematch = |cookie: Option<&str>| {
        call(
            &s,
            "POST",
            &format!("/api/games/{id}/rematch"),
            cookie,
            None,
        )
    };
    // Not while the game is on; never for a spectator.
    let early = rematch(Some(&white));
    assert_eq!(early.status, 409, "{}", early.body);
    assert!(
        early.body.contains("once the game is over"),
        "{}",
        early.body
    );
    assert_eq!(http_move(&s, &id, &white, "e4").status, 200);
    assert_eq!(http_move(&s, &id, &black, "e5").status, 200);
    let resign = call(
        &s,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&black),
        None,
    );
    assert_eq!(resign.status, 200);
    assert_eq!(rematch(None).status, 403);

    // White offers; asking twice changes nothing; black declines; white offers again.
    for _ in 0..2 {
        let offer = rematch(Some(&white));
        assert_eq!(
            (offer.status, offer.body.as_str()),
            (200, r#"{"offered":true}"#)
        );
    }
    let decline = call(
        &s,
        "POST",
        &format!("/api/games/{id}/decline-rematch"),
        Some(&black),
        None,
    );
    assert_eq!(decline.status, 200);
    assert_eq!(rematch(Some(&white)).body, r#"{"offered":true}"#);
    // Black agrees: a new game, colors swapped.
    let agreed = rematch(Some(&black));
    assert_eq!(agreed.status, 201, "{}", agreed.body);
    let next = field(&agreed.body, "id").to_owned();
    assert_ne!(next, id);
    assert_eq!(field(&agreed.body, "color"), "white");
    let new_white = agreed.cookie.unwrap();
    // White (now black) asks again and is seated in the same rematch.
    let seat = rematch(Some(&white));
    assert_eq!(seat.status, 200, "{}", seat.body);
    assert_eq!(
        (field(&seat.body, "id"), field(&seat.body, "color")),
        (next.as_str(), "black")
    );
    let new_black = seat.cookie.unwrap();
    let old = json(&call(&s, "GET", &format!("/api/games/{id}"), None, None).body);
    assert_eq!(old["rematch"], next.as_str());
    let state = call(
        &s,
        "GET",
        &format!("/api/games/{next}"),
        Some(&new_black),
        None,
    );
    let state = json(&state.body);
    assert_eq!(
        (state["you"].as_str(), state["time_control"].as_str()),
        (Some("black"), Some("180+2"))
    );
    assert_eq!(state["white"], old["black"]);
    // The old seats do not play the new game; the new ones do, each its own color.
    assert_eq!(http_move(&s, &next, &white, "e4").status, 403);
    assert_eq!(http_move(&s, &next, &new_black, "e4").status, 400);
    assert_eq!(http_move(&s, &next, &new_white, "e4").status, 200);
    assert_eq!(http_move(&s, &next, &new_black, "c5").status, 200);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// With `--uci-engine`, the external engine plays the bot's moves: the engine's own output
/// (copied by a wrapper script) shows it answered, and the bot played its `bestmove`. A
/// broken engine path falls back to the built-in search, and the log says so.
#[test]
fn bots_can_be_driven_by_an_external_uci_engine() {
    let Some(engine) = common::stockfish() else {
        use std::io::Write as _;
        let _ = std::io::stderr().write_all(
            b"SKIPPED: bots_can_be_driven_by_an_external_uci_engine (apt-get install stockfish)\n",
        );
        return;
    };
    let (dir, url) = temp_url("external");
    let wrapper = common::recording_engine(&dir, engine);
    let s = start_with(&url, &["--uci-engine", wrapper.to_str().unwrap()]);
    let created = call(
        &s,
        "POST",
        "/api/games",
        None,
        Some(r#"{"time_control":"3+2","color":"black","bot":8}"#),
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let id = field(&created.body, "id").to_owned();
    let me = created.cookie.unwrap();
    wait_for(&s, &id, Some(&me), |b| moves_in(b) == 1);
    let said = std::fs::read_to_string(dir.join("engine.out")).unwrap_or_default();
    let best = said
        .lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(|l| l.split_whitespace().next().unwrap_or("").to_owned())
        .next_back();
    let state = json(&call(&s, "GET", &format!("/api/games/{id}"), Some(&me), None).body);
    assert!(said.contains("id name Stockfish"), "the engine ran: {said}");
    assert_eq!(
        state["uci"][0].as_str(),
        best.as_deref(),
        "the bot played the engine's bestmove"
    );
    assert_eq!(http_move(&s, &id, &me, "g8f6").status, 200);
    wait_for(&s, &id, Some(&me), |b| moves_in(b) == 3);
    drop(s);
    // A path that is no engine: the bot still moves, by the built-in search, and says why.
    let log = dir.join("server.log");
    let s = common::start_logged(&url, &["--uci-engine", "/nonexistent/engine"], &log);
    let created = call(
        &s,
        "POST",
        "/api/games",
        None,
        Some(r#"{"time_control":"3+2","color":"black","bot":2}"#),
    );
    let id = field(&created.body, "id").to_owned();
    let me = created.cookie.unwrap();
    wait_for(&s, &id, Some(&me), |b| moves_in(b) == 1);
    drop(s);
    let said = std::fs::read_to_string(&log).unwrap();
    assert!(
        said.contains("external engine failed; using the built-in one"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// The resident memory of a process, in KiB (Linux).
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// A probe found each level-8 bot game took about 16 MB when it was created (150 games:
/// 215 MB -> 2.65 GB). A bot's search table is now taken only while it searches: idle
/// level-8 bot games cost little more than idle games of people.
#[test]
fn idle_bot_games_hold_no_search_table() {
    let (dir, url) = temp_url("bot-memory");
    // 800 games from one address: past the creation limit, which is not what is tested.
    let s = common::start_with(&url, &["--rate-limits", "off"]);
    let bot_game = r#"{"time_control":"5+3","color":"white","bot":8}"#;
    let people_game = r#"{"time_control":"5+3","color":"white"}"#;
    // Warm up: the first game of a kind loads what all share (the engine's tables).
    common::create(&s, bot_game);
    common::create(&s, people_game);
    let per_game = |body: &str| {
        let before = rss_kib(s.child.id());
        for _ in 0..400 {
            common::create(&s, body);
        }
        rss_kib(s.child.id()).saturating_sub(before) / 400
    };
    // The anchor, in the same run: idle games of people, waiting for a move as the bot
    // games wait for the person's.
    let people = per_game(people_game);
    let bots = per_game(bot_game);
    eprintln!("400 idle games: {people} KiB a game of people, {bots} KiB a level-8 bot game");
    // A search table each would add 16,384 KiB a game; a bot's seat may add a little (its
    // task, its channel), not a table: within 32 KiB of a game of people.
    assert!(
        bots < people + 32,
        "{bots} KiB a bot game, {people} KiB a game of people"
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
