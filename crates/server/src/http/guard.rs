//! What a browser must not be made to do, and what it is told about our pages.
//!
//! A seat is a cookie, so a foreign page could try to act with it: a form posted from another
//! site, a `text/plain` fetch, a WebSocket opened from elsewhere. Every request that changes
//! something (any method but GET, HEAD and OPTIONS, and every WebSocket upgrade) must come
//! from our own origin: a browser says where a request comes from (`Sec-Fetch-Site`, and
//! `Origin` on every cross-site POST and WebSocket), and anything else is refused with 403
//! before a handler runs. A request with neither header is not from a browser page (a
//! program, `curl`): it holds its own cookies, and no page can forge it.

use crate::refusal::Code;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::AppState;
use super::error::ApiError;

/// Scripts, styles and connections only from this server; no frames, no plugins. The pages'
/// data blocks (`<script type="application/json">`) are not scripts and need no exception;
/// the import map, the one inline script, is allowed by its hash.
static CSP: std::sync::LazyLock<HeaderValue> = std::sync::LazyLock::new(|| {
    let csp = format!(
        "default-src 'self'; script-src 'self' {}; style-src 'self'; img-src 'self' data:; \
         connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
         frame-ancestors 'none'",
        super::pages::import_map_source()
    );
    HeaderValue::from_str(&csp).unwrap_or(HeaderValue::from_static("default-src 'self'"))
});

/// Refuses a state-changing request from another origin, and sets the security headers on
/// every answer.
pub(crate) async fn guard(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let changes = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    ) || request.headers().contains_key(header::UPGRADE);
    // A token request proves itself with a header no other site's page can make a browser
    // send: it is exempt.
    let token = super::identity::bearer(request.headers()).is_some();
    if changes && !token && !same_origin(request.headers(), state.public_url.as_deref()) {
        tracing::info!(
            path = %request.uri().path(),
            origin = ?request.headers().get(header::ORIGIN),
            "cross-site request refused"
        );
        let refusal = ApiError::new(Code::CrossSite, "a request from another site is refused");
        return harden(refusal.into_response());
    }
    harden(next.run(request).await)
}

fn harden(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, CSP.clone());
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // A page that sets a stricter policy keeps it (the reset page: `no-referrer`, so its
    // token never leaves in a Referer).
    if !headers.contains_key(header::REFERRER_POLICY) {
        headers.insert(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        );
    }
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    response
}

/// Whether the request comes from a page of ours, or from no page at all.
fn same_origin(headers: &HeaderMap, public_url: Option<&str>) -> bool {
    if let Some(site) = headers.get("sec-fetch-site") {
        // "none": typed in the address bar or a bookmark; never another site.
        if !matches!(site.as_bytes(), b"same-origin" | b"none") {
            return false;
        }
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Some((scheme, from)) = origin.to_str().ok().and_then(authority) else {
        // "null" (a sandboxed frame, a file) or nonsense.
        return false;
    };
    match public_url.and_then(authority) {
        // Known: the origin must be it, scheme included (an http page of our host is not
        // ours when we are served over https).
        Some((our_scheme, ours)) => {
            scheme == our_scheme
                && (ours.eq_ignore_ascii_case(from)
                    || headers
                        .get(header::HOST)
                        .and_then(|h| h.to_str().ok())
                        .is_some_and(|h| h.eq_ignore_ascii_case(from)))
        }
        None => headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .is_some_and(|h| h.eq_ignore_ascii_case(from)),
    }
}

/// The scheme and `host[:port]` of `scheme://host[:port][/...]`.
fn authority(url: &str) -> Option<(&str, &str)> {
    let (scheme, rest) = url.split_once("://")?;
    if !matches!(scheme, "http" | "https") {
        return None;
    }
    let end = rest.find('/').unwrap_or(rest.len());
    Some((scheme, &rest[..end])).filter(|(_, a)| !a.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    /// Issue 50: with an https public address, a page of our host served over plain http
    /// (a network in the middle can make one) is not ours.
    #[test]
    fn the_scheme_counts_when_the_public_address_is_known() {
        let ours = Some("https://chess.example.org");
        let host = ("host", "chess.example.org");
        assert!(same_origin(
            &headers(&[host, ("origin", "https://chess.example.org")]),
            ours
        ));
        assert!(!same_origin(
            &headers(&[host, ("origin", "http://chess.example.org")]),
            ours
        ));
    }

    #[test]
    fn only_our_own_pages_and_programs_pass() {
        let host = ("host", "chess.example.org:8080");
        // A program: no browser headers.
        assert!(same_origin(&headers(&[host]), None));
        // Our page.
        assert!(same_origin(
            &headers(&[
                host,
                ("origin", "http://chess.example.org:8080"),
                ("sec-fetch-site", "same-origin")
            ]),
            None
        ));
        // Another site, another port of the same host, a sibling subdomain, a sandbox.
        for origin in [
            "https://evil.example",
            "http://chess.example.org:9090",
            "http://evil.chess.example.org:8080",
            "null",
        ] {
            let h = HeaderValue::from_static(origin);
            let mut map = headers(&[host]);
            map.insert(header::ORIGIN, h);
            assert!(!same_origin(&map, None), "{origin}");
        }
        // The browser says it is cross-site even where no Origin is sent.
        assert!(!same_origin(
            &headers(&[host, ("sec-fetch-site", "same-site")]),
            None
        ));
        assert!(!same_origin(
            &headers(&[host, ("sec-fetch-site", "cross-site")]),
            None
        ));
        // Behind a proxy the Host may differ: the public URL names us.
        assert!(same_origin(
            &headers(&[
                ("host", "127.0.0.1:8080"),
                ("origin", "https://chess.example.org")
            ]),
            Some("https://chess.example.org")
        ));
    }
}
