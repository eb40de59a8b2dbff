//! Computer analysis over HTTP (docs/ANALYSIS.md): request it for a finished game, and read
//! where it stands — progress while it runs, then every evaluation, each move's judgement in
//! the seeds' symbols with the engine's better move, and each side's summary.

use crate::refusal::Code;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use rookery_engine::analysis::{Score, win_percent};
use serde::Serialize;

use super::AppState;
use super::error::ApiError;
use crate::analysis::{GameAnalysis, Requester};
use crate::store::Status;
use crate::store::analyses::AnalysisStatus;

#[derive(Debug, Serialize)]
pub(crate) struct AnalysisView {
    /// `none` (never requested), `queued`, `running` or `done`.
    status: &'static str,
    /// Positions evaluated so far, and in all (while it runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    done: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<usize>,
    /// Once done: each position's evaluation from White's side, the start's first
    /// (`{"cp": 17}`, `{"mate": -3}`, or null where the game is over).
    #[serde(skip_serializing_if = "Option::is_none")]
    evals: Option<Vec<Option<EvalView>>>,
    /// Once done: White's Win% of each position (lichess's curve), for the graph.
    #[serde(skip_serializing_if = "Option::is_none")]
    wins: Option<Vec<f64>>,
    /// Once done: each move's judgement (null for a good one).
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<Option<MoveView>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    white: Option<SideView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    black: Option<SideView>,
}

#[derive(Debug, Serialize)]
pub(crate) struct EvalView {
    #[serde(skip_serializing_if = "Option::is_none")]
    cp: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mate: Option<i32>,
}

#[derive(Debug, Serialize)]
pub(crate) struct MoveView {
    judgement: &'static str,
    symbol: &'static str,
    /// The engine's move instead, in SAN.
    best: Option<String>,
}

#[derive(Debug, Serialize)]
pub(crate) struct SideView {
    inaccuracies: u32,
    mistakes: u32,
    blunders: u32,
    acpl: u32,
    accuracy: Option<f64>,
}

fn side(s: &rookery_engine::analysis::SideSummary) -> SideView {
    SideView {
        inaccuracies: s.inaccuracies,
        mistakes: s.mistakes,
        blunders: s.blunders,
        acpl: s.acpl,
        accuracy: s.accuracy.map(|a| (a * 10.0).round() / 10.0),
    }
}

fn empty(status: &'static str) -> AnalysisView {
    AnalysisView {
        status,
        done: None,
        total: None,
        evals: None,
        wins: None,
        moves: None,
        white: None,
        black: None,
    }
}

async fn view(state: &AppState, id: &str) -> Result<AnalysisView, ApiError> {
    let Some(row) = state.store.game(id).await? else {
        return Err(ApiError::not_found("game"));
    };
    let Some(stored) = state.store.analysis(id).await? else {
        return Ok(empty("none"));
    };
    if stored.status != AnalysisStatus::Done {
        let mut v = empty(stored.status.as_str());
        // Running here: the worker's own count; on another node: what it last stored.
        let progress = state.analyses.progress(id).or_else(|| {
            let (done, total) = stored.progress?;
            Some((usize::try_from(done).ok()?, usize::try_from(total).ok()?))
        });
        if let Some((done, total)) = progress {
            (v.done, v.total) = (Some(done), Some(total));
        }
        return Ok(v);
    }
    let (_, game) = state.rooms.game_of(&row).await?;
    let analysis = stored
        .evals
        .as_deref()
        .and_then(|e| GameAnalysis::of(&game, e))
        .ok_or_else(|| {
            ApiError::from(crate::store::StoreError::Corrupt(format!(
                "game {id}: its stored analysis does not fit it"
            )))
        })?;
    let total = analysis.evals.len();
    Ok(AnalysisView {
        status: "done",
        done: Some(total),
        total: Some(total),
        evals: Some(
            analysis
                .evals
                .iter()
                .map(|e| {
                    e.score.map(|s| match s {
                        Score::Cp(cp) => EvalView {
                            cp: Some(cp),
                            mate: None,
                        },
                        Score::Mate(n) => EvalView {
                            cp: None,
                            mate: Some(n),
                        },
                    })
                })
                .collect(),
        ),
        wins: Some(
            analysis
                .cps
                .iter()
                .map(|&cp| (win_percent(cp) * 10.0).round() / 10.0)
                .collect(),
        ),
        moves: Some(
            analysis
                .review
                .judgements
                .iter()
                .zip(&analysis.best)
                .map(|(j, best)| {
                    j.map(|j| MoveView {
                        judgement: j.word(),
                        symbol: j.symbol(),
                        best: best.clone(),
                    })
                })
                .collect(),
        ),
        white: Some(side(&analysis.review.sides.white)),
        black: Some(side(&analysis.review.sides.black)),
    })
}

/// `GET /api/games/{id}/analysis`.
pub(crate) async fn show(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<AnalysisView>, ApiError> {
    Ok(Json(view(&state, &id).await?))
}

/// `POST /api/games/{id}/analysis`: queues the analysis of a finished game (202), or says
/// where it stands if it was asked for before (200).
pub(crate) async fn request(
    State(state): State<AppState>,
    caller: super::identity::Caller,
    address: super::limits::ClientAddr,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let Some(row) = state.store.game(&id).await? else {
        return Err(ApiError::not_found("game"));
    };
    if row.status != Status::Over {
        return Err(ApiError::new(
            Code::AnalysisNeedsEnd,
            "the game is analysed once it is over",
        ));
    }
    let before = state.store.analysis(&id).await?;
    let requester = match &caller.account {
        Some(account) => Requester::Account(account.user.id.clone()),
        None => Requester::Guest(address.0),
    };
    // The quotas go with the rate limits (off for a load test from one address).
    let quota = state.limits.enabled();
    state
        .analyses
        .request(&state.store, &id, &requester, quota)
        .await?;
    let v = view(&state, &id).await?;
    let status = if before.is_none() {
        StatusCode::ACCEPTED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(v)).into_response())
}
