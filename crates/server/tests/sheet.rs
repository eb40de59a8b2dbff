//! The club record (seed 003): a game created with an event, round and table carries them in
//! its PGN (`Event`, `Round`, `Board`, R7) and on its score sheet, whose fields, numbering and
//! notations (SAN, the seeds' long form) are checked here; the browser test prints it.

mod common;

use common::{call, http_move, new_game, request_with, start, temp_url};

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
