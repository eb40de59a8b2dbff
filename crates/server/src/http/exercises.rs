//! Learning from one's own mistakes over HTTP (docs/ANALYSIS.md, docs/API.md): the exercises
//! of an analysed game's side, a move tried at one (judged by the engine), its solution on
//! request, and an account's progress kept.

use askama::Template;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use rookery_core::Color;
use serde::{Deserialize, Serialize};

use super::AppState;
use super::error::{ApiError, ApiJson};
use super::identity::Caller;
use super::pages::{Chrome, Tr, not_found, render, script_json};
use crate::analysis::GameAnalysis;
use crate::exercises::{Exercise, of_game};
use crate::refusal::Code;
use crate::store::analyses::AnalysisStatus;
use crate::store::exercises::Progress;
use crate::wallclock::now_ms;

#[derive(Debug, Deserialize)]
pub(crate) struct SideQuery {
    /// `white` or `black`; by default the caller's side in the game, else White.
    color: Option<String>,
}

#[derive(Debug, Serialize)]
pub(crate) struct ExerciseView {
    /// The ply of the mistake (the game's first move is ply 1).
    ply: usize,
    /// The position before it.
    fen: String,
    /// The move played there, in SAN.
    played: String,
    judgement: &'static str,
    symbol: &'static str,
    /// The legal moves, as a game frame carries them (`dests`, `promotions`).
    moves: serde_json::Value,
    /// The account's progress (all false and 0 for a guest: it is not kept).
    solved: bool,
    shown: bool,
    tries: i64,
}

#[derive(Debug, Serialize)]
pub(crate) struct ExercisesView {
    color: &'static str,
    exercises: Vec<ExerciseView>,
    /// Whether progress is kept (the caller has an account).
    kept: bool,
}

#[derive(Debug, Deserialize)]
pub(crate) struct TryRequest {
    /// UCI (`e2e4`, `e7e8q`, `e1h1`) or SAN.
    #[serde(alias = "uci", alias = "san", rename = "move")]
    m: String,
}

#[derive(Debug, Serialize)]
pub(crate) struct TryView {
    /// `best` (the engine's move), `good` (within an inaccuracy of it), `played` (the
    /// mistake again) or `worse`.
    verdict: &'static str,
    solved: bool,
    /// The move tried, in SAN.
    san: String,
}

#[derive(Debug, Serialize)]
pub(crate) struct SolutionView {
    uci: String,
    san: String,
}

fn side(
    query: &SideQuery,
    caller: &Caller,
    row: &crate::store::GameRow,
) -> Result<Color, ApiError> {
    match query.color.as_deref() {
        Some("white") => Ok(Color::White),
        Some("black") => Ok(Color::Black),
        Some(other) => Err(ApiError::new(
            Code::BadRequest,
            format!("color must be white or black, not {other:?}"),
        )),
        None => Ok(caller.seat_in(row).unwrap_or(Color::White)),
    }
}

/// The exercises of the side asked for, and the side.
async fn exercises(
    state: &AppState,
    id: &str,
    caller: &Caller,
    query: &SideQuery,
) -> Result<(Vec<Exercise>, Color), ApiError> {
    let Some(row) = state.store.game(id).await? else {
        return Err(ApiError::not_found("game"));
    };
    let color = side(query, caller, &row)?;
    let stored = state.store.analysis(id).await?;
    let Some(evals) = stored
        .filter(|s| s.status == AnalysisStatus::Done)
        .and_then(|s| s.evals)
    else {
        return Err(ApiError::new(
            Code::NeedsAnalysis,
            "the exercises come from the game's computer analysis: request it first",
        ));
    };
    let (_, game) = state.rooms.game_of(&row).await?;
    let analysis = GameAnalysis::of(&game, &evals).ok_or_else(|| {
        ApiError::from(crate::store::StoreError::Corrupt(format!(
            "game {id}: its stored analysis does not fit it"
        )))
    })?;
    Ok((of_game(&game, &analysis, color), color))
}

fn account(caller: &Caller) -> Option<&str> {
    caller.account.as_ref().map(|a| a.user.id.as_str())
}

