//! Clubs, as lichess's team API shows them (docs/API.md "Clubs"): a club is made with
//! `POST /api/clubs` (its maker its first leader); joined (or asked to join) and left with
//! lichess's `POST /team/{id}/join` and `/quit`; its leaders answer requests
//! (`GET /api/team/{id}/requests`, `POST /api/team/{id}/request/{user}/accept|decline`),
//! remove members (`POST /api/team/{id}/kick/{user}`), write to every member
//! (`POST /team/{id}/pm-all`), name leaders and change its rules (Rookery's
//! `POST /api/team/{id}/leader/{user}`, `/api/team/{id}/rules`). Read with
//! `GET /api/team/{id}`, `/api/team/all`, `/api/team/search`, `/api/team/of/{user}`,
//! `/api/team/{id}/users` (NDJSON), `/api/team/{id}/ladder`; its Swiss tournaments listed by
//! `GET /api/team/{id}/swiss` (NDJSON). Every change is one [`ClubAction`] given to
//! [`clubs::act`], the one way in the club's page uses too.

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
use crate::clubs::{self, ClubAction, ClubError, Done, NewClub};
use crate::refusal::Code;
use crate::store::clubs::Club;

/// Tournaments `GET /api/team/{id}/swiss` lists unless `max` says fewer.
const MAX_LISTED: i64 = 100;
/// Clubs on a page of `/api/team/all` and `/api/team/search` (lichess's fifteen).
const PER_PAGE: i64 = 15;

impl From<ClubError> for ApiError {
    fn from(e: ClubError) -> ApiError {
        match e {
            ClubError::NotFound => ApiError::not_found("club"),
            ClubError::NotLeader => {
                ApiError::new(Code::NotAllowed, "only the club's leaders may do that")
            }
            ClubError::Invalid(m) => ApiError::new(Code::BadRequest, m),
            ClubError::Taken(m) => ApiError::new(Code::NameTaken, m),
            ClubError::Store(e) => e.into(),
        }
    }
}

/// A club as lichess's `Team` shows it (`joined` and `requested` for a reader logged in).
pub(crate) async fn team_json(
    state: &AppState,
    club: &Club,
    me: Option<&str>,
) -> Result<Value, ApiError> {
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
        "open": club.open,
        "hasPassword": club.password.is_some(),
        "leader": leaders.first().cloned().unwrap_or(Value::Null),
        "leaders": leaders,
        "nbMembers": members.len(),
    });
    if let Some(me) = me {
        team["joined"] = json!(members.iter().any(|m| m.user_id == me));
        let requested = state
            .store
            .club_requests(&club.id)
            .await?
            .iter()
            .any(|r| r.user_id == me);
        team["requested"] = json!(requested);
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

/// A form's or JSON body's yes/no field (`true`, `1`, `on`, `yes`).
fn yes(f: &std::collections::HashMap<String, String>, key: &str) -> Option<bool> {
    f.get(key)
        .map(|v| matches!(v.trim(), "true" | "1" | "on" | "yes"))
}

/// `POST /api/clubs` (`name`, `description`, `open` (default true), `password`; JSON or a
/// form): 201 with the club, the caller its leader; its id made from its name.
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let me = account(&caller)?;
    scope(me, &["team:lead", "team:write"])?;
    let f = fields(&headers, &body)?;
    let new = NewClub {
        name: f.get("name").cloned().unwrap_or_default(),
        description: f.get("description").cloned().unwrap_or_default(),
        open: yes(&f, "open").unwrap_or(true),
        password: f.get("password").cloned(),
    };
    let club = clubs::create(&state.store, &me.user.id, &new).await?;
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

#[derive(Debug, serde::Deserialize)]
pub(crate) struct PageQuery {
    page: Option<i64>,
    text: Option<String>,
}

/// `GET /api/team/all` and `GET /api/team/search?text=`: a page (`page`, from 1) of the
/// clubs, most members first, as lichess's paginator writes it.
pub(crate) async fn listed(
    State(state): State<AppState>,
    Query(q): Query<PageQuery>,
) -> Result<Json<Value>, ApiError> {
    let page = q.page.unwrap_or(1).clamp(1, 10_000);
    let text = q.text.as_deref().map(str::trim).filter(|t| !t.is_empty());
    let (found, total) = state
        .store
        .clubs_listed(text, (page - 1) * PER_PAGE, PER_PAGE)
        .await?;
    let mut results = Vec::new();
    for club in &found {
        results.push(team_json(&state, club, None).await?);
    }
    let pages = (total + PER_PAGE - 1) / PER_PAGE;
    Ok(Json(json!({
        "currentPage": page,
        "maxPerPage": PER_PAGE,
        "currentPageResults": results,
        "nbResults": total,
        "previousPage": (page > 1).then_some(page - 1),
        "nextPage": (page < pages).then_some(page + 1),
        "nbPages": pages,
    })))
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

/// The account named `name` (any case): its id.
async fn user_id(state: &AppState, name: &str) -> Result<String, ApiError> {
    Ok(state
        .store
        .user(&name.to_lowercase())
        .await?
        .ok_or_else(|| ApiError::not_found("player"))?
        .id)
}

/// Applies one change for the caller: `{"ok": true}` (a join by request adds
/// `"requested": true`).
async fn apply(
    state: &AppState,
    caller: &Caller,
    id: &str,
    action: &ClubAction,
) -> Result<Json<Value>, ApiError> {
    let me = account(caller)?;
    scope(me, &["team:write", "team:lead"])?;
    let done = clubs::act(&state.store, id, &me.user.id, action).await?;
    Ok(Json(if done == Done::Requested {
        json!({ "ok": true, "requested": true })
    } else {
        json!({ "ok": true })
    }))
}

/// `POST /team/{id}/join` (`message`, `password`), `/quit`, `/pm-all` (`message`: the
/// message to every member, shown on their lobby).
pub(crate) async fn membership(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    Path((id, what)): Path<(String, String)>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let f = fields(&headers, &body)?;
    let action = match what.as_str() {
        "join" => ClubAction::Join {
            message: f.get("message").cloned(),
            password: f.get("password").cloned(),
        },
        "quit" => ClubAction::Quit,
        "pm-all" => ClubAction::Message(f.get("message").cloned().unwrap_or_default()),
        _ => return Err(ApiError::not_found("page")),
    };
    apply(&state, &caller, &id, &action).await
}

/// `POST /api/team/{id}/request/{user}/accept|decline`.
pub(crate) async fn answer(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, user, what)): Path<(String, String, String)>,
) -> Result<Json<Value>, ApiError> {
    let user = user_id(&state, &user).await?;
    let action = match what.as_str() {
        "accept" => ClubAction::Accept(user),
        "decline" => ClubAction::Decline(user),
        _ => return Err(ApiError::not_found("page")),
    };
    apply(&state, &caller, &id, &action).await
}

