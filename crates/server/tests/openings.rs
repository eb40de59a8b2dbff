//! Opening names in the server (lichess's tables, `rookery-openings`): live on the game's
//! socket as moves are played, in the lobby's list, on player pages, and as `ECO`/`Opening`
//! PGN tags — also for imported games; none for a game from a set-up position.

mod common;

use common::ws::{connect, next};
use common::{call, http_move, new_game, start, temp_url};

const NAJDORF: [&str; 10] = [
    "e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openings_are_named_live_in_lists_pages_and_pgn() {
    let (dir, url) = temp_url("openings");
    let s = start(&url);
    let (id, white, black) = new_game(&s, r#"{"time_control":"10+5","color":"white"}"#);
    let mut watcher = connect(s.port, &id, None, None).await;
    let state = next(&mut watcher).await;
    assert_eq!(
        state["d"]["opening"],
        serde_json::Value::Null,
        "no move, no opening"
    );
    let mut names = Vec::new();
    for (i, m) in NAJDORF.iter().enumerate() {
        let cookie = if i % 2 == 0 { &white } else { &black };
        assert_eq!(http_move(&s, &id, cookie, m).status, 200);
        let frame = next(&mut watcher).await;
        assert_eq!(frame["t"], "move");
        names.push(
            frame["d"]["opening"]["name"]
                .as_str()
                .unwrap_or("")
                .to_owned(),
        );
    }
    assert_eq!(names[0], "King's Pawn Game");
    assert_eq!(names[1], "Sicilian Defense");
    assert_eq!(names[9], "Sicilian Defense: Najdorf Variation");
    // A move out of the tables keeps the last name.
    assert_eq!(http_move(&s, &id, &white, "Nb3").status, 200);
    let frame = next(&mut watcher).await;
    assert_eq!(frame["d"]["opening"]["eco"], "B90", "{frame}");
    // A new connection's state frame names it too.
    let mut late = connect(s.port, &id, None, None).await;
    let state = next(&mut late).await;
    assert_eq!(
        state["d"]["opening"]["name"],
        "Sicilian Defense: Najdorf Variation"
    );

    // The lobby's list of games under way.
    let list = call(&s, "GET", "/api/games", None, None).body;
    assert!(
        list.contains(r#""opening":{"eco":"B90","name":"Sicilian Defense: Najdorf Variation"}"#),
        "{list}"
    );
    // The PGN and the player page.
    let pgn = call(&s, "GET", &format!("/game/export/{id}"), None, None).body;
    assert!(pgn.contains("[ECO \"B90\"]"), "{pgn}");
    assert!(pgn.contains("[Opening \"Sicilian Defense: Najdorf Variation\"]"));
    let white_name = pgn
        .lines()
        .find_map(|l| l.strip_prefix("[White \"")?.strip_suffix("\"]"))
        .unwrap()
        .to_owned();
    let page = call(
        &s,
        "GET",
        &format!("/@/{}", white_name.replace(' ', "%20")),
        None,
        None,
    )
    .body;
    assert!(
        page.contains("Sicilian Defense: Najdorf Variation"),
        "{page}"
    );

    // An imported game without opening tags gets them on export; a set-up position none.
    let imported = call(
        &s,
        "POST",
        "/api/import",
        None,
        Some(
            "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 0-1\n",
        ),
    );
    assert_eq!(imported.status, 200, "{}", imported.body);
    let iid = common::field(&imported.body, "id").to_owned();
    let pgn = call(&s, "GET", &format!("/game/export/{iid}"), None, None).body;
    assert!(
        pgn.contains("[ECO \"D5"),
        "a Queen's Gambit Declined: {pgn}"
    );
    assert!(pgn.contains("[Opening \"Queen's Gambit Declined"), "{pgn}");
    let (fid, fw, _) = new_game(
        &s,
        r#"{"time_control":"10+5","color":"white","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1"}"#,
    );
    assert_eq!(http_move(&s, &fid, &fw, "e4").status, 200);
    let pgn = call(&s, "GET", &format!("/game/export/{fid}"), None, None).body;
    assert!(
        !pgn.contains("[ECO"),
        "a set-up position has no opening: {pgn}"
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
