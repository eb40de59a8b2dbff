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

mod admin;
mod prefs;
mod reset;
mod settings;

pub(crate) use admin::*;
pub(crate) use prefs::*;
pub(crate) use reset::*;
pub(crate) use settings::*;

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
    state.secure()
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

/// Checks a password for account `id` from a client at `address`, slowed after failures
/// (per account and address, and per account far more loosely): the same refusal whether
/// the account exists or not.
async fn check_password(
    state: &AppState,
    id: &str,
    address: &str,
    password: &str,
) -> Result<(), ApiError> {
    state.limits.may_try_password(id, address)?;
    let hash = state.store.password_hash(id).await?;
    if state.passwords.verify(password, hash).await {
        state.limits.good_password(id, address);
        Ok(())
    } else {
        state.limits.failed_password(id, address);
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
        check_password(&state, &id, &address.0, &form.password).await?;
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
    caller: super::identity::Caller,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(account) = &caller.account
        && let super::identity::Via::Session(id) = &account.via
    {
        state.revoke(
            &account.user.id,
            crate::events::Revoked::Session(id.clone()),
        );
    }
    if let Some(token) = super::identity::cookies(&headers)
        .find_map(|(k, v)| (k == SESSION_COOKIE).then_some(v))
        .filter(|v| crate::store::storable(v))
    {
        state.store.end_session(&tokens::hash(token)).await?;
    }
    Ok(see_other("/", vec![session_cookie(None, secure(&state))]))
}
