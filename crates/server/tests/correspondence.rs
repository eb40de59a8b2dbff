//! Correspondence (docs/RULES.md R6): days a move on the calendar, kept across restarts, a
//! flag that fell while the server was down applied when it is back, and the player page's
//! "waiting for your move".

mod common;

use std::time::Duration;

use common::agent::{Browser, signup};
use common::{call, http_move, new_game, start, temp_url};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

fn state(s: &common::Server, id: &str) -> serde_json::Value {
    let r = call(s, "GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(r.status, 200, "{}", r.body);
    serde_json::from_str(&r.body).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn days_a_move_stand_across_restarts_and_a_late_flag_falls_on_return() {
    let (dir, url) = temp_url("correspondence");
    let s = start(&url);
    let (id, white, black) = new_game(&s, r#"{"time_control":"3d","color":"white"}"#);
    assert_eq!(http_move(&s, &id, &white, "e4").status, 200);
    assert_eq!(http_move(&s, &id, &black, "e5").status, 200);
    let before = state(&s, &id);
    assert_eq!(before["time_control"], "3d");
    let white_ms = |v: &serde_json::Value| v["clocks"]["white"].as_i64().unwrap();
    assert!((3 * DAY_MS - 5_000..=3 * DAY_MS).contains(&white_ms(&before)));
    // A restart: the days are intact (only the seconds that really passed are gone).
    drop(s);
    std::thread::sleep(Duration::from_millis(1500));
    let s = start(&url);
    let after = state(&s, &id);
    let passed = white_ms(&before) - white_ms(&after);
    assert!(
        (1_000..10_000).contains(&passed),
        "calendar time counts, downtime included: {passed} ms"
    );
    drop(s);
    // Down four days (the last move moved back on the calendar): on return, White's flag
    // has fallen.
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    sqlx::query("UPDATE moves SET at_ms = at_ms - $1 WHERE game_id = $2")
        .bind(4 * DAY_MS)
        .bind(&id)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let s = start(&url);
    let mut over = serde_json::Value::Null;
    for _ in 0..50 {
        over = state(&s, &id);
        if over["status"] != "live" {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(over["result"], "0-1", "{over}");
    assert_eq!(over["termination"], "time forfeit", "{over}");
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_player_page_lists_the_games_waiting_for_ones_move() {
    let (dir, url) = temp_url("waiting");
    let s = start(&url);
    let mut ada = Browser::at("10.4.0.1");
    assert_eq!(signup(&s, &mut ada, "ada", "ada's password").status, 303);
    // Two correspondence games of Ada's: in one it is her move, in the other not.
    let mut ids = Vec::new();
    for _ in 0..2 {
        let r = ada.json(&s, "/api/games", r#"{"time_control":"2d","color":"white"}"#);
        assert_eq!(r.status, 201, "{}", r.body);
        let id = common::field(&r.body, "id").to_owned();
        let joined = call(&s, "POST", &format!("/api/games/{id}/join"), None, None);
        ids.push((id, joined.cookie.unwrap()));
    }
    let (mine, _) = &ids[0];
    let (theirs, black) = &ids[1];
    assert_eq!(
        ada.json(&s, &format!("/api/games/{theirs}/move"), r#"{"m":"e4"}"#)
            .status,
        200
    );
    assert_eq!(http_move(&s, theirs, black, "e5").status, 200);
    assert_eq!(
        ada.json(&s, &format!("/api/games/{mine}/move"), r#"{"m":"d4"}"#)
            .status,
        200
    );
    // `theirs`: White (Ada) to move; `mine`: Black to move.
    let page = ada.get(&s, "/@/ada").body;
    let waiting = page
        .split("id=\"waiting\"")
        .nth(1)
        .expect("the list")
        .split("</section>")
        .next()
        .unwrap();
    assert!(waiting.contains(&format!("/game/{theirs}")), "{waiting}");
    assert!(!waiting.contains(&format!("/game/{mine}")), "{waiting}");
    assert!(
        waiting.contains("2 days a move") && waiting.contains("1d 23h"),
        "{waiting}"
    );
    // Someone else's view of Ada's page has no such list.
    let other = call(&s, "GET", "/@/ada", None, None).body;
    assert!(!other.contains("id=\"waiting\""));
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
