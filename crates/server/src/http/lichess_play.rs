//! lichess's API for playing (docs/API.md, "lichess's API"): challenges, the Board API (a
//! person through a program) and the Bot API (an engine's account). Every move and every draw
//! offer goes to the game's room as a player's command, so the rules of docs/RULES.md decide
//! here as everywhere: an offer R5 refuses is refused with its reason.

use crate::refusal::Code;
use std::collections::HashMap;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, header};
use rookery_core::Color;
use rookery_core::clock::TimeControl;
use rookery_core::game::MoveText;
use rookery_core::rating::Speed;
use serde_json::{Value, json};

use super::AppState;
use super::error::ApiError;
use super::identity::{Account, Caller, Via};
use super::lichess::{seat_of, speed_key};
use crate::accounts::Title;
use crate::challenges::{AskedClock, Challenge, Party, control_of};
use crate::events::UserEvent;
use crate::ids;
use crate::new_game::{ColorChoice, GameSpec, SeatSpec, Source, make, parse_range, parse_start};
use crate::protocol::Action;
use crate::store::GameRow;
use crate::wallclock::now_ms;

/// A request's fields, from a JSON object or a form (lichess takes both): every value as
/// text (`true`, `300`), nulls left out.
pub(crate) fn fields(
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<HashMap<String, String>, ApiError> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json"));
    if json {
        let v: serde_json::Map<String, Value> = serde_json::from_slice(body)
            .map_err(|e| ApiError::new(Code::BadRequest, format!("the JSON body: {e}")))?;
        Ok(v.into_iter()
            .filter_map(|(k, v)| match v {
                Value::Null => None,
                Value::String(s) => Some((k, s)),
                other => Some((k, other.to_string())),
            })
            .collect())
    } else if body.is_empty() {
        Ok(HashMap::new())
    } else {
        serde_urlencoded::from_bytes(body)
            .map_err(|e| ApiError::new(Code::BadRequest, format!("the form: {e}")))
    }
}

fn scope(account: &Account, wanted: &[&str]) -> Result<(), ApiError> {
    let ok = match &account.via {
        Via::Session(_) => true,
        Via::Token { scopes, .. } => scopes.split(',').any(|s| wanted.contains(&s)),
    };
    if ok {
        Ok(())
    } else {
        Err(ApiError::new(
            Code::NotAllowed,
            format!("this token lacks the scope: {}", wanted.join(" or ")),
        ))
    }
}

/// The caller's account, which every lichess endpoint needs (401 without one).
pub(crate) fn account(caller: &Caller) -> Result<&Account, ApiError> {
    caller.account.as_ref().ok_or_else(|| {
        ApiError::new(
            Code::BadToken,
            "this needs an API token (Authorization: Bearer) or a session",
        )
    })
}

fn is_bot(account: &Account) -> bool {
    account.user.title == Some(Title::Bot)
}

async fn party(
    state: &AppState,
    user: &crate::store::accounts::User,
    speed: Option<Speed>,
) -> Result<Party, ApiError> {
    let (rating, provisional) = match speed {
        Some(speed) => {
            let g = state
                .store
                .rating_at(&user.id, speed, now_ms() as i64)
                .await?;
            (Some(g.rating.round() as i64), g.provisional())
        }
        None => (None, false),
    };
    Ok(Party {
        id: user.id.clone(),
        name: user.name.clone(),
        title: user.title.map(|t| t.as_str().to_owned()),
        rating,
        provisional,
    })
}

/// Days a move of a request's `days` field (correspondence, lichess's 1, 2, 3, 5, 7, 10 or
/// 14); none without it.
fn days_of(f: &HashMap<String, String>) -> Result<Option<u32>, ApiError> {
    let Some(text) = f.get("days") else {
        return Ok(None);
    };
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|d| rookery_core::clock::CORRESPONDENCE_DAYS.contains(d))
        .map(Some)
        .ok_or_else(|| {
            ApiError::new(
                Code::BadTimeControl,
                format!(
                    "days: {text:?}: a correspondence game has 1, 2, 3, 5, 7, 10 or 14 days a move"
                ),
            )
        })
}

