//! lichess's arena API (docs/API.md "Arenas"): make an arena, read it with its standings
//! page by page, join, withdraw (pause), terminate, its games and results, and the lists of
//! arenas. Every change is one [`arenas::Action`] through [`arenas::act`].

use std::collections::HashMap;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde_json::{Value, json};

use super::AppState;
use super::error::ApiError;
use super::identity::Caller;
use super::lichess_play::{account, fields, scope, standard_only};
use super::lichess_stream::json_lines;
use super::swiss::{iso, limit_and_increment, number};
use crate::arenas::{self, Action, Arena, NewArena, Phase};
use crate::refusal::Code;
use crate::store::tournaments::Which;
use crate::wallclock::now_ms;

/// Players on a page of the standings (lichess's ten).
const PAGE: usize = 10;
/// Arenas a list shows at most.
const LISTED: i64 = 100;
/// An arena made without a start begins this many minutes later (lichess's default).
const WAIT_MINUTES: i64 = 5;

fn flag(f: &HashMap<String, String>, key: &str, default: bool) -> bool {
    f.get(key).map_or(default, |v| v == "true" || v == "1")
}

/// `POST /api/tournament` (JSON or a form, lichess's fields): an arena; the answer is the
/// arena as `GET /api/tournament/{id}` shows it.
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let me = account(&caller)?;
    scope(me, &["tournament:write"])?;
    let f = fields(&headers, &body)?;
    standard_only(&f)?;
    let minutes_of_clock: f64 = f
        .get("clockTime")
        .ok_or_else(|| ApiError::new(Code::BadRequest, "clockTime: minutes, required"))?
        .trim()
        .parse()
        .ok()
        .filter(|m: &f64| m.is_finite() && (0.0..=60.0).contains(m))
        .ok_or_else(|| ApiError::new(Code::BadRequest, "clockTime: 0 to 60 minutes"))?;
    let increment = number(&f, "clockIncrement")?.unwrap_or(0);
    if !(0..=60).contains(&increment) {
        return Err(ApiError::new(
            Code::BadRequest,
            "clockIncrement: 0 to 60 seconds",
        ));
    }
    let minutes = number(&f, "minutes")?
        .ok_or_else(|| ApiError::new(Code::BadRequest, "minutes: required"))?;
    let now = now_ms() as i64;
    let starts_at = match number(&f, "startDate")? {
        Some(at) => at,
        None => {
            now + number(&f, "waitMinutes")?
                .unwrap_or(WAIT_MINUTES)
                .clamp(0, 1440)
                * 60_000
        }
    };
    let rating = |key: &str| -> Result<Option<u32>, ApiError> {
        Ok(number(&f, key)?.map(|r| r.clamp(0, 4000) as u32))
    };
    let new = NewArena {
        name: f
            .get("name")
            .map(|n| n.trim().to_owned())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| format!("{} Arena", me.user.name)),
        clock: format!("{minutes_of_clock}+{increment}"),
        minutes: u32::try_from(minutes).unwrap_or(0),
        starts_at,
        rated: flag(&f, "rated", true),
        berserkable: flag(&f, "berserkable", true),
        streakable: flag(&f, "streakable", true),
        description: f.get("description").cloned(),
        password: f.get("password").cloned(),
        club: f.get("conditions.teamMember.teamId").cloned(),
        min_rating: rating("conditions.minRating.rating")?,
        max_rating: rating("conditions.maxRating.rating")?,
        min_rated_games: number(&f, "conditions.nbRatedGame.nb")?
            .map(|n| n.clamp(0, 10_000) as u32),
    };
    if let Some(club) = &new.club {
        if state.store.club(club).await?.is_none() {
            return Err(ApiError::not_found("club"));
        }
    }
    let id = arenas::create(&state.store, &me.user.id, &new, now).await?;
    let (a, owner, _) = arenas::read(&state.store, &id).await?;
    Ok(Json(arena_json(&id, &owner, &a, 1, Some(&me.user.id))))
}

/// A sheet as lichess writes it: each game's points, the latest first (`422`).
fn scores_text(sheet: &rookery_pairing::arena::Sheet) -> String {
    sheet
        .scores
        .iter()
        .rev()
        .map(|sc| sc.points.to_string())
        .collect()
}

/// The running games a page shows, best-ranked first.
const DUELS: usize = 20;

