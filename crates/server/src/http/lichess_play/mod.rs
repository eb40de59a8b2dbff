//! lichess's API for playing (docs/API.md, "lichess's API"): challenges, the Board API (a
//! person through a program) and the Bot API (an engine's account). Every move and every draw
//! offer goes to the game's room as a player's command, so the rules of docs/RULES.md decide
//! here as everywhere: an offer R5 refuses is refused with its reason.

use crate::refusal::Code;
use std::collections::HashMap;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, header};
use rookery_core::Color;
use rookery_core::clock::TimeControl;
use rookery_core::game::MoveText;
use rookery_core::rating::Speed;
use serde_json::{Value, json};

use super::AppState;
use super::error::ApiError;
use super::identity::{Account, Caller, Via};
use super::lichess::{seat_of, speed_key};
use crate::accounts::Title;
use crate::challenges::{AskedClock, Challenge, Party, control_of};
use crate::events::UserEvent;
use crate::ids;
use crate::new_game::{ColorChoice, GameSpec, SeatSpec, Source, make, parse_range, parse_start};
use crate::protocol::Action;
use crate::store::GameRow;
use crate::wallclock::now_ms;

mod bot;
mod challenge;
mod seek;

pub(crate) use bot::*;
pub(crate) use challenge::*;
pub(crate) use seek::*;

/// A request's fields, from a JSON object or a form (lichess takes both): every value as
/// text (`true`, `300`), nulls left out.
pub(crate) fn fields(
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<HashMap<String, String>, ApiError> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json"));
    if json {
        let v: serde_json::Map<String, Value> = serde_json::from_slice(body)
            .map_err(|e| ApiError::new(Code::BadRequest, format!("the JSON body: {e}")))?;
        Ok(v.into_iter()
            .filter_map(|(k, v)| match v {
                Value::Null => None,
                Value::String(s) => Some((k, s)),
                other => Some((k, other.to_string())),
            })
            .collect())
    } else if body.is_empty() {
        Ok(HashMap::new())
    } else {
        serde_urlencoded::from_bytes(body)
            .map_err(|e| ApiError::new(Code::BadRequest, format!("the form: {e}")))
    }
}

/// A form's `variant`, where lichess's clients send one: only standard chess is played here.
///
/// # Errors
/// Any other variant.
pub(crate) fn standard_only(f: &HashMap<String, String>) -> Result<(), ApiError> {
    if f.get("variant").is_some_and(|v| v != "standard") {
        return Err(ApiError::new(
            Code::BadRequest,
            "only standard chess is played here",
        ));
    }
    Ok(())
}

/// Whether the caller may do what needs one of `wanted`: a session may do anything, a token
/// needs one of those scopes (lichess's names).
pub(crate) fn scope(account: &Account, wanted: &[&str]) -> Result<(), ApiError> {
    let ok = match &account.via {
        Via::Session(_) => true,
        Via::Token { scopes, .. } => scopes.split(',').any(|s| wanted.contains(&s)),
    };
    if ok {
        Ok(())
    } else {
        Err(ApiError::new(
            Code::NotAllowed,
            format!("this token lacks the scope: {}", wanted.join(" or ")),
        ))
    }
}

/// The caller's account, which every lichess endpoint needs (401 without one).
pub(crate) fn account(caller: &Caller) -> Result<&Account, ApiError> {
    caller.account.as_ref().ok_or_else(|| {
        ApiError::new(
            Code::BadToken,
            "this needs an API token (Authorization: Bearer) or a session",
        )
    })
}

fn is_bot(account: &Account) -> bool {
    account.user.title == Some(Title::Bot)
}

fn ok() -> Json<Value> {
    Json(json!({ "ok": true }))
}

/// Which API a play request came through: the Board API (people) or the Bot API (BOT
/// accounts only), as lichess keeps them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Door {
    Board,
    Bot,
}

