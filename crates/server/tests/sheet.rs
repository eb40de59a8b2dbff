//! The club record (seed 003): a game created with an event, round and table carries them in
//! its PGN (`Event`, `Round`, `Board`, R7) and on its score sheet, whose fields, numbering and
//! notations (SAN, the seeds' long form) are checked here; the browser test prints it.

mod common;

use common::{call, field, http_move, new_game, request_with, start, temp_url};

#[test]
fn the_score_sheet_and_the_club_tags() {
    let (dir, url) = temp_url("sheet");
    let s = start(&url);
    let (id, white, black) = new_game(
        &s,
        r#"{"time_control":"90+30","color":"white","event":"Spring Cup","round":"3","table":"12"}"#,
    );
    for (i, m) in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"]
        .iter()
        .enumerate()
    {
        let cookie = if i % 2 == 0 { &white } else { &black };
        assert_eq!(http_move(&s, &id, cookie, m).status, 200, "{m}");
    }
    assert_eq!(
        call(
            &s,
            "POST",
            &format!("/api/games/{id}/resign"),
            Some(&black),
            None
        )
        .status,
        200
    );
    let pgn = call(&s, "GET", &format!("/game/export/{id}"), None, None).body;
    for tag in [
        "[Event \"Spring Cup\"]",
        "[Round \"3\"]",
        "[Board \"12\"]",
        "[Result \"1-0\"]",
    ] {
        assert!(pgn.contains(tag), "{tag}: {pgn}");
    }
    let sheet = call(&s, "GET", &format!("/game/{id}/sheet"), None, None).body;
    for (field, value) in [
        ("f-event", "Spring Cup"),
        ("f-round", "3"),
        ("f-table", "12"),
        ("f-result", "1-0"),
        ("f-limit", "90 min + 30 s a move"),
        ("f-ended", "Resignation"),
    ] {
        assert!(
            sheet.contains(&format!("id=\"{field}\">{value}</td>")),
            "{field}: {sheet}"
        );
    }
    let white_name = pgn
        .lines()
        .find_map(|l| l.strip_prefix("[White \"")?.strip_suffix("\"]"))
        .unwrap();
    assert!(sheet.contains(&format!("id=\"f-winner\">{white_name}</td>")));
    assert!(
        sheet.contains("<td class=\"n\">3</td><td>Bb5</td><td>a6</td>"),
        "{sheet}"
    );
    assert!(sheet.contains("<td class=\"n\">5</td><td>O-O</td><td></td>"));
    // The seeds' long form: from-to with - or ×, castling 0-0.
    let long = call(
        &s,
        "GET",
        &format!("/game/{id}/sheet?notation=long"),
        None,
        None,
    )
    .body;
    assert!(
        long.contains("<td class=\"n\">4</td><td>Bb5×c6</td><td>d7×c6</td>"),
        "{long}"
    );
    assert!(long.contains("<td>Ng1-f3</td>") && long.contains("<td>0-0</td>"));
    // In Chinese, the sheet's own headings.
    let zh = request_with(
        &s,
        "GET",
        &format!("/game/{id}/sheet"),
        &[("Cookie", "lang=zh")],
        None,
    )
    .unwrap()
    .body;
    for word in [
        "国际象棋记录",
        "比赛名称",
        "用时",
        "时限",
        "胜方",
        "认输",
        // Issue 54: the reader's piece letters, as on the game page.
        "<td class=\"n\">3</td><td>象b5</td><td>a6</td>",
        "轮",
        "台",
    ] {
        assert!(zh.contains(word), "{word}");
    }
    // Refused: a club field too long; an unknown game's sheet is a 404 page.
    let r = call(
        &s,
        "POST",
        "/api/games",
        None,
        Some(&format!(
            r#"{{"time_control":"5+3","event":"{}"}}"#,
            "x".repeat(65)
        )),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(
        call(&s, "GET", "/game/nothing/sheet", None, None).status,
        404
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 54: an imported game keeps the tags it came with (event, site, date, round, titles,
/// ratings, any other), in its PGN and on its score sheet; the file's `Result` and
/// `Termination` give way to what the replayed moves show.
#[test]
fn an_imported_game_keeps_its_own_tags() {
    let (dir, url) = temp_url("sheet-import");
    let s = start(&url);
    let pgn = "[Event \"Club Ladder Night\"]\n[Site \"Town Hall\"]\n[Date \"2026.12.04\"]\n\
               [Round \"7\"]\n[White \"Anna\"]\n[Black \"Bo\"]\n[Result \"1-0\"]\n\
               [WhiteTitle \"GM\"]\n[WhiteElo \"2450\"]\n[BlackElo \"1980\"]\n\
               [Annotator \"Carl\"]\n[Termination \"Time forfeit\"]\n\n\
               1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n";
    let r = call(&s, "POST", "/api/import", None, Some(pgn));
    assert_eq!(r.status, 200, "{}", r.body);
    let id = field(&r.body, "id").to_owned();
    let exported = call(&s, "GET", &format!("/game/export/{id}"), None, None).body;
    for tag in [
        "[Event \"Club Ladder Night\"]",
        "[Site \"Town Hall\"]",
        "[Date \"2026.12.04\"]",
        "[Round \"7\"]",
        "[WhiteTitle \"GM\"]",
        "[WhiteElo \"2450\"]",
        "[BlackElo \"1980\"]",
        "[Annotator \"Carl\"]",
        "[Termination \"Normal\"]",
    ] {
        assert!(exported.contains(tag), "{tag}: {exported}");
    }
    for not in ["Rookery game", "UTCDate", "Time forfeit"] {
        assert!(!exported.contains(not), "{not}: {exported}");
    }
    let sheet = call(&s, "GET", &format!("/game/{id}/sheet"), None, None).body;
    for (field, value) in [
        ("f-event", "Club Ladder Night"),
        ("f-site", "Town Hall"),
        ("f-date", "2026.12.04"),
        ("f-round", "7"),
        ("f-white", "GM Anna (2450)"),
        ("f-black", "Bo (1980)"),
        ("f-winner", "GM Anna (2450)"),
        ("f-ended", "Checkmate"),
    ] {
        assert!(
            sheet.contains(&format!("id=\"{field}\">{value}</td>")),
            "{field}: {sheet}"
        );
    }
    // One without any: no event of ours is made up for it, its date unknown.
    let r = call(
        &s,
        "POST",
        "/api/import",
        None,
        Some("1. f3 e5 2. g4 Qh4# 0-1\n"),
    );
    let id = field(&r.body, "id").to_owned();
    let exported = call(&s, "GET", &format!("/game/export/{id}"), None, None).body;
    assert!(
        exported.contains("[Event \"?\"]") && exported.contains("[Date \"????.??.??\"]"),
        "{exported}"
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
