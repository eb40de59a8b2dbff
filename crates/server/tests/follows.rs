//! Following (issue 54, lichess's relation API): follow and unfollow through
//! `/api/rel/{follow|unfollow}/{name}`, `GET /api/rel/following` as NDJSON, the refusals, and a
//! player's activity by day, on both backends.

mod common;

use common::agent::{Browser, on_both, rated_win, signup};
use common::start_with;

#[test]
fn following_and_a_players_activity() {
    on_both("follows", flow);
}

fn flow(url: &str) {
    let s = start_with(url, &["--trust-proxy"]);
    let mut ann = Browser::at("10.9.0.1");
    let mut bo = Browser::at("10.9.0.2");
    let mut cy = Browser::at("10.9.0.3");
    for (b, name) in [(&mut ann, "ann"), (&mut bo, "bo"), (&mut cy, "cy")] {
        assert_eq!(signup(&s, b, name, "follow password").status, 303);
    }
    for who in ["bo", "cy", "bo"] {
        let r = ann.form(&s, &format!("/api/rel/follow/{who}"), &[]);
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let list = |b: &mut Browser| -> Vec<serde_json::Value> {
        let r = b.get(&s, "/api/rel/following");
        assert_eq!(r.status, 200, "{}", r.body);
        r.body
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let names = |v: &[serde_json::Value]| -> Vec<String> {
        v.iter()
            .map(|p| p["username"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        names(&list(&mut ann)),
        ["bo", "cy"],
        "following twice is once"
    );
    assert!(list(&mut ann).iter().all(|p| p["online"] == false));
    assert_eq!(ann.form(&s, "/api/rel/unfollow/cy", &[]).status, 200);
    assert_eq!(names(&list(&mut ann)), ["bo"]);
    assert!(list(&mut bo).is_empty());
    // Refused: oneself, nobody, no account.
    assert_eq!(ann.form(&s, "/api/rel/follow/ann", &[]).status, 400);
    assert_eq!(ann.form(&s, "/api/rel/follow/nobody_here", &[]).status, 404);
    let mut guest = Browser::at("10.9.0.9");
    assert_eq!(guest.form(&s, "/api/rel/follow/bo", &[]).status, 401);
    // Activity: today, a game won and whom Ann followed.
    rated_win(&s, &mut ann, &mut bo);
    let page = ann.get(&s, "/@/ann").body;
    assert!(
        page.contains("Games: 1 (1 won, 0 drawn, 0 lost)")
            && page.contains("Started following bo<"),
        "{page}"
    );
    let page = ann.get(&s, "/@/bo").body;
    assert!(
        page.contains("id=\"btn-follow\" data-following=\"true\""),
        "{page}"
    );
    drop(s);
}
