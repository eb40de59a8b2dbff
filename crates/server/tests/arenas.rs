//! Arenas through lichess's arena API (docs/API.md "Arenas"): made, joined, paired again as
//! soon as a game ends (two players alone meet again), scored by lichess's rules (the rule by
//! rule tests are the pairing crate's `tests/arena.rs`), read back with their standings and
//! sheets, their games and results; and what the API refuses.

mod common;

use common::agent::{Browser, on_both, signup};
use common::{Server, start_with};
use serde_json::Value;

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|_| panic!("not JSON: {body}"))
}

/// The game `b` plays now in the arena (`nowPlaying`), waiting for the keeper to pair it.
fn current_game(s: &Server, b: &mut Browser, not: &[String]) -> (String, String) {
    let started = std::time::Instant::now();
    loop {
        let playing = json(&b.get(s, "/api/account/playing").body);
        if let Some(g) = playing["nowPlaying"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| !not.contains(&g["gameId"].as_str().unwrap().to_owned()))
        {
            return (
                g["gameId"].as_str().unwrap().to_owned(),
                g["color"].as_str().unwrap().to_owned(),
            );
        }
        assert!(started.elapsed().as_secs() < 30, "never paired");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn an_arena_scores_two_two_then_four_on_fire_plus_one_for_berserk() {
    on_both("arena-score", score);
}

/// Two accounts in an arena; the first wins three games (the other resigning after 2, 2 and
/// 7 moves each), berserk in the third: 2 + 2, then on fire 4, plus 1 for a berserk win of
/// 14 plies = 9, the other 0; both paired again after each game
/// (alone, they meet again). Its standings, sheets, results and games read back.
fn score(url: &str) {
    let s = start_with(url, &["--trust-proxy"]);
    let mut maker = Browser::at("10.7.0.1");
    let mut winner = Browser::at("10.7.0.2");
    let mut loser = Browser::at("10.7.0.3");
    for (b, name) in [
        (&mut maker, "maker"),
        (&mut winner, "winner"),
        (&mut loser, "loser"),
    ] {
        assert_eq!(signup(&s, b, name, "arena password").status, 303);
    }
    let r = maker.form(
        &s,
        "/api/tournament",
        &[
            ("name", "Evening Blitz"),
            ("clockTime", "3"),
            ("clockIncrement", "2"),
            ("minutes", "30"),
            ("waitMinutes", "0"),
            ("rated", "false"),
        ],
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let a = json(&r.body);
    let id = a["id"].as_str().unwrap().to_owned();
    assert_eq!(
        (
            &a["clock"]["limit"],
            &a["clock"]["increment"],
            &a["minutes"],
            &a["fullName"]
        ),
        (
            &180.into(),
            &2.into(),
            &30.into(),
            &"Evening Blitz Arena".into()
        )
    );
    for b in [&mut winner, &mut loser] {
        let r = b.json(&s, &format!("/api/tournament/{id}/join"), "{}");
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // The loser resigns after 2, 2 and 7 moves each: knights out and back.
    let mut done: Vec<String> = Vec::new();
    for moves_each in [2, 2, 7] {
        let (game, winner_colour) = current_game(&s, &mut winner, &done);
        let white_is_winner = winner_colour == "white";
        if moves_each == 7 {
            // The third game: the winner goes berserk before his first move (half his
            // clock, no increment), through lichess's Board API.
            let r = winner.json(&s, &format!("/api/board/game/{game}/berserk"), "{}");
            assert_eq!(r.status, 200, "{}", r.body);
            let again = winner.json(&s, &format!("/api/board/game/{game}/berserk"), "{}");
            assert!(
                again.body.contains("cannot_berserk"),
                "only once: {}",
                again.body
            );
            let g = json(&winner.get(&s, &format!("/api/games/{game}")).body);
            let clock = &g["clocks"][winner_colour.as_str()];
            assert_eq!(clock, 90_000, "half of 3 minutes: {g}");
        }
        for ply in 0..2 * moves_each {
            let m = match (ply % 2 == 0, ply / 2 % 2 == 0) {
                (true, true) => "g1f3",
                (true, false) => "f3g1",
                (false, true) => "g8f6",
                (false, false) => "f6g8",
            };
            let mover = if (ply % 2 == 0) == white_is_winner {
                &mut winner
            } else {
                &mut loser
            };
            let r = mover.json(
                &s,
                &format!("/api/games/{game}/move"),
                &format!(r#"{{"m":"{m}"}}"#),
            );
            assert_eq!(r.status, 200, "{game} {m}: {}", r.body);
        }
        let r = loser.json(&s, &format!("/api/games/{game}/resign"), "{}");
        assert_eq!(r.status, 200, "{}", r.body);
        done.push(game);
    }
    // Taken in by the keeper (or at once when read).
    let started = std::time::Instant::now();
    let a = loop {
        let a = json(&maker.get(&s, &format!("/api/tournament/{id}")).body);
        if a["standing"]["players"][0]["score"] == 9 {
            break a;
        }
        assert!(started.elapsed().as_secs() < 30, "{a}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    let players = a["standing"]["players"].as_array().unwrap();
    assert_eq!(players[0]["name"], "winner");
    assert_eq!(
        players[0]["sheet"]["scores"], "522",
        "most recent first: {a}"
    );
    assert_eq!(players[0]["sheet"]["fire"], true);
    assert_eq!(
        (&players[1]["name"], &players[1]["score"]),
        (&"loser".into(), &0.into())
    );
    assert_eq!(a["status"], 20);
    let results = maker.get(&s, &format!("/api/tournament/{id}/results")).body;
    let first = json(results.lines().next().unwrap());
    assert_eq!((&first["rank"], &first["score"]), (&1.into(), &9.into()));
    let pgn = maker.get(&s, &format!("/api/tournament/{id}/games")).body;
    assert_eq!(pgn.matches("[Event \"Evening Blitz\"]").count(), 3, "{pgn}");
    // The maker ends it; the fourth game (paired already) still counts when it ends.
    assert_eq!(
        winner
            .json(&s, &format!("/api/tournament/{id}/terminate"), "{}")
            .status,
        403
    );
    assert_eq!(
        maker
            .json(&s, &format!("/api/tournament/{id}/terminate"), "{}")
            .status,
        200
    );
    let a = json(&maker.get(&s, &format!("/api/tournament/{id}")).body);
    assert_eq!(
        (&a["status"], &a["isFinished"]),
        (&30.into(), &true.into()),
        "{a}"
    );
    assert_eq!(a["podium"][0]["name"], "winner");
    assert_eq!(a["podium"][0]["nb"]["win"], 3);
    assert_eq!(a["podium"][0]["nb"]["berserk"], 1);
    let lists = json(&maker.get(&s, "/api/tournament").body);
    assert!(
        lists["finished"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["id"] == id.as_str())
    );
    let mine = maker.get(&s, "/api/user/maker/tournament/created").body;
    assert!(mine.contains(&id));
    refusals(&s, &id);
}

/// Bad requests are named; nothing changes.
fn refusals(s: &Server, finished: &str) {
    let mut b = Browser::at("10.7.0.9");
    assert_eq!(signup(s, &mut b, "refused", "arena password").status, 303);
    for (fields, says) in [
        (vec![("minutes", "30")], "clockTime"),
        (vec![("clockTime", "3"), ("minutes", "0")], "minutes"),
        (vec![("clockTime", "3"), ("minutes", "9999")], "minutes"),
        (vec![("clockTime", "999"), ("minutes", "30")], "clockTime"),
        (
            vec![("clockTime", "3"), ("minutes", "30"), ("variant", "atomic")],
            "standard",
        ),
        (
            vec![
                ("clockTime", "3"),
                ("minutes", "30"),
                ("conditions.minRating.rating", "2000"),
                ("conditions.maxRating.rating", "1000"),
            ],
            "least rating",
        ),
    ] {
        let r = b.form(s, "/api/tournament", &fields);
        assert_eq!(r.status, 400, "{fields:?}: {}", r.body);
        assert!(r.body.contains(says), "{fields:?}: {}", r.body);
    }
    let r = b.json(s, &format!("/api/tournament/{finished}/join"), "{}");
    assert!(r.status == 400 && r.body.contains("over"), "{}", r.body);
    let r = b.json(s, &format!("/api/tournament/{finished}/withdraw"), "{}");
    assert!(
        r.status == 400 && r.body.contains("not in this arena"),
        "{}",
        r.body
    );
    assert_eq!(b.get(s, "/api/tournament/nosuch").status, 404);
    // Berserk is an arena's: not in a game of the lobby.
    let r = b.json(s, "/api/games", r#"{"time_control":"3+2","color":"white"}"#);
    assert_eq!(r.status, 201, "{}", r.body);
    let game = json(&r.body)["id"].as_str().unwrap().to_owned();
    let mut other = Browser::at("10.7.0.10");
    assert_eq!(
        other
            .json(s, &format!("/api/games/{game}/join"), "{}")
            .status,
        200
    );
    let r = b.json(s, &format!("/api/games/{game}/berserk"), "{}");
    assert!(
        r.status == 400 && r.body.contains("cannot_berserk"),
        "{}",
        r.body
    );
    // A rating condition: a new player (1500) is outside 1800-2200.
    let r = b.form(
        s,
        "/api/tournament",
        &[
            ("clockTime", "3"),
            ("minutes", "30"),
            ("conditions.minRating.rating", "1800"),
            ("conditions.maxRating.rating", "2200"),
        ],
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let id = json(&r.body)["id"].as_str().unwrap().to_owned();
    let r = b.json(s, &format!("/api/tournament/{id}/join"), "{}");
    assert!(r.status == 400 && r.body.contains("outside"), "{}", r.body);
    pausing(s, &mut b);
}

/// Withdrawing before the start leaves the arena; while it runs it pauses: kept in the
/// standings, and back only after the pause's delay (10 s the first time; lila's Pause).
fn pausing(s: &Server, b: &mut Browser) {
    let later = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
        + 3_600_000;
    let arena = |b: &mut Browser, start: Option<i64>| {
        let start = start.map(|t| t.to_string());
        let mut fields = vec![("clockTime", "3"), ("minutes", "30")];
        match &start {
            Some(t) => fields.push(("startDate", t)),
            None => fields.push(("waitMinutes", "0")),
        }
        let r = b.form(s, "/api/tournament", &fields);
        assert_eq!(r.status, 200, "{}", r.body);
        json(&r.body)["id"].as_str().unwrap().to_owned()
    };
    let future = arena(b, Some(later));
    assert_eq!(
        b.json(s, &format!("/api/tournament/{future}/join"), "{}")
            .status,
        200
    );
    let a = json(&b.get(s, &format!("/api/tournament/{future}")).body);
    assert_eq!(a["nbPlayers"], 1, "{a}");
    assert_eq!(
        b.json(s, &format!("/api/tournament/{future}/withdraw"), "{}")
            .status,
        200
    );
    let a = json(&b.get(s, &format!("/api/tournament/{future}")).body);
    assert_eq!(
        a["nbPlayers"], 0,
        "withdrawn before the start, he left it: {a}"
    );
    let running = arena(b, None);
    assert_eq!(
        b.json(s, &format!("/api/tournament/{running}/join"), "{}")
            .status,
        200
    );
    assert_eq!(
        b.json(s, &format!("/api/tournament/{running}/withdraw"), "{}")
            .status,
        200
    );
    let a = json(&b.get(s, &format!("/api/tournament/{running}")).body);
    assert_eq!(a["nbPlayers"], 1, "paused, he stays: {a}");
    assert_eq!(a["standing"]["players"][0]["withdraw"], true, "{a}");
    let r = b.json(s, &format!("/api/tournament/{running}/join"), "{}");
    assert!(
        r.status == 400 && r.body.contains("you paused: you may come back in"),
        "{}",
        r.body
    );
    let a = json(&b.get(s, &format!("/api/tournament/{running}")).body);
    assert_eq!(a["me"]["withdraw"], true, "{a}");
    assert!(
        a["me"]["pauseDelay"]
            .as_i64()
            .is_some_and(|d| (1..=10).contains(&d)),
        "{a}"
    );
    pages_and_chat(s, b, &running, &future);
}

/// The arena's pages, the lobby's schedule and the arena's chat.
fn pages_and_chat(s: &Server, b: &mut Browser, running: &str, future: &str) {
    let page = b.get(s, &format!("/tournament/{running}"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("arena-standings") && page.body.contains("arena.js"));
    assert_eq!(b.get(s, "/tournament/nosuch").status, 404);
    let list = b.get(s, "/tournament").body;
    assert!(list.contains(&format!("/tournament/{running}")), "{list}");
    assert!(list.contains(&format!("/tournament/{future}")), "{list}");
    let lobby = b.get(s, "/").body;
    assert!(lobby.contains("arena-schedule") && lobby.contains(&format!("/tournament/{future}")));
    assert!(
        lobby.contains("starting in 60 min"),
        "the schedule says when"
    );
    let r = b.json(
        s,
        &format!("/api/tournament/{running}/chat"),
        r#"{"text":"good luck all"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let r = b.json(
        s,
        &format!("/api/tournament/{running}/chat"),
        &format!(r#"{{"text":"{}"}}"#, "x".repeat(141)),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    let lines = json(
        &Browser::at("10.7.0.99")
            .get(s, &format!("/api/tournament/{running}/chat"))
            .body,
    );
    assert_eq!(lines.as_array().map(Vec::len), Some(1), "{lines}");
    assert_eq!(lines[0]["text"], "good luck all");
    let r = Browser::at("10.7.0.98").json(
        s,
        &format!("/api/tournament/{running}/chat"),
        r#"{"text":"hi"}"#,
    );
    assert_eq!(r.status, 403, "a guest does not write: {}", r.body);
}

/// `--hourly-arenas 3+0,1+0`: the site's arena of the coming hour for each clock, on the
/// hour, 57 minutes, rated with berserk; made once however often the keeper looks and across
/// a restart.
#[test]
fn the_site_makes_an_arena_every_hour_for_each_clock() {
    let (dir, url) = common::temp_url("hourly");
    let hourly = |s: &Server| -> Vec<Value> {
        let lists = json(&Browser::at("10.7.1.1").get(s, "/api/tournament").body);
        ["created", "started"]
            .iter()
            .flat_map(|k| lists[*k].as_array().cloned().unwrap_or_default())
            .filter(|a| a["createdBy"] == "rookery")
            .collect()
    };
    // At least `n`, and each clock's arena of the coming hour there: the keeper makes them one
    // by one, so a look between two sees some of a pass's arenas only.
    let wait_for = |s: &Server, n: usize| {
        let started = std::time::Instant::now();
        loop {
            let found = hourly(s);
            let limits: Vec<i64> = found
                .iter()
                .filter_map(|a| a["clock"]["limit"].as_i64())
                .collect();
            let both = limits.contains(&180) && limits.contains(&60);
            let even = limits.iter().filter(|l| **l == 180).count()
                == limits.iter().filter(|l| **l == 60).count();
            if (found.len() >= n && both && even) || started.elapsed().as_secs() > 20 {
                return found;
            }
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
    };
    let s = start_with(&url, &["--hourly-arenas", "3+0,1+0"]);
    let found = wait_for(&s, 2);
    // The coming hour's for each clock, and the hour under way's in its first half.
    assert!(found.len() == 2 || found.len() == 4, "{found:?}");
    for a in &found {
        let starts = a["startsAt"].as_str().unwrap();
        assert!(starts.ends_with(":00:00Z"), "on the hour: {starts}");
        assert_eq!(a["minutes"], 57);
        assert_eq!(
            (a["rated"].as_bool(), a["berserkable"].as_bool()),
            (Some(true), Some(true))
        );
    }
    let limits: Vec<i64> = found
        .iter()
        .map(|a| a["clock"]["limit"].as_i64().unwrap())
        .collect();
    assert!(limits.contains(&180) && limits.contains(&60), "{limits:?}");
    // Each (clock, hour) once, however often the keeper looks (an hour turning meanwhile
    // adds the next hour's, never a second of the same).
    let once = |found: &[Value], what: &str| {
        let mut keys: Vec<(i64, String)> = found
            .iter()
            .map(|a| {
                (
                    a["clock"]["limit"].as_i64().unwrap(),
                    a["startsAt"].to_string(),
                )
            })
            .collect();
        let n = keys.len();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), n, "{what}: {found:?}");
    };
    std::thread::sleep(std::time::Duration::from_secs(3));
    once(&hourly(&s), "made once");
    drop(s);
    let s = start_with(&url, &["--hourly-arenas", "3+0,1+0"]);
    std::thread::sleep(std::time::Duration::from_secs(3));
    let again = hourly(&s);
    assert!(again.len() >= found.len());
    once(&again, "not again after a restart");
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
