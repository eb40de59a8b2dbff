//! A player's page: games, ratings and charts, ladder standing, games waiting for their move.

use super::*;

#[derive(Debug)]
pub(super) struct PlayerGame {
    id: String,
    date: String,
    white: String,
    white_title: Option<&'static str>,
    black: String,
    black_title: Option<&'static str>,
    result: String,
    time_control: String,
    /// The opening's ECO code and name.
    opening: Option<(&'static str, &'static str)>,
}

/// What a player page says of an account.
#[derive(Debug)]
pub(super) struct Member {
    since: String,
    seen: String,
    online: bool,
    closed: bool,
    title: Option<(&'static str, &'static str)>,
    /// Each speed played rated: its name, the rating as shown (`1500?` while provisional),
    /// the games.
    ratings: Vec<(String, String, i64)>,
    /// Ladder points as shown, the class, and whether the figures are still settling (the
    /// first 50 ladder games, seed 004).
    ladder: (String, String, bool),
    /// Each speed's rating history.
    charts: Vec<crate::http::charts::RatingChart>,
    /// Whether the reader follows this account (`None`: no reader, or the account itself).
    following: Option<bool>,
    /// The last 30 days, the latest first: the date and what was done, in words.
    activity: Vec<(String, Vec<String>)>,
}

#[derive(Template)]
#[template(path = "player.html")]
pub(super) struct PlayerPage {
    tr: Tr,
    chrome: Chrome,
    name: String,
    member: Option<Member>,
    chart_width: f64,
    chart_height: f64,
    record: crate::store::accounts::Record,
    games: Vec<PlayerGame>,
    /// The filter: "all", "won", "drawn", "lost"; a time control (PGN form) or "".
    outcome: &'static str,
    control: String,
    /// The time controls played, (PGN form, words).
    controls: Vec<(String, String)>,
    prev_url: Option<String>,
    next_url: Option<String>,
    /// On one's own page: the games where it is one's move, the most urgent first.
    waiting: Option<Vec<Waiting>>,
}

/// A game waiting for the reader's move.
pub(super) struct Waiting {
    id: String,
    opponent: String,
    time_control: String,
    /// Time left to move, as the clock would show it ("2d 23h", "4:59"); empty untimed.
    left: String,
}

/// The live games of `user` where it is `user`'s turn, least time left first (the core
/// says whose turn it is and how long is left).
pub(super) async fn waiting_for(
    state: &AppState,
    tr: Tr,
    user: &crate::store::accounts::User,
) -> Result<Vec<Waiting>, crate::store::StoreError> {
    let now = crate::wallclock::now_ms();
    let mut out = Vec::new();
    for row in state.store.live_games_of(&user.id).await? {
        let color = if row.game.white_user.as_deref() == Some(user.id.as_str()) {
            Color::White
        } else {
            Color::Black
        };
        let (_, game) = state.rooms.game_of(&row).await?;
        if game.is_over() || game.position().turn() != color {
            continue;
        }
        let left = game.clocks_at(now)[color];
        out.push((
            left.unwrap_or(std::time::Duration::MAX),
            Waiting {
                opponent: row.game.name(!color).to_owned(),
                time_control: describe(tr, &row.game.time_control),
                left: left.map(|d| clock_words(tr, d)).unwrap_or_default(),
                id: row.game.id,
            },
        ));
    }
    out.sort_by_key(|(left, _)| *left);
    Ok(out.into_iter().map(|(_, w)| w).collect())
}

#[derive(Debug, Default, serde::Deserialize)]
pub(crate) struct PlayerQuery {
    #[serde(default)]
    result: Option<String>,
    #[serde(default)]
    tc: Option<String>,
    #[serde(default)]
    page: Option<i64>,
}

/// Games a player page shows at a time.
pub(super) const PLAYER_PAGE_SIZE: i64 = 30;

