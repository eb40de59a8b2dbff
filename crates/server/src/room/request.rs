//! What anyone asks of a game's room, on this node or from another: one [`Request`] type and
//! one [`Reply`] type, both serde, so the cluster forwards them as they are. Adding a request
//! is one variant here and one arm in the room's `handle`.

use std::sync::Arc;

use futures_util::future::BoxFuture;
use rookery_core::Color;
use rookery_core::game::Command;
use serde::{Deserialize, Serialize};

use super::{RematchAnswer, RoomError, Snapshot, Subscription, TakeSeat};
use crate::store::chat::ChatLine;

/// A request to a game's room.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum Request {
    /// A command for the core (a move, an offer, a claim, a resignation, ...): answered
    /// with the version after its events, once stored.
    Apply(Command),
    /// Events since version `since`, and the live feed after them.
    Subscribe { since: u64 },
    /// The game as it stands.
    Snapshot,
    /// A player's connection opened (`true`) or closed.
    Presence { color: Color, connected: bool },
    /// A spectator's connection opened (`true`) or closed, with the account's name.
    Watcher { joined: bool, name: Option<String> },
    /// A player of the finished game asks for a rematch.
    Rematch { by: Color },
    /// A player declines (or withdraws) the rematch offer.
    RematchDecline { by: Color },
    /// The rematch both agreed to is game `id` (`None`: it could not be made).
    RematchMade { id: Option<String> },
    /// Someone takes the open seat: the room stores it (fenced, as a move), then tells
    /// everyone; answered with the version of the `Seated` event.
    TakeSeat(TakeSeat),
    /// A chat line, stored already, for the room's connections.
    Chat(Arc<ChatLine>),
}

impl Request {
    /// Whether the sender waits for an answer (the others are told, and go on).
    pub(crate) fn is_answered(&self) -> bool {
        match self {
            Request::Apply(_)
            | Request::Subscribe { .. }
            | Request::Snapshot
            | Request::Rematch { .. }
            | Request::TakeSeat(_) => true,
            Request::Presence { .. }
            | Request::Watcher { .. }
            | Request::RematchDecline { .. }
            | Request::RematchMade { .. }
            | Request::Chat(_) => false,
        }
    }
}

/// A room's answer to a [`Request`].
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum Reply {
    /// The room's version after what the request did.
    Version(u64),
    Subscribed(Subscription),
    Snapshot(Box<Snapshot>),
    Rematch(RematchAnswer),
    /// A request that is told, not answered.
    Done,
}

/// How a room on another node is reached; the cluster plugs one in (the room knows nothing
/// of how).
pub(crate) trait Transport: Send + Sync + std::fmt::Debug {
    /// Sends `request` to the room and waits for its answer. A subscription's feed is
    /// this node's, made before the request is sent, so nothing published after the answer
    /// is missed.
    fn ask(&self, request: Request) -> BoxFuture<'_, Result<Reply, RoomError>>;

    /// Sends a request that has no answer.
    fn tell(&self, request: Request) -> BoxFuture<'_, ()>;

    /// Whether nobody answered the last request (the game may be free to take here).
    fn is_gone(&self) -> bool;
}
