//! Helpers shared by the server's integration tests: a server process on a free port and a
//! minimal HTTP client over a raw socket.
#![allow(dead_code, unreachable_pub)]

pub mod agent;
pub mod ws;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Server {
    pub child: Child,
    pub port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn start(url: &str) -> Server {
    start_with(url, &[])
}

/// As [`start`], with more command-line arguments.
pub fn start_with(url: &str, extra: &[&str]) -> Server {
    let log = if std::env::var_os("ROOKERY_TEST_LOG").is_some() {
        Stdio::inherit()
    } else {
        Stdio::null()
    };
    spawn(url, extra, log)
}

/// As [`start_with`], its log written to `log` (to read what the server said).
pub fn start_logged(url: &str, extra: &[&str], log: &std::path::Path) -> Server {
    spawn(url, extra, std::fs::File::create(log).unwrap().into())
}

/// The stockfish found on this machine, if any.
pub fn stockfish() -> Option<&'static str> {
    ["/usr/games/stockfish", "/usr/bin/stockfish"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
}

/// A script in `dir` that runs `engine` and copies everything the engine says to
/// `dir/engine.out`: proof that the external engine itself answered.
pub fn recording_engine(dir: &std::path::Path, engine: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let script = dir.join("engine.sh");
    let out = dir.join("engine.out");
    std::fs::write(
        &script,
        format!("#!/bin/sh\n{engine} | tee -a '{}'\n", out.display()),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

fn spawn(url: &str, extra: &[&str], log: Stdio) -> Server {
    let port = free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .args([
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--database-url",
            url,
        ])
        .args(extra)
        .stdout(Stdio::null())
        .stderr(log)
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

pub struct Reply {
    pub status: u16,
    /// The `Set-Cookie` header's `name=value`.
    pub cookie: Option<String>,
    /// The whole `Set-Cookie` header, its attributes included.
    pub set_cookie: Option<String>,
    /// The status line and headers.
    pub head: String,
    pub body: String,
}

pub fn request(
    s: &Server,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<&str>,
) -> Option<Reply> {
    let cookie = cookie.map(|c| ("Cookie", c));
    let json = ("Content-Type", "application/json");
    let headers: Vec<(&str, &str)> = cookie.into_iter().chain([json]).collect();
    request_with(s, method, path, &headers, body)
}

/// As [`request`], with these headers (and `Host: localhost`).
pub fn request_with(
    s: &Server,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Option<Reply> {
    request_at(s.port, method, path, headers, body)
}

/// A free port on 127.0.0.1 (for a second listener of the server).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// As [`request_with`], to any port of 127.0.0.1.
pub fn request_at(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Option<Reply> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .ok()?;
    let body = body.unwrap_or("");
    let headers: String = headers
        .iter()
        .map(|(k, v)| format!("{k}: {v}\r\n"))
        .collect();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{headers}\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .ok()?;
    let mut raw = String::new();
    stream.read_to_string(&mut raw).ok()?;
    let (head, body) = raw.split_once("\r\n\r\n")?;
    let status = head.split(' ').nth(1)?.parse().ok()?;
    let set_cookie = head
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: "))
        .map(str::to_owned);
    let cookie = set_cookie
        .as_deref()
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
        set_cookie,
        head: head.to_owned(),
        body,
    })
}

pub fn call(
    s: &Server,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<&str>,
) -> Reply {
    request(s, method, path, cookie, body).expect("the server answers")
}

pub fn field<'a>(json: &'a str, name: &str) -> &'a str {
    let key = format!("\"{name}\":");
    let rest = &json[json
        .find(&key)
        .unwrap_or_else(|| panic!("{name} in {json}"))
        + key.len()..];
    let rest = rest.trim_start_matches('"');
    &rest[..rest.find(['"', ',', '}']).unwrap()]
}

pub fn temp_url(name: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("rookery-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}", dir.join("rookery.db").display());
    (dir, url)
}

/// Creates a game from `body`; returns its id and the creator's seat cookie, with the reply.
pub fn create(s: &Server, body: &str) -> (String, String, Reply) {
    let created = call(s, "POST", "/api/games", None, Some(body));
    assert_eq!(created.status, 201, "{}", created.body);
    let id = field(&created.body, "id").to_owned();
    let cookie = created.cookie.clone().unwrap();
    (id, cookie, created)
}

/// Creates a game from `body` (the creator takes a seat) and lets a second browser join.
/// Returns the game id, the creator's seat cookie and the joiner's.
pub fn new_game(s: &Server, body: &str) -> (String, String, String) {
    let created = call(s, "POST", "/api/games", None, Some(body));
    assert_eq!(created.status, 201, "{}", created.body);
    let id = field(&created.body, "id").to_owned();
    let joined = call(s, "POST", &format!("/api/games/{id}/join"), None, None);
    assert_eq!(joined.status, 200, "{}", joined.body);
    (id, created.cookie.unwrap(), joined.cookie.unwrap())
}

/// Plays move `m` (UCI or SAN) over HTTP with a seat cookie.
pub fn http_move(s: &Server, id: &str, cookie: &str, m: &str) -> Reply {
    let body = format!(r#"{{"m":"{m}"}}"#);
    call(
        s,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(cookie),
        Some(&body),
    )
}

/// Runs the `rookery` binary with `args`, `stdin` on its standard input: its exit code and
/// standard output (its log, on standard error, is dropped).
pub fn run_rookery(args: &[&str], stdin: &str) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}
