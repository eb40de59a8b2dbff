//! Holding games by lease: taking one (or making one held), renewing, giving up, taking over
//! games nobody holds, handing over at SIGTERM; the rooms' [`crate::rooms::Placement`].

use super::*;

impl Cluster {
    /// Takes game `id` if it is live and nobody holds it: the epoch of the new lease. Not
    /// while this node's own lease is stale (the game would be lost again at its renewal):
    /// its requests go to the owner meanwhile.
    pub(crate) async fn take(&self, id: &str) -> Result<Option<i64>, StoreError> {
        if self.inner.leaving.load(Ordering::Relaxed) || !self.lease_is_fresh() {
            return Ok(None);
        }
        let epoch = self
            .inner
            .store
            .take_lease(id, &self.inner.node, now_ms() as i64)
            .await?;
        if let Some(epoch) = epoch {
            lock(&self.inner.leases).insert(id.to_owned(), epoch);
        }
        Ok(epoch)
    }

    /// Stores a new game already held by this node (its insert is its lease, so no other
    /// node's takeover can find it unowned in between): its epoch.
    pub(crate) async fn create_held(&self, row: &NewGame) -> Result<i64, StoreError> {
        if self.inner.leaving.load(Ordering::Relaxed) {
            return Err(StoreError::Failed(
                "this node is leaving: it makes no new game".to_owned(),
            ));
        }
        let epoch = self
            .inner
            .store
            .create_game_held(row, &self.inner.node)
            .await?;
        lock(&self.inner.leases).insert(row.id.clone(), epoch);
        Ok(epoch)
    }

