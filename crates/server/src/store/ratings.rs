//! Ratings in the database (migration 0008): each account's Glicko-2 rating per speed, its
//! ladder points (R8), and the change every rated game made. A rated game's ratings change in
//! the same transaction as its end (`writer.rs`), once: the change's key is the game and the
//! account, so a game already counted is never counted again.

use rookery_core::clock::TimeControl;
use rookery_core::game::Termination;
use rookery_core::pgn::GameResult;
use rookery_core::rating::Speed;
use rookery_core::rating::glicko2::{Glicko, Outcome};
use rookery_core::rating::ladder::{self, LadderPoints, LadderResult};
use sqlx::Row;

use super::{Ending, Store, StoreError};

const DAY_MS: f64 = 86_400_000.0;

/// An account's rating at one speed, as stored (deviation not yet grown for the idle time).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct StoredRating {
    pub(crate) glicko: Glicko,
    pub(crate) games: i64,
    /// When its last rated game ended (ms).
    pub(crate) rated_at: i64,
}

impl StoredRating {
    /// The rating as it stands at `now`: the deviation grown with the days since the last
    /// rated game (lichess's 0.21436 rating periods a day).
    pub(crate) fn at(&self, now: i64) -> Glicko {
        self.glicko
            .after_idle((now - self.rated_at).max(0) as f64 / DAY_MS)
    }
}

/// What a rated game changed for one player.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RatingChange {
    pub(crate) user_id: String,
    pub(crate) speed: Speed,
    pub(crate) before: Glicko,
    pub(crate) after: Glicko,
    pub(crate) ladder_before: LadderPoints,
    pub(crate) ladder_after: LadderPoints,
}

impl RatingChange {
    /// The rating difference as lichess writes it (`+7`, `-7`, `0`): of the rounded ratings.
    pub(crate) fn diff(&self) -> i64 {
        self.after.rating.round() as i64 - self.before.rating.round() as i64
    }
}

async fn rating_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    user: &str,
    speed: Speed,
) -> Result<Option<StoredRating>, StoreError> {
    let row = sqlx::query(
        "SELECT rating, deviation, volatility, games, rated_at FROM ratings \
         WHERE user_id = $1 AND speed = $2",
    )
    .bind(user)
    .bind(speed.as_str())
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|r| stored_rating(&r)).transpose()
}

fn stored_rating(r: &sqlx::any::AnyRow) -> Result<StoredRating, StoreError> {
    Ok(StoredRating {
        glicko: Glicko {
            rating: r.try_get(0)?,
            deviation: r.try_get(1)?,
            volatility: r.try_get(2)?,
        },
        games: r.try_get(3)?,
        rated_at: r.try_get(4)?,
    })
}

async fn ladder_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    user: &str,
) -> Result<LadderPoints, StoreError> {
    let row = sqlx::query("SELECT points FROM ladder WHERE user_id = $1")
        .bind(user)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(LadderPoints(
        row.map(|r| r.try_get::<i64, _>(0))
            .transpose()?
            .unwrap_or(0),
    ))
}

