//! Following (migration 0026): who follows whom, and a player's activity by day.

use std::collections::BTreeMap;

use sqlx::Row;

use super::accounts::Record;
use super::{Status, Store, StoreError};

/// One day of a player's activity: their games that ended that day and whom they started
/// following.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ActivityDay {
    /// Days since the Unix epoch (UTC).
    pub(crate) day: i64,
    /// The games that ended that day, as the player's record counts them.
    pub(crate) games: Record,
    /// The names of the accounts followed that day.
    pub(crate) followed: Vec<String>,
}

const DAY_MS: i64 = 86_400_000;

impl Store {
    /// `follower` follows `followed` (again: nothing changes).
    pub(crate) async fn follow(
        &self,
        follower: &str,
        followed: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO follows (follower, followed, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT DO NOTHING",
        )
        .bind(follower)
        .bind(followed)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub(crate) async fn unfollow(&self, follower: &str, followed: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM follows WHERE follower = $1 AND followed = $2")
            .bind(follower)
            .bind(followed)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub(crate) async fn follows(&self, follower: &str, followed: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT 1 FROM follows WHERE follower = $1 AND followed = $2")
            .bind(follower)
            .bind(followed)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// The accounts `follower` follows, `(id, name)`, by name (at most 500).
    pub(crate) async fn following(
        &self,
        follower: &str,
    ) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT u.id, u.name FROM follows f JOIN users u ON u.id = f.followed \
             WHERE f.follower = $1 AND u.closed_at IS NULL ORDER BY u.name LIMIT 500",
        )
        .bind(follower)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect()
    }

    /// What account `user` did on each of the days since `since` (ms), the latest first:
    /// games finished (counted as [`Store::record_of`] counts them; aborted ones not) and
    /// accounts followed.
    pub(crate) async fn activity(
        &self,
        user: &str,
        since: i64,
    ) -> Result<Vec<ActivityDay>, StoreError> {
        let games = sqlx::query(
            "SELECT finished_at / 86400000, \
             COUNT(CASE WHEN (white_user = $1 AND result = '1-0') \
                 OR (black_user = $1 AND result = '0-1') THEN 1 END), \
             COUNT(CASE WHEN result = '1/2-1/2' THEN 1 END), \
             COUNT(CASE WHEN (white_user = $1 AND result = '0-1') \
                 OR (black_user = $1 AND result = '1-0') THEN 1 END) \
             FROM games WHERE status = $2 AND termination <> 'aborted' AND finished_at >= $3 \
             AND (white_user = $1 OR black_user = $1) GROUP BY finished_at / 86400000",
        )
        .bind(user)
        .bind(Status::Over.as_str())
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        let followed = sqlx::query(
            "SELECT f.created_at, u.name FROM follows f JOIN users u ON u.id = f.followed \
             WHERE f.follower = $1 AND f.created_at >= $2 ORDER BY f.created_at DESC LIMIT 500",
        )
        .bind(user)
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        let mut days: BTreeMap<i64, ActivityDay> = BTreeMap::new();
        for r in &games {
            day_in(&mut days, r.try_get(0)?).games = Record {
                won: r.try_get(1)?,
                drawn: r.try_get(2)?,
                lost: r.try_get(3)?,
            };
        }
        for r in &followed {
            let at: i64 = r.try_get(0)?;
            day_in(&mut days, at.div_euclid(DAY_MS))
                .followed
                .push(r.try_get(1)?);
        }
        Ok(days.into_values().rev().collect())
    }
}

/// Day `day` of `days`, made empty if it was not there.
fn day_in(days: &mut BTreeMap<i64, ActivityDay>, day: i64) -> &mut ActivityDay {
    days.entry(day).or_insert_with(|| ActivityDay {
        day,
        ..ActivityDay::default()
    })
}
