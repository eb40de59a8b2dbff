//! Who is asking, as extractors: handlers take the caller as an argument instead of looking
//! it up. A caller is the seat cookies its browser holds (`rk_<game id>`, 128-bit tokens;
//! docs/API.md) and, when logged in, its account: by the session cookie (`rk-session`) or by
//! a personal API token (`Authorization: Bearer`). A seat taken while logged in belongs to the
//! account, so it follows the player to any browser where they log in.

use crate::refusal::Code;
use std::collections::HashMap;

use axum::extract::{FromRef, FromRequestParts, Path};
use axum::http::header::{AUTHORIZATION, COOKIE, SET_COOKIE, USER_AGENT};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};
use rookery_core::Color;

use super::error::ApiError;
use crate::accounts::tokens;
use crate::store::accounts::User;
use crate::store::{GameRow, Store};

/// The session cookie's name (seat cookies are `rk_` and a game id).
pub(crate) const SESSION_COOKIE: &str = "rk-session";

/// How long a session lasts after its last use.
pub(crate) const SESSION_LIFETIME_MS: i64 = 30 * 24 * 3600 * 1000;

/// A session's use is written at most this often (each request would be a write otherwise).
const TOUCH_EVERY_MS: i64 = 60 * 1000;

/// The account a request acts for.
#[derive(Debug, Clone)]
pub(crate) struct Account {
    pub(crate) user: User,
    pub(crate) via: Via,
}

/// How a request proved its account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Via {
    /// The session cookie; the session's public id.
    Session(String),
    /// A personal API token: its id and comma-separated scopes.
    Token { id: String, scopes: String },
}

impl Account {
    /// What the request was made with, as a revocation names it.
    pub(crate) fn credential(&self) -> crate::events::Credential {
        match &self.via {
            Via::Session(id) => crate::events::Credential::Session(id.clone()),
            Via::Token { id, .. } => crate::events::Credential::Token(id.clone()),
        }
    }

    /// Whether the request may play the account's games: a browser session may; a token
    /// needs lichess's `board:play` or `bot:play` scope.
    pub(crate) fn may_play(&self) -> bool {
        match &self.via {
            Via::Session(_) => true,
            Via::Token { scopes, .. } => scopes
                .split(',')
                .any(|s| s == "board:play" || s == "bot:play"),
        }
    }

    /// The session's id, if the request came with the session cookie.
    pub(crate) fn session_id(&self) -> Option<&str> {
        match &self.via {
            Via::Session(id) => Some(id),
            Via::Token { .. } => None,
        }
    }
}

/// The caller: the seat tokens its browser holds, by game id, and its account.
#[derive(Debug, Clone, Default)]
pub(crate) struct Caller {
    seats: HashMap<String, String>,
    pub(crate) account: Option<Account>,
}

impl Caller {
    /// The caller as its request headers say, without its account (which needs the store).
    pub(crate) fn of(headers: &HeaderMap) -> Caller {
        let seats = cookies(headers)
            .filter_map(|(name, token)| {
                let id = name.strip_prefix("rk_")?;
                Some((id.to_owned(), token.to_owned()))
            })
            .collect();
        Caller {
            seats,
            account: None,
        }
    }

    /// The caller with its account, looked up once per request (kept in its extensions).
    pub(crate) async fn resolve(parts: &mut Parts, store: &Store) -> Result<Caller, ApiError> {
        if let Some(caller) = parts.extensions.get::<Caller>() {
            return Ok(caller.clone());
        }
        let mut caller = Caller::of(&parts.headers);
        caller.account = account(&parts.headers, store).await?;
        parts.extensions.insert(caller.clone());
        Ok(caller)
    }

    /// The seat token the caller holds for game `id`, if any.
    pub(crate) fn token(&self, id: &str) -> Option<&str> {
        self.seats.get(id).map(String::as_str)
    }

    /// The id of the account the caller may play as.
    fn player_id(&self) -> Option<&str> {
        self.account
            .as_ref()
            .filter(|a| a.may_play())
            .map(|a| a.user.id.as_str())
    }

