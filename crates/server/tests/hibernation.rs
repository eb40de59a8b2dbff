//! Sleeping games (issue 55): a game under way nobody is connected to gives its room up; it
//! is loaded again by a move, a socket (a player's or a spectator's), or when its time must be
//! kept; its clock runs on meanwhile (it is not downtime: docs/RULES.md R6), and its flag falls
//! on time with nobody there. A restart does not load the sleeping games whose time runs on
//! the calendar: 10,000 of them cost nothing until one is due or asked for.

mod common;

use std::time::{Duration, Instant};

use common::ws::{connect, next, send};
use common::{call, free_port, http_move, new_game, start_with, temp_url};

fn state(s: &common::Server, id: &str) -> serde_json::Value {
    let r = call(s, "GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(r.status, 200, "{}", r.body);
    serde_json::from_str(&r.body).unwrap()
}

fn white_ms(v: &serde_json::Value) -> i64 {
    v["clocks"]["white"].as_i64().unwrap()
}

async fn pool(url: &str) -> sqlx::AnyPool {
    sqlx::any::install_default_drivers();
    sqlx::AnyPool::connect(url).await.unwrap()
}

/// The game's stored waking time, while it sleeps.
async fn wake_at(pool: &sqlx::AnyPool, id: &str) -> Option<i64> {
    sqlx::query_scalar("SELECT wake_at FROM games WHERE id = $1")
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap()
}

/// Waits until game `id` sleeps: its waking time.
async fn asleep(pool: &sqlx::AnyPool, id: &str) -> i64 {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(at) = wake_at(pool, id).await {
            return at;
        }
        assert!(Instant::now() < until, "game {id} never slept");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A figure of the server's `/metrics`.
fn metric(port: u16, name: &str) -> i64 {
    let r = common::request_at(port, "GET", "/metrics", &[], None).expect("metrics");
    r.body
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .unwrap_or_else(|| panic!("{name} in {}", r.body))
        .parse()
        .unwrap()
}

/// Waits until `n` rooms are open (a sleeping room's task ends once its waking time is
/// stored).
async fn rooms_open(metrics: u16, n: i64) {
    let until = Instant::now() + Duration::from_secs(5);
    while metric(metrics, "rookery_rooms") != n {
        assert!(Instant::now() < until, "a room stays open");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sleeping_game_keeps_its_clock_wakes_when_asked_and_its_flag_falls_on_time() {
    let (dir, url) = temp_url("sleep");
    let metrics = free_port();
    let s = start_with(
        &url,
        &[
            "--hibernate-after",
            "0.3",
            "--metrics-listen",
            &format!("127.0.0.1:{metrics}"),
        ],
    );
    let db = pool(&url).await;

    // A 15-second game left alone after 1.e4 e5: White's clock runs, nobody is there.
    let (id, white, black) = new_game(&s, r#"{"time_control":"0.25+0","color":"white"}"#);
    assert_eq!(http_move(&s, &id, &white, "e4").status, 200);
    assert_eq!(http_move(&s, &id, &black, "e5").status, 200);
    let at_e5: i64 = sqlx::query_scalar("SELECT at_ms FROM moves WHERE game_id = $1 AND ply = 2")
        .bind(&id)
        .fetch_one(&db)
        .await
        .unwrap();
    let white_left = white_ms(&state(&s, &id));
    let wake = asleep(&db, &id).await;
    rooms_open(metrics, 0).await;
    assert!(metric(metrics, "rookery_rooms_slept_total") >= 1);
    // It wakes for White's flag: when White's clock, running since 1...e5, runs out.
    let flag = at_e5 + white_left;
    assert!(
        (wake - flag).abs() < 1_000,
        "wakes at {wake}, the flag at {flag}"
    );
    // Its clock ran on while it slept: a sleep is not downtime (a restart would have
    // given White the time back).
    tokio::time::sleep(Duration::from_secs(2)).await;
    let later = white_ms(&state(&s, &id));
    assert!(
        white_left - later >= 1_900,
        "White's clock {white_left} -> {later} ms over two seconds asleep"
    );
    // Nobody does anything: the flag falls on time, with the room loaded for it.
    let until = Instant::now() + Duration::from_secs(30);
    let over = loop {
        let v = state(&s, &id);
        if v["status"] != "live" {
            break v;
        }
        assert!(Instant::now() < until, "the flag never fell: {v}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(
        (over["result"].as_str(), over["termination"].as_str()),
        (Some("0-1"), Some("time forfeit")),
        "{over}"
    );
    let finished: i64 = sqlx::query_scalar("SELECT finished_at FROM games WHERE id = $1")
        .bind(&id)
        .fetch_one(&db)
        .await
        .unwrap();
    assert!(
        (0..1_000).contains(&(finished - wake)),
        "the flag fell {} ms after its time",
        finished - wake
    );

    // Another game sleeps and wakes for a move over HTTP, with every move it had.
    let (id, white, black) = new_game(&s, r#"{"time_control":"5+3","color":"white"}"#);
    assert_eq!(http_move(&s, &id, &white, "e4").status, 200);
    assert_eq!(http_move(&s, &id, &black, "c5").status, 200);
    asleep(&db, &id).await;
    let played = http_move(&s, &id, &white, "Nf3");
    assert_eq!(played.status, 200, "{}", played.body);
    assert_eq!(wake_at(&db, &id).await, None, "awake again");
    // ... for a player's socket: the state has the moves, and a move over it is acknowledged.
    asleep(&db, &id).await;
    let mut b = connect(s.port, &id, Some(&black), None).await;
    let first = next(&mut b).await;
    assert_eq!(first["t"], "state", "{first}");
    assert_eq!(first["d"]["san"], serde_json::json!(["e4", "c5", "Nf3"]));
    send(&mut b, r#"{"t":"move","d":{"u":"d7d6","a":1}}"#).await;
    loop {
        let f = next(&mut b).await;
        assert_ne!(f["t"], "error", "{f}");
        if f["t"] == "ack" {
            break;
        }
    }
    drop(b);
    // ... and for a spectator's.
    asleep(&db, &id).await;
    // The finished game's room lingers (for a rematch); this one's is gone.
    rooms_open(metrics, 1).await;
    let mut watcher = connect(s.port, &id, None, None).await;
    let seen = next(&mut watcher).await;
    assert_eq!(seen["t"], "state", "{seen}");
    assert_eq!(seen["d"]["san"].as_array().map(Vec::len), Some(4));
    assert_eq!(metric(metrics, "rookery_rooms"), 2);
    // While someone is there, the room stays awake.
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(wake_at(&db, &id).await, None);
    assert_eq!(metric(metrics, "rookery_rooms"), 2);
    drop(watcher);
    db.close().await;
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// How many sleeping correspondence games the restart test makes.
const SLEEPING: i64 = 10_000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_leaves_sleeping_correspondence_games_asleep_until_due() {
    let (dir, url) = temp_url("sleep-restart");
    let metrics = free_port();
    let args = [
        "--hibernate-after",
        "0.3",
        "--metrics-listen",
        &format!("127.0.0.1:{metrics}"),
    ];
    let s = start_with(&url, &args);
    let db = pool(&url).await;
    // One real correspondence game, asleep after 1.e4 e5 ...
    let (id, white, black) = new_game(&s, r#"{"time_control":"3d","color":"white"}"#);
    assert_eq!(http_move(&s, &id, &white, "e4").status, 200);
    assert_eq!(http_move(&s, &id, &black, "e5").status, 200);
    let wake = asleep(&db, &id).await;
    drop(s);
    // ... copied 10,000 times while the server is down; the last 20 copies' moves were
    // made four days ago, so their flags (three days a move) fell meanwhile.
    let columns: Vec<String> = sqlx::query_scalar("SELECT name FROM pragma_table_info('games')")
        .fetch_all(&db)
        .await
        .unwrap();
    let copied: Vec<String> = columns
        .iter()
        .map(|c| match c.as_str() {
            "id" => "$1 || n".to_owned(),
            other => format!("g.{other}"),
        })
        .collect();
    let mut tx = db.begin().await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < $2) \
         INSERT INTO games ({}) SELECT {} FROM games g, seq WHERE g.id = $3",
        columns.join(", "),
        copied.join(", ")
    )))
    .bind("c")
    .bind(SLEEPING)
    .bind(&id)
    .execute(&mut *tx)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO moves (game_id, ply, uci, san, clock_ms, at_ms, elapsed_ms, lag_ms) \
         SELECT g.id, m.ply, m.uci, m.san, m.clock_ms, m.at_ms, m.elapsed_ms, m.lag_ms \
         FROM moves m, games g WHERE m.game_id = $1 AND g.id LIKE 'c%'",
    )
    .bind(&id)
    .execute(&mut *tx)
    .await
    .unwrap();
    let late: Vec<String> = (SLEEPING - 19..=SLEEPING)
        .map(|n| format!("c{n}"))
        .collect();
    const DAY_MS: i64 = 24 * 3_600_000;
    for late in &late {
        sqlx::query("UPDATE moves SET at_ms = at_ms - $1 WHERE game_id = $2")
            .bind(4 * DAY_MS)
            .bind(late)
            .execute(&mut *tx)
            .await
            .unwrap();
        sqlx::query("UPDATE games SET wake_at = $1 WHERE id = $2")
            .bind(wake - 4 * DAY_MS)
            .bind(late)
            .execute(&mut *tx)
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();

    let started = Instant::now();
    let s = start_with(&url, &args);
    let up = started.elapsed();
    // The overdue ones are woken and flagged; the others stay asleep: no room each.
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let over: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM games WHERE id LIKE 'c%' AND termination = 'time forfeit'",
        )
        .fetch_one(&db)
        .await
        .unwrap();
        if over == 20 {
            break;
        }
        assert!(Instant::now() < until, "{over} of 20 late flags fell");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let rooms = metric(metrics, "rookery_rooms");
    let rss_kib: i64 = std::fs::read_to_string(format!("/proc/{}/status", s.child.id()))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .unwrap()
        .trim()
        .trim_end_matches(" kB")
        .parse()
        .unwrap();
    eprintln!(
        "restart with {} sleeping games: up in {:.2} s, {rooms} rooms, RSS {:.1} MiB",
        SLEEPING + 1,
        up.as_secs_f64(),
        rss_kib as f64 / 1024.0
    );
    assert!(
        rooms <= 20,
        "{rooms} rooms: the sleeping games were loaded at start"
    );
    // One of them asked for wakes as it was, its days intact.
    let v = state(&s, "c5000");
    assert_eq!(v["status"], "live", "{v}");
    assert!(white_ms(&v) > 3 * DAY_MS - 60_000, "{v}");
    let cookie = format!("rk_c5000={}", white.split('=').nth(1).unwrap());
    let played = http_move(&s, "c5000", &cookie, "Nf3");
    assert_eq!(played.status, 200, "{}", played.body);
    assert_eq!(wake_at(&db, "c5000").await, None);
    db.close().await;
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
