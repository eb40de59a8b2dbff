//! Clubs, as lichess's team API shows them (docs/API.md "Clubs"): a club is made with
//! `POST /api/clubs` (its maker its first leader), joined and left with lichess's
//! `POST /team/{id}/join` and `/quit`, read with `GET /api/team/{id}`, `/api/team/of/{user}`,
//! `/api/team/{id}/users` (NDJSON), and its Swiss tournaments listed by
//! `GET /api/team/{id}/swiss` (NDJSON). A club's tournaments are made by its leaders and
//! joined by its members only (`tournaments.rs`).

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::AppState;
use super::error::ApiError;
use super::identity::Caller;
use super::lichess_play::{account, fields, scope};
use crate::refusal::Code;
use crate::store::clubs::Club;
use crate::wallclock::now_ms;

/// The longest club name and description.
const MAX_NAME: usize = 60;
const MAX_DESCRIPTION: usize = 2_000;
/// Tournaments `GET /api/team/{id}/swiss` lists unless `max` says fewer.
const MAX_LISTED: i64 = 100;

/// A club's id from its name, as lichess makes a team's: lower case letters and digits,
/// words joined by `-` (`Thursday Club` is `thursday-club`); `None` when nothing is left.
fn slug(name: &str) -> Option<String> {
    let words: Vec<String> = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let id: String = words.join("-").chars().take(MAX_NAME).collect();
    let id = id.trim_end_matches('-').to_owned();
    (!id.is_empty()).then_some(id)
}

/// A club as lichess's `Team` shows it.
async fn team_json(state: &AppState, club: &Club, me: Option<&str>) -> Result<Value, ApiError> {
    let members = state.store.club_members(&club.id).await?;
    let mut leaders = Vec::new();
    for m in members.iter().filter(|m| m.leader) {
        let name = state
            .store
            .user(&m.user_id)
            .await?
            .map_or_else(|| m.user_id.clone(), |u| u.name);
        leaders.push(json!({ "id": m.user_id, "name": name }));
    }
    let mut team = json!({
        "id": club.id,
        "name": club.name,
        "description": club.description,
        "open": true,
        "leader": leaders.first().cloned().unwrap_or(Value::Null),
        "leaders": leaders,
        "nbMembers": members.len(),
    });
    if let Some(me) = me {
        team["joined"] = json!(members.iter().any(|m| m.user_id == me));
        team["requested"] = json!(false);
    }
    Ok(team)
}

async fn club_of(state: &AppState, id: &str) -> Result<Club, ApiError> {
    state
        .store
        .club(id)
        .await?
        .ok_or_else(|| ApiError::not_found("club"))
}

/// `POST /api/clubs` (`name`, `description`; JSON or a form): 201 with the club, the caller
/// its leader; its id made from its name.
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let me = account(&caller)?;
    scope(me, &["team:lead", "team:write"])?;
    let f = fields(&headers, &body)?;
    let name = f.get("name").map_or("", |n| n.trim());
    if name.is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control) {
        return Err(ApiError::new(
            Code::BadRequest,
            format!("name: 1 to {MAX_NAME} characters, on one line"),
        ));
    }
    // A name without a letter of A-Z or a digit (象棋俱乐部) gets an address by lot.
    let id = slug(name).unwrap_or_else(|| crate::ids::game_id().to_ascii_lowercase());
    let description = f.get("description").map_or("", |d| d.trim());
    if description.chars().count() > MAX_DESCRIPTION {
        return Err(ApiError::new(
            Code::BadRequest,
            format!("description: at most {MAX_DESCRIPTION} characters"),
        ));
    }
    let club = Club {
        id,
        name: name.to_owned(),
        description: description.to_owned(),
        created_at: now_ms() as i64,
        created_by: me.user.id.clone(),
    };
    if !state.store.add_club(&club).await? {
        return Err(ApiError::new(
            Code::NameTaken,
            format!("a club with the address {} exists already", club.id),
        ));
    }
    let team = team_json(&state, &club, Some(&me.user.id)).await?;
    Ok((axum::http::StatusCode::CREATED, Json(team)).into_response())
}

