//! Quick pairing across nodes: one node at a time is the pairing authority. It holds the
//! role `pairing` by lease in PostgreSQL (`roles`, migration 0015), keeps the pools in
//! memory as a lone node does (`pools::Pools`), pairs once a second, and answers every
//! node's pool calls on `rookery.pools` (a queue group only the authority joins). Each
//! second it tells every node its book (`rookery.pools.book`): the other nodes count the
//! waiting players from it, and whichever node takes the role next starts from it, so a
//! waiting player keeps their ticket and their place when the authority dies or leaves.
//!
//! An authority pairs only right after renewing its lease, and a renewal fails once another
//! node took the role: two nodes never pair at the same second.

use std::sync::atomic::Ordering;
use std::time::Duration;

use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};

use super::{Cluster, json, lock};
use crate::pools::pairing::{PoolId, Waiter};
use crate::pools::{Holder, Pools, SavedTicket, TicketState, Unreachable, grid_counts};
use crate::rooms::Rooms;
use crate::wallclock::now_ms;

/// The role's name in `roles`.
const ROLE: &str = "pairing";
/// The pool calls, answered by the authority.
const CALLS: &str = "rookery.pools";
/// The authority's book, each second.
const BOOK: &str = "rookery.pools.book";
/// How long the role lasts without renewal.
const ROLE_LEASE: Duration = Duration::from_secs(5);
/// How often the authority renews the role and pairs (and others try to take it).
const PAIR_EVERY: Duration = Duration::from_secs(1);
/// A book older than this is not counted from (its authority is gone).
const BOOK_FRESH_MS: i64 = 3_000;
/// A book older than this is not started from.
const BOOK_RESTORE_MS: i64 = 15_000;
/// How long a join or leave may take to reach the authority.
const CALL_TIMEOUT: Duration = Duration::from_secs(4);

/// A pool call from a node to the authority.
#[derive(Debug, Serialize, Deserialize)]
enum Call {
    Join {
        pool: PoolId,
        holder: Holder,
        waiter: Waiter,
    },
    Wait {
        ticket: String,
        within_ms: u64,
    },
    Leave {
        ticket: String,
    },
}

/// The authority's book: every ticket, waiting or paired.
#[derive(Debug, Serialize, Deserialize)]
struct Book {
    tickets: Vec<SavedTicket>,
}

/// The last book this node heard: when, and its tickets.
#[derive(Debug, Default)]
pub(super) struct Heard {
    at: i64,
    tickets: Vec<SavedTicket>,
}

/// This node holding the role.
struct Authority {
    epoch: i64,
    pools: Pools,
    /// When the role was last renewed (ms).
    renewed: i64,
    /// Ends the answering of calls; `serving` ends once no more can come.
    stop: tokio::sync::oneshot::Sender<()>,
    serving: tokio::task::JoinHandle<()>,
}

impl Cluster {
    /// Hears the authority's book and takes the role whenever nobody holds it, for as long
    /// as the node runs (until it leaves).
    pub(crate) fn start_pairing(&self, rooms: Rooms) {
        let cluster = self.clone();
        self.hear(BOOK, "the pairing authority's book", move |book: Book| {
            *lock(&cluster.inner.heard_book) = Heard {
                at: now_ms() as i64,
                tickets: book.tickets,
            };
        });
        let cluster = self.clone();
        tokio::spawn(async move { cluster.pairing_loop(rooms).await });
    }

