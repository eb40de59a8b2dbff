//! What the lobby lists, kept by the rooms as it changes: for each open room, whether it is a
//! public seek, whether its seat is still open and its creator still there, and whether its
//! game has begun. The lobby shows only what can really be joined or watched now: a seek
//! while its creator's page is open, a game once its first move is played.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// One room as the lobby sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Listing {
    /// Created as a public seek (a game "for a friend" is reached by its link only).
    pub(crate) seek: bool,
    /// Nobody has taken the other seat yet.
    pub(crate) open: bool,
    /// The seated player of a game still waiting has a page open on it.
    pub(crate) creator_here: bool,
    /// Moves played.
    pub(crate) moves: usize,
    /// The opening played so far.
    pub(crate) opening: Option<&'static rookery_openings::Opening>,
    /// Spectators watching now (as last told: at most a quarter-second old).
    pub(crate) watchers: u32,
}

impl Listing {
    /// A seek anyone may join now.
    pub(crate) fn joinable(&self) -> bool {
        self.seek && self.open && self.creator_here
    }

    /// A game under way, to watch.
    pub(crate) fn watchable(&self) -> bool {
        !self.open && self.moves > 0
    }
}

/// The listings of open rooms by game id: a cheap-to-clone handle. A std `Mutex` is fine: it
/// guards a map update and is never held across `.await`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Lobby {
    rooms: Arc<Mutex<HashMap<String, Listing>>>,
}

impl Lobby {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Listing>> {
        self.rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The room of game `id` lists as `listing` (a finished game's room lists nothing).
    pub(crate) fn set(&self, id: &str, listing: Option<Listing>) {
        let mut map = self.map();
        match listing {
            Some(listing) => {
                map.insert(id.to_owned(), listing);
            }
            None => {
                map.remove(id);
            }
        }
    }

    /// How game `id` lists now, if its room is open and its game on.
    pub(crate) fn get(&self, id: &str) -> Option<Listing> {
        self.map().get(id).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seek_lists_while_its_creator_is_there_and_a_game_once_it_has_a_move() {
        let seek = Listing {
            seek: true,
            open: true,
            creator_here: true,
            moves: 0,
            opening: None,
            watchers: 0,
        };
        assert!(seek.joinable() && !seek.watchable());
        // The creator closed the tab; a game for a friend never lists as a seek.
        assert!(
            !Listing {
                creator_here: false,
                ..seek
            }
            .joinable()
        );
        assert!(
            !Listing {
                seek: false,
                ..seek
            }
            .joinable()
        );
        // Taken, it is watchable once a move is played.
        let taken = Listing {
            open: false,
            ..seek
        };
        assert!(!taken.joinable() && !taken.watchable());
        assert!(Listing { moves: 1, ..taken }.watchable());
        let lobby = Lobby::default();
        lobby.set("g", Some(seek));
        assert_eq!(lobby.get("g"), Some(seek));
        lobby.set("g", None);
        assert_eq!(lobby.get("g"), None);
    }
}
