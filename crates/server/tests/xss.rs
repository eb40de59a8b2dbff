//! Hostile text cannot become markup: names that are not names are refused at sign-up
//! (tests/accounts.rs), and the tags of an imported PGN — which anyone may write — are shown
//! escaped on every page that shows them. Every HTML answer carries the Content-Security-
//! Policy that forbids inline script anyway.

mod common;

use common::{call, field, request_with, start, temp_url};

const HOSTILE: [&str; 4] = [
    "<script>alert(1)</script>",
    "\"><img src=x onerror=alert(2)>",
    "</script><script>alert(3)</script>",
    "javascript:alert(4)",
];

#[test]
fn hostile_pgn_tags_are_shown_escaped_on_every_page() {
    let (dir, url) = temp_url("xss");
    let s = start(&url);
    let pgn = format!(
        "[Event \"{}\"]\n[Site \"{}\"]\n[White \"{}\"]\n[Black \"{}\"]\n[Result \"1-0\"]\n\n\
         1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
        HOSTILE[3],
        HOSTILE[1],
        HOSTILE[0].replace('"', "\\\""),
        HOSTILE[2].replace('"', "\\\"")
    );
    let imported = request_with(
        &s,
        "POST",
        "/api/import",
        &[("Content-Type", "text/plain")],
        Some(&pgn),
    )
    .unwrap();
    assert_eq!(imported.status, 200, "{}", imported.body);
    let id = field(&imported.body, "id").to_owned();
    let encoded = |name: &str| -> String { name.bytes().map(|b| format!("%{b:02X}")).collect() };
    let pages = [
        format!("/game/{id}"),
        format!("/@/{}", encoded(HOSTILE[0])),
        format!("/@/{}", encoded(HOSTILE[2])),
        format!(
            "/@/{}?result=won&tc={}",
            encoded(HOSTILE[0]),
            encoded(HOSTILE[1])
        ),
    ];
    for path in &pages {
        let r = call(&s, "GET", path, None, None);
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        for bad in ["<script>alert", "<img src=x", "onerror=alert(2)>"] {
            assert!(!r.body.contains(bad), "{path} shows {bad:?} unescaped");
        }
        // Shown, as text: `<` written as a character reference (askama writes `&#60;`).
        let shown = [
            "alert(1)&#60;/script&#62;",
            "&#60;/script&#62;&#60;script&#62;alert(3)",
        ];
        assert!(
            shown.iter().any(|s| r.body.contains(s)),
            "{path}: the name is shown, escaped"
        );
        assert!(
            r.head.to_ascii_lowercase().contains(
                "content-security-policy: default-src 'self'; script-src 'self' 'sha256-"
            ),
            "{path}"
        );
    }
    // The PGN export is text, not a page: served as PGN, never as HTML.
    let export = call(&s, "GET", &format!("/game/export/{id}"), None, None);
    assert!(
        export
            .head
            .to_ascii_lowercase()
            .contains("content-type: application/x-chess-pgn"),
        "{}",
        export.head
    );
    assert!(
        export
            .head
            .to_ascii_lowercase()
            .contains("x-content-type-options: nosniff")
    );
    // JSON answers carry the names as JSON strings, with the JSON content type.
    let state = call(&s, "GET", &format!("/api/games/{id}"), None, None);
    let v: serde_json::Value = serde_json::from_str(&state.body).unwrap();
    assert_eq!(v["white"], HOSTILE[0]);
    assert!(
        state
            .head
            .to_ascii_lowercase()
            .contains("content-type: application/json")
    );
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn every_html_page_carries_the_csp() {
    let (dir, url) = temp_url("csp");
    let s = start(&url);
    for path in [
        "/",
        "/login",
        "/signup",
        "/account",
        "/@/nobody",
        "/reset/rkr_nothing",
        "/game/nosuchgm",
        "/no/such/page",
    ] {
        let r = call(&s, "GET", path, None, None);
        let head = r.head.to_ascii_lowercase();
        assert!(head.contains("content-type: text/html"), "{path}: {head}");
        for want in [
            "content-security-policy: default-src 'self'; script-src 'self' 'sha256-",
            "frame-ancestors 'none'",
            "x-content-type-options: nosniff",
            "referrer-policy: ",
        ] {
            assert!(head.contains(want), "{path} lacks {want}: {head}");
        }
        assert!(!head.contains("unsafe-inline"), "{path}: {head}");
        // No inline script: every <script> is data or a file.
        for tag in r.body.match_indices("<script") {
            let rest = &r.body[tag.0..];
            let open = &rest[..rest.find('>').unwrap()];
            // The import map is the one inline script: JSON the server wrote, allowed by its
            // hash alone (tests/web.rs checks the hash).
            assert!(
                open.contains("type=\"application/json\"")
                    || open.contains("type=\"importmap\"")
                    || open.contains("src=\"/static/"),
                "{path}: inline script {open}"
            );
        }
    }
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
