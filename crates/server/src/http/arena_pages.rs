//! The arena pages (docs/TOURNAMENTS.md "Arenas"): `/tournament` (the arenas under way, to
//! come and just finished, and the form that makes one) and `/tournament/{id}` (the countdown,
//! the standings page by page with the reader's own place, the podium, the best games under
//! way on small live boards, the arena's chat, and joining, pausing and coming back). The page
//! reads lichess's own `GET /api/tournament/{id}` (`arena.js`) and changes the arena through
//! the same doors as any lichess client: one way in, [`crate::arenas::act`].
//! The chat: `GET|POST /api/tournament/{id}/chat`, for logged-in readers.

use askama::Template;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::AppState;
use super::error::{ApiError, ApiJson};
use super::identity::Caller;
use super::limits::ClientAddr;
use super::pages::{Chrome, Tr, not_found, render};
use crate::arenas::{self, Arena, Phase};
use crate::refusal::Code;
use crate::store::chat::ChatRoom;
use crate::store::tournaments::Which;
use crate::tournaments::TournamentError;
use crate::wallclock::now_ms;

/// Arenas `/tournament` reads.
const LISTED: i64 = 100;
/// Chat lines a page shows.
const CHAT_LINES: i64 = 100;

/// An arena as a list shows it.
struct Listed {
    id: String,
    name: String,
    clock: String,
    minutes: u32,
    players: usize,
    /// "starting in 5 min", "under way, 12 players", "finished".
    when: String,
}

/// An arena's clock and length in words: `3+2 · 45 min`.
fn summary(a: &Arena) -> String {
    format!("{} · {} min", a.clock, a.minutes)
}

/// Where arena `a` stands at `now`, in words: "starting in 5 min", "under way, 12 players",
/// "finished" (its list and the lobby's schedule say it alike).
pub(crate) fn when(tr: Tr, a: &Arena, now: i64) -> String {
    match a.phase(now) {
        Phase::Created => {
            let minutes = (a.starts_at - now + 59_999) / 60_000;
            tr.t("arena_starts_in").replace("{n}", &minutes.to_string())
        }
        Phase::Started => tr
            .t("arena_under_way")
            .replace("{n}", &a.players.len().to_string()),
        Phase::Finished => tr.t("arena_finished").to_owned(),
    }
}

#[derive(Template)]
#[template(path = "arenas.html")]
struct ArenasPage {
    tr: Tr,
    chrome: Chrome,
    /// Under way, to come, finished (each soonest, or latest, first), as far as any are.
    sections: Vec<(String, Vec<Listed>)>,
    /// The reader's clubs he leads, for the form's "only members of".
    clubs: Vec<(String, String)>,
}

/// `GET /tournament`: the arenas, and (logged in) the form that makes one.
pub(crate) async fn list(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
) -> Response {
    let chrome = Chrome::of(&caller, &headers);
    let tr = chrome.tr;
    let now = now_ms() as i64;
    let rows = match state
        .store
        .tournaments(Which::All, arenas::KIND, LISTED)
        .await
    {
        Ok(rows) => rows,
        Err(e) => return ApiError::from(e).into_response(),
    };
    let (mut started, mut created, mut finished) = (Vec::new(), Vec::new(), Vec::new());
    for row in &rows {
        let Ok(a) = arenas::parse(&row.body) else {
            continue;
        };
        let line = (
            a.starts_at,
            Listed {
                id: row.id.clone(),
                name: a.name.clone(),
                clock: a.clock.clone(),
                minutes: a.minutes,
                players: a.players.len(),
                when: when(tr, &a, now),
            },
        );
        match a.phase(now) {
            Phase::Started => started.push(line),
            Phase::Created => created.push(line),
            Phase::Finished => finished.push(line),
        }
    }
    let sorted = |mut v: Vec<(i64, Listed)>, latest_first: bool| {
        v.sort_by_key(|(at, _)| if latest_first { -*at } else { *at });
        v.into_iter().map(|(_, l)| l).collect::<Vec<_>>()
    };
    let mut clubs = Vec::new();
    if let Some(me) = &caller.account {
        if let Ok(mine) = state.store.clubs_of(&me.user.id).await {
            for c in mine {
                if state
                    .store
                    .membership(&c.id, &me.user.id)
                    .await
                    .ok()
                    .flatten()
                    == Some(true)
                {
                    clubs.push((c.id, c.name));
                }
            }
        }
    }
    render(&ArenasPage {
        tr,
        chrome,
        sections: [
            ("arena_list_started", sorted(started, false)),
            ("arena_list_created", sorted(created, false)),
            ("arena_list_finished", sorted(finished, true)),
        ]
        .into_iter()
        .filter(|(_, l)| !l.is_empty())
        .map(|(key, l)| (tr.t(key).to_owned(), l))
        .collect(),
        clubs,
    })
}

