//! Ratings around the game, over HTTP: quick pairing pools (anonymous players casual,
//! accounts rated), seeks with a rating range, ratings in the lobby's lists, the
//! leaderboards and the ladder page, the player page's rating chart (docs/RATINGS.md).

mod common;

use common::agent::{Browser, on_both, play, rated_win, signup};
use common::{Reply, Server, field, start_with};

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

#[test]
fn pools_pair_guests_casual_and_accounts_rated() {
    on_both("pools", pools);
}

#[test]
fn leaderboards_the_ladder_page_and_rating_charts() {
    on_both("boards", boards);
}

fn pools(url: &str) {
    let s = start_with(url, &["--trust-proxy"]);

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
}

/// The part of a page from the element with `id` to the end of its table or figure.
fn part<'a>(page: &'a str, id: &str) -> &'a str {
    let at = page
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id}: {page}"));
    let rest = &page[at..];
    let end = ["</table>", "</figure>", "</svg>"]
        .iter()
        .filter_map(|e| rest.find(e))
        .min()
        .unwrap_or(rest.len());
    &rest[..end]
}

fn boards(url: &str) {
    let s = start_with(url, &["--trust-proxy", "--rate-limits", "off"]);
    let (mut anna, mut bo, mut cid) = (
        Browser::at("10.2.0.1"),
        Browser::at("10.2.0.2"),
        Browser::at("10.2.0.3"),
    );
    for (b, name) in [(&mut anna, "anna"), (&mut bo, "bo"), (&mut cid, "cid")] {
        assert_eq!(signup(&s, b, name, "a good password").status, 303);
    }
    // Nobody is on a board before their rating settles: anna and bo play until hers has,
    // anna winning two games of three.
    let board = anna.get(&s, "/leaderboard").body;
    assert!(
        part(&board, "board-blitz").contains("Nobody yet."),
        "{board}"
    );
    let mut games = 0;
    loop {
        if games % 3 == 2 {
            rated_win(&s, &mut bo, &mut anna);
        } else {
            rated_win(&s, &mut anna, &mut bo);
        }
        games += 1;
        let page = anna.get(&s, "/@/anna").body;
        let ratings = part(&page, "ratings");
        if !ratings.contains('?') {
            break;
        }
        assert!(
            games < 60,
            "still provisional after {games} games: {ratings}"
        );
    }
    println!("anna's blitz rating settled after {games} games");
    // cid plays one game: provisional, so not on the board.
    rated_win(&s, &mut cid, &mut bo);

    let board = anna.get(&s, "/leaderboard").body;
    let blitz = part(&board, "board-blitz");
    assert!(
        blitz.contains("<td>1</td><td><a href=\"/@/anna\">anna</a></td>"),
        "{blitz}"
    );
    assert!(
        !blitz.contains("cid"),
        "provisional players are not listed: {blitz}"
    );
    assert!(part(&board, "board-bullet").contains("Nobody yet."));
    // The ladder's ten: anna first (she won every game), then cid, bo last.
    let ladder = part(&board, "board-ladder");
    let (a, c, b) = (
        ladder.find(">anna<"),
        ladder.find(">cid<"),
        ladder.find(">bo<"),
    );
    assert!(a < c && c < b && a.is_some(), "{ladder}");
    let full = anna.get(&s, "/leaderboard/blitz").body;
    assert!(part(&full, "board-blitz").contains(">anna<"));
    let r = anna.get(&s, "/leaderboard/hyperbullet");
    assert_eq!(r.status, 404);
    assert!(r.body.contains("<html"), "an HTML 404");

    // The ladder page (issue 54): the classes from the best player's down to unclassed, the
    // empty ones above folded into a line; here everyone is unclassed: one rung.
    let page = anna.get(&s, "/ladder").body;
    let picture = part(&page, "ladder-picture");
    assert_eq!(picture.matches("<g class=\"rung").count(), 1, "{picture}");
    assert!(picture.contains("data-class=\"unclassed\""));
    let shown = part(&page, "ladder-title");
    assert!(
        !shown.contains("seed 004"),
        "the page speaks the player's words: {shown}"
    );
    assert!(shown.contains("id=\"ladder-folded\""), "{shown}");
    let table = part(&page, "board-ladder");
    assert!(
        table.contains(">anna<") && table.contains("settling"),
        "{table}"
    );
    // In Chinese, the seed's words.
    let mut zh = Browser::at("10.2.0.9");
    zh.cookies.push(("lang".into(), "zh".into()));
    let page = zh.get(&s, "/ladder").body;
    assert!(page.contains("等级阶梯") && page.contains("无级别") && page.contains("1级"));

    // anna's page: her blitz history, one point per rated game, each a link to its game.
    let page = anna.get(&s, "/@/anna").body;
    let chart = part(&page, "chart-blitz");
    assert_eq!(chart.matches("<circle").count(), games, "{chart}");
    assert_eq!(chart.matches("<a href=\"/game/").count(), games);
    assert!(
        chart.contains("<title>") && chart.contains("anna – bo 1-0"),
        "{chart}"
    );
    assert!(chart.contains("bo – anna 1-0"), "{chart}");
    let bo_page = bo.get(&s, "/@/bo").body;
    assert_eq!(
        part(&bo_page, "chart-blitz").matches("<circle").count(),
        games + 1
    );
}
