//! The game API: create, join, state, commands, rematches and the live list (docs/API.md).
//! Handlers are thin: the caller comes from the identity extractors, every rule from the
//! core through the game's room.

use crate::refusal::Code;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use rookery_core::Color;
use rookery_core::clock::TimeControl;
use rookery_core::game::MoveText;
use rookery_core::rating::Speed;
use rookery_engine::Level;

use super::AppState;
use super::body::{
    CreateGame, Done, GameState, Listed, MoveRequest, Offered, Ok as Okay, PerColor,
    SeatRatingView, Seated,
};
use super::error::{ApiError, ApiJson};
use super::identity::{Caller, InGame, Player, seat_cookie};
use crate::accounts::Title;
use crate::ids;
use crate::new_game::{
    ColorChoice, GameSpec, SeatSpec, Source, club_field, make, parse_range, parse_start,
};
use crate::protocol::{self, Action};
use crate::rematch::Requested;
use crate::room::{RoomError, TakeSeat};
use crate::store::Status;
use crate::store::writer::SeatTaken;
use crate::wallclock::now_ms;

/// The answer that gives the caller a seat: its cookie and where to go.
pub(super) fn seated(
    id: String,
    color: Color,
    name: String,
    token: &str,
    status: StatusCode,
    secure: bool,
) -> Response {
    let body = Seated {
        url: format!("/game/{id}"),
        id: id.clone(),
        color: color.name(),
        name,
    };
    (status, [seat_cookie(&id, token, secure)], Json(body)).into_response()
}

/// `POST /api/games`: creates a game; the creator takes a seat, the other stays open for
/// whoever opens the challenge link first (or a bot takes it).
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    address: super::limits::ClientAddr,
    ApiJson(req): ApiJson<CreateGame>,
) -> Result<Response, ApiError> {
    let control = TimeControl::from_friendly(&req.time_control)
        .map_err(|e| ApiError::new(Code::BadTimeControl, e.to_string()))?;
    let start = parse_start(req.fen.as_deref())?;
    let color = ColorChoice::parse(req.color.as_deref())?.resolve();
    let other = match req.bot {
        None => SeatSpec::Open,
        Some(n) => SeatSpec::Bot(Level::new(n).ok_or_else(|| {
            ApiError::new(Code::BadRequest, format!("bot level {n}: choose 1 to 8"))
        })?),
    };
    let (name, user) = player_name(&caller);
    let me = SeatSpec::person(name.clone(), user);
    let listed = req.seek && other == SeatSpec::Open;
    let mut spec = GameSpec::new(
        Source::Lobby,
        GameSpec::seats_for(color, me, other),
        control,
    );
    spec.start = start;
    spec.rated = req.rated;
    spec.listed = listed;
    spec.rating_range = parse_range(req.rating_range.as_deref().unwrap_or(""))?;
    spec.club = crate::store::ClubRecord {
        event: club_field(req.event),
        round: club_field(req.round),
        table: club_field(req.table),
        tournament: None,
    };
    // Guests are counted by address, unless limits are off (a load test from one address).
    spec.guests = state
        .limits
        .enabled()
        .then_some(crate::new_game::GuestQuota {
            address: address.0,
            games: state.guest_games,
        });
    let made = make(&state.rooms, spec).await?;
    let token = made.tokens[color].clone().unwrap_or_default();
    Ok(seated(
        made.id,
        color,
        name,
        &token,
        StatusCode::CREATED,
        state.secure(),
    ))
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
            Code::SeatedAlready,
            format!("you already play {color} in this game"),
        ));
    }
    if row.status != Status::Live {
        return Err(ApiError::new(Code::GameOver, "the game is over"));
    }
    let taken = || ApiError::new(Code::SeatsTaken, "both seats are taken");
    if row.game.rated && caller.account.as_ref().is_none_or(|a| !a.may_play()) {
        return Err(ApiError::new(
            Code::RatedNeedsAccount,
            "log in to join a rated game",
        ));
    }
    let open = row.game.open_seat().ok_or_else(taken)?;
    if let Some((lo, hi)) = row.game.rating_range {
        let speed = row.game.speed();
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
                Code::RatingOutOfRange,
                format!("this seek asks for a rating from {lo} to {hi}; {yours}"),
            ));
        }
    }
    let token = ids::seat_token();
    let (name, user) = player_name(&caller);
    let id = row.game.id.clone();
    let title = caller
        .account
        .as_ref()
        .filter(|_| user.is_some())
        .and_then(|a| a.user.title)
        .map(|t| t.as_str().to_owned());
    // The seat is the room's to give: it stores it (under its lease, in cluster mode) and
    // tells everyone before this answers, so the taker's first move finds it taken.
    let room = state
        .rooms
        .get(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("game"))?;
    let seat = TakeSeat {
        seat: SeatTaken {
            color: open,
            token: token.clone(),
            name: name.clone(),
            user: user.clone(),
        },
        title,
    };
    match room.take_seat(seat).await {
        Ok(_) => {}
        // The owner (another node) may have stored the seat and gone before it could say
        // so: the seat is the caller's if it holds the caller's token.
        Err(RoomError::Unavailable)
            if state
                .store
                .game(&id)
                .await?
                .is_some_and(|r| r.game.seat(open) == Some(token.as_str())) => {}
        Err(e) => return Err(e.into()),
    }
    // Both seats taken: the accounts' event streams hear that the game began.
    let mut started = row.game;
    started.id.clone_from(&id);
    match open {
        Color::White => (started.white_seat, started.white_user) = (Some(token.clone()), user),
        Color::Black => (started.black_seat, started.black_user) = (Some(token.clone()), user),
    }
    state.rooms.announce_start(&started);
    Ok(seated(
        id,
        open,
        name,
        &token,
        StatusCode::OK,
        state.secure(),
    ))
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
        time_control: row.game.time_control.to_pgn(),
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
        .ok_or_else(|| ApiError::new(Code::GameOver, "the game is over"))?;
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
            Ok(seated(id, !color, name, &token, status, state.secure()))
        }
    }
}

