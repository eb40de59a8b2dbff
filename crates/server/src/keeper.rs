//! The tournaments' keeper: the task that keeps online tournaments and arenas going without
//! anyone looking. Above both kinds (`tournaments.rs`, `arenas.rs`), it reads the active ones
//! and hands each to its kind's code.
//!
//! In a cluster one node at a time keeps them: the tournament director, by the same lease as
//! the pairing authority (`roles`, migration 0015; role [`ROLE`]). Everything it decides is
//! in the store before it acts on it (a pairing is written with its game's id before the game
//! is made), so a director that dies loses nothing: the next takes the role when the lease
//! runs out and goes on from the store.

use crate::rooms::Rooms;
use crate::wallclock::now_ms;

/// How often the keeper looks at the active tournaments.
const KEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(2);
/// The director's role, and how long its lease lasts without a renewal.
pub(crate) const ROLE: &str = "tournaments";
const ROLE_LEASE_MS: i64 = 6_000;

/// Every [`KEEP_EVERY`], each active tournament is brought up to date
/// ([`crate::tournaments::sync`], [`crate::arenas::keep_one`]) by this node when it is the
/// only one or, with `node` (cluster mode, this node's id), while it holds the director's
/// role. Two keepers at once (a role just lost) would still change a tournament once (its
/// version) and make each game once (its id).
///
/// The site's hourly arenas (`hourly`: their clocks, `--hourly-arenas`) are made by the same
/// keeper, an hour ahead ([`crate::arenas::make_hourly`]).
pub(crate) fn keep(rooms: Rooms, node: Option<String>, hourly: Vec<String>) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(KEEP_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut epoch: Option<i64> = None;
        loop {
            every.tick().await;
            if let Some(node) = &node {
                epoch = directing(&rooms, node, epoch).await;
                if epoch.is_none() {
                    continue;
                }
            }
            if let Err(e) =
                crate::arenas::make_hourly(rooms.store(), &hourly, now_ms() as i64).await
            {
                tracing::warn!(error = ?e, "the hourly arenas could not be made");
            }
            keep_all(&rooms).await;
        }
    });
}

/// Takes or renews the director's role for `node`: its epoch while held.
async fn directing(rooms: &Rooms, node: &str, epoch: Option<i64>) -> Option<i64> {
    let store = rooms.store();
    let now = now_ms() as i64;
    let until = now + ROLE_LEASE_MS;
    match epoch {
        Some(e) => match store.renew_role(ROLE, node, e, until).await {
            Ok(true) => Some(e),
            Ok(false) => {
                tracing::warn!("another node directs the tournaments now");
                None
            }
            Err(err) => {
                tracing::warn!(error = %err, "the tournament director's role not renewed");
                None
            }
        },
        None => match store.take_role(ROLE, node, now, until).await {
            Ok(Some(e)) => {
                tracing::info!(epoch = e, "this node directs the tournaments now");
                Some(e)
            }
            Ok(None) => None,
            Err(err) => {
                tracing::debug!(error = %err, "cannot look at the tournament director's role");
                None
            }
        },
    }
}

async fn keep_all(rooms: &Rooms) {
    let ids = match rooms.store().active_tournaments().await {
        Ok(ids) => ids,
        Err(e) => {
            tracing::warn!(error = %e, "the tournament keeper cannot read");
            return;
        }
    };
    for (id, kind) in ids {
        let done = if kind == crate::arenas::KIND {
            crate::arenas::keep_one(rooms, &id).await
        } else {
            crate::tournaments::read_kept(rooms, &id).await.map(|_| ())
        };
        if let Err(e) = done {
            tracing::warn!(tournament = %id, error = ?e, "a tournament could not be kept");
        }
    }
}
