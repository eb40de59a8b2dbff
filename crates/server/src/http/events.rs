//! The tournament pages (docs/TOURNAMENTS.md): `/events` (the newest tournaments, and the
//! form that makes one), `/events/{id}` (standings with the tie-breaks, the crosstable, each
//! round's pairings and results, the players, the corrections; the arbiter's controls), and
//! the printable A4 lists an arbiter pins on the wall: `/events/{id}/round/{r}/pairings` and
//! `/events/{id}/standings`. Every change a page makes is one `POST /api/events/{id}`
//! (`event.js`): the one way in, [`crate::tournaments::act`].

use askama::Template;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use rookery_pairing::event::{Result as BoardResult, System};
use rookery_pairing::trf::{Color, Outcome, Points};

use super::AppState;
use super::identity::Caller;
use super::pages::{Chrome, Tr, describe, not_found, render};
use crate::export::utc_date_time;
use crate::tournaments::{self, Tournament, TournamentError};

/// Tournaments `/events` lists.
const LISTED: i64 = 50;

/// Points as a crosstable writes them: `2½`, `½`, `0`.
pub(crate) fn points_text(p: Points) -> String {
    let (whole, half) = (p / 10, p % 10 >= 5);
    match (whole, half) {
        (0, true) => "½".to_owned(),
        (w, true) => format!("{w}½"),
        (w, false) => w.to_string(),
    }
}

/// A board's result as a pairing list prints it.
fn result_text(r: Option<BoardResult>) -> &'static str {
    match r {
        None => "",
        Some(BoardResult::WhiteWins) => "1-0",
        Some(BoardResult::Draw) => "½-½",
        Some(BoardResult::BlackWins) => "0-1",
        Some(BoardResult::WhiteByForfeit) => "+/-",
        Some(BoardResult::BlackByForfeit) => "-/+",
        Some(BoardResult::DoubleForfeit) => "-/-",
    }
}

/// One player on a pairing list: starting number, name, rating, points before the round.
struct Seat {
    number: u32,
    name: String,
    rating: u32,
    points: String,
}

/// One board of a round.
struct BoardLine {
    board: usize,
    white: Seat,
    /// `None`: the pairing-allocated bye.
    black: Option<Seat>,
    result: &'static str,
    /// As the API writes it (`1/2-1/2`), for the arbiter's select.
    code: &'static str,
    game: Option<String>,
}

/// A round's boards, and who is not paired in it (byes asked for, absent).
struct RoundView {
    number: u32,
    boards: Vec<BoardLine>,
    byes: Vec<(String, String)>,
    complete: bool,
}

/// A line of the standings.
struct Standing {
    rank: usize,
    number: u32,
    name: String,
    rating: u32,
    values: Vec<String>,
}

/// A line of the crosstable, by round: each cell the opponent's rank, the colour and the
/// result (`12w1`), or a bye's letter (C.04: `U` allocated, `F`/`H`/`Z` asked for).
struct CrossLine {
    rank: usize,
    number: u32,
    name: String,
    rating: u32,
    cells: Vec<String>,
    total: String,
}

/// A player of the entry list.
struct EntryLine {
    number: u32,
    name: String,
    rating: u32,
    note: String,
}

/// A correction as the page lists it.
struct CorrectionLine {
    round: u32,
    board: u32,
    from: String,
    to: String,
    reason: String,
    by: String,
    at: String,
}

/// Everything the tournament's pages show.
struct EventView {
    id: String,
    name: String,
    /// "Swiss (FIDE Dutch system), 7 rounds" and such.
    about: String,
    /// Where it stands, in words.
    status: String,
    /// The clock or time limit, in words.
    limit: String,
    online: bool,
    rated: bool,
    next_round: u32,
    rounds: u32,
    /// The last round has every result in, and a round is left to pair.
    can_pair: bool,
    entry_open: bool,
    password: bool,
    tie_breaks: Vec<String>,
    standings: Vec<Standing>,
    cross: Vec<CrossLine>,
    /// A round robin's table: rows and columns by starting number, the column heads.
    grid: Option<Vec<CrossLine>>,
    complete_rounds: Vec<u32>,
    rounds_view: Vec<RoundView>,
    players: Vec<EntryLine>,
    corrections: Vec<CorrectionLine>,
    /// A rated event over the board: each player's ladder points (R8).
    ladder: Vec<LadderRow>,
}

/// A player's ladder points before the event and now (R8).
struct LadderRow {
    number: usize,
    name: String,
    before: String,
    after: String,
    change: String,
    games: u32,
    class: String,
}

