//! Another node's room seen from here: [`RemoteRoom`], the rooms' transport to the owner, and
//! the mirror that hands the owner's events to this node's connections.

use super::*;

impl Cluster {
    /// The room of game `id`, held by another node.
    pub(crate) fn remote(&self, id: &str) -> RoomHandle {
        RoomHandle::Remote(Arc::new(RemoteRoom {
            id: id.to_owned(),
            cluster: self.clone(),
            gone: AtomicBool::new(false),
            born: std::time::Instant::now(),
            answered_ms: std::sync::atomic::AtomicU64::new(0),
        }))
    }

    /// The events of game `id` as they reach this node, for one more connection, and the
    /// number of the mirror they come from (its `Subscribe` names it to the owner). The
    /// subscription to NATS is made before this returns, so nothing published after a
    /// request that follows is missed.
    pub(super) async fn mirror(
        &self,
        id: &str,
    ) -> Result<(broadcast::Receiver<Versioned>, u64), RoomError> {
        if let Some((tx, mirror)) = lock(&self.inner.mirrors).get(id) {
            return Ok((tx.subscribe(), *mirror));
        }
        let sub = self
            .inner
            .nats
            .subscribe(ev_subject(id))
            .await
            .map_err(|_| RoomError::Unavailable)?;
        let mut mirrors = lock(&self.inner.mirrors);
        if let Some((tx, mirror)) = mirrors.get(id) {
            return Ok((tx.subscribe(), *mirror));
        }
        let mirror = self.inner.mirrors_made.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = broadcast::channel(MIRROR_FEED);
        mirrors.insert(id.to_owned(), (tx.clone(), mirror));
        drop(mirrors);
        let (cluster, id) = (self.clone(), id.to_owned());
        tokio::spawn(async move {
            cluster.run_mirror(&id, mirror, sub, &tx).await;
            {
                let mut mirrors = lock(&cluster.inner.mirrors);
                if mirrors.get(&id).is_some_and(|(t, _)| t.same_channel(&tx)) {
                    mirrors.remove(&id);
                }
            }
            // The owner stops publishing once no mirror follows the game. Another mirror of
            // it made here meanwhile is counted apart, by its own number, so the order in
            // which this and its `Subscribe` arrive does not matter.
            cluster.unfollow(&id, mirror).await;
            // Dropping the last sender ends every connection's feed: they start again.
        });
        Ok((rx, mirror))
    }

    /// Whether mirror `mirror` of game `id` still runs.
    fn has_mirror(&self, id: &str, mirror: u64) -> bool {
        lock(&self.inner.mirrors)
            .get(id)
            .is_some_and(|(_, m)| *m == mirror)
    }

    /// Tells the owner of game `id` that mirror `mirror` of this node's run has ended.
    async fn unfollow(&self, id: &str, mirror: u64) {
        let mut headers = self.run_headers();
        headers.insert(UNFOLLOW_HEADER, mirror.to_string().as_str());
        self.tell_owner(id, headers, axum::body::Bytes::new()).await;
    }

    /// Sends the owner of game `id` a message that has no answer.
    async fn tell_owner(&self, id: &str, headers: async_nats::HeaderMap, body: axum::body::Bytes) {
        let subject = cmd_subject(id);
        let _ = self
            .inner
            .nats
            .publish_with_headers(subject, headers, body)
            .await;
    }

