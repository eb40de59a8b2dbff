//! Tournaments (migration 0019), each stored as its JSON (`tournaments.rs`) with a version:
//! a change names the version it read, so that of two changes made at once one wins and
//! the other is told to read again.

use sqlx::Row;

use super::{Store, StoreError};

/// A tournament as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StoredTournament {
    pub(crate) id: String,
    /// The arbiter's account id.
    pub(crate) owner: String,
    pub(crate) created_at: i64,
    pub(crate) version: i64,
    pub(crate) body: String,
    /// The club it belongs to (migration 0020).
    pub(crate) club: Option<String>,
}

/// A row of `SELECT id, owner, created_at, version, body, club`.
fn stored(r: &sqlx::any::AnyRow) -> Result<StoredTournament, StoreError> {
    Ok(StoredTournament {
        id: r.try_get(0)?,
        owner: r.try_get(1)?,
        created_at: r.try_get(2)?,
        version: r.try_get(3)?,
        body: r.try_get(4)?,
        club: r.try_get(5)?,
    })
}

impl Store {
    /// Stores a new tournament at version 1.
    pub(crate) async fn add_tournament(
        &self,
        id: &str,
        owner: &str,
        created_at: i64,
        body: &str,
        club: Option<&str>,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tournaments (id, owner, created_at, version, active, body, club) \
             VALUES ($1, $2, $3, 1, 0, $4, $5)",
        )
        .bind(id)
        .bind(owner)
        .bind(created_at)
        .bind(body)
        .bind(club)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Tournament `id`, if there is one.
    pub(crate) async fn tournament(
        &self,
        id: &str,
    ) -> Result<Option<StoredTournament>, StoreError> {
        let row = sqlx::query(
            "SELECT id, owner, created_at, version, body, club FROM tournaments WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(self.pool())
        .await?;
        row.as_ref().map(stored).transpose()
    }

    /// Replaces tournament `id`'s body (and whether it is active) if it is still at
    /// `version` (and moves it to the next version): whether it was.
    pub(crate) async fn update_tournament(
        &self,
        id: &str,
        version: i64,
        body: &str,
        active: bool,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tournaments SET body = $1, version = version + 1, active = $4 \
             WHERE id = $2 AND version = $3",
        )
        .bind(body)
        .bind(id)
        .bind(version)
        .bind(i32::from(active))
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The `limit` newest tournaments, newest first.
    pub(crate) async fn recent_tournaments(
        &self,
        limit: i64,
    ) -> Result<Vec<StoredTournament>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, owner, created_at, version, body, club FROM tournaments \
             ORDER BY created_at DESC, id LIMIT $1",
        )
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(stored).collect()
    }

    /// Club `club`'s tournaments, newest first, at most `limit`.
    pub(crate) async fn club_tournaments(
        &self,
        club: &str,
        limit: i64,
    ) -> Result<Vec<StoredTournament>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, owner, created_at, version, body, club FROM tournaments \
             WHERE club = $1 ORDER BY created_at DESC, id LIMIT $2",
        )
        .bind(club)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(stored).collect()
    }

    /// The ids of the active tournaments (online, a round under way).
    pub(crate) async fn active_tournaments(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT id FROM tournaments WHERE active = 1 ORDER BY id")
            .fetch_all(self.pool())
            .await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Run on both backends by the store's suite.
    pub(crate) async fn suite(store: &Store) {
        store
            .add_tournament("t1", "arbiter", 5, "{}", None)
            .await
            .unwrap();
        let t = store.tournament("t1").await.unwrap().unwrap();
        assert_eq!(
            (t.owner.as_str(), t.version, t.body.as_str()),
            ("arbiter", 1, "{}")
        );
        assert!(store.tournament("t2").await.unwrap().is_none());
        assert!(store.active_tournaments().await.unwrap().is_empty());
        // Of two changes read at version 1, the first wins; the second changes nothing.
        assert!(
            store
                .update_tournament("t1", 1, "{\"a\":1}", true)
                .await
                .unwrap()
        );
        assert!(
            !store
                .update_tournament("t1", 1, "{\"b\":2}", false)
                .await
                .unwrap()
        );
        let t = store.tournament("t1").await.unwrap().unwrap();
        assert_eq!((t.version, t.body.as_str()), (2, "{\"a\":1}"));
        assert_eq!(store.active_tournaments().await.unwrap(), ["t1"]);
        assert!(store.update_tournament("t1", 2, "{}", false).await.unwrap());
        assert!(store.active_tournaments().await.unwrap().is_empty());
        // The same id twice is refused.
        assert!(
            store
                .add_tournament("t1", "other", 6, "{}", None)
                .await
                .is_err()
        );
        store
            .add_tournament("t0", "other", 4, "{}", Some("club"))
            .await
            .unwrap();
        store
            .add_tournament("t3", "other", 9, "{}", Some("club"))
            .await
            .unwrap();
        let recent = store.recent_tournaments(2).await.unwrap();
        let ids: Vec<&str> = recent.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["t3", "t1"], "newest first, the limit kept");
        let of_club = store.club_tournaments("club", 10).await.unwrap();
        let ids: Vec<&str> = of_club.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["t3", "t0"]);
        assert_eq!(of_club[0].club.as_deref(), Some("club"));
        assert!(
            store
                .club_tournaments("other", 10)
                .await
                .unwrap()
                .is_empty()
        );
    }
}
