//! lichess's NDJSON streams (docs/API.md, "lichess's API"): an account's events
//! (`/api/stream/event`: `gameStart`, `gameFinish`, challenges) and a game's, for the Board and
//! Bot APIs (`/api/board/game/stream/{id}`, `/api/bot/game/stream/{id}`: `gameFull`, then
//! `gameState` on every change, `opponentGone`). One JSON object a line, and an empty line
//! every few seconds to keep the connection open. A game stream ends with its game; while it
//! is open it counts as the player's presence (a Board API player is not "gone").

use crate::refusal::Code;
use std::convert::Infallible;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use rookery_core::game::{Event, Game, Termination};
use rookery_core::pgn::GameResult;
use rookery_core::{ByColor, Color, Position};
use serde_json::{Value, json};
use tokio::sync::{broadcast, mpsc};

use super::AppState;
use super::error::ApiError;
use super::identity::Caller;
use super::lichess::{game_info, seat_of, speed_of};
use crate::events::UserEvent;
use crate::room::RoomEvent;
use crate::store::GameRow;
use crate::wallclock::now_ms;

/// How often an idle stream sends an empty line.
const KEEP_ALIVE: Duration = Duration::from_secs(6);

/// A finished NDJSON answer: each value on a line of its own (lists and results, not
/// streams).
pub(crate) fn json_lines(values: impl IntoIterator<Item = Value>) -> Response {
    let mut out = String::new();
    for v in values {
        out.push_str(&v.to_string());
        out.push('\n');
    }
    ([(header::CONTENT_TYPE, "application/x-ndjson")], out).into_response()
}

/// An NDJSON answer fed by `lines` (each one JSON text), with keep-alive newlines.
pub(crate) fn ndjson(lines: mpsc::Receiver<String>) -> Response {
    let mut ticker = tokio::time::interval(KEEP_ALIVE);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let stream = futures_util::stream::unfold((lines, ticker), |(mut lines, mut ticker)| async {
        let chunk = tokio::select! {
            line = lines.recv() => match line {
                Some(mut line) => {
                    line.push('\n');
                    line
                }
                None => return None,
            },
            _ = ticker.tick() => "\n".to_owned(),
        };
        Some((Ok::<_, Infallible>(Bytes::from(chunk)), (lines, ticker)))
    });
    (
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(stream),
    )
        .into_response()
}

/// The caller's account id, if its session, or its token with one of `wanted` (issue 50: a
/// `preference:read` token opened the event and game streams).
fn need_user_with(caller: &Caller, wanted: &[&str]) -> Result<String, ApiError> {
    let account = super::lichess_play::account(caller)?;
    super::lichess_play::scope(account, wanted)?;
    Ok(account.user.id.clone())
}

/// What the caller's stream was opened with (closed when it is revoked).
fn credential_of(caller: &Caller) -> Option<crate::events::Credential> {
    caller
        .account
        .as_ref()
        .map(super::identity::Account::credential)
}

/// lichess's status name of a game (`started`, `mate`, `resign`, ...).
pub(crate) fn status_name(game: &Game) -> &'static str {
    status_of(game.result())
}

/// lichess's status name of a game's end (`None`: under way).
fn status_of(end: Option<(GameResult, Termination)>) -> &'static str {
    match end {
        None => "started",
        Some((result, termination)) => match termination {
            Termination::Checkmate => "mate",
            Termination::Resignation => "resign",
            Termination::Stalemate => "stalemate",
            Termination::Aborted => "aborted",
            Termination::Abandonment => "timeout",
            Termination::TimeForfeit if result == GameResult::Draw => "draw",
            Termination::TimeForfeit => "outoftime",
            Termination::Unterminated => "unknownFinish",
            _ => "draw",
        },
    }
}

fn winner(game: &Game) -> Option<&'static str> {
    winner_of(game.result()?.0)
}

fn winner_of(result: GameResult) -> Option<&'static str> {
    match result {
        GameResult::WhiteWins => Some("white"),
        GameResult::BlackWins => Some("black"),
        _ => None,
    }
}

/// A game's `gameState`: its moves (UCI), clocks and increments in ms, status, winner, and
/// the standing draw offer.
pub(crate) fn game_state(game: &Game) -> Value {
    Told::of(game).state()
}

/// What a game stream has told of its game, folded from the room's events (STYLE.md 16): each
/// event carries what changes (a move's UCI and clocks, an offer made or declined, the end),
/// so the stream never asks the room for the game again — on another node that would be a
/// request and a full replay for every event.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Told {
    moves: Vec<String>,
    /// Time left, as of the last event that said.
    clocks: ByColor<Option<Duration>>,
    increments: ByColor<u64>,
    status: &'static str,
    winner: Option<&'static str>,
    /// The side whose draw offer stands.
    offer: Option<Color>,
    /// Each side went berserk (lichess's `wberserk`, `bberserk`).
    berserk: ByColor<bool>,
}

