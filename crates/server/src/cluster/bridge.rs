//! The bridge: serves a room held here to the other nodes (requests forwarded as they came,
//! events published with their versions), and undoes what a gone node's connections said.

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
                // The room's events go out on NATS only once another node follows the game:
                // a node's mirror subscribes to them and then asks the room for its state
                // (`Request::Subscribe`) through here, before it hands anything on. A game
                // whose connections are all on this node publishes nothing.
                let mut followed = false;
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
                                followed |= matches!(request, Request::Subscribe { .. });
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
                            Ok(e) if followed => {
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
}

/// What other nodes' connections told a room this node holds (players present, spectators),
/// by node run: undone when that run is gone (killed, cut off, started again), since its
/// connections are gone with it and will never say they left.
#[derive(Default)]
pub(super) struct Ledger {
    by_run: HashMap<String, Told>,
}

pub(super) struct Told {
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
