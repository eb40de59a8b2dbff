//! What nodes say to each other beyond a room's requests and events (which travel as the
//! room's own serde types, `room::Request`, `room::Reply`, `room::Versioned`): a takeover's
//! word to the mirrors, each node's lobby and who is online on it, accounts' events.

use serde::{Deserialize, Serialize};

use crate::lobby::Listing;
use crate::room::Versioned;

/// What goes out on a game's event subject.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum Broadcast {
    /// An event of the room, with its version.
    Event(Box<Versioned>),
    /// A node has just loaded the game (a takeover): what other nodes heard from the old
    /// owner may have a gap, so their connections start again from the new one.
    Moved,
}

/// What a node tells the others every second: how its rooms list in the lobby, and which
/// accounts have a socket open on it. The rooms come in full now and then (`full`: every
/// listing) and otherwise as what changed since the last news (`rooms` set anew, `gone`
/// no longer listed), so that a second's news costs what changed, not every game.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct NodeNews {
    pub(crate) node: String,
    /// This run of the node (its name and when it started): a node started again under
    /// its name is another run, whose old connections are gone.
    pub(crate) run: String,
    /// Whether `rooms` is every listing of the node (news without the field is).
    #[serde(default = "full")]
    pub(crate) full: bool,
    pub(crate) rooms: Vec<(String, WireListing)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) gone: Vec<String>,
    pub(crate) online: Vec<String>,
}

fn full() -> bool {
    true
}

#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct WireListing {
    seek: bool,
    open: bool,
    creator_here: bool,
    moves: usize,
    opening: Option<(String, String)>,
    watchers: u32,
}

impl From<&Listing> for WireListing {
    fn from(l: &Listing) -> WireListing {
        WireListing {
            seek: l.seek,
            open: l.open,
            creator_here: l.creator_here,
            moves: l.moves,
            opening: l.opening.map(|o| (o.eco.to_owned(), o.name.to_owned())),
            watchers: l.watchers,
        }
    }
}

impl From<WireListing> for Listing {
    fn from(l: WireListing) -> Listing {
        Listing {
            seek: l.seek,
            open: l.open,
            creator_here: l.creator_here,
            moves: l.moves,
            opening: l
                .opening
                .and_then(|(eco, name)| crate::room::opening(&eco, &name)),
            watchers: l.watchers,
        }
    }
}