impl Told {
    fn of(game: &Game) -> Told {
        Told {
            moves: game
                .moves()
                .iter()
                .map(|m| m.m.to_uci().to_string())
                .collect(),
            clocks: game.clocks_at(now_ms()),
            increments: ByColor::new_with(|c| game.clock().per_move(c).as_millis() as u64),
            status: status_name(game),
            winner: winner(game),
            offer: game.draw_offer(),
            berserk: ByColor::new_with(|c| game.clock().is_berserk(c)),
        }
    }

    /// Takes in one game event, with its moment: the clocks, the standing offer and the end
    /// after the command that caused it (a move made with an offer, or a mating move, tells
    /// it all at once, as lichess sends one `gameState` for it).
    fn fold(&mut self, event: &Event, moment: Option<&crate::room::Moment>) {
        match event {
            Event::MovePlayed { uci, clocks, .. } => {
                self.moves.push(uci.clone());
                self.clocks = *clocks;
            }
            Event::DrawOffered { by } => self.offer = Some(*by),
            Event::DrawDeclined { .. } => self.offer = None,
            Event::Berserked { by } => {
                self.berserk[*by] = true;
                self.increments[*by] = 0;
            }
            // The clocks, as lichess's gameState after "+15 seconds" says them.
            Event::TimeGiven { clocks, .. } => self.clocks = *clocks,
            Event::GameOver {
                result,
                termination,
            } => {
                self.status = status_of(Some((*result, *termination)));
                self.winner = winner_of(*result);
            }
        }
        if let Some(m) = moment {
            self.clocks = m.clocks;
            self.offer = m.offer;
            if let Some((result, termination)) = m.end {
                self.status = status_of(Some((result, termination)));
                self.winner = winner_of(result);
            }
        }
    }

    fn is_over(&self) -> bool {
        self.status != "started"
    }

    fn state(&self) -> Value {
        // Untimed games: lichess's figure for "no clock".
        let far = u64::from(i32::MAX as u32);
        let ms = |c: Color| self.clocks[c].map_or(far, |d| d.as_millis() as u64);
        let mut v = json!({
            "type": "gameState",
            "moves": self.moves.join(" "),
            "wtime": ms(Color::White),
            "btime": ms(Color::Black),
            "winc": self.increments.white,
            "binc": self.increments.black,
            "status": self.status,
        });
        if let Some(w) = self.winner {
            v["winner"] = json!(w);
        }
        if self.berserk.white {
            v["wberserk"] = json!(true);
        }
        if self.berserk.black {
            v["bberserk"] = json!(true);
        }
        match self.offer {
            Some(Color::White) => v["wdraw"] = json!(true),
            Some(Color::Black) => v["bdraw"] = json!(true),
            None => {}
        }
        v
    }

    /// What makes one `gameState` news after another: the moves, the status and the offers
    /// (not the clocks, which run).
    fn key(&self) -> (usize, &'static str, Option<Color>) {
        (self.moves.len(), self.status, self.offer)
    }
}

/// A game's `gameFull`: who plays, the clock, the start, and its state.
async fn game_full(state: &AppState, row: &GameRow, game: &Game) -> Result<Value, ApiError> {
    let now = now_ms() as i64;
    let speed = speed_of(&row.game.time_control);
    let mut players = ByColor::<Value>::default();
    for color in [Color::White, Color::Black] {
        let user = match color {
            Color::White => &row.game.white_user,
            Color::Black => &row.game.black_user,
        };
        let title = match color {
            Color::White => row.white_title,
            Color::Black => row.black_title,
        };
        let mut p = json!({ "name": row.game.name(color) });
        match user {
            Some(id) => {
                p["id"] = json!(id);
                if let Some(speed) = row.game.speed() {
                    let r = state.store.rating_at(id, speed, now).await?;
                    p["rating"] = json!(r.rating.round() as i64);
                    if r.provisional() {
                        p["provisional"] = json!(true);
                    }
                }
            }
            None => p["id"] = Value::Null,
        }
        if let Some(t) = title {
            p["title"] = json!(t.as_str());
        }
        if let Some(level) = match color {
            Color::White => row.game.white_bot,
            Color::Black => row.game.black_bot,
        } {
            p = json!({ "aiLevel": level });
        }
        *players.get_mut(color) = p;
    }
    let mut v = json!({
        "type": "gameFull",
        "id": row.game.id,
        "variant": { "key": "standard", "name": "Standard", "short": "Std" },
        "speed": speed,
        "perf": { "name": speed },
        "rated": row.game.rated,
        "createdAt": row.game.created_at,
        "white": players.white,
        "black": players.black,
        "initialFen": if *game.start() == Position::new() {
            "startpos".to_owned()
        } else {
            game.start().fen()
        },
        "state": game_state(game),
    });
    if let rookery_core::clock::TimeControl::Periods(periods) = game.clock().control() {
        if let Some(first) = periods.first() {
            v["clock"] = json!({
                "initial": first.base.as_millis() as u64,
                "increment": first.increment.as_millis() as u64,
            });
        }
    }
    Ok(v)
}

