//! lichess's Swiss API over Rookery's tournaments (docs/API.md "lichess's Swiss API"): a
//! lichess client makes a Swiss in a club (`POST /api/swiss/new/{teamId}`), joins and
//! withdraws, reads it (`GET /api/swiss/{id}`), its report (`GET /swiss/{id}.trf`), its
//! games and results, schedules the next round and terminates it. Every change is the same
//! [`Action`] the tournament pages and Rookery's own API send, through
//! [`tournaments::act`]; the tournament is the one `/events/{id}` shows.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Redirect, Response};
use rookery_pairing::tiebreak::{TieBreak, Value as TbValue};
use serde_json::{Value, json};

use super::AppState;
use super::error::ApiError;
use super::identity::Caller;
use super::lichess_play::{account, fields, scope, standard_only};
use crate::export::utc_date_time;
use crate::refusal::Code;
use crate::tournaments::{self, Action, Interval, NewTournament, Tournament};
use crate::wallclock::now_ms;

/// lichess's `roundInterval` for "the next round when the arbiter says".
const MANUAL: u32 = 99_999_999;
/// A Swiss with no `startsAt` begins this long after it is made (lichess's ten minutes).
const DEFAULT_START_MS: i64 = 10 * 60 * 1000;

/// An instant as lichess writes it: `2026-12-06T18:00:00Z`.
pub(crate) fn iso(ms: i64) -> String {
    let (d, h) = utc_date_time(ms);
    format!("{}T{h}Z", d.replace('.', "-"))
}

/// The clock's base in seconds and increment, from the tournament's friendly clock.
fn clock_of(t: &Tournament) -> (u64, u64) {
    t.online
        .as_ref()
        .map_or((0, 0), |o| limit_and_increment(&o.clock))
}

/// A friendly clock's (`3+2`, `0.5+0`) base in seconds and increment, as lichess's
/// `clock.limit` and `clock.increment` say them.
pub(crate) fn limit_and_increment(clock: &str) -> (u64, u64) {
    let Some((base, inc)) = clock.split_once('+') else {
        return (0, 0);
    };
    let minutes: f64 = base.trim().parse().unwrap_or(0.0);
    (
        (minutes * 60.0).round() as u64,
        inc.trim().parse().unwrap_or(0),
    )
}

/// A tournament as lichess's `Swiss` object shows it.
pub(crate) fn swiss_json(id: &str, owner: &str, created_at: i64, t: &Tournament) -> Value {
    let e = &t.event;
    let finished = t.finished();
    let status = if finished {
        "finished"
    } else if e.paired.is_empty() {
        "created"
    } else {
        "started"
    };
    let ongoing = e.paired.last().map_or(0, |r| {
        r.iter()
            .filter(|b| b.black.is_some() && b.result.is_none())
            .count()
    });
    let (limit, increment) = clock_of(t);
    let online = t.online.as_ref();
    let starts = online
        .and_then(|o| o.starts_at)
        .unwrap_or(created_at + DEFAULT_START_MS);
    let mut out = json!({
        "id": id,
        "createdBy": owner,
        "startsAt": iso(starts),
        "name": e.name,
        "clock": { "limit": limit, "increment": increment },
        "variant": "standard",
        "round": e.paired.len(),
        "nbRounds": e.rounds,
        "nbPlayers": e.players.len(),
        "nbOngoing": ongoing,
        "status": status,
        "rated": online.is_some_and(|o| o.rated),
        "system": match e.system {
            rookery_pairing::event::System::Dutch => "dutch",
            rookery_pairing::event::System::RoundRobin => "round-robin",
        },
    });
    if let Some(at) = online.and_then(|o| o.next_at).filter(|_| !finished) {
        out["nextRound"] = json!({ "at": iso(at), "in": ((at - now_ms() as i64) / 1000).max(0) });
    }
    if let Some(club) = &t.settings.club {
        out["teamId"] = json!(club);
    }
    out
}

