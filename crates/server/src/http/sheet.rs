//! The club's score sheet (seed 003), `GET /game/{id}/sheet`: a printable A4 page with the
//! sheet's fields — event, date, site, round, table, the players, the time limit, the time each
//! side used, the result and the winner — the moves numbered in two columns of 30 (60 moves a
//! page), and lines for the signatures. Notation as SAN or as the seeds' long form
//! (`?notation=long`: `Ng1-f3`, `Ra1×a8`, `0-0`); headings in the reader's language.

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use rookery_core::Color;
use rookery_core::pgn::GameResult;

use super::AppState;
use super::pages::{Chrome, Tr, describe, not_found, render};

/// Moves on one page: two columns of 30.
const MOVES_PER_PAGE: usize = 60;
const ROWS_PER_COLUMN: usize = 30;

#[derive(Debug, serde::Deserialize)]
pub(crate) struct SheetQuery {
    /// `san` (the default) or `long`.
    notation: Option<String>,
}

/// One numbered line of the sheet: the move number, White's move and Black's.
struct Line {
    number: u32,
    white: String,
    black: String,
}

/// A printed page: the sheet's fields and two columns of moves.
struct Page {
    fields: Fields,
    columns: Vec<Vec<Line>>,
}

/// What a sheet says above its moves (seed 003).
#[derive(Clone, Default)]
struct Fields {
    event: String,
    date: String,
    site: String,
    round: String,
    table: String,
    white: String,
    black: String,
    limit: String,
    used: [String; 2],
    result: String,
    /// How the game ended, in the reader's words.
    ended: String,
    winner: String,
}

