//! TV: the live game most worth watching, as lichess's front page shows one. The pick is the
//! game between the highest-rated players (both seats rated accounts), else the one with the
//! most spectators, else the newest; a game that ends gives way to the next pick.

use askama::Template;
use axum::Json;
use axum::extract::{Query, State};
use axum::response::Response;
use serde::{Deserialize, Serialize};

use super::AppState;
use super::error::ApiError;
use super::pages::{Chrome, Tr, render};
use crate::wallclock::now_ms;

#[derive(Template)]
#[template(path = "tv.html")]
struct TvPage {
    tr: Tr,
    chrome: Chrome,
}

/// `GET /tv`: the page; its script asks `/api/tv` for the game and follows it.
pub(crate) async fn page(chrome: Chrome) -> Response {
    render(&TvPage {
        tr: chrome.tr,
        chrome,
    })
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct TvQuery {
    /// A game the page just saw end: never picked again (the lobby may not know yet).
    after: Option<String>,
}

/// The game on TV.
#[derive(Debug, Serialize)]
pub(crate) struct OnTv {
    id: String,
    white: String,
    black: String,
    white_rating: Option<i64>,
    black_rating: Option<i64>,
    /// A rating still provisional (shown with `?`, as everywhere else).
    white_provisional: bool,
    black_provisional: bool,
    watchers: u32,
    time_control: String,
}

/// `GET /api/tv`: the game on TV now, or `null` when nothing is being played.
pub(crate) async fn pick(
    State(state): State<AppState>,
    Query(q): Query<TvQuery>,
) -> Result<Json<Option<OnTv>>, ApiError> {
    let lobby = state.rooms.lobby();
    let now = now_ms() as i64;
    // (average rating of a game between two rated accounts, watchers, created) — the
    // largest wins.
    let mut best: Option<((i64, u32, i64), OnTv)> = None;
    for row in state.store.live_games().await? {
        let game = &row.game;
        if q.after.as_deref() == Some(game.id.as_str()) {
            continue;
        }
        let Some(listing) = lobby.get(&game.id).filter(|l| l.watchable()) else {
            continue;
        };
        let speed = game.speed();
        let mut ratings = [None, None];
        let mut provisional = [false, false];
        if game.rated {
            for ((slot, doubt), user) in ratings
                .iter_mut()
                .zip(provisional.iter_mut())
                .zip([&game.white_user, &game.black_user])
            {
                if let (Some(user), Some(speed)) = (user, speed) {
                    let glicko = state.store.rating_at(user, speed, now).await?;
                    *slot = Some(glicko.rating.round() as i64);
                    *doubt = glicko.provisional();
                }
            }
        }
        let average = match ratings {
            [Some(w), Some(b)] => (w + b) / 2,
            _ => 0,
        };
        let key = (average, listing.watchers, game.created_at);
        if best.as_ref().is_none_or(|(k, _)| key > *k) {
            let [white_rating, black_rating] = ratings;
            best = Some((
                key,
                OnTv {
                    id: game.id.clone(),
                    white: game.white_name.clone(),
                    black: game.black_name.clone(),
                    white_rating,
                    black_rating,
                    white_provisional: provisional[0],
                    black_provisional: provisional[1],
                    watchers: listing.watchers,
                    time_control: game.friendly_time_control(),
                },
            ));
        }
    }
    Ok(Json(best.map(|(_, on)| on)))
}