/// Locks the accounts seated in these games (PostgreSQL; an SQLite file has one writer at a
/// time), in the order of their ids, before their ratings and ladder points are read and
/// written in this transaction: two nodes ending games of the same account at once take
/// turns, the second reading what the first wrote (read committed would otherwise let both
/// read the same rating and one update be lost), and since every transaction locks in the
/// same order, two cannot deadlock.
pub(crate) async fn lock_players(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game_ids: &[&str],
) -> Result<(), StoreError> {
    if game_ids.is_empty() {
        return Ok(());
    }
    let marks = super::placeholders(1, game_ids.len());
    let sql = format!(
        "SELECT id FROM users WHERE id IN (SELECT white_user FROM games WHERE id IN ({marks}) \
         UNION SELECT black_user FROM games WHERE id IN ({marks})) ORDER BY id \
         FOR NO KEY UPDATE"
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for id in game_ids {
        query = query.bind(*id);
    }
    query.fetch_all(&mut **tx).await?;
    Ok(())
}

/// Applies a rated game's end to its players' ratings and ladder points (the latter only
/// for `ladder_speeds`), inside the transaction that ends it. Nothing happens for an unrated
/// game, an aborted or unfinished one, one in which a side never moved (lichess: it changes
/// no rating), or one already counted.
pub(crate) async fn apply(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game_id: &str,
    ending: Ending,
    at: i64,
    ladder_speeds: &[Speed],
) -> Result<Vec<RatingChange>, StoreError> {
    let row =
        sqlx::query("SELECT rated, white_user, black_user, time_control FROM games WHERE id = $1")
            .bind(game_id)
            .fetch_optional(&mut **tx)
            .await?;
    let Some(row) = row else {
        return Ok(Vec::new());
    };
    let rated = row.try_get::<i64, _>(0)? != 0;
    let (white, black): (Option<String>, Option<String>) = (row.try_get(1)?, row.try_get(2)?);
    let control: String = row.try_get(3)?;
    let (Some(white), Some(black)) = (white, black) else {
        return Ok(Vec::new());
    };
    let speed = TimeControl::from_pgn(&control)
        .ok()
        .and_then(|c| Speed::of_control(&c));
    let white_outcome = match ending.result {
        GameResult::WhiteWins => Outcome::Win,
        GameResult::BlackWins => Outcome::Loss,
        GameResult::Draw => Outcome::Draw,
        GameResult::Unknown => return Ok(Vec::new()),
    };
    let Some(speed) = speed.filter(|_| rated && white != black) else {
        return Ok(Vec::new());
    };
    if ending.termination == Termination::Aborted {
        return Ok(Vec::new());
    }
    let plies: i64 = sqlx::query("SELECT COUNT(*) FROM moves WHERE game_id = $1")
        .bind(game_id)
        .fetch_one(&mut **tx)
        .await?
        .try_get(0)?;
    if plies < 2 {
        return Ok(Vec::new());
    }
    let counted = sqlx::query("SELECT 1 FROM rating_changes WHERE game_id = $1")
        .bind(game_id)
        .fetch_optional(&mut **tx)
        .await?;
    if counted.is_some() {
        return Ok(Vec::new());
    }
    // Each player's change is stamped after his last one, whatever the game's end: two
    // nodes may apply a player's games in the other order than they ended (the lock decides),
    // and his history, read in time order, must chain (each change starts where the one
    // before it left).
    let (w_at, b_at) = (
        applied_at(tx, &white, at).await?,
        applied_at(tx, &black, at).await?,
    );
    // The deviation grows with the time from the last rated game to this game's end (none
    // when the last one was stamped later).
    let new_player = StoredRating {
        glicko: Glicko::default(),
        games: 0,
        rated_at: at,
    };
    let w = rating_in(tx, &white, speed).await?.unwrap_or(new_player);
    let b = rating_in(tx, &black, speed).await?.unwrap_or(new_player);
    let (w_now, b_now) = (w.at(at), b.at(at));
    let w_after = w_now.update(&[(b_now, white_outcome)]);
    let b_after = b_now.update(&[(w_now, white_outcome.reversed())]);
    let (wl, bl) = (ladder_in(tx, &white).await?, ladder_in(tx, &black).await?);
    let ladder_result = match white_outcome {
        Outcome::Win => LadderResult::AWins,
        Outcome::Draw => LadderResult::Draw,
        Outcome::Loss => LadderResult::BWins,
    };
    let (dw, db) = if ladder_speeds.contains(&speed) {
        ladder::change(wl, bl, ladder_result)
    } else {
        (0, 0)
    };
    let changes = vec![
        RatingChange {
            user_id: white,
            speed,
            before: w_now,
            after: w_after,
            ladder_before: wl,
            ladder_after: LadderPoints(wl.0 + dw),
        },
        RatingChange {
            user_id: black,
            speed,
            before: b_now,
            after: b_after,
            ladder_before: bl,
            ladder_after: LadderPoints(bl.0 + db),
        },
    ];
    let on_ladder = ladder_speeds.contains(&speed);
    for (change, games, at) in [(&changes[0], w.games, w_at), (&changes[1], b.games, b_at)] {
        save(tx, game_id, change, games + 1, at, on_ladder).await?;
    }
    Ok(changes)
}

/// When a player's change from a game ending at `at` is stamped: at `at`, or just after his
/// latest change if that is later (read under the players' lock).
async fn applied_at(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    user: &str,
    at: i64,
) -> Result<i64, StoreError> {
    let last: Option<i64> = sqlx::query("SELECT MAX(at) FROM rating_changes WHERE user_id = $1")
        .bind(user)
        .fetch_one(&mut **tx)
        .await?
        .try_get(0)?;
    Ok(last.map_or(at, |last| at.max(last + 1)))
}

async fn save(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game_id: &str,
    c: &RatingChange,
    games: i64,
    at: i64,
    on_ladder: bool,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO rating_changes (game_id, user_id, speed, at, rating_before, \
         deviation_before, volatility_before, rating_after, deviation_after, volatility_after, \
         ladder_before, ladder_after) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )
    .bind(game_id)
    .bind(&c.user_id)
    .bind(c.speed.as_str())
    .bind(at)
    .bind(c.before.rating)
    .bind(c.before.deviation)
    .bind(c.before.volatility)
    .bind(c.after.rating)
    .bind(c.after.deviation)
    .bind(c.after.volatility)
    .bind(c.ladder_before.0)
    .bind(c.ladder_after.0)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO ratings (user_id, speed, rating, deviation, volatility, games, rated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, speed) DO UPDATE SET \
         rating = excluded.rating, deviation = excluded.deviation, \
         volatility = excluded.volatility, games = excluded.games, rated_at = excluded.rated_at",
    )
    .bind(&c.user_id)
    .bind(c.speed.as_str())
    .bind(c.after.rating)
    .bind(c.after.deviation)
    .bind(c.after.volatility)
    .bind(games)
    .bind(at)
    .execute(&mut **tx)
    .await?;
    if !on_ladder {
        return Ok(());
    }
    sqlx::query(
        "INSERT INTO ladder (user_id, points, games) VALUES ($1, $2, 1) \
         ON CONFLICT (user_id) DO UPDATE SET points = excluded.points, \
         games = ladder.games + 1",
    )
    .bind(&c.user_id)
    .bind(c.ladder_after.0)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

