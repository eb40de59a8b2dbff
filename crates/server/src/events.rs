//! What happens to an account, for its event streams (lichess's `/api/stream/event`): a game
//! of theirs started, a challenge came, was cancelled or declined. A broadcast channel per
//! account with a stream open; an event for an account nobody listens for is dropped (a
//! stream that opens later is told of the games and challenges as they stand then). In
//! cluster mode an account's streams may be on any node: every event goes round the nodes
//! (`cluster/mod.rs`), each of which hands it to the streams it holds.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use tokio::sync::{broadcast, mpsc};

/// Events on their way to every node (cluster mode).
pub(crate) type Relay = mpsc::UnboundedReceiver<(String, UserEvent)>;

/// One event for an account.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum UserEvent {
    /// A game of theirs began (both seats taken): its id.
    GameStart(String),
    /// A challenge event, ready to send (`challenge`, `challengeCanceled`,
    /// `challengeDeclined`).
    Challenge(Arc<serde_json::Value>),
}

/// The hub: a cheap-to-clone handle. The std `Mutex` guards map updates only.
#[derive(Debug, Clone, Default)]
pub(crate) struct Events {
    by_user: Arc<Mutex<HashMap<String, broadcast::Sender<UserEvent>>>>,
    /// Cluster mode: where events go to reach every node.
    relay: Arc<OnceLock<mpsc::UnboundedSender<(String, UserEvent)>>>,
}

impl Events {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, broadcast::Sender<UserEvent>>> {
        self.by_user
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A receiver of `user`'s events from now on.
    pub(crate) fn subscribe(&self, user: &str) -> broadcast::Receiver<UserEvent> {
        self.map()
            .entry(user.to_owned())
            .or_insert_with(|| broadcast::channel(64).0)
            .subscribe()
    }

    /// Tells `user`'s open streams, on every node.
    pub(crate) fn send(&self, user: &str, event: UserEvent) {
        match self.relay.get() {
            Some(relay) => {
                let _ = relay.send((user.to_owned(), event));
            }
            None => self.deliver(user, event),
        }
    }

    /// From now on events go to every node through what this returns (cluster mode), and
    /// come back through [`Events::deliver`]. `None` if that was done already.
    pub(crate) fn relay(&self) -> Option<Relay> {
        let (tx, rx) = mpsc::unbounded_channel();
        self.relay.set(tx).ok().map(|()| rx)
    }

    /// Tells `user`'s open streams on this node; forgets a channel nobody holds any more.
    pub(crate) fn deliver(&self, user: &str, event: UserEvent) {
        let mut map = self.map();
        if let Some(tx) = map.get(user) {
            if tx.send(event).is_err() {
                map.remove(user);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_reach_the_accounts_streams_only() {
        let events = Events::default();
        let mut anna = events.subscribe("anna");
        events.send("anna", UserEvent::GameStart("g1".into()));
        events.send("bo", UserEvent::GameStart("g2".into()));
        assert_eq!(anna.try_recv().unwrap(), UserEvent::GameStart("g1".into()));
        assert!(anna.try_recv().is_err());
        drop(anna);
        events.send("anna", UserEvent::GameStart("g3".into()));
        assert!(
            events.map().is_empty(),
            "a channel nobody holds is forgotten"
        );
    }
}