/// `POST /api/games/{id}/decline-rematch`: declines the opponent's rematch offer, or
/// withdraws one's own.
pub(crate) async fn decline_rematch(State(state): State<AppState>, player: Player) -> Json<Okay> {
    if let Some(room) = state.rooms.open_anywhere(&player.row.game.id) {
        room.tell(crate::room::Request::RematchDecline { by: player.color })
            .await;
    }
    Json(Okay { ok: true })
}

/// The most games the lobby's list shows: the seeks first, then the most watched games.
const LOBBY_LIST: usize = 100;

/// `GET /api/games`: what can be joined or watched now: public seeks whose creator's page is
/// open, and games under way.
pub(crate) async fn list(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
) -> Result<Json<Vec<Listed>>, ApiError> {
    let tr = super::pages::Tr::new(super::pages::Lang::of(&headers));
    let lobby = state.rooms.lobby();
    // The listed games only, at most LOBBY_LIST of them: a poll's cost does not grow with
    // every live game on the server.
    let ids: Vec<String> = lobby
        .listed(LOBBY_LIST)
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    let rows = state.store.games(&ids).await?;
    let now = now_ms() as i64;
    // Each account's rating, looked up once per request however many games it is in.
    let mut known: std::collections::HashMap<(String, Speed), String> =
        std::collections::HashMap::new();
    let mut out = Vec::new();
    for r in rows {
        if r.status != crate::store::Status::Live {
            continue;
        }
        let Some(listing) = lobby.get(&r.game.id) else {
            continue;
        };
        if !(listing.joinable() || listing.watchable()) {
            continue;
        }
        let speed = r.game.speed();
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
            time_control_words: super::pages::describe(tr, &r.game.time_control),
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
            time_control: r.game.time_control.to_pgn(),
        });
    }
    Ok(Json(out))
}
