//! Following, by lichess's relation doors: `POST /api/rel/follow/{username}` and
//! `/api/rel/unfollow/{username}` (scope `follow:write`), `GET /api/rel/following` (scope
//! `follow:read`: one line of NDJSON a followed account, `{"id", "username", "online",
//! "playing"}`, the game it plays if any). A player's page has the button; the lobby lists the
//! followed players who are online.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::AppState;
use super::error::ApiError;
use super::identity::Caller;
use super::lichess_play::{account, scope};
use crate::refusal::Code;

/// `POST /api/rel/{follow|unfollow}/{username}`.
pub(crate) async fn change(
    State(state): State<AppState>,
    caller: Caller,
    Path((what, username)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let me = account(&caller)?;
    scope(me, &["follow:write"])?;
    let them = state
        .store
        .user(&username)
        .await?
        .filter(|u| u.closed_at.is_none())
        .ok_or_else(|| ApiError::not_found("user"))?;
    if them.id == me.user.id {
        return Err(ApiError::new(
            Code::BadRequest,
            "one does not follow oneself",
        ));
    }
    match what.as_str() {
        "follow" => {
            let now = crate::wallclock::now_ms() as i64;
            state.store.follow(&me.user.id, &them.id, now).await?;
        }
        "unfollow" => state.store.unfollow(&me.user.id, &them.id).await?,
        _ => return Err(ApiError::not_found("action")),
    }
    Ok(Json(json!({ "ok": true })))
}

/// One followed account as the lobby and `GET /api/rel/following` say it.
pub(crate) async fn followed(state: &AppState, user: &str) -> Result<Vec<Value>, ApiError> {
    let mut out = Vec::new();
    for (id, name) in state.store.following(user).await? {
        let online = state.online.is_online(&id);
        // The game it plays now, if it is online (a look at its live games only then).
        let playing = if online {
            state
                .store
                .live_games_of(&id)
                .await?
                .last()
                .map(|row| row.game.id.clone())
        } else {
            None
        };
        out.push(json!({ "id": id, "username": name, "online": online, "playing": playing }));
    }
    Ok(out)
}

/// `GET /api/rel/following`.
pub(crate) async fn following(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Response, ApiError> {
    let me = account(&caller)?;
    scope(me, &["follow:read", "follow:write"])?;
    let mut body = String::new();
    for line in followed(&state, &me.user.id).await? {
        body.push_str(&line.to_string());
        body.push('\n');
    }
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response())
}