/// `GET /@/{name}`: a player's page. For an account: its title, member since, last seen or
/// online, its record and all its games (filtered by result and time control, a page at a
/// time). Any other name (anonymous and imported players) lists the games under that name.
pub(crate) async fn player(
    State(state): State<AppState>,
    chrome: Chrome,
    Path(name): Path<String>,
    axum::extract::Query(q): axum::extract::Query<PlayerQuery>,
) -> Response {
    match player_page(&state, chrome, name, q).await {
        Ok(page) => page,
        Err(e) => crate::http::error::ApiError::from(e).into_response(),
    }
}

pub(super) async fn player_page(
    state: &AppState,
    chrome: Chrome,
    name: String,
    q: PlayerQuery,
) -> Result<Response, crate::store::StoreError> {
    use crate::store::accounts::{Outcome, Whose};
    let tr = chrome.tr;
    let account = state.store.user(&name).await?;
    let whose = match &account {
        Some(user) => Whose::Account(&user.id),
        None => Whose::Name(&name),
    };
    let (outcome, word) = match q.result.as_deref() {
        Some("won") => (Outcome::Won, "won"),
        Some("drawn") => (Outcome::Drawn, "drawn"),
        Some("lost") => (Outcome::Lost, "lost"),
        _ => (Outcome::All, "all"),
    };
    let control = q.tc.unwrap_or_default();
    let page = q.page.unwrap_or(1).clamp(1, 100_000);
    let mut rows = state
        .store
        .games_of(
            whose,
            outcome,
            Some(control.as_str()).filter(|c| !c.is_empty()),
            (page - 1) * PLAYER_PAGE_SIZE,
            PLAYER_PAGE_SIZE + 1,
        )
        .await?;
    // No account of that name and no game under it, unfiltered: no such player (404).
    if account.is_none() && rows.is_empty() && page == 1 && word == "all" && control.is_empty() {
        return Ok(super::not_found_page(chrome));
    }
    let more = rows.len() as i64 > PLAYER_PAGE_SIZE;
    rows.truncate(PLAYER_PAGE_SIZE as usize);
    let record = state.store.record_of(whose).await?;
    let controls = state
        .store
        .controls_of(whose)
        .await?
        .into_iter()
        .map(|c| {
            let words = rookery_core::clock::TimeControl::from_pgn(&c)
                .map_or_else(|_| c.clone(), |tc| describe(tr, &tc));
            (c, words)
        })
        .collect();
    let url = |page: i64| {
        let mut query = Vec::new();
        if word != "all" {
            query.push(("result", word.to_owned()));
        }
        if !control.is_empty() {
            query.push(("tc", control.clone()));
        }
        if page > 1 {
            query.push(("page", page.to_string()));
        }
        let path = format!("/@/{}", urlencode_path(&name));
        match serde_urlencoded::to_string(&query).unwrap_or_default() {
            q if q.is_empty() => path,
            q => format!("{path}?{q}"),
        }
    };
    let standard: Vec<String> = rows
        .iter()
        .filter(|r| r.game.start_fen.is_none())
        .map(|r| r.game.id.clone())
        .collect();
    let first_moves = state
        .store
        .first_moves(&standard, rookery_openings::MAX_PLIES)
        .await?;
    let games = rows
        .into_iter()
        .map(|r| PlayerGame {
            opening: first_moves
                .get(&r.game.id)
                .and_then(|uci| opening_of_uci(uci))
                .map(|o| (o.eco, o.name)),
            date: utc_date_time(r.game.created_at).0,
            result: r.ending.map_or("*", |e| e.result.as_str()).to_owned(),
            time_control: r.game.friendly_time_control(),
            white_title: r.white_title.map(crate::accounts::Title::as_str),
            black_title: r.black_title.map(crate::accounts::Title::as_str),
            id: r.game.id,
            white: r.game.white_name,
            black: r.game.black_name,
        })
        .collect();
    let member = match &account {
        Some(user) => {
            let now = crate::wallclock::now_ms() as i64;
            let ratings = state
                .store
                .ratings_of(&user.id)
                .await?
                .into_iter()
                .map(|(speed, r)| (speed_name(tr, speed), r.at(now).shown(), r.games))
                .collect();
            let (points, games) = state.store.ladder_of(&user.id).await?;
            let class = crate::http::boards::class_name(tr, points.class());
            let settling = games < i64::from(rookery_core::rating::ladder::SETTLING_GAMES);
            let following = match &chrome.me {
                Some(me) if me.id != user.id => Some(state.store.follows(&me.id, &user.id).await?),
                _ => None,
            };
            let activity = state
                .store
                .activity(&user.id, now - 30 * 86_400_000)
                .await?
                .into_iter()
                .map(|d| {
                    let mut said = Vec::new();
                    let g = d.games;
                    let n = g.won + g.drawn + g.lost;
                    if n > 0 {
                        said.push(
                            tr.t("activity_games")
                                .replace("{n}", &n.to_string())
                                .replace("{won}", &g.won.to_string())
                                .replace("{drawn}", &g.drawn.to_string())
                                .replace("{lost}", &g.lost.to_string()),
                        );
                    }
                    if !d.followed.is_empty() {
                        said.push(
                            tr.t("activity_followed")
                                .replace("{names}", &d.followed.join(", ")),
                        );
                    }
                    (utc_date_time(d.day * 86_400_000).0, said)
                })
                .collect();
            Some(Member {
                since: utc_date_time(user.created_at).0,
                seen: utc_date_time(user.seen_at).0,
                online: state.online.is_online(&user.id),
                closed: user.closed_at.is_some(),
                title: user.title.map(|t| (t.as_str(), tr.t(t.key()))),
                ratings,
                ladder: (points.shown(), class, settling),
                charts: rating_charts(tr, state.store.rating_history(&user.id).await?),
                following,
                activity,
            })
        }
        None => None,
    };
    // One's own page lists the games waiting for one's move.
    let own = account
        .as_ref()
        .filter(|u| chrome.me.as_ref().is_some_and(|me| me.name == u.name));
    let waiting = match own {
        Some(user) => Some(waiting_for(state, tr, user).await?),
        None => None,
    };
    Ok(render(&PlayerPage {
        tr,
        chrome,
        name: account.map_or(name.clone(), |u| u.name),
        member,
        chart_width: crate::http::charts::CHART_WIDTH,
        chart_height: crate::http::charts::CHART_HEIGHT,
        record,
        games,
        outcome: word,
        controls,
        prev_url: (page > 1).then(|| url(page - 1)),
        next_url: more.then(|| url(page + 1)),
        control,
        waiting,
    }))
}