/// The clock of a challenge's fields: `clock.limit` and `clock.increment` in seconds, or
/// `days` a move (correspondence); neither: no clock.
fn clock_of(f: &HashMap<String, String>) -> Result<AskedClock, ApiError> {
    let number = |key: &str| -> Result<Option<u64>, ApiError> {
        f.get(key)
            .map(|v| {
                v.parse::<u64>().map_err(|_| {
                    ApiError::new(
                        Code::BadTimeControl,
                        format!("{key}: {v:?} is not a number of seconds"),
                    )
                })
            })
            .transpose()
    };
    let days = days_of(f)?;
    let clock = match (number("clock.limit")?, number("clock.increment")?) {
        (None, None) => None,
        (limit, increment) => {
            let (limit, increment) = (limit.unwrap_or(0), increment.unwrap_or(0));
            if limit == 0 && increment == 0 || limit > 10_800 || increment > 180 {
                return Err(ApiError::new(
                    Code::BadTimeControl,
                    "clock.limit 0-10800 s and clock.increment 0-180 s, not both 0",
                ));
            }
            Some((limit, increment))
        }
    };
    if clock.is_some() && days.is_some() {
        return Err(ApiError::new(
            Code::BadTimeControl,
            "give either a clock (clock.limit, clock.increment) or days, not both",
        ));
    }
    Ok((clock, days))
}

fn truthy(f: &HashMap<String, String>, key: &str) -> bool {
    f.get(key).is_some_and(|v| v == "true" || v == "1")
}

/// `POST /api/challenge/{username}`: challenges an account. Fields as lichess: `rated`,
/// `clock.limit`, `clock.increment` (seconds), `color` (`white`, `black`, `random`),
/// `variant` (`standard` only), `fen`.
pub(crate) async fn challenge(
    State(state): State<AppState>,
    caller: Caller,
    super::Origin(origin): super::Origin,
    Path(username): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let me = account(&caller)?;
    scope(me, &["challenge:write", "board:play", "bot:play"])?;
    let f = fields(&headers, &body)?;
    if !crate::store::storable(&username) {
        return Err(ApiError::not_found("user"));
    }
    let dest = state
        .store
        .user(&username)
        .await?
        .filter(|u| u.closed_at.is_none())
        .ok_or_else(|| ApiError::not_found("user"))?;
    if dest.id == me.user.id {
        return Err(ApiError::new(
            Code::BadRequest,
            "you cannot challenge yourself",
        ));
    }
    if f.get("variant").is_some_and(|v| v != "standard") {
        return Err(ApiError::new(
            Code::BadRequest,
            "only standard chess is played here",
        ));
    }
    let (clock, days) = clock_of(&f)?;
    let fen = f
        .get("fen")
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty());
    let color = ColorChoice::parse(f.get("color").map(String::as_str))?;
    let speed = Speed::of_control(&control_of((clock, days)));
    let c = Challenge {
        id: ids::game_id(),
        challenger: party(&state, &me.user, speed).await?,
        dest: party(&state, &dest, speed).await?,
        rated: truthy(&f, "rated"),
        clock,
        days,
        color: color.as_str().to_owned(),
        fen,
        created_at: now_ms() as i64,
        speed: speed.map_or("correspondence", speed_key).to_owned(),
    };
    // The game it asks for passes every check now, as it will when it is accepted.
    c.spec()?.validate()?;
    state.challenges.add(&c).await?;
    state.rooms.events().send(
        &dest.id,
        UserEvent::Challenge(std::sync::Arc::new(
            json!({ "type": "challenge", "challenge": c.json(&origin, Some("in")) }),
        )),
    );
    Ok(Json(c.json(&origin, Some("out"))))
}

/// `GET /api/challenge`: the caller's challenges, `{"in": [...], "out": [...]}`.
pub(crate) async fn challenges(
    State(state): State<AppState>,
    caller: Caller,
    super::Origin(origin): super::Origin,
) -> Result<Json<Value>, ApiError> {
    let me = account(&caller)?;
    let (incoming, outgoing) = state.challenges.of(&me.user.id, now_ms() as i64).await?;
    Ok(Json(json!({
        "in": incoming.iter().map(|c| c.json(&origin, Some("in"))).collect::<Vec<_>>(),
        "out": outgoing.iter().map(|c| c.json(&origin, Some("out"))).collect::<Vec<_>>(),
    })))
}

fn ok() -> Json<Value> {
    Json(json!({ "ok": true }))
}

