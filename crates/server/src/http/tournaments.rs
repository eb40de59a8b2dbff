//! Rookery's tournament API (docs/API.md "Tournaments"): create, read, change, and the
//! report. Each change is one [`Action`] given to [`tournaments::act`], the one way in.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};

use super::AppState;
use super::error::{ApiError, ApiJson};
use super::identity::Caller;
use super::lichess_play::{account, scope};
use crate::tournaments::{self, Action, NewTournament};
use crate::wallclock::now_ms;

/// The scope a token needs to run tournaments (lichess's).
const SCOPE: &[&str] = &["tournament:write"];

impl From<tournaments::TournamentError> for ApiError {
    fn from(e: tournaments::TournamentError) -> ApiError {
        ApiError::of(e.problem())
    }
}

/// `POST /api/events` (`name`, `system`: `swiss` or `round-robin`, `rounds`,
/// `first_colour`): 201 with the tournament, the caller its arbiter.
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(new): ApiJson<NewTournament>,
) -> Result<Response, ApiError> {
    let me = account(&caller)?;
    scope(me, SCOPE)?;
    let id = tournaments::create(&state.store, &me.user.id, &new, now_ms() as i64).await?;
    let t = tournaments::read(&state.store, &id).await?;
    Ok((
        axum::http::StatusCode::CREATED,
        Json(tournaments::view(&id, &t)),
    )
        .into_response())
}

/// `GET /api/events/{id}`: players, byes, each round's boards and results, standings.
pub(crate) async fn show(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let (t, _) = tournaments::read_kept(&state.rooms, &id).await?;
    Ok(Json(tournaments::view(&id, &t)))
}

/// `POST /api/events/{id}` with one action (`{"action": "pair"}`, ...): the tournament
/// after it. Only its arbiter; a refused action changes nothing.
pub(crate) async fn change(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    ApiJson(action): ApiJson<Action>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let me = account(&caller)?;
    scope(me, SCOPE)?;
    let t = tournaments::act(&state.rooms, &id, actor(me), &action).await?;
    Ok(Json(tournaments::view(&id, &t)))
}

/// The account acting on a tournament, as the tournaments see it.
pub(crate) fn actor(me: &super::identity::Account) -> tournaments::Actor<'_> {
    tournaments::Actor {
        id: &me.user.id,
        name: &me.user.name,
    }
}

/// `GET /api/events/{id}/trf`: the report (FIDE's TRF) of the rounds with every result in,
/// as a federation's rating officer and FIDE's checkers read it.
pub(crate) async fn trf(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (t, _) = tournaments::read_kept(&state.rooms, &id).await?;
    Ok((
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        t.event.trf(false),
    )
        .into_response())
}

/// `GET /api/events/{id}/games`: the tournament's finished games, round by round and board
/// by board, as one PGN (or NDJSON with `Accept: application/x-ndjson`).
pub(crate) async fn games(
    State(state): State<AppState>,
    Path(id): Path<String>,
    super::Origin(origin): super::Origin,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    let (t, _) = tournaments::read_kept(&state.rooms, &id).await?;
    let ids = t.games.iter().flatten().flatten().map(String::as_str);
    super::pgn::finished_games(&state, ids, &origin, &headers).await
}
