//! Accounts over HTTP (docs/ACCOUNTS.md): sign up, log in and out, the account page
//! (preferences, password, sessions, API tokens, closing), reset links and the admin page.
//! Forms post here from our own pages (the guard refuses other sites); each answer is a
//! redirect (303) on success, or the page again with the refusal in the reader's language.

use crate::refusal::Code;
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::header::{CONTENT_TYPE, LOCATION};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use super::AppState;
use super::error::ApiError;
use super::identity::{
    Caller, SESSION_COOKIE, SESSION_LIFETIME_MS, client, session_cookie, set_cookie,
};
use super::limits::{ClientAddr, Door};
use super::pages::{Chrome, Tr, render};
use crate::accounts::{Title, names, password, tokens};
use crate::store::accounts::{ApiToken, Revocable, Session, User};

fn now() -> i64 {
    crate::wallclock::now_ms() as i64
}

/// A 303 to `to`, with cookies to set.
fn see_other(to: &str, cookies: Vec<(HeaderName, HeaderValue)>) -> Response {
    let mut response = (StatusCode::SEE_OTHER, [(LOCATION, to.to_owned())]).into_response();
    for (name, value) in cookies {
        response.headers_mut().append(name, value);
    }
    response
}

/// Only a path of this site may be where a form sends the reader next (no open redirect).
fn local_path(next: Option<&str>) -> &str {
    match next {
        Some(p) if p.starts_with('/') && !p.starts_with("//") && !p.contains('\\') => p,
        _ => "/",
    }
}

/// Whether session cookies carry `Secure`: the site is served over https.
fn secure(state: &AppState) -> bool {
    state
        .public_url
        .as_deref()
        .is_some_and(|u| u.starts_with("https://"))
}

// Preferences.

/// A reader's preferences: the account's (kept across devices) or, for anonymous readers,
/// the `rk-prefs` cookie's. Pages give them to scripts as JSON.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default)]
pub(crate) struct Prefs {
    /// Move sounds.
    pub(crate) sound: bool,
    /// Piece letters in the move list: "auto" (the page's language), "latin" or "zh".
    pub(crate) letters: String,
    /// Resigning asks for a second click.
    pub(crate) confirm_resign: bool,
    /// Board orientation: "auto" (one's own side at the bottom) or "white".
    pub(crate) orientation: String,
    /// Language: "" (the browser's), "en" or "zh".
    pub(crate) lang: String,
    /// Board colours: "green", "brown" or "blue".
    pub(crate) theme: String,
    /// Light or dark pages: "auto" (the system's), "light" or "dark".
    pub(crate) dark: String,
    /// Piece set: "classic" or "discs" (the seeds' Chinese piece names on discs).
    pub(crate) pieces: String,
    /// Coordinates on the board's edge.
    pub(crate) coords: bool,
    /// Zen mode: the game page shows only the board, the players and the clocks.
    pub(crate) zen: bool,
    /// Move confirmation: "never", "correspondence" (games of days a move), "touch" (on a
    /// touch screen) or "always".
    pub(crate) confirm_move: String,
    /// Game chat shown.
    pub(crate) chat: bool,
    /// A browser notification when the opponent moves while the page is in the background.
    pub(crate) notify: bool,
}

impl Default for Prefs {
    fn default() -> Prefs {
        Prefs {
            sound: true,
            letters: "auto".into(),
            confirm_resign: true,
            orientation: "auto".into(),
            lang: String::new(),
            theme: "green".into(),
            dark: "auto".into(),
            pieces: "classic".into(),
            coords: true,
            zen: false,
            confirm_move: "never".into(),
            chat: true,
            notify: false,
        }
    }
}

/// A change of preferences: the settings form sends every field, the game page one.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct PrefsPatch {
    sound: Option<String>,
    letters: Option<String>,
    confirm_resign: Option<String>,
    orientation: Option<String>,
    lang: Option<String>,
    theme: Option<String>,
    dark: Option<String>,
    pieces: Option<String>,
    coords: Option<String>,
    zen: Option<String>,
    confirm_move: Option<String>,
    chat: Option<String>,
    notify: Option<String>,
}

const PREFS_COOKIE: &str = "rk-prefs";

impl Prefs {
    /// The caller's preferences.
    pub(crate) fn of(caller: &Caller, headers: &HeaderMap) -> Prefs {
        if let Some(account) = &caller.account {
            return serde_json::from_str(&account.user.settings).unwrap_or_default();
        }
        super::identity::cookies(headers)
            .find_map(|(k, v)| (k == PREFS_COOKIE).then_some(v))
            .and_then(|v| serde_urlencoded::from_str(v).ok())
            .unwrap_or_default()
    }

