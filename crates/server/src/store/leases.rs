//! Leases on live games (migration 0014): which node runs a game's room, until when, under
//! which epoch. Taking a game raises its epoch; the writer refuses a write made under an
//! older epoch ([`super::writer::GameWrite::epoch`]), which is the fencing.

use sqlx::Row;

use super::{Status, Store, StoreError};

#[cfg_attr(
    not(test),
    expect(
        dead_code,
        reason = "issue 41 in progress: the nodes that take leases come next; the store's \
                  tests use them on both backends"
    )
)]
impl Store {
    /// Takes game `id` for `node` until `until` if it is live and nobody else holds it (no
    /// owner, a lease run out by `now`, or `node` itself): the new epoch, or `None`.
    pub(crate) async fn take_lease(
        &self,
        id: &str,
        node: &str,
        now: i64,
        until: i64,
    ) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(
            "UPDATE games SET epoch = epoch + 1, owner = $1, lease_until = $2 \
             WHERE id = $3 AND status = $4 AND (owner IS NULL OR owner = $1 OR lease_until < $5) \
             RETURNING epoch",
        )
        .bind(node)
        .bind(until)
        .bind(id)
        .bind(Status::Live.as_str())
        .bind(now)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(|r| r.try_get::<i64, _>(0)).transpose()?)
    }

    /// Renews `node`'s lease on game `id` under `epoch` until `until`; `false` when the lease
    /// is no longer `node`'s (another node took the game, or it ended).
    pub(crate) async fn renew_lease(
        &self,
        id: &str,
        node: &str,
        epoch: i64,
        until: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE games SET lease_until = $1 WHERE id = $2 AND owner = $3 AND epoch = $4",
        )
        .bind(until)
        .bind(id)
        .bind(node)
        .bind(epoch)
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Gives game `id` up (a node leaving in order): another node may take it at once.
    pub(crate) async fn release_lease(&self, id: &str, node: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET owner = NULL, lease_until = 0 WHERE id = $1 AND owner = $2")
            .bind(id)
            .bind(node)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Live games that nobody holds at `now` (never taken, released, or their lease run out):
    /// what a node may take over.
    pub(crate) async fn unowned_games(&self, now: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status = $1 AND (owner IS NULL OR lease_until < $2) \
             ORDER BY created_at, id",
        )
        .bind(Status::Live.as_str())
        .bind(now)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| r.try_get::<String, _>(0).map_err(StoreError::from))
            .collect()
    }
}
