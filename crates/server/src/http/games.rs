//! The game API: create, join, state, commands, rematches and the live list (docs/API.md).
//! Handlers are thin: the caller comes from the identity extractors, every rule from the
//! core through the game's room.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use rookery_core::clock::TimeControl;
use rookery_core::game::{Game, MoveText};
use rookery_core::rating::Speed;
use rookery_core::{Color, Position};
use rookery_engine::Level;

use super::AppState;
use super::body::{
    CreateGame, Done, GameState, Listed, MoveRequest, Offered, Ok as Okay, PerColor,
    SeatRatingView, Seated,
};
use super::error::{ApiError, ApiJson};
use super::identity::{Caller, InGame, Player, seat_cookie};
use crate::accounts::Title;
use crate::bot::bot_name;
use crate::ids;
use crate::protocol::{self, Action};
use crate::rematch::Requested;
use crate::room::now_ms;
use crate::store::{NewGame, Status};

/// The answer that gives the caller a seat: its cookie and where to go.
pub(super) fn seated(
    id: String,
    color: Color,
    name: String,
    token: &str,
    status: StatusCode,
) -> Response {
    let body = Seated {
        url: format!("/game/{id}"),
        id: id.clone(),
        color: color.name(),
        name,
    };
    (status, [seat_cookie(&id, token)], Json(body)).into_response()
}

/// `POST /api/games`: creates a game; the creator takes a seat, the other stays open for
/// whoever opens the challenge link first (or a bot takes it).
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(req): ApiJson<CreateGame>,
) -> Result<Response, ApiError> {
    let bad = |message: String| ApiError::bad("bad_request", message);
    let control = TimeControl::from_friendly(&req.time_control)
        .map_err(|e| ApiError::bad("bad_time_control", e.to_string()))?;
    let start = match req.fen.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
        Some(fen) => Position::from_fen(fen)
            .map_err(|e| ApiError::bad("bad_fen", format!("bad FEN: {e}")))?,
        None => Position::new(),
    };
    let color = match req.color.as_deref().unwrap_or("random") {
        "white" => Color::White,
        "black" => Color::Black,
        "random" => Color::from_white(ids::coin()),
        other => {
            return Err(bad(format!(
                "color {other:?}: choose white, black or random"
            )));
        }
    };
    let bot = match req.bot {
        None => None,
        Some(n) => Some(Level::new(n).ok_or_else(|| bad(format!("bot level {n}: choose 1 to 8")))?),
    };
    if req.rated {
        let why = if caller.account.as_ref().is_none_or(|a| !a.may_play()) {
            Some("log in to play rated games")
        } else if bot.is_some() {
            Some("games against the built-in bots are not rated")
        } else if start != Position::new() {
            Some("only games from the normal start are rated")
        } else if Speed::of_control(&control).is_none() {
            Some("games without a clock are not rated")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(ApiError::bad("not_rateable", why));
        }
    }
    let rating_range = match req.rating_range.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) => {
            let range = parse_range(text).ok_or_else(|| {
                bad(format!(
                    "rating range {text:?}: write it as two ratings, low-high (1400-1800)"
                ))
            })?;
            if !req.seek || bot.is_some() || caller.account.as_ref().is_none_or(|a| !a.may_play()) {
                return Err(bad(
                    "a rating range is for a logged-in player's public seek".to_owned(),
                ));
            }
            if Speed::of_control(&control).is_none() {
                return Err(bad("untimed games have no rating to range over".to_owned()));
            }
            Some(range)
        }
    };
    let club = crate::store::ClubRecord {
        event: club_field("event", req.event)?,
        round: club_field("round", req.round)?,
        table: club_field("table", req.table)?,
    };
    let game = Game::new(start, control);
    if let Some((_, termination)) = game.result() {
        // Nothing to play (R4): such a game would be over before it began.
        return Err(ApiError::bad(
            "position_over",
            format!(
                "this position is over already ({}): choose one with a move to play",
                termination.as_str()
            ),
        ));
    }
    let (id, token) = (ids::game_id(), ids::seat_token());
    let (name, user) = player_name(&caller);
    // The other seat: open for the challenge link, or a bot's (a token nobody is given).
    let other = match bot {
        Some(level) => Seat {
            name: bot_name(level),
            token: Some(ids::seat_token()),
            bot: Some(i64::from(level.get())),
            user: None,
        },
        None => Seat {
            name: "?".to_owned(),
            token: None,
            bot: None,
            user: None,
        },
    };
    let mine = Seat {
        name: name.clone(),
        token: Some(token.clone()),
        bot: None,
        user,
    };
    let (white, black) = match color {
        Color::White => (mine, other),
        Color::Black => (other, mine),
    };
    let row = NewGame {
        id: id.clone(),
        created_at: now_ms() as i64,
        start_fen: (start != Position::new()).then(|| start.fen()),
        time_control: game.clock().control().to_pgn(),
        white_name: white.name,
        black_name: black.name,
        white_seat: white.token,
        black_seat: black.token,
        white_bot: white.bot,
        black_bot: black.bot,
        rematch_of: None,
        seek: req.seek && bot.is_none(),
        white_user: white.user,
        black_user: black.user,
        rated: req.rated,
        rating_range,
        club,
    };
    state.rooms.create(&row, game).await?;
    Ok(seated(id, color, name, &token, StatusCode::CREATED))
}

