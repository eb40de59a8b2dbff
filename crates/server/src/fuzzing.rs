//! Entry points for the fuzz targets (`fuzz/fuzz_targets/`): each takes arbitrary bytes
//! through the same code a request would, and must neither panic nor accept what it then
//! cannot use. Nothing here is used by the server itself.

use crate::accounts::{names, parse_scopes, password};
use crate::http::account::Prefs;

/// A WebSocket text frame, read as the game socket reads it: a `Request`, or a refusal that
/// says why (its frame id, if any, kept).
pub fn client_frame(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    match crate::protocol::read(text) {
        Ok(request) => {
            // What was read can be turned into the room's command for either color.
            let _ = format!("{request:?}");
        }
        Err(refused) => {
            let _ = format!("{refused:?}");
        }
    }
}

/// A request body of the HTTP API and the account forms, each read as its handler reads it
/// and then checked as the handler checks it: game creation (time control, FEN, color,
/// bot), moves, sign-up and log-in forms (the name rule, the password rule), token scopes and
/// preferences.
pub fn api_body(bytes: &[u8]) {
    use crate::http::fuzz_bodies::{CreateGame, Credentials, MoveRequest, PrefsPatch};
    if let Ok(create) = serde_json::from_slice::<CreateGame>(bytes) {
        if let Ok(control) = rookery_core::clock::TimeControl::from_friendly(&create.time_control) {
            let pgn = control.to_pgn();
            let again = rookery_core::clock::TimeControl::from_pgn(&pgn);
            assert!(again.is_ok(), "{pgn:?} written but not read back");
        }
        if let Some(fen) = create.fen.as_deref()
            && let Ok(position) = rookery_core::Position::from_fen(fen)
        {
            assert!(rookery_core::Position::from_fen(&position.fen()).is_ok());
        }
    }
    if let Ok(m) = serde_json::from_slice::<MoveRequest>(bytes) {
        let position = rookery_core::Position::new();
        if let Ok(played) = position.parse_san(&m.m) {
            assert!(
                position.is_legal(played),
                "{:?} read as an illegal move",
                m.m
            );
        }
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    if let Ok(form) = serde_urlencoded::from_str::<Credentials>(text) {
        if let Ok(id) = names::check(&form.name) {
            assert_eq!(id, form.name.to_ascii_lowercase());
            assert!(names::check(&id).is_ok());
        }
        let _ = password::check_new(&form.password);
    }
    if let Ok(scopes) = parse_scopes(text) {
        let joined = scopes.join(",");
        assert_eq!(parse_scopes(&joined), Ok(scopes));
    }
    if let Ok(patch) = serde_urlencoded::from_str::<PrefsPatch>(text) {
        let mut prefs = Prefs::default();
        if prefs.apply(&patch).is_ok() {
            let written = serde_urlencoded::to_string(&prefs).unwrap_or_default();
            let read: Prefs = serde_urlencoded::from_str(&written).unwrap_or_default();
            assert_eq!(read, prefs, "preferences survive their cookie");
        }
    }
}
