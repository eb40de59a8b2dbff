//! The bridge: serves a room held here to the other nodes (requests forwarded as they came,
//! events published while another node follows the game), and undoes what a gone or silent
//! node's connections said.

use std::collections::HashSet;

use super::*;

impl Cluster {
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
                // The room's events go out on NATS only while another node follows the game:
                // a node's mirror subscribes to them and then asks the room for its state
                // (`Request::Subscribe`, naming the mirror) through here, before it hands
                // anything on; it says when it ends. A game whose connections are all on
                // this node publishes nothing.
                let mut ledger = Ledger::default();
                let mut look = tokio::time::interval(GONE_LOOK);
                loop {
                    tokio::select! {
                        msg = commands.next() => match msg {
                            Some(msg) => {
                                let header = |name| {
                                    let value = msg.headers.as_ref().and_then(|h| h.get(name));
                                    value.map(async_nats::HeaderValue::as_str)
                                };
                                let run = header(RUN_HEADER);
                                if let Some(run) = run {
                                    ledger.heard(run, &room).await;
                                }
                                if let Some(mirror) = header(UNFOLLOW_HEADER) {
                                    ledger.unfollow(run, mirror);
                                    continue;
                                }
                                let Ok(request) = serde_json::from_slice::<Request>(&msg.payload) else {
                                    tracing::debug!("an unreadable request from another node");
                                    continue;
                                };
                                if matches!(request, Request::Subscribe { .. }) {
                                    ledger.follow(run, header(MIRROR_HEADER));
                                }
                                if let Some(run) = run {
                                    ledger.note(run, &request);
                                }
                                // Forwarded as it came; the answer goes back as the room gave it.
                                let answer = room.request(request).await.map_err(|e| Problem::from(&e));
                                if let Some(to) = msg.reply {
                                    let _ = nats.publish(to, json(&answer)).await;
                                }
                            }
                            None => break,
                        },
                        _ = look.tick() => ledger.look_at_runs(&cluster, &id, &room).await,
                        event = feed.recv() => match event {
                            Ok(e) if ledger.followed() => {
                                let body = json(&Broadcast::Event(Box::new(e)));
                                let _ = nats.publish(ev_subject(&id), body).await;
                            }
                            Ok(_) => {}
                            // The mirrors see the gap and resync.
                            Err(broadcast::error::RecvError::Lagged(_)) => {}
                            Err(broadcast::error::RecvError::Closed) => break,
                        },
                    }
                }
                let _ = commands.unsubscribe().await;
            } else {
                tracing::warn!(game = %id, "the room cannot be offered to other nodes");
            }
            room.close().await;
            if lock(&cluster.inner.leases).remove(&id).is_some() {
                if let Err(e) = cluster.inner.store.release_lease(&id, cluster.node()).await {
                    tracing::warn!(game = %id, error = %e, "lease not released; it runs out");
                }
            } else {
                // The lease went first (another node took the game, or it sleeps). Until this
                // room closed it still answered requests, and a mirror whose `Subscribe` it
                // answered after the new owner said `Moved` follows a room that is gone: the
                // new owner, never asked, would publish nothing to it. Every mirror starts
                // again, now that this node no longer answers for the game.
                let _ = nats.publish(ev_subject(&id), json(&Broadcast::Moved)).await;
            }
        });
    }
}

/// What other nodes' connections told a room this node holds (players present, spectators),
/// by node run: undone when that run is gone (started again: its connections are gone with
/// it and will never say they left), and while it is silent (killed, or cut off: NATS down),
/// then told again if it is heard from once more.
/// It also keeps which other nodes' mirrors follow the game.
#[derive(Default)]
pub(super) struct Ledger {
    by_run: HashMap<String, Told>,
    /// The mirrors that follow the game (the room's events go out on NATS while there is
    /// one), by run, with when the run first followed: dropped when the mirror says it
    /// ended or its node starts again.
    following: HashMap<String, (std::time::Instant, HashSet<String>)>,
    /// A node followed without naming its run and mirror: the events go out for the
    /// room's life.
    followed_unnamed: bool,
}

pub(super) struct Told {
    /// When this run first told the room something.
    since: std::time::Instant,
    /// Not heard from for [`RUN_GONE`]: what it told is undone in the room for now.
    silent: bool,
    players: rookery_core::ByColor<u32>,
    watchers: Vec<Option<String>>,
}

impl Told {
    /// Tells the room that this run's connections are there (`present`) or gone.
    async fn tell(&self, room: &RoomHandle, present: bool) {
        for color in [Color::White, Color::Black] {
            for _ in 0..*self.players.get(color) {
                room.presence(color, present).await;
            }
        }
        for name in &self.watchers {
            room.watcher(present, name.clone()).await;
        }
    }
}

/// Where a node run stands, from the other nodes' news.
enum RunIs {
    Heard,
    /// Not heard from for a while (dead, or cut off from NATS).
    Silent,
    /// Its node started again under a new run.
    Gone,
}

/// Where run `run` stands, by the news last heard from its node; `since`: when it first
/// told the room something (a run never heard of counts as heard at first).
fn run_is(
    runs: &HashMap<String, (String, std::time::Instant)>,
    run: &str,
    since: std::time::Instant,
) -> RunIs {
    let node = run.rsplit_once('@').map_or(run, |(n, _)| n);
    match runs.get(node) {
        Some((now, _)) if now != run => RunIs::Gone,
        Some((_, heard)) if heard.elapsed() <= RUN_GONE => RunIs::Heard,
        None if since.elapsed() <= RUN_GONE => RunIs::Heard,
        _ => RunIs::Silent,
    }
}

