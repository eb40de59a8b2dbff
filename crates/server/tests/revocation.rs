//! Revoking a credential closes what was opened with it (issue 50: after log-out everywhere
//! the old cookie got 401, yet a game socket opened before still moved): log-out (here or
//! everywhere), a password change or reset, closing the account and revoking a token close
//! the sockets and streams opened with them, on every node (the revocation goes round with
//! the account's events).

mod common;

use std::time::Duration;

use futures_util::StreamExt;
use tokio::io::AsyncReadExt;
use tokio_tungstenite::tungstenite::Message;

use common::agent::{Browser, signup, user_command};
use common::{start_with, temp_url};

/// Whether the server closes `ws` within a few seconds, and the reason it gives.
async fn closed_by_server(ws: &mut common::ws::Ws) -> Option<String> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        match tokio::time::timeout_at(deadline, ws.next()).await {
            Err(_) => return None,
            Ok(None | Some(Err(_))) => return Some(String::new()),
            Ok(Some(Ok(Message::Close(frame)))) => {
                return Some(frame.map(|f| f.reason.to_string()).unwrap_or_default());
            }
            Ok(Some(Ok(_))) => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_out_everywhere_closes_the_game_socket_opened_with_the_session() {
    let (dir, url) = temp_url("revoke_socket");
    let s = start_with(&url, &["--trust-proxy"]);
    let mut anna = Browser::at("10.9.0.1");
    assert_eq!(signup(&s, &mut anna, "anna", "anna's password").status, 303);
    let made = anna.json(
        &s,
        "/api/games",
        r#"{"time_control":"10+5","color":"white"}"#,
    );
    assert_eq!(made.status, 201, "{}", made.body);
    anna.keep(&made);
    let id = common::field(&made.body, "id").to_owned();
    let mut ws = common::ws::connect(s.port, &id, Some(&anna.cookie_header()), None).await;
    let first = common::ws::next(&mut ws).await;
    assert_eq!(first["t"], "state", "{first}");
    // Another socket of the same game, opened without the session, stays.
    let mut guest = common::ws::connect(s.port, &id, None, None).await;
    common::ws::next(&mut guest).await;
    let r = anna.form(&s, "/account/logout-everywhere", &[]);
    assert_eq!(r.status, 303);
    let reason = closed_by_server(&mut ws).await;
    assert_eq!(
        reason.as_deref(),
        Some("logged out"),
        "the session's socket closes"
    );
    assert_eq!(
        closed_by_server(&mut guest).await,
        None,
        "a guest's socket stays"
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// Reads an NDJSON answer until it ends (`true`) or 10 s pass (`false`).
async fn ends(stream: &mut tokio::net::TcpStream) -> bool {
    let mut buffer = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let mut seen = Vec::new();
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buffer)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(n)) => {
                seen.extend_from_slice(&buffer[..n]);
                // The chunked body's last chunk.
                if seen.ends_with(b"\r\n0\r\n\r\n") {
                    return true;
                }
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revoked_token_ends_the_streams_opened_with_it() {
    let (dir, url) = temp_url("revoke_stream");
    let s = start_with(&url, &[]);
    assert!(user_command(&url, &["create", "bo"], "a good password\n").0);
    let token = |scopes: &str| {
        let (ok, out) = user_command(&url, &["token", "bo", "--scopes", scopes], "");
        assert!(ok, "{out}");
        out.trim().to_owned()
    };
    let (revoked, kept) = (token("board:play"), token("board:play"));
    let open = |token: String| async move {
        let (status, stream) = common::ws::event_stream(s.port, &token).await;
        assert_eq!(status, 200);
        stream
    };
    let mut first = open(revoked.clone()).await;
    let mut second = open(kept).await;
    let r = common::request_with(
        &s,
        "DELETE",
        "/api/token",
        &[("Authorization", &format!("Bearer {revoked}"))],
        None,
    )
    .unwrap();
    assert_eq!(r.status, 204, "{}", r.body);
    assert!(ends(&mut first).await, "the revoked token's stream ends");
    assert!(!ends(&mut second).await, "another token's stream goes on");
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
