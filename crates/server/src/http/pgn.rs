//! PGN in and out: a game's export, a player's games, and imports (docs/API.md).

use crate::refusal::Code;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};

use super::body::{ExportQuery, ImportForm, Imported};
use super::error::ApiError;
use super::identity::InGame;
use super::{AppState, Origin};
use crate::store::accounts::Whose;

pub(super) const PGN: &str = "application/x-chess-pgn; charset=utf-8";

/// What the client asks for in `Accept`, as lichess reads it: JSON, NDJSON, or PGN.
pub(super) fn wants(headers: &HeaderMap, kind: &str) -> bool {
    headers
        .get(axum::http::header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains(kind))
}

/// `GET /game/export/{id}`: the PGN of a game (a live one up to its last move), or with
/// `Accept: application/json` lichess's game JSON.
pub(crate) async fn export(
    State(state): State<AppState>,
    InGame { row, .. }: InGame,
    Origin(origin): Origin,
    Query(q): Query<ExportQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if wants(&headers, "application/json") {
        return Ok(Json(super::lichess::game_json(&state, &row).await?).into_response());
    }
    let pgn = crate::export::pgn(&state.rooms, &state.store, &row, &origin, q.clocks).await?;
    Ok(([(CONTENT_TYPE, PGN)], pgn).into_response())
}

/// The most games one answer of `GET /api/games/user/{name}` holds: a whole history is paged.
const MAX_EXPORT: u32 = 500;

/// `GET /api/games/user/{name}`: a player's finished games, as one PGN, oldest first, at
/// most `max` (`MAX_EXPORT` at most) after the game `after`. When more follow, the answer's
/// `X-Next-After` header names the last game, for the next page's `after`. A stored game that
/// cannot be written is left out and logged: one bad row never costs the player the rest.
pub(crate) async fn user_games(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Origin(origin): Origin,
    Query(q): Query<ExportQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let ndjson = wants(&headers, "application/x-ndjson");
    let max = q.max.unwrap_or(MAX_EXPORT).clamp(1, MAX_EXPORT);
    let after = match q.after.as_deref() {
        Some(id) => Some(
            state
                .store
                .game(id)
                .await?
                .ok_or_else(|| ApiError::not_found("game"))?,
        ),
        None => None,
    };
    // An account's games follow the account; any other name is matched as written.
    let account = state.store.user(&name).await?;
    let whose = match &account {
        Some(user) => Whose::Account(&user.id),
        None => Whose::Name(&name),
    };
    let mut rows = state
        .store
        .finished_games_of(whose, after.as_ref(), i64::from(max) + 1)
        .await?;
    let more = rows.len() > max as usize;
    rows.truncate(max as usize);
    let out = write_games(&state, &rows, &origin, q.clocks, ndjson).await;
    let mut response = ([(CONTENT_TYPE, games_type(ndjson))], out).into_response();
    if let Some(last) = rows.last().filter(|_| more)
        && let Ok(value) = axum::http::HeaderValue::from_str(&last.game.id)
    {
        response.headers_mut().insert("x-next-after", value);
    }
    Ok(response)
}

/// The finished games among `ids`, in their order, as one PGN (or NDJSON when the request
/// asks for it): a tournament's or an arena's games.
///
/// # Errors
/// The store failed.
pub(super) async fn finished_games(
    state: &AppState,
    ids: impl Iterator<Item = &str>,
    origin: &str,
    headers: &HeaderMap,
) -> Result<Response, ApiError> {
    let mut rows = Vec::new();
    for id in ids {
        if let Some(row) = state.store.game(id).await?
            && row.status == crate::store::Status::Over
        {
            rows.push(row);
        }
    }
    let ndjson = wants(headers, "application/x-ndjson");
    let out = write_games(state, &rows, origin, false, ndjson).await;
    Ok(([(CONTENT_TYPE, games_type(ndjson))], out).into_response())
}

/// The content type of many games: PGN, or lichess's NDJSON.
pub(super) fn games_type(ndjson: bool) -> &'static str {
    if ndjson { "application/x-ndjson" } else { PGN }
}

/// Finished games written one after the other, as PGN or as lichess's NDJSON (one JSON
/// object a line). A stored game that cannot be written is left out and logged: one bad row
/// never costs the reader the rest.
pub(super) async fn write_games(
    state: &AppState,
    rows: &[crate::store::GameRow],
    origin: &str,
    clocks: bool,
    ndjson: bool,
) -> String {
    let mut out = String::new();
    for row in rows {
        let written = if ndjson {
            super::lichess::game_json(state, row)
                .await
                .map(|v| v.to_string() + "\n")
                .map_err(|e| e.problem.message)
        } else {
            crate::export::pgn(&state.rooms, &state.store, row, origin, clocks)
                .await
                .map_err(|e| e.to_string())
        };
        match written {
            Ok(text) => out.push_str(&text),
            Err(e) => {
                tracing::error!(game = %row.game.id, error = %e, "game left out of an export")
            }
        }
    }
    out
}

/// `POST /api/import`: a finished game from PGN (form field `pgn`, or the raw body); the first
/// game of the text. 400 with the reason, naming ply and move, when it is not valid.
pub(crate) async fn import(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: String,
) -> Result<Json<Imported>, ApiError> {
    let bad = |message: String| ApiError::new(Code::BadPgn, message);
    let is_form = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    let text = if is_form {
        let form: ImportForm = serde_urlencoded::from_str(&body)
            .map_err(|e| ApiError::new(Code::BadRequest, format!("bad form: {e}")))?;
        form.pgn
    } else {
        body
    };
    if !crate::store::storable(&text) {
        return Err(bad("the PGN has a NUL character".into()));
    }
    let record = rookery_core::pgn::Reader::new(text.as_bytes())
        .next()
        .ok_or_else(|| bad("no game in the PGN".into()))?
        .map_err(|e| bad(e.to_string()))?;
    let id = crate::import::store_record(&state.store, &record)
        .await?
        .map_err(|e| ApiError::new(Code::ImportRefused, e.to_string()))?;
    Ok(Json(Imported {
        url: format!("/game/{id}"),
        id,
    }))
}
