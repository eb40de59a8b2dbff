//! What happens to an account, for its event streams (lichess's `/api/stream/event`): a game
//! of theirs started, a challenge came, was cancelled or declined; and, for every socket and
//! stream opened with one of its credentials, that the credential was revoked. A broadcast channel per
//! account with a stream open; an event for an account nobody listens for is dropped (a
//! stream that opens later is told of the games and challenges as they stand then). In
//! cluster mode an account's streams may be on any node: every event goes round the nodes
//! (`cluster/mod.rs`), each of which hands it to the streams it holds.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use tokio::sync::{broadcast, mpsc};

/// Events on their way to every node (cluster mode).
pub(crate) type Relay = mpsc::Receiver<(String, UserEvent)>;

/// Events waiting to go round the nodes; past this many (NATS stuck) the newest are dropped.
const RELAY_QUEUE: usize = 4096;

/// One event for an account (it travels between nodes as it is).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) enum UserEvent {
    /// A game of theirs began (both seats taken): its id.
    GameStart(String),
    /// A challenge event, ready to send (`challenge`, `challengeCanceled`,
    /// `challengeDeclined`).
    Challenge(Arc<serde_json::Value>),
    /// Credentials of the account were revoked: the sockets and streams opened with them
    /// close.
    Revoked(Revoked),
}

/// What an account's socket or stream was opened with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Credential {
    /// A session (its public id).
    Session(String),
    /// An API token (its public id).
    Token(String),
}

/// Which of an account's credentials were revoked.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Revoked {
    /// One session (log-out, or revoked from the account page).
    Session(String),
    /// One API token.
    Token(String),
    /// Every session but `except` (log-out everywhere; a password change keeps its own).
    Sessions { except: Option<String> },
    /// Every API token.
    Tokens,
}

impl Revoked {
    /// Whether a socket or stream opened with `credential` must close.
    pub(crate) fn covers(&self, credential: &Credential) -> bool {
        match (self, credential) {
            (Revoked::Session(id), Credential::Session(mine))
            | (Revoked::Token(id), Credential::Token(mine)) => id == mine,
            (Revoked::Sessions { except }, Credential::Session(mine)) => {
                except.as_deref() != Some(mine.as_str())
            }
            (Revoked::Tokens, Credential::Token(_)) => true,
            _ => false,
        }
    }
}

/// What a socket or stream opened with `credential` listens to, to close when it is revoked.
#[derive(Debug)]
pub(crate) struct Watch {
    hub: broadcast::Receiver<UserEvent>,
    credential: Credential,
}

impl Watch {
    /// Waits until the credential is revoked; for ever if there is no watch.
    pub(crate) async fn revoked(watch: &mut Option<Watch>) {
        let Some(Watch { hub, credential }) = watch else {
            return std::future::pending().await;
        };
        loop {
            match hub.recv().await {
                Ok(UserEvent::Revoked(r)) if r.covers(credential) => return,
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return std::future::pending().await,
            }
        }
    }
}

/// The hub: a cheap-to-clone handle. The std `Mutex` guards map updates only.
#[derive(Debug, Clone, Default)]
pub(crate) struct Events {
    by_user: Arc<Mutex<HashMap<String, broadcast::Sender<UserEvent>>>>,
    /// Cluster mode: where events go to reach every node.
    relay: Arc<OnceLock<mpsc::Sender<(String, UserEvent)>>>,
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

    /// A watch for the revocation of `user`'s `credential`.
    pub(crate) fn watch(&self, user: &str, credential: Credential) -> Watch {
        Watch {
            hub: self.subscribe(user),
            credential,
        }
    }

    /// Tells `user`'s open streams, on every node.
    pub(crate) fn send(&self, user: &str, event: UserEvent) {
        match self.relay.get() {
            Some(relay) => {
                if relay.try_send((user.to_owned(), event)).is_err() {
                    tracing::warn!(%user, "an account's event dropped: the nodes cannot be told");
                }
            }
            None => self.deliver(user, event),
        }
    }

    /// From now on events go to every node through what this returns (cluster mode), and
    /// come back through [`Events::deliver`]. `None` if that was done already.
    pub(crate) fn relay(&self) -> Option<Relay> {
        let (tx, rx) = mpsc::channel(RELAY_QUEUE);
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
