//! lichess's Bot API accounts: upgrading to BOT and the bots online.

use super::*;

/// `POST /api/bot/account/upgrade`: an account that has played no game becomes a BOT.
pub(crate) async fn upgrade(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<Value>, ApiError> {
    let me = account(&caller)?;
    scope(me, &["bot:play"])?;
    if is_bot(me) {
        return Ok(ok());
    }
    let record = state
        .store
        .record_of(crate::store::accounts::Whose::Account(&me.user.id))
        .await?;
    let live = state
        .store
        .live_games()
        .await?
        .iter()
        .any(|r| seat_of(r, &me.user.id).is_some());
    if record.won + record.drawn + record.lost > 0 || live {
        return Err(ApiError::new(
            Code::BadRequest,
            "only an account that has played no game can become a BOT",
        ));
    }
    state.store.set_title(&me.user.id, Some(Title::Bot)).await?;
    Ok(ok())
}

/// `GET /api/bot/online`: BOT accounts with an event stream open, NDJSON as lichess.
pub(crate) async fn bots_online(
    State(state): State<AppState>,
) -> Result<axum::response::Response, ApiError> {
    let mut lines = String::new();
    for user in state.store.users_titled(Title::Bot).await? {
        if state.online.is_online(&user.id) {
            lines.push_str(
                &json!({ "id": user.id, "username": user.name, "title": "BOT" }).to_string(),
            );
            lines.push('\n');
        }
    }
    Ok(axum::response::IntoResponse::into_response((
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        lines,
    )))
}