impl Store {
    /// An account's ratings, by speed, as stored.
    pub(crate) async fn ratings_of(
        &self,
        user_id: &str,
    ) -> Result<Vec<(Speed, StoredRating)>, StoreError> {
        let rows = sqlx::query(
            "SELECT rating, deviation, volatility, games, rated_at, speed FROM ratings \
             WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_all(self.pool())
        .await?;
        let mut out = Vec::new();
        for r in &rows {
            if let Some(speed) = Speed::parse(&r.try_get::<String, _>(5)?) {
                out.push((speed, stored_rating(r)?));
            }
        }
        out.sort_by_key(|(s, _)| *s);
        Ok(out)
    }

    /// An account's rating at `speed` as it stands at `now` (a new player's when it has none).
    pub(crate) async fn rating_at(
        &self,
        user_id: &str,
        speed: Speed,
        now: i64,
    ) -> Result<Glicko, StoreError> {
        Ok(self
            .ratings_of(user_id)
            .await?
            .into_iter()
            .find(|(s, _)| *s == speed)
            .map_or_else(Glicko::default, |(_, r)| r.at(now)))
    }

    /// Whites minus blacks over an account's last ten games with a person (the pools give
    /// black to whoever had more whites lately).
    pub(crate) async fn colour_lean(&self, user_id: &str) -> Result<i32, StoreError> {
        let rows = sqlx::query(
            "SELECT white_user FROM games \
             WHERE (white_user = $1 OR black_user = $1) AND white_bot IS NULL \
             AND black_bot IS NULL ORDER BY created_at DESC LIMIT 10",
        )
        .bind(user_id)
        .fetch_all(self.pool())
        .await?;
        let mut lean = 0;
        for r in &rows {
            let white: Option<String> = r.try_get(0)?;
            lean += if white.as_deref() == Some(user_id) {
                1
            } else {
                -1
            };
        }
        Ok(lean)
    }

    /// An account's ladder points and ladder games.
    pub(crate) async fn ladder_of(&self, user_id: &str) -> Result<(LadderPoints, i64), StoreError> {
        let row = sqlx::query("SELECT points, games FROM ladder WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(self.pool())
            .await?;
        Ok(match row {
            Some(r) => (LadderPoints(r.try_get(0)?), r.try_get(1)?),
            None => (LadderPoints(0), 0),
        })
    }

    /// What a finished game changed for each of its players (none: not rated, or not
    /// counted).
    pub(crate) async fn rating_changes_of(
        &self,
        game_id: &str,
    ) -> Result<Vec<RatingChange>, StoreError> {
        let rows = sqlx::query(
            "SELECT user_id, speed, rating_before, deviation_before, volatility_before, \
             rating_after, deviation_after, volatility_after, ladder_before, ladder_after \
             FROM rating_changes WHERE game_id = $1",
        )
        .bind(game_id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                let glicko = |at: usize| -> Result<Glicko, StoreError> {
                    Ok(Glicko {
                        rating: r.try_get(at)?,
                        deviation: r.try_get(at + 1)?,
                        volatility: r.try_get(at + 2)?,
                    })
                };
                let speed: String = r.try_get(1)?;
                Ok(RatingChange {
                    user_id: r.try_get(0)?,
                    speed: Speed::parse(&speed)
                        .ok_or_else(|| StoreError::Corrupt(format!("unknown speed {speed:?}")))?,
                    before: glicko(2)?,
                    after: glicko(5)?,
                    ladder_before: LadderPoints(r.try_get(8)?),
                    ladder_after: LadderPoints(r.try_get(9)?),
                })
            })
            .collect()
    }
}

/// A leaderboard's row: a player and their rating (as it stands now) or ladder points.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BoardRow {
    pub(crate) name: String,
    pub(crate) title: Option<crate::accounts::Title>,
    pub(crate) glicko: Glicko,
    pub(crate) points: LadderPoints,
    pub(crate) games: i64,
}