    pub(super) async fn run_mirror(
        &self,
        id: &str,
        mirror: u64,
        mut sub: async_nats::Subscriber,
        tx: &broadcast::Sender<Versioned>,
    ) {
        let mut last: Option<u64> = None;
        let mut losses = self.inner.losses.clone();
        losses.mark_unchanged();
        let remote = RemoteRoom {
            id: id.to_owned(),
            cluster: self.clone(),
            gone: AtomicBool::new(false),
            born: std::time::Instant::now(),
            answered_ms: std::sync::atomic::AtomicU64::new(0),
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
                changed = losses.changed() => {
                    if changed.is_err() {
                        return;
                    }
                    tokio::time::sleep(CATCH_UP_AFTER).await;
                    losses.mark_unchanged();
                    // What the owner published while this node could not hear it: a
                    // mirror that has heard nothing yet does not know where its
                    // connections stand, so they start again.
                    let Some(l) = last else { return };
                    let Some(missed) = remote.missed_since(l, mirror).await else {
                        tracing::debug!(game = %id, "the owner cannot say what was missed: connections here start again");
                        return;
                    };
                    for e in missed {
                        last = Some(e.v);
                        let _ = tx.send(e);
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
                    let Some(missed) = remote.missed_since(l, mirror).await else {
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

/// A room whose game another node holds: requests go to it over NATS, as they are.
#[derive(Debug)]
pub(crate) struct RemoteRoom {
    id: String,
    cluster: Cluster,
    /// Nobody answered the last request: no node holds the game just now.
    gone: AtomicBool,
    /// When this handle was made: a registry keeps it [`REMOTE_KEPT`] at most.
    born: std::time::Instant,
    /// When the owner last answered, in milliseconds after `born`.
    answered_ms: std::sync::atomic::AtomicU64,
}

impl RemoteRoom {
    /// The events after version `since`, asked of the owner for mirror `mirror`; `None` if
    /// it cannot say (it no longer has them all, or does not answer).
    async fn missed_since(&self, since: u64, mirror: u64) -> Option<Vec<Versioned>> {
        match self.call(Request::Subscribe { since }, Some(mirror)).await {
            Ok(Reply::Subscribed(Subscription { missed, .. })) => missed,
            _ => None,
        }
    }

    /// Asks the owner and waits for its answer; no answer in time (no owner just now, or
    /// NATS down) is [`RoomError::Unavailable`], the owner's refusal [`RoomError::Remote`].
    /// A `Subscribe` names the mirror it is for: the owner publishes the game's events while
    /// a mirror follows it.
    async fn call(&self, request: Request, mirror: Option<u64>) -> Result<Reply, RoomError> {
        let mut headers = self.cluster.run_headers();
        if let Some(mirror) = mirror {
            headers.insert(MIRROR_HEADER, mirror.to_string().as_str());
        }
        let answer = self
            .cluster
            .call_with::<Result<Reply, Problem>>(
                &cmd_subject(&self.id),
                &request,
                ASK_TIMEOUT,
                headers,
            )
            .await;
        self.gone.store(answer.is_err(), Ordering::Relaxed);
        if answer.is_ok() {
            let now = self.born.elapsed().as_millis() as u64;
            self.answered_ms.store(now, Ordering::Relaxed);
        }
        answer
            .map_err(|()| RoomError::Unavailable)?
            .map_err(RoomError::Remote)
    }
}

impl Transport for RemoteRoom {
    fn ask(&self, request: Request) -> BoxFuture<'_, Result<Reply, RoomError>> {
        Box::pin(async move {
            if !matches!(request, Request::Subscribe { .. }) {
                return self.call(request, None).await;
            }
            // The feed first: whatever the owner publishes after answering reaches it.
            let (feed, mirror) = self.cluster.mirror(&self.id).await?;
            let answer = self.call(request, Some(mirror)).await;
            if !self.cluster.has_mirror(&self.id, mirror) {
                // The mirror ended meanwhile, and its end may have reached the owner before
                // this request: said again, after it.
                self.cluster.unfollow(&self.id, mirror).await;
            }
            match answer? {
                Reply::Subscribed(sub) => Ok(Reply::Subscribed(Subscription { feed, ..sub })),
                other => Ok(other),
            }
        })
    }

    /// Tells the owner something that needs no answer (with this node's run, so that what
    /// its connections said is undone if the node goes).
    fn tell(&self, request: Request) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let headers = self.cluster.run_headers();
            self.cluster
                .tell_owner(&self.id, headers, json(&request))
                .await;
        })
    }

    /// Gone: nobody answered the last request, or nobody has answered for a while (the
    /// owner may be dead: the registry looks again at who holds the game, and takes it
    /// itself once its lease has run out), or the handle is old.
    fn is_gone(&self) -> bool {
        let alive = self.answered_ms.load(Ordering::Relaxed);
        let silent = self
            .born
            .elapsed()
            .saturating_sub(Duration::from_millis(alive));
        self.gone.load(Ordering::Relaxed)
            || silent > REMOTE_FRESH
            || self.born.elapsed() > REMOTE_KEPT
    }
}
