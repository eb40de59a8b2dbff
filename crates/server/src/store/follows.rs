//! Following (migration 0026): who follows whom, and a player's activity by day.

use sqlx::Row;

use super::{Status, Store, StoreError};

/// One day of a player's activity: their games that ended that day and whom they started
/// following.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ActivityDay {
    /// Days since the Unix epoch (UTC).
    pub(crate) day: i64,
    pub(crate) won: i64,
    pub(crate) drawn: i64,
    pub(crate) lost: i64,
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
    /// games finished (aborted ones not) and accounts followed.
    pub(crate) async fn activity(
        &self,
        user: &str,
        since: i64,
    ) -> Result<Vec<ActivityDay>, StoreError> {
        let games = sqlx::query(
            "SELECT finished_at, result, white_user FROM games WHERE status = $1 \
             AND termination <> 'aborted' AND finished_at >= $2 \
             AND (white_user = $3 OR black_user = $3) ORDER BY finished_at DESC LIMIT 5000",
        )
        .bind(Status::Over.as_str())
        .bind(since)
        .bind(user)
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
        let mut days: Vec<ActivityDay> = Vec::new();
        let mut day_of = |at: i64| -> usize {
            let day = at.div_euclid(DAY_MS);
            match days.iter().position(|d| d.day == day) {
                Some(i) => i,
                None => {
                    days.push(ActivityDay {
                        day,
                        ..ActivityDay::default()
                    });
                    days.len() - 1
                }
            }
        };
        let mut tallies = Vec::new();
        for r in &games {
            let at: Option<i64> = r.try_get(0)?;
            let result: Option<String> = r.try_get(1)?;
            let white: Option<String> = r.try_get(2)?;
            let white = white.as_deref() == Some(user);
            tallies.push((day_of(at.unwrap_or(0)), result, white));
        }
        let mut follows = Vec::new();
        for r in &followed {
            follows.push((day_of(r.try_get(0)?), r.try_get::<String, _>(1)?));
        }
        for (i, result, white) in tallies {
            let d = &mut days[i];
            match (result.as_deref(), white) {
                (Some("1-0"), true) | (Some("0-1"), false) => d.won += 1,
                (Some("1-0"), false) | (Some("0-1"), true) => d.lost += 1,
                _ => d.drawn += 1,
            }
        }
        for (i, name) in follows {
            days[i].followed.push(name);
        }
        days.sort_by_key(|d| std::cmp::Reverse(d.day));
        Ok(days)
    }
}