/// `GET /api/team/{id}`.
pub(crate) async fn show(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let club = club_of(&state, &id).await?;
    let me = caller.account.as_ref().map(|a| a.user.id.as_str());
    Ok(Json(team_json(&state, &club, me).await?))
}

/// `GET /api/team/of/{user}`: the clubs an account is a member of.
pub(crate) async fn of_user(
    State(state): State<AppState>,
    Path(user): Path<String>,
) -> Result<Json<Vec<Value>>, ApiError> {
    let id = user.to_lowercase();
    let mut out = Vec::new();
    for club in state.store.clubs_of(&id).await? {
        out.push(team_json(&state, &club, None).await?);
    }
    Ok(Json(out))
}

/// `POST /team/{id}/join` and `POST /team/{id}/quit`: `{"ok": true}`.
pub(crate) async fn membership(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, what)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let me = account(&caller)?;
    scope(me, &["team:write", "team:lead"])?;
    let club = club_of(&state, &id).await?;
    match what.as_str() {
        "join" => {
            state
                .store
                .join_club(&club.id, &me.user.id, now_ms() as i64)
                .await?;
        }
        "quit" => {
            if state.store.membership(&club.id, &me.user.id).await? == Some(true)
                && state
                    .store
                    .club_members(&club.id)
                    .await?
                    .iter()
                    .filter(|m| m.leader)
                    .count()
                    == 1
            {
                return Err(ApiError::new(
                    Code::BadRequest,
                    "the club's only leader cannot leave it",
                ));
            }
            if !state.store.leave_club(&club.id, &me.user.id).await? {
                return Err(ApiError::new(Code::BadRequest, "you are not in this club"));
            }
        }
        _ => return Err(ApiError::not_found("page")),
    }
    Ok(Json(json!({ "ok": true })))
}

/// `GET /api/team/{id}/users`: the members, one JSON object a line (`id`, `name`,
/// `joinedTeamAt`), leaders first.
pub(crate) async fn users(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let club = club_of(&state, &id).await?;
    let mut lines = Vec::new();
    for m in state.store.club_members(&club.id).await? {
        let Some(user) = state.store.user(&m.user_id).await? else {
            continue;
        };
        let mut line = json!({ "id": user.id, "name": user.name, "joinedTeamAt": m.joined_at });
        if let Some(t) = user.title {
            line["title"] = json!(t.as_str());
        }
        lines.push(line);
    }
    Ok(super::lichess_stream::json_lines(lines))
}

#[derive(Debug, serde::Deserialize)]
pub(crate) struct ListQuery {
    max: Option<i64>,
}

/// `GET /api/team/{id}/swiss`: the club's Swiss tournaments, newest first, one lichess
/// `Swiss` object a line.
pub(crate) async fn swiss(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<ListQuery>,
) -> Result<Response, ApiError> {
    let club = club_of(&state, &id).await?;
    let max = q.max.unwrap_or(MAX_LISTED).clamp(1, MAX_LISTED);
    let mut lines = Vec::new();
    for row in state
        .store
        .tournaments(
            crate::store::tournaments::Which::Club(&club.id),
            crate::tournaments::KIND,
            max,
        )
        .await?
    {
        let Ok(t) = crate::tournaments::parse(&row.body) else {
            continue;
        };
        lines.push(super::swiss::swiss_json(
            &row.id,
            &row.owner,
            row.created_at,
            &t,
        ));
    }
    Ok(super::lichess_stream::json_lines(lines))
}

#[cfg(test)]
mod tests {
    use super::slug;

    #[test]
    fn a_clubs_id_is_made_from_its_name() {
        assert_eq!(slug("Thursday Club").as_deref(), Some("thursday-club"));
        assert_eq!(
            slug("  Rook & Pawn, 1975 ").as_deref(),
            Some("rook-pawn-1975")
        );
        assert_eq!(slug("象棋俱乐部"), None);
        assert_eq!(slug("---"), None);
    }
}
