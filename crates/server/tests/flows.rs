//! The flows of a game at the server's doors, HTTP and socket: draw offers, answers and claims
//! (R4.4, R5), abandonment (and its draw), clocks across a restart, the players' and
//! spectators' frames (`pong`, `seated`, the rematch's), the seat cookie, a player's pages and
//! exports, and what a bot does with a draw offer.

mod common;

use std::time::Duration;

use common::ws::{connect, next, next_any, send};
use common::{Server, call, field, http_move, new_game, start, temp_url};

fn json(body: &str) -> serde_json::Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

fn post(s: &Server, id: &str, action: &str, cookie: &str) -> common::Reply {
    call(
        s,
        "POST",
        &format!("/api/games/{id}/{action}"),
        Some(cookie),
        None,
    )
}

fn state(s: &Server, id: &str) -> serde_json::Value {
    json(&call(s, "GET", &format!("/api/games/{id}"), None, None).body)
}

/// Waits for the first frame of type `t`.
async fn frame(ws: &mut common::ws::Ws, t: &str) -> serde_json::Value {
    loop {
        let f = next_any(ws).await;
        if f["t"] == t {
            return f;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_offers_are_answered_and_claims_judged_over_http_and_the_socket() {
    let (dir, url) = temp_url("draws");
    let s = start(&url);
    let (id, white, black) = new_game(&s, r#"{"time_control":"untimed","color":"white"}"#);
    // R5.1 over HTTP: an offer on one's turn waits for the move, then stands.
    assert_eq!(post(&s, &id, "offer-draw", &white).status, 200);
    let early = post(&s, &id, "accept-draw", &black);
    assert_eq!(early.status, 400, "nothing stands yet: {}", early.body);
    assert_eq!(http_move(&s, &id, &white, "e4").status, 200);
    // R5.3 over HTTP: declined; R5.4: White may not offer again until Black has.
    assert_eq!(post(&s, &id, "decline-draw", &black).status, 200);
    assert_eq!(http_move(&s, &id, &black, "e5").status, 200);
    let again = post(&s, &id, "offer-draw", &white);
    assert_eq!(again.status, 400, "{}", again.body);
    // Over the socket: Black offers with a move, White accepts; both hear it end.
    let mut w = connect(s.port, &id, Some(&white), None).await;
    let mut b = connect(s.port, &id, Some(&black), None).await;
    let first = next(&mut w).await;
    assert_eq!(first["d"]["can"]["offer_draw"], false);
    assert_eq!(
        first["d"]["can"]["offer_barred"], true,
        "R5.4, and the page says so"
    );
    next(&mut b).await;
    send(&mut w, r#"{"t":"move","d":{"u":"g1f3","a":1}}"#).await;
    // Black answers once White's move has reached it (two sockets keep no common order).
    frame(&mut b, "move").await;
    send(&mut b, r#"{"t":"move","d":{"u":"b8c6","a":2,"draw":true}}"#).await;
    let offered = frame(&mut w, "draw-offered").await;
    assert_eq!(offered["d"]["by"], "black");
    assert_eq!(offered["d"]["can"]["answer_draw"], true);
    send(&mut w, r#"{"t":"accept-draw","d":{"a":3}}"#).await;
    let end = frame(&mut b, "end").await;
    assert_eq!(
        (
            end["d"]["result"].as_str(),
            end["d"]["termination"].as_str()
        ),
        (Some("1/2-1/2"), Some("agreement"))
    );

    // R4.4 claims: refused without a repetition, granted on the move that makes the third.
    let (id, white, black) = new_game(&s, r#"{"time_control":"untimed","color":"white"}"#);
    let refused = post(&s, &id, "claim-draw", &white);
    assert_eq!(refused.status, 400, "{}", refused.body);
    for (cookie, m) in [
        (&white, "g1f3"),
        (&black, "g8f6"),
        (&white, "f3g1"),
        (&black, "f6g8"),
        (&white, "g1f3"),
        (&black, "g8f6"),
        (&white, "f3g1"),
    ] {
        assert_eq!(http_move(&s, &id, cookie, m).status, 200);
    }
    // Black's ...Ng8 would make the start position's third occurrence: claimed with it.
    let mut b = connect(s.port, &id, Some(&black), None).await;
    next(&mut b).await;
    send(&mut b, r#"{"t":"claim-draw","d":{"u":"f6g8","a":9}}"#).await;
    let end = frame(&mut b, "end").await;
    assert_eq!(end["d"]["termination"], "threefold repetition");
    let done = state(&s, &id);
    assert_eq!(
        done["san"].as_array().unwrap().len(),
        8,
        "the move came with the claim"
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_gone_on_their_turn_loses_by_abandonment_or_draws_if_the_claimant_cannot_mate() {
    let (dir, url) = temp_url("abandon");
    let s = start(&url);
    // Two games, White claiming in both: in the second White has a lone king and cannot
    // mate, so the claim is a draw (as on flag fall, R6). At 1 minute a tenth is 6 s, so
    // the wait is its least, 15 s.
    let won = new_game(&s, r#"{"time_control":"1+0","color":"white"}"#);
    let drawn = new_game(
        &s,
        r#"{"time_control":"1+0","color":"white","fen":"4k3/3ppp2/8/8/8/8/8/4K3 w - - 0 1"}"#,
    );
    let moves = [["e4", "e5", "Nf3"], ["Ke2", "e6", "Kd3"]];
    let mut claimants = Vec::new();
    for ((id, white, black), moves) in [&won, &drawn].into_iter().zip(moves) {
        let mut w = connect(s.port, id, Some(white), None).await;
        next(&mut w).await;
        // Black is there, then leaves on its own turn.
        let b = connect(s.port, id, Some(black), None).await;
        for (i, m) in moves.iter().enumerate() {
            let cookie = if i % 2 == 0 { white } else { black };
            assert_eq!(http_move(&s, id, cookie, m).status, 200, "{m}");
        }
        drop(b);
        loop {
            let f = frame(&mut w, "presence").await;
            if f["d"]["connected"] == false {
                assert_eq!(f["d"]["claim_after_ms"], 15_000);
                break;
            }
        }
        claimants.push((id.clone(), w));
    }
    tokio::time::sleep(Duration::from_millis(15_500)).await;
    let mut ends = Vec::new();
    for (id, mut w) in claimants {
        send(&mut w, r#"{"t":"claim-victory","d":{"a":1}}"#).await;
        let end = frame(&mut w, "end").await;
        ends.push((end["d"]["result"].clone(), end["d"]["termination"].clone()));
        assert_eq!(state(&s, &id)["termination"], "abandonment");
    }
    assert_eq!(ends[0], ("1-0".into(), "abandonment".into()));
    assert_eq!(ends[1], ("1/2-1/2".into(), "abandonment".into()));
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// R6 (docs/RULES.md): time while the server is down is charged to nobody. The clocks
/// after a restart are the ones before it, less only the running side's time since.
#[test]
fn clocks_stand_across_a_restart() {
    let (dir, url) = temp_url("clocks-restart");
    let s = start(&url);
    let (id, white, black) = new_game(&s, r#"{"time_control":"5+3","color":"white"}"#);
    for (cookie, m) in [
        (&white, "e4"),
        (&black, "e5"),
        (&white, "Nf3"),
        (&black, "Nc6"),
    ] {
        assert_eq!(http_move(&s, &id, cookie, m).status, 200);
    }
    let before = state(&s, &id);
    drop(s);
    std::thread::sleep(Duration::from_secs(2));
    let s = start(&url);
    let after = state(&s, &id);
    let ms = |v: &serde_json::Value, c: &str| v["clocks"][c].as_i64().unwrap();
    // Black's clock stopped at its move: exactly as stored.
    assert_eq!(ms(&after, "black"), ms(&before, "black"));
    // White's runs, but the two seconds down are not on it.
    let charged = ms(&before, "white") - ms(&after, "white");
    assert!(
        (0..1500).contains(&charged),
        "White lost {charged} ms to the restart"
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_hear_the_seat_taken_and_the_rematch_agreed_and_late_clients_get_a_state() {
    let (dir, url) = temp_url("frames");
    let s = start(&url);
    let (id, white, created) = common::create(&s, r#"{"time_control":"untimed","color":"white"}"#);
    // The seat cookie: the browser's script cannot read it, no other site's form sends it.
    let header = created.set_cookie.unwrap();
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(header.contains(flag), "{header}");
    }
    let mut w = connect(s.port, &id, Some(&white), None).await;
    assert_eq!(next(&mut w).await["t"], "state");
    let joined = call(&s, "POST", &format!("/api/games/{id}/join"), None, None);
    let black = joined.cookie.unwrap();
    let seated = frame(&mut w, "seated").await;
    assert_eq!(seated["d"]["color"], "black");
    assert_eq!(seated["d"]["name"], json(&joined.body)["name"]);
    // A ping is answered.
    send(&mut w, r#"{"t":"ping"}"#).await;
    assert_eq!(
        frame(&mut w, "pong").await,
        serde_json::json!({"t": "pong"})
    );
    // Abort, then the rematch's frames: offered, declined, offered again, agreed.
    assert_eq!(post(&s, &id, "abort", &white).status, 200);
    frame(&mut w, "end").await;
    assert_eq!(post(&s, &id, "rematch", &black).status, 200);
    assert_eq!(frame(&mut w, "rematch-offered").await["d"]["by"], "black");
    assert_eq!(post(&s, &id, "decline-rematch", &white).status, 200);
    assert_eq!(frame(&mut w, "rematch-declined").await["d"]["by"], "white");
    assert_eq!(post(&s, &id, "rematch", &black).status, 200);
    let made = post(&s, &id, "rematch", &white);
    assert_eq!(made.status, 201, "{}", made.body);
    let rematch = frame(&mut w, "rematch").await;
    assert_eq!(rematch["d"]["id"], json(&made.body)["id"]);
    // A client that claims to know a version the room never reached gets a full state.
    let mut late = connect(s.port, &id, None, Some(u64::MAX / 2)).await;
    let f = next(&mut late).await;
    assert_eq!(f["t"], "state");
    assert_eq!(f["d"]["over"]["termination"], "aborted");
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_players_page_and_export_list_their_games_in_order() {
    let (dir, url) = temp_url("player");
    let s = common::start_with(&url, &["--public-url", "https://chess.example.org/"]);
    let mut ids = Vec::new();
    for result in ["1-0", "0-1", "1/2-1/2"] {
        let pgn = format!(
            "[White \"Anna\"]\n[Black \"Bo\"]\n\n1. e4 {{ [%clk 0:05:00] }} e5 {{ [%clk 0:05:00] }} {result}\n"
        );
        let r = call(&s, "POST", "/api/import", None, Some(&pgn));
        assert_eq!(r.status, 200, "{}", r.body);
        ids.push(field(&r.body, "id").to_owned());
        std::thread::sleep(Duration::from_millis(5));
    }
    // The export: oldest first, clocks unless asked not to.
    let all = call(&s, "GET", "/api/games/user/Anna", None, None).body;
    let results: Vec<&str> = all
        .lines()
        .filter_map(|l| l.strip_prefix("[Result \""))
        .map(|l| l.trim_end_matches("\"]"))
        .collect();
    assert_eq!(results, ["1-0", "0-1", "1/2-1/2"]);
    // Each game's Site is its address under --public-url.
    let sites: Vec<String> = ids
        .iter()
        .map(|id| format!("[Site \"https://chess.example.org/game/{id}\"]"))
        .collect();
    let order: Vec<usize> = sites
        .iter()
        .map(|site| all.find(site.as_str()).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{all}");
    assert!(all.contains("[%clk 0:05:00]"));
    let bare = call(&s, "GET", "/api/games/user/Anna?clocks=false", None, None).body;
    assert!(
        !bare.contains("%clk") && bare.matches("[Event ").count() == 3,
        "{bare}"
    );
    // The page lists them newest first, with their results.
    let page = call(&s, "GET", "/@/Anna", None, None);
    assert_eq!(page.status, 200);
    let newest = page.body.find(&ids[2]).unwrap();
    let oldest = page.body.find(&ids[0]).unwrap();
    assert!(newest < oldest, "newest first");
    for result in ["1-0", "0-1", "1/2-1/2"] {
        assert!(page.body.contains(result), "{result}");
    }
    // No account and no game of that name: no such player (issue 54), the site's 404 page.
    let nobody = call(&s, "GET", "/@/Nobody", None, None);
    assert_eq!(nobody.status, 404);
    assert!(!nobody.body.contains("/game/"));
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// A bot never offers a draw nor aborts (docs/API.md): it answers an offer by moving, which
/// declines it (R5.3).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_declines_a_draw_offer_by_moving_and_only_ever_moves() {
    let (dir, url) = temp_url("bot-offer");
    let s = start(&url);
    let (id, white, _) =
        common::create(&s, r#"{"time_control":"untimed","color":"white","bot":1}"#);
    let mut w = connect(s.port, &id, Some(&white), None).await;
    // The page offers no draw to a bot, which never accepts one; the rules still allow it.
    assert_eq!(next(&mut w).await["d"]["can"]["offer_draw"], false);
    let mut seen = Vec::new();
    // The first move comes with an offer; after the bot's decline R5.4 bars another. The
    // third move, c3, is legal whatever the bot played: it blocks the only checks Black can
    // give in two moves (...Bb4+ and ...Qa5+), where Nf3 would not.
    for (i, (m, offer)) in [("e2e4", true), ("d2d4", false), ("c2c3", false)]
        .iter()
        .enumerate()
    {
        let frame = format!(r#"{{"t":"move","d":{{"u":"{m}","a":{i},"draw":{offer}}}}}"#);
        send(&mut w, &frame).await;
        loop {
            let f = next(&mut w).await;
            let t = f["t"].as_str().unwrap().to_owned();
            assert_ne!(t, "error", "{f}");
            let bot_moved = t == "move" && f["d"]["by"] == "black";
            seen.push(t);
            if bot_moved {
                assert_eq!(f["d"]["can"]["offer_draw"], false, "R5.4: {f}");
                break;
            }
        }
    }
    // The offer was made, then declined by the bot's move; nothing else came from the bot.
    let offers = seen.iter().filter(|t| *t == "draw-offered").count();
    let declines = seen.iter().filter(|t| *t == "draw-declined").count();
    assert_eq!((offers, declines), (1, 1), "{seen:?}");
    assert!(
        seen.iter()
            .all(|t| ["ack", "move", "draw-offered", "draw-declined"].contains(&t.as_str())),
        "{seen:?}"
    );
    let game = state(&s, &id);
    assert_eq!(game["status"], "live");
    assert_eq!(game["san"].as_array().unwrap().len(), 6);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// Before anyone takes the open seat there is nothing to play: the creator may only abort.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_waiting_for_its_opponent_takes_no_move_until_the_seat_is_taken() {
    let (dir, url) = temp_url("waiting");
    let s = start(&url);
    let (id, white, _) = common::create(&s, r#"{"time_control":"5+3","color":"white"}"#);
    let early = http_move(&s, &id, &white, "e4");
    assert_eq!(early.status, 409, "{}", early.body);
    assert!(
        early.body.contains("wait for an opponent"),
        "{}",
        early.body
    );
    assert_eq!(post(&s, &id, "offer-draw", &white).status, 409);
    let mut w = connect(s.port, &id, Some(&white), None).await;
    let f = next(&mut w).await;
    assert_eq!(f["d"]["waiting"], true);
    assert!(f["d"]["dests"].is_null(), "{f}");
    assert_eq!(f["d"]["can"]["offer_draw"], false);
    assert_eq!(f["d"]["can"]["abort"], true);
    // Someone takes the seat: the creator hears it with the moves now open to them.
    call(&s, "POST", &format!("/api/games/{id}/join"), None, None);
    let seated = frame(&mut w, "seated").await;
    assert!(seated["d"]["dests"]["e2"].is_array(), "{seated}");
    assert_eq!(http_move(&s, &id, &white, "e4").status, 200);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// The lobby lists only what can be joined or watched now: a public seek while its creator's
/// page is open (not a game for a friend), and a game once a move is played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_what_can_be_joined_or_watched_now() {
    let (dir, url) = temp_url("lobby-list");
    let s = start(&url);
    let listed = |id: &str| {
        let list = json(&call(&s, "GET", "/api/games", None, None).body);
        list.as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .map(|g| g["open"].as_bool().unwrap())
    };
    let (friend, friend_cookie, _) =
        common::create(&s, r#"{"time_control":"5+3","color":"white"}"#);
    let (seek, seek_cookie, _) = common::create(&s, r#"{"time_control":"5+3","seek":true}"#);
    let mut pages = Vec::new();
    for (id, cookie) in [(&friend, &friend_cookie), (&seek, &seek_cookie)] {
        let mut page = connect(s.port, id, Some(cookie), None).await;
        next(&mut page).await;
        pages.push(page);
    }
    // The seek lists once its creator's page counts as there.
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while listed(&seek).is_none() {
        assert!(
            std::time::Instant::now() < deadline,
            "the seek never listed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(listed(&seek), Some(true));
    assert_eq!(listed(&friend), None, "a game for a friend is not public");
    // The creator closes the tab: the seek leaves the lobby within seconds.
    drop(pages.pop());
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while listed(&seek).is_some() {
        assert!(
            std::time::Instant::now() < deadline,
            "a closed tab's seek stayed listed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The friend joins: nothing to watch until the first move.
    let joined = call(&s, "POST", &format!("/api/games/{friend}/join"), None, None);
    assert_eq!(joined.status, 200);
    // The room says how it lists at the top of each turn of its loop: once it has answered
    // a later request (the game's state, asked of the room), the turn after the join has
    // listed. A positive signal, where a pause would pass on a slow machine without proof.
    assert_eq!(
        call(&s, "GET", &format!("/api/games/{friend}"), None, None).status,
        200
    );
    assert_eq!(listed(&friend), None, "an unstarted game is not listed");
    assert_eq!(http_move(&s, &friend, &friend_cookie, "e4").status, 200);
    // The room updates the lobby just after it answers the move: give it a moment.
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while listed(&friend).is_none() && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        listed(&friend),
        Some(false),
        "a game under way is there to watch"
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