#[derive(Template)]
#[template(path = "sheet.html")]
struct SheetPage {
    tr: Tr,
    assets: super::pages::Assets,
    /// Where "back" goes, and its words.
    back: (String, &'static str),
    /// The game's sheet in the other notation (a game's sheet only).
    notation: Option<(String, &'static str, &'static str)>,
    pages: Vec<Page>,
}

/// `h:mm:ss` (or `m:ss` under an hour) of a number of milliseconds.
fn clock_face(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// The moves of a game as numbered lines (a game from a position with Black to move begins
/// with White's half of its first line empty), cut into pages of two columns, each page
/// headed by `fields`.
fn pages_of(
    fields: &Fields,
    first_number: u32,
    black_first: bool,
    moves: Vec<String>,
) -> Vec<Page> {
    let mut lines: Vec<Line> = Vec::new();
    let mut number = first_number;
    let mut iter = moves.into_iter();
    if black_first {
        if let Some(m) = iter.next() {
            lines.push(Line {
                number,
                white: "…".to_owned(),
                black: m,
            });
            number += 1;
        }
    }
    while let Some(white) = iter.next() {
        let black = iter.next().unwrap_or_default();
        lines.push(Line {
            number,
            white,
            black,
        });
        number += 1;
    }
    if lines.is_empty() {
        lines.push(Line {
            number,
            white: String::new(),
            black: String::new(),
        });
    }
    let mut pages = Vec::new();
    let mut rest = lines.into_iter().peekable();
    while rest.peek().is_some() {
        let mut columns = Vec::new();
        for _ in 0..MOVES_PER_PAGE / ROWS_PER_COLUMN {
            let column: Vec<Line> = rest.by_ref().take(ROWS_PER_COLUMN).collect();
            if !column.is_empty() {
                columns.push(column);
            }
        }
        pages.push(Page {
            fields: fields.clone(),
            columns,
        });
    }
    pages
}

/// A blank page of numbered lines, 1 to 60, headed by `fields`: a board's sheet before its
/// game.
fn blank_page(fields: Fields) -> Page {
    let columns = (0..MOVES_PER_PAGE / ROWS_PER_COLUMN)
        .map(|c| {
            (1..=ROWS_PER_COLUMN)
                .map(|r| Line {
                    number: (c * ROWS_PER_COLUMN + r) as u32,
                    white: String::new(),
                    black: String::new(),
                })
                .collect()
        })
        .collect();
    Page { fields, columns }
}

/// `GET /game/{id}/sheet`.
pub(crate) async fn sheet(
    State(state): State<AppState>,
    chrome: Chrome,
    super::Origin(origin): super::Origin,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(q): Query<SheetQuery>,
) -> Response {
    let tr = chrome.tr;
    let row = match state.store.game(&id).await {
        Ok(Some(row)) => row,
        Ok(None) => return not_found(&headers),
        Err(e) => return super::error::ApiError::from(e).into_response(),
    };
    let (game, stored) = match (
        state.rooms.game_of(&row).await,
        state.store.moves(&row.game.id).await,
    ) {
        (Ok((_, game)), Ok(stored)) => (game, stored),
        (Err(e), _) | (_, Err(e)) => return super::error::ApiError::from(e).into_response(),
    };
    let long = q.notation.as_deref() == Some("long");
    let mut pos = *game.start();
    let first_color = pos.turn();
    let mut moves = Vec::with_capacity(game.moves().len());
    for played in game.moves() {
        moves.push(chrome.move_text(&if long {
            pos.long_form(played.m)
        } else {
            played.san.to_string()
        }));
        pos.play_unchecked(played.m);
    }
    // Time used: the thinking time charged for each side's moves.
    let mut used = [0i64; 2];
    for (i, m) in stored.iter().enumerate() {
        let mover = if (i % 2 == 0) == (first_color == Color::White) {
            0
        } else {
            1
        };
        used[mover] += m.elapsed_ms.max(0);
    }
    // The fields the game's PGN has too (an imported game's own).
    let tags = match crate::export::header(&state.store, &row, &origin).await {
        Ok(tags) => tags,
        Err(e) => return super::error::ApiError::from(e).into_response(),
    };
    let tag = |name: &str| {
        tags.get(name)
            .filter(|v| !v.is_empty() && !v.starts_with('?'))
            .unwrap_or_default()
            .to_owned()
    };
    // "GM Anna (2450)": the name with its title and rating, as the tags say them.
    let named = |c: Color| {
        let side = if c == Color::White { "White" } else { "Black" };
        let mut name = tr.player_name(row.game.name(c));
        if let Some(title) = tags.get(&format!("{side}Title")) {
            name = format!("{title} {name}");
        }
        if let Some(elo) = tags.get(&format!("{side}Elo")).filter(|e| *e != "?") {
            name = format!("{name} ({elo})");
        }
        name
    };
    let (result, winner) = match game.result() {
        Some((GameResult::WhiteWins, _)) => ("1-0", named(Color::White)),
        Some((GameResult::BlackWins, _)) => ("0-1", named(Color::Black)),
        Some((GameResult::Draw, _)) => ("½-½", tr.t("draw").to_owned()),
        _ => ("", String::new()),
    };
    let limit = describe(tr, &row.game.time_control);
    let fields = Fields {
        event: tag("Event"),
        date: tag("Date"),
        site: tag("Site"),
        round: tag("Round"),
        table: tag("Board"),
        white: named(Color::White),
        black: named(Color::Black),
        limit,
        used: used.map(clock_face),
        result: result.to_owned(),
        ended: game
            .result()
            .map(|(_, how)| tr.ending(how))
            .unwrap_or_default(),
        winner,
    };
    let id = &row.game.id;
    let notation = if long {
        (format!("/game/{id}/sheet"), "to-san", "notation_san")
    } else {
        (
            format!("/game/{id}/sheet?notation=long"),
            "to-long",
            "notation_long",
        )
    };
    let page = SheetPage {
        tr,
        assets: super::pages::Assets,
        back: (format!("/game/{id}"), "back_to_game"),
        notation: Some(notation),
        pages: pages_of(
            &fields,
            game.start().fullmoves(),
            first_color == Color::Black,
            moves,
        ),
    };
    render(&page)
}

/// `GET /events/{id}/round/{round}/sheets`: the seeds' score sheet for every board of a
/// round, filled in before play (event, round, table, players, time limit), one page a board,
/// to print for an evening over the board.
pub(crate) async fn round_sheets(
    State(state): State<AppState>,
    chrome: Chrome,
    super::Origin(origin): super::Origin,
    headers: HeaderMap,
    Path((id, round)): Path<(String, u32)>,
) -> Response {
    let tr = chrome.tr;
    let t = match crate::tournaments::read(&state.store, &id).await {
        Ok(found) => found,
        Err(crate::tournaments::TournamentError::NotFound) => return not_found(&headers),
        Err(e) => return super::error::ApiError::from(e).into_response(),
    };
    let Some(boards) = t.event.paired.get((round as usize).wrapping_sub(1)) else {
        return not_found(&headers);
    };
    // Online: the games' clock in words; over the board: the limit as the organiser wrote it.
    let limit = super::events::limit_words(tr, &t);
    let name = |n: u32| {
        let p = &t.event.players[n as usize - 1];
        if p.rating > 0 {
            format!("{} ({})", p.name, p.rating)
        } else {
            p.name.clone()
        }
    };
    let pages = boards
        .iter()
        .enumerate()
        .filter_map(|(k, b)| {
            let black = b.black?;
            Some(blank_page(Fields {
                event: t.event.name.clone(),
                site: origin.clone(),
                round: round.to_string(),
                table: (k + 1).to_string(),
                white: name(b.white),
                black: name(black),
                limit: limit.clone(),
                ..Fields::default()
            }))
        })
        .collect();
    render(&SheetPage {
        tr,
        assets: super::pages::Assets,
        back: (format!("/events/{id}"), "back_to_tournament"),
        notation: None,
        pages,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixty_moves_fill_one_page_of_two_columns() {
        let moves: Vec<String> = (0..120).map(|i| format!("m{i}")).collect();
        let pages = pages_of(&Fields::default(), 1, false, moves);
        assert_eq!(pages.len(), 1);
        assert_eq!(pages[0].columns.len(), 2);
        assert_eq!(pages[0].columns[0].len(), 30);
        assert_eq!(pages[0].columns[1][29].number, 60);
        assert_eq!(pages[0].columns[1][29].black, "m119");
        // The 61st move starts a second page.
        let pages = pages_of(
            &Fields::default(),
            1,
            false,
            (0..121).map(|i| format!("m{i}")).collect(),
        );
        assert_eq!(pages.len(), 2);
        assert_eq!(pages[1].columns[0][0].number, 61);
        assert_eq!(pages[1].columns[0][0].black, "");
    }

    #[test]
    fn black_first_leaves_whites_half_empty() {
        let pages = pages_of(
            &Fields::default(),
            30,
            true,
            vec!["Kd7".into(), "Ke2".into(), "Ke6".into()],
        );
        let col = &pages[0].columns[0];
        assert_eq!(
            (col[0].number, col[0].white.as_str(), col[0].black.as_str()),
            (30, "…", "Kd7")
        );
        assert_eq!(
            (col[1].number, col[1].white.as_str(), col[1].black.as_str()),
            (31, "Ke2", "Ke6")
        );
        assert_eq!(clock_face(3_723_000), "1:02:03");
        assert_eq!(clock_face(61_999), "1:01");
    }
}