/// A club field as given: trimmed, none if empty, refused past 64 characters or with a
/// control character (it goes into a PGN tag and onto a printed sheet).
fn club_field(what: &str, value: Option<String>) -> Result<Option<String>, ApiError> {
    let Some(text) = value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    if text.chars().count() > 64 || text.chars().any(char::is_control) {
        return Err(ApiError::bad(
            "bad_request",
            format!("{what}: at most 64 characters, on one line"),
        ));
    }
    Ok(Some(text))
}

/// A rating range as written, "1400-1800" (low first, within 0-4000).
fn parse_range(text: &str) -> Option<(i64, i64)> {
    let (lo, hi) = text.split_once('-')?;
    let (lo, hi): (i64, i64) = (lo.trim().parse().ok()?, hi.trim().parse().ok()?);
    (0 <= lo && lo <= hi && hi <= 4000).then_some((lo, hi))
}

/// One seat of a new game: who sits there, their token (`None`: open), a bot's level, a
/// player's account.
struct Seat {
    name: String,
    token: Option<String>,
    bot: Option<i64>,
    user: Option<String>,
}

/// The name a new seat is taken under, and its account: the account's name when the caller
/// is logged in (and may play), else a new generated name.
fn player_name(caller: &Caller) -> (String, Option<String>) {
    match caller.account.as_ref().filter(|a| a.may_play()) {
        Some(account) => (account.user.name.clone(), Some(account.user.id.clone())),
        None => (ids::display_name(), None),
    }
}

