//! Game chat over HTTP (docs/API.md): a game's players write in the players' room, logged-in
//! spectators in the spectators' room, and each room is shown only to its own audience
//! (the game socket's `chat` frames, the Board and Bot game streams' `chatLine`). A line is
//! text of at most 140 characters on one line, stored with the game before anyone sees it;
//! a muted account cannot write; floods get 429.

use crate::refusal::Code;
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use serde_json::{Value, json};

use super::AppState;
use super::error::ApiError;
use super::identity::{Caller, InGame};
use super::lichess_play::{self as play};
use super::limits::{ClientAddr, Door};
use crate::store::GameRow;
use crate::store::chat::{ChatLine, ChatRoom};
use crate::wallclock::now_ms;

/// The longest line.
const MAX_CHARS: usize = 140;

/// Unicode's explicit text-direction controls (embeddings, overrides, isolates, marks).
fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
    )
}

/// Checks a line `who` writes from `address` (its length, its characters, a muted account,
/// a flood): the line, with a new id, for `key` (a game's id, or a tournament's).
pub(crate) async fn checked(
    state: &AppState,
    key: &str,
    room: ChatRoom,
    who: (Option<String>, String),
    text: &str,
    address: &ClientAddr,
) -> Result<ChatLine, ApiError> {
    let text = text.trim();
    if text.is_empty() || text.chars().count() > MAX_CHARS || text.chars().any(char::is_control) {
        return Err(ApiError::new(
            Code::BadRequest,
            format!("a chat line has 1 to {MAX_CHARS} characters, on one line"),
        ));
    }
    if text.chars().any(is_bidi_control) {
        // They reorder what the reader sees (a line that seems to say something else).
        return Err(ApiError::new(
            Code::BadRequest,
            "a chat line may not hold text-direction controls",
        ));
    }
    let (user, name) = who;
    let mut keys = vec![address.0.clone()];
    if let Some(user) = &user {
        if state.store.chat_muted(user).await? {
            return Err(ApiError::new(
                Code::ChatMuted,
                "this account may not write in chats",
            ));
        }
        keys.push(format!("@{user}"));
    }
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    state.limits.check(Door::Chat, &keys)?;
    Ok(ChatLine {
        id: crate::ids::game_id(),
        game_id: key.to_owned(),
        room,
        user_id: user,
        name,
        text: text.to_owned(),
        at: now_ms() as i64,
    })
}

/// Checks, stores and announces a game's line.
async fn write(
    state: &AppState,
    row: &GameRow,
    room: ChatRoom,
    who: (Option<String>, String),
    text: &str,
    address: &ClientAddr,
) -> Result<ChatLine, ApiError> {
    let line = checked(state, &row.game.id, room, who, text, address).await?;
    state.store.add_chat(&line).await?;
    if let Some(room) = state.rooms.open_anywhere(&row.game.id) {
        room.tell(crate::room::Request::Chat(std::sync::Arc::new(
            line.clone(),
        )))
        .await;
    }
    Ok(line)
}

#[derive(Debug, serde::Deserialize)]
pub(crate) struct WebLine {
    text: String,
}

/// `POST /api/games/{id}/chat` (`{"text": ...}`): a player writes in the players' room; a
/// logged-in spectator in the spectators'.
pub(crate) async fn post(
    State(state): State<AppState>,
    address: ClientAddr,
    InGame { row, seat, caller }: InGame,
    super::error::ApiJson(req): super::error::ApiJson<WebLine>,
) -> Result<Json<Value>, ApiError> {
    let account = caller
        .account
        .as_ref()
        .map(|a| (a.user.id.clone(), a.user.name.clone()));
    let (room, who) = match seat {
        Some(color) => (
            ChatRoom::Players,
            (account.map(|a| a.0), row.game.name(color).to_owned()),
        ),
        None => {
            let (id, name) = account.ok_or_else(|| {
                ApiError::new(Code::NoSeat, "log in to write in a game's spectators' chat")
            })?;
            (ChatRoom::Spectators, (Some(id), name))
        }
    };
    let line = write(&state, &row, room, who, &req.text, &address).await?;
    Ok(Json(json!({ "ok": true, "id": line.id })))
}

/// `GET /api/games/{id}/chat`: the lines of the caller's room (players see the players',
/// everyone else the spectators').
pub(crate) async fn list(
    State(state): State<AppState>,
    InGame { row, seat, .. }: InGame,
) -> Result<Json<Vec<Value>>, ApiError> {
    let room = if seat.is_some() {
        ChatRoom::Players
    } else {
        ChatRoom::Spectators
    };
    Ok(Json(
        state
            .store
            .chat_of(&row.game.id, room)
            .await?
            .into_iter()
            .map(|l| json!({ "id": l.id, "room": room.as_str(), "name": l.name, "text": l.text }))
            .collect(),
    ))
}

async fn api_post(
    state: &AppState,
    caller: &Caller,
    address: &ClientAddr,
    id: &str,
    headers: &HeaderMap,
    body: &Bytes,
    door: play::Door,
) -> Result<Json<Value>, ApiError> {
    let (row, _) = play::seat(state, caller, id, door).await?;
    let f = play::fields(headers, body)?;
    let room = match f.get("room").map(String::as_str) {
        None => ChatRoom::Players,
        Some(r) => ChatRoom::parse(r)
            .ok_or_else(|| ApiError::new(Code::BadRequest, "room: player or spectator"))?,
    };
    let account = caller
        .account
        .as_ref()
        .map(|a| (a.user.id.clone(), a.user.name.clone()));
    let (user, name) = account.ok_or_else(|| ApiError::not_found("account"))?;
    let text = f.get("text").map_or("", String::as_str);
    write(state, &row, room, (Some(user), name), text, address).await?;
    Ok(Json(json!({ "ok": true })))
}

async fn api_list(
    state: &AppState,
    caller: &Caller,
    id: &str,
    door: play::Door,
) -> Result<Json<Vec<Value>>, ApiError> {
    let (row, _) = play::seat(state, caller, id, door).await?;
    Ok(Json(
        state
            .store
            .chat_of(&row.game.id, ChatRoom::Players)
            .await?
            .into_iter()
            .map(|l| json!({ "text": l.text, "user": l.name }))
            .collect(),
    ))
}

/// `POST /api/board/game/{id}/chat` (`room`, `text`).
pub(crate) async fn board_post(
    State(state): State<AppState>,
    caller: Caller,
    address: ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    api_post(
        &state,
        &caller,
        &address,
        &id,
        &headers,
        &body,
        play::Door::Board,
    )
    .await
}

/// `GET /api/board/game/{id}/chat`: the players' room, `[{"text", "user"}]`.
pub(crate) async fn board_list(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Vec<Value>>, ApiError> {
    api_list(&state, &caller, &id, play::Door::Board).await
}

/// `POST /api/bot/game/{id}/chat`.
pub(crate) async fn bot_post(
    State(state): State<AppState>,
    caller: Caller,
    address: ClientAddr,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    api_post(
        &state,
        &caller,
        &address,
        &id,
        &headers,
        &body,
        play::Door::Bot,
    )
    .await
}

/// `GET /api/bot/game/{id}/chat`.
pub(crate) async fn bot_list(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Vec<Value>>, ApiError> {
    api_list(&state, &caller, &id, play::Door::Bot).await
}
