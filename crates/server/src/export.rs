//! The PGN of a stored game: the record the core writes from the game as it stands, with
//! the players, dates and stored clocks added (lichess-compatible tags, docs/API.md).

use rookery_core::pgn::{GameRecord, Tags};
use time::OffsetDateTime;

use crate::rooms::Rooms;
use crate::store::{GameRow, Store, StoreError};

/// The PGN text of a stored game, from its room if it is live, its `Site` the game's address
/// under `origin` (`https://chess.example.org`). Clocks are written in whole seconds, as
/// lichess writes them and most readers expect them (docs/API.md); without `clocks`, none.
///
/// # Errors
/// The store failed, or the stored game cannot be replayed (a fault the caller logs).
pub(crate) async fn pgn(
    rooms: &Rooms,
    store: &Store,
    row: &GameRow,
    origin: &str,
    clocks: bool,
) -> Result<String, StoreError> {
    let (_, game) = rooms.game_of(row).await?;
    let mut record = game.to_record();
    // The stored clocks are the record (for imported games, the ones they came with).
    let stored = store.moves(&row.game.id).await?;
    for (rm, sm) in record.moves.iter_mut().zip(&stored) {
        // Whole seconds, rounded down as a clock's face shows them.
        rm.clock = sm
            .clock_ms
            .filter(|_| clocks)
            .map(|ms| std::time::Duration::from_secs(ms.max(0) as u64 / 1000));
    }
    // The opening, as lichess writes it (an imported game that named its own keeps it).
    if let Some(opening) = crate::room::opening_of(&game) {
        record.tags.set("ECO", opening.eco);
        record.tags.set("Opening", opening.name);
    }
    for (name, value) in header(store, row, origin).await?.iter() {
        record.tags.set(name, value);
    }
    if let Some(stored) = store.analysis(&row.game.id).await? {
        if let Some(analysis) = stored
            .evals
            .as_deref()
            .and_then(|e| crate::analysis::GameAnalysis::of(&game, e))
        {
            annotate(&mut record, &analysis);
        }
    }
    Ok(rookery_core::pgn::write(&record))
}

/// A computer analysis in the PGN, as lichess writes one: `[%eval 0.17]` (or `#3`) after each
/// move for the position it reached, and for a judged move its NAG (`$6` `$2` `$4`, the seeds'
/// `?!` `?` `??`) and a comment naming the engine's better move.
fn annotate(record: &mut GameRecord, analysis: &crate::analysis::GameAnalysis) {
    for (i, rm) in record.moves.iter_mut().enumerate() {
        if let Some(text) = analysis
            .evals
            .get(i + 1)
            .and_then(crate::analysis::GameAnalysis::eval_text)
        {
            rm.comments.insert(0, format!("[%eval {text}]"));
        }
        if let Some(Some(judgement)) = analysis.review.judgements.get(i) {
            rm.nags.push(judgement.nag());
            let comment = match analysis.best.get(i).cloned().flatten() {
                Some(best) => format!("{}. {best} was best.", judgement.word()),
                None => format!("{}.", judgement.word()),
            };
            rm.comments.push(comment);
        }
    }
}

/// One player's rating in a rated game: before it (as it stands now while the game is on),
/// and once the game has counted, the changes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SeatRating {
    pub(crate) before: rookery_core::rating::Glicko,
    /// The rating after it, once counted.
    pub(crate) after: Option<rookery_core::rating::Glicko>,
    /// The rating difference (`+7`), once counted.
    pub(crate) diff: Option<i64>,
    /// Ladder points moved (hundredths), once counted.
    pub(crate) ladder: Option<i64>,
}

/// The ratings of a rated game's players, white's then black's (`None` for an unrated game
/// or a seat with no account).
pub(crate) async fn game_ratings(
    store: &Store,
    row: &GameRow,
) -> Result<Option<[Option<SeatRating>; 2]>, StoreError> {
    if !row.game.rated {
        return Ok(None);
    }
    let changes = store.rating_changes_of(&row.game.id).await?;
    let now = crate::wallclock::now_ms() as i64;
    let speed = row.game.speed();
    let mut out = [None, None];
    for (slot, user) in out
        .iter_mut()
        .zip([&row.game.white_user, &row.game.black_user])
    {
        let Some(user) = user else { continue };
        if let Some(change) = changes.iter().find(|c| &c.user_id == user) {
            *slot = Some(SeatRating {
                before: change.before,
                after: Some(change.after),
                diff: Some(change.diff()),
                ladder: Some(change.ladder_after.0 - change.ladder_before.0),
            });
        } else if let Some(speed) = speed {
            let before = store.rating_at(user, speed, now).await?;
            *slot = Some(SeatRating {
                before,
                after: None,
                diff: None,
                ladder: None,
            });
        }
    }
    Ok(Some(out))
}