fn bye_words(tr: Tr, outcome: Outcome) -> String {
    let key = match outcome {
        Outcome::PairingBye => "ev_bye_pairing",
        Outcome::FullBye => "ev_bye_full",
        Outcome::HalfBye => "ev_bye_half",
        _ => "ev_bye_zero",
    };
    tr.t(key).to_owned()
}

/// A crosstable cell: what player `id`'s record says of `round`, the opponent named by
/// `name_of` (his rank, or his starting number).
fn cell(t: &Tournament, id: u32, round: u32, name_of: &dyn Fn(u32) -> String) -> String {
    let Some(rec) = t.event.record_of(id, round) else {
        return String::new();
    };
    let mark = match rec.outcome {
        Outcome::ForfeitWon => "+".to_owned(),
        Outcome::ForfeitLost => "-".to_owned(),
        Outcome::Won => "1".to_owned(),
        Outcome::Drew => "½".to_owned(),
        Outcome::Lost => "0".to_owned(),
        Outcome::Absent => String::new(),
        other => other.as_char().to_string(),
    };
    match rec.opponent {
        Some(opp) => {
            let colour = match rec.colour {
                Some(Color::White) => "w",
                Some(Color::Black) => "b",
                None => "",
            };
            format!("{}{colour}{mark}", name_of(opp))
        }
        None => mark,
    }
}

/// The time limit in the reader's words: online, the games' clock; over the board, the
/// organiser's words.
pub(crate) fn limit_words(tr: Tr, t: &Tournament) -> String {
    match &t.online {
        Some(o) => tournaments::control_of(&o.clock)
            .map(|c| describe(tr, &c))
            .unwrap_or_else(|_| o.clock.clone()),
        None => t.time_limit.clone().unwrap_or_default(),
    }
}

