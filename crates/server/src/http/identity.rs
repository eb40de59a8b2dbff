//! Who is asking, as extractors: handlers take the caller as an argument instead of looking
//! it up. Today a caller is the seat cookies its browser holds (`rk_<game id>`, 128-bit
//! tokens; docs/API.md); logged-in users and API tokens will join the same types.

use std::collections::HashMap;

use axum::extract::{FromRef, FromRequestParts, Path};
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};
use rookery_core::Color;

use super::error::ApiError;
use crate::store::{GameRow, Store};

/// The caller: the seat tokens its browser holds, by game id.
#[derive(Debug, Clone, Default)]
pub(crate) struct Caller {
    seats: HashMap<String, String>,
}

impl Caller {
    /// The caller as its request headers say.
    pub(crate) fn of(headers: &HeaderMap) -> Caller {
        let seats = cookies(headers)
            .filter_map(|(name, token)| {
                let id = name.strip_prefix("rk_")?;
                Some((id.to_owned(), token.to_owned()))
            })
            .collect();
        Caller { seats }
    }

    /// The seat token the caller holds for game `id`, if any.
    pub(crate) fn token(&self, id: &str) -> Option<&str> {
        self.seats.get(id).map(String::as_str)
    }

    /// Which color the caller plays in `row`, if any.
    pub(crate) fn seat_in(&self, row: &GameRow) -> Option<Color> {
        let token = self.token(&row.game.id)?;
        let holds = |seat: &Option<String>| {
            seat.as_deref()
                .is_some_and(|s| crate::ids::same_token(s, token))
        };
        if holds(&row.game.white_seat) {
            Some(Color::White)
        } else if holds(&row.game.black_seat) {
            Some(Color::Black)
        } else {
            None
        }
    }
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

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Caller, Self::Rejection> {
        Ok(Caller::of(&parts.headers))
    }
}

/// The `Set-Cookie` header that gives a browser the seat `token` of game `id`: HttpOnly (no
/// script reads it), SameSite=Lax (no other site's form acts with it), for a year.
pub(crate) fn seat_cookie(id: &str, token: &str) -> (axum::http::HeaderName, HeaderValue) {
    let value = format!("rk_{id}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000");
    // Game ids and tokens are ASCII letters and digits.
    (
        SET_COOKIE,
        HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("")),
    )
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
        let caller = Caller::of(&parts.headers);
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
        let InGame { row, seat, caller } = InGame::from_request_parts(parts, state).await?;
        let color = seat.ok_or_else(|| {
            ApiError::new(
                axum::http::StatusCode::FORBIDDEN,
                "no_seat",
                "you have no seat in this game",
            )
        })?;
        let token = caller.token(&row.game.id).unwrap_or_default().to_owned();
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
        let (name, value) = seat_cookie("g1", "aaaa");
        assert_eq!(name, SET_COOKIE);
        let value = value.to_str().unwrap();
        for flag in ["HttpOnly", "SameSite=Lax", "Path=/"] {
            assert!(value.contains(flag), "{value}");
        }
    }
}