/// An arena as lichess's `ArenaTournamentFull` shows it, with page `page` of its standings
/// and, for reader `me` when he plays in it, his place (`me`: `rank`, `withdraw`, `gameId`,
/// `pauseDelay` in seconds). The running games (`duels`, the best-ranked first, each player's
/// name `n`, rating `r` and rank `k`) and the best of them (`featured`) come too.
pub(crate) fn arena_json(id: &str, owner: &str, a: &Arena, page: usize, me: Option<&str>) -> Value {
    let now = now_ms() as i64;
    let phase = a.phase(now);
    let (limit, increment) = limit_and_increment(&a.clock);
    let standings = a.standings();
    let page = page.max(1);
    let mut rank = vec![0; a.players.len()];
    for s in &standings {
        rank[s.player] = s.rank;
    }
    let mut duels: Vec<&arenas::Pairing> = a.games.iter().filter(|g| g.result.is_none()).collect();
    duels.sort_by_key(|g| rank[g.white].min(rank[g.black]));
    let duel = |g: &arenas::Pairing| {
        let side =
            |i: usize| json!({ "n": a.players[i].name, "r": a.players[i].rating, "k": rank[i] });
        json!({ "id": g.game, "p": [side(g.white), side(g.black)] })
    };
    let players: Vec<Value> = standings
        .iter()
        .skip((page - 1) * PAGE)
        .take(PAGE)
        .map(|s| {
            let p = &a.players[s.player];
            let scores = scores_text(&s.sheet);
            json!({
                "name": p.name,
                "rank": s.rank,
                "rating": p.rating,
                "score": s.sheet.total,
                "sheet": { "scores": scores, "fire": s.on_fire },
                "withdraw": p.withdrawn,
            })
        })
        .collect();
    let mut v = json!({
        "id": id,
        "createdBy": if owner == arenas::SITE { "rookery" } else { owner },
        "system": "arena",
        "minutes": a.minutes,
        "clock": { "limit": limit, "increment": increment },
        "rated": a.rated,
        "fullName": if a.name.ends_with("Arena") { a.name.clone() } else { format!("{} Arena", a.name) },
        "nbPlayers": a.players.len(),
        "variant": { "key": "standard", "short": "Std", "name": "Standard" },
        "startsAt": iso(a.starts_at),
        "finishesAt": iso(a.ends_at()),
        "status": match phase { Phase::Created => 10, Phase::Started => 20, Phase::Finished => 30 },
        "isStarted": phase == Phase::Started,
        "isFinished": phase == Phase::Finished,
        "berserkable": a.berserkable,
        "streakable": a.streakable,
        "hasPassword": a.password.is_some(),
        "standing": { "page": page, "players": players },
        "duels": duels.iter().take(DUELS).map(|g| duel(g)).collect::<Vec<_>>(),
    });
    if let Some(g) = duels.first() {
        let side = |i: usize| json!({ "name": a.players[i].name, "rating": a.players[i].rating, "rank": rank[i] });
        v["featured"] = json!({ "id": g.game, "white": side(g.white), "black": side(g.black) });
    }
    if let Some(i) = me.and_then(|m| a.index_of(m)) {
        let p = &a.players[i];
        let game = duels.iter().find(|g| g.white == i || g.black == i);
        let delay = a.pause_wait_ms(i, now);
        v["me"] = json!({
            "rank": rank[i],
            "withdraw": p.withdrawn,
            "gameId": game.map(|g| g.game.clone()),
            "pauseDelay": (delay > 0).then(|| (delay + 999) / 1000),
        });
    }
    match phase {
        Phase::Created => v["secondsToStart"] = json!((a.starts_at - now) / 1000),
        Phase::Started => v["secondsToFinish"] = json!((a.ends_at() - now) / 1000),
        Phase::Finished => {
            v["podium"] = standings
                .iter()
                .take(3)
                .map(|s| {
                    let p = &a.players[s.player];
                    let wins = s
                        .sheet
                        .scores
                        .iter()
                        .filter(|sc| sc.game.outcome == rookery_pairing::arena::Outcome::Win)
                        .count();
                    json!({
                        "name": p.name,
                        "rank": s.rank,
                        "rating": p.rating,
                        "score": s.sheet.total,
                        "performance": s.performance,
                        "nb": {
                            "game": s.sheet.scores.len(),
                            "berserk": s.sheet.scores.iter().filter(|sc| sc.game.berserk).count(),
                            "win": wins,
                        },
                    })
                })
                .collect::<Vec<_>>()
                .into();
        }
    }
    if let Some(d) = &a.description {
        v["description"] = json!(d);
    }
    if let Some(club) = &a.club {
        v["teamMember"] = json!(club);
    }
    v
}

#[derive(Debug, serde::Deserialize)]
pub(crate) struct PageQuery {
    page: Option<usize>,
    nb: Option<usize>,
    /// Results: each player's sheet too (`true`; Python's clients send `True`).
    sheet: Option<String>,
}

