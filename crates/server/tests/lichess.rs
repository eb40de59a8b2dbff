//! lichess's API (docs/API.md): the shapes existing programs read. Tokens and accounts here;
//! the berserk client test (`tests/python/berserk_test.py`) drives the rest.

mod common;

use common::agent::user_command;
use common::{Server, request_with, start_with, temp_url};

fn with_token(
    s: &Server,
    method: &str,
    path: &str,
    token: &str,
    body: Option<&str>,
) -> common::Reply {
    let auth = format!("Bearer {token}");
    let mut headers = vec![("Authorization", auth.as_str())];
    if body.is_some_and(|b| b.starts_with('{')) {
        headers.push(("Content-Type", "application/json"));
    }
    request_with(s, method, path, &headers, body).unwrap()
}

fn json(reply: &common::Reply) -> serde_json::Value {
    serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("{e}: {}", reply.body))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_and_accounts_answer_as_lichess_does() {
    let (dir, url) = temp_url("lichess");
    for name in ["Anna", "bo"] {
        assert!(user_command(&url, &["create", name], "a good password\n").0);
    }
    let token = |name: &str, scopes: &str| {
        let (ok, out) = user_command(&url, &["token", name, "--scopes", scopes], "");
        assert!(ok);
        out.trim().to_owned()
    };
    let anna = token("Anna", "board:play,challenge:read");
    let bo = token("bo", "board:play");
    let reader = token("bo", "preference:read");
    let s = start_with(&url, &[]);

    // POST /api/token/test: each token's scopes and account, null for an unknown one.
    let r = request_with(
        &s,
        "POST",
        "/api/token/test",
        &[("Content-Type", "text/plain")],
        Some(&format!("{anna},nope")),
    )
    .unwrap();
    let v = json(&r);
    assert_eq!(v[&anna]["scopes"], "board:play,challenge:read", "{v}");
    assert_eq!(v[&anna]["userId"], "anna");
    assert!(v[&anna]["expires"].is_null());
    assert!(v["nope"].is_null());

    // GET /api/account and /api/user/{name}.
    let v = json(&with_token(&s, "GET", "/api/account", &anna, None));
    assert_eq!(
        (v["id"].as_str(), v["username"].as_str()),
        (Some("anna"), Some("Anna"))
    );
    assert!(v["createdAt"].is_i64() && v["perfs"].is_object());
    let r = request_with(&s, "GET", "/api/account", &[], None).unwrap();
    assert_eq!(r.status, 401, "no token, no account");
    let v = json(&request_with(&s, "GET", "/api/user/BO", &[], None).unwrap());
    assert_eq!(v["username"], "bo");
    assert_eq!(
        request_with(&s, "GET", "/api/user/nobody", &[], None)
            .unwrap()
            .status,
        404
    );

    // A game between them: /api/account/playing and /api/users/status say so.
    let r = with_token(
        &s,
        "POST",
        "/api/games",
        &anna,
        Some(r#"{"time_control":"5+3","color":"white"}"#),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let id = common::field(&r.body, "id").to_owned();
    let r = with_token(&s, "POST", &format!("/api/games/{id}/join"), &bo, Some(""));
    assert_eq!(r.status, 200, "{}", r.body);
    let v = json(&with_token(&s, "GET", "/api/account/playing", &anna, None));
    let game = &v["nowPlaying"][0];
    assert_eq!(game["gameId"], id.as_str(), "{v}");
    assert_eq!(
        (game["color"].as_str(), game["isMyTurn"].as_bool()),
        (Some("white"), Some(true))
    );
    assert_eq!(game["opponent"]["username"], "bo");
    assert_eq!(game["speed"], "blitz");
    assert_eq!(game["secondsLeft"], 300);
    let v =
        json(&request_with(&s, "GET", "/api/users/status?ids=anna,bo,nobody", &[], None).unwrap());
    assert_eq!(v.as_array().unwrap().len(), 2, "{v}");
    assert_eq!(v[0]["playing"], true);

    // A token without a play scope cannot move; another account's token cannot touch the game.
    let r = with_token(
        &s,
        "POST",
        &format!("/api/games/{id}/move"),
        &reader,
        Some(r#"{"m":"e4"}"#),
    );
    assert_eq!(
        (r.status, common::field(&r.body, "code")),
        (403, "no_seat"),
        "{}",
        r.body
    );
    let r = with_token(
        &s,
        "POST",
        &format!("/api/games/{id}/move"),
        &bo,
        Some(r#"{"m":"e4"}"#),
    );
    assert_eq!(
        (r.status, common::field(&r.body, "code")),
        (400, "not_your_turn"),
        "not bo's move: {}",
        r.body
    );
    // A revoked token (DELETE /api/token, as lichess) is refused at once; so is any token of a
    // closed account.
    assert_eq!(
        with_token(&s, "DELETE", "/api/token", &reader, None).status,
        204
    );
    let r = with_token(&s, "GET", "/api/account", &reader, None);
    assert_eq!(
        (r.status, common::field(&r.body, "code")),
        (401, "bad_token")
    );
    assert_eq!(with_token(&s, "GET", "/api/account", &bo, None).status, 200);
    let (ok, _) = user_command(&url, &["close", "bo"], "");
    assert!(ok);
    let r = with_token(&s, "GET", "/api/account", &bo, None);
    assert_eq!(r.status, 401, "{}", r.body);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// The first NDJSON object of a stream (past the keep-alive newlines), and the connection.
fn first_line(s: &Server, path: &str, token: &str) -> (serde_json::Value, std::net::TcpStream) {
    use std::io::{BufRead, BufReader, Write};
    let mut conn = std::net::TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    write!(
        conn,
        "GET {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\r\n"
    )
    .unwrap();
    conn.set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    let mut reader = BufReader::new(conn.try_clone().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "the stream ended");
        let text = line.trim();
        // Chunked framing: a hex size line, then the data; skip sizes and blanks.
        if text.starts_with('{') {
            return (serde_json::from_str(text).unwrap(), conn);
        }
    }
}

/// A client that reconnects mid-game gets `gameFull` again, with the moves so far; a game
/// stream is only for the game's players.
#[test]
fn a_game_stream_starts_again_with_game_full() {
    let (dir, url) = temp_url("lichess-streams");
    for name in ["anna", "bo", "cy"] {
        assert!(user_command(&url, &["create", name], "a good password\n").0);
    }
    let token = |name: &str| {
        let (ok, out) = user_command(&url, &["token", name, "--scopes", "board:play"], "");
        assert!(ok);
        out.trim().to_owned()
    };
    let (anna, bo, cy) = (token("anna"), token("bo"), token("cy"));
    let s = start_with(&url, &[]);
    let r = with_token(
        &s,
        "POST",
        "/api/games",
        &anna,
        Some(r#"{"time_control":"5+3","color":"white"}"#),
    );
    let id = common::field(&r.body, "id").to_owned();
    assert_eq!(
        with_token(&s, "POST", &format!("/api/games/{id}/join"), &bo, Some("")).status,
        200
    );
    let path = format!("/api/board/game/stream/{id}");
    let (full, conn) = first_line(&s, &path, &anna);
    assert_eq!(full["type"], "gameFull");
    assert_eq!(full["state"]["moves"], "");
    drop(conn);
    let r = with_token(
        &s,
        "POST",
        &format!("/api/board/game/{id}/move/e2e4"),
        &anna,
        Some(""),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let (full, _conn) = first_line(&s, &path, &anna);
    assert_eq!(full["type"], "gameFull");
    assert_eq!(full["state"]["moves"], "e2e4", "{full}");
    let r = with_token(&s, "GET", &path, &cy, None);
    assert_eq!(r.status, 403, "not cy's game: {}", r.body);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 50: a `preference:read` token read the account page (session ids, user agents,
/// token ids), the challenges, and opened the event and game streams. Each token-reachable
/// read now checks its lichess scope, and the account page is a session's only.
#[test]
fn a_token_reads_only_what_its_scopes_allow() {
    let (dir, url) = temp_url("scopes");
    let s = start_with(&url, &["--rate-limits", "off"]);
    assert!(user_command(&url, &["create", "anna"], "a good password\n").0);
    let token = |scopes: &str| {
        let (ok, out) = user_command(&url, &["token", "anna", "--scopes", scopes], "");
        assert!(ok, "{out}");
        out.trim().to_owned()
    };
    let (narrow, reader, player) = (
        token("preference:read"),
        token("challenge:read"),
        token("board:play"),
    );
    for path in [
        "/api/challenge",
        "/api/stream/event",
        "/api/board/game/stream/nosuch",
    ] {
        let r = with_token(&s, "GET", path, &narrow, None);
        assert_eq!(r.status, 403, "{path}: {}", r.body);
        assert_eq!(json(&r)["code"], "not_allowed", "{path}");
    }
    assert_eq!(
        with_token(&s, "GET", "/api/challenge", &reader, None).status,
        200
    );
    // A token with the scope gets past it (this game does not exist).
    let r = with_token(&s, "GET", "/api/board/game/stream/nosuch", &player, None);
    assert_eq!(r.status, 404, "{}", r.body);
    // The account page lists no sessions or tokens to a token.
    let page = with_token(&s, "GET", "/account", &player, None);
    assert!(!page.body.contains("revoke-session"), "{}", page.body);
    assert!(!page.body.contains("/account/tokens/"), "{}", page.body);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 50: `POST /api/token/test` looked up 1,000 tokens a request, no account needed.
/// Each hundred tokens asked now costs one charge of the account door (30, then one a
/// second): a few requests of 900 tokens (as many as a 64 KiB body holds) spend it, and the
/// next is refused with 429.
#[test]
fn testing_many_tokens_costs_as_many_requests() {
    let (dir, url) = temp_url("token_test");
    let s = start_with(&url, &[]);
    let many: String = (0..900)
        .map(|i| format!("rkp_{i:064}"))
        .collect::<Vec<_>>()
        .join(",");
    let ask = || request_with(&s, "POST", "/api/token/test", &[], Some(&many)).unwrap();
    let statuses: Vec<u16> = (0..6).map(|_| ask().status).collect();
    assert_eq!(statuses[0], 200);
    assert!(statuses[3..].contains(&429), "{statuses:?}");
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 50: 2,000 challenges from one account to another in 2.6 s made her `/api/challenge`
/// answer 922 KB and her event stream replay all of them. As lichess, a new challenge takes
/// the place of the challenger's earlier one to the same account (which she hears cancelled),
/// so she sees one.
#[test]
fn a_second_challenge_to_the_same_account_replaces_the_first() {
    let (dir, url) = temp_url("challenge_flood");
    let s = start_with(&url, &["--rate-limits", "off"]);
    for name in ["anna", "bo"] {
        assert!(user_command(&url, &["create", name], "a good password\n").0);
    }
    let token = |name: &str, scopes: &str| {
        let (ok, out) = user_command(&url, &["token", name, "--scopes", scopes], "");
        assert!(ok, "{out}");
        out.trim().to_owned()
    };
    let (anna, bo) = (
        token("anna", "challenge:write"),
        token("bo", "challenge:read"),
    );
    let mut ids = Vec::new();
    for _ in 0..30 {
        let r = with_token(
            &s,
            "POST",
            "/api/challenge/bo",
            &anna,
            Some("clock.limit=300&clock.increment=3"),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        ids.push(json(&r)["id"].as_str().unwrap().to_owned());
    }
    let listed = json(&with_token(&s, "GET", "/api/challenge", &bo, None));
    let incoming = listed["in"].as_array().unwrap();
    assert_eq!(incoming.len(), 1, "{listed}");
    assert_eq!(incoming[0]["id"], ids[29].as_str());
    // The replaced ones cannot be accepted any more.
    let (ok, out) = user_command(&url, &["token", "bo", "--scopes", "challenge:write"], "");
    assert!(ok, "{out}");
    let r = with_token(
        &s,
        "POST",
        &format!("/api/challenge/{}/accept", ids[0]),
        out.trim(),
        None,
    );
    assert_eq!(r.status, 404, "{}", r.body);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
