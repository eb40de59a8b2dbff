//! One way in (STYLE.md 14): every door that makes a game — the lobby's form, lichess's
//! challenges, its game against the AI and its seeks — builds the same request and passes the
//! same checks, so the doors agree: the same refusal with the same words for the same fault,
//! correspondence through each, rated correspondence in its own speed, and an accepted
//! challenge's game under the challenge's id, reached by its `url` (docs/API.md). On SQLite,
//! and on PostgreSQL when `ROOKERY_TEST_POSTGRES` is set.

mod common;

use common::agent::{on_both, user_command};
use common::{Reply, Server, field, request_with, start_with};

/// Two accounts, Anna and Bo, with tokens that may play and challenge; the server.
fn two_players(url: &str) -> (Server, String, String) {
    for name in ["Anna", "Bo"] {
        assert!(user_command(url, &["create", name], "a good password\n").0);
    }
    let token = |name: &str| {
        let (ok, out) = user_command(
            url,
            &["token", name, "--scopes", "board:play,challenge:write"],
            "",
        );
        assert!(ok, "{out}");
        out.trim().to_owned()
    };
    let (anna, bo) = (token("Anna"), token("Bo"));
    (start_with(url, &[]), anna, bo)
}

/// A request with `token`; a body that starts with `{` goes as JSON, any other as a form.
fn call(s: &Server, method: &str, path: &str, token: &str, body: Option<&str>) -> Reply {
    let auth = format!("Bearer {token}");
    let kind = if body.is_some_and(|b| b.starts_with('{')) {
        "application/json"
    } else {
        "application/x-www-form-urlencoded"
    };
    request_with(
        s,
        method,
        path,
        &[("Authorization", auth.as_str()), ("Content-Type", kind)],
        body,
    )
    .unwrap()
}

fn json(reply: &Reply) -> serde_json::Value {
    serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("{e}: {}", reply.body))
}

fn location(reply: &Reply) -> String {
    reply
        .head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .starts_with("location:")
                .then(|| l[9..].trim().to_owned())
        })
        .unwrap_or_default()
}

/// The rating games `user` has played at `speed`, as lichess's user API says.
fn rated_games(s: &Server, user: &str, speed: &str) -> i64 {
    let v = json(&request_with(s, "GET", &format!("/api/user/{user}"), &[], None).unwrap());
    v["perfs"][speed]["games"].as_i64().unwrap_or(0)
}

