//! The game API over real sockets, on a fresh SQLite file: create, join, play to mate,
//! watch the state, export PGN; every refusal has its error and changes nothing; a restart
//! loads live games back with their moves.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(url: &str) -> Server {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .args([
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--database-url",
            url,
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let server = Server { child, port };
    let deadline = Instant::now() + Duration::from_secs(20);
    while request(&server, "GET", "/api/health", None, None).is_none() {
        assert!(Instant::now() < deadline, "the server did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    server
}

struct Reply {
    status: u16,
    cookie: Option<String>,
    body: String,
}

fn request(
    s: &Server,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<&str>,
) -> Option<Reply> {
    let mut stream = TcpStream::connect(("127.0.0.1", s.port)).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .ok()?;
    let body = body.unwrap_or("");
    let cookie = cookie
        .map(|c| format!("Cookie: {c}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{cookie}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .ok()?;
    let mut raw = String::new();
    stream.read_to_string(&mut raw).ok()?;
    let (head, body) = raw.split_once("\r\n\r\n")?;
    let status = head.split(' ').nth(1)?.parse().ok()?;
    let cookie = head
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: "))
        .map(|c| c.split(';').next().unwrap_or("").to_owned());
    // Bodies here are small: chunked encoding, if any, is one chunk.
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        body.split_once("\r\n")
            .map_or("", |(_, b)| b)
            .rsplit_once("\r\n0\r\n")
            .map_or(body, |(b, _)| b)
            .to_owned()
    } else {
        body.to_owned()
    };
    Some(Reply {
        status,
        cookie,
        body,
    })
}

fn call(s: &Server, method: &str, path: &str, cookie: Option<&str>, body: Option<&str>) -> Reply {
    request(s, method, path, cookie, body).expect("the server answers")
}

fn field<'a>(json: &'a str, name: &str) -> &'a str {
    let key = format!("\"{name}\":");
    let rest = &json[json
        .find(&key)
        .unwrap_or_else(|| panic!("{name} in {json}"))
        + key.len()..];
    let rest = rest.trim_start_matches('"');
    &rest[..rest.find(['"', ',', '}']).unwrap()]
}

fn temp_url(name: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("rookery-api-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}", dir.join("rookery.db").display());
    (dir, url)
}