/// `POST /api/challenge/{id}/{accept|decline|cancel}`.
pub(crate) async fn answer(
    State(state): State<AppState>,
    caller: Caller,
    super::Origin(origin): super::Origin,
    Path((id, what)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let me = account(&caller)?;
    scope(me, &["challenge:write", "board:play", "bot:play"])?;
    let now = now_ms() as i64;
    let c = state
        .challenges
        .get(&id, now)
        .await?
        .ok_or_else(|| ApiError::not_found("challenge"))?;
    let mine = me.user.id.as_str();
    match what.as_str() {
        "accept" if c.dest.id == mine => {
            let c = state
                .challenges
                .take(&id, now)
                .await?
                .ok_or_else(|| ApiError::not_found("challenge"))?;
            start_game(&state, &c).await?;
            Ok(ok())
        }
        "decline" if c.dest.id == mine => {
            if state.challenges.take(&id, now).await?.is_none() {
                return Err(ApiError::not_found("challenge"));
            }
            let reason = fields(&headers, &body)?
                .get("reason")
                .cloned()
                .unwrap_or_else(|| "generic".to_owned());
            let mut v = c.json(&origin, Some("out"));
            v["status"] = json!("declined");
            v["declineReasonKey"] = json!(reason);
            v["declineReason"] = json!(format!(
                "{} declined the challenge ({reason}).",
                c.dest.name
            ));
            state.rooms.events().send(
                &c.challenger.id,
                UserEvent::Challenge(std::sync::Arc::new(
                    json!({ "type": "challengeDeclined", "challenge": v }),
                )),
            );
            Ok(ok())
        }
        "cancel" if c.challenger.id == mine || c.dest.id == mine => {
            if state.challenges.take(&id, now).await?.is_none() {
                return Err(ApiError::not_found("challenge"));
            }
            let mut v = c.json(&origin, Some("in"));
            v["status"] = json!("canceled");
            let other = if c.challenger.id == mine {
                &c.dest.id
            } else {
                &c.challenger.id
            };
            state.rooms.events().send(
                other,
                UserEvent::Challenge(std::sync::Arc::new(
                    json!({ "type": "challengeCanceled", "challenge": v }),
                )),
            );
            Ok(ok())
        }
        "accept" | "decline" | "cancel" => Err(ApiError::new(
            Code::NoSeat,
            "this challenge is not yours to answer",
        )),
        _ => Err(ApiError::not_found("action")),
    }
}

/// Makes the game of an accepted challenge, both seats taken, under the challenge's id; the
/// accounts' event streams hear `gameStart` from the rooms.
async fn start_game(state: &AppState, c: &Challenge) -> Result<String, ApiError> {
    Ok(make(&state.rooms, c.spec()?).await?.id)
}

/// `POST /api/challenge/ai`: a game against the built-in bot of `level` (1-8), started at
/// once; answers the game as lichess does (`id`, `fen`, `player`, ...).
pub(crate) async fn challenge_ai(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let me = account(&caller)?;
    scope(me, &["challenge:write", "board:play", "bot:play"])?;
    let f = fields(&headers, &body)?;
    let level = f
        .get("level")
        .and_then(|l| l.parse::<u8>().ok())
        .and_then(rookery_engine::Level::new)
        .ok_or_else(|| ApiError::new(Code::BadRequest, "level: 1 to 8"))?;
    let control = control_of(clock_of(&f)?);
    let start = parse_start(f.get("fen").map(String::as_str))?;
    let color = ColorChoice::parse(f.get("color").map(String::as_str))?.resolve();
    let me_seat = SeatSpec::person(me.user.name.clone(), Some(me.user.id.clone()));
    let seats = GameSpec::seats_for(color, me_seat, SeatSpec::Bot(level));
    let mut spec = GameSpec::new(Source::Ai, seats, control.clone());
    spec.start = start;
    let made = make(&state.rooms, spec).await?;
    let white = color == Color::White;
    let pgn_control = control.to_pgn();
    Ok(Json(json!({
        "id": made.id,
        "variant": { "key": "standard", "name": "Standard", "short": "Std" },
        "speed": super::lichess::speed_of(&pgn_control),
        "perf": super::lichess::speed_of(&pgn_control),
        "rated": false,
        "fen": start.fen(),
        "turns": 0,
        "source": "ai",
        "status": { "id": 20, "name": "started" },
        "createdAt": made.created_at,
        "player": if white { "white" } else { "black" },
    })))
}

/// Which API a play request came through: the Board API (people) or the Bot API (BOT
/// accounts only), as lichess keeps them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Door {
    Board,
    Bot,
}

