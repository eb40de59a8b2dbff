//! Cluster mode (`rookery serve --cluster nats://...`): several nodes on one PostgreSQL
//! database, talking over NATS. Each live game's room runs on exactly one node, which holds
//! a lease on it in the database (`store/leases.rs`) under an epoch that fences every write
//! of the game; the owner renews its leases, and when a node dies they run out and another
//! node takes its games over, loading them as a restart does.
//!
//! A connection may be on any node. On the owner, a *bridge* per room answers requests on
//! `game.{id}.cmd` (a queue group, so exactly one node answers) and publishes the room's
//! events on `game.{id}.ev` with their versions. Elsewhere a `RemoteRoom` (`mirror.rs`) asks the owner
//! and a *mirror* per game hands the events to this node's connections; a gap it cannot
//! fill, or a takeover, ends the mirror, and its connections start again from the owner.

mod bots;
mod bridge;
mod gossip;
mod leases;
mod mirror;
mod pairing;
pub(crate) mod wire;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use rookery_core::Color;
use tokio::sync::broadcast;

use crate::locks::lock;
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
/// The most games a node takes over in one look (the others are left to other nodes), and
/// how many of them it loads at once.
const TAKE_AT_ONCE: usize = 1000;
const LOADS_AT_ONCE: usize = 16;
/// How long a request to a game's owner may take before the player is told to retry.
const ASK_TIMEOUT: Duration = Duration::from_secs(4);
/// How often a node tells the others of its lobby and who is online on it.
const GOSSIP_EVERY: Duration = Duration::from_secs(1);
/// Every how many news a node tells all its rooms, not only what changed: a node that
/// joined, or missed a message, knows them all again within this many seconds.
const FULL_NEWS_EVERY: u64 = 15;
/// The subject of that news.
const NEWS: &str = "rookery.nodes";
/// The subject of accounts' events (a game started, a challenge), heard by every node.
const USER_EVENTS: &str = "rookery.user";
/// How soon a request that reached nobody is sent again.
const NO_RESPONDERS_AGAIN: Duration = Duration::from_millis(100);
/// Events a mirror's connections may be behind before they are resynced.
const MIRROR_FEED: usize = 64;
/// How long a mirror waits after NATS came back before it asks the owner what it missed:
/// the client subscribes again just after it says it is connected, and the owners reconnect
/// about then too.
const CATCH_UP_AFTER: Duration = Duration::from_millis(500);
/// The header naming the node run a request to a room comes from (a told presence or
/// spectator is undone when the run goes; a mirror is counted under it).
const RUN_HEADER: &str = "Rookery-Run";
/// The header of a `Subscribe` naming the mirror it is for (a number within the run).
const MIRROR_HEADER: &str = "Rookery-Mirror";
/// The header of a message that says a mirror of the run has ended (no body).
const UNFOLLOW_HEADER: &str = "Rookery-Unfollow";
/// A node run not heard from for this long is silent: its connections count as gone until
/// it is heard again (or for good once its node starts again under a new run).
const RUN_GONE: Duration = Duration::from_secs(5);
/// How long a node keeps a handle to another node's room before it looks again at who
/// holds the game (a finished game's handle goes with it).
const REMOTE_KEPT: Duration = Duration::from_secs(60);
/// How long a handle to another node's room is trusted without an answer from its owner.
const REMOTE_FRESH: Duration = Duration::from_secs(2);
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
    /// Games whose events reach this node's connections from another node, by game id,
    /// with each mirror's number.
    mirrors: Mutex<HashMap<String, (broadcast::Sender<Versioned>, u64)>>,
    /// How many mirrors this run has made (the next one's number).
    mirrors_made: std::sync::atomic::AtomicU64,
    /// The games this node holds, with the epoch of each lease.
    leases: Mutex<HashMap<String, i64>>,
    /// Until when this node's own lease runs, as of its last renewal that reached the store
    /// (ms since the epoch).
    alive_until: AtomicI64,
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
    /// Counts the times messages may have been lost (NATS connected again, or dropped
    /// messages for a slow subscriber): each mirror then asks its owner what it missed.
    losses: tokio::sync::watch::Receiver<u64>,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster")
            .field("node", &self.inner.node)
            .finish_non_exhaustive()
    }
}

/// `nats://user:password@host:port` as the address alone and the credentials it carried
/// (async-nats would not use them from the URL; the address is what may be logged).
fn split_credentials(url: &str) -> (String, Option<(String, String)>) {
    let Some((scheme, rest)) = url.split_once("://") else {
        return (url.to_owned(), None);
    };
    let host_start = rest.find('/').unwrap_or(rest.len());
    let Some((userinfo, host)) = rest[..host_start].rsplit_once('@') else {
        return (url.to_owned(), None);
    };
    let (user, password) = userinfo.split_once(':').unwrap_or((userinfo, ""));
    let address = format!("{scheme}://{host}{}", &rest[host_start..]);
    (address, Some((user.to_owned(), password.to_owned())))
}

