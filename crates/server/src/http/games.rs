//! The game API: create, join, state, commands, list and PGN export (docs/API.md).

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::header::{CONTENT_TYPE, COOKIE, SET_COOKIE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use rookery_core::clock::TimeControl;
use rookery_core::game::{Command, Game, MoveText};
use rookery_core::{Color, Position};
use rookery_engine::Level;
use serde::{Deserialize, Serialize};

use super::AppState;
use super::error::{ApiError, ApiJson};
use crate::bot::bot_name;
use crate::identity;
use crate::room::{RematchAnswer, now_ms};
use crate::rooms::bot_levels;
use crate::store::{GameRow, NewGame};

#[derive(Debug, Deserialize)]
pub(crate) struct CreateGame {
    /// Friendly form: "5+3", "40/90+30:30+30", "15d5", "untimed".
    time_control: String,
    /// "white", "black" or "random" (the default).
    #[serde(default)]
    color: Option<String>,
    /// A start position other than the standard one.
    #[serde(default)]
    fen: Option<String>,
    /// Play a bot of this level (1-8) instead of a person.
    #[serde(default)]
    bot: Option<u8>,
}

#[derive(Debug, Serialize)]
pub(crate) struct Seated {
    id: String,
    url: String,
    color: &'static str,
    name: String,
}

/// The stored row of game `id`, or 404.
pub(crate) async fn game_row(state: &AppState, id: &str) -> Result<GameRow, ApiError> {
    state
        .store
        .game(id)
        .await?
        .ok_or_else(|| ApiError::not_found("game"))
}

fn seat_cookie(id: &str, token: &str) -> String {
    format!("rk_{id}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000")
}

/// The seat token this browser holds for game `id`.
fn seat_token(headers: &HeaderMap, id: &str) -> Option<String> {
    let name = format!("rk_{id}");
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|cookies| {
            cookies.split(';').find_map(|c| {
                let (k, v) = c.trim().split_once('=')?;
                (k == name).then(|| v.to_owned())
            })
        })
}

/// Which color the holder of this browser's cookie plays in `row`, if any.
pub(crate) fn seat_of(headers: &HeaderMap, row: &GameRow) -> Option<Color> {
    let token = seat_token(headers, &row.game.id)?;
    let holds = |seat: &Option<String>| {
        seat.as_deref()
            .is_some_and(|s| identity::same_token(s, &token))
    };
    if holds(&row.game.white_seat) {
        Some(Color::White)
    } else if holds(&row.game.black_seat) {
        Some(Color::Black)
    } else {
        None
    }
}

fn seated(id: String, color: Color, name: String, token: &str, status: StatusCode) -> Response {
    let body = Seated {
        url: format!("/game/{id}"),
        id: id.clone(),
        color: color.name(),
        name,
    };
    (status, [(SET_COOKIE, seat_cookie(&id, token))], Json(body)).into_response()
}

