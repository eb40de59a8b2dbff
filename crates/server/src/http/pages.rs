//! The browser pages: askama templates from `web/templates` (autoescaped HTML), the static
//! files of `web/static` embedded in the binary (so the server runs from any directory), and
//! the language of each page, English or Simplified Chinese, from the `lang` cookie or the
//! browser's `Accept-Language`.

use std::collections::HashMap;
use std::sync::LazyLock;

use askama::Template;
use axum::extract::{Path, State};
use axum::http::header::{ACCEPT_LANGUAGE, CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use rookery_core::Color;
use rookery_engine::Level;
use serde::Serialize;

use super::AppState;
use super::identity::InGame;
use crate::export::utc_date_time;
use crate::store::Status;

/// Every page's strings, by language then key (`web/i18n.json`).
static CATALOGUES: LazyLock<HashMap<String, HashMap<String, String>>> = LazyLock::new(|| {
    // Checked by the tests below: a broken catalogue never ships.
    serde_json::from_str(include_str!("../../../../web/i18n.json")).unwrap_or_default()
});

/// A page's language.
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub(crate) enum Lang {
    En,
    Zh,
}

impl Lang {
    fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The `lang` cookie if set, else the first English or Chinese entry of
    /// `Accept-Language` (browsers list them by preference), else English.
    pub(crate) fn of(headers: &HeaderMap) -> Lang {
        let cookie =
            super::identity::cookies(headers).find_map(|(k, v)| (k == "lang").then_some(v));
        match cookie {
            Some("zh") => return Lang::Zh,
            Some("en") => return Lang::En,
            _ => {}
        }
        let accept = headers
            .get(ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        for tag in accept.split(',') {
            let tag = tag
                .split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            if tag.starts_with("zh") {
                return Lang::Zh;
            }
            if tag.starts_with("en") {
                return Lang::En;
            }
        }
        Lang::En
    }
}

/// Translations for templates: `{{ tr.t("key") }}`.
#[derive(Debug, Copy, Clone)]
pub(crate) struct Tr {
    lang: Lang,
}

impl Tr {
    pub(crate) fn new(lang: Lang) -> Tr {
        Tr { lang }
    }

    /// The text of `key` in this language (English, then the key itself, if missing).
    pub(crate) fn t<'a>(&self, key: &'a str) -> &'a str {
        let find = |lang: Lang| {
            CATALOGUES
                .get(lang.code())
                .and_then(|c| c.get(key))
                .map(String::as_str)
        };
        find(self.lang).or_else(|| find(Lang::En)).unwrap_or(key)
    }

    pub(crate) fn html_lang(&self) -> &'static str {
        match self.lang {
            Lang::En => "en",
            Lang::Zh => "zh-Hans",
        }
    }

    /// The catalogue for scripts, as JSON safe inside a `<script>` element.
    fn json(&self) -> String {
        script_json(&CATALOGUES.get(self.lang.code()))
    }

    /// A refusal in this language (`err_<code>`, its figure filled in), as the pages'
    /// `problemText` says it.
    pub(crate) fn problem(&self, problem: &crate::protocol::Problem) -> String {
        let key = format!("err_{}", problem.code);
        let text = self.t(&key);
        if text == key {
            return problem.message.clone();
        }
        text.replace("{n}", &problem.n.map(|n| n.to_string()).unwrap_or_default())
    }
}

/// The logged-in reader, as the page header shows them.
#[derive(Debug, Clone)]
pub(crate) struct Me {
    pub(crate) name: String,
    pub(crate) admin: bool,
}

/// What every page carries besides its own content: the language and its catalogue, the
/// reader (for the header) and their preferences (for the scripts).
#[derive(Debug, Clone)]
pub(crate) struct Chrome {
    pub(crate) tr: Tr,
    pub(crate) i18n_json: String,
    pub(crate) me: Option<Me>,
    pub(crate) prefs: super::account::Prefs,
    pub(crate) prefs_json: String,
}

impl Chrome {
    /// For a reader whose account is not known (or who has none).
    pub(crate) fn anonymous(headers: &HeaderMap) -> Chrome {
        Chrome::of(&super::identity::Caller::of(headers), headers)
    }

