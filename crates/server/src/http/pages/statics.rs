//! The static files of `web/static`, embedded in the binary and served with ETags.

use super::*;

/// The files of `web/static`, embedded.
pub(super) const STATIC: &[(&str, &str, &[u8])] = &[
    (
        "style.css",
        "text/css; charset=utf-8",
        include_bytes!("../../../../../web/static/style.css"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_bytes!("../../../../../web/static/favicon.svg"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../../web/static/board.js"),
    ),
    (
        "pieces.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../../web/static/pieces.js"),
    ),
    (
        "game.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../../web/static/game.js"),
    ),
    (
        "tv.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../../web/static/tv.js"),
    ),
    (
        "tv-page.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../../web/static/tv-page.js"),
    ),
    (
        "chat.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../../web/static/chat.js"),
    ),
    (
        "home.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../../web/static/home.js"),
    ),
    (
        "i18n.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../../web/static/i18n.js"),
    ),
    (
        "plain.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../../web/static/plain.js"),
    ),
    (
        "sound.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../../web/static/sound.js"),
    ),
    (
        "board-page.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../../web/static/board-page.js"),
    ),
    (
        "learn.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../../web/static/learn.js"),
    ),
    (
        "analysis.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../../web/static/analysis.js"),
    ),
    (
        "sheet.css",
        "text/css; charset=utf-8",
        include_bytes!("../../../../../web/static/sheet.css"),
    ),
    (
        "sheet.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../../web/static/sheet.js"),
    ),
    (
        "event.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../../web/static/event.js"),
    ),
    (
        "people.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../../web/static/people.js"),
    ),
    (
        "club.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../../web/static/club.js"),
    ),
    (
        "arena.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../../web/static/arena.js"),
    ),
];

/// Each static file's ETag: its content's SHA-256, in part (the files are in the binary, so
/// a new build with a changed file has a new tag).
pub(super) static ETAGS: LazyLock<Vec<String>> = LazyLock::new(|| {
    use sha2::Digest as _;
    STATIC
        .iter()
        .map(|(_, _, body)| {
            let digest = sha2::Sha256::digest(body);
            let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
            format!("\"{hex}\"")
        })
        .collect()
});

/// How pages name the static files: `/static/{name}?v={hash}`, a name that changes with the
/// content, so a browser keeps each file for a year and never asks again until a new build
/// changes it. Scripts import one another by plain relative names; the page's import map
/// sends those to the hashed names too.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Assets;

impl Assets {
    /// The content-hashed URL of static file `name` (as it is, if there is no such file).
    pub(crate) fn url(self, name: &str) -> String {
        match STATIC.iter().position(|(n, _, _)| *n == name) {
            Some(i) => format!("/static/{name}?v={}", ETAGS[i].trim_matches('"')),
            None => format!("/static/{name}"),
        }
    }

    /// The import map (`<script type="importmap">`): every script by its hashed name.
    pub(crate) fn import_map(self) -> &'static str {
        IMPORT_MAP.as_str()
    }
}

/// Every script's plain URL to its hashed one, as an import map's JSON.
static IMPORT_MAP: LazyLock<String> = LazyLock::new(|| {
    let imports: serde_json::Map<String, serde_json::Value> = STATIC
        .iter()
        .filter(|(name, _, _)| name.ends_with(".js"))
        .map(|(name, _, _)| (format!("/static/{name}"), Assets.url(name).into()))
        .collect();
    serde_json::json!({ "imports": imports }).to_string()
});

/// The import map's hash as a Content-Security-Policy source (`'sha256-...'`): the one
/// inline script the pages have, allowed by its exact content.
pub(crate) fn import_map_source() -> String {
    use base64::Engine as _;
    use sha2::Digest as _;
    let digest = sha2::Sha256::digest(IMPORT_MAP.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The `v` of a static file's URL.
#[derive(Debug, serde::Deserialize)]
pub(crate) struct Version {
    v: Option<String>,
}

/// `GET /static/{file}`: with its ETag; a browser that has the file already (`If-None-Match`)
/// gets 304 and no body. Asked for by its current hashed name (`?v=`), the file is kept a year
/// (`immutable`); by its plain name, `no-cache` makes the browser ask each time, so a new
/// build is seen at once.
pub(crate) async fn static_file(
    Path(file): Path<String>,
    Query(version): Query<Version>,
    headers: HeaderMap,
) -> Response {
    let Some(i) = STATIC.iter().position(|(name, _, _)| *name == file) else {
        return (StatusCode::NOT_FOUND, "no such file").into_response();
    };
    let (_, kind, body) = STATIC[i];
    let tag = ETAGS[i].as_str();
    let known = headers
        .get(axum::http::header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .any(|t| t.trim().trim_start_matches("W/") == tag)
        });
    let hashed = version.v.as_deref() == Some(tag.trim_matches('"'));
    let keep = if hashed {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let cache = [(axum::http::header::ETAG, tag), (CACHE_CONTROL, keep)];
    if known {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    (cache, [(CONTENT_TYPE, kind)], body).into_response()
}