    /// Applies a change; `Err` names the field that holds no allowed value.
    pub(crate) fn apply(&mut self, patch: &PrefsPatch) -> Result<(), String> {
        fn flag(text: &str) -> Option<bool> {
            match text {
                "on" | "true" | "1" => Some(true),
                "off" | "false" | "0" => Some(false),
                _ => None,
            }
        }
        fn one_of(text: &str, allowed: &[&str]) -> Option<String> {
            allowed.contains(&text).then(|| text.to_owned())
        }
        let bad = |field: &str| format!("{field}: not an allowed value");
        let flags = [
            (&patch.sound, &mut self.sound, "sound"),
            (
                &patch.confirm_resign,
                &mut self.confirm_resign,
                "confirm_resign",
            ),
            (&patch.coords, &mut self.coords, "coords"),
            (&patch.zen, &mut self.zen, "zen"),
            (&patch.chat, &mut self.chat, "chat"),
            (&patch.notify, &mut self.notify, "notify"),
        ];
        for (value, field, name) in flags {
            if let Some(v) = value {
                *field = flag(v).ok_or_else(|| bad(name))?;
            }
        }
        let choices: [(&Option<String>, &mut String, &str, &[&str]); 4] = [
            (
                &patch.theme,
                &mut self.theme,
                "theme",
                &["green", "brown", "blue"],
            ),
            (
                &patch.dark,
                &mut self.dark,
                "dark",
                &["auto", "light", "dark"],
            ),
            (
                &patch.pieces,
                &mut self.pieces,
                "pieces",
                &["classic", "discs"],
            ),
            (
                &patch.confirm_move,
                &mut self.confirm_move,
                "confirm_move",
                &["never", "correspondence", "touch", "always"],
            ),
        ];
        for (value, field, name, allowed) in choices {
            if let Some(v) = value {
                *field = one_of(v, allowed).ok_or_else(|| bad(name))?;
            }
        }
        if let Some(v) = &patch.letters {
            self.letters = one_of(v, &["auto", "latin", "zh"]).ok_or_else(|| bad("letters"))?;
        }
        if let Some(v) = &patch.orientation {
            self.orientation = one_of(v, &["auto", "white"]).ok_or_else(|| bad("orientation"))?;
        }
        if let Some(v) = &patch.lang {
            self.lang = one_of(v, &["", "en", "zh"]).ok_or_else(|| bad("lang"))?;
        }
        Ok(())
    }

    /// The `lang` cookie the pages read, when a language is chosen.
    fn lang_cookie(&self) -> Option<(HeaderName, HeaderValue)> {
        (!self.lang.is_empty()).then(|| {
            let value = format!("lang={}; Path=/; Max-Age=31536000; SameSite=Lax", self.lang);
            set_cookie(&value)
        })
    }
}

