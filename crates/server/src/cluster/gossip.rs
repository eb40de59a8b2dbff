//! What every node tells the others: its lobby and who is online on it, and accounts' events.

use super::*;

impl Cluster {
    /// Every second, tells the other nodes how this node's rooms list and who is online
    /// here, and hears the same of them: the lobby, TV and "online" span the cluster.
    pub(crate) fn gossip(&self, lobby: crate::lobby::Lobby, online: crate::presence::Online) {
        let cluster = self.clone();
        let (lobby_out, online_out) = (lobby.clone(), online.clone());
        tokio::spawn(async move {
            let mut every = tokio::time::interval(GOSSIP_EVERY);
            for told in 0u64.. {
                every.tick().await;
                // Taken first, so that the next news has only what changes after.
                let changes = lobby_out.take_changes();
                let full = told % FULL_NEWS_EVERY == 0;
                let (rooms, gone) = if full {
                    let rooms = lobby_out.own();
                    (
                        rooms.iter().map(|(id, l)| (id.clone(), l.into())).collect(),
                        Vec::new(),
                    )
                } else {
                    let mut rooms = Vec::new();
                    let mut gone = Vec::new();
                    for (id, listing) in changes {
                        match listing {
                            Some(l) => rooms.push((id, (&l).into())),
                            None => gone.push(id),
                        }
                    }
                    (rooms, gone)
                };
                let news = wire::NodeNews {
                    node: cluster.node().to_owned(),
                    run: cluster.inner.run.clone(),
                    full,
                    rooms,
                    gone,
                    online: online_out.own(),
                };
                let body = json(&news);
                crate::metrics::count_news(body.len());
                let _ = cluster.inner.nats.publish(NEWS, body).await;
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
                let rooms = news.rooms.into_iter().map(|(id, l)| (id, l.into()));
                if news.full {
                    lobby.heard(&news.node, rooms.collect());
                } else {
                    let gone = news.gone.into_iter().map(|id| (id, None));
                    let changes = rooms.map(|(id, l)| (id, Some(l))).chain(gone).collect();
                    lobby.heard_changes(&news.node, changes);
                }
                online.heard(&news.node, news.online);
            },
        );
    }

    /// Hands every message on `subject` that reads as a `T` to `f`, for as long as the node
    /// runs (`what`: what the subject carries, for the log).
    pub(super) fn hear<T: serde::de::DeserializeOwned>(
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
            while let Some(told) = outgoing.recv().await {
                let _ = cluster.inner.nats.publish(USER_EVENTS, json(&told)).await;
            }
        });
        self.hear(
            USER_EVENTS,
            "accounts' events",
            move |(user, event): (String, crate::events::UserEvent)| {
                events.deliver(&user, event);
            },
        );
    }
}