    pub(crate) fn of(caller: &super::identity::Caller, headers: &HeaderMap) -> Chrome {
        let tr = Tr::new(Lang::of(headers));
        let prefs = super::account::Prefs::of(caller, headers);
        Chrome {
            tr,
            i18n_json: tr.json(),
            me: caller.account.as_ref().map(|a| Me {
                name: a.user.name.clone(),
                admin: a.user.admin,
            }),
            prefs_json: script_json(&prefs),
            prefs,
        }
    }
}

impl axum::extract::FromRequestParts<AppState> for Chrome {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> Result<Chrome, Self::Rejection> {
        // A refused token still gets a page: the page is the same for everyone.
        let caller = super::identity::Caller::resolve(parts, &state.store)
            .await
            .unwrap_or_else(|_| super::identity::Caller::of(&parts.headers));
        Ok(Chrome::of(&caller, &parts.headers))
    }
}

/// JSON that can sit inside `<script type="application/json">`: `<` is escaped, so no
/// `</script>` can close the element early.
pub(crate) fn script_json(value: &impl Serialize) -> String {
    serde_json::to_string(value)
        .unwrap_or_else(|_| "null".into())
        .replace('<', "\\u003c")
}

pub(crate) fn render(page: &impl Template) -> Response {
    match page.render() {
        Ok(html) => Html(html).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "template failed");
            (StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response()
        }
    }
}

/// A time control preset of the lobby's form: its value, and its words in the page's
/// language ("5 min + 3 s", "5 min, 3 s delay").
#[derive(Debug)]
struct Preset {
    value: &'static str,
    label: String,
}

/// The lobby's time controls, in its form's friendly syntax.
const PRESETS: &[&str] = &[
    "5+3",
    "1+0",
    "3+2",
    "10+5",
    "15+10",
    "30+0",
    "5d3",
    "15b10",
    "40/90+30:30+30",
    "untimed",
];

/// Minutes, or seconds under a minute, of a duration: "5 min", "30 s", "1.5 min".
fn amount(tr: Tr, d: std::time::Duration) -> String {
    let secs = d.as_secs_f64();
    if secs >= 60.0 {
        let min = secs / 60.0;
        let min = if min.fract() == 0.0 {
            format!("{min}")
        } else {
            format!("{min:.1}")
        };
        tr.t("tc_minutes").replace("{n}", &min)
    } else {
        tr.t("tc_seconds")
            .replace("{n}", &format!("{}", secs.round()))
    }
}

/// A time control in words, in the page's language: "5 min + 3 s a move", "5 min, 3 s
/// delay", "90 min for 40 moves + 30 s a move, then 30 min + 30 s a move", "no clock".
pub(crate) fn describe(tr: Tr, control: &rookery_core::clock::TimeControl) -> String {
    use rookery_core::clock::{DelayKind, TimeControl};
    match control {
        TimeControl::Untimed => tr.t("tc_untimed").to_owned(),
        TimeControl::Sandclock(d) => tr.t("tc_sandclock").replace("{t}", &amount(tr, *d)),
        TimeControl::Correspondence(days) => tr
            .t(if *days == 1 {
                "tc_correspondence_one"
            } else {
                "tc_correspondence"
            })
            .replace("{n}", &days.to_string()),
        TimeControl::Periods(periods) => periods
            .iter()
            .map(|p| {
                let mut text = match p.moves {
                    Some(n) => tr
                        .t("tc_for_moves")
                        .replace("{t}", &amount(tr, p.base))
                        .replace("{n}", &n.to_string()),
                    None => amount(tr, p.base),
                };
                if !p.increment.is_zero() {
                    text.push_str(
                        &tr.t("tc_increment")
                            .replace("{t}", &amount(tr, p.increment)),
                    );
                }
                if let Some(delay) = p.delay {
                    let key = match delay.kind {
                        DelayKind::Simple => "tc_delay",
                        DelayKind::Bronstein => "tc_bronstein",
                    };
                    text.push_str(&tr.t(key).replace("{t}", &amount(tr, delay.time)));
                }
                text
            })
            .collect::<Vec<_>>()
            .join(tr.t("tc_then")),
    }
}

#[derive(Template)]
#[template(path = "home.html")]
struct HomePage {
    tr: Tr,
    chrome: Chrome,
    presets: Vec<Preset>,
    /// The quick-pairing grid.
    pools: Vec<PoolButton>,
    /// Each bot level with its measured rating.
    levels: Vec<(u8, u32)>,
    /// Correspondence choices: `3d` and "3 days a move".
    days: Vec<(String, String)>,
}

