//! lichess's HTTP API, as existing programs call it (docs/API.md, "lichess's API"): the
//! shapes follow lichess's published OpenAPI description, so a client library pointed at this
//! server works by changing its base URL. This part: tokens and accounts.

use crate::refusal::Code;
use std::collections::HashMap;

use axum::Json;
use axum::extract::{Path, Query, State};
use rookery_core::Color;
use rookery_core::clock::TimeControl;
use rookery_core::rating::Speed;
use serde_json::{Value, json};

use super::AppState;
use super::error::ApiError;
use super::identity::Caller;
use crate::accounts::tokens;
use crate::store::GameRow;
use crate::store::accounts::User;
use crate::wallclock::now_ms;

/// `POST /api/token/test`: a comma-separated list of tokens (the body); for each, its scopes,
/// account and expiry, or null for one that is unknown or revoked.
pub(crate) async fn token_test(
    State(state): State<AppState>,
    address: super::limits::ClientAddr,
    body: String,
) -> Result<Json<HashMap<String, Value>>, ApiError> {
    let asked: Vec<&str> = body
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .take(1000)
        .collect();
    // The route charged one request; each further hundred tokens asked costs one more
    // (issue 50: 1,000 lookups a request, no account needed).
    for _ in 1..asked.len().div_ceil(TOKENS_PER_CHARGE) {
        state
            .limits
            .check(super::limits::Door::Account, &[&address.0])?;
    }
    let mut out = HashMap::new();
    for token in asked {
        let found = if crate::store::storable(token) {
            state.store.token(&tokens::hash(token)).await?
        } else {
            None
        };
        let value = found.map_or(
            Value::Null,
            |(t, user)| json!({ "scopes": t.scopes, "userId": user.id, "expires": Value::Null }),
        );
        out.insert(token.to_owned(), value);
    }
    Ok(Json(out))
}

/// Tokens `/api/token/test` looks up for one charge of its door.
const TOKENS_PER_CHARGE: usize = 100;

/// `DELETE /api/token`: revokes the token the request came with (204).
pub(crate) async fn revoke_token(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<axum::http::StatusCode, ApiError> {
    let Some(super::identity::Account {
        user,
        via: super::identity::Via::Token { id, .. },
    }) = caller.account
    else {
        return Err(ApiError::new(
            Code::BadToken,
            "send the token to revoke as Authorization: Bearer",
        ));
    };
    state
        .store
        .revoke(crate::store::accounts::Revocable::Token, &user.id, &id)
        .await?;
    state.revoke(&user.id, crate::events::Revoked::Token(id));
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// A speed's key as lichess writes it (`ultraBullet`, `blitz`, ...).
pub(crate) fn speed_key(speed: Speed) -> &'static str {
    match speed {
        Speed::UltraBullet => "ultraBullet",
        Speed::Bullet => "bullet",
        Speed::Blitz => "blitz",
        Speed::Rapid => "rapid",
        Speed::Classical => "classical",
        Speed::Correspondence => "correspondence",
    }
}

/// A game's speed key; `correspondence` for a game with no clock, as lichess calls it.
pub(crate) fn speed_of(control: &TimeControl) -> &'static str {
    Speed::of_control(control).map_or("correspondence", speed_key)
}

/// An account as lichess's `User` describes it: id, name, title, dates, ratings per speed.
async fn user_json(state: &AppState, user: &User) -> Result<Value, ApiError> {
    let now = now_ms() as i64;
    let mut perfs = serde_json::Map::new();
    for (speed, r) in state.store.ratings_of(&user.id).await? {
        let g = r.at(now);
        let mut perf = json!({
            "games": r.games,
            "rating": g.rating.round() as i64,
            "rd": g.deviation.round() as i64,
            "prog": 0,
        });
        if g.provisional() {
            perf["prov"] = json!(true);
        }
        perfs.insert(speed_key(speed).to_owned(), perf);
    }
    let mut v = json!({
        "id": user.id,
        "username": user.name,
        "perfs": perfs,
        "createdAt": user.created_at,
        "seenAt": user.seen_at,
        "url": format!("/@/{}", user.name),
    });
    if let Some(title) = user.title {
        v["title"] = json!(title.as_str());
    }
    if user.closed_at.is_some() {
        v["disabled"] = json!(true);
    }
    if state.online.is_online(&user.id) {
        v["online"] = json!(true);
    }
    Ok(v)
}

