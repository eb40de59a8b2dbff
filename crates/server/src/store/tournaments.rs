//! Tournaments (migration 0019), each stored as its JSON (`tournaments.rs`) with a version:
//! a change names the version it read, so that of two changes made at once one wins and
//! the other is told to read again.

use sqlx::Row;

use super::{Store, StoreError};

/// Games one [`Store::ended_games`] query asks about at most.
const ENDED_BATCH: usize = 500;

/// Which tournaments a list holds: all, a club's, or those an account made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Which<'a> {
    All,
    Club(&'a str),
    Owner(&'a str),
}

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
    /// `event` (a Swiss or a round robin) or `arena` (migration 0021).
    pub(crate) kind: String,
}

/// A row of `SELECT id, owner, created_at, version, body, club, kind`.
fn stored(r: &sqlx::any::AnyRow) -> Result<StoredTournament, StoreError> {
    Ok(StoredTournament {
        id: r.try_get(0)?,
        owner: r.try_get(1)?,
        created_at: r.try_get(2)?,
        version: r.try_get(3)?,
        body: r.try_get(4)?,
        club: r.try_get(5)?,
        kind: r.try_get(6)?,
    })
}

impl Store {
    /// Stores a new tournament (its version 1), active (the keeper looks at it) or not.
    pub(crate) async fn add_tournament(
        &self,
        t: &StoredTournament,
        active: bool,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tournaments (id, owner, created_at, version, active, body, club, kind) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&t.id)
        .bind(&t.owner)
        .bind(t.created_at)
        .bind(t.version)
        .bind(i32::from(active))
        .bind(&t.body)
        .bind(t.club.as_deref())
        .bind(&t.kind)
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
            "SELECT id, owner, created_at, version, body, club, kind FROM tournaments WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(self.pool())
        .await?;
        row.as_ref().map(stored).transpose()
    }

    /// Of the games `ids`, those that are over: each one's id, result (`1-0`, `0-1`,
    /// `1/2-1/2`, `*` for none), plies and who went berserk (bit 0 White, bit 1 Black). One
    /// query for many games (an arena's keeper asks for every game under way each time).
    pub(crate) async fn ended_games(
        &self,
        ids: &[&str],
    ) -> Result<Vec<(String, String, i64, i64)>, StoreError> {
        let mut out = Vec::new();
        for batch in ids.chunks(ENDED_BATCH) {
            let marks: Vec<String> = (1..=batch.len()).map(|i| format!("${i}")).collect();
            let sql = format!(
                "SELECT g.id, COALESCE(g.result, '*'), \
                 (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id), g.berserk \
                 FROM games g WHERE g.status = 'over' AND g.id IN ({})",
                marks.join(", ")
            );
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
            for id in batch {
                query = query.bind(*id);
            }
            for r in query.fetch_all(self.pool()).await? {
                out.push((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?));
            }
        }
        Ok(out)
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

    /// The `limit` newest tournaments of `kind` among `which`, newest first.
    pub(crate) async fn tournaments(
        &self,
        which: Which<'_>,
        kind: &str,
        limit: i64,
    ) -> Result<Vec<StoredTournament>, StoreError> {
        let (filter, value) = match which {
            Which::All => ("", None),
            Which::Club(club) => (" AND club = $3", Some(club)),
            Which::Owner(owner) => (" AND owner = $3", Some(owner)),
        };
        let sql = format!(
            "SELECT id, owner, created_at, version, body, club, kind FROM tournaments \
             WHERE kind = $1{filter} ORDER BY created_at DESC, id LIMIT $2"
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(kind).bind(limit);
        if let Some(value) = value {
            query = query.bind(value);
        }
        let rows = query.fetch_all(self.pool()).await?;
        rows.iter().map(stored).collect()
    }

    /// The ids and kinds of the active tournaments (online, a round or an arena under way).
    pub(crate) async fn active_tournaments(&self) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query("SELECT id, kind FROM tournaments WHERE active = 1 ORDER BY id")
            .fetch_all(self.pool())
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Run on both backends by the store's suite.
    pub(crate) async fn suite(store: &Store) {
        let row =
            |id: &str, owner: &str, at: i64, club: Option<&str>, kind: &str| StoredTournament {
                id: id.to_owned(),
                owner: owner.to_owned(),
                created_at: at,
                version: 1,
                body: "{}".to_owned(),
                club: club.map(str::to_owned),
                kind: kind.to_owned(),
            };
        let add = |id: &'static str, at: i64, club: Option<&'static str>, kind: &'static str| {
            let t = row(id, "other", at, club, kind);
            async move { store.add_tournament(&t, false).await }
        };
        store
            .add_tournament(&row("t1", "arbiter", 5, None, "event"), false)
            .await
            .unwrap();
        let t = store.tournament("t1").await.unwrap().unwrap();
        assert_eq!(
            (
                t.owner.as_str(),
                t.version,
                t.body.as_str(),
                t.kind.as_str()
            ),
            ("arbiter", 1, "{}", "event")
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
        assert_eq!(
            store.active_tournaments().await.unwrap(),
            [("t1".to_owned(), "event".to_owned())]
        );
        assert!(store.update_tournament("t1", 2, "{}", false).await.unwrap());
        assert!(store.active_tournaments().await.unwrap().is_empty());
        // The same id twice is refused.
        assert!(add("t1", 6, None, "event").await.is_err());
        add("t0", 4, Some("club"), "event").await.unwrap();
        add("t3", 9, Some("club"), "event").await.unwrap();
        add("a1", 11, Some("club"), "arena").await.unwrap();
        let ids = |rows: Vec<StoredTournament>| -> Vec<String> {
            rows.into_iter().map(|t| t.id).collect()
        };
        assert_eq!(
            ids(store.tournaments(Which::All, "event", 2).await.unwrap()),
            ["t3", "t1"],
            "newest first, the limit kept, arenas apart"
        );
        assert_eq!(
            ids(store.tournaments(Which::All, "arena", 5).await.unwrap()),
            ["a1"]
        );
        let of_club = store
            .tournaments(Which::Club("club"), "event", 10)
            .await
            .unwrap();
        assert_eq!(of_club[0].club.as_deref(), Some("club"));
        assert_eq!(ids(of_club), ["t3", "t0"]);
        assert_eq!(
            ids(store
                .tournaments(Which::Club("club"), "arena", 10)
                .await
                .unwrap()),
            ["a1"]
        );
        assert!(
            store
                .tournaments(Which::Club("other"), "event", 10)
                .await
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            ids(store
                .tournaments(Which::Owner("other"), "event", 10)
                .await
                .unwrap()),
            ["t3", "t0"]
        );
    }
}