/// The opening of a game from the normal start with these moves (UCI, as stored); the
/// moves were judged when played, so an unreadable one only ends the replay.
pub(super) fn opening_of_uci(uci: &[String]) -> Option<&'static rookery_openings::Opening> {
    let mut pos = rookery_core::Position::new();
    let mut moves = Vec::with_capacity(uci.len());
    for text in uci {
        let Some(m) = rookery_core::UciMove::from_ascii(text.as_bytes())
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
        else {
            break;
        };
        pos.play_unchecked(m);
        moves.push(m);
    }
    rookery_openings::of_game(&moves)
}

/// Each speed's rating history as a chart, in the speeds' order.
pub(super) fn rating_charts(
    tr: Tr,
    history: Vec<crate::store::ratings::HistoryPoint>,
) -> Vec<crate::http::charts::RatingChart> {
    rookery_core::rating::Speed::ALL
        .into_iter()
        .filter_map(|speed| {
            let played: Vec<crate::http::charts::Played> = history
                .iter()
                .filter(|h| h.speed == speed)
                .map(|h| crate::http::charts::Played {
                    at: h.at,
                    rating: h.rating,
                    game_id: h.game_id.clone(),
                    label: format!(
                        "{} · {:.0} · {} – {} {}",
                        utc_date_time(h.at).0,
                        h.rating,
                        h.white,
                        h.black,
                        h.result.as_deref().unwrap_or("*")
                    ),
                })
                .collect();
            (!played.is_empty()).then(|| {
                crate::http::charts::rating_chart(speed.as_str(), speed_name(tr, speed), &played)
            })
        })
        .collect()
}

/// A name as one path segment.
pub(super) fn urlencode_path(name: &str) -> String {
    name.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
