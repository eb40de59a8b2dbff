//! The web layer (tower-http): compression of pages, scripts and JSON as the client accepts
//! it (and never of the NDJSON streams), ETags and 304s for the static files, CORS for the
//! token API, and a request id on every answer.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use common::{start, temp_url};

/// An answer's status, headers (lower-case names) and raw body.
struct Raw {
    status: u16,
    head: String,
    body: Vec<u8>,
}

impl Raw {
    fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }
}

/// One request, the answer read to its end as bytes (bodies here come whole or chunked).
fn raw(port: u16, method: &str, path: &str, headers: &[(&str, &str)]) -> Raw {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let extra: String = headers
        .iter()
        .map(|(k, v)| format!("{k}: {v}\r\n"))
        .collect();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{extra}\r\n"
    )
    .unwrap();
    let mut all = Vec::new();
    stream.read_to_end(&mut all).unwrap();
    let split = all.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&all[..split]).into_owned();
    let mut body = all[split + 4..].to_vec();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        body = unchunk(&body);
    }
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    Raw { status, head, body }
}

fn unchunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line_end = data.windows(2).position(|w| w == b"\r\n").unwrap();
        let size =
            usize::from_str_radix(std::str::from_utf8(&data[..line_end]).unwrap(), 16).unwrap();
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&data[line_end + 2..line_end + 2 + size]);
        data = &data[line_end + 2 + size + 2..];
    }
}

