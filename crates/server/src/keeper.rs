//! The tournaments' keeper: every node's task that keeps its online tournaments and arenas
//! going without anyone looking. Above both kinds (`tournaments.rs`, `arenas.rs`), it reads
//! the active ones and hands each to its kind's code.

use crate::rooms::Rooms;

/// How often the keeper looks at the active tournaments.
const KEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

/// Every [`KEEP_EVERY`], each active tournament is brought up to date
/// ([`crate::tournaments::sync`], [`crate::arenas::keep_one`]). Every node runs one; two nodes
/// keeping the same tournament at once change it once (the version) and make each game once
/// (its id).
pub(crate) fn keep(rooms: Rooms) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(KEEP_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            let ids = match rooms.store().active_tournaments().await {
                Ok(ids) => ids,
                Err(e) => {
                    tracing::warn!(error = %e, "the tournament keeper cannot read");
                    continue;
                }
            };
            for (id, kind) in ids {
                let done = if kind == crate::arenas::KIND {
                    crate::arenas::keep_one(&rooms, &id).await
                } else {
                    crate::tournaments::read_kept(&rooms, &id).await.map(|_| ())
                };
                if let Err(e) = done {
                    tracing::warn!(tournament = %id, error = ?e, "a tournament could not be kept");
                }
            }
        }
    });
}
