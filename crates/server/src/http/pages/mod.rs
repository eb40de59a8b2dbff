//! The browser pages: askama templates from `web/templates` (autoescaped HTML), the static
//! files of `web/static` embedded in the binary (so the server runs from any directory), and
//! the language of each page, English or Simplified Chinese, from the `lang` cookie or the
//! browser's `Accept-Language`.

use std::collections::HashMap;
use std::sync::LazyLock;

use askama::Template;
use axum::extract::{Path, Query, State};
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

mod chrome;
mod player;
mod statics;
mod words;

pub(crate) use chrome::*;
pub(crate) use player::*;
pub(crate) use statics::*;
pub(crate) use words::*;

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
    /// The leaders' messages of the reader's clubs: (club id, club name, message).
    notices: Vec<(String, String, String)>,
    /// The arenas under way and to come, soonest first.
    arenas: Vec<ArenaSoon>,
    /// Accounts online and games under way, as the lobby says them.
    online: usize,
    playing: i64,
}

/// An arena on the lobby's schedule.
struct ArenaSoon {
    id: String,
    name: String,
    clock: String,
    /// "starting in 5 minutes", "under way, 12 players".
    when: String,
    started: bool,
}

/// Arenas the lobby's schedule shows at most.
const SCHEDULED: usize = 8;
/// A club's message stays on its members' lobby this long.
const NOTICE_MS: i64 = 30 * 24 * 3600 * 1000;

/// The arenas under way and to come, soonest first, in the page's words.
async fn arena_schedule(state: &AppState, tr: Tr, now: i64) -> Vec<ArenaSoon> {
    use crate::arenas::Phase;
    let Ok(rows) = state
        .store
        .tournaments(
            crate::store::tournaments::Which::All,
            crate::arenas::KIND,
            200,
        )
        .await
    else {
        return Vec::new();
    };
    let mut soon: Vec<(i64, ArenaSoon)> = rows
        .iter()
        .filter_map(|row| {
            let a = crate::arenas::parse(&row.body).ok()?;
            let started = match a.phase(now) {
                Phase::Finished => return None,
                Phase::Started => true,
                Phase::Created => false,
            };
            let when = crate::http::arena_pages::when(tr, &a, now);
            Some((
                a.starts_at,
                ArenaSoon {
                    id: row.id.clone(),
                    name: a.name.clone(),
                    clock: a.clock.clone(),
                    when,
                    started,
                },
            ))
        })
        .collect();
    soon.sort_by_key(|(at, _)| *at);
    soon.into_iter().take(SCHEDULED).map(|(_, a)| a).collect()
}

/// The messages of `user`'s clubs written in the last [`NOTICE_MS`].
async fn club_notices(state: &AppState, user: &str, now: i64) -> Vec<(String, String, String)> {
    let Ok(clubs) = state.store.clubs_of(user).await else {
        return Vec::new();
    };
    clubs
        .into_iter()
        .filter_map(|c| {
            let (text, at) = c.message?;
            (now - at < NOTICE_MS).then_some((c.id, c.name, text))
        })
        .collect()
}

/// One button of the quick-pairing grid: the control, its short form and its speed's name.
struct PoolButton {
    value: &'static str,
    short: String,
    speed: String,
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
pub(crate) async fn home(
    State(state): State<AppState>,
    caller: super::identity::Caller,
    headers: HeaderMap,
) -> Response {
    let chrome = Chrome::of(&caller, &headers);
    let tr = chrome.tr;
    let now = crate::wallclock::now_ms() as i64;
    let notices = match &caller.account {
        Some(a) => club_notices(&state, &a.user.id, now).await,
        None => Vec::new(),
    };
    let arenas = arena_schedule(&state, tr, now).await;
    render(&HomePage {
        notices,
        arenas,
        online: state.online.count(),
        playing: state.store.live_game_count().await.unwrap_or(0),
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
    /// A tournament's game: the tournament's id, its name, the round and the board.
    /// Its tournament: the page's address, its name, and the round and board if any.
    tournament: Option<(String, String, String)>,
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
        time_control: describe(tr, &row.game.time_control),
        new_game_url,
        tournament: row.game.club.tournament.clone().map(|t| {
            let club = &row.game.club;
            // A round and a board: a Swiss or round robin's game; neither: an arena's.
            match (&club.round, &club.table) {
                (Some(round), Some(table)) => (
                    format!("/events/{t}"),
                    club.event.clone().unwrap_or_default(),
                    format!(
                        " · {} · {} {table}",
                        tr.t("ev_round_n").replace("{n}", round),
                        tr.t("sheet_table")
                    ),
                ),
                _ => (
                    format!("/tournament/{t}"),
                    club.event.clone().unwrap_or_default(),
                    String::new(),
                ),
            }
        }),
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
                row.game.time_control,
                rookery_core::clock::TimeControl::Correspondence(_)
            ),
        }),
    })
}

#[derive(Template)]
#[template(path = "not_found.html")]
struct NotFoundPage {
    tr: Tr,
    chrome: Chrome,
}

#[derive(Template)]
#[template(path = "forbidden.html")]
struct ForbiddenPage {
    tr: Tr,
    chrome: Chrome,
}

/// A page the reader may not see (an admin's, to anyone else): 403, in the reader's language,
/// with the way back.
pub(crate) fn forbidden_page(chrome: Chrome) -> Response {
    let page = render(&ForbiddenPage {
        tr: chrome.tr,
        chrome,
    });
    (StatusCode::FORBIDDEN, page).into_response()
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
            notices: Vec::new(),
            arenas: Vec::new(),
            online: 3,
            playing: 12,
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
        for t in Termination::ALL {
            assert!(Termination::parse(t.as_str()).is_some(), "{t:?}");
            let key = words::ending_key(t);
            assert!(en.contains_key(&key), "{key}");
        }
    }

    /// Issue 54: bots', guests' and openings' names in the reader's words; every word a
    /// guest's name is made of has its translation.
    #[test]
    fn names_are_said_in_the_readers_words() {
        let zh = Tr::new(Lang::Zh);
        let en = Tr::new(Lang::En);
        assert_eq!(zh.player_name("Rookery bot level 3"), "Rookery 电脑 3 级");
        assert_eq!(en.player_name("Rookery bot level 3"), "Rookery bot level 3");
        assert_eq!(zh.player_name("Quiet Heron 42"), "安静的苍鹭 42");
        assert_eq!(en.player_name("Quiet Heron 42"), "Quiet Heron 42");
        for name in [
            "anna",
            "Quiet Heron",
            "Quiet Nobody 4",
            "Rookery bot level x",
        ] {
            assert_eq!(zh.player_name(name), name);
        }
        for word in crate::ids::ADJECTIVES.iter().chain(crate::ids::ANIMALS) {
            let name = format!("{word} {word} 1");
            assert!(!zh.player_name(&name).contains(word), "{word}");
        }
        assert_eq!(
            zh.opening_name("Sicilian Defense: Najdorf Variation"),
            "西西里防御：Najdorf Variation"
        );
        assert_eq!(zh.opening_name("Ruy Lopez"), "西班牙开局");
        assert_eq!(
            en.opening_name("Sicilian Defense: Najdorf Variation"),
            "Sicilian Defense: Najdorf Variation"
        );
        assert_eq!(zh.opening_name("Amar Opening"), "Amar Opening");
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