/// A place for one more of `user`'s open streams: 429 past
/// [`super::limits::STREAMS_PER_ACCOUNT`] (issue 50: 20,000 streams from one token filled the
/// server's open files).
fn stream_place(state: &AppState, user: &str) -> Result<super::limits::Place, ApiError> {
    state.streams.take(user).ok_or_else(|| {
        ApiError::new(
            Code::RateLimited,
            format!(
                "this account has {} streams open already: close one first",
                super::limits::STREAMS_PER_ACCOUNT
            ),
        )
    })
}

/// `GET /api/stream/event`: the account's events, beginning with a `gameStart` for each of
/// its games under way.
pub(crate) async fn event_stream(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Response, ApiError> {
    // lichess: any of these scopes opens the event stream.
    let user = need_user_with(&caller, &["challenge:read", "board:play", "bot:play"])?;
    let credential = credential_of(&caller);
    let place = stream_place(&state, &user)?;
    // Listen first, so that nothing between the listing and the listening is missed.
    let mut hub = state.rooms.events().subscribe(&user);
    let (tx, rx) = mpsc::channel::<String>(64);
    // The account's own games (not every live game on the server, issue 50).
    let live: Vec<GameRow> = state
        .store
        .live_games_of(&user)
        .await?
        .into_iter()
        .filter(|r| r.game.open_seat().is_none())
        .collect();
    let pending = state.challenges.pending_for(&user).await?;
    tokio::spawn(async move {
        let _place = place;
        // While the stream is open the account is online (lichess: how bots show as online).
        let _here = state.online.enter(&user);
        for row in live {
            announce(&state, &tx, &row, &user).await;
        }
        for challenge in pending {
            if tx.send(challenge.to_string()).await.is_err() {
                return;
            }
        }
        loop {
            tokio::select! {
                event = hub.recv() => match event {
                    Ok(UserEvent::GameStart(id)) => {
                        if let Ok(Some(row)) = state.store.game(&id).await {
                            announce(&state, &tx, &row, &user).await;
                        }
                    }
                    Ok(UserEvent::Challenge(v)) => {
                        if tx.send(v.to_string()).await.is_err() {
                            return;
                        }
                    }
                    // Opened with a credential revoked since: the stream ends.
                    Ok(UserEvent::Revoked(r)) => {
                        if credential.as_ref().is_some_and(|c| r.covers(c)) {
                            return;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                () = tx.closed() => return,
            }
        }
    });
    Ok(ndjson(rx))
}

/// Sends `gameStart` for `row` to `user`'s stream, then watches the game to send
/// `gameFinish` when it ends.
async fn announce(state: &AppState, tx: &mpsc::Sender<String>, row: &GameRow, user: &str) {
    let Some(color) = seat_of(row, user) else {
        return;
    };
    let Ok(info) = game_info(state, row, color).await else {
        return;
    };
    if tx
        .send(json!({ "type": "gameStart", "game": info }).to_string())
        .await
        .is_err()
    {
        return;
    }
    let (state, tx, row) = (state.clone(), tx.clone(), row.clone());
    tokio::spawn(async move {
        let room = match state.rooms.get(&row.game.id).await {
            Ok(Some(room)) => room,
            // No room: the game is over already.
            Ok(None) => {
                finish(&state, &tx, &row, color).await;
                return;
            }
            Err(_) => return,
        };
        let Ok(mut sub) = room.subscribe(u64::MAX).await else {
            return;
        };
        let over = |game: &Game| game.is_over();
        if room.snapshot().await.is_ok_and(|s| over(&s.game)) {
            finish(&state, &tx, &row, color).await;
            return;
        }
        loop {
            tokio::select! {
                event = sub.feed.recv() => match event {
                    Ok(e) if matches!(e.event, RoomEvent::Game(Event::GameOver { .. })) => {
                        finish(&state, &tx, &row, color).await;
                        return;
                    }
                    Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                () = tx.closed() => return,
            }
        }
    });
}

async fn finish(state: &AppState, tx: &mpsc::Sender<String>, row: &GameRow, color: Color) {
    let Ok(Some(row)) = state.store.game(&row.game.id).await else {
        return;
    };
    let Ok((_, game)) = state.rooms.game_of(&row).await else {
        return;
    };
    let Ok(mut info) = game_info(state, &row, color).await else {
        return;
    };
    info["status"] = json!({ "name": status_name(&game) });
    if let Some(w) = winner(&game) {
        info["winner"] = json!(w);
    }
    let _ = tx
        .send(json!({ "type": "gameFinish", "game": info }).to_string())
        .await;
}

/// The room of game `id` again, subscribed, and its state: after a feed closed because the
/// game moved to another node. Tries for a few seconds (a takeover takes a few).
async fn follow(
    state: &AppState,
    id: &str,
) -> Option<(
    crate::room::RoomHandle,
    crate::room::Subscription,
    crate::room::Snapshot,
)> {
    for _ in 0..40 {
        if let Ok(Some(room)) = state.rooms.get(id).await {
            if let (Ok(sub), Ok(snapshot)) = (room.subscribe(u64::MAX).await, room.snapshot().await)
            {
                return Some((room, sub, snapshot));
            }
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    None
}

/// `GET /api/board/game/stream/{id}` and `/api/bot/game/stream/{id}`: `gameFull`, then a
/// `gameState` after every move, draw offer and end; `opponentGone` when the opponent's last
/// connection closes or one opens again. Only a player of the game may open it.
pub(crate) async fn game_stream(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let user = need_user_with(&caller, &["board:play", "bot:play"])?;
    let row = state
        .store
        .game(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("game"))?;
    let color = seat_of(&row, &user)
        .ok_or_else(|| ApiError::new(Code::NoSeat, "you do not play in this game"))?;
    let place = stream_place(&state, &user)?;
    let mut watch = caller
        .account
        .as_ref()
        .map(|a| state.rooms.events().watch(&user, a.credential()));
    let (tx, rx) = mpsc::channel::<String>(64);
    let Some(room) = state.rooms.get(&id).await? else {
        // A finished game: its whole state, and the stream ends.
        let (_, game) = state.rooms.game_of(&row).await?;
        let full = game_full(&state, &row, &game).await?;
        let _ = tx.send(full.to_string()).await;
        return Ok(ndjson(rx));
    };
    let sub = room
        .subscribe(u64::MAX)
        .await
        .map_err(|_| ApiError::not_found("game"))?;
    let snapshot = room
        .snapshot()
        .await
        .map_err(|_| ApiError::not_found("game"))?;
    let full = game_full(&state, &row, &snapshot.game).await?;
    tokio::spawn(async move {
        let _place = place;
        let (mut room, mut sub) = (room, sub);
        if tx.send(full.to_string()).await.is_err() || snapshot.game.is_over() {
            return;
        }
        // The stream is the player's presence while it is open.
        room.presence(color, true).await;
        // The game as told so far, from the snapshot; the feed's events after it are folded
        // in (those up to the snapshot's version are in it already).
        let mut told = Told::of(&snapshot.game);
        let mut known = snapshot.v;
        loop {
            tokio::select! {
                event = sub.feed.recv() => match event {
                    Ok(e) if e.v <= known => {}
                    Ok(e) => {
                        known = e.v;
                        let line = match &e.event {
                            RoomEvent::Game(event) => {
                                let before = told.key();
                                told.fold(event, e.moment.as_ref());
                                (told.key() != before).then(|| (told.state(), told.is_over()))
                            }
                            RoomEvent::Chat(line)
                                if line.room == crate::store::chat::ChatRoom::Players =>
                            {
                                let v = json!({
                                    "type": "chatLine",
                                    "room": "player",
                                    "username": line.name,
                                    "text": line.text,
                                });
                                Some((v, false))
                            }
                            RoomEvent::Presence { color: who, connected, claim_after } if *who != color => {
                                let mut v = json!({ "type": "opponentGone", "gone": !connected });
                                if !connected {
                                    v["claimWinInSeconds"] = json!(claim_after.as_secs());
                                }
                                Some((v, false))
                            }
                            _ => None,
                        };
                        if let Some((v, over)) = line {
                            if tx.send(v.to_string()).await.is_err() || over {
                                break;
                            }
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => {
                        // The game moved to another node (cluster mode): follow it there,
                        // with the state as it stands there if it changed meanwhile.
                        let Some((r, s, snapshot)) = follow(&state, &id).await else {
                            break;
                        };
                        (room, sub) = (r, s);
                        let now = Told::of(&snapshot.game);
                        known = snapshot.v;
                        if now.key() != told.key() {
                            told = now;
                            if tx.send(told.state().to_string()).await.is_err() || told.is_over() {
                                break;
                            }
                        }
                        room.presence(color, true).await;
                    }
                },
                () = tx.closed() => break,
                () = crate::events::Watch::revoked(&mut watch) => break,
            }
        }
        room.presence(color, false).await;
    });
    Ok(ndjson(rx))
}
