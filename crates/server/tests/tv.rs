//! TV (`/api/tv`, `/tv`): the live game with the most spectators is picked (rated games
//! between accounts first, by rating); a game just ended gives way; nothing live is `null`.

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
    let page = call(&s, "GET", "/tv", None, None);
    assert_eq!(page.status, 200);
    assert!(page.body.contains("/static/tv-page.js"), "{}", page.body);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