#[test]
fn a_correspondence_challenge_is_played_under_its_own_id_and_rated() {
    on_both("doors_challenge", |url| {
        let (s, anna, bo) = two_players(url);
        let r = call(
            &s,
            "POST",
            "/api/challenge/bo",
            &anna,
            Some("days=3&color=white&rated=true"),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let c = json(&r);
        let id = c["id"].as_str().unwrap().to_owned();
        assert_eq!(c["timeControl"]["type"], "correspondence", "{c}");
        assert_eq!(c["timeControl"]["daysPerTurn"], 3);
        assert_eq!(c["speed"], "correspondence");
        assert!(
            c["url"].as_str().unwrap().ends_with(&format!("/{id}")),
            "{c}"
        );
        // Waiting: its url leads to the lobby.
        let r = request_with(&s, "GET", &format!("/{id}"), &[], None).unwrap();
        assert_eq!((r.status, location(&r)), (303, "/".to_owned()));

        let r = call(
            &s,
            "POST",
            &format!("/api/challenge/{id}/accept"),
            &bo,
            None,
        );
        assert_eq!(r.status, 200, "{}", r.body);
        // The game is the challenge's id; the challenge's url (and lichess's /{id}/white,
        // /{id}/black) lead to its page.
        for path in [
            format!("/{id}"),
            format!("/{id}/white"),
            format!("/{id}/black"),
        ] {
            let r = request_with(&s, "GET", &path, &[], None).unwrap();
            assert_eq!(
                (r.status, location(&r)),
                (303, format!("/game/{id}")),
                "{path}"
            );
        }
        let r = request_with(&s, "GET", &format!("/{id}/purple"), &[], None).unwrap();
        assert_eq!(r.status, 404);
        let v = json(&request_with(&s, "GET", &format!("/api/games/{id}"), &[], None).unwrap());
        assert_eq!(v["time_control"], "3d", "{v}");
        // Scripts move with the challenge's id.
        for (token, m) in [(&anna, "e2e4"), (&bo, "e7e5")] {
            let r = call(
                &s,
                "POST",
                &format!("/api/board/game/{id}/move/{m}"),
                token,
                None,
            );
            assert_eq!(r.status, 200, "{m}: {}", r.body);
        }
        let r = call(
            &s,
            "POST",
            &format!("/api/board/game/{id}/resign"),
            &bo,
            None,
        );
        assert_eq!(r.status, 200, "{}", r.body);
        // Rated in its own speed, for both players.
        assert_eq!(rated_games(&s, "anna", "correspondence"), 1);
        assert_eq!(rated_games(&s, "bo", "correspondence"), 1);
    });
}

#[test]
fn a_rated_correspondence_game_from_the_lobby_is_rated() {
    on_both("doors_lobby_days", |url| {
        let (s, anna, bo) = two_players(url);
        let r = call(
            &s,
            "POST",
            "/api/games",
            &anna,
            Some(r#"{"time_control":"3d","rated":true,"color":"white"}"#),
        );
        assert_eq!(r.status, 201, "{}", r.body);
        let id = field(&r.body, "id").to_owned();
        let r = call(&s, "POST", &format!("/api/games/{id}/join"), &bo, Some(""));
        assert_eq!(r.status, 200, "{}", r.body);
        for (token, m) in [(&anna, "e4"), (&bo, "e5")] {
            let body = format!(r#"{{"m":"{m}"}}"#);
            let r = call(
                &s,
                "POST",
                &format!("/api/games/{id}/move"),
                token,
                Some(&body),
            );
            assert_eq!(r.status, 200, "{m}: {}", r.body);
        }
        let r = call(
            &s,
            "POST",
            &format!("/api/games/{id}/resign"),
            &bo,
            Some(""),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(rated_games(&s, "anna", "correspondence"), 1);
        assert_eq!(rated_games(&s, "bo", "correspondence"), 1);
        // The leaderboard has the speed.
        let r = request_with(&s, "GET", "/leaderboard/correspondence", &[], None).unwrap();
        assert_eq!(r.status, 200);
    });
}

/// The refusal of a request: its status, code and sentence.
fn refusal(r: &Reply) -> (u16, String, String) {
    let v = json(r);
    (
        r.status,
        v["code"].as_str().unwrap_or_default().to_owned(),
        v["error"].as_str().unwrap_or_default().to_owned(),
    )
}

#[test]
fn every_door_refuses_the_same_fault_in_the_same_words() {
    on_both("doors_agree", |url| {
        let (s, anna, _) = two_players(url);
        let lobby = |body: &str| refusal(&call(&s, "POST", "/api/games", &anna, Some(body)));
        let challenge =
            |body: &str| refusal(&call(&s, "POST", "/api/challenge/bo", &anna, Some(body)));
        let ai = |body: &str| refusal(&call(&s, "POST", "/api/challenge/ai", &anna, Some(body)));
        let seek = |body: &str| refusal(&call(&s, "POST", "/api/board/seek", &anna, Some(body)));
        let fen = "4k3%2F8%2F8%2F8%2F8%2F8%2F4P3%2F4K3%20w%20-%20-%200%201";

        // Rated needs the normal start (one rule in core, the same words at every door).
        let from_lobby =
            lobby(r#"{"time_control":"5+3","rated":true,"fen":"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"}"#);
        assert_eq!(from_lobby.1, "not_rateable", "{from_lobby:?}");
        assert_eq!(
            challenge(&format!(
                "clock.limit=300&clock.increment=3&rated=true&fen={fen}"
            )),
            from_lobby
        );
        // Rated needs a speed: an untimed game is not rated anywhere.
        let untimed = lobby(r#"{"time_control":"untimed","rated":true}"#);
        assert_eq!(untimed.1, "not_rateable");
        assert_eq!(challenge("rated=true"), untimed);

        // A colour that is none: the same sentence at each door.
        let colour = lobby(r#"{"time_control":"5+3","color":"purple"}"#);
        assert_eq!(
            (colour.0, colour.1.as_str()),
            (400, "bad_request"),
            "{colour:?}"
        );
        assert_eq!(challenge("clock.limit=300&color=purple"), colour);
        assert_eq!(ai("level=1&clock.limit=300&color=purple"), colour);
        assert_eq!(seek("time=5&increment=3&color=purple"), colour);

        // A rating range is bounded the same way in both seek doors.
        let range = lobby(r#"{"time_control":"5+3","seek":true,"rating_range":"0-9000"}"#);
        assert_eq!(
            (range.0, range.1.as_str()),
            (400, "bad_request"),
            "{range:?}"
        );
        assert_eq!(seek("time=5&increment=3&ratingRange=0-9000"), range);

        // Days a move: lichess's numbers at every door that takes a time control.
        let days = challenge("days=4");
        assert_eq!(
            (days.0, days.1.as_str()),
            (400, "bad_time_control"),
            "{days:?}"
        );
        assert_eq!(seek("days=4"), days);
        assert_eq!(ai("level=1&days=4"), days);
        let r = call(
            &s,
            "POST",
            "/api/challenge/ai",
            &anna,
            Some("level=1&days=3"),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(json(&r)["speed"], "correspondence");
    });
}

#[test]
fn lichess_challenges_are_rate_limited_as_lichess_limits_them() {
    let (dir, url) = common::temp_url("doors_limits");
    let (s, anna, _) = two_players(&url);
    // lichess: 25 challenges a minute for an account; the 26th in a row waits.
    let mut answers = Vec::new();
    for _ in 0..30 {
        let r = call(
            &s,
            "POST",
            "/api/challenge/bo",
            &anna,
            Some("clock.limit=300"),
        );
        answers.push(r.status);
        if r.status == 429 {
            assert!(
                r.head.to_ascii_lowercase().contains("retry-after:"),
                "{}",
                r.head
            );
            assert!(
                r.head
                    .to_ascii_lowercase()
                    .contains("ratelimit-policy: \"challenge\""),
                "{}",
                r.head
            );
            break;
        }
    }
    assert_eq!(answers.len(), 26, "{answers:?}");
    assert!(answers[..25].iter().all(|s| *s == 200), "{answers:?}");
    let _ = std::fs::remove_dir_all(dir);
}