pub(crate) fn number(
    f: &std::collections::HashMap<String, String>,
    key: &str,
) -> Result<Option<i64>, ApiError> {
    match f.get(key).map(|v| v.trim()) {
        None | Some("") => Ok(None),
        Some(v) => v
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite() && n.fract() == 0.0)
            .map(|n| Some(n as i64))
            .ok_or_else(|| ApiError::new(Code::BadRequest, format!("{key}: a whole number"))),
    }
}

/// `POST /api/swiss/new/{teamId}` (JSON or a form): `name`, `clock.limit` (seconds),
/// `clock.increment`, `nbRounds`, `startsAt` (ms; ten minutes from now when not given),
/// `roundInterval` (seconds; `99999999`: when the arbiter says), `rated` (true when not
/// given), `description`, `password`. Only a leader of the club.
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    Path(team): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let me = account(&caller)?;
    scope(me, &["tournament:write"])?;
    let club = state
        .store
        .club(&team)
        .await?
        .ok_or_else(|| ApiError::not_found("club"))?;
    let f = fields(&headers, &body)?;
    standard_only(&f)?;
    // lichess's form: one pair a line, two usernames apart.
    let mut forbidden = Vec::new();
    for line in f
        .get("forbiddenPairings")
        .map_or("", String::as_str)
        .lines()
    {
        let names: Vec<&str> = line.split_whitespace().collect();
        match names.as_slice() {
            [] => {}
            [a, b] => forbidden.push(((*a).to_owned(), (*b).to_owned())),
            _ => {
                return Err(ApiError::new(
                    Code::BadRequest,
                    format!("forbiddenPairings: two usernames a line, not {line:?}"),
                ));
            }
        }
    }
    let limit = number(&f, "clock.limit")?
        .ok_or_else(|| ApiError::new(Code::BadRequest, "clock.limit: seconds, required"))?;
    let increment = number(&f, "clock.increment")?.unwrap_or(0);
    if !(0..=10_800).contains(&limit) || !(0..=180).contains(&increment) {
        return Err(ApiError::new(
            Code::BadRequest,
            "clock.limit: 0 to 10800 seconds; clock.increment: 0 to 180",
        ));
    }
    let rounds = number(&f, "nbRounds")?
        .ok_or_else(|| ApiError::new(Code::BadRequest, "nbRounds: required"))?;
    let interval = match number(&f, "roundInterval")? {
        None => None,
        Some(n) if n == i64::from(MANUAL) => Some(Interval::Word("arbiter".into())),
        Some(n) => Some(Interval::Seconds(u32::try_from(n).unwrap_or(u32::MAX))),
    };
    let minutes = limit as f64 / 60.0;
    let new = NewTournament {
        name: f
            .get("name")
            .map(|n| n.trim().to_owned())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| format!("{} Swiss", club.name)),
        system: "swiss".into(),
        rounds: u32::try_from(rounds).unwrap_or(0),
        clock: Some(format!("{minutes}+{increment}")),
        rated: f.get("rated").is_none_or(|r| r == "true"),
        starts_at: Some(number(&f, "startsAt")?.unwrap_or(now_ms() as i64 + DEFAULT_START_MS)),
        round_interval: interval,
        password: f.get("password").cloned(),
        club: Some(club.id.clone()),
        description: f.get("description").cloned(),
        forbidden_pairs: Some(forbidden),
        ..NewTournament::default()
    };
    let id = tournaments::create(&state.store, &me.user.id, &new, now_ms() as i64).await?;
    let t = tournaments::read(&state.store, &id).await?;
    Ok(Json(swiss_json(&id, &me.user.id, now_ms() as i64, &t)).into_response())
}

/// The tournament, its arbiter and when it was made.
async fn load(state: &AppState, id: &str) -> Result<(Tournament, String, i64), ApiError> {
    let (t, row) = tournaments::read_kept(&state.rooms, id).await?;
    Ok((t, row.owner, row.created_at))
}