fn view(tr: Tr, id: &str, t: &Tournament) -> EventView {
    let e = &t.event;
    let list = t.tie_breaks();
    let (values, ranks) = e.standings(&list);
    let order = tournaments::by_rank(&ranks);
    let complete_rounds: Vec<u32> = (1..=e.complete_rounds() as u32).collect();
    let player = |n: u32| &e.players[n as usize - 1];
    let total = |n: u32| points_text(e.points_before(n, e.paired.len() as u32 + 1));
    let rank_of = |n: u32| ranks[n as usize - 1].to_string();
    let cross = order
        .iter()
        .map(|&i| {
            let n = i as u32 + 1;
            CrossLine {
                rank: ranks[i],
                number: n,
                name: player(n).name.clone(),
                rating: player(n).rating,
                cells: complete_rounds
                    .iter()
                    .map(|&r| cell(t, n, r, &rank_of))
                    .collect(),
                total: total(n),
            }
        })
        .collect();
    let grid = (e.system == System::RoundRobin).then(|| {
        (1..=e.players.len() as u32)
            .map(|n| {
                let cells = (1..=e.players.len() as u32)
                    .map(|m| {
                        if m == n {
                            return "×".to_owned();
                        }
                        let marks: Vec<String> = complete_rounds
                            .iter()
                            .filter_map(|&r| e.record_of(n, r))
                            .filter(|rec| rec.opponent == Some(m))
                            .map(|rec| match rec.outcome {
                                Outcome::Won => "1".to_owned(),
                                Outcome::Drew => "½".to_owned(),
                                Outcome::Lost => "0".to_owned(),
                                other => other.as_char().to_string(),
                            })
                            .collect();
                        marks.join(" ")
                    })
                    .collect();
                CrossLine {
                    rank: ranks[n as usize - 1],
                    number: n,
                    name: player(n).name.clone(),
                    rating: player(n).rating,
                    cells,
                    total: total(n),
                }
            })
            .collect()
    });
    let rounds_view = e
        .paired
        .iter()
        .enumerate()
        .rev()
        .map(|(r, boards)| {
            let number = r as u32 + 1;
            let seat = |n: u32| Seat {
                number: n,
                name: player(n).name.clone(),
                rating: player(n).rating,
                points: points_text(e.points_before(n, number)),
            };
            let paired: Vec<u32> = boards
                .iter()
                .flat_map(|b| [Some(b.white), b.black])
                .flatten()
                .collect();
            let byes = (1..=e.players.len() as u32)
                .filter(|n| !paired.contains(n))
                .filter_map(|n| {
                    let rec = e.record_of(n, number)?;
                    // Players not in the event yet, or withdrawn, are not listed.
                    let p = player(n);
                    let playing =
                        p.first_round <= number && p.withdrawn_from.is_none_or(|w| number < w);
                    (playing || rec.outcome != Outcome::ZeroBye)
                        .then(|| (p.name.clone(), bye_words(tr, rec.outcome)))
                })
                .collect();
            RoundView {
                number,
                boards: boards
                    .iter()
                    .enumerate()
                    .map(|(k, b)| BoardLine {
                        board: k + 1,
                        white: seat(b.white),
                        black: b.black.map(seat),
                        result: if b.black.is_none() {
                            match e.system {
                                System::Dutch => "1",
                                System::RoundRobin => "0",
                            }
                        } else {
                            result_text(b.result)
                        },
                        code: b.result.map_or("", BoardResult::as_str),
                        game: t.game(r, k).map(str::to_owned),
                    })
                    .collect(),
                byes,
                complete: complete_rounds.contains(&number),
            }
        })
        .collect();
    let limit = limit_words(tr, t);
    let finished = t.finished();
    let status = if finished {
        tr.t("ev_finished").to_owned()
    } else if e.paired.is_empty() {
        match t.online.as_ref().and_then(|o| o.starts_at) {
            Some(at) => {
                let (d, h) = utc_date_time(at);
                tr.t("ev_starts_at")
                    .replace("{at}", &format!("{d} {} UTC", &h[..5]))
            }
            None => tr.t("ev_not_started").to_owned(),
        }
    } else if complete_rounds.len() == e.paired.len() {
        tr.t("ev_between_rounds")
            .replace("{n}", &e.paired.len().to_string())
            .replace("{of}", &e.rounds.to_string())
    } else {
        tr.t("ev_round_on")
            .replace("{n}", &e.paired.len().to_string())
            .replace("{of}", &e.rounds.to_string())
    };
    let system = match e.system {
        System::Dutch => tr.t("ev_swiss"),
        System::RoundRobin => tr.t("ev_round_robin"),
    };
    EventView {
        id: id.to_owned(),
        name: e.name.clone(),
        about: tr
            .t("ev_about")
            .replace("{system}", system)
            .replace("{n}", &e.rounds.to_string()),
        status,
        limit,
        online: t.online.is_some(),
        rated: t.online.as_ref().is_some_and(|o| o.rated),
        next_round: e.next_round(),
        rounds: e.rounds,
        can_pair: !finished
            && e.next_round() <= e.rounds
            && complete_rounds.len() == e.paired.len(),
        entry_open: !t.settings.entry_closed,
        password: t.settings.password.is_some(),
        tie_breaks: list.iter().map(ToString::to_string).collect(),
        standings: order
            .iter()
            .map(|&i| Standing {
                rank: ranks[i],
                number: i as u32 + 1,
                name: e.players[i].name.clone(),
                rating: e.players[i].rating,
                values: values[i].iter().map(ToString::to_string).collect(),
            })
            .collect(),
        cross,
        grid,
        complete_rounds,
        rounds_view,
        players: e
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let mut note = Vec::new();
                if p.first_round > 1 {
                    note.push(
                        tr.t("ev_from_round")
                            .replace("{n}", &p.first_round.to_string()),
                    );
                }
                if let Some(w) = p.withdrawn_from {
                    note.push(tr.t("ev_withdrawn_from").replace("{n}", &w.to_string()));
                }
                EntryLine {
                    number: i as u32 + 1,
                    name: p.name.clone(),
                    rating: p.rating,
                    note: note.join("; "),
                }
            })
            .collect(),
        ladder: if t.settings.ladder {
            tournaments::ladder(e)
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let diff = rookery_core::rating::ladder::LadderPoints(l.after.0 - l.before.0);
                    LadderRow {
                        number: i + 1,
                        name: e.players[i].name.clone(),
                        before: l.before.shown(),
                        after: l.after.shown(),
                        change: if diff.0 > 0 {
                            format!("+{}", diff.shown())
                        } else {
                            diff.shown()
                        },
                        games: l.games,
                        class: super::boards::class_name(tr, l.after.class()),
                    }
                })
                .collect()
        } else {
            Vec::new()
        },
        corrections: t
            .settings
            .corrections
            .iter()
            .map(|c| {
                let (d, h) = utc_date_time(c.at);
                CorrectionLine {
                    round: c.round,
                    board: c.board,
                    from: result_text(c.from.as_deref().and_then(BoardResult::parse)).to_owned(),
                    to: result_text(c.to.as_deref().and_then(BoardResult::parse)).to_owned(),
                    reason: c.reason.clone(),
                    by: c.by.clone(),
                    at: format!("{d} {h}"),
                }
            })
            .collect(),
    }
}

/// Reads tournament `id` brought up to date, with its arbiter's account id, or the page's
/// answer when it cannot.
async fn load(
    state: &AppState,
    headers: &HeaderMap,
    id: &str,
) -> Result<(Tournament, String), Response> {
    let error = |e: TournamentError| match e {
        TournamentError::NotFound => not_found(headers),
        e => super::error::ApiError::from(e).into_response(),
    };
    let (t, row) = tournaments::read_kept(&state.rooms, id)
        .await
        .map_err(error)?;
    Ok((t, row.owner))
}