#[derive(Template)]
#[template(path = "arena.html")]
struct ArenaPage {
    tr: Tr,
    chrome: Chrome,
    id: String,
    name: String,
    summary: String,
    description: Option<String>,
    /// The club whose members may join: (id, name).
    club: Option<(String, String)>,
    rated: bool,
    berserkable: bool,
    has_password: bool,
    /// The reader created it (he may end it).
    creator: bool,
}

/// `GET /tournament/{id}`: the arena's page.
pub(crate) async fn page(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let chrome = Chrome::of(&caller, &headers);
    let (a, owner, _) = match arenas::read(&state.store, &id).await {
        Ok(found) => found,
        Err(TournamentError::NotFound) => return not_found(&headers),
        Err(e) => return ApiError::from(e).into_response(),
    };
    let club = match &a.club {
        Some(c) => match state.store.club(c).await {
            Ok(found) => found.map(|c| (c.id, c.name)),
            Err(e) => return ApiError::from(e).into_response(),
        },
        None => None,
    };
    let creator = caller.account.as_ref().is_some_and(|m| m.user.id == owner);
    render(&ArenaPage {
        tr: chrome.tr,
        chrome,
        summary: summary(&a),
        name: a.name,
        description: a.description,
        club,
        rated: a.rated,
        berserkable: a.berserkable,
        has_password: a.password.is_some(),
        creator,
        id,
    })
}

#[derive(Debug, serde::Deserialize)]
pub(crate) struct Line {
    text: String,
}

/// `GET /api/tournament/{id}/chat`: the last lines, oldest first (`id`, `name`, `text`).
pub(crate) async fn chat_list(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Vec<Value>>, ApiError> {
    arenas::read(&state.store, &id).await?;
    Ok(Json(
        state
            .store
            .tournament_chat(&id, CHAT_LINES)
            .await?
            .into_iter()
            .map(|(line, name, text, _)| json!({ "id": line, "name": name, "text": text }))
            .collect(),
    ))
}

/// `POST /api/tournament/{id}/chat` (`{"text": ...}`): a logged-in reader writes; the same
/// checks as a game's chat (length, characters, a muted account, floods).
pub(crate) async fn chat_post(
    State(state): State<AppState>,
    caller: Caller,
    address: ClientAddr,
    Path(id): Path<String>,
    ApiJson(line): ApiJson<Line>,
) -> Result<Json<Value>, ApiError> {
    let me = caller
        .account
        .as_ref()
        .ok_or_else(|| ApiError::new(Code::NoSeat, "log in to write in an arena's chat"))?;
    arenas::read(&state.store, &id).await?;
    let who = (Some(me.user.id.clone()), me.user.name.clone());
    let line =
        super::chat::checked(&state, &id, ChatRoom::Spectators, who, &line.text, &address).await?;
    state.store.add_tournament_chat(&id, &line).await?;
    Ok(Json(json!({ "ok": true, "id": line.id })))
}