/// One button of the quick-pairing grid: the control, its short form and its speed's name.
struct PoolButton {
    value: &'static str,
    short: String,
    speed: String,
}

/// A speed's name in the reader's language ("Blitz", "超快棋").
pub(crate) fn speed_name(tr: Tr, speed: rookery_core::rating::Speed) -> String {
    tr.t(&format!("speed_{}", speed.as_str())).to_owned()
}

fn pool_buttons(tr: Tr) -> Vec<PoolButton> {
    crate::pools::GRID
        .iter()
        .filter_map(|value| {
            let control = crate::pools::grid_control(value)?;
            let speed = rookery_core::rating::Speed::of_control(&control)?;
            Some(PoolButton {
                value,
                // "40/90+30:30+30" is long for a button: its periods, side by side.
                short: value
                    .strip_prefix("40/")
                    .map_or_else(|| (*value).to_owned(), |rest| rest.replace(':', " · ")),
                speed: speed_name(tr, speed),
            })
        })
        .collect()
}

/// The lobby's correspondence choices: lichess's days a move, as `3d` and in words.
fn correspondence_choices(tr: Tr) -> Vec<(String, String)> {
    rookery_core::clock::CORRESPONDENCE_DAYS
        .iter()
        .map(|&d| {
            let control = rookery_core::clock::TimeControl::Correspondence(d);
            (control.to_pgn(), describe(tr, &control))
        })
        .collect()
}

/// `GET /`: the lobby.
pub(crate) async fn home(chrome: Chrome) -> Response {
    let tr = chrome.tr;
    render(&HomePage {
        tr,
        chrome,
        presets: PRESETS
            .iter()
            .map(|value| Preset {
                value,
                label: rookery_core::clock::TimeControl::from_friendly(value)
                    .map_or_else(|_| (*value).to_owned(), |c| describe(tr, &c)),
            })
            .collect(),
        pools: pool_buttons(tr),
        days: correspondence_choices(tr),
        levels: (Level::MIN.get()..=Level::MAX.get())
            .filter_map(Level::new)
            .map(|l| (l.get(), l.rating()))
            .collect(),
    })
}

#[derive(Template)]
#[template(path = "game.html")]
struct GamePage {
    tr: Tr,
    chrome: Chrome,
    id: String,
    white: String,
    black: String,
    top_color: &'static str,
    top_name: String,
    /// The title of each player's account (GM, IM, ...).
    top_title: Option<&'static str>,
    bottom_title: Option<&'static str>,
    /// A rated game's ratings: `1500?`, and once counted, `1500 +7`.
    top_rating: Option<String>,
    bottom_rating: Option<String>,
    /// The top seat is still open: its name is "waiting for an opponent", with no link.
    top_open: bool,
    bottom_color: &'static str,
    bottom_name: String,
    bottom_open: bool,
    can_join: bool,
    open_color: &'static str,
    share: bool,
    share_url: String,
    time_control: String,
    /// The result panel's "New game": the lobby with this game's clock (and bot) chosen.
    new_game_url: String,
    page_json: String,
}

#[derive(Serialize)]
struct PageData<'a> {
    id: &'a str,
    you: Option<&'static str>,
    /// The colors a bot plays (the page says when one is thinking).
    bots: Vec<&'static str>,
    /// A rated game: the result panel shows the rating changes.
    rated: bool,
    /// The reader is logged in (a spectator may then write in the spectators' chat).
    logged_in: bool,
    /// Days a move: move confirmation may be asked for these games only.
    correspondence: bool,
}

