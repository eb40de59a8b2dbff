//! Quick pairing over HTTP (docs/API.md): join a pool, ask after the ticket with a long
//! poll until it is paired (the answer is the seat, as a join's), leave, and the grid with
//! how many wait in each pool.

use crate::refusal::Code;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use rookery_core::rating::Speed;

use super::AppState;
use super::body::{JoinPool, Ok as Okay, PoolInfo, PoolTicket, PoolWaiting};
use super::error::{ApiError, ApiJson};
use super::identity::Caller;
use crate::ids;
use crate::pools::pairing::{PoolId, Waiter};
use crate::pools::{GRID, Holder, TicketState, grid_control};
use crate::wallclock::now_ms;

/// How long a poll waits for a pairing before it answers "still waiting".
const LONG_POLL: std::time::Duration = std::time::Duration::from_secs(20);

/// `POST /api/pool`: a logged-in player joins the rated pool of the control, an anonymous
/// player the casual one.
pub(crate) async fn join(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(req): ApiJson<JoinPool>,
) -> Result<Json<PoolTicket>, ApiError> {
    let control = grid_control(&req.time_control).ok_or_else(|| {
        ApiError::new(
            Code::UnknownPool,
            format!(
                "no pool plays {:?}: choose one of {}",
                req.time_control,
                GRID.join(", ")
            ),
        )
    })?;
    let speed = Speed::of_control(&control)
        .ok_or_else(|| ApiError::new(Code::UnknownPool, "the pools play timed games"))?;
    let now = now_ms() as i64;
    let account = caller.account.as_ref().filter(|a| a.may_play());
    if account.is_some_and(|a| a.user.title == Some(crate::accounts::Title::Bot)) {
        // As on lichess: a BOT plays by challenge, never from a pool.
        return Err(ApiError::new(
            Code::NotAllowed,
            "a BOT plays by challenge, not from the pools",
        ));
    }
    let (holder, waiter, rating) = match account {
        Some(a) => {
            let rating = state.store.rating_at(&a.user.id, speed, now).await?;
            let lean = state.store.colour_lean(&a.user.id).await?;
            (
                Holder {
                    name: a.user.name.clone(),
                    account: Some(a.user.id.clone()),
                },
                Waiter {
                    who: a.user.id.clone(),
                    rating: rating.rating,
                    since: now,
                    colour_lean: lean,
                },
                Some(rating.shown()),
            )
        }
        None => (
            Holder {
                name: ids::display_name(),
                account: None,
            },
            Waiter {
                // Anonymous: the ticket is the player (the pools fill `who` in).
                who: String::new(),
                rating: rookery_core::rating::glicko2::START_RATING,
                since: now,
                colour_lean: 0,
            },
            None,
        ),
    };
    let pool = PoolId {
        control: req.time_control.clone(),
        rated: account.is_some(),
    };
    let ticket = state
        .pools
        .join(pool, holder, waiter)
        .await
        .map_err(|_| unreachable())?;
    Ok(Json(PoolTicket {
        ticket,
        time_control: req.time_control,
        rated: account.is_some(),
        rating,
    }))
}

/// `GET /api/pool/{ticket}`: waits up to 20 s for a pairing. Paired: the seat (and its
/// cookie); still waiting: `{"waiting": true}`; an unknown or expired ticket: 404.
pub(crate) async fn poll(
    State(state): State<AppState>,
    Path(ticket): Path<String>,
) -> Result<Response, ApiError> {
    let gone = || {
        ApiError::new(
            Code::NoTicket,
            "this pool ticket is unknown or has expired: join the pool again",
        )
    };
    let (pool, outcome) = state
        .pools
        .wait(&ticket, LONG_POLL)
        .await
        .map_err(|_| unreachable())?
        .ok_or_else(gone)?;
    match outcome {
        TicketState::Waiting => Ok(Json(PoolWaiting {
            waiting: true,
            time_control: pool.control,
            rated: pool.rated,
        })
        .into_response()),
        TicketState::Paired {
            game,
            color,
            name,
            token,
        } => Ok(super::games::seated(
            game,
            color,
            name,
            &token,
            StatusCode::OK,
            state.secure(),
        )),
        TicketState::Failed(why) => Err(ApiError::new(Code::NotSaved, why)),
    }
}

/// `DELETE /api/pool/{ticket}`: leaves the pool (nothing happens to a paired ticket).
pub(crate) async fn leave(State(state): State<AppState>, Path(ticket): Path<String>) -> Json<Okay> {
    state.pools.leave(&ticket).await;
    Json(Okay { ok: true })
}

/// The pairing authority of a cluster did not answer in time: the page tries again.
fn unreachable() -> ApiError {
    ApiError::new(
        Code::Unavailable,
        "the pools cannot be reached right now; try again in a moment",
    )
}

/// `GET /api/pools`: the grid, with how many wait in each pool now.
pub(crate) async fn grid(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
) -> Json<Vec<PoolInfo>> {
    let tr = super::pages::Tr::new(super::pages::Lang::of(&headers));
    let counts = state.pools.counts();
    Json(
        GRID.iter()
            .filter_map(|control| {
                let tc = grid_control(control)?;
                let (rated_waiting, casual_waiting) =
                    counts.get(*control).copied().unwrap_or_default();
                Some(PoolInfo {
                    time_control: control,
                    time_control_words: super::pages::describe(tr, &tc),
                    speed: Speed::of_control(&tc)?.as_str(),
                    rated_waiting,
                    casual_waiting,
                })
            })
            .collect(),
    )
}
