//! Quick pairing (lichess's pools): one click puts a player in the pool of a time control;
//! once a second the pools pair whoever can be paired (`pairing.rs`: by rating, the allowed
//! gap widening with the wait, colours evened out) and make their game. Logged-in players
//! wait in rated pools, anonymous players in casual ones.
//!
//! A waiting player holds a ticket (a secret) and asks after it with a long poll; a ticket
//! nobody has asked after for a while (the tab was closed) leaves its pool, so nobody is
//! paired with an empty chair. The answer to a paired ticket is the seat, as a join's is.

pub(crate) mod pairing;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::BoxFuture;
use rookery_core::Color;
use rookery_core::clock::TimeControl;
use tokio::sync::watch;

use crate::ids;
use crate::new_game::{GameSpec, SeatSpec, Source, make};
use crate::rooms::Rooms;
use crate::wallclock::now_ms;
use pairing::{Book, PoolId, Waiter};

/// The grid, as lichess's, and the seeds' classical control.
pub(crate) const GRID: [&str; 12] = [
    "1+0",
    "2+1",
    "3+0",
    "3+2",
    "5+0",
    "5+3",
    "10+0",
    "10+5",
    "15+10",
    "30+0",
    "30+20",
    "40/90+30:30+30",
];

/// A ticket nobody has asked after for this long leaves its pool.
const STALE_MS: i64 = 10_000;
/// A paired ticket still answers for this long (a lost answer can be asked again).
const KEEP_PAIRED_MS: i64 = 60_000;
/// How often the pools pair.
const TICK: Duration = Duration::from_secs(1);

/// Where a ticket stands.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum TicketState {
    Waiting,
    /// Paired: the game, the colour, the name played under and the seat token.
    Paired {
        game: String,
        color: Color,
        name: String,
        token: String,
    },
    /// The game could not be made (the database refused); join again.
    Failed(String),
}

/// Who holds a ticket: the name they play under and their account, if any.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct Holder {
    pub(crate) name: String,
    pub(crate) account: Option<String>,
}

struct Ticket {
    state: watch::Sender<TicketState>,
    holder: Holder,
    pool: PoolId,
    /// Long polls waiting on it now.
    polling: usize,
    /// When it was last asked after (ms), or paired.
    seen: i64,
}

#[derive(Default)]
struct Inner {
    book: Book,
    tickets: HashMap<String, Ticket>,
    /// The pools are no longer served here (another node pairs now).
    closed: bool,
}

/// A ticket as one pairing authority hands it to the next.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct SavedTicket {
    pub(crate) ticket: String,
    pub(crate) pool: PoolId,
    pub(crate) holder: Holder,
    /// The waiter, while waiting.
    pub(crate) waiter: Option<Waiter>,
    pub(crate) state: TicketState,
}

/// The pools: a cheap-to-clone handle. The std `Mutex` is never held across `.await`.
#[derive(Clone, Default)]
pub(crate) struct Pools {
    inner: Arc<Mutex<Inner>>,
}

impl std::fmt::Debug for Pools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pools").finish_non_exhaustive()
    }
}

/// The control of a grid cell, if `control` is one.
pub(crate) fn grid_control(control: &str) -> Option<TimeControl> {
    GRID.contains(&control)
        .then(|| TimeControl::from_friendly(control).ok())
        .flatten()
}