/// The NATS connection's options: this node's name, retrying the first connection, and its
/// credentials and TLS as given.
async fn connect_options(
    auth: &crate::cli::NatsAuth,
    in_url: Option<(String, String)>,
    node: &str,
    losses: tokio::sync::watch::Sender<u64>,
) -> Result<async_nats::ConnectOptions, String> {
    let mut options = async_nats::ConnectOptions::new()
        .name(format!("rookery {node}"))
        .retry_on_initial_connect()
        .event_callback(move |event| {
            // While the connection was down (or a subscriber too slow), events published
            // then never reached this node: a mirror would wait for them for ever, its
            // game still, since nothing else comes until its player moves.
            if matches!(
                event,
                async_nats::Event::Connected | async_nats::Event::SlowConsumer(_)
            ) {
                tracing::info!(%event, "NATS: mirrors ask their owners what they missed");
                losses.send_modify(|n| *n += 1);
            }
            std::future::ready(())
        });
    let user = match (&auth.nats_user, &auth.nats_password) {
        (Some(user), password) => Some((user.clone(), password.clone().unwrap_or_default())),
        (None, Some(_)) => return Err("--nats-password needs --nats-user".to_owned()),
        (None, None) => in_url,
    };
    if let Some((user, password)) = user {
        options = options.user_and_password(user, password);
    }
    if let Some(token) = &auth.nats_token {
        options = options.token(token.clone());
    }
    if let Some(path) = &auth.nats_creds {
        options = options
            .credentials_file(path)
            .await
            .map_err(|e| format!("cannot read the NATS credentials {}: {e}", path.display()))?;
    }
    if let Some(ca) = &auth.nats_tls_ca {
        options = options.add_root_certificates(ca.clone()).require_tls(true);
    }
    match (&auth.nats_tls_cert, &auth.nats_tls_key) {
        (Some(cert), Some(key)) => {
            options = options
                .add_client_certificate(cert.clone(), key.clone())
                .require_tls(true);
        }
        (None, None) => {}
        _ => return Err("--nats-tls-cert and --nats-tls-key go together".to_owned()),
    }
    Ok(options)
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
    pub(crate) async fn join(
        url: &str,
        auth: &crate::cli::NatsAuth,
        node: String,
        store: Store,
    ) -> Result<Cluster, String> {
        let (url, in_url) = split_credentials(url);
        let (losses_tx, losses) = tokio::sync::watch::channel(0);
        let options = connect_options(auth, in_url, &node, losses_tx).await?;
        let nats = options
            .connect(url.as_str())
            .await
            .map_err(|e| format!("cannot reach NATS at {url}: {e}"))?;
        // A node that starts again under its name holds nothing yet: what the name held
        // before is free for any node (this one included) at once.
        store
            .release_leases_of(&node)
            .await
            .map_err(|e| e.to_string())?;
        // Its lease, before it holds any game.
        let now = now_ms() as i64;
        let alive_until = now + LEASE.as_millis() as i64;
        store
            .renew_node(&node, now, alive_until)
            .await
            .map_err(|e| e.to_string())?;
        // The address only: whatever secret came with it stays out of the log.
        tracing::info!(%node, nats = %url, "cluster node");
        Ok(Cluster {
            inner: Arc::new(Inner {
                nats,
                store,
                mirrors: Mutex::default(),
                mirrors_made: std::sync::atomic::AtomicU64::new(0),
                leases: Mutex::default(),
                alive_until: AtomicI64::new(alive_until),
                leaving: AtomicBool::new(false),
                leave_now: tokio::sync::Notify::new(),
                pairing_released: tokio::sync::Notify::new(),
                heard_book: Mutex::default(),
                run: format!("{node}@{}", now_ms()),
                runs: Mutex::default(),
                losses,
                node,
            }),
        })
    }

    pub(crate) fn node(&self) -> &str {
        &self.inner.node
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
        self.call_with(subject, body, within, self.run_headers())
            .await
    }

    /// Headers naming this node's run.
    fn run_headers(&self) -> async_nats::HeaderMap {
        let mut headers = async_nats::HeaderMap::new();
        headers.insert(RUN_HEADER, self.inner.run.as_str());
        headers
    }

    /// [`Cluster::call`] with these headers.
    async fn call_with<T: serde::de::DeserializeOwned>(
        &self,
        subject: &str,
        body: &impl serde::Serialize,
        within: Duration,
        headers: async_nats::HeaderMap,
    ) -> Result<T, ()> {
        let nats = &self.inner.nats;
        let body = json(body);
        let asking = async {
            loop {
                let request = async_nats::Request::new()
                    .payload(body.clone())
                    .headers(headers.clone())
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
}

/// A byte of randomness (for jitter).
fn rand_byte() -> u8 {
    crate::ids::random_bytes::<1>()[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 50: credentials in the NATS URL are used (async-nats ignored them) and the
    /// address that is logged no longer carries them.
    #[test]
    fn credentials_in_the_nats_url_are_taken_out_of_it() {
        let (url, creds) = split_credentials("nats://rookery:s3cret@nats.internal:4222");
        assert_eq!(url, "nats://nats.internal:4222");
        assert_eq!(creds, Some(("rookery".to_owned(), "s3cret".to_owned())));
        assert_eq!(
            split_credentials("tls://nats:4222"),
            ("tls://nats:4222".to_owned(), None)
        );
        let (url, _) = split_credentials("nats://u:p@a:1,nats://b:2");
        assert!(!url.contains("p@"), "{url}");
    }
}
