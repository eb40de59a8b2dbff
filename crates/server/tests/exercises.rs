//! Learning from one's own mistakes (docs/ANALYSIS.md): a game with a known blunder is
//! analysed, its blunder becomes an exercise, and the exercise is solved over the API; moves
//! tried are judged by the engine (the mistake again, a worse move, the engine's move); an
//! account's progress is kept, a guest's is not; refusals change nothing.

mod common;

use std::time::{Duration, Instant};

use common::agent::{Browser, signup};
use common::{call, field, start_with, temp_url};

/// 3. Qxg7?? hangs White's queen to the bishop.
const HUNG_QUEEN: &str = "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n\
    1. e4 e5 2. Qg4 d6 3. Qxg7 Bxg7 0-1\n";

fn json(body: &str) -> serde_json::Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// The exercise of ply 5 (3. Qxg7) in a list.
fn at_ply_5(list: &serde_json::Value) -> serde_json::Value {
    list["exercises"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["ply"] == 5)
        .unwrap_or_else(|| panic!("no exercise at ply 5: {list}"))
        .clone()
}

#[test]
fn a_blunder_becomes_an_exercise_solved_by_the_engines_move() {
    let (dir, url) = temp_url("exercises");
    let s = start_with(&url, &["--analysis-nodes", "30000"]);
    let r = call(&s, "POST", "/api/import", None, Some(HUNG_QUEEN));
    assert_eq!(r.status, 200, "{}", r.body);
    let id = field(&r.body, "id").to_owned();
    let list = format!("/api/games/{id}/exercises?color=white");

    // Before the analysis there is nothing to learn from: a clear refusal.
    let r = call(&s, "GET", &list, None, None);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("needs_analysis"), "{}", r.body);
    let r = call(&s, "POST", &format!("/api/games/{id}/analysis"), None, None);
    assert_eq!(r.status, 202, "{}", r.body);
    let deadline = Instant::now() + Duration::from_secs(120);
    let analysis = loop {
        let v = json(&call(&s, "GET", &format!("/api/games/{id}/analysis"), None, None).body);
        if v["status"] == "done" {
            break v;
        }
        assert!(Instant::now() < deadline, "not analysed in time: {v}");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(analysis["moves"][4]["judgement"], "Blunder", "{analysis}");
    let best = analysis["moves"][4]["best"].as_str().unwrap().to_owned();

    // White's exercises: the blunder, from the position before it, with its legal moves.
    let v = json(&call(&s, "GET", &list, None, None).body);
    assert_eq!(v["color"], "white");
    assert_eq!(v["kept"], false, "a guest's progress is not kept");
    let blunder = at_ply_5(&v);
    assert_eq!(blunder["played"], "Qxg7");
    assert_eq!(blunder["symbol"], "??");
    assert_eq!(
        blunder["fen"],
        "rnbqkbnr/ppp2ppp/3p4/4p3/4P1Q1/8/PPPP1PPP/RNB1KBNR w KQkq - 0 3"
    );
    assert!(
        blunder["moves"]["dests"]["g4"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == "g7"),
        "{blunder}"
    );
    // Black took the queen: no exercise of Black's is that capture.
    let black = json(
        &call(
            &s,
            "GET",
            &format!("/api/games/{id}/exercises?color=black"),
            None,
            None,
        )
        .body,
    );
    assert!(
        black["exercises"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["ply"] != 6),
        "{black}"
    );

    let attempt = format!("/api/games/{id}/exercises/5?color=white");
    let tried = |b: &mut Browser, m: &str| {
        let r = b.json(&s, &attempt, &format!("{{\"move\": \"{m}\"}}"));
        assert_eq!(r.status, 200, "{m}: {}", r.body);
        json(&r.body)
    };
    // An account: its progress is kept.
    let mut anna = Browser::at("10.0.0.5");
    assert_eq!(signup(&s, &mut anna, "Anna", "correct horse").status, 303);
    // The mistake again; a move that loses the queen another way (Qd7+ Bxd7); then the
    // engine's move.
    let v = tried(&mut anna, "Qxg7");
    assert_eq!(
        (v["verdict"].as_str(), v["solved"].as_bool()),
        (Some("played"), Some(false))
    );
    let v = tried(&mut anna, "g4d7");
    assert_eq!(v["verdict"], "worse", "{v}");
    assert_eq!(v["san"], "Qd7+");
    let v = tried(&mut anna, &best);
    assert_eq!(
        (v["verdict"].as_str(), v["solved"].as_bool()),
        (Some("best"), Some(true)),
        "{best}: {v}"
    );
    let progress = json(&anna.get(&s, &list).body);
    assert_eq!(progress["kept"], true);
    let mine = at_ply_5(&progress);
    assert_eq!(
        (mine["solved"].as_bool(), mine["tries"].as_i64()),
        (Some(true), Some(3)),
        "{mine}"
    );
    // The solution, on request: the engine's move; shown from then on, still solved.
    let r = anna.json(
        &s,
        &format!("/api/games/{id}/exercises/5/solution?color=white"),
        "",
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(json(&r.body)["san"], best);
    let mine = at_ply_5(&json(&anna.get(&s, &list).body));
    assert_eq!(
        (mine["solved"].as_bool(), mine["shown"].as_bool()),
        (Some(true), Some(true))
    );

    // Refusals: an illegal move, junk, an exercise that does not exist, a wrong colour.
    let mut guest = Browser::at("10.0.0.6");
    for (path, body, status, code) in [
        (attempt.as_str(), "{\"move\": \"Ke3\"}", 400, "illegal_move"),
        (attempt.as_str(), "{\"mv\": 1}", 400, "missing field `move`"),
        (
            &format!("/api/games/{id}/exercises/4?color=white") as &str,
            "{\"move\": \"Qg3\"}",
            404,
            "not_found",
        ),
        (
            &format!("/api/games/{id}/exercises/5?color=green") as &str,
            "{\"move\": \"Qg3\"}",
            400,
            "bad_request",
        ),
    ] {
        let r = guest.json(&s, path, body);
        assert_eq!(r.status, status, "{path} {body}: {}", r.body);
        assert!(r.body.contains(code), "{path} {body}: {}", r.body);
    }
    // A guest solving it changes no account's record.
    let v = tried(&mut guest, &best);
    assert_eq!(v["verdict"], "best");
    assert_eq!(at_ply_5(&json(&anna.get(&s, &list).body))["tries"], 3);
    let _ = std::fs::remove_dir_all(&dir);
}