/// `GET /game/{id}`: the game, for its players and for everyone else.
pub(crate) async fn game(
    State(state): State<AppState>,
    found: Result<InGame, super::error::ApiError>,
    chrome: Chrome,
    super::Origin(origin): super::Origin,
    headers: HeaderMap,
) -> Response {
    let logged_in = chrome.me.is_some();
    let tr = chrome.tr;
    let InGame { row, seat, .. } = match found {
        Ok(found) => found,
        Err(e) if e.status == StatusCode::NOT_FOUND => return not_found(&headers),
        Err(e) => return e.into_response(),
    };
    let id = row.game.id.clone();
    let you = seat;
    let open = row.game.open_seat().filter(|_| row.status == Status::Live);
    // Players see their own side at the bottom; a visitor about to join sees the open one.
    let bottom = if chrome.prefs.orientation == "white" {
        Color::White
    } else {
        you.or(open).unwrap_or(Color::White)
    };
    let name = |c: Color| row.game.name(c).to_owned();
    let title = |c: Color| {
        match c {
            Color::White => row.white_title,
            Color::Black => row.black_title,
        }
        .map(crate::accounts::Title::as_str)
    };
    let control = row.game.friendly_time_control();
    let seats = crate::export::game_ratings(&state.store, &row)
        .await
        .ok()
        .flatten();
    let rating = |c: Color| {
        let seat = seats.as_ref()?[match c {
            Color::White => 0,
            Color::Black => 1,
        }]
        .as_ref()?;
        let mut text = seat.before.shown();
        if let Some(d) = seat.diff {
            text.push(' ');
            text.push_str(&crate::export::signed(d));
        }
        Some(text)
    };
    let bots = crate::rooms::bot_levels(&row.game);
    let mut again = vec![("tc", control.clone())];
    if let Some(level) = bots[Color::White].or(bots[Color::Black]) {
        again.push(("bot", level.get().to_string()));
    }
    let new_game_url = format!(
        "/?{}",
        serde_urlencoded::to_string(&again).unwrap_or_default()
    );
    render(&GamePage {
        tr,
        chrome,
        id: id.clone(),
        white: row.game.white_name.clone(),
        black: row.game.black_name.clone(),
        top_color: (!bottom).name(),
        top_name: name(!bottom),
        top_title: title(!bottom),
        bottom_title: title(bottom),
        top_rating: rating(!bottom),
        bottom_rating: rating(bottom),
        top_open: open == Some(!bottom),
        bottom_color: bottom.name(),
        bottom_name: name(bottom),
        bottom_open: open == Some(bottom),
        can_join: you.is_none() && open.is_some(),
        open_color: open.map_or("white", Color::name),
        share: you.is_some() && open.is_some(),
        share_url: format!("{origin}/game/{id}"),
        // In words ("5 min + 3 s a move"), as the lobby says it.
        time_control: rookery_core::clock::TimeControl::from_pgn(&row.game.time_control)
            .map_or(control, |c| describe(tr, &c)),
        new_game_url,
        page_json: script_json(&PageData {
            id: &id,
            you: you.map(Color::name),
            bots: [Color::White, Color::Black]
                .into_iter()
                .filter(|c| bots[*c].is_some())
                .map(Color::name)
                .collect(),
            rated: row.game.rated,
            logged_in,
            correspondence: matches!(
                rookery_core::clock::TimeControl::from_pgn(&row.game.time_control),
                Ok(rookery_core::clock::TimeControl::Correspondence(_))
            ),
        }),
    })
}