/// One rated game in a player's history: the rating after it, and the game.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct HistoryPoint {
    pub(crate) speed: Speed,
    pub(crate) at: i64,
    pub(crate) rating: f64,
    pub(crate) game_id: String,
    pub(crate) white: String,
    pub(crate) black: String,
    pub(crate) result: Option<String>,
}

/// How long after their last rated game at a speed a player still counts as active on its
/// leaderboard.
pub(crate) const ACTIVE_DAYS: i64 = 30;

impl Store {
    /// The top `limit` players at `speed`: open accounts with a rated game at that speed in
    /// the last [`ACTIVE_DAYS`] whose rating, as it stands at `now`, is not provisional.
    pub(crate) async fn leaderboard(
        &self,
        speed: Speed,
        now: i64,
        limit: usize,
    ) -> Result<Vec<BoardRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT r.rating, r.deviation, r.volatility, r.games, r.rated_at, u.name, u.title \
             FROM ratings r JOIN users u ON u.id = r.user_id \
             WHERE r.speed = $1 AND r.rated_at >= $2 AND u.closed_at IS NULL \
             ORDER BY r.rating DESC",
        )
        .bind(speed.as_str())
        .bind(now - ACTIVE_DAYS * DAY_MS as i64)
        .fetch_all(self.pool())
        .await?;
        let mut out = Vec::new();
        for r in &rows {
            let glicko = stored_rating(r)?.at(now);
            if glicko.provisional() {
                continue;
            }
            let title: Option<String> = r.try_get(6)?;
            out.push(BoardRow {
                name: r.try_get(5)?,
                title: title.as_deref().and_then(crate::accounts::Title::parse),
                glicko,
                points: LadderPoints(0),
                games: r.try_get(3)?,
            });
            if out.len() == limit {
                break;
            }
        }
        Ok(out)
    }

    /// Every open account on the ladder, most points first.
    pub(crate) async fn ladder_board(&self) -> Result<Vec<BoardRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT l.points, l.games, u.name, u.title FROM ladder l \
             JOIN users u ON u.id = l.user_id WHERE u.closed_at IS NULL \
             ORDER BY l.points DESC, u.id",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                let title: Option<String> = r.try_get(3)?;
                Ok(BoardRow {
                    name: r.try_get(2)?,
                    title: title.as_deref().and_then(crate::accounts::Title::parse),
                    glicko: Glicko::default(),
                    points: LadderPoints(r.try_get(0)?),
                    games: r.try_get(1)?,
                })
            })
            .collect()
    }

    /// An account's rated games in order, with the rating after each.
    pub(crate) async fn rating_history(
        &self,
        user_id: &str,
    ) -> Result<Vec<HistoryPoint>, StoreError> {
        let rows = sqlx::query(
            "SELECT c.speed, c.at, c.rating_after, c.game_id, g.white_name, g.black_name, \
             g.result FROM rating_changes c JOIN games g ON g.id = c.game_id \
             WHERE c.user_id = $1 ORDER BY c.at, c.game_id",
        )
        .bind(user_id)
        .fetch_all(self.pool())
        .await?;
        let mut out = Vec::new();
        for r in &rows {
            let Some(speed) = Speed::parse(&r.try_get::<String, _>(0)?) else {
                continue;
            };
            out.push(HistoryPoint {
                speed,
                at: r.try_get(1)?,
                rating: r.try_get(2)?,
                game_id: r.try_get(3)?,
                white: r.try_get(4)?,
                black: r.try_get(5)?,
                result: r.try_get(6)?,
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! The ratings suite (docs/RATINGS.md "Exactly once"), run on both backends by the store's
    //! suite: what a rated game's end changes, against figures computed independently
    //! (`crates/core/tests/python/glicko2_reference.py`, the seeds' table R8), when nothing
    //! changes, and games of the same accounts ended at once through several writers.

    use super::*;
    use crate::store::tests::{ended, game};
    use crate::store::writer::{EventWriter, GameWrite};
    use crate::store::{NewGame, StoredMove};

    /// Every game here ends at this moment: no idle growth between games, so each change
    /// starts exactly where the last one left its player.
    const AT: i64 = 1_000_000;

    #[test]
    fn a_stored_rating_grows_its_deviation_with_the_days_since_its_last_game() {
        let glicko = Glicko {
            rating: 1700.0,
            deviation: 80.0,
            volatility: 0.06,
        };
        let stored = StoredRating {
            glicko,
            games: 12,
            rated_at: 5 * DAY_MS as i64,
        };
        assert_eq!(stored.at(15 * DAY_MS as i64), glicko.after_idle(10.0));
        assert_eq!(
            stored.at(5 * DAY_MS as i64 + 43_200_000),
            glicko.after_idle(0.5)
        );
        // A game stamped before the last one: no time has passed.
        assert_eq!(stored.at(0), glicko.after_idle(0.0));
    }

    #[test]
    fn a_change_is_shown_as_lichess_shows_it_the_difference_of_rounded_ratings() {
        let change = |before: f64, after: f64| RatingChange {
            user_id: "a".into(),
            speed: Speed::Blitz,
            before: Glicko {
                rating: before,
                ..Glicko::default()
            },
            after: Glicko {
                rating: after,
                ..Glicko::default()
            },
            ladder_before: LadderPoints(0),
            ladder_after: LadderPoints(0),
        };
        assert_eq!(change(1500.4, 1507.6).diff(), 8);
        assert_eq!(change(1500.6, 1493.2).diff(), -8);
        assert_eq!(change(1500.2, 1500.4).diff(), 0);
    }

    fn ending(result: GameResult, termination: Termination) -> Ending {
        Ending {
            result,
            termination,
        }
    }

    /// A game between two accounts with its first `plies` moves stored.
    async fn played(
        store: &Store,
        writer: &EventWriter,
        id: &str,
        (white, black): (&str, &str),
        plies: usize,
        rated: bool,
    ) {
        let g = NewGame {
            white_user: Some(white.to_owned()),
            black_user: Some(black.to_owned()),
            black_seat: Some("t-black".into()),
            rated,
            ..game(id, AT - 1000)
        };
        store.create_game(&g).await.unwrap();
        let line = [("e2e4", "e4"), ("e7e5", "e5"), ("g1f3", "Nf3")];
        let moves = line[..plies]
            .iter()
            .enumerate()
            .map(|(i, (uci, san))| StoredMove {
                game_id: id.to_owned(),
                ply: i as i64 + 1,
                uci: (*uci).to_owned(),
                san: (*san).to_owned(),
                clock_ms: Some(300_000),
                at_ms: AT - 500,
                elapsed_ms: 0,
                lag_ms: 0,
            })
            .collect();
        writer
            .write(GameWrite {
                game_id: id.to_owned(),
                moves,
                ..GameWrite::default()
            })
            .await
            .unwrap();
    }

    /// Each player's rating after a game, as the reference script gives it (to its sixth
    /// decimal; the core's own test holds the formulas far tighter).
    fn after_game(changes: &[RatingChange], expected: [(&str, (f64, f64, f64)); 2]) {
        for (user, (rating, deviation, volatility)) in expected {
            let after = change_of(changes, user).after;
            assert!((after.rating - rating).abs() < 1e-5, "{user}: {after:?}");
            assert!(
                (after.deviation - deviation).abs() < 1e-5,
                "{user}: {after:?}"
            );
            assert!(
                (after.volatility - volatility).abs() < 1e-8,
                "{user}: {after:?}"
            );
        }
    }

    fn change_of<'a>(changes: &'a [RatingChange], user: &str) -> &'a RatingChange {
        changes.iter().find(|c| c.user_id == user).unwrap()
    }

    pub(crate) async fn suite(store: &Store, writer: &EventWriter) {
        for user in ["rs-w", "rs-b", "rs-x", "rs-y"] {
            assert!(store.create_user(user, user, "-", false, 0).await.unwrap());
        }
        let (w, b) = ("rs-w", "rs-b");
        let white_wins = ending(GameResult::WhiteWins, Termination::Resignation);
        // Two new players; White wins: the figures of glicko2_reference.py ("first game"),
        // and 10 ladder points (R8: equal points, a win moves 10; kept in hundredths).
        played(store, writer, "rs1", (w, b), 2, true).await;
        writer.write(ended("rs1", white_wins, AT)).await.unwrap();
        let first = store.rating_changes_of("rs1").await.unwrap();
        assert_eq!(first.len(), 2);
        after_game(
            &first,
            [
                (w, (1741.624424, 396.811821, 0.08999830)),
                (b, (1258.375576, 396.811821, 0.08999830)),
            ],
        );
        assert_eq!(change_of(&first, w).ladder_after, LadderPoints(1000));
        assert_eq!(change_of(&first, b).ladder_after, LadderPoints(-1000));
        // Written again (a retried write): counted once.
        writer.write(ended("rs1", white_wins, AT)).await.unwrap();
        assert_eq!(store.rating_changes_of("rs1").await.unwrap().len(), 2);
        assert_eq!(store.ratings_of(w).await.unwrap()[0].1.games, 1);
        // A draw as the first game left them ("second game"); R8: 20 points apart, the lower
        // gains (10 + 20/10) / 2 = 6.
        played(store, writer, "rs2", (w, b), 2, true).await;
        let draw = ending(GameResult::Draw, Termination::Agreement);
        writer.write(ended("rs2", draw, AT)).await.unwrap();
        let second = store.rating_changes_of("rs2").await.unwrap();
        after_game(
            &second,
            [
                (w, (1584.896782, 353.991932, 0.08999733)),
                (b, (1415.103218, 353.991932, 0.08999733)),
            ],
        );
        assert_eq!(store.ladder_of(w).await.unwrap(), (LadderPoints(400), 2));
        assert_eq!(store.ladder_of(b).await.unwrap(), (LadderPoints(-400), 2));
        // Nothing for an abort, a game in which Black never moved, or an unrated game.
        played(store, writer, "rs3", (w, b), 1, true).await;
        let aborted = ending(GameResult::Unknown, Termination::Aborted);
        writer.write(ended("rs3", aborted, AT)).await.unwrap();
        played(store, writer, "rs4", (w, b), 1, true).await;
        writer.write(ended("rs4", white_wins, AT)).await.unwrap();
        played(store, writer, "rs5", (w, b), 3, false).await;
        writer.write(ended("rs5", white_wins, AT)).await.unwrap();
        for id in ["rs3", "rs4", "rs5"] {
            assert!(
                store.rating_changes_of(id).await.unwrap().is_empty(),
                "{id}"
            );
        }
        assert_eq!(store.ratings_of(w).await.unwrap()[0].1.games, 2);
        rating_reads(store, w).await;
        colour_lean(store, (w, b)).await;
        concurrent(store).await;
    }

    /// The rating the pools, seeks and pages read: the stored one at its speed, grown by the
    /// days since (docs/RATINGS.md), and a new player's at any other speed.
    async fn rating_reads(store: &Store, user: &str) {
        let stored = store.ratings_of(user).await.unwrap();
        let (speed, blitz) = &stored[0];
        assert_eq!(*speed, Speed::Blitz);
        let later = AT + 30 * DAY_MS as i64;
        let read = store.rating_at(user, Speed::Blitz, later).await.unwrap();
        assert_eq!(read, blitz.at(later));
        assert!(read.deviation > blitz.glicko.deviation, "{read:?}");
        assert_eq!(
            store.rating_at(user, Speed::Rapid, later).await.unwrap(),
            Glicko::default()
        );
        assert_eq!(
            store.rating_at("rs-y", Speed::Blitz, AT).await.unwrap(),
            Glicko::default()
        );
    }

    /// Whites minus blacks over an account's last ten games with a person.
    async fn colour_lean(store: &Store, (w, b): (&str, &str)) {
        // rs1-rs5: `w` White in all five.
        assert_eq!(store.colour_lean(w).await.unwrap(), 5);
        assert_eq!(store.colour_lean(b).await.unwrap(), -5);
        assert_eq!(store.colour_lean("rs-y").await.unwrap(), 0);
        // A game against a bot does not count.
        let bot = NewGame {
            white_user: Some(w.to_owned()),
            black_bot: Some(3),
            ..game("rs-bot", AT)
        };
        store.create_game(&bot).await.unwrap();
        assert_eq!(store.colour_lean(w).await.unwrap(), 5);
        // Seven later games with `w` Black: of the last ten, seven Black and three White.
        for i in 0..7 {
            let g = NewGame {
                white_user: Some("rs-x".to_owned()),
                black_user: Some(w.to_owned()),
                ..game(&format!("rs-lean{i}"), AT + 1 + i)
            };
            store.create_game(&g).await.unwrap();
        }
        assert_eq!(store.colour_lean(w).await.unwrap(), -4);
        assert_eq!(store.colour_lean("rs-x").await.unwrap(), 7);
    }

    /// Rating, deviation, volatility and ladder points, as one change leaves them.
    type Figures = (f64, f64, f64, i64);

    /// Rated games of four accounts ended at once through four writers (four connections):
    /// every account's changes form one unbroken chain from a new player's rating to the
    /// stored one, and the ladder sums to zero (R8). Without the lock of `lock_players`,
    /// PostgreSQL's read committed lets two games read the same rating, and a chain forks.
    async fn concurrent(store: &Store) {
        let users = ["rc-a", "rc-b", "rc-c", "rc-d"];
        for user in users {
            assert!(store.create_user(user, user, "-", false, 0).await.unwrap());
        }
        let setup = EventWriter::start(store.clone());
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut games = Vec::new();
        for i in 0..120 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let white = users[(seed % 4) as usize];
            let black = users[((seed / 4) % 3 + 1 + seed % 4) as usize % 4];
            let id = format!("rc{i}");
            played(store, &setup, &id, (white, black), 2, true).await;
            let result = [
                GameResult::WhiteWins,
                GameResult::Draw,
                GameResult::BlackWins,
            ][((seed / 16) % 3) as usize];
            games.push((id, ending(result, Termination::Resignation)));
        }
        let writers: Vec<EventWriter> = (0..4).map(|_| EventWriter::start(store.clone())).collect();
        let mut tasks = Vec::new();
        for (i, (id, end)) in games.into_iter().enumerate() {
            let writer = writers[i % 4].clone();
            tasks.push(tokio::spawn(async move {
                writer.write(ended(&id, end, AT)).await.unwrap();
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
        let mut ladder_sum = 0;
        for user in users {
            let rows = sqlx::query(
                "SELECT rating_before, deviation_before, volatility_before, rating_after, \
                 deviation_after, volatility_after, ladder_before, ladder_after, at \
                 FROM rating_changes WHERE user_id = $1 ORDER BY at, game_id",
            )
            .bind(user)
            .fetch_all(store.pool())
            .await
            .unwrap();
            let links: Vec<(Figures, Figures)> = rows
                .iter()
                .map(|r| {
                    let get = |i| r.try_get::<f64, _>(i).unwrap();
                    let points = |i| r.try_get::<i64, _>(i).unwrap();
                    (
                        (get(0), get(1), get(2), points(6)),
                        (get(3), get(4), get(5), points(7)),
                    )
                })
                .collect();
            let count = links.len();
            let new = Glicko::default();
            let mut at = (new.rating, new.deviation, new.volatility, 0);
            // Read in time order as a player's history is (`at`, then the game's id), each
            // change starts where the one before it left (the games all end at AT: their
            // stamps must still order them).
            for (n, (before, after)) in links.into_iter().enumerate() {
                assert_eq!(before, at, "{user}: change {n} of {count} does not chain");
                at = after;
            }
            let stored = store.ratings_of(user).await.unwrap();
            let stored = &stored[0].1;
            assert_eq!(stored.games, count as i64, "{user}");
            assert_eq!(
                (
                    stored.glicko.rating,
                    stored.glicko.deviation,
                    stored.glicko.volatility
                ),
                (at.0, at.1, at.2),
                "{user}: the chain ends in the stored rating"
            );
            let (points, _) = store.ladder_of(user).await.unwrap();
            assert_eq!(points.0, at.3, "{user}");
            ladder_sum += points.0;
        }
        assert_eq!(ladder_sum, 0, "R8: the ladder sums to zero");
        leaderboard(store).await;
    }

    /// The leaderboard after the concurrent games: their four accounts (sixty games each, no
    /// longer provisional), best first; not `rs-w` and `rs-b` (two games: provisional); the
    /// limit kept; nobody once inactive longer than [`ACTIVE_DAYS`].
    async fn leaderboard(store: &Store) {
        let board = store.leaderboard(Speed::Blitz, AT, 10).await.unwrap();
        let mut names: Vec<&str> = board.iter().map(|r| r.name.as_str()).collect();
        assert!(
            board
                .windows(2)
                .all(|w| w[0].glicko.rating >= w[1].glicko.rating),
            "{names:?}"
        );
        names.sort_unstable();
        assert_eq!(names, ["rc-a", "rc-b", "rc-c", "rc-d"]);
        assert_eq!(
            store.leaderboard(Speed::Blitz, AT, 3).await.unwrap().len(),
            3
        );
        let later = AT + (ACTIVE_DAYS + 1) * DAY_MS as i64;
        assert!(
            store
                .leaderboard(Speed::Blitz, later, 10)
                .await
                .unwrap()
                .is_empty()
        );
        // The ladder: the six accounts with ladder games, most points first.
        let board = store.ladder_board().await.unwrap();
        assert_eq!(board.len(), 6);
        assert!(board.windows(2).all(|w| w[0].points >= w[1].points));
    }
}