/// A rating difference as lichess writes it: `+7`, `-7`, `+0`.
pub(crate) fn signed(d: i64) -> String {
    if d >= 0 {
        format!("+{d}")
    } else {
        d.to_string()
    }
}

/// A rated game's ratings as lichess writes them: `WhiteElo`/`BlackElo`, each player's rating
/// before the game (whole, without the provisional mark), and once the game has counted,
/// `WhiteRatingDiff`/`BlackRatingDiff` (`+7`, `-7`).
async fn rating_tags(tags: &mut Tags, store: &Store, row: &GameRow) -> Result<(), StoreError> {
    let Some(seats) = game_ratings(store, row).await? else {
        return Ok(());
    };
    for (seat, (elo, diff)) in seats.iter().zip([
        ("WhiteElo", "WhiteRatingDiff"),
        ("BlackElo", "BlackRatingDiff"),
    ]) {
        let Some(seat) = seat else { continue };
        tags.set(elo, format!("{}", seat.before.rating.round() as i64));
        if let Some(d) = seat.diff {
            tags.set(diff, signed(d));
        }
    }
    Ok(())
}

/// What a stored game says of itself, for its PGN and its score sheet alike: event, site,
/// date, round, table (`Board`), players, their titles and ratings. A game played here has
/// the store's (`Event "Rookery game"`, its address as `Site`, the day it was made); an
/// imported game keeps every tag it came with (issue 54), the store's filling in only what it
/// had not (its `Termination` is the replay's, not the file's).
///
/// # Errors
/// The store failed.
pub(crate) async fn header(store: &Store, row: &GameRow, origin: &str) -> Result<Tags, StoreError> {
    let own = store.imported_tags(&row.game.id).await?;
    let mut tags = Tags::new();
    let club = &row.game.club;
    match (&club.event, &own) {
        (Some(event), _) => tags.set("Event", event.as_str()),
        (None, None) => tags.set("Event", SITE_EVENT),
        // An imported game without an Event of its own has none.
        (None, Some(_)) => {}
    }
    tags.set("Site", format!("{origin}/game/{}", row.game.id));
    if own.is_none() {
        let (date, time) = utc_date_time(row.game.created_at);
        tags.set("Date", date.as_str());
        tags.set("UTCDate", date);
        tags.set("UTCTime", time);
    }
    if let Some(round) = &club.round {
        tags.set("Round", round.as_str());
    }
    tags.set("White", row.game.white_name.as_str());
    tags.set("Black", row.game.black_name.as_str());
    // R7: the score sheet's table is the PGN's Board tag.
    if let Some(table) = &club.table {
        tags.set("Board", table.as_str());
    }
    // Lichess's tags for titled players (their accounts' titles as they are now).
    if let Some(title) = row.white_title {
        tags.set("WhiteTitle", title.as_str());
    }
    if let Some(title) = row.black_title {
        tags.set("BlackTitle", title.as_str());
    }
    if row.game.rated {
        rating_tags(&mut tags, store, row).await?;
    }
    for (name, value) in own.iter().flatten() {
        // The names a tournament's board gave stand over the file's.
        let ours = matches!(name.as_str(), "Termination" | "White" | "Black")
            || (name == "Event" && club.event.is_some())
            || (name == "Round" && club.round.is_some());
        if !ours {
            tags.set(name, value.as_str());
        }
    }
    Ok(tags)
}

/// The `Event` of a game played on the site outside any tournament.
pub(crate) const SITE_EVENT: &str = "Rookery game";

/// `YYYY.MM.DD` and `HH:MM:SS` (UTC) of a time in ms since the Unix epoch, as PGN writes
/// them (`????.??.??` for a time out of range).
pub(crate) fn utc_date_time(ms: i64) -> (String, String) {
    let Ok(at) = OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000)) else {
        return ("????.??.??".into(), "??:??:??".into());
    };
    (
        format!(
            "{:04}.{:02}.{:02}",
            at.year(),
            u8::from(at.month()),
            at.day()
        ),
        format!("{:02}:{:02}:{:02}", at.hour(), at.minute(), at.second()),
    )
}

#[cfg(test)]
mod tests {
    use super::utc_date_time;

    #[test]
    fn pgn_dates_in_utc() {
        assert_eq!(utc_date_time(0), ("1970.01.01".into(), "00:00:00".into()));
        // 2026-11-30 07:15:30 UTC.
        assert_eq!(
            utc_date_time(1_796_022_930_000),
            ("2026.11.30".into(), "07:15:30".into())
        );
        // 2000-02-29 23:59:59 UTC, a leap day.
        assert_eq!(
            utc_date_time(951_868_799_000),
            ("2000.02.29".into(), "23:59:59".into())
        );
        assert_eq!(utc_date_time(i64::MAX).0, "????.??.??");
    }
}
