//! The admin page: titles, accounts, games and chat.

use super::*;

pub(super) struct AdminUser {
    user: User,
    created: String,
    seen: String,
    /// May not write in chats.
    muted: bool,
}

impl AdminUser {
    fn has_title(&self, title: &Title) -> bool {
        self.user.title == Some(*title)
    }
}

pub(super) struct AdminGame {
    id: String,
    white: String,
    black: String,
    time_control: String,
}

#[derive(Template)]
#[template(path = "admin.html")]
pub(super) struct AdminPage {
    chrome: Chrome,
    tr: Tr,
    q: String,
    page: i64,
    users: Vec<AdminUser>,
    more: bool,
    games: Vec<AdminGame>,
    titles: [Title; 7],
    chat: Vec<AdminChat>,
}

/// A recent chat line, for moderation.
pub(super) struct AdminChat {
    id: String,
    game_id: String,
    room: &'static str,
    name: String,
    text: String,
    at: String,
}

/// How many recent chat lines the admin page shows.
pub(super) const ADMIN_CHAT_LINES: i64 = 50;

#[derive(Debug, Default, Deserialize)]
pub(crate) struct AdminQuery {
    #[serde(default)]
    q: String,
    #[serde(default)]
    page: Option<i64>,
}

/// An admin's request, or 403 (a reader not logged in goes to the log-in page).
pub(super) fn admin(caller: &Caller) -> Result<User, Denied> {
    let (user, _) = signed_in(caller, "/admin")?;
    if !user.admin {
        return Err(Denied::NotAdmin);
    }
    Ok(user)
}

pub(super) const ADMIN_PAGE_SIZE: i64 = 50;

/// `GET /admin`: accounts (searched by name), and the live games.
pub(crate) async fn admin_page(
    State(state): State<AppState>,
    chrome: Chrome,
    caller: Caller,
    Query(q): Query<AdminQuery>,
) -> Result<Response, ApiError> {
    match admin(&caller) {
        Ok(_) => {}
        // A page-door answers a page.
        Err(Denied::NotAdmin) => return Ok(crate::http::pages::forbidden_page(chrome)),
        Err(denied) => return Ok(denied.into_response()),
    }
    let page = q.page.unwrap_or(1).max(1);
    let mut users = state
        .store
        .users(&q.q, (page - 1) * ADMIN_PAGE_SIZE, ADMIN_PAGE_SIZE + 1)
        .await?;
    let more = users.len() as i64 > ADMIN_PAGE_SIZE;
    users.truncate(ADMIN_PAGE_SIZE as usize);
    let lobby = state.rooms.lobby();
    let games = state
        .store
        .live_games()
        .await?
        .into_iter()
        .filter(|r| lobby.get(&r.game.id).is_some_and(|l| l.watchable()))
        .map(|r| AdminGame {
            time_control: r.game.friendly_time_control(),
            id: r.game.id,
            white: r.game.white_name,
            black: r.game.black_name,
        })
        .collect();
    let mut rows = Vec::with_capacity(users.len());
    for user in users {
        rows.push(AdminUser {
            created: when(user.created_at),
            seen: when(user.seen_at),
            muted: state.store.chat_muted(&user.id).await?,
            user,
        });
    }
    let chat = state
        .store
        .recent_chat(ADMIN_CHAT_LINES)
        .await?
        .into_iter()
        .map(|line| AdminChat {
            room: line.room.as_str(),
            at: when(line.at),
            id: line.id,
            game_id: line.game_id,
            name: line.name,
            text: line.text,
        })
        .collect();
    let tr = chrome.tr;
    Ok(render(&AdminPage {
        chrome,
        tr,
        q: q.q,
        page,
        users: rows,
        more,
        games,
        titles: Title::ALL,
        chat,
    }))
}

#[derive(Debug, Deserialize)]
pub(crate) struct AdminAction {
    /// For `title`: an abbreviation, or empty to remove it.
    #[serde(default)]
    title: String,
}

/// `POST /admin/users/{id}/{action}`: `close`, `reopen`, `title`, `mute`, `unmute` (chat).
pub(crate) async fn admin_action(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, action)): Path<(String, String)>,
    Form(form): Form<AdminAction>,
) -> Result<Response, ApiError> {
    let me = match admin(&caller) {
        Ok(me) => me,
        Err(denied) => return Ok(denied.into_response()),
    };
    let done = match action.as_str() {
        "close" => {
            let closed = state.store.set_closed(&id, Some(now())).await?;
            state.revoke(&id, crate::events::Revoked::Sessions { except: None });
            state.revoke(&id, crate::events::Revoked::Tokens);
            closed
        }
        "reopen" => state.store.set_closed(&id, None).await?,
        "mute" => state.store.set_chat_muted(&id, true).await?,
        "unmute" => state.store.set_chat_muted(&id, false).await?,
        "title" => {
            let title = match form.title.as_str() {
                "" => None,
                text => Some(Title::grantable(text).ok_or_else(|| {
                    ApiError::new(Code::BadRequest, format!("no such title {text:?}"))
                })?),
            };
            state.store.set_title(&id, title).await?
        }
        _ => return Err(ApiError::not_found("action")),
    };
    if !done {
        return Err(ApiError::not_found("account"));
    }
    tracing::info!(admin = %me.id, user = %id, %action, title = %form.title, "admin action");
    let back = format!(
        "/admin?{}",
        serde_urlencoded::to_string([("q", id.as_str())]).unwrap_or_default()
    );
    Ok(see_other(&back, Vec::new()))
}

/// `POST /admin/chat/{id}/delete`: a chat line is shown to nobody from now on.
pub(crate) async fn admin_delete_chat(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let me = match admin(&caller) {
        Ok(me) => me,
        Err(denied) => return Ok(denied.into_response()),
    };
    if !state.store.delete_chat(&id, now()).await? {
        return Err(ApiError::not_found("chat line"));
    }
    tracing::info!(admin = %me.id, line = %id, "chat line deleted");
    Ok(see_other("/admin#chat-title", Vec::new()))
}
