//! Ratings around the game, over HTTP: quick pairing pools (anonymous players casual,
//! accounts rated), seeks with a rating range, ratings in the lobby's lists, the
//! leaderboards and the ladder page, the player page's rating chart (docs/RATINGS.md).

mod common;

use common::agent::{Browser, signup};
use common::{Reply, Server, field, start_with, temp_url};

/// Joins the pool of `control`; the ticket.
fn join(s: &Server, b: &mut Browser, control: &str) -> String {
    let r = b.json(
        s,
        "/api/pool",
        &format!(r#"{{"time_control":"{control}"}}"#),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    field(&r.body, "ticket").to_owned()
}

/// Both players wait on their tickets at once (long polls) until paired; their seats.
fn paired(s: &Server, a: &mut Browser, b: &mut Browser, ta: &str, tb: &str) -> (Reply, Reply) {
    let wait = |s: &Server, who: &mut Browser, ticket: &str| loop {
        let r = who.get(s, &format!("/api/pool/{ticket}"));
        if !r.body.contains("\"waiting\":true") {
            return r;
        }
    };
    std::thread::scope(|scope| {
        let first = scope.spawn(|| wait(s, a, ta));
        let second = wait(s, b, tb);
        (first.join().unwrap(), second)
    })
}

fn play(s: &Server, who: &mut Browser, id: &str, m: &str) {
    let r = who.json(
        s,
        &format!("/api/games/{id}/move"),
        &format!(r#"{{"m":"{m}"}}"#),
    );
    assert_eq!(r.status, 200, "{m}: {}", r.body);
}

#[test]
fn pools_pair_guests_casual_and_accounts_rated() {
    let (dir, url) = temp_url("pools");
    let s = start_with(&url, &["--trust-proxy"]);

    // The grid: lichess's eleven and the seeds' classical control, with their speeds.
    let grid = Browser::at("10.1.0.9").get(&s, "/api/pools").body;
    for (control, speed) in [
        ("1+0", "bullet"),
        ("3+2", "blitz"),
        ("10+5", "rapid"),
        ("30+20", "classical"),
        ("40/90+30:30+30", "classical"),
    ] {
        assert!(
            grid.contains(&format!(
                r#""time_control":"{control}","time_control_words":"#
            )) && grid.contains(&format!(r#""speed":"{speed}""#)),
            "{control}: {grid}"
        );
    }
    assert_eq!(grid.matches("\"time_control\"").count(), 12);

    // Two guests: a casual game, both seats given, opposite colours, generated names.
    let (mut g1, mut g2) = (Browser::at("10.1.0.1"), Browser::at("10.1.0.2"));
    let r = g1.json(&s, "/api/pool", r#"{"time_control":"3+2"}"#);
    assert!(r.body.contains("\"rated\":false"), "{}", r.body);
    let t1 = field(&r.body, "ticket").to_owned();
    let t2 = join(&s, &mut g2, "3+2");
    let counts = g1.get(&s, "/api/pools").body;
    assert!(
        counts.contains(r#""time_control":"3+2","time_control_words":"3 min + 2 s a move","speed":"blitz","rated_waiting":0,"casual_waiting":2"#),
        "{counts}"
    );
    let (a, b) = paired(&s, &mut g1, &mut g2, &t1, &t2);
    assert_eq!((a.status, b.status), (200, 200), "{} {}", a.body, b.body);
    let game = field(&a.body, "id").to_owned();
    assert_eq!(field(&b.body, "id"), game, "the same game");
    assert_ne!(field(&a.body, "color"), field(&b.body, "color"));
    let state = g1.get(&s, &format!("/api/games/{game}")).body;
    assert!(state.contains(&format!(r#""you":"{}""#, field(&a.body, "color"))));
    assert!(!state.contains("\"ratings\""), "casual: {state}");
    // Asked again, a paired ticket gives the same seat; the pools are empty again.
    assert_eq!(
        field(&g1.get(&s, &format!("/api/pool/{t1}")).body, "id"),
        game
    );
    assert!(
        g1.get(&s, "/api/pools")
            .body
            .contains("\"casual_waiting\":0")
    );

    // Refusals: a control not in the grid, a ticket nobody holds, a ticket that left.
    let r = g1.json(&s, "/api/pool", r#"{"time_control":"4+4"}"#);
    assert_eq!((r.status, field(&r.body, "code")), (400, "unknown_pool"));
    let r = g1.get(&s, "/api/pool/nothing");
    assert_eq!((r.status, field(&r.body, "code")), (404, "no_ticket"));
    let t = join(&s, &mut g1, "5+0");
    assert_eq!(
        g1.send(&s, "DELETE", &format!("/api/pool/{t}"), "", None)
            .status,
        200
    );
    assert_eq!(g1.get(&s, &format!("/api/pool/{t}")).status, 404);

    // Two accounts: a rated game; one pool at a time (a second join drops the first ticket).
    let (mut anna, mut bo) = (Browser::at("10.1.0.3"), Browser::at("10.1.0.4"));
    assert_eq!(signup(&s, &mut anna, "anna", "anna's password").status, 303);
    assert_eq!(signup(&s, &mut bo, "bo", "bo's password").status, 303);
    let first = join(&s, &mut anna, "1+0");
    let r = anna.json(&s, "/api/pool", r#"{"time_control":"3+2"}"#);
    assert!(
        r.body.contains("\"rated\":true") && r.body.contains("\"rating\":\"1500?\""),
        "{}",
        r.body
    );
    let ta = field(&r.body, "ticket").to_owned();
    assert_eq!(anna.get(&s, &format!("/api/pool/{first}")).status, 404);
    let tb = join(&s, &mut bo, "3+2");
    let (a, b) = paired(&s, &mut anna, &mut bo, &ta, &tb);
    assert_eq!((a.status, b.status), (200, 200), "{} {}", a.body, b.body);
    let game = field(&a.body, "id").to_owned();
    assert_eq!(field(&b.body, "id"), game);
    let (mut white, mut black) = if field(&a.body, "color") == "white" {
        (anna, bo)
    } else {
        (bo, anna)
    };
    let state = white.get(&s, &format!("/api/games/{game}")).body;
    assert!(state.contains("\"ratings\""), "rated: {state}");
    play(&s, &mut white, &game, "e4");
    play(&s, &mut black, &game, "e5");
    // The lobby lists the game under way with both ratings.
    let list = white.get(&s, "/api/games").body;
    let at = list.find(&game).expect("listed");
    let item = &list[at..list[at..].find('}').map_or(list.len(), |e| at + e)];
    assert!(
        item.contains(r#""rated":true,"white_rating":"1500?","black_rating":"1500?""#),
        "{item}"
    );
    let r = black.form(&s, &format!("/api/games/{game}/resign"), &[]);
    assert_eq!(r.status, 200, "{}", r.body);
    let pgn = white.get(&s, &format!("/game/export/{game}")).body;
    assert!(
        pgn.contains("[WhiteRatingDiff \"+") && pgn.contains("[BlackRatingDiff \"-"),
        "{pgn}"
    );

    // A seek with a rating range: only logged-in players within it may join.
    let mut cid = Browser::at("10.1.0.5");
    assert_eq!(signup(&s, &mut cid, "cid", "cid's password").status, 303);
    for (body, why) in [
        (
            r#"{"time_control":"3+2","rating_range":"1400-1600"}"#,
            "not a seek",
        ),
        (
            r#"{"time_control":"3+2","seek":true,"rating_range":"1600-1400"}"#,
            "low > high",
        ),
        (
            r#"{"time_control":"3+2","seek":true,"rating_range":"about 1500"}"#,
            "not numbers",
        ),
        (
            r#"{"time_control":"untimed","seek":true,"rating_range":"0-4000"}"#,
            "untimed",
        ),
    ] {
        let r = white.json(&s, "/api/games", body);
        assert_eq!(
            (r.status, field(&r.body, "code")),
            (400, "bad_request"),
            "{why}"
        );
    }
    let r = g1.json(
        &s,
        "/api/games",
        r#"{"time_control":"3+2","seek":true,"rating_range":"1400-1600"}"#,
    );
    assert_eq!(r.status, 400, "a guest's seek has no range: {}", r.body);
    let open = |who: &mut Browser, range: &str| {
        let r = who.json(
            &s,
            "/api/games",
            &format!(r#"{{"time_control":"3+2","seek":true,"rating_range":"{range}"}}"#),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        field(&r.body, "id").to_owned()
    };
    let near = open(&mut white, "1400-1600");
    let far = open(&mut white, "1700-1900");
    let r = g2.form(&s, &format!("/api/games/{near}/join"), &[]);
    assert_eq!(
        (r.status, field(&r.body, "code")),
        (403, "rating_out_of_range"),
        "a guest"
    );
    let r = cid.form(&s, &format!("/api/games/{far}/join"), &[]);
    assert_eq!(
        (r.status, field(&r.body, "code")),
        (403, "rating_out_of_range")
    );
    assert!(
        r.body.contains("from 1700 to 1900; yours is 1500"),
        "{}",
        r.body
    );
    let r = cid.form(&s, &format!("/api/games/{near}/join"), &[]);
    assert_eq!(r.status, 200, "cid (1500) is within 1400-1600: {}", r.body);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
