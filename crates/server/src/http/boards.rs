//! The leaderboards (`/leaderboard`: each speed's best ten and the ladder's; `/leaderboard/
//! {speed}`: a speed's hundred) and the ladder page (`/ladder`: the classes drawn as a
//! ladder, and the table). Who is listed is the store's rule (active, not provisional, open
//! accounts: `store/ratings.rs`).

use askama::Template;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use rookery_core::rating::{Class, Speed};

use super::AppState;
use super::charts::{LADDER_BAR_LEFT, LADDER_WIDTH, RUNG_HEIGHT, Rung, ladder_rungs};
use super::pages::{Chrome, Tr, render, speed_name};
use crate::store::StoreError;
use crate::store::ratings::{ACTIVE_DAYS, BoardRow};

/// A row as shown: rank, the player, the figure (a rating or ladder points), games played,
/// and a note (the ladder's class).
struct Line {
    rank: usize,
    name: String,
    title: Option<&'static str>,
    figure: String,
    games: i64,
    note: String,
}

/// One table: its heading, the link to all of it (on the overview), its rows.
struct Board {
    id: String,
    heading: String,
    more: Option<String>,
    lines: Vec<Line>,
}

#[derive(Template)]
#[template(path = "leaderboard.html")]
struct LeaderboardPage {
    tr: Tr,
    chrome: Chrome,
    heading: String,
    boards: Vec<Board>,
    /// Who is listed, in words.
    rule: String,
}

fn rule(tr: Tr) -> String {
    tr.t("leaderboard_rule")
        .replace("{days}", &ACTIVE_DAYS.to_string())
}

#[derive(Template)]
#[template(path = "ladder.html")]
struct LadderPage {
    tr: Tr,
    chrome: Chrome,
    rungs: Vec<Rung>,
    /// "29 higher grades, nobody in them yet", when classes above are folded.
    folded: Option<String>,
    height: f64,
    width: f64,
    bar_left: f64,
    board: Board,
    /// Which speeds count for the ladder, in words.
    speeds: String,
}

/// A ladder class in the reader's language.
pub(crate) fn class_name(tr: Tr, class: Class) -> String {
    match class {
        Class::Unclassed => tr.t("class_unclassed").to_owned(),
        Class::Grade(n) => tr.t("class_grade").replace("{n}", &n.to_string()),
    }
}

fn speed_board(tr: Tr, speed: Speed, rows: Vec<BoardRow>, more: bool) -> Board {
    Board {
        id: speed.as_str().to_owned(),
        heading: speed_name(tr, speed),
        more: more.then(|| format!("/leaderboard/{}", speed.as_str())),
        lines: rows
            .into_iter()
            .enumerate()
            .map(|(i, r)| Line {
                rank: i + 1,
                name: r.name,
                title: r.title.map(crate::accounts::Title::as_str),
                figure: r.glicko.shown(),
                games: r.games,
                note: String::new(),
            })
            .collect(),
    }
}

fn ladder_board(tr: Tr, rows: &[BoardRow], limit: usize, more: bool) -> Board {
    let settling = i64::from(rookery_core::rating::ladder::SETTLING_GAMES);
    Board {
        id: "ladder".to_owned(),
        heading: tr.t("ladder").to_owned(),
        more: more.then(|| "/ladder".to_owned()),
        lines: rows
            .iter()
            .take(limit)
            .enumerate()
            .map(|(i, r)| Line {
                rank: i + 1,
                name: r.name.clone(),
                title: r.title.map(crate::accounts::Title::as_str),
                figure: r.points.shown(),
                games: r.games,
                note: if r.games < settling {
                    format!(
                        "{} ({})",
                        class_name(tr, r.points.class()),
                        tr.t("settling_short")
                    )
                } else {
                    class_name(tr, r.points.class())
                },
            })
            .collect(),
    }
}

fn or_error(page: Result<Response, StoreError>) -> Response {
    page.unwrap_or_else(|e| super::error::ApiError::from(e).into_response())
}

/// `GET /leaderboard`: each speed's best ten, and the ladder's.
pub(crate) async fn overview(State(state): State<AppState>, chrome: Chrome) -> Response {
    or_error(
        async {
            let tr = chrome.tr;
            let now = crate::wallclock::now_ms() as i64;
            let mut boards = Vec::new();
            for speed in Speed::ALL {
                let rows = state.store.leaderboard(speed, now, 10).await?;
                boards.push(speed_board(tr, speed, rows, true));
            }
            let ladder = state.store.ladder_board().await?;
            boards.push(ladder_board(tr, &ladder, 10, true));
            Ok(render(&LeaderboardPage {
                tr,
                heading: tr.t("leaderboards").to_owned(),
                chrome,
                boards,
                rule: rule(tr),
            }))
        }
        .await,
    )
}

/// `GET /leaderboard/{speed}`: the speed's best hundred.
pub(crate) async fn speed(
    State(state): State<AppState>,
    chrome: Chrome,
    Path(word): Path<String>,
) -> Response {
    let Some(speed) = Speed::parse(&word) else {
        return super::pages::not_found_page(chrome);
    };
    or_error(
        async {
            let tr = chrome.tr;
            let now = crate::wallclock::now_ms() as i64;
            let rows = state.store.leaderboard(speed, now, 100).await?;
            Ok(render(&LeaderboardPage {
                tr,
                heading: format!("{} · {}", tr.t("leaderboards"), speed_name(tr, speed)),
                chrome,
                boards: vec![speed_board(tr, speed, rows, false)],
                rule: rule(tr),
            }))
        }
        .await,
    )
}

/// `GET /ladder`: the classes as a ladder, with how many stand on each, and the table.
pub(crate) async fn ladder(State(state): State<AppState>, chrome: Chrome) -> Response {
    or_error(
        async {
            let tr = chrome.tr;
            let rows = state.store.ladder_board().await?;
            let players: Vec<_> = rows.iter().map(|r| (r.name.clone(), r.points)).collect();
            let rungs = ladder_rungs(&players, |c| class_name(tr, c));
            let counted = state.store.ladder_speeds();
            let speeds = if counted.len() == Speed::ALL.len() {
                tr.t("ladder_all_speeds").to_owned()
            } else {
                counted
                    .iter()
                    .map(|s| speed_name(tr, *s))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            // The classes above the best player's, folded into one line.
            let folded = rungs
                .first()
                .and_then(|r| match r.class {
                    rookery_core::rating::ladder::Class::Grade(g) if g > 1 => Some(g - 1),
                    rookery_core::rating::ladder::Class::Unclassed => Some(30),
                    _ => None,
                })
                .map(|above| tr.t("ladder_folded").replace("{n}", &above.to_string()));
            Ok(render(&LadderPage {
                tr,
                folded,
                height: rungs.len() as f64 * RUNG_HEIGHT,
                width: LADDER_WIDTH,
                bar_left: LADDER_BAR_LEFT,
                rungs,
                board: ladder_board(tr, &rows, 100, false),
                speeds,
                chrome,
            }))
        }
        .await,
    )
}
