//! Cluster mode (`rookery serve --cluster nats://...`): several nodes on one PostgreSQL
//! database, talking over NATS. Each live game's room runs on exactly one node, which holds
//! a lease on it in the database (`store/leases.rs`) under an epoch that fences every write
//! of the game; the owner renews its leases, and when a node dies they run out and another
//! node takes its games over, loading them as a restart does.
//!
//! A connection may be on any node. On the owner, a *bridge* per room answers requests on
//! `game.{id}.cmd` (a queue group, so exactly one node answers) and publishes the room's
//! events on `game.{id}.ev` with their versions. Elsewhere a [`RemoteRoom`] asks the owner
//! and a *mirror* per game hands the events to this node's connections; a gap it cannot
//! fill, or a takeover, ends the mirror, and its connections start again from the owner.

mod bots;
mod pairing;
pub(crate) mod wire;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use rookery_core::Color;
use tokio::sync::broadcast;

use crate::refusal::Problem;
use crate::room::{Reply, Request, RoomError, RoomHandle, Subscription, Transport, Versioned};
use crate::rooms::Rooms;
use crate::store::{NewGame, Store, StoreError};
use crate::wallclock::now_ms;
use wire::Broadcast;

/// How long a lease lasts without renewal: how long a dead node's games wait for a new one.
pub(crate) const LEASE: Duration = Duration::from_secs(5);
/// How often an owner renews its leases.
const RENEW_EVERY: Duration = Duration::from_millis(1500);
/// How often a node looks for games nobody holds.
const TAKEOVER_EVERY: Duration = Duration::from_millis(1000);
/// The most games a node takes over in one look (the others are left to other nodes).
const TAKE_AT_ONCE: usize = 40;
/// How long a request to a game's owner may take before the player is told to retry.
const ASK_TIMEOUT: Duration = Duration::from_secs(4);
/// How often a node tells the others of its lobby and who is online on it.
const GOSSIP_EVERY: Duration = Duration::from_secs(1);
/// The subject of that news.
const NEWS: &str = "rookery.nodes";
/// The subject of accounts' events (a game started, a challenge), heard by every node.
const USER_EVENTS: &str = "rookery.user";
/// How soon a request that reached nobody is sent again.
const NO_RESPONDERS_AGAIN: Duration = Duration::from_millis(100);
/// Events a mirror's connections may be behind before they are resynced.
const MIRROR_FEED: usize = 64;
/// The header naming the node run a told presence or spectator comes from.
const RUN_HEADER: &str = "Rookery-Run";
/// A node run not heard from for this long is gone, and its connections with it.
const RUN_GONE: Duration = Duration::from_secs(5);
/// How long a node keeps a handle to another node's room before it looks again at who
/// holds the game (a finished game's handle goes with it).
const REMOTE_KEPT: Duration = Duration::from_secs(60);
/// How often a bridge looks for gone runs.
const GONE_LOOK: Duration = Duration::from_secs(2);

/// This node's part in the cluster (cheap to clone).
#[derive(Clone)]
pub(crate) struct Cluster {
    inner: Arc<Inner>,
}

struct Inner {
    nats: async_nats::Client,
    node: String,
    store: Store,
    /// Games whose events reach this node's connections from another node, by game id.
    mirrors: Mutex<HashMap<String, broadcast::Sender<Versioned>>>,
    /// The games this node holds, with the epoch of each lease.
    leases: Mutex<HashMap<String, i64>>,
    /// SIGTERM: take no more games (and hand over those held).
    leaving: AtomicBool,
    /// Wakes the pairing loop when the node leaves; it answers when the role is given up.
    leave_now: tokio::sync::Notify,
    pairing_released: tokio::sync::Notify,
    /// The pairing authority's last book (`pairing.rs`).
    heard_book: Mutex<pairing::Heard>,
    /// This run of the node: its name and when it started.
    run: String,
    /// The other nodes' runs as last heard, and when.
    runs: Mutex<HashMap<String, (String, std::time::Instant)>>,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster")
            .field("node", &self.inner.node)
            .finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn json(value: &impl serde::Serialize) -> axum::body::Bytes {
    serde_json::to_vec(value).unwrap_or_default().into()
}

fn cmd_subject(id: &str) -> String {
    format!("game.{id}.cmd")
}

fn ev_subject(id: &str) -> String {
    format!("game.{id}.ev")
}

impl Cluster {
    /// Joins the cluster as `node`. NATS need not be up yet: the client keeps trying, and
    /// meanwhile this node serves the games it holds to the connections it has.
    pub(crate) async fn join(url: &str, node: String, store: Store) -> Result<Cluster, String> {
        let nats = async_nats::ConnectOptions::new()
            .name(format!("rookery {node}"))
            .retry_on_initial_connect()
            .connect(url)
            .await
            .map_err(|e| format!("cannot reach NATS at {url}: {e}"))?;
        // A node that starts again under its name holds nothing yet: what the name held
        // before is free for any node (this one included) at once.
        store
            .release_leases_of(&node)
            .await
            .map_err(|e| e.to_string())?;
        tracing::info!(%node, nats = %url, "cluster node");
        Ok(Cluster {
            inner: Arc::new(Inner {
                nats,
                store,
                mirrors: Mutex::default(),
                leases: Mutex::default(),
                leaving: AtomicBool::new(false),
                leave_now: tokio::sync::Notify::new(),
                pairing_released: tokio::sync::Notify::new(),
                heard_book: Mutex::default(),
                run: format!("{node}@{}", now_ms()),
                runs: Mutex::default(),
                node,
            }),
        })
    }

