//! Tournaments over the API (docs/API.md "Tournaments"): an arbiter runs a Swiss over the
//! board (entries, a bye asked for, rounds paired, results and a correction, a late entry,
//! a withdrawal), its report checked round by round by the Dutch system's checker; a round
//! robin; and everything another account, a visitor or bad input cannot do.

mod common;

use common::agent::{Browser, on_both, signup};
use common::{Reply, Server, start_with};
use rookery_pairing::check::{Verdict, check_dutch};
use rookery_pairing::trf::Trf;
use serde_json::Value;

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|_| panic!("not JSON: {body}"))
}

/// The arbiter acts; the tournament after it.
fn act(s: &Server, b: &mut Browser, id: &str, action: &str) -> Value {
    let r = b.json(s, &format!("/api/events/{id}"), action);
    assert_eq!(r.status, 200, "{action}: {}", r.body);
    json(&r.body)
}

/// Results for every board of the last round paired: White wins on odd boards, draws on
/// even ones (a bye has no result to give).
fn finish_round(s: &Server, b: &mut Browser, id: &str, t: &Value) -> Value {
    let rounds = t["pairings"].as_array().unwrap();
    let round = rounds.len();
    let mut last = t.clone();
    for board in rounds[round - 1].as_array().unwrap() {
        if board["black"].is_null() {
            continue;
        }
        let n = board["board"].as_u64().unwrap();
        let result = if n % 2 == 1 { "1-0" } else { "1/2-1/2" };
        last = act(
            s,
            b,
            id,
            &format!(r#"{{"action":"result","round":{round},"board":{n},"result":"{result}"}}"#),
        );
    }
    last
}

/// A server, its arbiter signed up, and a new tournament made by him: (server, arbiter,
/// tournament as created).
fn new_tournament(url: &str, address: &str, body: &str) -> (Server, Browser, Value) {
    let s = start_with(url, &["--trust-proxy"]);
    let mut arbiter = Browser::at(address);
    assert_eq!(
        signup(&s, &mut arbiter, "arbiter", "arbiter password").status,
        303
    );
    let r = arbiter.json(&s, "/api/events", body);
    assert_eq!(r.status, 201, "{}", r.body);
    let t = json(&r.body);
    (s, arbiter, t)
}

#[test]
fn an_arbiter_runs_a_swiss_over_the_board() {
    on_both("tournament-swiss", swiss);
}

fn swiss(url: &str) {
    let (s, mut arbiter, t) = new_tournament(
        url,
        "10.1.0.1",
        r#"{"name":"Club Swiss","system":"swiss","rounds":4,"first_colour":"white","time_limit":"40 moves in 2 hours"}"#,
    );
    let id = t["id"].as_str().unwrap().to_owned();
    assert_eq!(t["next_round"], 1);
    for i in 0..11 {
        act(
            &s,
            &mut arbiter,
            &id,
            &format!(
                r#"{{"action":"enter","name":"Player {i}","rating":{}}}"#,
                2200 - 20 * i
            ),
        );
    }
    // Player 3 asks for a half-point bye in round 1: ten paired, no pairing-allocated bye.
    act(
        &s,
        &mut arbiter,
        &id,
        r#"{"action":"bye","player":3,"round":1,"kind":"half"}"#,
    );
    let t = act(&s, &mut arbiter, &id, r#"{"action":"pair"}"#);
    let round1 = t["pairings"][0].as_array().unwrap();
    assert_eq!(round1.len(), 5);
    assert!(round1.iter().all(|b| b["white"] != 3 && b["black"] != 3));
    // C.04.3: the top half meets the bottom half: ten players (3 is out), 1 meets 7.
    assert_eq!(
        (&round1[0]["white"], &round1[0]["black"]),
        (&1.into(), &7.into())
    );
    // The seeds' score sheets for round 1, filled in before play: one page a board.
    let sheets = arbiter.get(&s, &format!("/events/{id}/round/1/sheets"));
    assert_eq!(sheets.status, 200, "{}", sheets.body);
    assert_eq!(sheets.body.matches("<article class=\"sheet\"").count(), 5);
    assert!(sheets.body.contains("Player 0 (2200)"), "{}", sheets.body);
    assert!(sheets.body.contains("40 moves in 2 hours"));
    assert!(sheets.body.contains("id=\"f-table\">5<"), "{}", sheets.body);
    let zh = common::request_with(
        &s,
        "GET",
        &format!("/events/{id}/round/1/sheets"),
        &[("Accept-Language", "zh-CN")],
        None,
    )
    .unwrap();
    assert!(zh.body.contains("返回比赛"), "{}", zh.body);
    assert_eq!(
        arbiter
            .get(&s, &format!("/events/{id}/round/2/sheets"))
            .status,
        404
    );
    // Not paired again before every result is in.
    let r = arbiter.json(&s, &format!("/api/events/{id}"), r#"{"action":"pair"}"#);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body.contains("round 1 still has boards without a result"),
        "{}",
        r.body
    );
    let t = finish_round(&s, &mut arbiter, &id, &t);
    // A correction: board 2 was a win for Black, not a draw. A result already in changes
    // only with a reason, which is kept.
    let r = arbiter.json(
        &s,
        &format!("/api/events/{id}"),
        r#"{"action":"result","round":1,"board":2,"result":"0-1"}"#,
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body.contains("tournament_refused") && r.body.contains("reason"),
        "{}",
        r.body
    );
    let t2 = act(
        &s,
        &mut arbiter,
        &id,
        r#"{"action":"result","round":1,"board":2,"result":"0-1","reason":"the score sheets say Black won"}"#,
    );
    assert_eq!(t2["pairings"][0][1]["result"], "0-1");
    assert_ne!(t["standings"], t2["standings"]);
    let c = &t2["corrections"][0];
    assert_eq!(
        (&c["round"], &c["board"], &c["from"], &c["to"], &c["by"]),
        (
            &1.into(),
            &2.into(),
            &"1/2-1/2".into(),
            &"0-1".into(),
            &"arbiter".into()
        ),
        "{t2}"
    );
    assert_eq!(c["reason"], "the score sheets say Black won");
    // The same result again is no correction: no reason needed, nothing added.
    let t2 = act(
        &s,
        &mut arbiter,
        &id,
        r#"{"action":"result","round":1,"board":2,"result":"0-1"}"#,
    );
    assert_eq!(t2["corrections"].as_array().unwrap().len(), 1);
    // A late entry (from round 2) and a withdrawal (from round 2).
    act(
        &s,
        &mut arbiter,
        &id,
        r#"{"action":"enter","name":"Late Comer","rating":1900}"#,
    );
    act(
        &s,
        &mut arbiter,
        &id,
        r#"{"action":"withdraw","player":11}"#,
    );
    let t = act(&s, &mut arbiter, &id, r#"{"action":"pair"}"#);
    let round2: Vec<&Value> = t["pairings"][1].as_array().unwrap().iter().collect();
    let in_round2: Vec<&Value> = round2
        .iter()
        .flat_map(|b| [&b["white"], &b["black"]])
        .collect();
    assert!(in_round2.contains(&&12.into()) && !in_round2.contains(&&11.into()));
    moves_afterwards(&s, &mut arbiter, &id);
    let mut t = finish_round(&s, &mut arbiter, &id, &t);
    for _ in 3..=4 {
        t = act(&s, &mut arbiter, &id, r#"{"action":"pair"}"#);
        t = finish_round(&s, &mut arbiter, &id, &t);
    }
    let r = arbiter.json(&s, &format!("/api/events/{id}"), r#"{"action":"pair"}"#);
    assert!(
        r.body.contains("every round of the event is paired"),
        "{}",
        r.body
    );
    // Standings: everyone, ranked, with the Swiss tie-breaks.
    assert_eq!(
        t["tie_breaks"],
        serde_json::json!(["PTS", "BH/C1", "BH", "SB", "DE"])
    );
    assert_eq!(t["standings"].as_array().unwrap().len(), 12);
    assert_eq!(t["standings"][0]["rank"], 1);
    // The report: every round as the Dutch system pairs it (bbpPairings's checker reads
    // the same reports in crates/pairing/tests/python/check_events.py).
    let report = arbiter.get(&s, &format!("/api/events/{id}/trf"));
    assert_eq!(report.status, 200);
    let trf = Trf::parse(&report.body).unwrap();
    assert_eq!(trf.played_rounds(), 4);
    let verdicts = check_dutch(&trf).unwrap();
    assert!(
        verdicts.iter().all(|v| *v == Verdict::AsPaired),
        "{verdicts:?}"
    );
    assert!(report.body.contains("Late Comer"));
    pages(&s, &mut arbiter, &id, &t);
    refusals(&s, &id);
}

/// The tournament's pages: the arbiter's controls for the arbiter only, the standings,
/// the crosstable, each round, the corrections; the printed lists; in Chinese too.
fn pages(s: &Server, arbiter: &mut Browser, id: &str, t: &Value) {
    let page = arbiter.get(s, &format!("/events/{id}"));
    assert_eq!(page.status, 200);
    for part in [
        "id=\"arbiter-title\"",
        "id=\"standings\"",
        "id=\"crosstable\"",
        "id=\"round-4\"",
        "id=\"corrections\"",
        "the score sheets say Black won",
        "Late Comer",
        "withdrawn from round 2",
        "class=\"set-result\"",
        "Finished",
    ] {
        assert!(page.body.contains(part), "{part} missing from the page");
    }
    // The winner's line of the standings: his points as the API counts them.
    let first = &t["standings"][0];
    let name = first["name"].as_str().unwrap();
    assert!(page.body.contains(&format!(
        "<td>1</td><td>{}</td><td>{name}</td>",
        first["number"]
    )));
    let mut visitor = Browser::at("10.1.0.9");
    let seen = visitor.get(s, &format!("/events/{id}"));
    assert_eq!(seen.status, 200);
    assert!(!seen.body.contains("arbiter-title") && !seen.body.contains("set-result"));
    assert!(seen.body.contains("id=\"crosstable\""));
    let list = visitor.get(s, "/events");
    assert!(
        list.body.contains(&format!("href=\"/events/{id}\"")) && list.body.contains("Club Swiss")
    );
    let standings = visitor.get(s, &format!("/events/{id}/standings"));
    assert_eq!(standings.status, 200);
    assert!(
        standings.body.contains("<th>BH/C1</th>") && standings.body.contains("id=\"cross-list\"")
    );
    let pairings = visitor.get(s, &format!("/events/{id}/round/2/pairings"));
    assert_eq!(pairings.status, 200);
    let boards = t["pairings"][1].as_array().unwrap().len();
    assert_eq!(pairings.body.matches("<td class=\"res\">").count(), boards);
    assert!(pairings.body.contains("Pairings of round 2"));
    assert_eq!(
        visitor
            .get(s, &format!("/events/{id}/round/9/pairings"))
            .status,
        404
    );
    assert_eq!(visitor.get(s, "/events/nosuch").status, 404);
    let zh = common::request_with(
        s,
        "GET",
        &format!("/events/{id}/round/2/pairings"),
        &[("Accept-Language", "zh-CN")],
        None,
    )
    .unwrap();
    assert!(zh.body.contains("第2轮对阵表"), "{}", zh.body);
}

/// A game's moves entered afterwards from its PGN: the core checks them; the board's
/// players name the game, which carries the event, round and table; a board without a result
/// takes the game's; one with a result must agree with it; a board takes one game.
fn moves_afterwards(s: &Server, arbiter: &mut Browser, id: &str) {
    // JSON text: a PGN with a tag of its own (the board's players name the game).
    const MATE: &str = r#"[White \"Someone\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"#;
    let path = format!("/api/events/{id}");
    let moves = |round: u32, board: u32, pgn: &str| {
        format!(r#"{{"action":"moves","round":{round},"board":{board},"pgn":"{pgn}"}}"#)
    };
    // Round 2, board 1 has no result yet: the game's (1-0) becomes the board's.
    let after = act(s, arbiter, id, &moves(2, 1, MATE));
    let board = &after["pairings"][1][0];
    assert_eq!(board["result"], "1-0", "{after}");
    let game = board["game"].as_str().unwrap();
    let pgn = arbiter.get(s, &format!("/game/export/{game}")).body;
    let white = &after["players"][board["white"].as_u64().unwrap() as usize - 1]["name"];
    for tag in [
        "[Event \"Club Swiss\"]".to_owned(),
        "[Round \"2\"]".to_owned(),
        "[Board \"1\"]".to_owned(),
        format!("[White \"{}\"]", white.as_str().unwrap()),
        "4. Qxf7# 1-0".to_owned(),
    ] {
        assert!(pgn.contains(&tag), "{tag} missing: {pgn}");
    }
    for (body, says) in [
        (moves(2, 1, MATE), "has its moves already"),
        // Round 1, board 1 was 1-0: a game Black won does not fit it.
        (
            moves(1, 1, "1. f3 e5 2. g4 Qh4# 0-1"),
            "the moves end 0-1 but the board's result is 1-0",
        ),
        (moves(1, 3, "1. e4 e5 2. Ke3 Kd6 1-0"), "ply 3 (2. Ke3)"),
        (moves(1, 9, MATE), "round 1 has no board 9"),
        (moves(1, 3, ""), "no game"),
    ] {
        let r = arbiter.json(s, &path, &body);
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        assert!(r.body.contains(says), "{body}: {}", r.body);
    }
    let mut other = Browser::at("10.1.0.8");
    assert_eq!(
        signup(s, &mut other, "meddler", "meddler password").status,
        303
    );
    assert_eq!(other.json(s, &path, &moves(1, 2, MATE)).status, 403);
}

/// What others cannot do; nothing changes.
fn refusals(s: &Server, id: &str) {
    let mut other = Browser::at("10.1.0.2");
    assert_eq!(
        signup(s, &mut other, "player", "player password").status,
        303
    );
    let before = other.get(s, &format!("/api/events/{id}")).body;
    let r = other.json(
        s,
        &format!("/api/events/{id}"),
        r#"{"action":"withdraw","player":1}"#,
    );
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body.contains("not_allowed"), "{}", r.body);
    let mut visitor = Browser::at("10.1.0.3");
    let r = visitor.json(
        s,
        &format!("/api/events/{id}"),
        r#"{"action":"withdraw","player":1}"#,
    );
    assert_eq!(r.status, 401, "{}", r.body);
    let r = visitor.json(
        s,
        "/api/events",
        r#"{"name":"x","system":"swiss","rounds":3}"#,
    );
    assert_eq!(r.status, 401, "{}", r.body);
    assert_eq!(visitor.get(s, "/api/events/nosuch").status, 404);
    // Bad input from the arbiter's side is named.
    let mut arbiter = Browser::at("10.1.0.4");
    assert_eq!(
        signup(s, &mut arbiter, "second", "second password").status,
        303
    );
    for (body, says) in [
        (r#"{"name":"","system":"swiss","rounds":3}"#, "name"),
        (r#"{"name":"A","system":"knockout","rounds":3}"#, "system"),
        (r#"{"name":"A","system":"swiss","rounds":0}"#, "rounds"),
        (
            r#"{"name":"A","system":"swiss","rounds":3,"first_colour":"green"}"#,
            "first_colour",
        ),
        (
            r#"{"name":"A","system":"swiss","rounds":3,"extra":1}"#,
            "extra",
        ),
    ] {
        let r = arbiter.json(s, "/api/events", body);
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        assert!(r.body.contains(says), "{body}: {}", r.body);
    }
    assert_eq!(visitor.get(s, &format!("/api/events/{id}")).body, before);
}

#[test]
fn a_round_robin_follows_the_berger_tables() {
    on_both("tournament-rr", round_robin);
}

fn round_robin(url: &str) {
    let (s, mut arbiter, t) = new_tournament(
        url,
        "10.2.0.1",
        r#"{"name":"Club RR","system":"round-robin","rounds":3,"rated":true}"#,
    );
    let id = t["id"].as_str().unwrap().to_owned();
    // Rated over the board: the ladder (R8), each player entered with his points.
    for (name, points) in [("A", 1500), ("B", 1450), ("C", 1200), ("D", 1400)] {
        act(
            &s,
            &mut arbiter,
            &id,
            &format!(r#"{{"action":"enter","name":"{name}","rating":{points}}}"#),
        );
    }
    // FIDE's table for four: 1-4 2-3 / 4-3 1-2 / 2-4 3-1.
    let expected = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]];
    let mut t = Value::Null;
    for pairs in expected {
        t = act(&s, &mut arbiter, &id, r#"{"action":"pair"}"#);
        let round = t["pairings"].as_array().unwrap().last().unwrap().clone();
        let got: Vec<(u64, u64)> = round
            .as_array()
            .unwrap()
            .iter()
            .map(|b| (b["white"].as_u64().unwrap(), b["black"].as_u64().unwrap()))
            .collect();
        assert_eq!(got, pairs.to_vec());
        // Nobody enters a round robin under way.
        let r = arbiter.json(
            &s,
            &format!("/api/events/{id}"),
            r#"{"action":"enter","name":"E"}"#,
        );
        assert_eq!(r.status, 400, "{}", r.body);
        t = finish_round(&s, &mut arbiter, &id, &t);
    }
    assert_eq!(
        t["tie_breaks"],
        serde_json::json!(["PTS", "DE", "SB", "WIN"])
    );
    // White won on board 1 and drew on board 2: 1 beat 4 and drew 2 and 3 (2); 2 drew 3
    // and 1 and beat 4 (2); 4 beat 3 (1); 3 drew twice (1).
    let points: Vec<&str> = t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["values"][0].as_str().unwrap())
        .collect();
    assert_eq!(points, ["2.0", "2.0", "1.0", "1.0"]);
    // The ladder: round 1 alone is worked out in tournaments.rs's test; here every game
    // counted for both, and the points moved from one player to another (R8 is zero-sum).
    let ladder = t["ladder"].as_array().unwrap();
    assert_eq!(ladder.len(), 4, "{t}");
    assert_eq!(ladder[0]["before"], "1500");
    let mut moved = 0.0;
    for l in ladder {
        assert_eq!(l["games"], 3, "{l}");
        let figure = |k: &str| l[k].as_str().unwrap().parse::<f64>().unwrap();
        moved += figure("after") - figure("before");
    }
    assert!(moved.abs() < 1e-9, "zero-sum: {moved}");
    assert_ne!(ladder[0]["after"], ladder[0]["before"]);
    let page = arbiter.get(&s, &format!("/events/{id}")).body;
    assert!(page.contains("id=\"ladder\"") && page.contains("Ladder points (R8)"));
    assert!(
        page.contains("id=\"crosstable\"") && page.contains("<td>×</td>"),
        "the round robin's table"
    );
}

#[test]
fn an_online_swiss_makes_its_games_and_takes_their_results() {
    on_both("tournament-online", online);
}

/// The player of `number`'s seat in `game` plays (a move, or an action).
fn play(s: &Server, players: &mut [Browser], game: &str, number: u64, what: &str) {
    let b = &mut players[number as usize - 1];
    let r = if what.len() == 4 {
        b.json(
            s,
            &format!("/api/games/{game}/move"),
            &format!(r#"{{"m":"{what}"}}"#),
        )
    } else {
        b.json(s, &format!("/api/games/{game}/{what}"), "{}")
    };
    assert_eq!(r.status, 200, "{game} {what}: {}", r.body);
}

fn online(url: &str) {
    let (s, mut arbiter, t) = new_tournament(
        url,
        "10.3.0.1",
        r#"{"name":"Online Swiss","system":"swiss","rounds":2,"first_colour":"white","clock":"5+3","rated":true,"forfeit_after":10}"#,
    );
    let id = t["id"].as_str().unwrap().to_owned();
    assert_eq!(
        t["online"],
        serde_json::json!({"clock": "5+3", "rated": true, "starts_at": null,
            "round_interval": 0, "next_round_at": null, "forfeit_after": 10})
    );
    // The arbiter cannot enter names online; accounts join themselves.
    let r = arbiter.json(
        &s,
        &format!("/api/events/{id}"),
        r#"{"action":"enter","name":"X"}"#,
    );
    assert_eq!(r.status, 400, "{}", r.body);
    let mut players: Vec<Browser> = Vec::new();
    for i in 0..4 {
        let mut b = Browser::at(&format!("10.3.1.{i}"));
        let name = format!("online{i}");
        assert_eq!(signup(&s, &mut b, &name, "online password").status, 303);
        let r = b.json(&s, &format!("/api/events/{id}"), r#"{"action":"join"}"#);
        assert_eq!(r.status, 200, "{}", r.body);
        players.push(b);
    }
    let r = players[0].json(&s, &format!("/api/events/{id}"), r#"{"action":"join"}"#);
    assert!(r.body.contains("in this tournament already"), "{}", r.body);
    // A player cannot pair, nor withdraw another.
    let r = players[0].json(&s, &format!("/api/events/{id}"), r#"{"action":"pair"}"#);
    assert_eq!(r.status, 403, "{}", r.body);
    let r = players[0].json(
        &s,
        &format!("/api/events/{id}"),
        r#"{"action":"withdraw","player":2}"#,
    );
    assert_eq!(r.status, 403, "{}", r.body);
    // Round 1: two games made, rated, with the event, round and table on them.
    let t = act(&s, &mut arbiter, &id, r#"{"action":"pair"}"#);
    let round1 = t["pairings"][0].as_array().unwrap().clone();
    assert_eq!(round1.len(), 2);
    for (k, board) in round1.iter().enumerate() {
        let game = board["game"].as_str().unwrap();
        let pgn = players[0].get(&s, &format!("/game/export/{game}")).body;
        assert!(pgn.contains("[Event \"Online Swiss\"]"), "{pgn}");
        assert!(pgn.contains("[Round \"1\"]"), "{pgn}");
        assert!(pgn.contains(&format!("[Board \"{}\"]", k + 1)), "{pgn}");
    }
    // Board 1: White resigns after a move each; board 2: Black resigns.
    let (g1, w1, b1) = (
        round1[0]["game"].as_str().unwrap(),
        round1[0]["white"].as_u64().unwrap(),
        round1[0]["black"].as_u64().unwrap(),
    );
    let (g2, w2, b2) = (
        round1[1]["game"].as_str().unwrap(),
        round1[1]["white"].as_u64().unwrap(),
        round1[1]["black"].as_u64().unwrap(),
    );
    play(&s, &mut players, g1, w1, "e2e4");
    play(&s, &mut players, g1, b1, "e7e5");
    play(&s, &mut players, g1, w1, "resign");
    // Rated: the game moved both players' ratings.
    let g = json(&players[0].get(&s, &format!("/api/games/{g1}")).body);
    assert_eq!(g["ratings"]["white"]["diff"], "-242", "{g}");
    // One result in: round 2 waits.
    let t = json(&players[0].get(&s, &format!("/api/events/{id}")).body);
    assert_eq!(t["pairings"][0][0]["result"], "0-1", "{t}");
    assert_eq!(t["pairings"].as_array().unwrap().len(), 1);
    play(&s, &mut players, g2, w2, "d2d4");
    play(&s, &mut players, g2, b2, "d7d5");
    // Round 2 cannot be paired (nor its games made) before this instant.
    let paired_at = std::time::Instant::now();
    play(&s, &mut players, g2, b2, "resign");
    // Every game of round 1 has ended: the server's keeper pairs round 2 and makes its
    // games with nobody reading the tournament (watched in the database itself).
    let stored = |url: &str| -> Value {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let bodies = runtime.block_on(common::agent::column(url, "SELECT body FROM tournaments"));
        json(&bodies[0])
    };
    let started = std::time::Instant::now();
    while stored(url)["paired"].as_array().unwrap().len() < 2 {
        assert!(started.elapsed().as_secs() < 60, "round 2 was never paired");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let t = json(&players[0].get(&s, &format!("/api/events/{id}")).body);
    assert_eq!(t["pairings"][0][1]["result"], "1-0", "{t}");
    let round2 = t["pairings"][1].as_array().unwrap().clone();
    assert_eq!(round2.len(), 2, "{t}");
    // Board 1 of round 2: White never comes and loses by forfeit (-/+) once his clock has
    // run the tournament's forfeit time (10 s) without a move; board 2: a draw by
    // agreement.
    let g1 = round2[0]["game"].as_str().unwrap();
    let (g2, w2, b2) = (
        round2[1]["game"].as_str().unwrap(),
        round2[1]["white"].as_u64().unwrap(),
        round2[1]["black"].as_u64().unwrap(),
    );
    // (R5: an offer made on one's turn stands once one has moved.)
    play(&s, &mut players, g2, w2, "e2e4");
    play(&s, &mut players, g2, b2, "e7e5");
    play(&s, &mut players, g2, w2, "offer-draw");
    play(&s, &mut players, g2, w2, "g1f3");
    play(&s, &mut players, g2, b2, "accept-draw");
    let t = loop {
        let t = json(&players[0].get(&s, &format!("/api/events/{id}")).body);
        if !t["pairings"][1][0]["result"].is_null() {
            break t;
        }
        assert!(
            paired_at.elapsed().as_secs() < 60,
            "the absent player was never forfeited"
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    assert!(
        paired_at.elapsed().as_secs() >= 10,
        "forfeited before the forfeit time"
    );
    assert_eq!(t["pairings"][1][0]["result"], "-/+", "{t}");
    let g = json(&players[0].get(&s, &format!("/api/games/{g1}")).body);
    assert_eq!(g["termination"], "aborted", "{g}");
    assert_eq!(t["pairings"][1][1]["result"], "1/2-1/2", "{t}");
    assert_eq!(t["next_round"], 3);
    // The report: both rounds as the Dutch system pairs them.
    let report = players[0].get(&s, &format!("/api/events/{id}/trf"));
    let trf = Trf::parse(&report.body).unwrap();
    assert_eq!(trf.played_rounds(), 2);
    assert!(
        check_dutch(&trf)
            .unwrap()
            .iter()
            .all(|v| *v == Verdict::AsPaired)
    );
}

#[test]
fn an_online_tournament_starts_on_time_and_waits_for_its_arbiter() {
    on_both("tournament-schedule", scheduled);
}

/// Round 1 paired by the keeper at the start time; with "when the arbiter says", round 2
/// waits for the arbiter; a password to join, the entry closed, the organiser's tie-breaks;
/// what a tournament's settings refuse.
fn scheduled(url: &str) {
    let s = start_with(url, &["--trust-proxy"]);
    let mut arbiter = Browser::at("10.4.0.1");
    assert_eq!(
        signup(&s, &mut arbiter, "arbiter", "arbiter password").status,
        303
    );
    let mut players = Vec::new();
    for i in 0..4 {
        let mut b = Browser::at(&format!("10.4.1.{i}"));
        assert_eq!(
            signup(&s, &mut b, &format!("sched{i}"), "sched password").status,
            303
        );
        players.push(b);
    }
    for (body, says) in [
        (
            r#"{"name":"A","system":"swiss","rounds":3,"starts_at":1}"#,
            "online tournament",
        ),
        (
            r#"{"name":"A","system":"swiss","rounds":3,"clock":"3+2","round_interval":"soon"}"#,
            "round_interval",
        ),
        (
            r#"{"name":"A","system":"swiss","rounds":3,"clock":"3+2","forfeit_after":2}"#,
            "forfeit_after",
        ),
        (
            r#"{"name":"A","system":"swiss","rounds":3,"tie_breaks":["PTS","XYZ"]}"#,
            "XYZ",
        ),
    ] {
        let r = arbiter.json(&s, "/api/events", body);
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        assert!(r.body.contains(says), "{body}: {}", r.body);
    }
    let starts = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
        + 2_000;
    let r = arbiter.json(
        &s,
        "/api/events",
        &format!(
            r#"{{"name":"Evening Swiss","system":"swiss","rounds":2,"clock":"3+2","starts_at":{starts},"round_interval":"arbiter","password":"knight","tie_breaks":["PTS","SB","BH"]}}"#
        ),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let t = json(&r.body);
    let id = t["id"].as_str().unwrap().to_owned();
    assert_eq!(t["tie_breaks"], serde_json::json!(["PTS", "SB", "BH"]));
    assert_eq!(t["password"], true, "only that there is one: {t}");
    assert!(!r.body.contains("knight"));
    let path = format!("/api/events/{id}");
    let r = players[0].json(&s, &path, r#"{"action":"join"}"#);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("password"), "{}", r.body);
    for p in players.iter_mut().take(3) {
        let r = p.json(&s, &path, r#"{"action":"join","password":"knight"}"#);
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // The entry closed: nobody else joins.
    act(&s, &mut arbiter, &id, r#"{"action":"entry","open":false}"#);
    let r = players[3].json(&s, &path, r#"{"action":"join","password":"knight"}"#);
    assert!(r.status == 400 && r.body.contains("closed"), "{}", r.body);
    // Round 1 comes by itself at the start time (nobody reads the tournament).
    let began = std::time::Instant::now();
    let t = loop {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let bodies = runtime.block_on(common::agent::column(url, "SELECT body FROM tournaments"));
        let body = json(&bodies[0]);
        if !body["paired"].as_array().unwrap().is_empty() {
            break json(&players[0].get(&s, &path).body);
        }
        assert!(began.elapsed().as_secs() < 60, "round 1 was never paired");
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    let board = &t["pairings"][0][0];
    let game = board["game"].as_str().unwrap();
    let white = board["white"].as_u64().unwrap() as usize;
    let black = board["black"].as_u64().unwrap() as usize;
    let r = players[white - 1].json(&s, &format!("/api/games/{game}/move"), r#"{"m":"e2e4"}"#);
    assert_eq!(r.status, 200, "{}", r.body);
    let r = players[black - 1].json(&s, &format!("/api/games/{game}/move"), r#"{"m":"e7e5"}"#);
    assert_eq!(r.status, 200, "{}", r.body);
    let r = players[black - 1].json(&s, &format!("/api/games/{game}/resign"), "{}");
    assert_eq!(r.status, 200, "{}", r.body);
    let t = json(&players[0].get(&s, &path).body);
    assert_eq!(t["pairings"][0][0]["result"], "1-0", "{t}");
    // "When the arbiter says": two keeper turns later, round 2 still waits.
    std::thread::sleep(std::time::Duration::from_secs(5));
    let t = json(&players[0].get(&s, &path).body);
    assert_eq!(t["pairings"].as_array().unwrap().len(), 1, "{t}");
    assert_eq!(t["online"]["round_interval"], "arbiter");
    let t = act(&s, &mut arbiter, &id, r#"{"action":"pair"}"#);
    assert_eq!(t["pairings"].as_array().unwrap().len(), 2, "{t}");
    assert!(t["pairings"][1][0]["game"].is_string());
}

#[test]
fn forty_bots_and_people_play_a_swiss_over_the_api() {
    on_both("tournament-forty", forty);
}

/// A player of the forty: a BOT account playing through lichess's Bot API with its token,
/// or a person's account playing through Rookery's game API with its session.
enum Entrant {
    Bot(String),
    Person(Browser),
}

/// What a player does in his game: a move, `resign`, `offer` or `accept` a draw.
fn does(s: &Server, who: &mut Entrant, game: &str, what: &str) {
    let r = match who {
        Entrant::Bot(bearer) => {
            let path = match what {
                "resign" => format!("/api/bot/game/{game}/resign"),
                "offer" | "accept" => format!("/api/bot/game/{game}/draw/yes"),
                m => format!("/api/bot/game/{game}/move/{m}"),
            };
            common::request_with(s, "POST", &path, &[("Authorization", bearer)], Some("")).unwrap()
        }
        Entrant::Person(b) => match what {
            "resign" => b.json(s, &format!("/api/games/{game}/resign"), "{}"),
            "offer" => b.json(s, &format!("/api/games/{game}/offer-draw"), "{}"),
            "accept" => b.json(s, &format!("/api/games/{game}/accept-draw"), "{}"),
            m => b.json(
                s,
                &format!("/api/games/{game}/move"),
                &format!(r#"{{"m":"{m}"}}"#),
            ),
        },
    };
    assert_eq!(r.status, 200, "{game} {what}: {}", r.body);
}

/// Acts on the tournament as `who` (a player's own withdrawal, his joining).
fn entrant_acts(s: &Server, who: &mut Entrant, id: &str, action: &str) -> Reply {
    let path = format!("/api/events/{id}");
    match who {
        Entrant::Bot(bearer) => common::request_with(
            s,
            "POST",
            &path,
            &[
                ("Authorization", bearer),
                ("Content-Type", "application/json"),
            ],
            Some(action),
        )
        .unwrap(),
        Entrant::Person(b) => b.json(s, &path, action),
    }
}

/// Forty accounts, ten of them BOTs, in a five-round online Swiss: a requested half-point
/// bye, a player absent and forfeited by the forfeit time, one withdrawn by himself, one late
/// entry; every round paired by the server as the games end. Its report passes the Dutch
/// system's checker, and bbpPairings's own (`bbpPairings --dutch FILE -c`) where
/// `ROOKERY_BBP` names it (CI builds it from tools/bbpPairings).
fn forty(url: &str) {
    let (s, mut arbiter, t) = new_tournament(
        url,
        "10.5.0.1",
        r#"{"name":"Forty Swiss","system":"swiss","rounds":5,"first_colour":"white","clock":"5+3","forfeit_after":10}"#,
    );
    let id = t["id"].as_str().unwrap().to_owned();
    let mut players: Vec<Entrant> = Vec::new();
    for i in 0..40 {
        let name = format!("forty{i:02}");
        let mut b = Browser::at(&format!("10.5.1.{i}"));
        assert_eq!(signup(&s, &mut b, &name, "forty password").status, 303);
        if i < 10 {
            let (ok, token) = common::agent::user_command(
                url,
                &["token", &name, "--scopes", "bot:play,tournament:write"],
                "",
            );
            assert!(ok, "{token}");
            let bearer = format!("Bearer {}", token.trim());
            let r = common::request_with(
                &s,
                "POST",
                "/api/bot/account/upgrade",
                &[("Authorization", bearer.as_str())],
                Some(""),
            )
            .unwrap();
            assert_eq!(r.status, 200, "{}", r.body);
            players.push(Entrant::Bot(bearer));
        } else {
            players.push(Entrant::Person(b));
        }
    }
    // Thirty-nine join now; the last comes late. Player 5 asks for a half-point bye in
    // round 2 (the arbiter enters it).
    for p in players.iter_mut().take(39) {
        let r = entrant_acts(&s, p, &id, r#"{"action":"join"}"#);
        assert_eq!(r.status, 200, "{}", r.body);
    }
    act(
        &s,
        &mut arbiter,
        &id,
        r#"{"action":"bye","player":5,"round":2,"kind":"half"}"#,
    );
    let mut t = act(&s, &mut arbiter, &id, r#"{"action":"pair"}"#);
    let r = entrant_acts(&s, &mut players[39], &id, r#"{"action":"join"}"#);
    assert_eq!(r.status, 200, "{}", r.body);
    let path = format!("/api/events/{id}");
    for round in 1..=5usize {
        let boards = t["pairings"][round - 1].as_array().unwrap().clone();
        let mut absent_game = None;
        for (k, board) in boards.iter().enumerate() {
            let Some(game) = board["game"].as_str() else {
                continue;
            };
            let w = board["white"].as_u64().unwrap() as usize - 1;
            let b = board["black"].as_u64().unwrap() as usize - 1;
            // Round 3, board 2: Black never comes.
            if round == 3 && k == 1 {
                does(&s, &mut players[w], game, "e2e4");
                absent_game = Some(game.to_owned());
                continue;
            }
            does(&s, &mut players[w], game, "e2e4");
            does(&s, &mut players[b], game, "e7e5");
            match k % 3 {
                0 => does(&s, &mut players[b], game, "resign"),
                1 => does(&s, &mut players[w], game, "resign"),
                _ => {
                    does(&s, &mut players[w], game, "offer");
                    does(&s, &mut players[w], game, "g1f3");
                    does(&s, &mut players[b], game, "accept");
                }
            }
        }
        if round == 2 {
            // Player 7 withdraws himself once round 2 is played out.
            let r = entrant_acts(
                &s,
                &mut players[6],
                &id,
                r#"{"action":"withdraw","player":7}"#,
            );
            assert_eq!(r.status, 200, "{}", r.body);
        }
        // The server takes the results in and pairs the next round by itself.
        let began = std::time::Instant::now();
        t = loop {
            let now = json(&arbiter.get(&s, &path).body);
            let done = if round < 5 {
                now["pairings"].as_array().unwrap().len() > round
            } else {
                now["next_round"] == 6
                    && now["pairings"][4]
                        .as_array()
                        .unwrap()
                        .iter()
                        .all(|b| b["black"].is_null() || !b["result"].is_null())
            };
            if done {
                break now;
            }
            assert!(
                began.elapsed().as_secs() < 90,
                "round {round} never ended: {now}"
            );
            std::thread::sleep(std::time::Duration::from_millis(200));
        };
        if let Some(game) = absent_game {
            let board = &t["pairings"][2][1];
            assert_eq!(board["game"].as_str(), Some(game.as_str()));
            assert_eq!(board["result"], "+/-", "the absent Black forfeits: {t}");
        }
    }
    // Round 2 had the half-point bye and the late entry; from round 3 on, player 7 is out.
    let in_round = |r: usize| -> Vec<u64> {
        t["pairings"][r]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|b| [b["white"].as_u64(), b["black"].as_u64()])
            .flatten()
            .collect()
    };
    assert!(!in_round(0).contains(&40) && in_round(1).contains(&40));
    assert!(!in_round(1).contains(&5) && in_round(2).contains(&5));
    assert!(in_round(1).contains(&7) && !in_round(2).contains(&7) && !in_round(4).contains(&7));
    let report = arbiter.get(&s, &format!("/api/events/{id}/trf"));
    let trf = Trf::parse(&report.body).unwrap();
    assert_eq!(trf.played_rounds(), 5);
    assert!(
        check_dutch(&trf)
            .unwrap()
            .iter()
            .all(|v| *v == Verdict::AsPaired)
    );
    match std::env::var_os("ROOKERY_BBP") {
        Some(bbp) => {
            let file = std::env::temp_dir().join(format!("forty-{}.trf", std::process::id()));
            std::fs::write(&file, &report.body).unwrap();
            let out = std::process::Command::new(bbp)
                .arg("--dutch")
                .arg(&file)
                .arg("-c")
                .output()
                .unwrap();
            let _ = std::fs::remove_file(&file);
            assert!(
                out.status.success(),
                "bbpPairings's checker refused the report: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        None => {
            println!("SKIPPED: bbpPairings's check of the report (set ROOKERY_BBP to its binary)")
        }
    }
    // The event's games as one PGN: every game played and every forfeit's aborted game.
    let pgn = arbiter.get(&s, &format!("/api/events/{id}/games")).body;
    let games: usize = (0..5)
        .map(|r| {
            t["pairings"][r]
                .as_array()
                .unwrap()
                .iter()
                .filter(|b| b["game"].is_string())
                .count()
        })
        .sum();
    assert_eq!(pgn.matches("[Event \"Forty Swiss\"]").count(), games);
}

#[test]
fn a_clubs_swiss_is_made_by_its_leaders_and_joined_by_its_members() {
    on_both("tournament-club", club_swiss);
}

/// Round 1's boards as pairs of starting numbers, the lower first.
fn first_round_pairs(t: &Value) -> Vec<(u64, u64)> {
    t["pairings"][0]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let (w, k) = (b["white"].as_u64().unwrap(), b["black"].as_u64().unwrap());
            (w.min(k), w.max(k))
        })
        .collect()
}

/// lichess's team and Swiss API (berserk plays a whole one in
/// `tests/python/berserk_test.py`): who may make a club's Swiss and join it; what a bad
/// request is told.
fn club_swiss(url: &str) {
    let s = start_with(url, &["--trust-proxy"]);
    let mut leader = Browser::at("10.6.0.1");
    let mut member = Browser::at("10.6.0.2");
    let mut outsider = Browser::at("10.6.0.3");
    for (b, name) in [
        (&mut leader, "leader"),
        (&mut member, "member"),
        (&mut outsider, "outsider"),
    ] {
        assert_eq!(signup(&s, b, name, "club password").status, 303);
    }
    let r = leader.json(
        &s,
        "/api/clubs",
        r#"{"name":"Rook & Pawn 1975","description":"Since 1975"}"#,
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let club = json(&r.body);
    assert_eq!(club["id"], "rook-pawn-1975");
    assert_eq!(club["leader"]["name"], "leader");
    let r = leader.json(&s, "/api/clubs", r#"{"name":"Rook  Pawn 1975"}"#);
    assert_eq!(r.status, 409, "the same address: {}", r.body);
    let r = leader.json(&s, "/api/clubs", r#"{"name":"象棋俱乐部"}"#);
    assert_eq!(
        r.status, 201,
        "a name without A-Z gets an address by lot: {}",
        r.body
    );
    assert_eq!(
        member.json(&s, "/team/rook-pawn-1975/join", "{}").status,
        200
    );
    let t = json(&member.get(&s, "/api/team/rook-pawn-1975").body);
    assert_eq!(
        (t["nbMembers"].as_u64(), t["joined"].as_bool()),
        (Some(2), Some(true))
    );
    let users = member.get(&s, "/api/team/rook-pawn-1975/users").body;
    assert_eq!(users.lines().count(), 2, "{users}");
    assert!(
        users.lines().next().unwrap().contains("\"leader\""),
        "leaders first: {users}"
    );
    let mine = json(&member.get(&s, "/api/team/of/member").body);
    assert_eq!(mine[0]["id"], "rook-pawn-1975");
    let r = leader.json(&s, "/team/rook-pawn-1975/quit", "{}");
    assert_eq!(r.status, 400, "the only leader stays: {}", r.body);
    // Only a leader makes the club's Swiss.
    let body = r#"{"clock.limit":180,"clock.increment":2,"nbRounds":3,"name":"Club Swiss","roundInterval":99999999}"#;
    let r = member.json(&s, "/api/swiss/new/rook-pawn-1975", body);
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(leader.json(&s, "/api/swiss/new/nosuch", body).status, 404);
    for (bad, says) in [
        (r#"{"clock.increment":2,"nbRounds":3}"#, "clock.limit"),
        (
            r#"{"clock.limit":180,"nbRounds":3,"variant":"chess960"}"#,
            "standard",
        ),
        (r#"{"clock.limit":99999,"nbRounds":3}"#, "clock.limit"),
        (
            r#"{"clock.limit":180,"nbRounds":3,"forbiddenPairings":"a b c"}"#,
            "two usernames a line",
        ),
    ] {
        let r = leader.json(&s, "/api/swiss/new/rook-pawn-1975", bad);
        assert_eq!(r.status, 400, "{bad}: {}", r.body);
        assert!(r.body.contains(says), "{bad}: {}", r.body);
    }
    let r = leader.json(&s, "/api/swiss/new/rook-pawn-1975", body);
    assert_eq!(r.status, 200, "{}", r.body);
    let swiss = json(&r.body);
    let id = swiss["id"].as_str().unwrap().to_owned();
    assert_eq!(
        (
            &swiss["status"],
            &swiss["nbRounds"],
            &swiss["clock"]["limit"],
            &swiss["teamId"]
        ),
        (
            &"created".into(),
            &3.into(),
            &180.into(),
            &"rook-pawn-1975".into()
        )
    );
    // Members join; others are told why not.
    let r = outsider.json(&s, &format!("/api/swiss/{id}/join"), "{}");
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("club's members"), "{}", r.body);
    assert_eq!(
        member
            .json(&s, &format!("/api/swiss/{id}/join"), "{}")
            .status,
        200
    );
    let r = outsider.json(&s, &format!("/api/swiss/{id}/withdraw"), "{}");
    assert!(
        r.status == 400 && r.body.contains("not in this tournament"),
        "{}",
        r.body
    );
    assert_eq!(
        member
            .json(&s, &format!("/api/swiss/{id}/terminate"), "{}")
            .status,
        403
    );
    // The same tournament on Rookery's own API and page.
    let t = json(&member.get(&s, &format!("/api/events/{id}")).body);
    assert_eq!(t["players"][0]["name"], "member");
    assert_eq!(outsider.get(&s, &format!("/swiss/{id}")).status, 303);
    let listed = outsider.get(&s, "/api/team/rook-pawn-1975/swiss").body;
    assert_eq!(listed.lines().count(), 1);
    assert!(listed.contains(&id));
    assert_eq!(
        leader
            .json(&s, &format!("/api/swiss/{id}/terminate"), "{}")
            .status,
        200
    );
    let done = json(&outsider.get(&s, &format!("/api/swiss/{id}")).body);
    assert_eq!(done["status"], "finished", "{done}");
    assert_eq!(
        outsider.json(&s, "/team/rook-pawn-1975/join", "{}").status,
        200
    );
    let r = outsider.json(&s, &format!("/api/swiss/{id}/join"), "{}");
    assert!(
        r.status == 400 && r.body.contains("closed"),
        "a terminated Swiss takes nobody: {}",
        r.body
    );
    // Forbidden pairs (Rookery's API, over the board): A and C would meet in round 1 (the
    // top half against the bottom half: 1-3, 2-4); forbidden, they do not.
    let r = leader.json(
        &s,
        "/api/events",
        r#"{"name":"Family Swiss","system":"swiss","rounds":2,"first_colour":"white","forbidden_pairs":[["a","C"]]}"#,
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let fid = json(&r.body)["id"].as_str().unwrap().to_owned();
    for (name, rating) in [("A", 2000), ("B", 1900), ("C", 1800), ("D", 1700)] {
        act(
            &s,
            &mut leader,
            &fid,
            &format!(r#"{{"action":"enter","name":"{name}","rating":{rating}}}"#),
        );
    }
    let t = act(&s, &mut leader, &fid, r#"{"action":"pair"}"#);
    let pairs = first_round_pairs(&t);
    assert!(!pairs.contains(&(1, 3)) && pairs.len() == 2, "{pairs:?}");
    let r = leader.json(
        &s,
        "/api/events",
        r#"{"name":"RR","system":"round-robin","rounds":3,"forbidden_pairs":[["A","C"]]}"#,
    );
    assert!(
        r.status == 400 && r.body.contains("forbidden_pairs"),
        "{}",
        r.body
    );
    // Baku acceleration (C.04.7.1): round 1 of eight pairs the top half among itself.
    let r = leader.json(
        &s,
        "/api/events",
        r#"{"name":"Fast Swiss","system":"swiss","rounds":5,"first_colour":"white","acceleration":"baku"}"#,
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let bid = json(&r.body)["id"].as_str().unwrap().to_owned();
    for i in 0..8 {
        act(
            &s,
            &mut leader,
            &bid,
            &format!(
                r#"{{"action":"enter","name":"P{i}","rating":{}}}"#,
                2400 - i * 50
            ),
        );
    }
    let t = act(&s, &mut leader, &bid, r#"{"action":"pair"}"#);
    assert_eq!(t["acceleration"], "baku");
    let pairs = first_round_pairs(&t);
    assert_eq!(pairs, [(1, 3), (2, 4), (5, 7), (6, 8)]);
    let r = leader.json(
        &s,
        "/api/events",
        r#"{"name":"RR","system":"round-robin","rounds":3,"acceleration":"baku"}"#,
    );
    assert!(
        r.status == 400 && r.body.contains("acceleration"),
        "{}",
        r.body
    );
}