#[test]
fn scripts_pages_and_json_are_compressed_as_the_client_accepts() {
    let (dir, url) = temp_url("web_compress");
    let s = start(&url);
    let plain = raw(s.port, "GET", "/static/game.js", &[]);
    assert_eq!(plain.status, 200);
    assert_eq!(plain.header("content-encoding"), None);
    let gzip = raw(
        s.port,
        "GET",
        "/static/game.js",
        &[("Accept-Encoding", "gzip")],
    );
    assert_eq!(
        gzip.header("content-encoding"),
        Some("gzip"),
        "{}",
        gzip.head
    );
    let mut unzipped = Vec::new();
    flate2::read::GzDecoder::new(gzip.body.as_slice())
        .read_to_end(&mut unzipped)
        .unwrap();
    assert_eq!(unzipped, plain.body, "gzip gives back the file");
    let br = raw(
        s.port,
        "GET",
        "/static/game.js",
        &[("Accept-Encoding", "br, gzip")],
    );
    assert_eq!(br.header("content-encoding"), Some("br"), "{}", br.head);
    let mut unbrotli = Vec::new();
    brotli_decompressor::Decompressor::new(br.body.as_slice(), 4096)
        .read_to_end(&mut unbrotli)
        .unwrap();
    assert_eq!(unbrotli, plain.body, "brotli gives back the file");
    assert!(
        br.body.len() * 3 < plain.body.len(),
        "game.js: {} bytes, {} in brotli",
        plain.body.len(),
        br.body.len()
    );
    // Pages and JSON too.
    let page = raw(s.port, "GET", "/", &[("Accept-Encoding", "gzip")]);
    assert_eq!(page.header("content-encoding"), Some("gzip"));
    let pools = raw(s.port, "GET", "/api/pools", &[("Accept-Encoding", "gzip")]);
    assert_eq!(
        pools.header("content-encoding"),
        Some("gzip"),
        "{}",
        pools.head
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_static_file_already_held_is_not_sent_again() {
    let (dir, url) = temp_url("web_etag");
    let s = start(&url);
    let first = raw(s.port, "GET", "/static/board.js", &[]);
    let tag = first.header("etag").expect("an ETag").to_owned();
    assert_eq!(first.header("cache-control"), Some("no-cache"));
    let again = raw(
        s.port,
        "GET",
        "/static/board.js",
        &[("If-None-Match", tag.as_str())],
    );
    assert_eq!((again.status, again.body.len()), (304, 0), "{}", again.head);
    let other = raw(
        s.port,
        "GET",
        "/static/board.js",
        &[("If-None-Match", "\"stale\"")],
    );
    assert_eq!(other.status, 200);
    assert_eq!(other.body, first.body);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// Pages name every script by its content (`?v=` its hash, through the page's import map
/// for the scripts' own imports), and a file asked for by that name is kept a year: a second
/// page view asks for no script at all until a new build changes one. The import map, the
/// pages' one inline script, is allowed by its exact hash in the CSP and by nothing else.
#[test]
fn pages_name_scripts_by_their_content_and_browsers_keep_them() {
    use base64::Engine as _;
    use sha2::Digest as _;
    let (dir, url) = temp_url("web_hashed");
    let s = start(&url);
    let page = raw(s.port, "GET", "/", &[]);
    let html = String::from_utf8(page.body.clone()).unwrap();
    let map_text = html
        .split_once("<script type=\"importmap\">")
        .and_then(|(_, rest)| rest.split_once("</script>"))
        .map(|(map, _)| map)
        .expect("an import map");
    let map: serde_json::Value = serde_json::from_str(map_text).unwrap();
    let imports = map["imports"].as_object().unwrap();
    assert!(imports.len() >= 10, "{imports:?}");
    for (plain, hashed) in imports {
        let hashed = hashed.as_str().unwrap();
        let plain_answer = raw(s.port, "GET", plain, &[]);
        let tag = plain_answer.header("etag").unwrap().trim_matches('"');
        assert_eq!(hashed, format!("{plain}?v={tag}"), "named by its content");
        let kept = raw(s.port, "GET", hashed, &[]);
        assert_eq!(
            kept.header("cache-control"),
            Some("public, max-age=31536000, immutable"),
            "{hashed}"
        );
        assert_eq!(kept.body, plain_answer.body);
    }
    // The page's own script is named the same way.
    let home = &imports["/static/home.js"];
    assert!(
        html.contains(&format!("src=\"{}\"", home.as_str().unwrap())),
        "the entry script by its hashed name"
    );
    // A name of an older build is not kept: the browser asks again.
    let stale = raw(s.port, "GET", "/static/home.js?v=0123456789ab", &[]);
    assert_eq!(stale.header("cache-control"), Some("no-cache"));
    let digest = sha2::Sha256::digest(map_text.as_bytes());
    let source = format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    );
    let csp = page.header("content-security-policy").unwrap();
    assert!(
        csp.contains(&format!("script-src 'self' {source};")),
        "{csp}"
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_token_api_answers_other_sites_and_every_answer_has_a_request_id() {
    let (dir, url) = temp_url("web_cors");
    let s = start(&url);
    // A browser app elsewhere asks first whether it may send a token.
    let preflight = raw(
        s.port,
        "OPTIONS",
        "/api/account",
        &[
            ("Origin", "https://app.example.org"),
            ("Access-Control-Request-Method", "GET"),
            ("Access-Control-Request-Headers", "authorization"),
        ],
    );
    assert_eq!(preflight.status, 200, "{}", preflight.head);
    assert_eq!(preflight.header("access-control-allow-origin"), Some("*"));
    assert!(
        preflight
            .header("access-control-allow-headers")
            .is_some_and(|h| h.to_ascii_lowercase().contains("authorization")),
        "{}",
        preflight.head
    );
    let answer = raw(
        s.port,
        "GET",
        "/api/account",
        &[("Origin", "https://app.example.org")],
    );
    assert_eq!(answer.status, 401);
    assert_eq!(answer.header("access-control-allow-origin"), Some("*"));
    // No credentials are allowed: another site's page cannot read answers made with our
    // cookies.
    assert_eq!(answer.header("access-control-allow-credentials"), None);
    let id = answer.header("x-request-id").expect("a request id");
    assert_eq!(id.len(), 8, "{id}");
    // A proxy's id is kept.
    let kept = raw(
        s.port,
        "GET",
        "/api/health",
        &[("X-Request-Id", "from-proxy-1")],
    );
    assert_eq!(kept.header("x-request-id"), Some("from-proxy-1"));
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn ndjson_streams_are_never_compressed() {
    let (dir, url) = temp_url("web_ndjson");
    assert!(common::agent::user_command(&url, &["create", "Anna"], "a good password\n").0);
    let (ok, token) =
        common::agent::user_command(&url, &["token", "Anna", "--scopes", "board:play"], "");
    assert!(ok);
    let s = start(&url);
    let mut stream = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "GET /api/stream/event HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip, br\r\n\
         Authorization: Bearer {}\r\n\r\n",
        token.trim()
    )
    .unwrap();
    // The head comes at once; the stream goes on (a compressor would hold its lines back).
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        stream.read_exact(&mut byte).unwrap();
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("application/x-ndjson"), "{head}");
    assert!(!head.contains("content-encoding"), "{head}");
    drop(stream);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
