//! Game chat (docs/API.md): the players' room and the spectators' room, each seen only by its
//! own audience on the game socket; lines checked, stored, rate-limited.

mod common;

use common::agent::{Browser, signup};
use common::ws::{connect, next};
use common::{call, new_game, start_with, temp_url};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_and_spectators_each_see_their_own_chat() {
    let (dir, url) = temp_url("chat");
    let s = start_with(&url, &["--trust-proxy"]);
    let (id, white, black) = new_game(&s, r#"{"time_control":"5+3","color":"white"}"#);
    let mut fan = Browser::at("10.3.0.1");
    assert_eq!(signup(&s, &mut fan, "fan", "a fan's password").status, 303);
    let session = fan.cookie_header();
    let mut black_ws = connect(s.port, &id, Some(&black), None).await;
    let mut fan_ws = connect(s.port, &id, Some(&session), None).await;
    assert_eq!(next(&mut black_ws).await["t"], "state");
    assert_eq!(next(&mut fan_ws).await["t"], "state");
    let post = |cookie: &str, text: &str| {
        call(
            &s,
            "POST",
            &format!("/api/games/{id}/chat"),
            Some(cookie),
            Some(&serde_json::json!({ "text": text }).to_string()),
        )
    };
    // A player's line reaches the players, not the spectators.
    let r = post(&white, "good luck <script>alert(1)</script>");
    assert_eq!(r.status, 200, "{}", r.body);
    let f = next(&mut black_ws).await;
    assert_eq!(f["t"], "chat", "{f}");
    assert_eq!(f["d"]["room"], "player");
    assert_eq!(
        f["d"]["text"], "good luck <script>alert(1)</script>",
        "kept as text"
    );
    // A spectator's line reaches the spectators, not the players: each socket's next chat
    // frame is its own room's.
    let r = fan.json(
        &s,
        &format!("/api/games/{id}/chat"),
        r#"{"text":"nice game"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let f = next(&mut fan_ws).await;
    assert_eq!(
        (f["d"]["room"].as_str(), f["d"]["text"].as_str()),
        (Some("spectator"), Some("nice game")),
        "{f}"
    );
    assert_eq!(post(&black, "thanks").status, 200);
    let f = next(&mut black_ws).await;
    assert_eq!(
        f["d"]["text"], "thanks",
        "the players never saw the spectators' line: {f}"
    );
    // The rooms' lists, as each audience reads them.
    let mine = call(
        &s,
        "GET",
        &format!("/api/games/{id}/chat"),
        Some(&white),
        None,
    )
    .body;
    assert!(
        mine.contains("good luck") && mine.contains("thanks") && !mine.contains("nice game"),
        "{mine}"
    );
    let theirs = fan.get(&s, &format!("/api/games/{id}/chat")).body;
    assert!(
        theirs.contains("nice game") && !theirs.contains("good luck"),
        "{theirs}"
    );
    // Refused: too long, more than one line, an anonymous spectator, a flood.
    let r = post(&white, &"x".repeat(141));
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(post(&white, "two\nlines").status, 400);
    // Issue 50: a right-to-left override makes a line read as something else.
    let r = post(&white, "gg \u{202E}sseccus\u{202C}");
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("text-direction"), "{}", r.body);
    let r = call(
        &s,
        "POST",
        &format!("/api/games/{id}/chat"),
        None,
        Some(r#"{"text":"hi"}"#),
    );
    assert_eq!(r.status, 403, "{}", r.body);
    // A flood from an address that has not written yet: docs/ACCOUNTS.md promises 5 lines,
    // then one a second. The first five pass, and no more than one a second since.
    let flood = |text: &str| {
        let body = serde_json::json!({ "text": text }).to_string();
        common::request_with(
            &s,
            "POST",
            &format!("/api/games/{id}/chat"),
            &[
                ("X-Forwarded-For", "10.9.9.9"),
                ("Cookie", white.as_str()),
                ("Content-Type", "application/json"),
            ],
            Some(&body),
        )
        .unwrap()
        .status
    };
    let started = std::time::Instant::now();
    let statuses: Vec<u16> = (0..10).map(|i| flood(&format!("spam {i}"))).collect();
    let seconds = started.elapsed().as_secs() as usize;
    assert_eq!(statuses[..5], [200; 5], "the burst of five: {statuses:?}");
    let passed = statuses.iter().filter(|s| **s == 200).count();
    assert!(
        passed <= 5 + seconds,
        "{passed} lines passed in {seconds} s: {statuses:?}"
    );
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 429),
        "{statuses:?}"
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_deletes_a_line_and_mutes_an_account() {
    use common::agent::{login, user_command};
    let (dir, url) = temp_url("chat-admin");
    let s = start_with(&url, &["--trust-proxy"]);
    let (id, _white, _black) = new_game(&s, r#"{"time_control":"5+3","color":"white"}"#);
    let mut fan = Browser::at("10.3.1.1");
    assert_eq!(
        signup(&s, &mut fan, "heckler", "a fan's password").status,
        303
    );
    let path = format!("/api/games/{id}/chat");
    assert_eq!(fan.json(&s, &path, r#"{"text":"rude words"}"#).status, 200);
    let (ok, out) = user_command(
        &url,
        &["create", "Club-Boss", "--admin"],
        "admin password\n",
    );
    assert!(ok, "{out}");
    let mut admin = Browser::at("10.3.1.2");
    assert_eq!(
        login(&s, &mut admin, "club-boss", "admin password").status,
        303
    );
    // The admin page lists the line with its game; deleting it hides it from everyone.
    let page = admin.get(&s, "/admin").body;
    assert!(page.contains("rude words") && page.contains(&id), "{page}");
    let line = page
        .split("data-line=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap()
        .to_owned();
    assert_eq!(
        fan.form(&s, &format!("/admin/chat/{line}/delete"), &[])
            .status,
        403
    );
    let r = admin.form(&s, &format!("/admin/chat/{line}/delete"), &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert!(!fan.get(&s, &path).body.contains("rude words"));
    assert!(!admin.get(&s, "/admin").body.contains("rude words"));
    assert_eq!(
        admin
            .form(&s, &format!("/admin/chat/{line}/delete"), &[])
            .status,
        404
    );
    // Muted, the account cannot write (403 chat_muted); unmuted, it can again.
    assert_eq!(admin.form(&s, "/admin/users/heckler/mute", &[]).status, 303);
    let r = fan.json(&s, &path, r#"{"text":"more"}"#);
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body.contains("chat_muted"), "{}", r.body);
    assert!(
        admin
            .get(&s, "/admin?q=heckler")
            .body
            .contains("/admin/users/heckler/unmute")
    );
    assert_eq!(
        admin.form(&s, "/admin/users/heckler/unmute", &[]).status,
        303
    );
    assert_eq!(fan.json(&s, &path, r#"{"text":"sorry"}"#).status, 200);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
