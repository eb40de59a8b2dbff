//! Leases on games (migration 0014): which node runs a game's room, until when, under
//! which epoch. A live game's room, and a finished game's while it is open (its last state
//! and its rematch offers): one room per game in the whole cluster. Taking a game raises its epoch; the writer refuses a write made under an
//! older epoch ([`super::writer::GameWrite::epoch`]), which is the fencing.

use sqlx::Row;

use super::{Store, StoreError};

impl Store {
    /// Takes game `id` for `node` until `until` if nobody else holds it (no owner, a lease
    /// run out by `now`, or `node` itself): the new epoch, or `None` (held, or no such game).
    pub(crate) async fn take_lease(
        &self,
        id: &str,
        node: &str,
        now: i64,
        until: i64,
    ) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(
            "UPDATE games SET epoch = epoch + 1, owner = $1, lease_until = $2 \
             WHERE id = $3 AND (owner IS NULL OR owner = $1 OR lease_until < $4) \
             RETURNING epoch",
        )
        .bind(node)
        .bind(until)
        .bind(id)
        .bind(now)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(|r| r.try_get::<i64, _>(0)).transpose()?)
    }

    /// Renews every lease `node` holds until `until`, in one statement: the games with the
    /// epoch of each (a game missing is another node's now).
    pub(crate) async fn renew_leases(
        &self,
        node: &str,
        until: i64,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let rows =
            sqlx::query("UPDATE games SET lease_until = $1 WHERE owner = $2 RETURNING id, epoch")
                .bind(until)
                .bind(node)
                .fetch_all(self.pool())
                .await?;
        rows.iter()
            .map(|r| Ok((r.try_get::<String, _>(0)?, r.try_get::<i64, _>(1)?)))
            .collect()
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

    /// Gives up every lease held under `node`'s name (a node starting again holds nothing).
    pub(crate) async fn release_leases_of(&self, node: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET owner = NULL, lease_until = 0 WHERE owner = $1")
            .bind(node)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Live games that nobody holds at `now` (never taken, released, or their lease run out):
    /// what a node may take over.
    pub(crate) async fn unowned_games(&self, now: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            // `status` written out, so that the partial index of live games (migration
            // 0015) serves the query under a generic plan too.
            "SELECT id FROM games WHERE status = 'live' AND (owner IS NULL OR lease_until < $1) \
             ORDER BY created_at, id",
        )
        .bind(now)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| r.try_get::<String, _>(0).map_err(StoreError::from))
            .collect()
    }

    /// Takes the cluster-wide role `role` (the pairing authority: migration 0015) for `node`
    /// until `until` if nobody holds it at `now` (or `node` does): the new epoch, or `None`.
    pub(crate) async fn take_role(
        &self,
        role: &str,
        node: &str,
        now: i64,
        until: i64,
    ) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(
            "INSERT INTO roles (name, holder, lease_until, epoch) VALUES ($1, $2, $3, 1) \
             ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, \
             lease_until = excluded.lease_until, epoch = roles.epoch + 1 \
             WHERE roles.lease_until < $4 OR roles.holder = excluded.holder \
             RETURNING epoch",
        )
        .bind(role)
        .bind(node)
        .bind(until)
        .bind(now)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(|r| r.try_get::<i64, _>(0)).transpose()?)
    }

    /// Renews `role` for `node` under `epoch` until `until`: false if it was lost.
    pub(crate) async fn renew_role(
        &self,
        role: &str,
        node: &str,
        epoch: i64,
        until: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE roles SET lease_until = $1 WHERE name = $2 AND holder = $3 AND epoch = $4",
        )
        .bind(until)
        .bind(role)
        .bind(node)
        .bind(epoch)
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Gives `role` up: another node may take it at once.
    pub(crate) async fn release_role(&self, role: &str, node: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE roles SET lease_until = 0 WHERE name = $1 AND holder = $2")
            .bind(role)
            .bind(node)
            .execute(self.pool())
            .await?;
        Ok(())
    }
}
