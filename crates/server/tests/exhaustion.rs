//! Holding under exhaustion (issue 50): a client that never reads is disconnected with its
//! queue bounded, the server refuses connections past its cap with 503 before it runs out of
//! files and serves a fresh address again once some leave, and an IPv6 client counts by its
//! /64 (unit-tested in `http/serve.rs`).

mod common;

use std::time::{Duration, Instant};

use futures_util::SinkExt;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

use common::{start_with, temp_url};

/// A long legal line (random moves through the core), as the analysis board's `line` frame:
/// each answer to it is several kilobytes.
fn long_line() -> String {
    let mut pos = rookery_core::Position::new();
    let mut moves = Vec::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    while moves.len() < 400 {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let m = legal[(seed % legal.len() as u64) as usize];
        moves.push(format!("\"{}\"", m.to_uci()));
        pos.play_unchecked(m);
    }
    format!(r#"{{"t":"line","d":{{"moves":[{}]}}}}"#, moves.join(","))
}

/// The probe of issue 50: sockets that send lines and never read took the server from 116 MB
/// to 1.23 GB. Now the board's queue is bounded and a client that lets it fill is
/// disconnected: the socket below (its receive buffer small, never read) is closed by the
/// server, which an old build never did (its queue grew without end).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_client_that_never_reads_is_disconnected() {
    let (dir, url) = temp_url("never_reads");
    let s = start_with(&url, &["--write-timeout", "2"]);
    let mut ws = common::ws::board_socket(s.port, [127, 0, 0, 1], Some(4096)).await;
    let line = long_line();
    let started = Instant::now();
    let mut sent = 0;
    let closed = loop {
        if started.elapsed() > Duration::from_secs(90) {
            break false;
        }
        // Within the board's 20 frames a second: only the reading is missing.
        if ws.send(Message::Text(line.clone().into())).await.is_err() {
            break true;
        }
        sent += 1;
        tokio::time::sleep(Duration::from_millis(60)).await;
    };
    assert!(
        closed,
        "the server kept a client that never reads for 90 s ({sent} lines sent)"
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// One plain request from `from` (a loopback address): the answer's head, `None` when the
/// server closed the connection without one.
async fn ask(port: u16, from: [u8; 4]) -> Option<String> {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind((from, 0).into()).unwrap();
    let mut stream = socket.connect(([127, 0, 0, 1], port).into()).await.ok()?;
    stream
        .write_all(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .await
        .ok()?;
    let mut answer = Vec::new();
    let read = stream.read_to_end(&mut answer);
    tokio::time::timeout(Duration::from_secs(5), read)
        .await
        .ok()?
        .ok()?;
    let text = String::from_utf8_lossy(&answer).into_owned();
    (!text.is_empty()).then_some(text)
}

/// Opens `n` idle connections from `from` and keeps them.
async fn hold(port: u16, from: [u8; 4], n: usize) -> Vec<tokio::net::TcpStream> {
    let mut held = Vec::new();
    for _ in 0..n {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind((from, 0).into()).unwrap();
        held.push(socket.connect(([127, 0, 0, 1], port).into()).await.unwrap());
    }
    // The server admits them in the order they came.
    tokio::time::sleep(Duration::from_millis(300)).await;
    held
}

/// File handles ran out from ~80 addresses (20,000 streams), and the server stopped
/// accepting. Now the server holds at most its cap (here 8) and tells everyone past it 503
/// with `Retry-After`, so accepting never fails; a fresh address is served as soon as others
/// leave; one address past its own share is dropped at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_its_cap_the_server_answers_503_and_serves_again_once_others_leave() {
    let (dir, url) = temp_url("cap");
    let s = start_with(
        &url,
        &[
            "--max-connections",
            "8",
            "--max-connections-per-address",
            "4",
        ],
    );
    let first = hold(s.port, [127, 0, 0, 2], 4).await;
    // The address's own share is full: the next one from it is dropped with no answer.
    assert_eq!(ask(s.port, [127, 0, 0, 2]).await, None);
    let second = hold(s.port, [127, 0, 0, 3], 4).await;
    let busy = ask(s.port, [127, 0, 0, 4]).await.expect("an answer");
    assert!(busy.starts_with("HTTP/1.1 503"), "{busy}");
    assert!(busy.contains("Retry-After: 5"), "{busy}");
    assert!(busy.contains(r#""code":"unavailable""#), "{busy}");
    drop(first);
    let deadline = Instant::now() + Duration::from_secs(10);
    let served = loop {
        match ask(s.port, [127, 0, 0, 4]).await {
            Some(a) if a.starts_with("HTTP/1.1 200") => break true,
            _ if Instant::now() > deadline => break false,
            _ => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    };
    assert!(served, "a fresh address is served once others leave");
    drop(second);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 50: each `go` of the analysis board held one of the bots' search threads for up to
/// 20 s, and four anonymous boards made a level-1 bot lose a 1+0 game on time. Now the board
/// searches within its own budget and gives way to any bot waiting for a thread: with four
/// boards searching from four addresses, the bot answers each move with its clock nearly
/// whole (a bot kept behind one 20 s board search would have lost a third of its minute).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_board_never_keeps_a_bot_waiting() {
    use common::ws::{connect, next, send};
    let (dir, url) = temp_url("board_bot");
    let s = common::start(&url);
    let mut boards = Vec::new();
    for i in 0..4u8 {
        let mut ws = common::ws::board_socket(s.port, [127, 0, 0, 10 + i], None).await;
        let line = r#"{"t":"line","d":{"moves":["e2e4","e7e5","g1f3","b8c6","f1b5"]}}"#;
        ws.send(Message::Text(line.into())).await.unwrap();
        ws.send(Message::Text(r#"{"t":"go"}"#.into()))
            .await
            .unwrap();
        boards.push(ws);
    }
    // Let the boards take what they may.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (id, white, _) = common::create(&s, r#"{"time_control":"1+0","color":"white","bot":1}"#);
    let mut w = connect(s.port, &id, Some(&white), None).await;
    let mut least = Duration::MAX;
    for (i, m) in ["d2d4", "c2c4", "g1f3"].iter().enumerate() {
        send(
            &mut w,
            &format!(r#"{{"t":"move","d":{{"u":"{m}","a":{i}}}}}"#),
        )
        .await;
        loop {
            let f = next(&mut w).await;
            assert_ne!(f["t"], "error", "{f}");
            if f["t"] == "end" {
                panic!("the game ended: {f}");
            }
            if f["t"] == "move" && f["d"]["by"] == "black" {
                let left = f["d"]["clocks"]["black"].as_u64().expect("black's clock");
                least = least.min(Duration::from_millis(left));
                break;
            }
        }
    }
    assert!(
        least > Duration::from_secs(50),
        "the bot's clock fell to {least:?} of its minute behind the analysis boards"
    );
    drop(boards);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 50: 20,000 NDJSON streams opened with one token filled the open-file limit. Now an
/// account holds at most 16 streams: the next is refused with 429, and one closed frees its
/// place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_holds_a_bounded_number_of_streams() {
    use common::agent::user_command;
    let (dir, url) = temp_url("streams");
    let s = start_with(&url, &["--rate-limits", "off"]);
    assert!(user_command(&url, &["create", "anna"], "a good password\n").0);
    let (ok, out) = user_command(&url, &["token", "anna", "--scopes", "board:play"], "");
    assert!(ok, "{out}");
    let token = out.trim().to_owned();
    let mut open = Vec::new();
    for i in 0..16 {
        let (status, stream) = common::ws::event_stream(s.port, &token).await;
        assert_eq!(status, 200, "stream {i}");
        open.push(stream);
    }
    let (status, _) = common::ws::event_stream(s.port, &token).await;
    assert_eq!(status, 429, "the 17th stream");
    drop(open.pop());
    // The server notices the closed stream at its next write (a keep-alive line).
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, stream) = common::ws::event_stream(s.port, &token).await;
        if status == 200 {
            open.push(stream);
            break;
        }
        assert!(
            Instant::now() < deadline,
            "a closed stream's place never came back"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    drop(open);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 50: 3,000 level-8 bot games in 4 s, 6,000 never-ending games between two accounts
/// in 37 s (all reloaded at every restart). An account now plays at most 10 games against
/// bots and 100 in all at once: past them, 429 `rate_limited` with the reason, and nothing is
/// stored.
#[test]
fn an_account_plays_a_bounded_number_of_games_at_once() {
    use common::agent::user_command;
    let (dir, url) = temp_url("live_caps");
    let s = start_with(&url, &["--rate-limits", "off"]);
    assert!(user_command(&url, &["create", "anna"], "a good password\n").0);
    let (ok, out) = user_command(&url, &["token", "anna", "--scopes", "board:play"], "");
    assert!(ok, "{out}");
    let bearer = format!("Bearer {}", out.trim());
    let create = |body: &str| {
        common::request_with(
            &s,
            "POST",
            "/api/games",
            &[
                ("Authorization", bearer.as_str()),
                ("Content-Type", "application/json"),
            ],
            Some(body),
        )
        .unwrap()
    };
    let against_bot = r#"{"time_control":"untimed","color":"white","bot":1}"#;
    for i in 0..10 {
        assert_eq!(create(against_bot).status, 201, "bot game {i}");
    }
    let r = create(against_bot);
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(
        r.body.contains("rate_limited") && r.body.contains("bots"),
        "{}",
        r.body
    );
    let open = r#"{"time_control":"untimed","color":"white"}"#;
    for i in 10..100 {
        assert_eq!(create(open).status, 201, "game {i}");
    }
    let r = create(open);
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.body.contains("100 games"), "{}", r.body);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// The game's state once it is over, or after five seconds.
fn settled(s: &common::Server, id: &str) -> serde_json::Value {
    for _ in 0..50 {
        let v = game_state(s, id);
        if v["status"] != "live" {
            return v;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    game_state(s, id)
}

fn game_state(s: &common::Server, id: &str) -> serde_json::Value {
    let r = common::call(s, "GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(r.status, 200, "{}", r.body);
    serde_json::from_str(&r.body).unwrap()
}

/// The probe of issue 50 made 6,000 never-ending untimed games. As lichess, an untimed game
/// nobody moves in ends abandoned (no winner): after 6 hours against a bot, 21 days between
/// people, counted on the calendar from the last move (a restart does not reset it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn untimed_games_nobody_moves_in_end_abandoned_after_lichess_idle_time() {
    const HOUR_MS: i64 = 3600 * 1000;
    let (dir, url) = temp_url("idle_untimed");
    let s = common::start(&url);
    let (people, white, black) =
        common::new_game(&s, r#"{"time_control":"untimed","color":"white"}"#);
    assert_eq!(common::http_move(&s, &people, &white, "e4").status, 200);
    assert_eq!(common::http_move(&s, &people, &black, "e5").status, 200);
    let (bot, me, _) = common::create(&s, r#"{"time_control":"untimed","color":"white","bot":1}"#);
    assert_eq!(common::http_move(&s, &bot, &me, "e4").status, 200);
    let mut replied = false;
    for _ in 0..100 {
        if game_state(&s, &bot)["uci"].as_array().map_or(0, Vec::len) >= 2 {
            replied = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(replied, "the bot answers: the game has started");
    drop(s);
    // Seven hours pass with no move (the last moves moved back on the calendar).
    let back = |hours: i64, id: String| {
        let url = url.clone();
        async move {
            sqlx::any::install_default_drivers();
            let pool = sqlx::AnyPool::connect(&url).await.unwrap();
            sqlx::query("UPDATE moves SET at_ms = at_ms - $1 WHERE game_id = $2")
                .bind(hours * HOUR_MS)
                .bind(&id)
                .execute(&pool)
                .await
                .unwrap();
            pool.close().await;
        }
    };
    back(7, bot.clone()).await;
    back(7, people.clone()).await;
    let s = common::start(&url);
    let ended = settled(&s, &bot);
    assert_eq!(ended["result"], "1/2-1/2", "{ended}");
    assert_eq!(ended["termination"], "abandonment", "{ended}");
    // Between people seven hours is nothing: the game waits (and still takes a move).
    assert_eq!(game_state(&s, &people)["status"], "live");
    drop(s);
    // Three weeks and a day since the last move: over on return.
    back(21 * 24 + 1, people.clone()).await;
    let s = common::start(&url);
    let ended = settled(&s, &people);
    assert_eq!(ended["result"], "1/2-1/2", "{ended}");
    assert_eq!(ended["termination"], "abandonment", "{ended}");
    let pgn = common::call(&s, "GET", &format!("/game/export/{people}"), None, None);
    assert!(
        pgn.body.contains("[Termination \"Abandoned\"]"),
        "{}",
        pgn.body
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 50: guests have no account to count by, so guests from one address (an IPv6 /64
/// counts as one) run only so many games at once (`--guest-games-per-address`, 50 by
/// default; 8 here), half of them against bots; another address is served, and a finished
/// game frees its place. With `--rate-limits off` (a load test) the cap is off too.
#[test]
fn guests_from_one_address_run_only_so_many_games() {
    let (dir, url) = temp_url("guest_caps");
    let s = start_with(&url, &["--trust-proxy", "--guest-games-per-address", "8"]);
    let create = |s: &common::Server, from: &str, body: &str| {
        common::request_with(
            s,
            "POST",
            "/api/games",
            &[
                ("X-Forwarded-For", from),
                ("Content-Type", "application/json"),
            ],
            Some(body),
        )
        .unwrap()
    };
    let against_bot = r#"{"time_control":"untimed","color":"white","bot":1}"#;
    let open = r#"{"time_control":"untimed","color":"white"}"#;
    let mut first = None;
    for i in 0..4 {
        let r = create(&s, "203.0.113.7", against_bot);
        assert_eq!(r.status, 201, "bot game {i}: {}", r.body);
        first.get_or_insert((common::field(&r.body, "id").to_owned(), r.cookie.unwrap()));
    }
    let r = create(&s, "203.0.113.7", against_bot);
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.body.contains("4 games against bots"), "{}", r.body);
    for i in 4..8 {
        assert_eq!(create(&s, "203.0.113.7", open).status, 201, "game {i}");
    }
    let r = create(&s, "203.0.113.7", open);
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.body.contains("8 games already"), "{}", r.body);
    // Another address is served; a neighbour in the same IPv6 /64 is not.
    for _ in 0..8 {
        assert_eq!(create(&s, "2001:db8:1:2::1", open).status, 201);
    }
    assert_eq!(create(&s, "2001:db8:1:2:ffff::9", open).status, 429);
    assert_eq!(create(&s, "2001:db8:1:3::1", open).status, 201);
    // A game ended (aborted) frees its place.
    let (id, cookie) = first.unwrap();
    let r = common::call(
        &s,
        "POST",
        &format!("/api/games/{id}/abort"),
        Some(&cookie),
        None,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(create(&s, "203.0.113.7", open).status, 201);
    drop(s);
    // Limits off: no cap.
    let s = start_with(
        &url,
        &["--rate-limits", "off", "--guest-games-per-address", "8"],
    );
    for i in 0..12 {
        assert_eq!(create(&s, "203.0.113.7", open).status, 201, "game {i}");
    }
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