    /// Renews this node's leases and takes over games nobody holds, for as long as the
    /// node runs.
    pub(crate) fn start(&self, rooms: Rooms) {
        let cluster = self.clone();
        let renewing = rooms.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(RENEW_EVERY);
            loop {
                every.tick().await;
                cluster.renew(&renewing).await;
            }
        });
        let cluster = self.clone();
        tokio::spawn(async move {
            loop {
                // A little jitter, so nodes do not all look at once.
                let jitter = u64::from(rand_byte()) * 2;
                tokio::time::sleep(TAKEOVER_EVERY + Duration::from_millis(jitter)).await;
                if cluster.inner.leaving.load(Ordering::Relaxed) {
                    return;
                }
                cluster.take_over(&rooms).await;
            }
        });
    }

    /// Renews this node's lease, and with it every game it holds: one row, however many
    /// games. If it had run out (the node was paused or cut off), other nodes may have taken
    /// games: the rooms of those no longer held here close.
    pub(super) async fn renew(&self, rooms: &Rooms) {
        // Judged: the leases held before the renewal (one taken meanwhile may have missed it).
        let before: Vec<(String, i64)> = lock(&self.inner.leases)
            .iter()
            .map(|(id, epoch)| (id.clone(), *epoch))
            .collect();
        let now = now_ms() as i64;
        let until = now + LEASE.as_millis() as i64;
        let renewed = self.inner.store.renew_node(self.node(), now, until).await;
        if renewed.is_ok() {
            self.inner.alive_until.store(until, Ordering::Relaxed);
        }
        match renewed {
            Ok(true) => return,
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(error = %e, "lease not renewed");
                return;
            }
        }
        let held = match self.inner.store.held_games(self.node()).await {
            Ok(held) => held,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read which games this node holds");
                return;
            }
        };
        let held: HashMap<String, i64> = held.into_iter().collect();
        let lost = before
            .into_iter()
            .filter(|(id, epoch)| held.get(id) != Some(epoch));
        for (id, epoch) in lost {
            // Taken by another node; unless this node took it again meanwhile.
            {
                let mut leases = lock(&self.inner.leases);
                if leases.get(&id) != Some(&epoch) {
                    continue;
                }
                leases.remove(&id);
            }
            tracing::warn!(game = %id, "another node holds the game now: the room closes");
            if let Some(room) = rooms.running(&id) {
                room.close().await;
            }
        }
    }

    /// Whether this node's own lease was renewed lately. A node whose lease ran out (the
    /// store was out of reach for every node at once) would lose what it takes to the first
    /// node renewed, and games would change hands twice: it takes nothing until its own
    /// renewal reaches the store.
    fn lease_is_fresh(&self) -> bool {
        lease_fresh(
            self.inner.alive_until.load(Ordering::Relaxed),
            now_ms() as i64,
        )
    }

    /// Takes the games nobody holds (once this node's own lease is fresh).
    pub(super) async fn take_over(&self, rooms: &Rooms) {
        use futures_util::StreamExt;
        if !self.lease_is_fresh() {
            tracing::debug!("own lease not renewed lately: no takeover this time");
            return;
        }
        let ids = match self.inner.store.unowned_games(now_ms() as i64).await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!(error = %e, "cannot look for games to take over");
                return;
            }
        };
        let ids: Vec<String> = ids
            .into_iter()
            .filter(|id| rooms.running(id).is_none())
            .take(TAKE_AT_ONCE)
            .collect();
        // Several loads at once: a dead node's games are taken within seconds.
        futures_util::stream::iter(ids)
            .for_each_concurrent(LOADS_AT_ONCE, |id| async move {
                // Its owner was reached elsewhere; nobody holds it now: try here.
                rooms.forget_remote(&id);
                match rooms.get(&id).await {
                    Ok(Some(room)) if room.is_local() => {
                        tracing::info!(game = %id, "game taken over");
                    }
                    Ok(_) => {}
                    Err(e) => tracing::warn!(game = %id, error = %e, "takeover failed"),
                }
            })
            .await;
    }

    /// SIGTERM: takes no more games and hands over those held (each room closes and its
    /// lease is given up, for another node to take at once), and the pairing if it pairs.
    /// Waits at most `within`.
    pub(crate) async fn hand_over(&self, rooms: &Rooms, within: Duration) {
        self.inner.leaving.store(true, Ordering::Relaxed);
        self.inner.leave_now.notify_one();
        let held: Vec<String> = lock(&self.inner.leases).keys().cloned().collect();
        tracing::info!(games = held.len(), "handing games over to other nodes");
        for id in &held {
            if let Some(room) = rooms.running(id) {
                room.close().await;
            }
        }
        let deadline = tokio::time::Instant::now() + within;
        let _ = tokio::time::timeout_at(deadline, self.inner.pairing_released.notified()).await;
        while !lock(&self.inner.leases).is_empty() && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Whether a node's lease running until `alive_until` was renewed within the last two
/// renewals at `now` (a healthy node's has more than `LEASE - RENEW_EVERY` left).
fn lease_fresh(alive_until: i64, now: i64) -> bool {
    alive_until - now >= (LEASE - 2 * RENEW_EVERY).as_millis() as i64
}

impl crate::rooms::Placement for Cluster {
    fn create_held<'a>(&'a self, row: &'a NewGame) -> BoxFuture<'a, Result<i64, StoreError>> {
        Box::pin(Cluster::create_held(self, row))
    }

    fn take<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<i64>, StoreError>> {
        Box::pin(Cluster::take(self, id))
    }

    fn remote(&self, id: &str) -> RoomHandle {
        Cluster::remote(self, id)
    }

    fn serve(&self, id: &str, room: RoomHandle, taken: bool) {
        self.bridge(id, room, taken);
    }

    fn start(&self, rooms: Rooms) {
        Cluster::start(self, rooms);
    }

    fn sleep<'a>(
        &'a self,
        id: &'a str,
        epoch: i64,
        wake_at: i64,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            // Not this node's to renew, nor (when its room's bridge stops) to release: the
            // store gives the lease up, to run out a little before `wake_at` so that a look
            // takes the game in time for its room to keep the flag.
            lock(&self.inner.leases).remove(id);
            let until = wake_at.saturating_sub(crate::rooms::WAKE_AHEAD.as_millis() as i64);
            self.inner
                .store
                .sleep_game(id, epoch, wake_at, Some((self.node(), until)))
                .await
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lease_is_fresh_for_two_renewals() {
        let lease = LEASE.as_millis() as i64;
        let renew = RENEW_EVERY.as_millis() as i64;
        let renewed_at = 1_000_000;
        let until = renewed_at + lease;
        assert!(lease_fresh(until, renewed_at));
        // A renewal missed (the store slow): still fresh.
        assert!(lease_fresh(until, renewed_at + renew + renew / 2));
        // Two missed: no takeover until the next renewal reaches the store.
        assert!(!lease_fresh(until, renewed_at + 2 * renew + 1));
        assert!(!lease_fresh(until, renewed_at + lease + 1));
    }
}