    /// Which color the caller plays in `row`, if any: by the seat's cookie, or by the
    /// account that holds the seat.
    pub(crate) fn seat_in(&self, row: &GameRow) -> Option<Color> {
        let token = self.token(&row.game.id);
        let holds = |seat: &Option<String>| {
            token.is_some_and(|token| {
                seat.as_deref()
                    .is_some_and(|s| crate::ids::same_token(s, token))
            })
        };
        let me = self.player_id();
        let owns = |user: &Option<String>| me.is_some() && user.as_deref() == me;
        if holds(&row.game.white_seat) || owns(&row.game.white_user) {
            Some(Color::White)
        } else if holds(&row.game.black_seat) || owns(&row.game.black_user) {
            Some(Color::Black)
        } else {
            None
        }
    }
}

/// The account of a request: an API token (a wrong one is refused, 401), else the session
/// cookie (an unknown or expired one is simply no account).
async fn account(headers: &HeaderMap, store: &Store) -> Result<Option<Account>, ApiError> {
    let now = crate::wallclock::now_ms() as i64;
    if let Some(bearer) = bearer(headers) {
        let refused = || ApiError::new(Code::BadToken, "no such API token, or it was revoked");
        if !crate::store::storable(bearer) {
            return Err(refused());
        }
        let (token, user) = store
            .token(&tokens::hash(bearer))
            .await?
            .ok_or_else(refused)?;
        if token.used_at.is_none_or(|at| now - at > TOUCH_EVERY_MS) {
            store.touch_token(&token.id, now).await?;
            store.touch_user(&user.id, now).await?;
        }
        return Ok(Some(Account {
            user,
            via: Via::Token {
                id: token.id,
                scopes: token.scopes,
            },
        }));
    }
    let Some(cookie) = cookies(headers).find_map(|(k, v)| (k == SESSION_COOKIE).then_some(v))
    else {
        return Ok(None);
    };
    if !crate::store::storable(cookie) {
        return Ok(None);
    }
    let Some((session, user)) = store.session(&tokens::hash(cookie), now).await? else {
        return Ok(None);
    };
    if now - session.used_at > TOUCH_EVERY_MS {
        store
            .touch_session(&session.id, &user.id, now, now + SESSION_LIFETIME_MS)
            .await?;
    }
    Ok(Some(Account {
        user,
        via: Via::Session(session.id),
    }))
}

/// The token of `Authorization: Bearer <token>`.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

/// The browser a session was opened from, as the sessions page shows it.
pub(crate) fn client(headers: &HeaderMap) -> String {
    let agent = headers
        .get(USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    agent.chars().take(200).collect()
}

/// Every cookie of a request, as (name, value).
pub(crate) fn cookies(headers: &HeaderMap) -> impl Iterator<Item = (&str, &str)> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|cookies| cookies.split(';'))
        .filter_map(|c| c.trim().split_once('='))
}

impl<S> FromRequestParts<S> for Caller
where
    Store: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Caller, ApiError> {
        Caller::resolve(parts, &Store::from_ref(state)).await
    }
}

/// A `Set-Cookie` header of `value` (the cookies here are written from ASCII letters, digits
/// and URL-encoded text; anything else becomes an empty header, which sets nothing).
pub(crate) fn set_cookie(value: &str) -> (axum::http::HeaderName, HeaderValue) {
    (
        SET_COOKIE,
        HeaderValue::from_str(value).unwrap_or(HeaderValue::from_static("")),
    )
}

/// The `Set-Cookie` header that gives a browser the seat `token` of game `id`: HttpOnly (no
/// script reads it), SameSite=Lax (no other site's form acts with it), for a year.
pub(crate) fn seat_cookie(
    id: &str,
    token: &str,
    secure: bool,
) -> (axum::http::HeaderName, HeaderValue) {
    let secure = if secure { "; Secure" } else { "" };
    let value =
        format!("rk_{id}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000{secure}");
    // Game ids and tokens are ASCII letters and digits.
    set_cookie(&value)
}