/// The game and the caller's color in it, for a play request through `door`.
pub(crate) async fn seat(
    state: &AppState,
    caller: &Caller,
    id: &str,
    door: Door,
) -> Result<(GameRow, Color), ApiError> {
    let me = account(caller)?;
    match door {
        Door::Board => scope(me, &["board:play"])?,
        Door::Bot => scope(me, &["bot:play"])?,
    }
    if (door == Door::Bot) != is_bot(me) {
        return Err(ApiError::new(
            Code::NotAllowed,
            if door == Door::Bot {
                "the Bot API is for BOT accounts (POST /api/bot/account/upgrade)"
            } else {
                "a BOT account plays through the Bot API"
            },
        ));
    }
    if !crate::store::storable(id) {
        return Err(ApiError::not_found("game"));
    }
    let row = state
        .store
        .game(id)
        .await?
        .ok_or_else(|| ApiError::not_found("game"))?;
    let color = seat_of(&row, &me.user.id)
        .ok_or_else(|| ApiError::new(Code::NoSeat, "you do not play in this game"))?;
    Ok((row, color))
}

async fn apply(
    state: &AppState,
    row: &GameRow,
    color: Color,
    action: Action,
) -> Result<Json<Value>, ApiError> {
    let room = state
        .rooms
        .get(&row.game.id)
        .await?
        .ok_or_else(|| ApiError::new(Code::GameOver, "the game is over"))?;
    room.apply(action.by(color)).await?;
    Ok(ok())
}

#[derive(Debug, serde::Deserialize)]
pub(crate) struct MoveQuery {
    #[serde(rename = "offeringDraw", default)]
    offering_draw: Option<String>,
}

async fn play_move(
    state: &AppState,
    caller: &Caller,
    id: &str,
    uci: String,
    q: MoveQuery,
    door: Door,
) -> Result<Json<Value>, ApiError> {
    let (row, color) = seat(state, caller, id, door).await?;
    let action = Action::Move {
        text: MoveText::Uci(uci),
        offer_draw: q.offering_draw.as_deref() == Some("true"),
        timing: Default::default(),
    };
    apply(state, &row, color, action).await
}

/// `POST /api/board/game/{id}/move/{uci}?offeringDraw=true`.
pub(crate) async fn board_move(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, uci)): Path<(String, String)>,
    Query(q): Query<MoveQuery>,
) -> Result<Json<Value>, ApiError> {
    play_move(&state, &caller, &id, uci, q, Door::Board).await
}

/// `POST /api/bot/game/{id}/move/{uci}?offeringDraw=true`.
pub(crate) async fn bot_move(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, uci)): Path<(String, String)>,
    Query(q): Query<MoveQuery>,
) -> Result<Json<Value>, ApiError> {
    play_move(&state, &caller, &id, uci, q, Door::Bot).await
}

/// The action of a play path's last part: `abort`, `resign`, `claim-victory`, `draw/yes`,
/// `draw/no`; a take-back is refused (a move once made stands, 落子无悔).
async fn act(
    state: &AppState,
    caller: &Caller,
    id: &str,
    what: &str,
    door: Door,
) -> Result<Json<Value>, ApiError> {
    let (row, color) = seat(state, caller, id, door).await?;
    let action = match what.trim_end_matches('/') {
        "abort" => Action::Abort,
        "resign" => Action::Resign,
        "claim-victory" => Action::ClaimVictory,
        "berserk" => Action::Berserk,
        // The room decides: accept a standing offer, else offer (R5).
        "draw/yes" => Action::AgreeDraw,
        "draw/no" => Action::DeclineDraw,
        t if t.starts_with("takeback/") => {
            return Err(ApiError::new(
                Code::IllegalMove,
                "no take-backs here: a move once made stands (落子无悔)",
            ));
        }
        _ => return Err(ApiError::not_found("action")),
    };
    apply(state, &row, color, action).await
}

/// `POST /api/board/game/{id}/{action}` (and `draw/{yes|no}`).
pub(crate) async fn board_action(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, what)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    act(&state, &caller, &id, &what, Door::Board).await
}

/// `POST /api/board/game/{id}/{draw|takeback}/{yes|no}`.
pub(crate) async fn board_answer(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, what, answer)): Path<(String, String, String)>,
) -> Result<Json<Value>, ApiError> {
    act(
        &state,
        &caller,
        &id,
        &format!("{what}/{answer}"),
        Door::Board,
    )
    .await
}

/// `POST /api/bot/game/{id}/{action}`.
pub(crate) async fn bot_action(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, what)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    act(&state, &caller, &id, &what, Door::Bot).await
}

/// `POST /api/bot/game/{id}/{draw|takeback}/{yes|no}`.
pub(crate) async fn bot_answer(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, what, answer)): Path<(String, String, String)>,
) -> Result<Json<Value>, ApiError> {
    act(&state, &caller, &id, &format!("{what}/{answer}"), Door::Bot).await
}