/// `POST /api/games`: creates a game; the creator takes a seat, the other stays open for
/// whoever opens the challenge link first.
pub(crate) async fn create(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<CreateGame>,
) -> Result<Response, ApiError> {
    let control = TimeControl::from_friendly(&req.time_control)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.to_string()))?;
    let start = match req.fen.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
        Some(fen) => Position::from_fen(fen)
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, format!("bad FEN: {e}")))?,
        None => Position::new(),
    };
    let color = match req.color.as_deref().unwrap_or("random") {
        "white" => Color::White,
        "black" => Color::Black,
        "random" => Color::from_white(identity::coin()),
        other => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                format!("color {other:?}: choose white, black or random"),
            ));
        }
    };
    let bot = match req.bot {
        None => None,
        Some(n) => Some(Level::new(n).ok_or_else(|| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                format!("bot level {n}: choose 1 to 8"),
            )
        })?),
    };
    let (id, token, name) = (
        identity::game_id(),
        identity::seat_token(),
        identity::display_name(),
    );
    // The other seat: open for the challenge link, or a bot's (a token nobody is given).
    let other = match bot {
        Some(level) => Seat {
            name: bot_name(level),
            token: Some(identity::seat_token()),
            bot: Some(i64::from(level.get())),
        },
        None => Seat {
            name: "?".to_owned(),
            token: None,
            bot: None,
        },
    };
    let mine = Seat {
        name: name.clone(),
        token: Some(token.clone()),
        bot: None,
    };
    let (white, black) = match color {
        Color::White => (mine, other),
        Color::Black => (other, mine),
    };
    let row = NewGame {
        id: id.clone(),
        created_at: now_ms() as i64,
        start_fen: (start != Position::new()).then(|| start.fen()),
        time_control: control.to_pgn(),
        white_name: white.name,
        black_name: black.name,
        white_seat: white.token,
        black_seat: black.token,
        white_bot: white.bot,
        black_bot: black.bot,
        rematch_of: None,
    };
    start_game(&state, &row, Game::new(start, control)).await?;
    Ok(seated(id, color, name, &token, StatusCode::CREATED))
}

/// One seat of a new game.
struct Seat {
    name: String,
    token: Option<String>,
    bot: Option<i64>,
}

/// The color whose seat nobody holds yet (white first), if any.
pub(crate) fn open_seat(row: &GameRow) -> Option<Color> {
    match (&row.game.white_seat, &row.game.black_seat) {
        (None, _) => Some(Color::White),
        (_, None) => Some(Color::Black),
        _ => None,
    }
}

/// `POST /api/games/{id}/join`: takes the open seat.
pub(crate) async fn join(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let row = game_row(&state, &id).await?;
    if let Some(color) = seat_of(&headers, &row) {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("you already play {color} in this game"),
        ));
    }
    if row.status != "live" {
        return Err(ApiError::new(StatusCode::CONFLICT, "the game is over"));
    }
    let open = open_seat(&row)
        .ok_or_else(|| ApiError::new(StatusCode::CONFLICT, "both seats are taken"))?;
    let (token, name) = (identity::seat_token(), identity::display_name());
    if !state
        .store
        .take_seat(&id, open == Color::White, &token, &name)
        .await?
    {
        return Err(ApiError::new(StatusCode::CONFLICT, "both seats are taken"));
    }
    if let Some(room) = state.rooms.running(&id) {
        room.seated(open, name.clone()).await;
    }
    Ok(seated(id, open, name, &token, StatusCode::OK))
}

#[derive(Debug, Serialize)]
pub(crate) struct GameState {
    id: String,
    v: u64,
    status: &'static str,
    fen: String,
    turn: &'static str,
    san: Vec<String>,
    uci: Vec<String>,
    /// Milliseconds left per side (`null` untimed).
    clocks: Clocks,
    time_control: String,
    white: String,
    black: String,
    result: Option<String>,
    termination: Option<String>,
    /// The color this browser plays, if any.
    you: Option<&'static str>,
    /// Bot levels of the seats (`null`: a person).
    bots: ByColorJson<Option<i64>>,
    /// The id of the rematch, once both agreed to one.
    rematch: Option<String>,
}

#[derive(Debug, Serialize)]
struct ByColorJson<T> {
    white: T,
    black: T,
}

#[derive(Debug, Serialize)]
struct Clocks {
    white: Option<u64>,
    black: Option<u64>,
}

