//! Leases on games (migration 0014): which node runs a game's room, under which epoch. A
//! live game's room, and a finished game's while it is open (its last state and its rematch
//! offers): one room per game in the whole cluster. Taking a game raises its epoch; the
//! writer refuses a write made under an older epoch ([`super::writer::GameWrite::epoch`]),
//! which is the fencing. A node holds its games for as long as its own row in `nodes` is
//! alive (migration 0028): one renewal a node, however many games it holds.

use sqlx::Row;

use super::{Store, StoreError};

/// The `lease_until` of a game a node holds: its node's row says for how long.
pub(crate) const HELD: i64 = i64::MAX;

impl Store {
    /// Takes game `id` for `node` if nobody else holds it at `now` (no owner, a lease run
    /// out, an owner whose node's lease ran out, or `node` itself): the new epoch, or `None`
    /// (held, or no such game).
    pub(crate) async fn take_lease(
        &self,
        id: &str,
        node: &str,
        now: i64,
    ) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(
            "UPDATE games SET epoch = epoch + 1, owner = $1, lease_until = $2, wake_at = NULL \
             WHERE id = $3 AND (owner IS NULL OR owner = $1 OR lease_until < $4 \
             OR owner IN (SELECT name FROM nodes WHERE alive_until < $4)) \
             RETURNING epoch",
        )
        .bind(node)
        .bind(HELD)
        .bind(id)
        .bind(now)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(|r| r.try_get::<i64, _>(0)).transpose()?)
    }

    /// Renews `node`'s lease, and with it every game it holds, until `until`: true if it
    /// had not run out by `now` (nobody can have taken its games); false if it had, or the
    /// node had none (then [`Store::held_games`] says which games it still holds).
    pub(crate) async fn renew_node(
        &self,
        node: &str,
        now: i64,
        until: i64,
    ) -> Result<bool, StoreError> {
        let renewed =
            sqlx::query("UPDATE nodes SET alive_until = $1 WHERE name = $2 AND alive_until >= $3")
                .bind(until)
                .bind(node)
                .bind(now)
                .execute(self.pool())
                .await?;
        if renewed.rows_affected() == 1 {
            return Ok(true);
        }
        sqlx::query(
            "INSERT INTO nodes (name, alive_until) VALUES ($1, $2) \
             ON CONFLICT (name) DO UPDATE SET alive_until = excluded.alive_until",
        )
        .bind(node)
        .bind(until)
        .execute(self.pool())
        .await?;
        Ok(false)
    }

    /// The games `node` holds, with the epoch of each (a game missing is another node's).
    pub(crate) async fn held_games(&self, node: &str) -> Result<Vec<(String, i64)>, StoreError> {
        Ok(
            sqlx::query_as("SELECT id, epoch FROM games WHERE owner = $1")
                .bind(node)
                .fetch_all(self.pool())
                .await?,
        )
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

    /// Puts game `id` to sleep (migration 0027) if it is live and its last load was the one
    /// under `epoch` (and, in cluster mode, `node` holds it): no room holds it from now, and
    /// it is to be loaded again by `wake_at`. In cluster mode (`lease`: the node and when its
    /// lease is to run out) its lease is given up, so that any node may wake it on a request,
    /// and the first to look once it has run out takes it. False: a later load has it
    /// (nothing was written).
    pub(crate) async fn sleep_game(
        &self,
        id: &str,
        epoch: i64,
        wake_at: i64,
        lease: Option<(&str, i64)>,
    ) -> Result<bool, StoreError> {
        let done = match lease {
            None => {
                sqlx::query(
                    "UPDATE games SET wake_at = $1 \
                     WHERE id = $2 AND epoch = $3 AND status = 'live'",
                )
                .bind(wake_at)
                .bind(id)
                .bind(epoch)
                .execute(self.pool())
                .await?
            }
            Some((node, until)) => {
                sqlx::query(
                    "UPDATE games SET wake_at = $1, owner = NULL, lease_until = $2 \
                     WHERE id = $3 AND epoch = $4 AND owner = $5 AND status = 'live'",
                )
                .bind(wake_at)
                .bind(until)
                .bind(id)
                .bind(epoch)
                .bind(node)
                .execute(self.pool())
                .await?
            }
        };
        Ok(done.rows_affected() == 1)
    }

    /// Sleeping games to be loaded by `until` (one node: the rooms' waker looks twice a second;
    /// a cluster's look for unowned games finds them by their lease instead).
    pub(crate) async fn waking_games(&self, until: i64) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT id FROM games WHERE status = 'live' AND wake_at IS NOT NULL \
             AND wake_at <= $1 ORDER BY wake_at, id",
        )
        .bind(until)
        .fetch_all(self.pool())
        .await?)
    }

    /// Live games that nobody holds at `now` (never taken, released, asleep and due, or their
    /// node's lease run out): what a node may take over.
    pub(crate) async fn unowned_games(&self, now: i64) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(
            // `status` written out, so that the partial index of live games (migration
            // 0015) serves the query under a generic plan too.
            // A game nobody holds has a lease run out: released (0), never taken (0), or
            // asleep until its waking time (migration 0027); a held one, its node's.
            "SELECT id FROM games WHERE status = 'live' AND lease_until < $1 \
             UNION ALL SELECT g.id FROM nodes n JOIN games g ON g.owner = n.name \
             WHERE n.alive_until < $1 AND g.status = 'live'",
        )
        .bind(now)
        .fetch_all(self.pool())
        .await?)
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