/// `POST /api/games/{id}/join`: takes the open seat.
pub(crate) async fn join(
    State(state): State<AppState>,
    InGame { row, seat, caller }: InGame,
) -> Result<Response, ApiError> {
    if let Some(color) = seat {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "seated_already",
            format!("you already play {color} in this game"),
        ));
    }
    if row.status != Status::Live {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "game_over",
            "the game is over",
        ));
    }
    let taken = || ApiError::new(StatusCode::CONFLICT, "seats_taken", "both seats are taken");
    if row.game.rated && caller.account.as_ref().is_none_or(|a| !a.may_play()) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "rated_needs_account",
            "log in to join a rated game",
        ));
    }
    let open = row.game.open_seat().ok_or_else(taken)?;
    if let Some((lo, hi)) = row.game.rating_range {
        let speed = TimeControl::from_pgn(&row.game.time_control)
            .ok()
            .and_then(|c| Speed::of_control(&c));
        let rating = match (caller.account.as_ref().filter(|a| a.may_play()), speed) {
            (Some(a), Some(speed)) => Some(
                state
                    .store
                    .rating_at(&a.user.id, speed, now_ms() as i64)
                    .await?
                    .rating
                    .round() as i64,
            ),
            _ => None,
        };
        if rating.is_none_or(|r| r < lo || r > hi) {
            let yours = rating.map_or_else(
                || "you are not logged in".to_owned(),
                |r| format!("yours is {r}"),
            );
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "rating_out_of_range",
                format!("this seek asks for a rating from {lo} to {hi}; {yours}"),
            ));
        }
    }
    let token = ids::seat_token();
    let (name, user) = player_name(&caller);
    let id = row.game.id.clone();
    if !state
        .store
        .take_seat(&id, open == Color::White, &token, &name, user.as_deref())
        .await?
    {
        return Err(taken());
    }
    if let Some(room) = state.rooms.open_anywhere(&id) {
        let title = caller
            .account
            .as_ref()
            .filter(|_| user.is_some())
            .and_then(|a| a.user.title)
            .map(Title::as_str);
        room.seated(open, name.clone(), title).await;
    }
    // Both seats taken: the accounts' event streams hear that the game began.
    let mut started = row.game;
    started.id.clone_from(&id);
    match open {
        Color::White => (started.white_seat, started.white_user) = (Some(token.clone()), user),
        Color::Black => (started.black_seat, started.black_user) = (Some(token.clone()), user),
    }
    state.rooms.announce_start(&started);
    Ok(seated(id, open, name, &token, StatusCode::OK))
}

/// `GET /api/games/{id}`.
pub(crate) async fn show(
    State(state): State<AppState>,
    InGame { row, seat, .. }: InGame,
) -> Result<Json<GameState>, ApiError> {
    let (v, game) = state.rooms.game_of(&row).await?;
    let clocks = game.clocks_at(now_ms());
    let ms = |d: Option<std::time::Duration>| d.map(|d| d.as_millis() as u64);
    let ending = game.result();
    let rematch = state.store.rematch_of(&row.game.id).await?;
    let ratings = crate::export::game_ratings(&state.store, &row)
        .await?
        .map(|[white, black]| PerColor {
            white: white.as_ref().map(SeatRatingView::of),
            black: black.as_ref().map(SeatRatingView::of),
        });
    Ok(Json(GameState {
        ratings,
        v,
        status: if ending.is_some() {
            Status::Over
        } else {
            Status::Live
        }
        .as_str(),
        fen: game.position().fen(),
        turn: game.position().turn().name(),
        san: protocol::san_list(&game),
        uci: protocol::uci_list(&game),
        clocks: PerColor {
            white: ms(clocks.white),
            black: ms(clocks.black),
        },
        result: ending.map(|(r, _)| r.as_str()),
        termination: ending.map(|(_, t)| t.as_str()),
        you: seat.map(Color::name),
        bots: PerColor {
            white: row.game.white_bot,
            black: row.game.black_bot,
        },
        rematch: rematch.map(|next| next.game.id),
        time_control: row.game.time_control,
        white: row.game.white_name,
        black: row.game.black_name,
        white_title: row.white_title.map(Title::as_str),
        black_title: row.black_title.map(Title::as_str),
        id: row.game.id,
    }))
}

/// Feeds the player's action to the game's room.
async fn act(state: &AppState, player: &Player, action: Action) -> Result<Json<Done>, ApiError> {
    let room = state
        .rooms
        .get(&player.row.game.id)
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::CONFLICT, "game_over", "the game is over"))?;
    let v = room.apply(action.by(player.color)).await?;
    Ok(Json(Done { v }))
}

/// `POST /api/games/{id}/move`.
pub(crate) async fn play(
    State(state): State<AppState>,
    player: Player,
    ApiJson(req): ApiJson<MoveRequest>,
) -> Result<Json<Done>, ApiError> {
    // The SAN reader takes UCI too (`e2e4`, `e7e8q`, `e1h1`), so one path serves both.
    let action = Action::Move {
        text: MoveText::San(req.m),
        offer_draw: req.offer_draw,
        timing: Default::default(),
    };
    act(&state, &player, action).await
}