fn need_account(caller: &Caller) -> Result<&User, ApiError> {
    super::lichess_play::account(caller).map(|a| &a.user)
}

/// `GET /api/account`: the caller's account.
pub(crate) async fn account(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<Value>, ApiError> {
    let user = need_account(&caller)?;
    Ok(Json(user_json(&state, user).await?))
}

/// `GET /api/user/{name}`: an account's public description.
pub(crate) async fn user(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<Value>, ApiError> {
    if !crate::store::storable(&name) {
        return Err(ApiError::not_found("user"));
    }
    let user = state
        .store
        .user(&name)
        .await?
        .ok_or_else(|| ApiError::not_found("user"))?;
    Ok(Json(user_json(&state, &user).await?))
}

#[derive(Debug, serde::Deserialize)]
pub(crate) struct StatusQuery {
    ids: String,
}

/// `GET /api/users/status?ids=a,b`: whether each account is online and playing.
pub(crate) async fn users_status(
    State(state): State<AppState>,
    Query(q): Query<StatusQuery>,
) -> Result<Json<Vec<Value>>, ApiError> {
    let mut users = Vec::new();
    for id in q
        .ids
        .split(',')
        .map(str::trim)
        .filter(|i| !i.is_empty())
        .take(100)
    {
        if !crate::store::storable(id) {
            continue;
        }
        if let Some(user) = state.store.user(id).await? {
            users.push(user);
        }
    }
    // One query for those asked about, whatever the number of games under way (issue 50:
    // this read every live game).
    let ids: Vec<String> = users.iter().map(|u| u.id.clone()).collect();
    let playing = state.store.playing(&ids).await?;
    let mut out = Vec::new();
    for user in users {
        let mut v = json!({ "id": user.id, "name": user.name });
        if let Some(title) = user.title {
            v["title"] = json!(title.as_str());
        }
        if state.online.is_online(&user.id) {
            v["online"] = json!(true);
        }
        if playing.contains(&user.id) {
            v["playing"] = json!(true);
        }
        out.push(v);
    }
    Ok(Json(out))
}

/// The color `user` plays in `row`, if any.
pub(crate) fn seat_of(row: &GameRow, user: &str) -> Option<Color> {
    if row.game.white_user.as_deref() == Some(user) {
        Some(Color::White)
    } else if row.game.black_user.as_deref() == Some(user) {
        Some(Color::Black)
    } else {
        None
    }
}

/// A tournament's game as lichess says it: its `source` (`swiss`: a Swiss's games have a
/// round; `arena`), the key naming its tournament (`swissId`, `tournamentId`), its id.
fn tournament_of(row: &GameRow) -> Option<(&'static str, &'static str, &str)> {
    let id = row.game.club.tournament.as_deref()?;
    Some(if row.game.club.round.is_some() {
        ("swiss", "swissId", id)
    } else {
        ("arena", "tournamentId", id)
    })
}

/// A game under way as lichess's `nowPlaying` and `gameStart` describe it, from the side of
/// `color`.
pub(crate) async fn game_info(
    state: &AppState,
    row: &GameRow,
    color: Color,
) -> Result<Value, ApiError> {
    let (_, game) = state.rooms.game_of(row).await?;
    let now = now_ms();
    let opponent = !color;
    let opponent_user = match opponent {
        Color::White => row.game.white_user.clone(),
        Color::Black => row.game.black_user.clone(),
    };
    let speed = speed_of(&row.game.time_control);
    let seconds_left = game.clocks_at(now)[color].map(|d| d.as_secs());
    let last = game.moves().last().map(|m| m.m.to_uci().to_string());
    let mut v = json!({
        "fullId": row.game.id,
        "gameId": row.game.id,
        "id": row.game.id,
        "fen": game.position().fen(),
        "color": color.name(),
        "lastMove": last.unwrap_or_default(),
        "source": tournament_of(row).map_or("friend", |(source, _, _)| source),
        "status": { "id": 20, "name": "started" },
        "variant": { "key": "standard", "name": "Standard" },
        "speed": speed,
        "perf": speed,
        "rated": row.game.rated,
        "hasMoved": game.moves().iter().enumerate().any(|(i, _)| {
            (i % 2 == 0) == (game.start().turn() == color)
        }),
        "opponent": {
            "id": opponent_user.clone().unwrap_or_default(),
            "username": row.game.name(opponent),
        },
        "isMyTurn": !game.is_over() && game.position().turn() == color,
        "compat": { "bot": true, "board": true },
    });
    if let Some(s) = seconds_left {
        v["secondsLeft"] = json!(s);
    }
    if let Some((_, key, t)) = tournament_of(row) {
        v[key] = json!(t);
    }
    if opponent_user.is_none() {
        v["opponent"]["id"] = Value::Null;
    }
    Ok(v)
}

/// `GET /api/account/playing`: the caller's games under way.
pub(crate) async fn playing(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<Value>, ApiError> {
    let user = need_account(&caller)?;
    let mut now_playing = Vec::new();
    for row in state.store.live_games_of(&user.id).await? {
        if let Some(color) = seat_of(&row, &user.id) {
            now_playing.push(game_info(&state, &row, color).await?);
        }
    }
    Ok(Json(json!({ "nowPlaying": now_playing })))
}

/// A game as lichess's `GameJson` describes it (the JSON and NDJSON game exports): players
/// with ratings and changes, status and winner, the moves in SAN, the clock, the opening.
pub(crate) async fn game_json(state: &AppState, row: &GameRow) -> Result<Value, ApiError> {
    let (_, game) = state.rooms.game_of(row).await?;
    let ratings = crate::export::game_ratings(&state.store, row).await?;
    let mut players = serde_json::Map::new();
    for color in [Color::White, Color::Black] {
        let (user, bot) = match color {
            Color::White => (&row.game.white_user, row.game.white_bot),
            Color::Black => (&row.game.black_user, row.game.black_bot),
        };
        let p = if let Some(level) = bot {
            json!({ "aiLevel": level })
        } else {
            let mut p = json!({ "user": { "name": row.game.name(color) } });
            if let Some(id) = user {
                p["user"]["id"] = json!(id);
            }
            let seat = ratings.as_ref().and_then(|r| {
                r[match color {
                    Color::White => 0,
                    Color::Black => 1,
                }]
                .as_ref()
            });
            if let Some(seat) = seat {
                p["rating"] = json!(seat.before.rating.round() as i64);
                if let Some(d) = seat.diff {
                    p["ratingDiff"] = json!(d);
                }
                if seat.before.provisional() {
                    p["provisional"] = json!(true);
                }
            }
            p
        };
        players.insert(color.name().to_owned(), p);
    }
    let speed = speed_of(&row.game.time_control);
    let sans: Vec<String> = game.moves().iter().map(|m| m.san.to_string()).collect();
    let source = if row.game.white_bot.is_some() || row.game.black_bot.is_some() {
        "ai"
    } else if let Some((source, _, _)) = tournament_of(row) {
        source
    } else {
        "friend"
    };
    let mut v = json!({
        "id": row.game.id,
        "rated": row.game.rated,
        "variant": if row.game.start_fen.is_some() { "fromPosition" } else { "standard" },
        "speed": speed,
        "perf": speed,
        "createdAt": row.game.created_at,
        "lastMoveAt": row.finished_at.unwrap_or(row.game.created_at),
        "status": super::lichess_stream::status_name(&game),
        "source": source,
        "players": players,
        "moves": sans.join(" "),
    });
    if let Some((_, key, t)) = tournament_of(row) {
        v[key] = json!(t);
    }
    if let Some((result, _)) = game.result() {
        match result {
            rookery_core::pgn::GameResult::WhiteWins => v["winner"] = json!("white"),
            rookery_core::pgn::GameResult::BlackWins => v["winner"] = json!("black"),
            _ => {}
        }
    }
    if let Some(fen) = &row.game.start_fen {
        v["initialFen"] = json!(fen);
    }
    // lichess's `clocks`: each mover's time left after the move, in centiseconds.
    if game.clock().is_timed() {
        let clocks: Vec<u64> = game
            .moves()
            .iter()
            .filter_map(|m| m.clock.map(|c| c.as_millis() as u64 / 10))
            .collect();
        v["clocks"] = json!(clocks);
    }
    if let rookery_core::clock::TimeControl::Periods(periods) = game.clock().control() {
        if let Some(first) = periods.first() {
            let (initial, increment) = (first.base.as_secs(), first.increment.as_secs());
            v["clock"] = json!({
                "initial": initial,
                "increment": increment,
                "totalTime": initial + 40 * increment,
            });
        }
    }
    if let Some(o) = crate::room::opening_of(&game) {
        v["opening"] = json!({ "eco": o.eco, "name": o.name, "ply": o.plies });
    }
    Ok(v)
}
