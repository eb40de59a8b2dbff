//! TV (`/api/tv`, `/tv`): the live game with the most spectators is picked (rated games
//! between accounts first, by rating); a game just ended gives way (told by the page, or
//! over); nothing live is `null`.

mod common;

use common::ws::{connect, next};
use common::{call, http_move, new_game, start_with, temp_url};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tv_picks_the_largest_audience_and_moves_on() {
    let (dir, url) = temp_url("tv");
    let s = start_with(&url, &["--rate-limits", "off"]);
    let tv = |after: &str| {
        let path = if after.is_empty() {
            "/api/tv".to_owned()
        } else {
            format!("/api/tv?after={after}")
        };
        let r = call(&s, "GET", &path, None, None);
        assert_eq!(r.status, 200, "{}", r.body);
        serde_json::from_str::<serde_json::Value>(&r.body).unwrap()
    };
    assert_eq!(tv(""), serde_json::Value::Null, "nothing live: null");
    // Two games under way (a game between two seats with a move), A older than B.
    let (a, a_white, _) = new_game(&s, r#"{"time_control":"5+3","color":"white"}"#);
    // Creation times are in milliseconds: B is surely the newer.
    std::thread::sleep(std::time::Duration::from_millis(5));
    let (b, b_white, _) = new_game(&s, r#"{"time_control":"5+3","color":"white"}"#);
    for (id, white) in [(&a, &a_white), (&b, &b_white)] {
        assert_eq!(http_move(&s, id, white, "e4").status, 200);
    }
    assert_eq!(tv("")["id"], b.as_str(), "no audience anywhere: the newest");
    // A spectator on A: A is picked, with its audience.
    let mut fan = connect(s.port, &a, None, None).await;
    assert_eq!(next(&mut fan).await["t"], "state");
    let mut picked = serde_json::Value::Null;
    for _ in 0..40 {
        picked = tv("");
        if picked["id"] == a.as_str() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(picked["id"], a.as_str(), "{picked}");
    assert_eq!(picked["watchers"], 1);
    assert_eq!(picked["time_control"], "5+3");
    // The page's "after": A ended a moment ago, so B.
    assert_eq!(tv(&a)["id"], b.as_str());
    // A rated game between two accounts, with nobody watching, goes first (by rating).
    let token = |name: &str| {
        assert!(common::agent::user_command(&url, &["create", name], "a good password\n").0);
        let (ok, out) =
            common::agent::user_command(&url, &["token", name, "--scopes", "board:play"], "");
        assert!(ok, "{out}");
        format!("Bearer {}", out.trim())
    };
    let (anna, bo) = (token("anna"), token("bo"));
    let as_ = |who: &str, path: &str, body: Option<&str>| {
        let mut headers = vec![("Authorization", who)];
        if body.is_some() {
            headers.push(("Content-Type", "application/json"));
        }
        common::request_with(&s, "POST", path, &headers, body).unwrap()
    };
    let made = as_(
        &anna,
        "/api/games",
        Some(r#"{"time_control":"5+3","color":"white","rated":true}"#),
    );
    assert_eq!(made.status, 201, "{}", made.body);
    let rated = common::field(&made.body, "id").to_owned();
    assert_eq!(
        as_(&bo, &format!("/api/games/{rated}/join"), None).status,
        200
    );
    let moved = as_(
        &anna,
        &format!("/api/games/{rated}/move"),
        Some(r#"{"m":"e4"}"#),
    );
    assert_eq!(moved.status, 200, "{}", moved.body);
    let mut picked = serde_json::Value::Null;
    for _ in 0..40 {
        picked = tv("");
        if picked["id"] == rated.as_str() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(
        picked["id"],
        rated.as_str(),
        "rated first, over A's audience: {picked}"
    );
    assert_eq!(picked["white_rating"], 1500, "{picked}");
    // A new account's rating is provisional: TV says so, as the game page does ("1500?").
    assert_eq!(picked["white_provisional"], true, "{picked}");
    // It ends (resigned): TV gives way to A, the largest audience left.
    let replied = as_(
        &bo,
        &format!("/api/games/{rated}/move"),
        Some(r#"{"m":"e5"}"#),
    );
    assert_eq!(replied.status, 200, "{}", replied.body);
    let resigned = as_(&anna, &format!("/api/games/{rated}/resign"), None);
    assert_eq!(resigned.status, 200, "{}", resigned.body);
    assert_eq!(tv("")["id"], a.as_str(), "a game that ended gives way");
    let page = call(&s, "GET", "/tv", None, None);
    assert_eq!(page.status, 200);
    assert!(page.body.contains("/static/tv-page.js"), "{}", page.body);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