/// The game and the caller's color in it, for a play request through `door`.
pub(crate) async fn seat(
    state: &AppState,
    caller: &Caller,
    id: &str,
    door: Door,
) -> Result<(GameRow, Color), ApiError> {
    let me = account(caller)?;
    match door {
        Door::Board => scope(me, &["board:play"])?,
        Door::Bot => scope(me, &["bot:play"])?,
    }
    if (door == Door::Bot) != is_bot(me) {
        return Err(ApiError::new(
            Code::NotAllowed,
            if door == Door::Bot {
                "the Bot API is for BOT accounts (POST /api/bot/account/upgrade)"
            } else {
                "a BOT account plays through the Bot API"
            },
        ));
    }
    if !crate::store::storable(id) {
        return Err(ApiError::not_found("game"));
    }
    let row = state
        .store
        .game(id)
        .await?
        .ok_or_else(|| ApiError::not_found("game"))?;
    let color = seat_of(&row, &me.user.id)
        .ok_or_else(|| ApiError::new(Code::NoSeat, "you do not play in this game"))?;
    Ok((row, color))
}

async fn apply(
    state: &AppState,
    row: &GameRow,
    color: Color,
    action: Action,
) -> Result<Json<Value>, ApiError> {
    let room = state
        .rooms
        .get(&row.game.id)
        .await?
        .ok_or_else(|| ApiError::new(Code::GameOver, "the game is over"))?;
    room.apply(action.by(color)).await?;
    Ok(ok())
}

#[derive(Debug, serde::Deserialize)]
pub(crate) struct MoveQuery {
    #[serde(rename = "offeringDraw", default)]
    offering_draw: Option<String>,
}

async fn play_move(
    state: &AppState,
    caller: &Caller,
    id: &str,
    uci: String,
    q: MoveQuery,
    door: Door,
) -> Result<Json<Value>, ApiError> {
    let (row, color) = seat(state, caller, id, door).await?;
    let action = Action::Move {
        text: MoveText::Uci(uci),
        offer_draw: q.offering_draw.as_deref() == Some("true"),
        timing: Default::default(),
    };
    apply(state, &row, color, action).await
}

/// `POST /api/board/game/{id}/move/{uci}?offeringDraw=true`.
pub(crate) async fn board_move(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, uci)): Path<(String, String)>,
    Query(q): Query<MoveQuery>,
) -> Result<Json<Value>, ApiError> {
    play_move(&state, &caller, &id, uci, q, Door::Board).await
}

/// `POST /api/bot/game/{id}/move/{uci}?offeringDraw=true`.
pub(crate) async fn bot_move(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, uci)): Path<(String, String)>,
    Query(q): Query<MoveQuery>,
) -> Result<Json<Value>, ApiError> {
    play_move(&state, &caller, &id, uci, q, Door::Bot).await
}

/// The action of a play path's last part: `abort`, `resign`, `claim-victory`, `draw/yes`,
/// `draw/no`; a take-back is refused (a move once made stands, 落子无悔).
async fn act(
    state: &AppState,
    caller: &Caller,
    id: &str,
    what: &str,
    door: Door,
) -> Result<Json<Value>, ApiError> {
    let (row, color) = seat(state, caller, id, door).await?;
    let action = match what.trim_end_matches('/') {
        "abort" => Action::Abort,
        "resign" => Action::Resign,
        "claim-victory" => Action::ClaimVictory,
        // The room decides: accept a standing offer, else offer (R5).
        "draw/yes" => Action::AgreeDraw,
        "draw/no" => Action::DeclineDraw,
        t if t.starts_with("takeback/") => {
            return Err(ApiError::new(
                Code::IllegalMove,
                "no take-backs here: a move once made stands (落子无悔)",
            ));
        }
        _ => return Err(ApiError::not_found("action")),
    };
    apply(state, &row, color, action).await
}

/// `POST /api/board/game/{id}/{action}` (and `draw/{yes|no}`).
pub(crate) async fn board_action(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, what)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    act(&state, &caller, &id, &what, Door::Board).await
}

/// `POST /api/board/game/{id}/{draw|takeback}/{yes|no}`.
pub(crate) async fn board_answer(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, what, answer)): Path<(String, String, String)>,
) -> Result<Json<Value>, ApiError> {
    act(
        &state,
        &caller,
        &id,
        &format!("{what}/{answer}"),
        Door::Board,
    )
    .await
}

/// `POST /api/bot/game/{id}/{action}`.
pub(crate) async fn bot_action(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, what)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    act(&state, &caller, &id, &what, Door::Bot).await
}

/// `POST /api/bot/game/{id}/{draw|takeback}/{yes|no}`.
pub(crate) async fn bot_answer(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, what, answer)): Path<(String, String, String)>,
) -> Result<Json<Value>, ApiError> {
    act(&state, &caller, &id, &format!("{what}/{answer}"), Door::Bot).await
}