/// `GET /api/games/{id}/exercises?color=`: the side's mistakes and blunders, each the
/// position before it, with the account's progress.
pub(crate) async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Query(query): Query<SideQuery>,
) -> Result<Json<ExercisesView>, ApiError> {
    let (list, color) = exercises(&state, &id, &caller, &query).await?;
    let progress = match account(&caller) {
        Some(account) => state.store.exercise_progress(account, &id).await?,
        None => Vec::new(),
    };
    let of = |ply: usize| {
        progress
            .iter()
            .find(|(p, _)| *p == ply as i64)
            .map(|(_, progress)| *progress)
            .unwrap_or_default()
    };
    let exercises = list
        .iter()
        .map(|e| {
            let Progress {
                solved,
                shown,
                tries,
            } = of(e.ply);
            ExerciseView {
                ply: e.ply,
                fen: e.before.fen(),
                played: e.before.san(e.played).to_string(),
                judgement: e.judgement.word(),
                symbol: e.judgement.symbol(),
                moves: crate::protocol::playable(&e.before),
                solved,
                shown,
                tries,
            }
        })
        .collect();
    Ok(Json(ExercisesView {
        color: color.name(),
        exercises,
        kept: account(&caller).is_some(),
    }))
}

fn find(list: Vec<Exercise>, ply: usize) -> Result<Exercise, ApiError> {
    list.into_iter()
        .find(|e| e.ply == ply)
        .ok_or_else(|| ApiError::not_found("exercise"))
}

/// `POST /api/games/{id}/exercises/{ply}?color=` `{"move": "e2e4"}`: a move tried at the
/// exercise of `ply`, judged by the engine.
pub(crate) async fn attempt(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, ply)): Path<(String, usize)>,
    Query(query): Query<SideQuery>,
    ApiJson(req): ApiJson<TryRequest>,
) -> Result<Json<TryView>, ApiError> {
    let (list, _) = exercises(&state, &id, &caller, &query).await?;
    let exercise = find(list, ply)?;
    let m = exercise.before.parse_san(&req.m).map_err(|e| {
        ApiError::new(
            Code::IllegalMove,
            format!("{:?} is not a legal move here: {e}", req.m),
        )
    })?;
    let verdict = match exercise.quick_verdict(m) {
        Some(v) => v,
        None => {
            let (after, history) = exercise.after(m);
            let eval = state.analyses.evaluate_one(after, history).await?;
            exercise.judge_searched(&after, &eval)
        }
    };
    if let Some(account) = account(&caller) {
        state
            .store
            .exercise_tried(account, &id, ply as i64, verdict.solves(), now_ms() as i64)
            .await?;
    }
    Ok(Json(TryView {
        verdict: verdict.as_str(),
        solved: verdict.solves(),
        san: exercise.before.san(m).to_string(),
    }))
}

/// `POST /api/games/{id}/exercises/{ply}/solution?color=`: the engine's move there; for an
/// account, the exercise counts as shown from then on (no longer solvable for the record).
pub(crate) async fn solution(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, ply)): Path<(String, usize)>,
    Query(query): Query<SideQuery>,
) -> Result<Json<SolutionView>, ApiError> {
    let (list, _) = exercises(&state, &id, &caller, &query).await?;
    let exercise = find(list, ply)?;
    let Some(best) = exercise.best else {
        return Err(ApiError::not_found("solution"));
    };
    if let Some(account) = account(&caller) {
        state
            .store
            .exercise_shown(account, &id, ply as i64, now_ms() as i64)
            .await?;
    }
    Ok(Json(SolutionView {
        uci: best.to_uci().to_string(),
        san: exercise.before.san(best).to_string(),
    }))
}

#[derive(Template)]
#[template(path = "learn.html")]
struct LearnPage {
    tr: Tr,
    chrome: Chrome,
    id: String,
    /// The game and the side asked for, as JSON for the page's script.
    page_json: String,
}

/// `GET /game/{id}/learn?color=`: the exercises of a side, one at a time on a board.
pub(crate) async fn page(
    State(state): State<AppState>,
    chrome: Chrome,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(query): Query<SideQuery>,
) -> Response {
    match state.store.game(&id).await {
        Ok(Some(_)) => {}
        Ok(None) => return not_found(&headers),
        Err(e) => return ApiError::from(e).into_response(),
    }
    let color = match query.color.as_deref() {
        Some(c @ ("white" | "black")) => Some(c),
        _ => None,
    };
    render(&LearnPage {
        tr: chrome.tr,
        chrome,
        page_json: script_json(&serde_json::json!({ "id": id, "color": color })),
        id,
    })
}
