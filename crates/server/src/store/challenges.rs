//! Challenges waiting for an answer (migration 0016), each stored as its JSON
//! (`challenges.rs`). A challenge older than the cut-off given is over: never read, and
//! deleted when the next one is added.

use sqlx::Row;

use super::{Store, StoreError};

impl Store {
    /// Stores a challenge, and deletes those made before `expired_before` (over).
    pub(crate) async fn add_challenge(
        &self,
        id: &str,
        challenger: &str,
        dest: &str,
        created_at: i64,
        expired_before: i64,
        body: &str,
    ) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM challenges WHERE created_at < $1")
            .bind(expired_before)
            .execute(self.pool())
            .await?;
        sqlx::query(
            "INSERT INTO challenges (id, challenger, dest, created_at, body) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(challenger)
        .bind(dest)
        .bind(created_at)
        .bind(body)
        .execute(self.pool())
        .await?;
        Ok(())
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

    /// The challenges from or to `user` made after `since`, oldest first.
    pub(crate) async fn challenges_of(
        &self,
        user: &str,
        since: i64,
    ) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT body FROM challenges WHERE (challenger = $1 OR dest = $1) \
             AND created_at > $2 ORDER BY created_at, id",
        )
        .bind(user)
        .bind(since)
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }
}