/// `GET /api/swiss/{id}`.
pub(crate) async fn show(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let (t, owner, created) = load(&state, &id).await?;
    Ok(Json(swiss_json(&id, &owner, created, &t)))
}

/// `POST /api/swiss/{id}/{join|withdraw|terminate|schedule-next-round}`: `{"ok": true}`.
pub(crate) async fn change(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, what)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let me = account(&caller)?;
    scope(me, &["tournament:write"])?;
    let f = fields(&headers, &body)?;
    let action = match what.as_str() {
        "join" => Action::Join {
            password: f.get("password").cloned(),
        },
        "withdraw" => {
            let (t, _, _) = load(&state, &id).await?;
            let player = t
                .number_of(&me.user.id)
                .ok_or_else(|| ApiError::new(Code::BadRequest, "you are not in this tournament"))?;
            Action::Withdraw { player }
        }
        "terminate" => Action::Terminate,
        "schedule-next-round" => Action::Schedule {
            at: number(&f, "date")?
                .ok_or_else(|| ApiError::new(Code::BadRequest, "date: ms since the epoch"))?,
        },
        _ => return Err(ApiError::not_found("page")),
    };
    tournaments::act(&state.rooms, &id, super::tournaments::actor(me), &action).await?;
    Ok(Json(json!({ "ok": true })))
}

/// `GET /swiss/{id}.trf`: the report; `GET /swiss/{id}`: the tournament's page.
pub(crate) async fn file(
    State(state): State<AppState>,
    Path(file): Path<String>,
) -> Result<Response, ApiError> {
    let Some(id) = file.strip_suffix(".trf") else {
        return Ok(Redirect::to(&format!("/events/{file}")).into_response());
    };
    let (t, _, _) = load(&state, id).await?;
    Ok((
        [(CONTENT_TYPE, "text/plain; charset=utf-8")],
        t.event.trf(false),
    )
        .into_response())
}

#[derive(Debug, serde::Deserialize)]
pub(crate) struct ResultsQuery {
    nb: Option<usize>,
}

/// Points, or a tie-break's value, as lichess's numbers (`2.5`).
fn figure(v: TbValue) -> Value {
    match v {
        TbValue::Points(h) => json!(h as f64 / 100.0),
        TbValue::Number(n) => json!(n),
        TbValue::None => Value::Null,
    }
}

/// `GET /api/swiss/{id}/results`: the standings, one player a line, best first: `rank`,
/// `points`, `tieBreak` (the first tie-break after the points), `rating`, `username`,
/// `performance` (FIDE's TPR), `absent` (withdrawn).
pub(crate) async fn results(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<ResultsQuery>,
) -> Result<Response, ApiError> {
    let (t, _, _) = load(&state, &id).await?;
    let e = &t.event;
    let mut list = t.tie_breaks();
    if !list.contains(&TieBreak::Points) {
        list.insert(0, TieBreak::Points);
    }
    list.push(TieBreak::Performance);
    let (values, ranks) = e.standings(&list);
    let points_at = list
        .iter()
        .position(|tb| *tb == TieBreak::Points)
        .unwrap_or(0);
    let tie_at = (0..list.len() - 1).find(|&i| i != points_at);
    let order = tournaments::by_rank(&ranks);
    let lines = order.iter().take(q.nb.unwrap_or(usize::MAX)).map(|&i| {
        let p = &e.players[i];
        json!({
            "rank": ranks[i],
            "points": figure(values[i][points_at]),
            "tieBreak": tie_at.map_or(Value::Null, |k| figure(values[i][k])),
            "rating": p.rating,
            "username": p.name,
            "performance": figure(values[i][list.len() - 1]),
            "absent": p.withdrawn_from.is_some(),
        })
    });
    Ok(super::lichess_stream::json_lines(lines))
}