impl Pools {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        crate::locks::lock(&self.inner)
    }

    /// Starts the pairing task of a node that pairs alone; it makes games through `rooms`.
    pub(crate) fn start(rooms: Rooms) -> Pools {
        let pools = Pools::default();
        let ticking = pools.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(TICK);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                ticking.tick(&rooms, now_ms() as i64).await;
            }
        });
        pools
    }

    /// Puts a player in `pool`; returns the new ticket. Their other tickets leave. An
    /// anonymous waiter (no `who`) is known by the ticket itself.
    pub(crate) fn join(&self, pool: PoolId, holder: Holder, mut waiter: Waiter) -> String {
        let ticket = ids::seat_token();
        if waiter.who.is_empty() {
            waiter.who = ticket.clone();
        }
        let now = waiter.since;
        let (state, _) = watch::channel(TicketState::Waiting);
        let mut inner = self.lock();
        for gone in inner.book.join(&ticket, pool.clone(), waiter) {
            inner.tickets.remove(&gone);
        }
        inner.tickets.insert(
            ticket.clone(),
            Ticket {
                state,
                holder,
                pool,
                polling: 0,
                seen: now,
            },
        );
        ticket
    }

    /// Takes a ticket out of its pool (a paired ticket stays paired).
    pub(crate) fn leave(&self, ticket: &str) -> bool {
        let mut inner = self.lock();
        if inner.book.leave(ticket) {
            inner.tickets.remove(ticket);
            true
        } else {
            false
        }
    }

    /// Waits up to `within` for `ticket` to be paired (a long poll): its pool and state then
    /// (still `Waiting` when the time ran out, or when these pools stopped being served), or
    /// `None` for a ticket unknown here, or dropped meanwhile (left, or joined elsewhere).
    pub(crate) async fn wait(
        &self,
        ticket: &str,
        within: Duration,
    ) -> Option<(PoolId, TicketState)> {
        let (pool, mut changes) = {
            let mut inner = self.lock();
            let t = inner.tickets.get_mut(ticket)?;
            t.polling += 1;
            t.seen = now_ms() as i64;
            (t.pool.clone(), t.state.subscribe())
        };
        let settled = |s: &TicketState| !matches!(s, TicketState::Waiting);
        let waited = tokio::time::timeout(within, changes.wait_for(settled))
            .await
            .map(|s| s.map(|s| s.clone()));
        let mut inner = self.lock();
        if let Some(t) = inner.tickets.get_mut(ticket) {
            t.polling = t.polling.saturating_sub(1);
            t.seen = now_ms() as i64;
        }
        match waited {
            Ok(Ok(state)) => Some((pool, state)),
            Ok(Err(_)) if inner.closed => Some((pool, TicketState::Waiting)),
            Ok(Err(_)) => None,
            Err(_) => Some((pool, TicketState::Waiting)),
        }
    }

    /// Stops serving these pools (another node pairs now): the long polls answer "still
    /// waiting", and their next poll finds the tickets where they are now.
    pub(crate) fn close(&self) {
        let mut inner = self.lock();
        inner.closed = true;
        inner.tickets.clear();
    }

    /// Every ticket, as the next pairing authority takes them on.
    pub(crate) fn saved(&self) -> Vec<SavedTicket> {
        let inner = self.lock();
        inner
            .tickets
            .iter()
            .map(|(key, t)| SavedTicket {
                ticket: key.clone(),
                pool: t.pool.clone(),
                holder: t.holder.clone(),
                waiter: inner.book.waiting(key).map(|(_, w)| w.clone()),
                state: t.state.borrow().clone(),
            })
            .collect()
    }

    /// Takes on the tickets of the authority before (each counts as seen `now`).
    pub(crate) fn restore(&self, saved: Vec<SavedTicket>, now: i64) {
        let mut inner = self.lock();
        for t in saved {
            match (&t.state, t.waiter) {
                (TicketState::Waiting, Some(waiter)) => {
                    inner.book.join(&t.ticket, t.pool.clone(), waiter);
                }
                (TicketState::Waiting, None) => continue,
                _ => {}
            }
            let (state, _) = watch::channel(t.state);
            inner.tickets.insert(
                t.ticket,
                Ticket {
                    state,
                    holder: t.holder,
                    pool: t.pool,
                    polling: 0,
                    seen: now,
                },
            );
        }
    }

    /// How many wait in each grid cell: (rated, casual).
    pub(crate) fn counts(&self) -> HashMap<String, (usize, usize)> {
        grid_counts(self.lock().book.counts())
    }

    /// One round: stale tickets leave, whoever can be paired is, and their games are made.
    pub(crate) async fn tick(&self, rooms: &Rooms, now: i64) {
        let made: Vec<(pairing::Pairing, Holder, Holder)> = {
            let mut inner = self.lock();
            let Inner { book, tickets, .. } = &mut *inner;
            tickets.retain(|key, t| {
                let waiting = matches!(*t.state.borrow(), TicketState::Waiting);
                let fresh = t.polling > 0 || now - t.seen < STALE_MS;
                let kept = if waiting {
                    fresh
                } else {
                    now - t.seen < KEEP_PAIRED_MS
                };
                if !kept {
                    book.leave(key);
                }
                kept
            });
            book.pair(now, ids::coin)
                .into_iter()
                .filter_map(|p| {
                    let white = tickets.get(&p.white)?.holder.clone();
                    let black = tickets.get(&p.black)?.holder.clone();
                    Some((p, white, black))
                })
                .collect()
        };
        for (pairing, white, black) in made {
            let outcome = make_game(rooms, &pairing.pool, &white, &black).await;
            let mut inner = self.lock();
            for (ticket, color, holder) in [
                (&pairing.white, Color::White, &white),
                (&pairing.black, Color::Black, &black),
            ] {
                let Some(t) = inner.tickets.get_mut(ticket) else {
                    continue;
                };
                t.seen = now;
                let state = match &outcome {
                    Ok((game, tokens)) => TicketState::Paired {
                        game: game.clone(),
                        color,
                        name: holder.name.clone(),
                        token: tokens.get(color).clone(),
                    },
                    Err(e) => TicketState::Failed(e.clone()),
                };
                t.state.send_replace(state);
            }
        }
    }
}