/// `POST /account/preferences` (the settings form, or JSON from the game page): saved to
/// the account, or to the `rk-prefs` cookie for an anonymous reader.
pub(crate) async fn save_prefs(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    body: String,
) -> Result<Response, ApiError> {
    let json = headers
        .get(CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    let patch: PrefsPatch = if json {
        serde_json::from_str(&body).map_err(|e| ApiError::new(Code::BadRequest, e.to_string()))?
    } else {
        serde_urlencoded::from_str(&body)
            .map_err(|e| ApiError::new(Code::BadRequest, e.to_string()))?
    };
    let mut prefs = Prefs::of(&caller, &headers);
    prefs
        .apply(&patch)
        .map_err(|e| ApiError::new(Code::BadRequest, e))?;
    let mut cookies = Vec::new();
    match caller.account.as_ref().filter(|a| a.session_id().is_some()) {
        Some(account) => {
            let text = serde_json::to_string(&prefs).unwrap_or_else(|_| "{}".into());
            state.store.set_settings(&account.user.id, &text).await?;
        }
        None => {
            let text = serde_urlencoded::to_string(&prefs).unwrap_or_default();
            let value =
                format!("{PREFS_COOKIE}={text}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly");
            cookies.push(set_cookie(&value));
        }
    }
    cookies.extend(prefs.lang_cookie());
    if json {
        let mut response = axum::Json(serde_json::json!({ "ok": true })).into_response();
        for (name, value) in cookies {
            response.headers_mut().append(name, value);
        }
        return Ok(response);
    }
    Ok(see_other("/account?done=saved", cookies))
}

// Sign up and log in.

#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage {
    chrome: Chrome,
    tr: Tr,
    /// "login" or "signup".
    mode: &'static str,
    name: String,
    next: String,
    error: Option<String>,
    done: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct NextQuery {
    next: Option<String>,
    done: Option<String>,
}

fn login_page(
    chrome: Chrome,
    mode: &'static str,
    name: String,
    next: String,
    error: Option<&ApiError>,
) -> Response {
    let tr = chrome.tr;
    let status = error.map_or(StatusCode::OK, |e| e.status);
    let error = error.map(|e| tr.problem(&e.problem));
    let mut response = render(&LoginPage {
        chrome,
        tr,
        mode,
        name,
        next,
        error,
        done: None,
    });
    *response.status_mut() = status;
    response
}

/// `GET /login`.
pub(crate) async fn login_form(chrome: Chrome, Query(q): Query<NextQuery>) -> Response {
    let tr = chrome.tr;
    render(&LoginPage {
        chrome,
        tr,
        mode: "login",
        name: String::new(),
        next: local_path(q.next.as_deref()).to_owned(),
        error: None,
        done: q.done.as_deref().map(|d| tr.t(done_key(d)).to_owned()),
    })
}

/// `GET /signup`.
pub(crate) async fn signup_form(chrome: Chrome, Query(q): Query<NextQuery>) -> Response {
    login_page(
        chrome,
        "signup",
        String::new(),
        local_path(q.next.as_deref()).to_owned(),
        None,
    )
}

#[derive(Debug, Deserialize)]
pub(crate) struct Credentials {
    pub(crate) name: String,
    pub(crate) password: String,
    #[serde(default)]
    next: Option<String>,
}

/// Opens a session for `user` and answers with its cookie (and the account's language):
/// a new token at every log-in, the old session ended (no fixation).
async fn open_session(
    state: &AppState,
    headers: &HeaderMap,
    user: &User,
    to: &str,
) -> Result<Response, ApiError> {
    if let Some(old) = super::identity::cookies(headers)
        .find_map(|(k, v)| (k == SESSION_COOKIE).then_some(v))
        .filter(|v| crate::store::storable(v))
    {
        state.store.end_session(&tokens::hash(old)).await?;
    }
    let (token, hash) = tokens::new("rks_");
    let at = now();
    let session = Session {
        id: crate::ids::seat_token(),
        user_id: user.id.clone(),
        created_at: at,
        used_at: at,
        expires_at: at + SESSION_LIFETIME_MS,
        client: client(headers),
    };
    state.store.create_session(&session, &hash).await?;
    state.store.touch_user(&user.id, at).await?;
    let prefs: Prefs = serde_json::from_str(&user.settings).unwrap_or_default();
    let mut cookies = vec![session_cookie(Some(&token), secure(state))];
    cookies.extend(prefs.lang_cookie());
    Ok(see_other(to, cookies))
}

/// `POST /signup`: a new account, logged in.
pub(crate) async fn signup(
    State(state): State<AppState>,
    address: ClientAddr,
    chrome: Chrome,
    headers: HeaderMap,
    Form(form): Form<Credentials>,
) -> Response {
    let next = local_path(form.next.as_deref()).to_owned();
    let name = form.name.trim().to_owned();
    match make_account(&state, &address, &name, &form.password).await {
        Ok(user) => match open_session(&state, &headers, &user, &next).await {
            Ok(r) => r,
            Err(e) => e.into_response(),
        },
        Err(e) => login_page(chrome, "signup", name, next, Some(&e)),
    }
}

async fn make_account(
    state: &AppState,
    address: &ClientAddr,
    name: &str,
    password: &str,
) -> Result<User, ApiError> {
    let id = names::check(name).map_err(|p| ApiError::new(p.code(), p.message()))?;
    password::check_new(password).map_err(|(code, message)| ApiError::new(code, message))?;
    state.limits.check(Door::SignUp, &[&address.0])?;
    let hash = state.passwords.hash(password).await;
    if !state
        .store
        .create_user(&id, name, &hash, false, now())
        .await?
    {
        return Err(name_taken());
    }
    tracing::info!(user = %id, "account created");
    state
        .store
        .user(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("account"))
}

fn name_taken() -> ApiError {
    ApiError::new(Code::NameTaken, "this username is taken")
}

fn wrong_password() -> ApiError {
    ApiError::new(Code::WrongPassword, "wrong username or password")
}

/// Checks a password for account `id`, slowed per account after failures: the same
/// refusal whether the account exists or not.
async fn check_password(state: &AppState, id: &str, password: &str) -> Result<(), ApiError> {
    state.limits.may_try_password(id)?;
    let hash = state.store.password_hash(id).await?;
    if state.passwords.verify(password, hash).await {
        state.limits.good_password(id);
        Ok(())
    } else {
        state.limits.failed_password(id);
        Err(wrong_password())
    }
}

/// `POST /login`.
pub(crate) async fn login(
    State(state): State<AppState>,
    address: ClientAddr,
    chrome: Chrome,
    headers: HeaderMap,
    Form(form): Form<Credentials>,
) -> Response {
    let next = local_path(form.next.as_deref()).to_owned();
    let name = form.name.trim().to_owned();
    let attempt = async {
        state.limits.check(Door::LogIn, &[&address.0])?;
        let id = name.to_ascii_lowercase();
        if !crate::store::storable(&id) || id.len() > 40 {
            return Err(wrong_password());
        }
        check_password(&state, &id, &form.password).await?;
        let user = state.store.user(&id).await?.ok_or_else(wrong_password)?;
        open_session(&state, &headers, &user, &next).await
    };
    match attempt.await {
        Ok(r) => r,
        Err(e) => {
            if e.status == StatusCode::UNAUTHORIZED {
                tracing::info!(user = %name.to_ascii_lowercase(), address = %address.0, "log-in refused");
            }
            let mut page = login_page(chrome, "login", name, next, Some(&e));
            if let Some(seconds) = e
                .problem
                .n
                .filter(|_| e.status == StatusCode::TOO_MANY_REQUESTS)
            {
                page.headers_mut()
                    .insert(axum::http::header::RETRY_AFTER, HeaderValue::from(seconds));
            }
            page
        }
    }
}

/// `POST /logout`: ends this session.
pub(crate) async fn logout(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(token) = super::identity::cookies(&headers)
        .find_map(|(k, v)| (k == SESSION_COOKIE).then_some(v))
        .filter(|v| crate::store::storable(v))
    {
        state.store.end_session(&tokens::hash(token)).await?;
    }
    Ok(see_other("/", vec![session_cookie(None, secure(&state))]))
}

// The account page.

/// Why an account page is not shown: not logged in (to the log-in page, then back), or not
/// an admin.
#[derive(Debug)]
enum Denied {
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
fn signed_in(caller: &Caller, back: &'static str) -> Result<(User, String), Denied> {
    caller
        .account
        .as_ref()
        .and_then(|a| Some((a.user.clone(), a.session_id()?.to_owned())))
        .ok_or(Denied::LogIn(back))
}

struct SessionLine {
    id: String,
    client: String,
    created: String,
    used: String,
    current: bool,
}

struct TokenLine {
    id: String,
    description: String,
    scopes: String,
    created: String,
    used: String,
}

#[derive(Template)]
#[template(path = "account.html")]
struct AccountPage {
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
fn done_key(word: &str) -> &'static str {
    match word {
        "saved" => "done_saved",
        "password" => "done_password",
        "revoked" => "done_revoked",
        "others" => "done_others",
        "reset" => "done_reset",
        _ => "done_saved",
    }
}

fn when(ms: i64) -> String {
    let (date, time) = crate::export::utc_date_time(ms);
    format!("{date} {time}")
}

async fn account_page(
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
    if let Some(account) = &caller.account {
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
fn refused(e: &ApiError) -> Response {
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
    caller: Caller,
    Form(form): Form<PasswordChange>,
) -> Result<Response, ApiError> {
    let (user, session) = match signed_in(&caller, "/account") {
        Ok(found) => found,
        Err(denied) => return Ok(denied.into_response()),
    };
    if let Err(e) = check_password(&state, &user.id, &form.current).await {
        return Ok(refused(&e));
    }
    if let Err((code, message)) = password::check_new(&form.new) {
        return Ok(refused(&ApiError::new(code, message)));
    }
    let hash = state.passwords.hash(&form.new).await;
    state.store.set_password(&user.id, &hash).await?;
    state.store.end_sessions(&user.id, Some(&session)).await?;
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
    password: String,
}

/// `POST /account/close`: with the password; games stay, the name is never taken again.
pub(crate) async fn close(
    State(state): State<AppState>,
    caller: Caller,
    Form(form): Form<Confirm>,
) -> Result<Response, ApiError> {
    let (user, _) = match signed_in(&caller, "/account") {
        Ok(found) => found,
        Err(denied) => return Ok(denied.into_response()),
    };
    if let Err(e) = check_password(&state, &user.id, &form.password).await {
        return Ok(refused(&e));
    }
    state.store.set_closed(&user.id, Some(now())).await?;
    tracing::info!(user = %user.id, "account closed by its owner");
    Ok(see_other("/", vec![session_cookie(None, secure(&state))]))
}

// Reset links.

/// How long a reset link works.
pub(crate) const RESET_LIFETIME_MS: i64 = 3600 * 1000;

/// A one-time reset link's token for account `id` (`rookery user reset-password`).
pub(crate) async fn make_reset(
    store: &crate::store::Store,
    id: &str,
) -> Result<String, crate::store::StoreError> {
    let (token, hash) = tokens::new("rkr_");
    store
        .create_reset(id, &hash, now() + RESET_LIFETIME_MS)
        .await?;
    Ok(token)
}

#[derive(Template)]
#[template(path = "reset.html")]
struct ResetPage {
    chrome: Chrome,
    tr: Tr,
    token: String,
    name: Option<String>,
    error: Option<String>,
}

/// `GET /reset/{token}`: the form for a new password, if the link is good.
pub(crate) async fn reset_form(
    State(state): State<AppState>,
    chrome: Chrome,
    Path(token): Path<String>,
) -> Result<Response, ApiError> {
    let id = if crate::store::storable(&token) {
        state.store.reset(&tokens::hash(&token), now()).await?
    } else {
        None
    };
    let user = match id {
        Some(id) => state.store.user(&id).await?.map(|u| u.name),
        None => None,
    };
    let tr = chrome.tr;
    let mut response = render(&ResetPage {
        chrome,
        tr,
        name: user,
        error: None,
        token,
    });
    response.headers_mut().insert(
        axum::http::header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    Ok(response)
}

/// `POST /reset/{token}`: sets the password once; the link, and every session of the
/// account, end with it.
pub(crate) async fn reset(
    State(state): State<AppState>,
    chrome: Chrome,
    Path(token): Path<String>,
    Form(form): Form<Confirm>,
) -> Result<Response, ApiError> {
    let tr = chrome.tr;
    let fail = |chrome: Chrome, e: ApiError, name: Option<String>, token: String| {
        let mut page = render(&ResetPage {
            chrome,
            tr,
            token,
            name,
            error: Some(tr.problem(&e.problem)),
        });
        *page.status_mut() = e.status;
        page
    };
    let invalid = || {
        ApiError::new(
            Code::ResetInvalid,
            "this reset link has expired or was used",
        )
    };
    if !crate::store::storable(&token) {
        return Ok(fail(chrome, invalid(), None, token));
    }
    let hash = tokens::hash(&token);
    let Some(user) = state.store.reset(&hash, now()).await? else {
        return Ok(fail(chrome, invalid(), None, token));
    };
    if let Err((code, message)) = password::check_new(&form.password) {
        return Ok(fail(
            chrome,
            ApiError::new(code, message),
            Some(user),
            token,
        ));
    }
    let new_hash = state.passwords.hash(&form.password).await;
    match state.store.use_reset(&hash, &new_hash, now()).await? {
        Some(id) => {
            tracing::info!(user = %id, "password reset by link");
            Ok(see_other("/login?done=reset", Vec::new()))
        }
        None => Ok(fail(chrome, invalid(), None, token)),
    }
}

// The admin page.

struct AdminUser {
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

struct AdminGame {
    id: String,
    white: String,
    black: String,
    time_control: String,
}

#[derive(Template)]
#[template(path = "admin.html")]
struct AdminPage {
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
struct AdminChat {
    id: String,
    game_id: String,
    room: &'static str,
    name: String,
    text: String,
    at: String,
}

/// How many recent chat lines the admin page shows.
const ADMIN_CHAT_LINES: i64 = 50;

#[derive(Debug, Default, Deserialize)]
pub(crate) struct AdminQuery {
    #[serde(default)]
    q: String,
    #[serde(default)]
    page: Option<i64>,
}

/// An admin's request, or 403 (a reader not logged in goes to the log-in page).
fn admin(caller: &Caller) -> Result<User, Denied> {
    let (user, _) = signed_in(caller, "/admin")?;
    if !user.admin {
        return Err(Denied::NotAdmin);
    }
    Ok(user)
}

const ADMIN_PAGE_SIZE: i64 = 50;

/// `GET /admin`: accounts (searched by name), and the live games.
pub(crate) async fn admin_page(
    State(state): State<AppState>,
    chrome: Chrome,
    caller: Caller,
    Query(q): Query<AdminQuery>,
) -> Result<Response, ApiError> {
    if let Err(denied) = admin(&caller) {
        return Ok(denied.into_response());
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
        "close" => state.store.set_closed(&id, Some(now())).await?,
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