#[cfg(test)]
pub(super) mod tests {
    //! Leases, fencing and claims, on both backends (run by `store::tests`).

    use super::super::tests::game;
    use super::super::writer::{EventWriter, GameWrite};
    use super::super::*;

    /// Leases and fencing (issue 41): a node takes a game under a new epoch; after its lease
    /// runs out another node takes it under a higher one, and from then on the first node's
    /// writes are refused whole while the second's go in; a write among others is refused
    /// alone.
    pub(in crate::store) async fn suite(store: &Store, writer: &EventWriter) {
        store.create_game(&game("lease", 100)).await.unwrap();
        store.create_game(&game("other", 101)).await.unwrap();
        let at = |ply: i64, id: &str| StoredMove {
            game_id: id.into(),
            ply,
            uci: "e2e4".into(),
            san: "e4".into(),
            clock_ms: None,
            at_ms: ply,
            elapsed_ms: 0,
            lag_ms: 0,
        };
        let fenced = |id: &str, ply: i64, epoch: i64| GameWrite {
            game_id: id.into(),
            moves: vec![at(ply, id)],
            epoch: Some(epoch),
            ..GameWrite::default()
        };
        assert!(
            store
                .unowned_games(1_000)
                .await
                .unwrap()
                .contains(&"lease".to_owned())
        );
        // Each node's first renewal makes its row (it held nothing before).
        assert!(!store.renew_node("node-a", 1_000, 6_000).await.unwrap());
        assert!(!store.renew_node("node-b", 1_000, 6_000).await.unwrap());
        let a = store
            .take_lease("lease", "node-a", 1_000)
            .await
            .unwrap()
            .unwrap();
        // Held: nobody else may take it before A's lease runs out; A renews it with its own.
        assert_eq!(
            store.take_lease("lease", "node-b", 5_000).await.unwrap(),
            None
        );
        assert!(
            !store
                .unowned_games(5_000)
                .await
                .unwrap()
                .contains(&"lease".to_owned())
        );
        assert!(store.renew_node("node-a", 5_000, 8_000).await.unwrap());
        assert_eq!(
            store.held_games("node-a").await.unwrap(),
            vec![("lease".to_owned(), a)]
        );
        writer.write(fenced("lease", 1, a)).await.unwrap();
        // Node A is paused past its lease; node B takes the game over.
        assert!(
            store
                .unowned_games(9_000)
                .await
                .unwrap()
                .contains(&"lease".to_owned())
        );
        store.renew_node("node-b", 9_000, 14_000).await.unwrap();
        let b = store
            .take_lease("lease", "node-b", 9_000)
            .await
            .unwrap()
            .unwrap();
        assert!(b > a);
        // A comes back: its lease had run out, and the game is no longer its.
        assert!(!store.renew_node("node-a", 20_000, 25_000).await.unwrap());
        assert!(store.held_games("node-a").await.unwrap().is_empty());
        assert_eq!(
            store.held_games("node-b").await.unwrap(),
            vec![("lease".to_owned(), b)]
        );
        // A's write (with A's ending) is refused whole; B's goes in.
        let mut late = fenced("lease", 2, a);
        late.ending = Some((
            Ending {
                result: GameResult::WhiteWins,
                termination: Termination::Resignation,
            },
            9_500,
        ));
        let refused = writer.write(late).await.unwrap_err();
        assert_eq!(refused, StoreError::Fenced);
        // A's move alone (nothing of the game's row changes: on PostgreSQL one statement
        // fences and inserts) is refused as well.
        let refused = writer.write(fenced("lease", 2, a)).await.unwrap_err();
        assert_eq!(refused, StoreError::Fenced);
        writer.write(fenced("lease", 2, b)).await.unwrap();
        let row = store.game("lease").await.unwrap().unwrap();
        assert_eq!(row.status, Status::Live, "A's ending was not written");
        let moves = store.moves("lease").await.unwrap();
        assert_eq!(moves.len(), 2);
        // In one batch, a fenced write fails alone: the others commit.
        let (w1, w2, w3) = tokio::join!(
            writer.write(fenced("lease", 3, a)),
            writer.write(fenced("lease", 3, b)),
            writer.write(GameWrite {
                game_id: "other".into(),
                moves: vec![at(1, "other")],
                ..GameWrite::default()
            }),
        );
        assert!(
            w1.is_err() && w2.is_ok() && w3.is_ok(),
            "{w1:?} {w2:?} {w3:?}"
        );
        assert_eq!(store.moves("lease").await.unwrap().len(), 3);
        // A node leaving in order releases the game: another takes it at once.
        store.release_lease("lease", "node-b").await.unwrap();
        assert!(
            store
                .take_lease("lease", "node-c", 10_000)
                .await
                .unwrap()
                .unwrap()
                > b
        );

        // A sleeping game (migration 0027): written only by the load that has it; nobody's
        // until a request takes it, or its lease has run out (before its waking time).
        store.create_game(&game("sleepy", 102)).await.unwrap();
        let e = store
            .take_lease("sleepy", "node-a", 21_000)
            .await
            .unwrap()
            .unwrap();
        let cluster_sleep =
            |epoch| store.sleep_game("sleepy", epoch, 50_000, Some(("node-a", 47_000)));
        assert!(
            !cluster_sleep(e - 1).await.unwrap(),
            "an older load's sleep"
        );
        assert!(cluster_sleep(e).await.unwrap());
        assert_eq!(
            store.game("sleepy").await.unwrap().unwrap().wake_at,
            Some(50_000)
        );
        assert!(
            store
                .held_games("node-a")
                .await
                .unwrap()
                .iter()
                .all(|(id, _)| id != "sleepy"),
            "asleep, it is not the node's"
        );
        let unowned = |now| async move {
            store
                .unowned_games(now)
                .await
                .unwrap()
                .contains(&"sleepy".to_owned())
        };
        assert!(
            !unowned(10_000).await,
            "asleep and not due: no look takes it"
        );
        assert!(unowned(47_001).await, "due: the next look takes it");
        let woken = store
            .take_lease("sleepy", "node-b", 10_000)
            .await
            .unwrap()
            .expect("asked for, any node takes it at once");
        assert!(woken > e);
        assert_eq!(store.game("sleepy").await.unwrap().unwrap().wake_at, None);
        // One node: the waker finds it by its waking time; the next load clears it.
        store.create_game(&game("alone", 103)).await.unwrap();
        let e = store.next_epoch("alone").await.unwrap();
        assert!(store.sleep_game("alone", e, 70_000, None).await.unwrap());
        let waking = |until| async move {
            store
                .waking_games(until)
                .await
                .unwrap()
                .contains(&"alone".to_owned())
        };
        assert!(!waking(69_999).await);
        assert!(waking(70_000).await);
        store.next_epoch("alone").await.unwrap();
        assert!(!waking(70_000).await, "awake again");

        // A cluster-wide role (the pairing authority): one holder at a time, by lease.
        let r1 = store
            .take_role("pairing", "node-a", 1_000, 6_000)
            .await
            .unwrap();
        assert_eq!(r1, Some(1), "the first holder makes the row");
        assert_eq!(
            store
                .take_role("pairing", "node-b", 5_000, 10_000)
                .await
                .unwrap(),
            None
        );
        assert!(
            store
                .renew_role("pairing", "node-a", 1, 8_000)
                .await
                .unwrap()
        );
        // A paused past its lease: B takes the role; A's renewal then fails.
        let r2 = store
            .take_role("pairing", "node-b", 9_000, 14_000)
            .await
            .unwrap();
        assert_eq!(r2, Some(2));
        assert!(
            !store
                .renew_role("pairing", "node-a", 1, 20_000)
                .await
                .unwrap()
        );
        assert!(
            store
                .renew_role("pairing", "node-b", 2, 16_000)
                .await
                .unwrap()
        );
        // Released in order: taken at once.
        store.release_role("pairing", "node-a").await.unwrap();
        assert_eq!(
            store
                .take_role("pairing", "node-c", 10_000, 15_000)
                .await
                .unwrap(),
            None,
            "A released nothing it did not hold"
        );
        store.release_role("pairing", "node-b").await.unwrap();
        assert_eq!(
            store
                .take_role("pairing", "node-c", 10_000, 15_000)
                .await
                .unwrap(),
            Some(3)
        );

        // The analysis queue: claims, renewals, a claim run out, and workers claiming at once.
        for (i, id) in ["j1", "j2", "j3", "j4", "j5", "j6"].iter().enumerate() {
            store.create_game(&game(id, 100 + i as i64)).await.unwrap();
            assert!(
                store
                    .queue_analysis(id, 1000, 100 + i as i64, "u:test", false)
                    .await
                    .unwrap()
            );
        }
        let claim = |w: &'static str, now: i64| {
            let store = store.clone();
            async move { store.claim_analysis(w, now, now + 1_000).await.unwrap() }
        };
        assert_eq!(
            claim("a", 1_000).await.as_deref(),
            Some("j1"),
            "oldest first"
        );
        assert_eq!(claim("b", 1_000).await.as_deref(), Some("j2"));
        assert!(
            !store
                .renew_analysis("j1", "b", 3_000, (1, 9))
                .await
                .unwrap()
        );
        assert!(
            store
                .renew_analysis("j2", "b", 3_000, (4, 9))
                .await
                .unwrap()
        );
        assert_eq!(
            store.analysis("j2").await.unwrap().unwrap().progress,
            Some((4, 9))
        );
        // A's claim on j1 runs out at 2,000 (A died): C claims it; A may no longer finish it.
        assert_eq!(claim("c", 2_500).await.as_deref(), Some("j1"));
        assert!(!store.finish_analysis("j1", "a", "[]", 2_600).await.unwrap());
        assert!(store.finish_analysis("j1", "c", "[]", 2_600).await.unwrap());
        assert_eq!(
            store.analysis("j1").await.unwrap().unwrap().status,
            analyses::AnalysisStatus::Done
        );
        // Eight workers claim together: the four queued jobs go to four of them, once each.
        let claims = futures_util::future::join_all(
            ["w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"].map(|w| claim(w, 2_700)),
        )
        .await;
        let mut got: Vec<String> = claims.into_iter().flatten().collect();
        got.sort();
        assert_eq!(got, ["j3", "j4", "j5", "j6"]);
        // A node starting again frees what its name held: claimed again at once.
        store.release_analyses_of("b").await.unwrap();
        assert_eq!(claim("d", 2_800).await.as_deref(), Some("j2"));
    }
}