    async fn pairing_loop(&self, rooms: Rooms) {
        let mut held: Option<Authority> = None;
        let mut every = tokio::time::interval(PAIR_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = every.tick() => {}
                () = self.inner.leave_now.notified() => {}
            }
            let now = now_ms() as i64;
            let until = now + ROLE_LEASE.as_millis() as i64;
            if self.inner.leaving.load(Ordering::Relaxed) {
                if let Some(authority) = held.take() {
                    // The next authority starts from this last book, at once.
                    let saved = authority.stop().await;
                    self.publish_book(saved).await;
                    if let Err(e) = self.inner.store.release_role(ROLE, self.node()).await {
                        tracing::warn!(error = %e, "pairing not released; it runs out");
                    }
                    tracing::info!("pairing handed over");
                }
                self.inner.pairing_released.notify_one();
                return;
            }
            held = match held.take() {
                Some(mut authority) => {
                    let store = &self.inner.store;
                    match store
                        .renew_role(ROLE, self.node(), authority.epoch, until)
                        .await
                    {
                        Ok(true) => {
                            authority.renewed = now;
                            authority.pools.tick(&rooms, now).await;
                            self.publish_book(authority.pools.saved()).await;
                            Some(authority)
                        }
                        Ok(false) => {
                            tracing::warn!("another node pairs now");
                            authority.stop().await;
                            None
                        }
                        Err(e) if now - authority.renewed < ROLE_LEASE.as_millis() as i64 => {
                            // Pair nothing this second; the role may still be ours.
                            tracing::warn!(error = %e, "pairing role not renewed");
                            Some(authority)
                        }
                        Err(e) => {
                            tracing::warn!(error = %e, "pairing role lost with the database");
                            authority.stop().await;
                            None
                        }
                    }
                }
                None => match self
                    .inner
                    .store
                    .take_role(ROLE, self.node(), now, until)
                    .await
                {
                    Ok(Some(epoch)) => self.begin_pairing(epoch, now).await,
                    Ok(None) => None,
                    Err(e) => {
                        tracing::debug!(error = %e, "cannot look at the pairing role");
                        None
                    }
                },
            };
        }
    }

    /// This node took the role: the pools start from the last book heard and the calls are
    /// answered here.
    async fn begin_pairing(&self, epoch: i64, now: i64) -> Option<Authority> {
        let calls = match self
            .inner
            .nats
            .queue_subscribe(CALLS, "pairing".to_owned())
            .await
        {
            Ok(calls) => calls,
            Err(e) => {
                tracing::warn!(error = %e, "cannot answer pool calls; the pairing is left");
                let _ = self.inner.store.release_role(ROLE, self.node()).await;
                return None;
            }
        };
        let pools = Pools::default();
        let heard = std::mem::take(&mut *lock(&self.inner.heard_book));
        let tickets = if now - heard.at < BOOK_RESTORE_MS {
            heard.tickets
        } else {
            Vec::new()
        };
        tracing::info!(epoch, tickets = tickets.len(), "this node pairs now");
        pools.restore(tickets, now);
        let (cluster, serving_pools) = (self.clone(), pools.clone());
        let (stop, stopping) = tokio::sync::oneshot::channel::<()>();
        let serving = tokio::spawn(async move {
            let mut calls = calls;
            let mut stopping = stopping;
            loop {
                tokio::select! {
                    msg = calls.next() => match msg {
                        Some(msg) => cluster.answer(&serving_pools, msg).await,
                        None => return,
                    },
                    _ = &mut stopping => break,
                }
            }
            // No call reaches this node once the server has the unsubscription (a call
            // dropped unanswered would wait out its timeout); those already on their way
            // are answered (a drain, not an unsubscription, which would drop them).
            let _ = calls.drain().await;
            let answering = async {
                while let Some(msg) = calls.next().await {
                    cluster.answer(&serving_pools, msg).await;
                }
            };
            let _ = tokio::time::timeout(Duration::from_secs(1), answering).await;
        });
        Some(Authority {
            epoch,
            pools,
            renewed: now,
            stop,
            serving,
        })
    }

    /// Answers a call: a join or a leave at once (so that the book taken when the node stops
    /// has every join answered), a long poll in a task of its own.
    async fn answer(&self, pools: &Pools, msg: async_nats::Message) {
        let Ok(call) = serde_json::from_slice::<Call>(&msg.payload) else {
            tracing::debug!("an unreadable pool call");
            return;
        };
        let Some(to) = msg.reply else { return };
        let reply = match call {
            Call::Join {
                pool,
                holder,
                waiter,
            } => json(&pools.join(pool, holder, waiter)),
            Call::Leave { ticket } => json(&pools.leave(&ticket)),
            Call::Wait { ticket, within_ms } => {
                let (cluster, pools) = (self.clone(), pools.clone());
                tokio::spawn(async move {
                    let within = Duration::from_millis(within_ms.min(60_000));
                    let state = pools.wait(&ticket, within).await;
                    let _ = cluster.inner.nats.publish(to, json(&state)).await;
                });
                return;
            }
        };
        let _ = self.inner.nats.publish(to, reply).await;
    }

    async fn publish_book(&self, tickets: Vec<SavedTicket>) {
        let book = Book { tickets };
        let _ = self.inner.nats.publish(BOOK, json(&book)).await;
        let _ = self.inner.nats.flush().await;
    }

    pub(crate) async fn pool_join(
        &self,
        pool: PoolId,
        holder: Holder,
        waiter: Waiter,
    ) -> Result<String, Unreachable> {
        let call = Call::Join {
            pool,
            holder,
            waiter,
        };
        self.call(CALLS, &call, CALL_TIMEOUT)
            .await
            .map_err(|()| Unreachable)
    }

    pub(crate) async fn pool_wait(
        &self,
        ticket: &str,
        within: Duration,
    ) -> Result<Option<(PoolId, TicketState)>, Unreachable> {
        let call = Call::Wait {
            ticket: ticket.to_owned(),
            within_ms: within.as_millis() as u64,
        };
        self.call(CALLS, &call, within + CALL_TIMEOUT)
            .await
            .map_err(|()| Unreachable)
    }

    pub(crate) async fn pool_leave(&self, ticket: &str) {
        let call = Call::Leave {
            ticket: ticket.to_owned(),
        };
        if self.call::<bool>(CALLS, &call, CALL_TIMEOUT).await.is_err() {
            tracing::debug!("a pool leave reached no authority; the ticket goes stale");
        }
    }

    /// How many wait in each grid cell, from the authority's last book.
    pub(crate) fn pool_counts(&self) -> std::collections::HashMap<String, (usize, usize)> {
        let heard = lock(&self.inner.heard_book);
        if now_ms() as i64 - heard.at > BOOK_FRESH_MS {
            return Default::default();
        }
        let mut per_pool = std::collections::HashMap::<PoolId, usize>::new();
        for t in heard
            .tickets
            .iter()
            .filter(|t| t.state == TicketState::Waiting)
        {
            *per_pool.entry(t.pool.clone()).or_default() += 1;
        }
        grid_counts(per_pool)
    }
}

impl crate::pools::Authority for Cluster {
    fn join(
        &self,
        pool: PoolId,
        holder: Holder,
        waiter: Waiter,
    ) -> BoxFuture<'_, Result<String, Unreachable>> {
        Box::pin(self.pool_join(pool, holder, waiter))
    }

    fn wait<'a>(
        &'a self,
        ticket: &'a str,
        within: Duration,
    ) -> BoxFuture<'a, Result<Option<(PoolId, TicketState)>, Unreachable>> {
        Box::pin(self.pool_wait(ticket, within))
    }

    fn leave<'a>(&'a self, ticket: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(self.pool_leave(ticket))
    }

    fn counts(&self) -> std::collections::HashMap<String, (usize, usize)> {
        self.pool_counts()
    }
}

impl Authority {
    /// Stops answering calls; the pools' long polls answer "still waiting" (and are asked
    /// again of the next authority). Returns the last tickets: every join answered here.
    async fn stop(self) -> Vec<SavedTicket> {
        let _ = self.stop.send(());
        let _ = self.serving.await;
        let saved = self.pools.saved();
        self.pools.close();
        saved
    }
}