#[derive(Template)]
#[template(path = "events.html")]
struct EventsPage {
    tr: Tr,
    chrome: Chrome,
    /// (id, name, what it is, where it stands).
    list: Vec<(String, String, String, String)>,
}

/// `GET /events`: the newest tournaments, and (logged in) the form that makes one.
pub(crate) async fn list(State(state): State<AppState>, chrome: Chrome) -> Response {
    let tr = chrome.tr;
    let stored = match state
        .store
        .tournaments(
            crate::store::tournaments::Which::All,
            tournaments::KIND,
            LISTED,
        )
        .await
    {
        Ok(rows) => rows,
        Err(e) => return super::error::ApiError::from(e).into_response(),
    };
    let list = stored
        .iter()
        .filter_map(|row| {
            let t = tournaments::parse(&row.body).ok()?;
            let v = view(tr, &row.id, &t);
            Some((v.id, v.name, v.about, v.status))
        })
        .collect();
    render(&EventsPage { tr, chrome, list })
}

#[derive(Template)]
#[template(path = "event.html")]
struct EventPage {
    tr: Tr,
    chrome: Chrome,
    ev: EventView,
    /// The reader runs it.
    arbiter: bool,
    /// The reader's starting number, if he plays in it.
    mine: Option<u32>,
    /// The reader may join (online, logged in, not in it, entry open).
    can_join: bool,
    /// The reader's game under way in the last round: (round, game id).
    my_game: Option<(usize, String)>,
}

/// `GET /events/{id}`: the tournament.
pub(crate) async fn page(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let chrome = Chrome::of(&caller, &headers);
    let tr = chrome.tr;
    let (t, owner) = match load(&state, &headers, &id).await {
        Ok(found) => found,
        Err(answer) => return answer,
    };
    let me = caller.account.as_ref().map(|a| a.user.id.as_str());
    let mine = me.and_then(|m| t.number_of(m));
    let ev = view(tr, &id, &t);
    let can_join = me.is_some() && mine.is_none() && ev.online && ev.entry_open;
    let my_game = mine.and_then(|n| {
        let r = t.event.paired.len().checked_sub(1)?;
        let k = t.event.paired[r].iter().position(|b| {
            b.result.is_none() && b.black.is_some() && (b.white == n || b.black == Some(n))
        })?;
        Some((r + 1, t.game(r, k)?.to_owned()))
    });
    render(&EventPage {
        tr,
        chrome,
        arbiter: me == Some(owner.as_str()),
        mine,
        can_join,
        my_game,
        ev,
    })
}

#[derive(Template)]
#[template(path = "event-print.html")]
struct PrintPage {
    tr: Tr,
    assets: super::pages::Assets,
    ev: EventView,
    /// The round whose pairing list this is; `None`: the standings and the crosstable.
    round: Option<RoundView>,
}

/// `GET /events/{id}/round/{round}/pairings`: a round's pairing list on A4.
pub(crate) async fn print_pairings(
    State(state): State<AppState>,
    chrome: Chrome,
    headers: HeaderMap,
    Path((id, round)): Path<(String, u32)>,
) -> Response {
    let t = match load(&state, &headers, &id).await {
        Ok((t, _)) => t,
        Err(answer) => return answer,
    };
    let mut ev = view(chrome.tr, &id, &t);
    let Some(at) = ev.rounds_view.iter().position(|r| r.number == round) else {
        return not_found(&headers);
    };
    let round = ev.rounds_view.remove(at);
    render(&PrintPage {
        tr: chrome.tr,
        assets: super::pages::Assets,
        ev,
        round: Some(round),
    })
}

/// `GET /events/{id}/standings`: the standings with their tie-breaks and the crosstable,
/// on A4.
pub(crate) async fn print_standings(
    State(state): State<AppState>,
    chrome: Chrome,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let t = match load(&state, &headers, &id).await {
        Ok((t, _)) => t,
        Err(answer) => return answer,
    };
    render(&PrintPage {
        tr: chrome.tr,
        assets: super::pages::Assets,
        ev: view(chrome.tr, &id, &t),
        round: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_written_with_halves() {
        assert_eq!(points_text(0), "0");
        assert_eq!(points_text(5), "½");
        assert_eq!(points_text(10), "1");
        assert_eq!(points_text(25), "2½");
        assert_eq!(result_text(Some(BoardResult::Draw)), "½-½");
        assert_eq!(result_text(Some(BoardResult::BlackByForfeit)), "-/+");
        assert_eq!(result_text(None), "");
    }
}