/// `POST /api/bot/account/upgrade`: an account that has played no game becomes a BOT.
pub(crate) async fn upgrade(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<Value>, ApiError> {
    let me = account(&caller)?;
    scope(me, &["bot:play"])?;
    if is_bot(me) {
        return Ok(ok());
    }
    let record = state
        .store
        .record_of(crate::store::accounts::Whose::Account(&me.user.id))
        .await?;
    let live = state
        .store
        .live_games()
        .await?
        .iter()
        .any(|r| seat_of(r, &me.user.id).is_some());
    if record.won + record.drawn + record.lost > 0 || live {
        return Err(ApiError::new(
            Code::BadRequest,
            "only an account that has played no game can become a BOT",
        ));
    }
    state.store.set_title(&me.user.id, Some(Title::Bot)).await?;
    Ok(ok())
}

/// `GET /api/bot/online`: BOT accounts with an event stream open, NDJSON as lichess.
pub(crate) async fn bots_online(
    State(state): State<AppState>,
) -> Result<axum::response::Response, ApiError> {
    let mut lines = String::new();
    for user in state.store.users_titled(Title::Bot).await? {
        if state.online.is_online(&user.id) {
            lines.push_str(
                &json!({ "id": user.id, "username": user.name, "title": "BOT" }).to_string(),
            );
            lines.push('\n');
        }
    }
    Ok(axum::response::IntoResponse::into_response((
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        lines,
    )))
}

/// `POST /api/board/seek`: a public seek (`time` in minutes, `increment` in seconds, `rated`,
/// `color`, `ratingRange`), listed in the lobby while this request stays open (its keep-alive
/// lines hold it); the answer ends once someone takes the seat (the event stream hears
/// `gameStart`). A seek whose request closes first is withdrawn: the waiting game is aborted.
pub(crate) async fn seek(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    body: Bytes,
) -> Result<axum::response::Response, ApiError> {
    let me = account(&caller)?.clone();
    scope(&me, &["board:play"])?;
    if is_bot(&me) {
        return Err(ApiError::new(
            Code::NotAllowed,
            "a BOT plays by challenge, not by seek",
        ));
    }
    let f = fields(&headers, &body)?;
    let control = match days_of(&f)? {
        Some(days) => TimeControl::Correspondence(days),
        None => {
            let minutes: f64 = f
                .get("time")
                .and_then(|t| t.parse().ok())
                .filter(|t: &f64| *t > 0.0 && *t <= 180.0)
                .ok_or_else(|| {
                    ApiError::new(Code::BadTimeControl, "time: minutes, more than 0 (or days)")
                })?;
            let increment: u64 = f
                .get("increment")
                .map(|i| {
                    i.parse()
                        .map_err(|_| ApiError::new(Code::BadTimeControl, "increment: seconds"))
                })
                .transpose()?
                .unwrap_or(0);
            TimeControl::fischer(
                std::time::Duration::from_secs_f64(minutes * 60.0),
                std::time::Duration::from_secs(increment.min(180)),
            )
        }
    };
    let color = ColorChoice::parse(f.get("color").map(String::as_str))?.resolve();
    let me_seat = SeatSpec::person(me.user.name.clone(), Some(me.user.id.clone()));
    let mut spec = GameSpec::new(
        Source::Seek,
        GameSpec::seats_for(color, me_seat, SeatSpec::Open),
        control,
    );
    spec.listed = true;
    spec.rated = truthy(&f, "rated");
    spec.rating_range = parse_range(f.get("ratingRange").map_or("", String::as_str))?;
    let made = make(&state.rooms, spec).await?;
    let room = state
        .rooms
        .get(&made.id)
        .await?
        .ok_or_else(|| ApiError::not_found("game"))?;
    let mut sub = room
        .subscribe(u64::MAX)
        .await
        .map_err(|_| ApiError::not_found("game"))?;
    let (tx, rx) = tokio::sync::mpsc::channel::<String>(4);
    tokio::spawn(async move {
        // The open request is the seeker's presence: the lobby lists the seek while it lasts.
        room.presence(color, true).await;
        let taken = loop {
            tokio::select! {
                event = sub.feed.recv() => match event {
                    Ok(e) if matches!(e.event, crate::room::RoomEvent::Seated { .. }) => break true,
                    Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break false,
                },
                () = tx.closed() => break false,
            }
        };
        room.presence(color, false).await;
        if !taken {
            let _ = room.apply(Action::Abort.by(color)).await;
        }
        drop(tx);
    });
    Ok(super::lichess_stream::ndjson(rx))
}
