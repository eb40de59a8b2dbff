//! A foreign page cannot act with a player's cookie (docs/API.md, "Cross-site requests"): a
//! form posted from another site, a `text/plain` fetch, a request the browser marks
//! cross-site, and a WebSocket opened from another origin are all refused with 403, and the
//! game does not change. Every answer carries the security headers.

mod common;

use common::{Reply, call, new_game, request_with, start, temp_url};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

fn state(s: &common::Server, id: &str) -> serde_json::Value {
    serde_json::from_str(&call(s, "GET", &format!("/api/games/{id}"), None, None).body).unwrap()
}

/// An action, the headers a foreign page would send with it, and its body.
type Attack<'a> = (&'a str, Vec<(&'a str, &'a str)>, &'a str);

fn post(s: &common::Server, path: &str, headers: &[(&str, &str)], body: &str) -> Reply {
    request_with(s, "POST", path, headers, Some(body)).expect("the server answers")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foreign_page_cannot_move_resign_or_offer_with_the_victims_cookie() {
    let (dir, url) = temp_url("cross-site");
    let s = start(&url);
    let (id, white, _black) = new_game(&s, r#"{"time_control":"5+3","color":"white"}"#);
    attack(&s, &id, &white).await;
    // The same with the session cookie of the account that holds the seat (and no seat
    // cookie at all): a logged-in player's game is as safe.
    let signed = post(
        &s,
        "/signup",
        &[("Content-Type", "application/x-www-form-urlencoded")],
        "name=victim&password=victim+password",
    );
    assert_eq!(signed.status, 303, "{}", signed.body);
    let session = signed.cookie.clone().unwrap();
    assert!(session.starts_with("rk-session="), "{session}");
    let created = post(
        &s,
        "/api/games",
        &[
            ("Cookie", session.as_str()),
            ("Content-Type", "application/json"),
        ],
        r#"{"time_control":"5+3","color":"white"}"#,
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let id = common::field(&created.body, "id").to_owned();
    assert_eq!(
        call(&s, "POST", &format!("/api/games/{id}/join"), None, None).status,
        200
    );
    attack(&s, &id, &session).await;
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// Every attack on game `id` with the victim's `white` cookie is refused and changes nothing;
/// then the victim's own page (and a program) still plays 1. e4.
async fn attack(s: &common::Server, id: &str, white: &str) {
    let before = state(s, id);
    let attacks: [Attack; 6] = [
        // A form posted from another site (what `SameSite=Lax` alone let through from a
        // sibling subdomain or another port of the same host).
        (
            "resign",
            vec![
                ("Origin", "https://evil.example"),
                ("Content-Type", "application/x-www-form-urlencoded"),
            ],
            "a=1",
        ),
        (
            "move",
            vec![
                ("Origin", "https://evil.example"),
                ("Content-Type", "text/plain"),
            ],
            r#"{"m":"e4"}"#,
        ),
        (
            "offer-draw",
            vec![
                ("Origin", "http://evil.localhost"),
                ("Content-Type", "application/json"),
            ],
            "{}",
        ),
        (
            "resign",
            vec![
                ("Origin", "http://localhost:1"),
                ("Content-Type", "application/json"),
            ],
            "{}",
        ),
        (
            "resign",
            vec![("Origin", "null"), ("Content-Type", "text/plain")],
            "{}",
        ),
        // No Origin, but the browser says where it comes from.
        (
            "resign",
            vec![
                ("Sec-Fetch-Site", "cross-site"),
                ("Content-Type", "text/plain"),
            ],
            "{}",
        ),
    ];
    let cookie = ("Cookie", white);
    for (action, mut headers, body) in attacks {
        headers.push(cookie);
        let r = post(s, &format!("/api/games/{id}/{action}"), &headers, body);
        assert_eq!(r.status, 403, "{action} {headers:?}: {}", r.body);
        let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
        assert_eq!(v["code"], "cross_site", "{}", r.body);
    }
    // A socket opened from another origin with the cookie is refused before it opens.
    let mut req = format!("ws://127.0.0.1:{}/game/{id}/socket", s.port)
        .into_client_request()
        .unwrap();
    req.headers_mut().insert("Cookie", white.parse().unwrap());
    req.headers_mut()
        .insert("Origin", "https://evil.example".parse().unwrap());
    let refused = tokio_tungstenite::connect_async(req).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 403);
        }
        other => panic!("a foreign socket opened: {:?}", other.map(|_| ())),
    }
    // Nothing changed.
    let after = state(s, id);
    assert_eq!(after["v"], before["v"]);
    assert_eq!(
        (
            after["status"].as_str(),
            after["san"].as_array().map(Vec::len)
        ),
        (Some("live"), Some(0))
    );
    // Our own page, and a program with no browser headers, still play.
    let own = post(
        s,
        &format!("/api/games/{id}/move"),
        &[
            cookie,
            ("Origin", "http://localhost"),
            ("Sec-Fetch-Site", "same-origin"),
            ("Content-Type", "application/json"),
        ],
        r#"{"m":"e4"}"#,
    );
    assert_eq!(own.status, 200, "{}", own.body);
    assert_eq!(state(s, id)["san"][0], "e4");
}

#[test]
fn every_answer_carries_the_security_headers() {
    let (dir, url) = temp_url("headers");
    let s = start(&url);
    for path in ["/", "/api/games", "/game/nosuchgm", "/static/game.js"] {
        let r = request_with(&s, "GET", path, &[], None).unwrap();
        let head = r.head.to_ascii_lowercase();
        for want in [
            // Files from here, and the import map by its exact hash: nothing else inline.
            "content-security-policy: default-src 'self'; script-src 'self' 'sha256-",
            "frame-ancestors 'none'",
            "x-content-type-options: nosniff",
            "referrer-policy: same-origin",
            // docs/API.md: no page of ours is shown in another site's frame, old browsers
            // included.
            "x-frame-options: deny",
        ] {
            assert!(head.contains(want), "{path} lacks {want}: {head}");
        }
    }
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