/// `GET /api/games/{id}`.
pub(crate) async fn show(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameState>, ApiError> {
    let row = game_row(&state, &id).await?;
    let (v, game) = state.rooms.game_of(&row).await?;
    let clocks = game.clocks_at(now_ms());
    let (result, termination) = match game.result() {
        Some((r, t)) => (Some(r.as_str().to_owned()), Some(t.as_str().to_owned())),
        None => (row.result.clone(), row.termination.clone()),
    };
    Ok(Json(GameState {
        id,
        v,
        status: if result.is_some() { "over" } else { "live" },
        fen: game.position().fen(),
        turn: game.position().turn().name(),
        san: game.moves().iter().map(|m| m.san.to_string()).collect(),
        uci: game
            .moves()
            .iter()
            .map(|m| m.m.to_uci().to_string())
            .collect(),
        clocks: Clocks {
            white: clocks.white.map(|d| d.as_millis() as u64),
            black: clocks.black.map(|d| d.as_millis() as u64),
        },
        time_control: row.game.time_control.clone(),
        white: row.game.white_name.clone(),
        black: row.game.black_name.clone(),
        result,
        termination,
        you: seat_of(&headers, &row).map(Color::name),
        bots: ByColorJson {
            white: row.game.white_bot,
            black: row.game.black_bot,
        },
        rematch: match state.store.rematch_of(&row.game.id).await? {
            Some(next) => Some(next.game.id),
            None => None,
        },
    }))
}

#[derive(Debug, Deserialize)]
pub(crate) struct MoveRequest {
    /// UCI (`e2e4`, `e7e8q`, `e1h1`) or SAN.
    #[serde(alias = "uci", alias = "san")]
    m: String,
    #[serde(default)]
    offer_draw: bool,
}

#[derive(Debug, Serialize)]
pub(crate) struct Done {
    v: u64,
}

async fn command_for(
    state: &AppState,
    id: &str,
    headers: &HeaderMap,
    make: impl FnOnce(Color) -> Command,
) -> Result<Json<Done>, ApiError> {
    let row = game_row(state, id).await?;
    let color = seat_of(headers, &row)
        .ok_or_else(|| ApiError::new(StatusCode::FORBIDDEN, "you have no seat in this game"))?;
    let room = state
        .rooms
        .get(id)
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::CONFLICT, "the game is over"))?;
    let v = room.apply(make(color)).await?;
    Ok(Json(Done { v }))
}

/// `POST /api/games/{id}/move`.
pub(crate) async fn play(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<MoveRequest>,
) -> Result<Json<Done>, ApiError> {
    // The SAN reader takes UCI too (`e2e4`, `e7e8q`, `e1h1`), so one path serves both.
    let text = MoveText::San(req.m);
    command_for(&state, &id, &headers, |by| Command::Move {
        by,
        text,
        offer_draw: req.offer_draw,
    })
    .await
}

