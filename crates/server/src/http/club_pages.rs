//! The club pages (docs/TOURNAMENTS.md "Clubs"): `/team` (the clubs, most members first,
//! with a search, and the form that makes one) and `/team/{id}` (what it is, its members and
//! leaders, its own ladder, its arenas and Swiss tournaments; joining, asking to join, leaving;
//! for its leaders the requests, removing a member, naming a leader, the message to every
//! member and the club's rules). Every change goes through lichess's team doors
//! (`club.js`), and so through [`crate::clubs::act`], the one way in.

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};

use super::AppState;
use super::error::ApiError;
use super::identity::Caller;
use super::pages::{Chrome, Tr, not_found, render};
use crate::store::tournaments::Which;

/// Clubs on a page of `/team`.
const PER_PAGE: i64 = 30;
/// Tournaments of a club its page lists.
const LISTED: i64 = 20;

/// A club as the list shows it: id, name, members.
struct ClubLine {
    id: String,
    name: String,
    members: usize,
}

#[derive(Template)]
#[template(path = "clubs.html")]
struct ClubsPage {
    tr: Tr,
    chrome: Chrome,
    clubs: Vec<ClubLine>,
    text: String,
    page: i64,
    pages: i64,
}

#[derive(Debug, serde::Deserialize)]
pub(crate) struct ListQuery {
    text: Option<String>,
    page: Option<i64>,
}

/// `GET /team`: the clubs, a search, and (logged in) the form that makes one.
pub(crate) async fn list(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    Query(q): Query<ListQuery>,
) -> Response {
    let chrome = Chrome::of(&caller, &headers);
    let text = q.text.unwrap_or_default().trim().to_owned();
    let page = q.page.unwrap_or(1).clamp(1, 10_000);
    let filter = (!text.is_empty()).then_some(text.as_str());
    let (found, total) = match state
        .store
        .clubs_listed(filter, (page - 1) * PER_PAGE, PER_PAGE)
        .await
    {
        Ok(found) => found,
        Err(e) => return ApiError::from(e).into_response(),
    };
    let mut clubs = Vec::new();
    for c in found {
        let members = match state.store.club_members(&c.id).await {
            Ok(m) => m.len(),
            Err(e) => return ApiError::from(e).into_response(),
        };
        clubs.push(ClubLine {
            id: c.id,
            name: c.name,
            members,
        });
    }
    render(&ClubsPage {
        tr: chrome.tr,
        chrome,
        clubs,
        text,
        page,
        pages: ((total + PER_PAGE - 1) / PER_PAGE).max(1),
    })
}

/// A member as the page lists him.
struct MemberLine {
    id: String,
    name: String,
    leader: bool,
}

/// A line of the club's ladder.
struct LadderLine {
    rank: usize,
    name: String,
    points: String,
    class: String,
    games: u32,
}

#[derive(Template)]
#[template(path = "club.html")]
struct ClubPage {
    tr: Tr,
    chrome: Chrome,
    id: String,
    name: String,
    description: String,
    open: bool,
    has_password: bool,
    members: Vec<MemberLine>,
    ladder: Vec<LadderLine>,
    /// (path, name, what it is).
    tournaments: Vec<(String, String, String)>,
    /// The reader: a member, a leader, asked to join.
    member: bool,
    leader: bool,
    requested: bool,
    /// The reader's account id ("" for none).
    me_id: String,
    /// For its leaders: (account name, message).
    requests: Vec<(String, String)>,
    message: Option<String>,
}

/// `GET /team/{id}`: the club's page.
pub(crate) async fn page(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    match club_page(&state, &caller, &headers, &id).await {
        Ok(Some(page)) => render(&page),
        Ok(None) => not_found(&headers),
        Err(e) => e.into_response(),
    }
}

async fn club_page(
    state: &AppState,
    caller: &Caller,
    headers: &HeaderMap,
    id: &str,
) -> Result<Option<ClubPage>, ApiError> {
    let chrome = Chrome::of(caller, headers);
    let tr = chrome.tr;
    let store = &state.store;
    let Some(club) = store.club(id).await? else {
        return Ok(None);
    };
    let name_of = async |user: &str| -> Result<String, ApiError> {
        Ok(store
            .user(user)
            .await?
            .map_or_else(|| user.to_owned(), |u| u.name))
    };
    let mut members = Vec::new();
    for m in store.club_members(id).await? {
        members.push(MemberLine {
            name: name_of(&m.user_id).await?,
            id: m.user_id,
            leader: m.leader,
        });
    }
    let me = caller.account.as_ref().map(|a| a.user.id.as_str());
    let mine = members.iter().find(|m| Some(m.id.as_str()) == me);
    let (member, leader) = (mine.is_some(), mine.is_some_and(|m| m.leader));
    let waiting = store.club_requests(id).await?;
    let requested = me.is_some_and(|me| waiting.iter().any(|r| r.user_id == me));
    let mut requests = Vec::new();
    if leader {
        for r in waiting {
            requests.push((name_of(&r.user_id).await?, r.message));
        }
    }
    let mut ladder = Vec::new();
    for (k, l) in crate::clubs::ladder(store, id)
        .await?
        .into_iter()
        .enumerate()
    {
        ladder.push(LadderLine {
            rank: k + 1,
            name: name_of(&l.user_id).await?,
            points: l.points.shown(),
            class: super::boards::class_name(tr, l.points.class()),
            games: l.games,
        });
    }
    let mut tournaments = Vec::new();
    for row in store
        .tournaments(Which::Club(id), crate::arenas::KIND, LISTED)
        .await?
    {
        if let Ok(a) = crate::arenas::parse(&row.body) {
            tournaments.push((
                format!("/tournament/{}", row.id),
                a.name,
                format!("{} · {} min", a.clock, a.minutes),
            ));
        }
    }
    for row in store
        .tournaments(Which::Club(id), crate::tournaments::KIND, LISTED)
        .await?
    {
        if let Ok(t) = crate::tournaments::parse(&row.body) {
            tournaments.push((
                format!("/events/{}", row.id),
                t.event.name.clone(),
                tr.t("ev_swiss").to_owned(),
            ));
        }
    }
    Ok(Some(ClubPage {
        tr,
        chrome,
        id: club.id,
        name: club.name,
        description: club.description,
        open: club.open,
        has_password: club.password.is_some(),
        members,
        ladder,
        tournaments,
        member,
        leader,
        requested,
        me_id: me.unwrap_or_default().to_owned(),
        requests,
        message: club.message.map(|(m, _)| m),
    }))
}