    pub(crate) fn node(&self) -> &str {
        &self.inner.node
    }

    /// Takes game `id` if it is live and nobody holds it: the epoch of the new lease.
    pub(crate) async fn take(&self, id: &str) -> Result<Option<i64>, StoreError> {
        if self.inner.leaving.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let now = now_ms() as i64;
        let until = now + LEASE.as_millis() as i64;
        let epoch = self
            .inner
            .store
            .take_lease(id, &self.inner.node, now, until)
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
        let until = now_ms() as i64 + LEASE.as_millis() as i64;
        let epoch = self
            .inner
            .store
            .create_game_held(row, &self.inner.node, until)
            .await?;
        lock(&self.inner.leases).insert(row.id.clone(), epoch);
        Ok(epoch)
    }

    /// The room of game `id`, held by another node.
    pub(crate) fn remote(&self, id: &str) -> RoomHandle {
        RoomHandle::Remote(Arc::new(RemoteRoom {
            id: id.to_owned(),
            cluster: self.clone(),
            gone: AtomicBool::new(false),
            born: std::time::Instant::now(),
        }))
    }

    /// Serves the room of game `id` (held here) to the other nodes, until it closes; then
    /// gives its lease up, so that another node may take a game still live at once.
    /// `taken`: the game was held before (by another node, or this one before a restart),
    /// and the nodes that heard its old owner must start again.
    pub(crate) fn bridge(&self, id: &str, room: RoomHandle, taken: bool) {
        let (cluster, id) = (self.clone(), id.to_owned());
        tokio::spawn(async move {
            let nats = &cluster.inner.nats;
            let commands = nats
                .queue_subscribe(cmd_subject(&id), "owner".to_owned())
                .await;
            if let (Ok(mut commands), Ok(sub)) = (commands, room.subscribe(u64::MAX).await) {
                let mut feed = sub.feed;
                if taken {
                    // Nodes that heard the old owner start again from here. (A new game
                    // has no old owner: a node that began to follow it before this bridge
                    // answered follows this owner already.)
                    let _ = nats.publish(ev_subject(&id), json(&Broadcast::Moved)).await;
                }
                let mut ledger = Ledger::default();
                let mut look = tokio::time::interval(GONE_LOOK);
                loop {
                    tokio::select! {
                        msg = commands.next() => match msg {
                            Some(msg) => {
                                let Ok(request) = serde_json::from_slice::<Request>(&msg.payload) else {
                                    tracing::debug!("an unreadable request from another node");
                                    continue;
                                };
                                if let Some(run) = msg.headers.as_ref().and_then(|h| h.get(RUN_HEADER)) {
                                    ledger.note(run.as_str(), &request);
                                }
                                // Forwarded as it came; the answer goes back as the room gave it.
                                let answer = room.request(request).await.map_err(|e| Problem::from(&e));
                                if let Some(to) = msg.reply {
                                    let _ = nats.publish(to, json(&answer)).await;
                                }
                            }
                            None => break,
                        },
                        _ = look.tick() => ledger.forget_gone(&cluster, &id, &room).await,
                        event = feed.recv() => match event {
                            Ok(e) => {
                                let body = json(&Broadcast::Event(Box::new(e)));
                                let _ = nats.publish(ev_subject(&id), body).await;
                            }
                            // The mirrors see the gap and resync.
                            Err(broadcast::error::RecvError::Lagged(_)) => {}
                            Err(broadcast::error::RecvError::Closed) => break,
                        },
                    }
                }
            } else {
                tracing::warn!(game = %id, "the room cannot be offered to other nodes");
            }
            room.close().await;
            if lock(&cluster.inner.leases).remove(&id).is_some() {
                if let Err(e) = cluster.inner.store.release_lease(&id, cluster.node()).await {
                    tracing::warn!(game = %id, error = %e, "lease not released; it runs out");
                }
            }
        });
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

    async fn renew(&self, rooms: &Rooms) {
        // Judged: the leases held before the renewal (one taken meanwhile may have missed it).
        let before: Vec<(String, i64)> = lock(&self.inner.leases)
            .iter()
            .map(|(id, epoch)| (id.clone(), *epoch))
            .collect();
        let until = now_ms() as i64 + LEASE.as_millis() as i64;
        let held = match self.inner.store.renew_leases(self.node(), until).await {
            Ok(held) => held,
            Err(e) => {
                tracing::warn!(error = %e, "leases not renewed");
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

    async fn take_over(&self, rooms: &Rooms) {
        let ids = match self.inner.store.unowned_games(now_ms() as i64).await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!(error = %e, "cannot look for games to take over");
                return;
            }
        };
        let mut taken = 0;
        for id in ids {
            if taken == TAKE_AT_ONCE {
                break;
            }
            if rooms.running(&id).is_some() {
                continue;
            }
            // Its owner was reached elsewhere; nobody holds it now: try here.
            rooms.forget_remote(&id);
            match rooms.get(&id).await {
                Ok(Some(room)) if room.is_local() => {
                    taken += 1;
                    tracing::info!(game = %id, "game taken over");
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(game = %id, error = %e, "takeover failed"),
            }
        }
    }

    /// Every second, tells the other nodes how this node's rooms list and who is online
    /// here, and hears the same of them: the lobby, TV and "online" span the cluster.
    pub(crate) fn gossip(&self, lobby: crate::lobby::Lobby, online: crate::presence::Online) {
        let cluster = self.clone();
        let (lobby_out, online_out) = (lobby.clone(), online.clone());
        tokio::spawn(async move {
            let mut every = tokio::time::interval(GOSSIP_EVERY);
            loop {
                every.tick().await;
                let news = wire::NodeNews {
                    node: cluster.node().to_owned(),
                    run: cluster.inner.run.clone(),
                    rooms: lobby_out
                        .own()
                        .iter()
                        .map(|(id, l)| (id.clone(), l.into()))
                        .collect(),
                    online: online_out.own(),
                };
                let _ = cluster.inner.nats.publish(NEWS, json(&news)).await;
            }
        });
        let cluster = self.clone();
        self.hear(
            NEWS,
            "the other nodes' lobby",
            move |news: wire::NodeNews| {
                if news.node == cluster.node() {
                    return;
                }
                lock(&cluster.inner.runs)
                    .insert(news.node.clone(), (news.run, std::time::Instant::now()));
                let rooms = news
                    .rooms
                    .into_iter()
                    .map(|(id, l)| (id, l.into()))
                    .collect();
                lobby.heard(&news.node, rooms);
                online.heard(&news.node, news.online);
            },
        );
    }

    /// Hands every message on `subject` that reads as a `T` to `f`, for as long as the node
    /// runs (`what`: what the subject carries, for the log).
    fn hear<T: serde::de::DeserializeOwned>(
        &self,
        subject: &'static str,
        what: &'static str,
        mut f: impl FnMut(T) + Send + 'static,
    ) {
        let nats = self.inner.nats.clone();
        tokio::spawn(async move {
            let Ok(mut heard) = nats.subscribe(subject).await else {
                tracing::warn!("cannot hear {what}");
                return;
            };
            while let Some(msg) = heard.next().await {
                if let Ok(value) = serde_json::from_slice::<T>(&msg.payload) {
                    f(value);
                }
            }
        });
    }

    /// Sends accounts' events round every node, and hands those heard to this node's
    /// streams: an account's event stream may be on any node.
    pub(crate) fn relay_events(&self, events: crate::events::Events) {
        let Some(mut outgoing) = events.relay() else {
            return;
        };
        let cluster = self.clone();
        tokio::spawn(async move {
            while let Some((user, event)) = outgoing.recv().await {
                let wire = wire::WireUserEvent::of(user, &event);
                let _ = cluster.inner.nats.publish(USER_EVENTS, json(&wire)).await;
            }
        });
        self.hear(
            USER_EVENTS,
            "accounts' events",
            move |wire: wire::WireUserEvent| {
                let (user, event) = wire.into_event();
                events.deliver(&user, event);
            },
        );
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

    /// Sends `body` to whoever answers `subject` and waits for the answer; none in `within`
    /// (nobody answers just now, or NATS is down) is `Err`. While nobody listens on the
    /// subject (a room just made whose bridge is still subscribing, a game between two
    /// owners, the pairing between two authorities) the request reached nobody, so it is
    /// sent again until the time is up.
    async fn call<T: serde::de::DeserializeOwned>(
        &self,
        subject: &str,
        body: &impl serde::Serialize,
        within: Duration,
    ) -> Result<T, ()> {
        let nats = &self.inner.nats;
        let body = json(body);
        let asking = async {
            loop {
                let request = async_nats::Request::new()
                    .payload(body.clone())
                    .timeout(Some(within));
                match nats.send_request(subject.to_owned(), request).await {
                    Err(e) if e.kind() == async_nats::RequestErrorKind::NoResponders => {
                        tokio::time::sleep(NO_RESPONDERS_AGAIN).await;
                    }
                    answered => return answered,
                }
            }
        };
        let reply = tokio::time::timeout(within, asking)
            .await
            .map_err(drop)?
            .map_err(drop)?;
        serde_json::from_slice(&reply.payload).map_err(drop)
    }

    /// The events of game `id` as they reach this node, for one more connection. The
    /// subscription to NATS is made before this returns, so nothing published after a
    /// request that follows is missed.
    async fn mirror(&self, id: &str) -> Result<broadcast::Receiver<Versioned>, RoomError> {
        if let Some(tx) = lock(&self.inner.mirrors).get(id) {
            return Ok(tx.subscribe());
        }
        let sub = self
            .inner
            .nats
            .subscribe(ev_subject(id))
            .await
            .map_err(|_| RoomError::Unavailable)?;
        let mut mirrors = lock(&self.inner.mirrors);
        if let Some(tx) = mirrors.get(id) {
            return Ok(tx.subscribe());
        }
        let (tx, rx) = broadcast::channel(MIRROR_FEED);
        mirrors.insert(id.to_owned(), tx.clone());
        drop(mirrors);
        let (cluster, id) = (self.clone(), id.to_owned());
        tokio::spawn(async move {
            cluster.run_mirror(&id, sub, &tx).await;
            let mut mirrors = lock(&cluster.inner.mirrors);
            if mirrors.get(&id).is_some_and(|t| t.same_channel(&tx)) {
                mirrors.remove(&id);
            }
            // Dropping the last sender ends every connection's feed: they start again.
        });
        Ok(rx)
    }

    async fn run_mirror(
        &self,
        id: &str,
        mut sub: async_nats::Subscriber,
        tx: &broadcast::Sender<Versioned>,
    ) {
        let mut last: Option<u64> = None;
        let remote = RemoteRoom {
            id: id.to_owned(),
            cluster: self.clone(),
            gone: AtomicBool::new(false),
            born: std::time::Instant::now(),
        };
        loop {
            let msg = tokio::select! {
                msg = sub.next() => msg,
                () = tokio::time::sleep(Duration::from_secs(20)) => {
                    if tx.receiver_count() == 0 {
                        return;
                    }
                    continue;
                }
            };
            let Some(msg) = msg else { return };
            let event = match serde_json::from_slice::<Broadcast>(&msg.payload) {
                Ok(Broadcast::Event(e)) => *e,
                Ok(Broadcast::Moved) | Err(_) => {
                    tracing::debug!(game = %id, "the game's owner changed: its connections here start again");
                    return;
                }
            };
            if let Some(l) = last {
                if event.v <= l {
                    continue;
                }
                if event.v > l + 1 {
                    // A gap: what the owner still has fills it, else everyone resyncs.
                    let Ok(Reply::Subscribed(Subscription {
                        missed: Some(missed),
                        ..
                    })) = remote.call(Request::Subscribe { since: l }).await
                    else {
                        tracing::debug!(game = %id, "a gap the owner cannot fill: connections here start again");
                        return;
                    };
                    for e in missed.into_iter().filter(|e| e.v < event.v) {
                        let _ = tx.send(e);
                    }
                }
            }
            last = Some(event.v);
            let _ = tx.send(event);
            if tx.receiver_count() == 0 {
                return;
            }
        }
    }
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
}

/// What other nodes' connections told a room this node holds (players present, spectators),
/// by node run: undone when that run is gone (killed, cut off, started again), since its
/// connections are gone with it and will never say they left.
#[derive(Default)]
struct Ledger {
    by_run: HashMap<String, Told>,
}

struct Told {
    /// When this run first told the room something.
    since: std::time::Instant,
    players: rookery_core::ByColor<u32>,
    watchers: Vec<Option<String>>,
}

impl Ledger {
    /// Notes what node run `run` told the room, if it is a presence or a spectator.
    fn note(&mut self, run: &str, request: &Request) {
        if !matches!(request, Request::Presence { .. } | Request::Watcher { .. }) {
            return;
        }
        let told = self.by_run.entry(run.to_owned()).or_insert_with(|| Told {
            since: std::time::Instant::now(),
            players: rookery_core::ByColor::default(),
            watchers: Vec::new(),
        });
        match request {
            Request::Presence { color, connected } => {
                let n = told.players.get_mut(*color);
                *n = if *connected {
                    *n + 1
                } else {
                    n.saturating_sub(1)
                };
            }
            Request::Watcher { joined: true, name } => told.watchers.push(name.clone()),
            Request::Watcher {
                joined: false,
                name,
            } => {
                if let Some(i) = told.watchers.iter().position(|w| w == name) {
                    told.watchers.swap_remove(i);
                }
            }
            _ => {}
        }
    }

    /// Tells the room that the connections of every gone run left.
    async fn forget_gone(&mut self, cluster: &Cluster, id: &str, room: &RoomHandle) {
        let gone: Vec<String> = {
            let runs = lock(&cluster.inner.runs);
            self.by_run
                .iter()
                .filter(|(run, told)| {
                    let node = run.rsplit_once('@').map_or(run.as_str(), |(n, _)| n);
                    match runs.get(node) {
                        Some((now, heard)) => *now != **run || heard.elapsed() > RUN_GONE,
                        None => told.since.elapsed() > RUN_GONE,
                    }
                })
                .map(|(run, _)| run.clone())
                .collect()
        };
        for run in gone {
            let Some(told) = self.by_run.remove(&run) else {
                continue;
            };
            tracing::info!(game = %id, %run, "a gone node's connections leave the room");
            for color in [Color::White, Color::Black] {
                for _ in 0..*told.players.get(color) {
                    room.presence(color, false).await;
                }
            }
            for name in told.watchers {
                room.watcher(false, name).await;
            }
        }
    }
}

/// A byte of randomness (for jitter).
fn rand_byte() -> u8 {
    crate::ids::random_bytes::<1>()[0]
}

/// A room whose game another node holds: requests go to it over NATS, as they are.
#[derive(Debug)]
pub(crate) struct RemoteRoom {
    id: String,
    cluster: Cluster,
    /// Nobody answered the last request: no node holds the game just now.
    gone: AtomicBool,
    /// When this handle was made: a registry keeps it [`REMOTE_KEPT`] at most.
    born: std::time::Instant,
}

impl RemoteRoom {
    /// Asks the owner and waits for its answer; no answer in time (no owner just now, or
    /// NATS down) is [`RoomError::Unavailable`], the owner's refusal [`RoomError::Remote`].
    async fn call(&self, request: Request) -> Result<Reply, RoomError> {
        let answer = self
            .cluster
            .call::<Result<Reply, Problem>>(&cmd_subject(&self.id), &request, ASK_TIMEOUT)
            .await;
        self.gone.store(answer.is_err(), Ordering::Relaxed);
        answer
            .map_err(|()| RoomError::Unavailable)?
            .map_err(RoomError::Remote)
    }
}

impl Transport for RemoteRoom {
    fn ask(&self, request: Request) -> BoxFuture<'_, Result<Reply, RoomError>> {
        Box::pin(async move {
            if !matches!(request, Request::Subscribe { .. }) {
                return self.call(request).await;
            }
            // The feed first: whatever the owner publishes after answering reaches it.
            let feed = self.cluster.mirror(&self.id).await?;
            match self.call(request).await? {
                Reply::Subscribed(sub) => Ok(Reply::Subscribed(Subscription { feed, ..sub })),
                other => Ok(other),
            }
        })
    }

    /// Tells the owner something that needs no answer (with this node's run, so that what
    /// its connections said is undone if the node goes).
    fn tell(&self, request: Request) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let inner = &self.cluster.inner;
            let mut headers = async_nats::HeaderMap::new();
            headers.insert(RUN_HEADER, inner.run.as_str());
            let _ = inner
                .nats
                .publish_with_headers(cmd_subject(&self.id), headers, json(&request))
                .await;
        })
    }

    fn is_gone(&self) -> bool {
        self.gone.load(Ordering::Relaxed) || self.born.elapsed() > REMOTE_KEPT
    }
}
