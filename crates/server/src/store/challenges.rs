//! Challenges waiting for an answer (migration 0016), each stored as its JSON
//! (`challenges.rs`). A challenge older than the cut-off given is over: never read, and
//! deleted when the next one is added.

use sqlx::Row;

use super::{Store, StoreError};

/// A challenge as stored: its id, its two sides, when it was made, and its JSON.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NewChallenge<'a> {
    pub(crate) id: &'a str,
    pub(crate) challenger: &'a str,
    pub(crate) dest: &'a str,
    pub(crate) created_at: i64,
    pub(crate) body: &'a str,
}

impl Store {
    /// Stores a challenge, and deletes those made before `expired_before` (over). As lichess
    /// does, a challenge replaces the challenger's earlier one to the same account, and a
    /// challenger keeps at most `max_outgoing` (the oldest go): answers the JSON of those
    /// taken out so, for their other side to hear they are cancelled.
    pub(crate) async fn add_challenge(
        &self,
        c: &NewChallenge<'_>,
        expired_before: i64,
        max_outgoing: usize,
    ) -> Result<Vec<String>, StoreError> {
        sqlx::query("DELETE FROM challenges WHERE created_at < $1")
            .bind(expired_before)
            .execute(self.pool())
            .await?;
        let mut gone: Vec<String> = Vec::new();
        let replaced = sqlx::query(
            "DELETE FROM challenges WHERE challenger = $1 AND dest = $2 RETURNING body",
        )
        .bind(c.challenger)
        .bind(c.dest)
        .fetch_all(self.pool())
        .await?;
        for r in replaced {
            gone.push(r.try_get(0)?);
        }
        sqlx::query(
            "INSERT INTO challenges (id, challenger, dest, created_at, body) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(c.id)
        .bind(c.challenger)
        .bind(c.dest)
        .bind(c.created_at)
        .bind(c.body)
        .execute(self.pool())
        .await?;
        let oldest = sqlx::query(
            "DELETE FROM challenges WHERE challenger = $1 AND id NOT IN (SELECT id FROM \
             challenges WHERE challenger = $1 ORDER BY created_at DESC, id DESC LIMIT $2) \
             RETURNING body",
        )
        .bind(c.challenger)
        .bind(max_outgoing as i64)
        .fetch_all(self.pool())
        .await?;
        for r in oldest {
            gone.push(r.try_get(0)?);
        }
        Ok(gone)
    }

    /// Deletes challenge `id` if it was made after `since`: its JSON, if it was there.
    pub(crate) async fn take_challenge(
        &self,
        id: &str,
        since: i64,
    ) -> Result<Option<String>, StoreError> {
        let row =
            sqlx::query("DELETE FROM challenges WHERE id = $1 AND created_at > $2 RETURNING body")
                .bind(id)
                .bind(since)
                .fetch_optional(self.pool())
                .await?;
        Ok(row.map(|r| r.try_get::<String, _>(0)).transpose()?)
    }

    pub(crate) async fn challenge(
        &self,
        id: &str,
        since: i64,
    ) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT body FROM challenges WHERE id = $1 AND created_at > $2")
            .bind(id)
            .bind(since)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.map(|r| r.try_get::<String, _>(0)).transpose()?)
    }

    /// The challenges to `user` (the newest `max_in`) and from `user` (the newest `max_out`)
    /// made after `since`, oldest first.
    pub(crate) async fn challenges_of(
        &self,
        user: &str,
        since: i64,
        max_in: usize,
        max_out: usize,
    ) -> Result<(Vec<String>, Vec<String>), StoreError> {
        let mut out = (Vec::new(), Vec::new());
        for (side, max, list) in [
            ("dest", max_in, &mut out.0),
            ("challenger", max_out, &mut out.1),
        ] {
            // Only the column's name is written into the text, from the two above.
            let sql = format!(
                "SELECT body FROM challenges WHERE {side} = $1 AND created_at > $2 \
                 ORDER BY created_at DESC, id DESC LIMIT $3"
            );
            let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(user)
                .bind(since)
                .bind(max as i64)
                .fetch_all(self.pool())
                .await?;
            for r in rows.iter().rev() {
                list.push(r.try_get(0)?);
            }
        }
        Ok(out)
    }
}