/// The `Set-Cookie` header of a new session (`Some(token)`) or of none (`None`: the cookie
/// is removed): HttpOnly, SameSite=Lax, and Secure when the site is served over https.
pub(crate) fn session_cookie(
    token: Option<&str>,
    secure: bool,
) -> (axum::http::HeaderName, HeaderValue) {
    let secure = if secure { "; Secure" } else { "" };
    let value = match token {
        Some(token) => format!(
            "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
            SESSION_LIFETIME_MS / 1000
        ),
        None => format!("{SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{secure}"),
    };
    set_cookie(&value)
}

/// The game named by the path's `{id}`, with the caller's seat in it: 404 when there is no
/// such game.
#[derive(Debug)]
pub(crate) struct InGame {
    pub(crate) row: GameRow,
    pub(crate) seat: Option<Color>,
    pub(crate) caller: Caller,
}

impl<S> FromRequestParts<S> for InGame
where
    Store: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<InGame, ApiError> {
        let Path(params) = Path::<HashMap<String, String>>::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiError::not_found("game"))?;
        let id = params
            .get("id")
            .ok_or_else(|| ApiError::not_found("game"))?;
        let row = Store::from_ref(state)
            .game(id)
            .await?
            .ok_or_else(|| ApiError::not_found("game"))?;
        let caller = Caller::resolve(parts, &Store::from_ref(state)).await?;
        let seat = caller.seat_in(&row);
        Ok(InGame { row, seat, caller })
    }
}

/// As [`InGame`], for a caller who must hold a seat: 403 otherwise.
#[derive(Debug)]
pub(crate) struct Player {
    pub(crate) row: GameRow,
    pub(crate) color: Color,
    /// The seat token (a rematch hands the same seat on).
    pub(crate) token: String,
}

impl<S> FromRequestParts<S> for Player
where
    Store: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Player, ApiError> {
        let InGame { row, seat, .. } = InGame::from_request_parts(parts, state).await?;
        let color =
            seat.ok_or_else(|| ApiError::new(Code::NoSeat, "you have no seat in this game"))?;
        // The seat's own token: a player whose account holds the seat may have no cookie.
        let token = match color {
            Color::White => row.game.white_seat.clone(),
            Color::Black => row.game.black_seat.clone(),
        }
        .unwrap_or_default();
        Ok(Player { row, color, token })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::NewGame;

    #[test]
    fn the_seat_comes_from_the_cookie_of_that_game_only() {
        let mut headers = HeaderMap::new();
        headers.insert(COOKIE, "lang=zh; rk_g1=aaaa; rk_g2=bbbb".parse().unwrap());
        let caller = Caller::of(&headers);
        let row = |id: &str, white: &str, black: &str| GameRow {
            game: NewGame {
                id: id.into(),
                white_seat: Some(white.into()),
                black_seat: Some(black.into()),
                ..NewGame::default()
            },
            ..GameRow::default()
        };
        assert_eq!(
            caller.seat_in(&row("g1", "aaaa", "cccc")),
            Some(Color::White)
        );
        assert_eq!(
            caller.seat_in(&row("g2", "cccc", "bbbb")),
            Some(Color::Black)
        );
        // Another game's token is no seat here.
        assert_eq!(caller.seat_in(&row("g1", "bbbb", "cccc")), None);
        assert_eq!(caller.seat_in(&row("g3", "aaaa", "bbbb")), None);
        // The session cookie: Secure only when the site is served over https; removal is
        // an empty value that expires at once.
        let (_, plain) = session_cookie(Some("rks_x"), false);
        let (_, secure) = session_cookie(Some("rks_x"), true);
        let (_, gone) = session_cookie(None, true);
        let plain = plain.to_str().unwrap();
        assert!(plain.starts_with("rk-session=rks_x; ") && !plain.contains("Secure"));
        assert!(plain.contains("HttpOnly") && plain.contains("SameSite=Lax"));
        assert!(secure.to_str().unwrap().ends_with("; Secure"));
        assert!(
            gone.to_str().unwrap().starts_with("rk-session=; ")
                && gone.to_str().unwrap().contains("Max-Age=0")
        );
        let (name, value) = seat_cookie("g1", "aaaa", false);
        assert_eq!(name, SET_COOKIE);
        let value = value.to_str().unwrap();
        for flag in ["HttpOnly", "SameSite=Lax", "Path=/"] {
            assert!(value.contains(flag), "{value}");
        }
    }
}