/// Waiting players per pool → (rated, casual) per grid cell.
pub(crate) fn grid_counts(
    per_pool: impl IntoIterator<Item = (PoolId, usize)>,
) -> HashMap<String, (usize, usize)> {
    let mut out = HashMap::new();
    for (pool, n) in per_pool {
        let entry = out.entry(pool.control).or_insert((0, 0));
        if pool.rated {
            entry.0 += n;
        } else {
            entry.1 += n;
        }
    }
    out
}

/// The pools as the HTTP calls reach them: here, or at a pairing authority elsewhere
/// (cluster mode: the cluster plugs one in).
#[derive(Debug, Clone)]
pub(crate) enum Desk {
    Local(Pools),
    Remote(Arc<dyn Authority>),
}

/// A pairing authority on another node.
pub(crate) trait Authority: Send + Sync + std::fmt::Debug {
    /// Joins a pool: the ticket.
    fn join(
        &self,
        pool: PoolId,
        holder: Holder,
        waiter: Waiter,
    ) -> BoxFuture<'_, Result<String, Unreachable>>;

    /// A long poll: see [`Pools::wait`].
    fn wait<'a>(
        &'a self,
        ticket: &'a str,
        within: Duration,
    ) -> BoxFuture<'a, Result<Option<(PoolId, TicketState)>, Unreachable>>;

    fn leave<'a>(&'a self, ticket: &'a str) -> BoxFuture<'a, ()>;

    /// How many wait in each grid cell: (rated, casual).
    fn counts(&self) -> HashMap<String, (usize, usize)>;
}

/// The pairing authority could not be reached in time (cluster mode).
#[derive(Debug)]
pub(crate) struct Unreachable;

impl Desk {
    pub(crate) async fn join(
        &self,
        pool: PoolId,
        holder: Holder,
        waiter: Waiter,
    ) -> Result<String, Unreachable> {
        match self {
            Desk::Local(pools) => Ok(pools.join(pool, holder, waiter)),
            Desk::Remote(authority) => authority.join(pool, holder, waiter).await,
        }
    }

    /// A long poll: see [`Pools::wait`].
    pub(crate) async fn wait(
        &self,
        ticket: &str,
        within: Duration,
    ) -> Result<Option<(PoolId, TicketState)>, Unreachable> {
        match self {
            Desk::Local(pools) => Ok(pools.wait(ticket, within).await),
            Desk::Remote(authority) => authority.wait(ticket, within).await,
        }
    }

    pub(crate) async fn leave(&self, ticket: &str) {
        match self {
            Desk::Local(pools) => {
                pools.leave(ticket);
            }
            Desk::Remote(authority) => authority.leave(ticket).await,
        }
    }

    /// How many wait in each grid cell: (rated, casual).
    pub(crate) fn counts(&self) -> HashMap<String, (usize, usize)> {
        match self {
            Desk::Local(pools) => pools.counts(),
            Desk::Remote(authority) => authority.counts(),
        }
    }
}

/// Makes the game of a pairing, both seats taken: its id and the seat tokens. Rated when the
/// pool is and both players are accounts.
async fn make_game(
    rooms: &Rooms,
    pool: &PoolId,
    white: &Holder,
    black: &Holder,
) -> Result<(String, rookery_core::ByColor<String>), String> {
    let control = TimeControl::from_friendly(&pool.control).map_err(|e| e.to_string())?;
    let seat = |h: &Holder| SeatSpec::person(h.name.clone(), h.account.clone());
    let seats = rookery_core::ByColor {
        white: seat(white),
        black: seat(black),
    };
    let mut spec = GameSpec::new(Source::Pool, seats, control);
    spec.rated = pool.rated && white.account.is_some() && black.account.is_some();
    let made = make(rooms, spec).await.map_err(|e| {
        tracing::error!(error = %e, "a paired game could not be made");
        "the game could not be saved right now; join the pool again".to_owned()
    })?;
    let tokens = made.tokens.map(Option::unwrap_or_default);
    tracing::info!(game = %made.id, pool = %pool.control, "pool pairing");
    Ok((made.id, tokens))
}