/// `POST /api/games/{id}/{action}`: `resign`, `abort`, `offer-draw`, `accept-draw`,
/// `decline-draw`, `claim-draw`, `claim-victory` (the socket's frame names).
pub(crate) async fn action(
    State(state): State<AppState>,
    Path((_, name)): Path<(String, String)>,
    player: Player,
) -> Result<Json<Done>, ApiError> {
    let action = Action::named(&name).ok_or_else(|| ApiError::not_found("action"))?;
    act(&state, &player, action).await
}

/// `POST /api/games/{id}/rematch`: a player of the finished game asks for a rematch
/// ([`crate::rematch::request`]). The first request makes an offer (`{"offered": true}`);
/// the opponent's makes the rematch, and each player's request then answers with their seat
/// in it (the seat cookie), as `join` does.
pub(crate) async fn rematch(
    State(state): State<AppState>,
    player: Player,
) -> Result<Response, ApiError> {
    let Player { row, color, token } = player;
    let name = row.game.name(color).to_owned();
    match crate::rematch::request(&state.rooms, &state.store, &row, color).await? {
        Requested::Offered => Ok(Json(Offered { offered: true }).into_response()),
        Requested::Seat { id, created } => {
            let status = if created {
                StatusCode::CREATED
            } else {
                StatusCode::OK
            };
            Ok(seated(id, !color, name, &token, status))
        }
    }
}

/// `POST /api/games/{id}/decline-rematch`: declines the opponent's rematch offer, or
/// withdraws one's own.
pub(crate) async fn decline_rematch(State(state): State<AppState>, player: Player) -> Json<Okay> {
    if let Some(room) = state.rooms.open_anywhere(&player.row.game.id) {
        room.decline_rematch(player.color).await;
    }
    Json(Okay { ok: true })
}

/// `GET /api/games`: what can be joined or watched now: public seeks whose creator's page is
/// open, and games under way.
pub(crate) async fn list(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
) -> Result<Json<Vec<Listed>>, ApiError> {
    let tr = super::pages::Tr::new(super::pages::Lang::of(&headers));
    let rows = state.store.live_games().await?;
    let lobby = state.rooms.lobby();
    let now = now_ms() as i64;
    // Each account's rating, looked up once per request however many games it is in.
    let mut known: std::collections::HashMap<(String, Speed), String> =
        std::collections::HashMap::new();
    let mut out = Vec::new();
    for r in rows {
        let Some(listing) = lobby.get(&r.game.id) else {
            continue;
        };
        if !(listing.joinable() || listing.watchable()) {
            continue;
        }
        let control = TimeControl::from_pgn(&r.game.time_control).ok();
        let speed = control.as_ref().and_then(Speed::of_control);
        let mut ratings = [None, None];
        for (slot, user) in ratings
            .iter_mut()
            .zip([&r.game.white_user, &r.game.black_user])
        {
            let (Some(user), Some(speed)) = (user, speed) else {
                continue;
            };
            let key = (user.clone(), speed);
            if !known.contains_key(&key) {
                let shown = state.store.rating_at(user, speed, now).await?.shown();
                known.insert(key.clone(), shown);
            }
            *slot = known.get(&key).cloned();
        }
        let [white_rating, black_rating] = ratings;
        out.push(Listed {
            open: listing.joinable(),
            open_color: r
                .game
                .open_seat()
                .filter(|_| listing.joinable())
                .map(Color::name),
            time_control_friendly: r.game.friendly_time_control(),
            time_control_words: control.map_or_else(
                || r.game.friendly_time_control(),
                |c| super::pages::describe(tr, &c),
            ),
            rated: r.game.rated,
            white_rating,
            black_rating,
            rating_range: r.game.rating_range.map(|(lo, hi)| format!("{lo}-{hi}")),
            opening: listing.opening.map(super::body::OpeningTag::of),
            id: r.game.id,
            white: r.game.white_name,
            black: r.game.black_name,
            white_title: r.white_title.map(Title::as_str),
            black_title: r.black_title.map(Title::as_str),
            time_control: r.game.time_control,
        });
    }
    Ok(Json(out))
}
