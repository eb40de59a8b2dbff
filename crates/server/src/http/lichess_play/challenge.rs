//! lichess's challenges: make, list, accept or decline, and the AI challenge.

use super::*;

pub(super) async fn party(
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
pub(super) fn days_of(f: &HashMap<String, String>) -> Result<Option<u32>, ApiError> {
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
pub(super) fn clock_of(f: &HashMap<String, String>) -> Result<AskedClock, ApiError> {
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

pub(super) fn truthy(f: &HashMap<String, String>, key: &str) -> bool {
    f.get(key).is_some_and(|v| v == "true" || v == "1")
}

/// `POST /api/challenge/{username}`: challenges an account. Fields as lichess: `rated`,
/// `clock.limit`, `clock.increment` (seconds), `color` (`white`, `black`, `random`),
/// `variant` (`standard` only), `fen`.
pub(crate) async fn challenge(
    State(state): State<AppState>,
    caller: Caller,
    crate::http::Origin(origin): crate::http::Origin,
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
    standard_only(&f)?;
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
    // Replaced (an earlier challenge to the same account, or the oldest past the cap):
    // their other side hears them cancelled.
    for old in state.challenges.add(&c).await? {
        tell_cancelled(&state, &old, &origin, &old.dest.id);
    }
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
    crate::http::Origin(origin): crate::http::Origin,
) -> Result<Json<Value>, ApiError> {
    let me = account(&caller)?;
    // Issue 50: a token reads challenges only with lichess's scope for it.
    super::scope(me, &["challenge:read"])?;
    let (incoming, outgoing) = state.challenges.of(&me.user.id, now_ms() as i64).await?;
    Ok(Json(json!({
        "in": incoming.iter().map(|c| c.json(&origin, Some("in"))).collect::<Vec<_>>(),
        "out": outgoing.iter().map(|c| c.json(&origin, Some("out"))).collect::<Vec<_>>(),
    })))
}

/// `POST /api/challenge/{id}/{accept|decline|cancel}`.
pub(crate) async fn answer(
    State(state): State<AppState>,
    caller: Caller,
    crate::http::Origin(origin): crate::http::Origin,
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
            let other = if c.challenger.id == mine {
                &c.dest.id
            } else {
                &c.challenger.id
            };
            tell_cancelled(&state, &c, &origin, other);
            Ok(ok())
        }
        "accept" | "decline" | "cancel" => Err(ApiError::new(
            Code::NoSeat,
            "this challenge is not yours to answer",
        )),
        _ => Err(ApiError::not_found("action")),
    }
}

/// Tells `to`'s event stream that challenge `c` is cancelled.
fn tell_cancelled(state: &AppState, c: &Challenge, origin: &str, to: &str) {
    let mut v = c.json(origin, Some("in"));
    v["status"] = json!("canceled");
    state.rooms.events().send(
        to,
        UserEvent::Challenge(std::sync::Arc::new(
            json!({ "type": "challengeCanceled", "challenge": v }),
        )),
    );
}

/// Makes the game of an accepted challenge, both seats taken, under the challenge's id; the
/// accounts' event streams hear `gameStart` from the rooms.
pub(super) async fn start_game(state: &AppState, c: &Challenge) -> Result<String, ApiError> {
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
    Ok(Json(json!({
        "id": made.id,
        "variant": { "key": "standard", "name": "Standard", "short": "Std" },
        "speed": crate::http::lichess::speed_of(&control),
        "perf": crate::http::lichess::speed_of(&control),
        "rated": false,
        "fen": start.fen(),
        "turns": 0,
        "source": "ai",
        "status": { "id": 20, "name": "started" },
        "createdAt": made.created_at,
        "player": if white { "white" } else { "black" },
    })))
}