#[test]
fn two_players_play_to_mate_and_the_pgn_says_so() {
    let (dir, url) = temp_url("mate");
    let s = start(&url);
    let created = call(
        &s,
        "POST",
        "/api/games",
        None,
        Some(r#"{"time_control":"5+3","color":"white"}"#),
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let id = field(&created.body, "id").to_owned();
    let white = created.cookie.unwrap();
    let joined = call(&s, "POST", &format!("/api/games/{id}/join"), None, None);
    assert_eq!(joined.status, 200, "{}", joined.body);
    assert_eq!(field(&joined.body, "color"), "black");
    let black = joined.cookie.unwrap();
    // A third visitor finds both seats taken.
    let third = call(&s, "POST", &format!("/api/games/{id}/join"), None, None);
    assert_eq!(
        (third.status, third.body.as_str()),
        (409, r#"{"error":"both seats are taken"}"#)
    );

    let mv = |cookie: &str, m: &str| {
        call(
            &s,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(cookie),
            Some(&format!(r#"{{"m":"{m}"}}"#)),
        )
    };
    for (cookie, m) in [(&white, "f2f3"), (&black, "e5"), (&white, "g4")] {
        let r = mv(cookie, m);
        assert_eq!(r.status, 200, "{m}: {}", r.body);
    }
    // Refusals, each with its reason, none changing the game.
    assert_eq!(mv(&white, "a3").body, r#"{"error":"it is not your turn"}"#);
    assert_eq!(mv(&black, "Qh5h4").status, 400);
    let forged = format!("rk_{id}=00000000000000000000000000000000");
    assert_eq!(mv(&forged, "Qh4").status, 403);
    let junk = call(
        &s,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(&black),
        Some("{not json"),
    );
    assert_eq!(junk.status, 400, "{}", junk.body);
    assert!(junk.body.starts_with(r#"{"error":"#), "{}", junk.body);
    let state = call(&s, "GET", &format!("/api/games/{id}"), Some(&black), None);
    assert!(
        state.body.contains(r#""san":["f3","e5","g4"]"#),
        "{}",
        state.body
    );
    assert_eq!(field(&state.body, "you"), "black");

    assert_eq!(mv(&black, "Qh4").status, 200);
    let state = call(&s, "GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(field(&state.body, "status"), "over");
    assert_eq!(field(&state.body, "termination"), "checkmate");
    assert_eq!(mv(&white, "a3").body, r#"{"error":"the game is over"}"#);

    let pgn = call(&s, "GET", &format!("/game/export/{id}"), None, None);
    assert_eq!(pgn.status, 200);
    assert!(pgn.body.contains("[Result \"0-1\"]"), "{}", pgn.body);
    assert!(
        pgn.body
            .contains("1. f3 { [%clk 0:05:03] } 1... e5 { [%clk 0:05:03] } 2. g4"),
        "{}",
        pgn.body
    );
    assert!(pgn.body.contains("Qh4# { [%clk"), "{}", pgn.body);
    assert!(pgn.body.contains("[TimeControl \"300+3\"]"), "{}", pgn.body);
    let bare = call(
        &s,
        "GET",
        &format!("/game/export/{id}?clocks=false"),
        None,
        None,
    );
    assert!(
        bare.body.contains("1. f3 e5 2. g4 Qh4# 0-1"),
        "{}",
        bare.body
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_restarted_server_loads_live_games_back() {
    let (dir, url) = temp_url("restart");
    let s = start(&url);
    let created = call(
        &s,
        "POST",
        "/api/games",
        None,
        Some(r#"{"time_control":"untimed","color":"black"}"#),
    );
    let id = field(&created.body, "id").to_owned();
    let black = created.cookie.unwrap();
    let white = call(&s, "POST", &format!("/api/games/{id}/join"), None, None)
        .cookie
        .unwrap();
    let mv = |s: &Server, cookie: &str, m: &str| {
        call(
            s,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(cookie),
            Some(&format!(r#"{{"m":"{m}"}}"#)),
        )
        .status
    };
    assert_eq!(mv(&s, &white, "e4"), 200);
    assert_eq!(mv(&s, &black, "c5"), 200);
    drop(s);
    let s = start(&url);
    assert_eq!(mv(&s, &white, "Nf3"), 200);
    let state = call(&s, "GET", &format!("/api/games/{id}"), None, None);
    assert!(
        state.body.contains(r#""san":["e4","c5","Nf3"]"#),
        "{}",
        state.body
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_requests_get_json_errors() {
    let (dir, url) = temp_url("bad");
    let s = start(&url);
    let r = call(
        &s,
        "POST",
        "/api/games",
        None,
        Some(r#"{"time_control":"5+x"}"#),
    );
    assert_eq!(
        (r.status, r.body.as_str()),
        (
            400,
            r#"{"error":"time control \"5+x\": increment must be a number"}"#
        )
    );
    let r = call(
        &s,
        "POST",
        "/api/games",
        None,
        Some(r#"{"time_control":"5+3","fen":"8/8/8 w - - 0 1"}"#),
    );
    assert_eq!(
        (r.status, r.body.as_str()),
        (400, r#"{"error":"bad FEN: the board has 3 ranks, not 8"}"#)
    );
    let r = call(&s, "GET", "/api/games/nope", None, None);
    assert_eq!(
        (r.status, r.body.as_str()),
        (404, r#"{"error":"no such game"}"#)
    );
    let big = format!(r#"{{"time_control":"{}"}}"#, "9".repeat(100_000));
    let r = call(&s, "POST", "/api/games", None, Some(&big));
    assert_eq!(r.status, 413, "{}", r.body);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
