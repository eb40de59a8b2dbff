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

/// `GET /static/{file}`: with its ETag; a browser that has the file already (`If-None-Match`)
/// gets 304 and no body. `no-cache` makes it ask each time, so a new build is seen at once.
pub(crate) async fn static_file(Path(file): Path<String>, headers: HeaderMap) -> Response {
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
    let cache = [(axum::http::header::ETAG, tag), (CACHE_CONTROL, "no-cache")];
    if known {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    (cache, [(CONTENT_TYPE, kind)], body).into_response()
}