#[derive(Debug)]
struct PlayerGame {
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
struct Member {
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
    charts: Vec<super::charts::RatingChart>,
}

#[derive(Template)]
#[template(path = "player.html")]
struct PlayerPage {
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
struct Waiting {
    id: String,
    opponent: String,
    time_control: String,
    /// Time left to move, as the clock would show it ("2d 23h", "4:59"); empty untimed.
    left: String,
}

/// The live games of `user` where it is `user`'s turn, least time left first (the core
/// says whose turn it is and how long is left).
async fn waiting_for(
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
        let control = rookery_core::clock::TimeControl::from_pgn(&row.game.time_control).ok();
        out.push((
            left.unwrap_or(std::time::Duration::MAX),
            Waiting {
                opponent: row.game.name(!color).to_owned(),
                time_control: control
                    .map_or_else(|| row.game.friendly_time_control(), |c| describe(tr, &c)),
                left: left.map(|d| clock_words(tr, d)).unwrap_or_default(),
                id: row.game.id,
            },
        ));
    }
    out.sort_by_key(|(left, _)| *left);
    Ok(out.into_iter().map(|(_, w)| w).collect())
}

/// A clock's reading: days and hours from a day up, else h:mm:ss or m:ss.
fn clock_words(tr: Tr, left: std::time::Duration) -> String {
    let s = left.as_secs();
    let (d, h, m, sec) = (s / 86_400, s / 3600 % 24, s / 60 % 60, s % 60);
    if d > 0 {
        tr.t("days_short")
            .replace("{d}", &d.to_string())
            .replace("{h}", &h.to_string())
    } else if h > 0 {
        format!("{h}:{m:02}:{sec:02}")
    } else {
        format!("{m}:{sec:02}")
    }
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
const PLAYER_PAGE_SIZE: i64 = 30;

#[derive(Template)]
#[template(path = "not_found.html")]
struct NotFoundPage {
    tr: Tr,
    chrome: Chrome,
}

/// A page that is not there: 404, in the reader's language, with the way back.
pub(crate) fn not_found(headers: &HeaderMap) -> Response {
    not_found_page(Chrome::anonymous(headers))
}

/// The HTML 404 in the reader's language, with the page's usual header.
pub(crate) fn not_found_page(chrome: Chrome) -> Response {
    let page = render(&NotFoundPage {
        tr: chrome.tr,
        chrome,
    });
    (StatusCode::NOT_FOUND, page).into_response()
}

/// `GET /{id}` and `GET /{id}/{white|black}`: lichess's short links to a game (a challenge's
/// `url` is one: an accepted challenge's game has its id) lead to the game's page; a
/// challenge still waiting leads to the lobby. Anything else is the site's 404.
pub(crate) async fn short_link(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    lead_to_game(&state, &id, &headers).await
}

/// `GET /{id}/{white|black}`, as [`short_link`].
pub(crate) async fn short_link_side(
    State(state): State<AppState>,
    Path((id, side)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    if side != "white" && side != "black" {
        return not_found(&headers);
    }
    lead_to_game(&state, &id, &headers).await
}

async fn lead_to_game(state: &AppState, id: &str, headers: &HeaderMap) -> Response {
    if !crate::store::storable(id) {
        return not_found(headers);
    }
    let see_other =
        |to: String| (StatusCode::SEE_OTHER, [(axum::http::header::LOCATION, to)]).into_response();
    match state.store.game(id).await {
        Ok(Some(row)) => return see_other(format!("/game/{}", row.game.id)),
        Ok(None) => {}
        Err(e) => return super::error::ApiError::from(e).into_response(),
    }
    match state
        .challenges
        .get(id, crate::wallclock::now_ms() as i64)
        .await
    {
        Ok(Some(_)) => see_other("/".to_owned()),
        Ok(None) => not_found(headers),
        Err(e) => super::error::ApiError::from(e).into_response(),
    }
}

/// The router's fallback: an unknown API route answers as the API does, any other an HTML
/// page.
pub(crate) async fn fallback(uri: axum::http::Uri, headers: HeaderMap) -> Response {
    if uri.path().starts_with("/api/") {
        return super::error::ApiError::not_found("route").into_response();
    }
    not_found(&headers)
}

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
        Err(e) => super::error::ApiError::from(e).into_response(),
    }
}

async fn player_page(
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
            let class = super::boards::class_name(tr, points.class());
            let settling = games < i64::from(rookery_core::rating::ladder::SETTLING_GAMES);
            Some(Member {
                since: utc_date_time(user.created_at).0,
                seen: utc_date_time(user.seen_at).0,
                online: state.online.is_online(&user.id),
                closed: user.closed_at.is_some(),
                title: user.title.map(|t| (t.as_str(), tr.t(t.key()))),
                ratings,
                ladder: (points.shown(), class, settling),
                charts: rating_charts(tr, state.store.rating_history(&user.id).await?),
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
        chart_width: super::charts::CHART_WIDTH,
        chart_height: super::charts::CHART_HEIGHT,
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
fn opening_of_uci(uci: &[String]) -> Option<&'static rookery_openings::Opening> {
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
fn rating_charts(
    tr: Tr,
    history: Vec<crate::store::ratings::HistoryPoint>,
) -> Vec<super::charts::RatingChart> {
    rookery_core::rating::Speed::ALL
        .into_iter()
        .filter_map(|speed| {
            let played: Vec<super::charts::Played> = history
                .iter()
                .filter(|h| h.speed == speed)
                .map(|h| super::charts::Played {
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
                super::charts::rating_chart(speed.as_str(), speed_name(tr, speed), &played)
            })
        })
        .collect()
}

/// A name as one path segment.
fn urlencode_path(name: &str) -> String {
    name.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The files of `web/static`, embedded.
const STATIC: &[(&str, &str, &[u8])] = &[
    (
        "style.css",
        "text/css; charset=utf-8",
        include_bytes!("../../../../web/static/style.css"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_bytes!("../../../../web/static/favicon.svg"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../web/static/board.js"),
    ),
    (
        "pieces.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../web/static/pieces.js"),
    ),
    (
        "game.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../web/static/game.js"),
    ),
    (
        "tv.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../web/static/tv.js"),
    ),
    (
        "tv-page.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../web/static/tv-page.js"),
    ),
    (
        "chat.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../web/static/chat.js"),
    ),
    (
        "home.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../web/static/home.js"),
    ),
    (
        "i18n.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../web/static/i18n.js"),
    ),
    (
        "plain.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../web/static/plain.js"),
    ),
    (
        "sound.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../web/static/sound.js"),
    ),
    (
        "board-page.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../web/static/board-page.js"),
    ),
    (
        "analysis.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../web/static/analysis.js"),
    ),
    (
        "sheet.css",
        "text/css; charset=utf-8",
        include_bytes!("../../../../web/static/sheet.css"),
    ),
    (
        "sheet.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../../web/static/sheet.js"),
    ),
];

