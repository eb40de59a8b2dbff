//! The account page: password, sessions, API tokens, closing the account.

use super::*;

/// Why an account page is not shown: not logged in (to the log-in page, then back), or not
/// an admin.
#[derive(Debug)]
pub(super) enum Denied {
    LogIn(&'static str),
    NotAdmin,
}

impl IntoResponse for Denied {
    fn into_response(self) -> Response {
        match self {
            Denied::LogIn(back) => {
                let to = format!(
                    "/login?{}",
                    serde_urlencoded::to_string([("next", back)]).unwrap_or_default()
                );
                see_other(&to, Vec::new())
            }
            Denied::NotAdmin => {
                ApiError::new(Code::AdminOnly, "only an admin may do this").into_response()
            }
        }
    }
}

/// The account a page needs: logged in with a session (not a token), else to the log-in
/// page.
pub(super) fn signed_in(caller: &Caller, back: &'static str) -> Result<(User, String), Denied> {
    caller
        .account
        .as_ref()
        .and_then(|a| Some((a.user.clone(), a.session_id()?.to_owned())))
        .ok_or(Denied::LogIn(back))
}

pub(super) struct SessionLine {
    id: String,
    client: String,
    created: String,
    used: String,
    current: bool,
}

pub(super) struct TokenLine {
    id: String,
    description: String,
    scopes: String,
    created: String,
    used: String,
}

#[derive(Template)]
#[template(path = "account.html")]
pub(super) struct AccountPage {
    chrome: Chrome,
    tr: Tr,
    prefs: Prefs,
    user: Option<User>,
    sessions: Vec<SessionLine>,
    tokens: Vec<TokenLine>,
    scopes: &'static [&'static str],
    /// A token just made: shown this once.
    new_token: Option<String>,
    done: Option<String>,
    error: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct PageQuery {
    done: Option<String>,
    error: Option<String>,
}

/// The catalogue key of a `done=` word.
pub(super) fn done_key(word: &str) -> &'static str {
    match word {
        "saved" => "done_saved",
        "password" => "done_password",
        "revoked" => "done_revoked",
        "others" => "done_others",
        "reset" => "done_reset",
        _ => "done_saved",
    }
}

pub(super) fn when(ms: i64) -> String {
    let (date, time) = crate::export::utc_date_time(ms);
    format!("{date} {time}")
}

pub(super) async fn account_page(
    state: &AppState,
    chrome: Chrome,
    caller: &Caller,
    headers: &HeaderMap,
    q: PageQuery,
    new_token: Option<String>,
) -> Result<Response, ApiError> {
    let tr = chrome.tr;
    let prefs = Prefs::of(caller, headers);
    let mut page = AccountPage {
        chrome,
        tr,
        prefs,
        user: None,
        sessions: Vec::new(),
        tokens: Vec::new(),
        scopes: crate::accounts::SCOPES,
        new_token,
        done: q.done.as_deref().map(|d| tr.t(done_key(d)).to_owned()),
        error: q
            .error
            .as_deref()
            .and_then(Code::parse)
            .map(|c| tr.t(&format!("err_{c}")).to_owned()),
    };
    // The account page is a session's: a token (even one allowed to play) sees no sessions,
    // tokens or settings (issue 50).
    if let Some(account) = caller.account.as_ref().filter(|a| a.session_id().is_some()) {
        let current = account.session_id().unwrap_or_default();
        page.sessions = state
            .store
            .sessions_of(&account.user.id, now())
            .await?
            .into_iter()
            .map(|s| SessionLine {
                current: s.id == current,
                created: when(s.created_at),
                used: when(s.used_at),
                client: s.client,
                id: s.id,
            })
            .collect();
        page.tokens = state
            .store
            .tokens_of(&account.user.id)
            .await?
            .into_iter()
            .map(|t: ApiToken| TokenLine {
                created: when(t.created_at),
                used: t.used_at.map_or_else(|| "—".to_owned(), when),
                id: t.id,
                description: t.description,
                scopes: t.scopes,
            })
            .collect();
        page.user = Some(account.user.clone());
    }
    Ok(render(&page))
}

/// `GET /account`: preferences for everyone; password, sessions, tokens and closing for an
/// account.
pub(crate) async fn page(
    State(state): State<AppState>,
    chrome: Chrome,
    caller: Caller,
    headers: HeaderMap,
    Query(q): Query<PageQuery>,
) -> Result<Response, ApiError> {
    account_page(&state, chrome, &caller, &headers, q, None).await
}

/// A refusal on the account page: back to it, saying why.
pub(super) fn refused(e: &ApiError) -> Response {
    see_other(&format!("/account?error={}", e.problem.code), Vec::new())
}

#[derive(Debug, Deserialize)]
pub(crate) struct PasswordChange {
    current: String,
    new: String,
}

/// `POST /account/password`: the current password, then the new one; every other session
/// ends.
pub(crate) async fn change_password(
    State(state): State<AppState>,
    address: crate::http::limits::ClientAddr,
    caller: Caller,
    Form(form): Form<PasswordChange>,
) -> Result<Response, ApiError> {
    let (user, session) = match signed_in(&caller, "/account") {
        Ok(found) => found,
        Err(denied) => return Ok(denied.into_response()),
    };
    if let Err(e) = check_password(&state, &user.id, &address.0, &form.current).await {
        return Ok(refused(&e));
    }
    if let Err((code, message)) = password::check_new(&form.new) {
        return Ok(refused(&ApiError::new(code, message)));
    }
    let hash = state.passwords.hash(&form.new).await;
    // Sessions elsewhere end and API tokens are revoked with the old password.
    state
        .store
        .change_password(&user.id, &hash, &session)
        .await?;
    state.revoke(
        &user.id,
        crate::events::Revoked::Sessions {
            except: Some(session),
        },
    );
    state.revoke(&user.id, crate::events::Revoked::Tokens);
    tracing::info!(user = %user.id, "password changed");
    Ok(see_other("/account?done=password", Vec::new()))
}