/// `POST /api/team/{id}/kick/{user}`.
pub(crate) async fn kick(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, user)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let user = user_id(&state, &user).await?;
    apply(&state, &caller, &id, &ClubAction::Kick(user)).await
}

/// `POST /api/team/{id}/leader/{user}` (`leader`: true or false).
pub(crate) async fn leader(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    Path((id, user)): Path<(String, String)>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let f = fields(&headers, &body)?;
    let user = user_id(&state, &user).await?;
    let action = ClubAction::Leader {
        user,
        leader: yes(&f, "leader").unwrap_or(true),
    };
    apply(&state, &caller, &id, &action).await
}

/// `POST /api/team/{id}/rules` (`description`, `open`, `password`; an empty password takes
/// it away).
pub(crate) async fn rules(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let f = fields(&headers, &body)?;
    let club = club_of(&state, &id).await?;
    let action = ClubAction::Rules {
        description: f.get("description").cloned().unwrap_or(club.description),
        open: yes(&f, "open").unwrap_or(club.open),
        password: match f.get("password") {
            Some(p) => Some(p.clone()),
            None => club.password,
        },
    };
    apply(&state, &caller, &id, &action).await
}

/// `GET /api/team/{id}/requests` (its leaders): the requests waiting, as lichess writes them.
pub(crate) async fn requests(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Vec<Value>>, ApiError> {
    let me = account(&caller)?;
    scope(me, &["team:read", "team:lead"])?;
    let club = club_of(&state, &id).await?;
    if state.store.membership(&club.id, &me.user.id).await? != Some(true) {
        return Err(ClubError::NotLeader.into());
    }
    let mut out = Vec::new();
    for r in state.store.club_requests(&club.id).await? {
        let name = state
            .store
            .user(&r.user_id)
            .await?
            .map_or_else(|| r.user_id.clone(), |u| u.name);
        out.push(json!({
            "request": {
                "teamId": club.id, "userId": r.user_id, "date": r.created_at, "message": r.message
            },
            "user": { "id": r.user_id, "username": name },
        }));
    }
    Ok(Json(out))
}

/// `GET /api/team/{id}/ladder`: the club's own ladder (R8), best first.
pub(crate) async fn ladder(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Vec<Value>>, ApiError> {
    let club = club_of(&state, &id).await?;
    let mut out = Vec::new();
    for l in clubs::ladder(&state.store, &club.id).await? {
        let name = state
            .store
            .user(&l.user_id)
            .await?
            .map_or_else(|| l.user_id.clone(), |u| u.name);
        out.push(json!({
            "id": l.user_id, "name": name, "points": l.points.shown(),
            "class": l.points.class().en(), "games": l.games,
        }));
    }
    Ok(Json(out))
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
