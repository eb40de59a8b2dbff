//! Clubs through lichess's team API (docs/API.md "Clubs"): open or by request, with a
//! password; leaders accept, decline, remove, name other leaders, write to every member; the
//! lists and the search; the club's own ladder (R8) from rated games between members.

mod common;

use common::agent::{Browser, on_both, rated_win, signup};
use common::start_with;
use serde_json::Value;

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

#[test]
fn a_club_by_request_with_a_password_its_leaders_and_its_ladder() {
    on_both("clubs", flow);
}

fn flow(url: &str) {
    let s = start_with(url, &["--trust-proxy"]);
    let mut lead = Browser::at("10.8.0.1");
    let mut asker = Browser::at("10.8.0.2");
    let mut third = Browser::at("10.8.0.3");
    for (b, name) in [
        (&mut lead, "lead"),
        (&mut asker, "asker"),
        (&mut third, "third"),
    ] {
        assert_eq!(signup(&s, b, name, "club password").status, 303);
    }
    let r = lead.json(
        &s,
        "/api/clubs",
        r#"{"name":"Night Owls","description":"Late games","open":false,"password":"owl"}"#,
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let t = json(&r.body);
    assert_eq!(
        (t["open"].as_bool(), t["hasPassword"].as_bool()),
        (Some(false), Some(true))
    );
    // The password first, then a request a leader answers.
    let r = asker.json(&s, "/team/night-owls/join", r#"{"message":"hi"}"#);
    assert!(r.status == 400 && r.body.contains("password"), "{}", r.body);
    let r = asker.json(
        &s,
        "/team/night-owls/join",
        r#"{"message":"I play at night","password":"owl"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(json(&r.body)["requested"], true);
    let t = json(&asker.get(&s, "/api/team/night-owls").body);
    assert_eq!(
        (t["joined"].as_bool(), t["requested"].as_bool()),
        (Some(false), Some(true))
    );
    assert_eq!(asker.get(&s, "/api/team/night-owls/requests").status, 403);
    let reqs = json(&lead.get(&s, "/api/team/night-owls/requests").body);
    assert_eq!(reqs[0]["request"]["message"], "I play at night", "{reqs}");
    assert_eq!(reqs[0]["user"]["username"], "asker");
    let r = asker.json(&s, "/api/team/night-owls/request/asker/accept", "{}");
    assert_eq!(r.status, 403, "only a leader accepts: {}", r.body);
    assert_eq!(
        lead.json(&s, "/api/team/night-owls/request/asker/accept", "{}")
            .status,
        200
    );
    let t = json(&asker.get(&s, "/api/team/night-owls").body);
    assert_eq!(
        (t["joined"].as_bool(), t["nbMembers"].as_u64()),
        (Some(true), Some(2))
    );
    // A request declined leaves nothing behind.
    let r = third.json(&s, "/team/night-owls/join", r#"{"password":"owl"}"#);
    assert_eq!(json(&r.body)["requested"], true, "{}", r.body);
    assert_eq!(
        lead.json(&s, "/api/team/night-owls/request/third/decline", "{}")
            .status,
        200
    );
    assert!(
        json(&lead.get(&s, "/api/team/night-owls/requests").body)
            .as_array()
            .unwrap()
            .is_empty()
    );
    let r = lead.json(&s, "/api/team/night-owls/request/third/accept", "{}");
    assert!(
        r.status == 400 && r.body.contains("no such request"),
        "{}",
        r.body
    );
    // Rules: open, no password; third joins at once.
    let r = lead.json(
        &s,
        "/api/team/night-owls/rules",
        r#"{"open":true,"password":""}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let r = third.json(&s, "/team/night-owls/join", "{}");
    assert_eq!(
        (r.status, json(&r.body).get("requested").cloned()),
        (200, None),
        "{}",
        r.body
    );
    // A message to every member; only leaders write it.
    assert_eq!(
        asker
            .json(&s, "/team/night-owls/pm-all", r#"{"message":"x"}"#)
            .status,
        403
    );
    let r = lead.json(
        &s,
        "/team/night-owls/pm-all",
        r#"{"message":"Blitz night on Friday"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let home = asker.get(&s, "/").body;
    assert!(
        home.contains("Blitz night on Friday"),
        "a member's lobby shows it"
    );
    let home = Browser::at("10.8.0.9").get(&s, "/").body;
    assert!(!home.contains("Blitz night on Friday"), "nobody else's");
    // The ladder: lead beats asker twice (R8 from 0: +10, then the higher wins 10 - 20/12.5).
    rated_win(&s, &mut lead, &mut asker);
    rated_win(&s, &mut lead, &mut asker);
    let ladder = json(&lead.get(&s, "/api/team/night-owls/ladder").body);
    assert_eq!(ladder[0]["name"], "lead", "{ladder}");
    assert_eq!(ladder[0]["points"], "18.4", "{ladder}");
    assert_eq!(ladder[0]["games"], 2);
    assert_eq!(ladder[1]["points"], "-18.4", "{ladder}");
    assert_eq!(ladder[2]["name"], "third");
    assert_eq!(ladder[2]["games"], 0);
    // Kick; a leader does not kick himself; leaders named; the only leader stays.
    assert_eq!(
        asker
            .json(&s, "/api/team/night-owls/kick/third", "{}")
            .status,
        403
    );
    assert_eq!(
        lead.json(&s, "/api/team/night-owls/kick/third", "{}")
            .status,
        200
    );
    let r = lead.json(&s, "/api/team/night-owls/kick/lead", "{}");
    assert_eq!(r.status, 400, "{}", r.body);
    let r = lead.json(
        &s,
        "/api/team/night-owls/leader/lead",
        r#"{"leader":false}"#,
    );
    assert!(
        r.status == 400 && r.body.contains("needs a leader"),
        "{}",
        r.body
    );
    assert_eq!(
        lead.json(
            &s,
            "/api/team/night-owls/leader/asker",
            r#"{"leader":true}"#
        )
        .status,
        200
    );
    assert_eq!(
        lead.json(&s, "/team/night-owls/quit", "{}").status,
        200,
        "another leader is left"
    );
    let t = json(&asker.get(&s, "/api/team/night-owls").body);
    assert_eq!(t["leader"]["name"], "asker", "{t}");
    // The lists and the search, lichess's paginator.
    assert_eq!(
        asker
            .json(&s, "/api/clubs", r#"{"name":"Day Club"}"#)
            .status,
        201
    );
    let all = json(&asker.get(&s, "/api/team/all").body);
    assert_eq!(all["nbResults"], 2, "{all}");
    assert_eq!(all["currentPage"], 1);
    let found = json(&asker.get(&s, "/api/team/search?text=owl").body);
    assert_eq!(found["nbResults"], 1, "{found}");
    assert_eq!(found["currentPageResults"][0]["id"], "night-owls");
    assert_eq!(asker.get(&s, "/api/team/nosuch/ladder").status, 404);
    // The pages: the list with its search, the club's page with its ladder, and a leader's
    // tools for its leaders only.
    let list = asker.get(&s, "/team?text=owl").body;
    assert!(
        list.contains("/team/night-owls") && !list.contains("/team/day-club"),
        "{list}"
    );
    let page = asker.get(&s, "/team/night-owls");
    assert_eq!(page.status, 200);
    // lead has left: his games no longer count among the members.
    assert!(page.body.contains("id=\"club-ladder\"") && !page.body.contains("18.4"));
    assert!(page.body.contains("club-pm"), "asker leads it now");
    let page = third.get(&s, "/team/night-owls").body;
    assert!(
        !page.contains("club-pm") && page.contains("club-join"),
        "{page}"
    );
    assert_eq!(third.get(&s, "/team/nosuch").status, 404);
}