impl Ledger {
    /// A mirror follows the game (`Subscribe`): by its run and number, or for good if it
    /// does not say them.
    fn follow(&mut self, run: Option<&str>, mirror: Option<&str>) {
        let (Some(run), Some(mirror)) = (run, mirror) else {
            self.followed_unnamed = true;
            return;
        };
        let (_, mirrors) = self
            .following
            .entry(run.to_owned())
            .or_insert_with(|| (std::time::Instant::now(), HashSet::new()));
        mirrors.insert(mirror.to_owned());
    }

    /// Mirror `mirror` of run `run` ended.
    fn unfollow(&mut self, run: Option<&str>, mirror: &str) {
        let Some(run) = run else { return };
        if let Some((_, mirrors)) = self.following.get_mut(run) {
            mirrors.remove(mirror);
            if mirrors.is_empty() {
                self.following.remove(run);
            }
        }
    }

    /// Whether another node's mirror follows the game.
    fn followed(&self) -> bool {
        self.followed_unnamed || !self.following.is_empty()
    }

    /// Run `run` said something: if it had gone silent, its connections are back.
    async fn heard(&mut self, run: &str, room: &RoomHandle) {
        if let Some(told) = self.by_run.get_mut(run).filter(|t| t.silent) {
            told.silent = false;
            tracing::info!(%run, "a silent node's connections are back in the room");
            told.tell(room, true).await;
        }
    }

    /// Notes what node run `run` told the room, if it is a presence or a spectator.
    fn note(&mut self, run: &str, request: &Request) {
        if !matches!(request, Request::Presence { .. } | Request::Watcher { .. }) {
            return;
        }
        let told = self.by_run.entry(run.to_owned()).or_insert_with(|| Told {
            since: std::time::Instant::now(),
            silent: false,
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

    /// Looks at every run that told the room something: a gone run's connections leave it
    /// for good, a silent one's for as long as it is silent.
    async fn look_at_runs(&mut self, cluster: &Cluster, id: &str, room: &RoomHandle) {
        let changed: Vec<(String, RunIs)> = {
            let runs = lock(&cluster.inner.runs);
            // A node started again: its old run's mirrors ended without a word. (A silent
            // node's mirrors may still be there: once NATS is back each asks again.)
            self.following
                .retain(|run, (since, _)| !matches!(run_is(&runs, run, *since), RunIs::Gone));
            self.by_run
                .iter()
                .filter_map(|(run, told)| {
                    let is = run_is(&runs, run, told.since);
                    let change = match is {
                        RunIs::Heard => told.silent,
                        RunIs::Silent => !told.silent,
                        RunIs::Gone => true,
                    };
                    change.then(|| (run.clone(), is))
                })
                .collect()
        };
        for (run, is) in changed {
            match is {
                RunIs::Heard => self.heard(&run, room).await,
                RunIs::Silent => {
                    if let Some(told) = self.by_run.get_mut(&run) {
                        told.silent = true;
                        tracing::info!(game = %id, %run, "a silent node's connections leave the room while it is silent");
                        told.tell(room, false).await;
                    }
                }
                RunIs::Gone => {
                    if let Some(told) = self.by_run.remove(&run) {
                        tracing::info!(game = %id, %run, "a gone node's connections leave the room");
                        if !told.silent {
                            told.tell(room, false).await;
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The owner publishes while a mirror follows: an end and another mirror's request
    /// crossing leave the count right; an end said twice, or for another run, changes
    /// nothing.
    #[test]
    fn mirrors_are_counted_by_run_and_number() {
        let mut ledger = Ledger::default();
        assert!(!ledger.followed());
        ledger.follow(Some("node2@1"), Some("0"));
        assert!(ledger.followed());
        // Mirror 1 of the same run asks before mirror 0's end arrives.
        ledger.follow(Some("node2@1"), Some("1"));
        ledger.unfollow(Some("node2@1"), "0");
        assert!(ledger.followed(), "mirror 1 still follows");
        ledger.unfollow(Some("node2@1"), "1");
        assert!(!ledger.followed());
        // An end said twice, or by another run, changes nothing.
        ledger.follow(Some("node3@7"), Some("4"));
        ledger.unfollow(Some("node3@7"), "4");
        ledger.unfollow(Some("node3@7"), "4");
        ledger.follow(Some("node3@7"), Some("5"));
        ledger.unfollow(Some("node2@1"), "5");
        ledger.unfollow(None, "5");
        assert!(ledger.followed());
        // A request naming no mirror follows for good.
        let mut older = Ledger::default();
        older.follow(None, None);
        older.unfollow(Some("node2@1"), "0");
        assert!(older.followed());
    }

    #[test]
    fn a_run_is_heard_silent_or_gone_by_its_nodes_news() {
        let now = std::time::Instant::now();
        let long_ago = now - RUN_GONE - Duration::from_secs(1);
        let mut runs = HashMap::new();
        runs.insert("node2".to_owned(), ("node2@1".to_owned(), now));
        runs.insert("node3".to_owned(), ("node3@1".to_owned(), long_ago));
        assert!(matches!(run_is(&runs, "node2@1", long_ago), RunIs::Heard));
        // Started again under a new run: the old one is gone.
        assert!(matches!(run_is(&runs, "node2@0", long_ago), RunIs::Gone));
        // Not heard for longer than RUN_GONE: silent (NATS down, or dead), not gone.
        assert!(matches!(run_is(&runs, "node3@1", long_ago), RunIs::Silent));
        // A node not heard of yet: heard at first, silent once it should have been.
        assert!(matches!(run_is(&runs, "node4@1", now), RunIs::Heard));
        assert!(matches!(run_is(&runs, "node4@1", long_ago), RunIs::Silent));
    }
}