/// Each static file's ETag: its content's SHA-256, in part (the files are in the binary, so
/// a new build with a changed file has a new tag).
static ETAGS: LazyLock<Vec<String>> = LazyLock::new(|| {
    use sha2::Digest as _;
    STATIC
        .iter()
        .map(|(_, _, body)| {
            let digest = sha2::Sha256::digest(body);
            let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
            format!("\"{hex}\"")
        })
        .collect()
});

/// `GET /static/{file}`: with its ETag; a browser that has the file already (`If-None-Match`)
/// gets 304 and no body. `no-cache` makes it ask each time, so a new build is seen at once.
pub(crate) async fn static_file(Path(file): Path<String>, headers: HeaderMap) -> Response {
    let Some(i) = STATIC.iter().position(|(name, _, _)| *name == file) else {
        return (StatusCode::NOT_FOUND, "no such file").into_response();
    };
    let (_, kind, body) = STATIC[i];
    let tag = ETAGS[i].as_str();
    let known = headers
        .get(axum::http::header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .any(|t| t.trim().trim_start_matches("W/") == tag)
        });
    let cache = [(axum::http::header::ETAG, tag), (CACHE_CONTROL, "no-cache")];
    if known {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    (cache, [(CONTENT_TYPE, kind)], body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lobby_lists_every_bot_level_with_its_rating() {
        let page = HomePage {
            tr: Tr { lang: Lang::En },
            chrome: Chrome::anonymous(&HeaderMap::new()),
            presets: Vec::new(),
            pools: Vec::new(),
            levels: vec![(1, 600), (8, 2250)],
            days: correspondence_choices(Tr { lang: Lang::En }),
        }
        .render()
        .unwrap();
        for (value, words) in [
            ("1d", "1 day a move"),
            ("3d", "3 days a move"),
            ("14d", "14 days a move"),
        ] {
            assert!(
                page.contains(&format!(r#"<option value="{value}""#)) && page.contains(words),
                "{value}"
            );
        }
        assert!(
            page.contains(r#"<option value="1">1 (rating ~600)</option>"#),
            "{page}"
        );
        assert!(page.contains(r#"<option value="8">8 (rating ~2250)</option>"#));
    }

    #[test]
    fn time_controls_are_said_in_words() {
        use rookery_core::clock::TimeControl;
        let say = |lang, tc: &str| describe(Tr { lang }, &TimeControl::from_friendly(tc).unwrap());
        assert_eq!(say(Lang::En, "5+3"), "5 min + 3 s a move");
        assert_eq!(say(Lang::En, "5d3"), "5 min, 3 s delay");
        assert_eq!(say(Lang::En, "15b10"), "15 min, 10 s Bronstein delay");
        assert_eq!(
            say(Lang::En, "40/90+30:30+30"),
            "90 min for 40 moves + 30 s a move, then 30 min + 30 s a move"
        );
        assert_eq!(say(Lang::En, "0.5+0"), "30 s");
        assert_eq!(say(Lang::En, "untimed"), "no clock");
        assert_eq!(say(Lang::Zh, "5d3"), "5 分钟，每步延时 3 秒");
    }

    #[test]
    fn both_catalogues_parse_and_have_the_same_keys() {
        let en = &CATALOGUES["en"];
        let zh = &CATALOGUES["zh"];
        assert!(en.len() > 50);
        let mut missing: Vec<&String> = en.keys().filter(|k| !zh.contains_key(*k)).collect();
        missing.extend(zh.keys().filter(|k| !en.contains_key(*k)));
        assert!(missing.is_empty(), "{missing:?}");
    }

    /// A Chinese page shows a refusal in Chinese: every code the server can send has its
    /// sentence in each catalogue (game.js and home.js look them up by code).
    #[test]
    fn every_refusal_code_has_a_sentence_in_each_language() {
        for (lang, catalogue) in CATALOGUES.iter() {
            for code in crate::refusal::Code::ALL {
                let key = format!("err_{code}");
                assert!(catalogue.contains_key(&key), "{lang} lacks {key}");
            }
            let unused: Vec<&String> = catalogue
                .keys()
                .filter(|k| {
                    k.strip_prefix("err_")
                        .is_some_and(|c| crate::refusal::Code::parse(c).is_none())
                })
                .collect();
            assert!(unused.is_empty(), "{lang}: no such code: {unused:?}");
        }
    }

    #[test]
    fn every_key_the_pages_and_scripts_use_is_translated() {
        let en = &CATALOGUES["en"];
        let mut sources: Vec<String> = STATIC
            .iter()
            .filter(|(name, _, _)| name.ends_with(".js"))
            .map(|(_, _, body)| String::from_utf8_lossy(body).into_owned())
            .collect();
        for template in [
            "base.html",
            "home.html",
            "game.html",
            "player.html",
            "not_found.html",
            "login.html",
            "account.html",
            "reset.html",
            "admin.html",
        ] {
            let path = format!(
                "{}/../../web/templates/{template}",
                env!("CARGO_MANIFEST_DIR")
            );
            sources.push(std::fs::read_to_string(path).unwrap());
        }
        let mut used = 0;
        for source in &sources {
            // Calls like t('key') and tr.t("key").
            for quote in ['\'', '"'] {
                let pattern = format!("t({quote}");
                for (at, _) in source.match_indices(&pattern) {
                    // A call of `t`, not of `createElement` or `select`.
                    let before = source[..at].chars().next_back();
                    if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                        continue;
                    }
                    let rest = &source[at + pattern.len()..];
                    let Some(end) = rest.find(quote) else {
                        continue;
                    };
                    let key = &rest[..end];
                    if key.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                        used += 1;
                        assert!(en.contains_key(key), "untranslated key {key:?}");
                    }
                }
            }
        }
        assert!(used > 60, "only {used} uses found");
        // The end-of-game keys are built from the core's termination names.
        use rookery_core::game::Termination;
        for t in Termination::ALL.map(Termination::as_str) {
            assert!(Termination::parse(t).is_some(), "{t}");
            let key: String = t
                .chars()
                .map(|c| if c.is_ascii_lowercase() { c } else { '_' })
                .collect();
            assert!(en.contains_key(&format!("end_{key}")), "end_{key}");
        }
    }

    #[test]
    fn the_language_comes_from_the_cookie_then_the_browser() {
        let headers = |pairs: &[(&'static str, &str)]| {
            let mut h = HeaderMap::new();
            for (k, v) in pairs {
                h.insert(*k, v.parse().unwrap());
            }
            h
        };
        assert_eq!(Lang::of(&headers(&[])), Lang::En);
        assert_eq!(
            Lang::of(&headers(&[("accept-language", "zh-CN,zh;q=0.9,en;q=0.8")])),
            Lang::Zh
        );
        assert_eq!(
            Lang::of(&headers(&[("accept-language", "de-DE,en;q=0.8,zh;q=0.5")])),
            Lang::En
        );
        assert_eq!(
            Lang::of(&headers(&[
                ("accept-language", "zh-CN"),
                ("cookie", "rk_x=1; lang=en")
            ])),
            Lang::En
        );
        assert_eq!(Tr { lang: Lang::Zh }.t("resign"), "认输");
        assert_eq!(Tr { lang: Lang::Zh }.t("no-such-key"), "no-such-key");
    }

    #[test]
    fn script_json_cannot_close_its_element() {
        assert_eq!(script_json(&"</script>"), "\"\\u003c/script>\"");
    }
}