/// `GET /api/tournament/{id}` (`page`: of the standings, from 1).
pub(crate) async fn show(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<PageQuery>,
    caller: Caller,
) -> Result<Json<Value>, ApiError> {
    // Read as the keeper left it (every 2 s): many readers of a big arena cost no more.
    let (a, owner, _) = arenas::read(&state.store, &id).await?;
    let me = caller.account.as_ref().map(|m| m.user.id.as_str());
    let page = q.page.unwrap_or_else(|| {
        // lichess opens the standings at the reader's own page.
        me.and_then(|m| a.index_of(m))
            .and_then(|i| a.standings().iter().find(|s| s.player == i).map(|s| s.rank))
            .map_or(1, |rank| (rank - 1) / PAGE + 1)
    });
    Ok(Json(arena_json(&id, &owner, &a, page, me)))
}

/// `POST /api/tournament/{id}/{join|withdraw|terminate}`: `{"ok": true}`. The password
/// comes in the body or, as lichess's clients send it, in the query.
pub(crate) async fn change(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, what)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let me = account(&caller)?;
    scope(me, &["tournament:write"])?;
    let f = fields(&headers, &body)?;
    let action = match what.as_str() {
        "join" => Action::Join {
            password: f.get("password").or(query.get("password")).cloned(),
        },
        "withdraw" => Action::Withdraw,
        "terminate" => Action::Terminate,
        _ => return Err(ApiError::not_found("page")),
    };
    arenas::act(&state.rooms, &id, super::tournaments::actor(me), &action).await?;
    Ok(Json(json!({ "ok": true })))
}

/// `GET /api/tournament/{id}/results`: the standings, one player a line (`rank`, `score`,
/// `rating`, `username`, `performance`); `nb` for the first so many.
pub(crate) async fn results(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<PageQuery>,
) -> Result<Response, ApiError> {
    let (a, _, _) = arenas::read(&state.store, &id).await?;
    let with_sheet = q
        .sheet
        .as_deref()
        .is_some_and(|v| v.eq_ignore_ascii_case("true") || v == "1");
    let lines = a
        .standings()
        .into_iter()
        .take(q.nb.unwrap_or(usize::MAX))
        .map(|s| {
            let p = &a.players[s.player];
            let mut line = json!({
                "rank": s.rank,
                "score": s.sheet.total,
                "rating": p.rating,
                "username": p.name,
                "performance": s.performance,
            });
            if with_sheet {
                line["sheet"] = json!({ "scores": scores_text(&s.sheet) });
            }
            line
        });
    Ok(json_lines(lines))
}

/// `GET /api/tournament/{id}/games`: its finished games, as one PGN (or NDJSON).
pub(crate) async fn games(
    State(state): State<AppState>,
    Path(id): Path<String>,
    super::Origin(origin): super::Origin,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (a, _, _) = arenas::read(&state.store, &id).await?;
    let ids = a.games.iter().map(|g| g.game.as_str());
    super::pgn::finished_games(&state, ids, &origin, &headers).await
}

/// The arenas of rows, as a list shows them (the first page of standings).
fn listed(rows: &[crate::store::tournaments::StoredTournament]) -> Vec<(Value, Phase)> {
    let now = now_ms() as i64;
    rows.iter()
        .filter_map(|row| {
            let a = arenas::parse(&row.body).ok()?;
            let mut v = arena_json(&row.id, &row.owner, &a, 1, None);
            v.as_object_mut()?.remove("standing");
            Some((v, a.phase(now)))
        })
        .collect()
}

/// `GET /api/tournament`: the newest arenas, `created`, `started` and `finished`.
pub(crate) async fn list(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    let rows = state
        .store
        .tournaments(Which::All, arenas::KIND, LISTED)
        .await?;
    let mut out = json!({ "created": [], "started": [], "finished": [] });
    for (v, phase) in listed(&rows) {
        let key = match phase {
            Phase::Created => "created",
            Phase::Started => "started",
            Phase::Finished => "finished",
        };
        if let Some(list) = out[key].as_array_mut() {
            list.push(v);
        }
    }
    Ok(Json(out))
}

/// `GET /api/user/{name}/tournament/created`: the arenas an account made, NDJSON.
pub(crate) async fn created_by(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let rows = state
        .store
        .tournaments(Which::Owner(&name.to_lowercase()), arenas::KIND, LISTED)
        .await?;
    Ok(json_lines(listed(&rows).into_iter().map(|(v, _)| v)))
}

/// `GET /api/team/{id}/arena`: a club's arenas, NDJSON.
pub(crate) async fn of_club(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    if state.store.club(&id).await?.is_none() {
        return Err(ApiError::not_found("club"));
    }
    let rows = state
        .store
        .tournaments(Which::Club(&id), arenas::KIND, LISTED)
        .await?;
    Ok(json_lines(listed(&rows).into_iter().map(|(v, _)| v)))
}