/// `POST /api/games/{id}/{action}`: resign, abort, draw/offer, draw/accept, draw/decline,
/// draw/claim.
pub(crate) async fn action(
    State(state): State<AppState>,
    Path((id, action)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Json<Done>, ApiError> {
    let make: fn(Color) -> Command = match action.as_str() {
        "resign" => |by| Command::Resign { by },
        "abort" => |by| Command::Abort { by },
        "offer-draw" => |by| Command::OfferDraw { by },
        "accept-draw" => |by| Command::AcceptDraw { by },
        "decline-draw" => |by| Command::DeclineDraw { by },
        "claim-draw" => |by| Command::ClaimDraw {
            by,
            with_move: None,
        },
        _ => return Err(ApiError::not_found("action")),
    };
    command_for(&state, &id, &headers, make).await
}

/// `POST /api/games/{id}/rematch`: a player of the finished game asks for a rematch. The
/// first request makes an offer (`{"offered": true}`); the opponent's (a bot agrees at once)
/// makes the rematch: colors swapped, same time control and start, a new id. Each player's
/// request then answers with their seat in it (the seat cookie), as `join` does.
pub(crate) async fn rematch(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let row = game_row(&state, &id).await?;
    let color = seat_of(&headers, &row)
        .ok_or_else(|| ApiError::new(StatusCode::FORBIDDEN, "you have no seat in this game"))?;
    let token = seat_token(&headers, &id).unwrap_or_default();
    let name = match color {
        Color::White => row.game.white_name.clone(),
        Color::Black => row.game.black_name.clone(),
    };
    if let Some(next) = state.store.rematch_of(&id).await? {
        return Ok(seated(next.game.id, !color, name, &token, StatusCode::OK));
    }
    let room = state
        .rooms
        .get(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("game"))?;
    let mut answer = room.rematch(color).await?;
    if answer == RematchAnswer::Offered && bot_levels(&row.game)[!color].is_some() {
        // A bot always wants another game.
        answer = room.rematch(!color).await?;
    }
    match answer {
        RematchAnswer::Offered => Ok(Json(serde_json::json!({"offered": true})).into_response()),
        RematchAnswer::Made(next) => Ok(seated(next, !color, name, &token, StatusCode::OK)),
        RematchAnswer::Agreed => {
            let next = NewGame {
                id: identity::game_id(),
                created_at: now_ms() as i64,
                start_fen: row.game.start_fen.clone(),
                time_control: row.game.time_control.clone(),
                white_name: row.game.black_name.clone(),
                black_name: row.game.white_name.clone(),
                white_seat: row.game.black_seat.clone(),
                black_seat: row.game.white_seat.clone(),
                white_bot: row.game.black_bot,
                black_bot: row.game.white_bot,
                rematch_of: Some(id.clone()),
            };
            let (_, old) = state.rooms.game_of(&row).await?;
            let game = Game::new(*old.start(), old.clock().control().clone());
            let made = start_game(&state, &next, game).await;
            room.rematch_made(made.as_ref().ok().map(|()| next.id.clone()))
                .await;
            made?;
            Ok(seated(next.id, !color, name, &token, StatusCode::CREATED))
        }
    }
}

/// Stores a new game and opens its room (with its bots).
async fn start_game(state: &AppState, row: &NewGame, game: Game) -> Result<(), ApiError> {
    state.store.create_game(row).await?;
    state.rooms.open(&row.id, game, bot_levels(row));
    Ok(())
}

/// `POST /api/games/{id}/decline-rematch`: declines the opponent's rematch offer, or
/// withdraws one's own.
pub(crate) async fn decline_rematch(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    let row = game_row(&state, &id).await?;
    let color = seat_of(&headers, &row)
        .ok_or_else(|| ApiError::new(StatusCode::FORBIDDEN, "you have no seat in this game"))?;
    if let Some(room) = state.rooms.running(&id) {
        room.decline_rematch(color).await;
    }
    Ok(Json(serde_json::json!({"ok": true})))
}

#[derive(Debug, Deserialize)]
pub(crate) struct ExportQuery {
    #[serde(default = "yes")]
    clocks: bool,
}

fn yes() -> bool {
    true
}

/// `GET /game/export/{id}`: the PGN of a game (a live one up to its last move).
pub(crate) async fn export(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<ExportQuery>,
) -> Result<Response, ApiError> {
    let row = game_row(&state, &id).await?;
    let pgn = pgn_of(&state, &row, q.clocks).await?;
    Ok((
        [(CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8")],
        pgn,
    )
        .into_response())
}

/// The PGN text of a stored game, from its room if it is live.
pub(crate) async fn pgn_of(
    state: &AppState,
    row: &GameRow,
    clocks: bool,
) -> Result<String, ApiError> {
    let id = &row.game.id;
    let (_, game) = state.rooms.game_of(row).await?;
    let mut record = game.to_record();
    // The stored clocks are the record (for imported games, the ones they came with).
    let stored = state.store.moves(id).await?;
    for (rm, sm) in record.moves.iter_mut().zip(&stored) {
        rm.clock = sm
            .clock_ms
            .map(|ms| std::time::Duration::from_millis(ms as u64));
    }
    record.tags.set("Event", "Rookery game");
    record.tags.set("Site", format!("/game/{id}"));
    let (date, time) = utc_date_time(row.game.created_at);
    record.tags.set("Date", date.as_str());
    record.tags.set("White", row.game.white_name.as_str());
    record.tags.set("Black", row.game.black_name.as_str());
    record.tags.set("UTCDate", date);
    record.tags.set("UTCTime", time);
    if !clocks {
        for m in &mut record.moves {
            m.clock = None;
        }
    }
    Ok(rookery_core::pgn::write(&record))
}

#[derive(Debug, Serialize)]
pub(crate) struct Listed {
    id: String,
    white: String,
    black: String,
    time_control: String,
    /// The same in the lobby's form (`10+5`, `15d5`, `untimed`).
    time_control_friendly: String,
    /// Whether a seat is still open (a seek anyone may join).
    open: bool,
}

/// `GET /api/games`: live games, to join (open seats) or to watch.
pub(crate) async fn list(State(state): State<AppState>) -> Result<Json<Vec<Listed>>, ApiError> {
    let rows = state.store.live_games().await?;
    Ok(Json(
        rows.into_iter()
            .map(|r| Listed {
                open: open_seat(&r).is_some(),
                id: r.game.id,
                white: r.game.white_name,
                black: r.game.black_name,
                time_control_friendly: friendly_time_control(&r.game.time_control),
                time_control: r.game.time_control,
            })
            .collect(),
    ))
}

/// A stored (PGN syntax) time control in the lobby's form, or as stored if unreadable.
pub(crate) fn friendly_time_control(pgn: &str) -> String {
    TimeControl::from_pgn(pgn).map_or_else(|_| pgn.to_owned(), |c| c.to_friendly())
}

/// `GET /api/games/user/{name}`: every finished game of a player, as one PGN.
pub(crate) async fn user_games(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Query(q): Query<ExportQuery>,
) -> Result<Response, ApiError> {
    let mut out = String::new();
    for row in state.store.finished_games_of(&name).await? {
        out.push_str(&pgn_of(&state, &row, q.clocks).await?);
    }
    Ok((
        [(CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8")],
        out,
    )
        .into_response())
}

#[derive(Debug, Deserialize)]
pub(crate) struct ImportForm {
    pgn: String,
}

#[derive(Debug, Serialize)]
pub(crate) struct Imported {
    id: String,
    url: String,
}

/// `POST /api/import`: a finished game from PGN (form field `pgn`, or the raw body); the first
/// game of the text. 400 with the reader's error, naming ply and move, when it is not valid.
pub(crate) async fn import(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: String,
) -> Result<Json<Imported>, ApiError> {
    let is_form = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    let text = if is_form {
        let form: ImportForm = serde_urlencoded::from_str(&body)
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, format!("bad form: {e}")))?;
        form.pgn
    } else {
        body
    };
    let record = rookery_core::pgn::Reader::new(text.as_bytes())
        .next()
        .ok_or_else(|| ApiError::new(StatusCode::BAD_REQUEST, "no game in the PGN"))?
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.to_string()))?;
    let id = crate::import::store_record(&state.store, &record).await?;
    Ok(Json(Imported {
        url: format!("/game/{id}"),
        id,
    }))
}

/// `YYYY.MM.DD` and `HH:MM:SS` (UTC) of a time in ms since the Unix epoch, as PGN writes them.
pub(crate) fn utc_date_time(ms: i64) -> (String, String) {
    let secs = ms.div_euclid(1000);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        format!("{year:04}.{month:02}.{day:02}"),
        format!("{:02}:{:02}:{:02}", rest / 3600, rest / 60 % 60, rest % 60),
    )
}

#[cfg(test)]
mod tests {
    use super::utc_date_time;

    #[test]
    fn pgn_dates_in_utc() {
        assert_eq!(utc_date_time(0), ("1970.01.01".into(), "00:00:00".into()));
        // 2026-11-30 07:15:30 UTC.
        assert_eq!(
            utc_date_time(1_796_022_930_000),
            ("2026.11.30".into(), "07:15:30".into())
        );
        // 2000-02-29 23:59:59 UTC, a leap day.
        assert_eq!(
            utc_date_time(951_868_799_000),
            ("2000.02.29".into(), "23:59:59".into())
        );
    }
}