/// `POST /account/logout-everywhere`: ends every session of the account, this one too.
pub(crate) async fn logout_everywhere(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Response, ApiError> {
    let (user, _) = match signed_in(&caller, "/account") {
        Ok(found) => found,
        Err(denied) => return Ok(denied.into_response()),
    };
    state.store.end_sessions(&user.id, None).await?;
    state.revoke(&user.id, crate::events::Revoked::Sessions { except: None });
    Ok(see_other("/", vec![session_cookie(None, secure(&state))]))
}

/// `POST /account/{sessions|tokens}/{id}/revoke`: ends one of the account's sessions, or
/// revokes one of its API tokens.
pub(crate) async fn revoke(
    State(state): State<AppState>,
    caller: Caller,
    Path((kind, id)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let (user, _) = match signed_in(&caller, "/account") {
        Ok(found) => found,
        Err(denied) => return Ok(denied.into_response()),
    };
    let revoked = match kind.as_str() {
        "sessions" => {
            state
                .store
                .revoke(Revocable::Session, &user.id, &id)
                .await?
        }
        "tokens" => state.store.revoke(Revocable::Token, &user.id, &id).await?,
        _ => return Err(ApiError::not_found("route")),
    };
    if !revoked {
        return Err(ApiError::not_found("session or token"));
    }
    let what = match kind.as_str() {
        "sessions" => crate::events::Revoked::Session(id),
        _ => crate::events::Revoked::Token(id),
    };
    state.revoke(&user.id, what);
    Ok(see_other("/account?done=revoked", Vec::new()))
}

#[derive(Debug, Deserialize)]
pub(crate) struct NewToken {
    description: String,
    /// The form's checkboxes arrive as one `scopes` field each; joined here.
    #[serde(default)]
    scopes: String,
}

/// Makes a personal API token for `user`: its clear text, shown once.
pub(crate) async fn make_token(
    store: &crate::store::Store,
    user_id: &str,
    description: &str,
    scopes: &[&str],
) -> Result<String, ApiError> {
    let (token, hash) = tokens::new("rkp_");
    let row = ApiToken {
        id: crate::ids::seat_token()[..16].to_owned(),
        user_id: user_id.to_owned(),
        description: description.chars().take(100).collect(),
        scopes: scopes.join(","),
        created_at: now(),
        used_at: None,
    };
    store.create_token(&row, &hash).await?;
    Ok(token)
}

/// `POST /account/tokens`: a new personal API token, shown on the page once.
pub(crate) async fn create_token(
    State(state): State<AppState>,
    chrome: Chrome,
    caller: Caller,
    headers: HeaderMap,
    body: String,
) -> Result<Response, ApiError> {
    let (user, _) = match signed_in(&caller, "/account") {
        Ok(found) => found,
        Err(denied) => return Ok(denied.into_response()),
    };
    // Repeated `scopes` fields (checkboxes): read as pairs, not into one struct field.
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(&body)
        .map_err(|e| ApiError::new(Code::BadRequest, e.to_string()))?;
    let form = NewToken {
        description: pairs
            .iter()
            .find(|(k, _)| k == "description")
            .map(|(_, v)| v.trim().to_owned())
            .unwrap_or_default(),
        scopes: pairs
            .iter()
            .filter(|(k, _)| k == "scopes")
            .map(|(_, v)| v.as_str())
            .collect::<Vec<_>>()
            .join(","),
    };
    let scopes = match crate::accounts::parse_scopes(&form.scopes) {
        Ok(s) => s,
        Err(message) => return Ok(refused(&ApiError::new(Code::BadScope, message))),
    };
    let description = if form.description.is_empty() {
        "token".to_owned()
    } else {
        form.description
    };
    let token = make_token(&state.store, &user.id, &description, &scopes).await?;
    let mut response = account_page(
        &state,
        chrome,
        &caller,
        &headers,
        PageQuery::default(),
        Some(token),
    )
    .await?;
    // The token is in this page only: no cache may keep it.
    response.headers_mut().insert(
        axum::http::header::CACHE_CONTROL,
        HeaderValue::from_static("no-store"),
    );
    Ok(response)
}

#[derive(Debug, Deserialize)]
pub(crate) struct Confirm {
    pub(super) password: String,
}

/// `POST /account/close`: with the password; games stay, the name is never taken again.
pub(crate) async fn close(
    State(state): State<AppState>,
    address: crate::http::limits::ClientAddr,
    caller: Caller,
    Form(form): Form<Confirm>,
) -> Result<Response, ApiError> {
    let (user, _) = match signed_in(&caller, "/account") {
        Ok(found) => found,
        Err(denied) => return Ok(denied.into_response()),
    };
    if let Err(e) = check_password(&state, &user.id, &address.0, &form.password).await {
        return Ok(refused(&e));
    }
    state.store.set_closed(&user.id, Some(now())).await?;
    state.revoke(&user.id, crate::events::Revoked::Sessions { except: None });
    state.revoke(&user.id, crate::events::Revoked::Tokens);
    tracing::info!(user = %user.id, "account closed by its owner");
    Ok(see_other("/", vec![session_cookie(None, secure(&state))]))
}
