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
    rooms: Arc<Mutex<Rooms>>,
    /// Cluster mode: the other nodes' rooms as each last said (every second), by node.
    others: Others<HashMap<String, Listing>>,
}

/// This node's listings, and which changed since the other nodes were last told.
#[derive(Debug, Default)]
struct Rooms {
    listed: HashMap<String, Listing>,
    /// Kept only once [`Lobby::take_changes`] has been called (cluster mode): on one node
    /// nobody takes them, and the set would only grow.
    changed: std::collections::HashSet<String>,
    told: bool,
}

/// What changed in a node's listings: each room's new listing, or `None` where it is gone.
pub(crate) type Changes = Vec<(String, Option<Listing>)>;

/// What another node said, and when (cluster mode).
#[derive(Debug, Clone)]
struct Heard<T> {
    at: std::time::Instant,
    what: T,
}

/// How long what another node said stands without its saying it again.
const HEARD_FOR: std::time::Duration = std::time::Duration::from_secs(4);

impl<T> Heard<T> {
    fn fresh(&self) -> bool {
        self.at.elapsed() < HEARD_FOR
    }
}

/// What each other node said lately, by node (cluster mode): cheap to clone.
#[derive(Debug)]
pub(crate) struct Others<T>(Arc<Mutex<HashMap<String, Heard<T>>>>);

impl<T> Clone for Others<T> {
    fn clone(&self) -> Others<T> {
        Others(self.0.clone())
    }
}

impl<T> Default for Others<T> {
    fn default() -> Others<T> {
        Others(Arc::default())
    }
}

impl<T: Default> Others<T> {
    /// Node `node` said what changed in what it said before (`change` applies it; a node not
    /// heard lately starts from nothing); nodes silent too long are forgotten.
    pub(crate) fn heard_change(&self, node: &str, change: impl FnOnce(&mut T)) {
        let mut map = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.retain(|_, heard| heard.fresh());
        let heard = map.entry(node.to_owned()).or_insert_with(|| Heard {
            at: std::time::Instant::now(),
            what: T::default(),
        });
        heard.at = std::time::Instant::now();
        change(&mut heard.what);
    }
}

impl<T> Others<T> {
    /// Node `node` said `what` just now; nodes silent too long are forgotten.
    pub(crate) fn heard(&self, node: &str, what: T) {
        let mut map = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.retain(|_, heard| heard.fresh());
        map.insert(
            node.to_owned(),
            Heard {
                at: std::time::Instant::now(),
                what,
            },
        );
    }

    /// Everything the nodes said lately, each through `f`.
    pub(crate) fn each(&self, mut f: impl FnMut(&T)) {
        let map = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for heard in map.values().filter(|heard| heard.fresh()) {
            f(&heard.what);
        }
    }

    /// The first answer `f` finds in what a node said lately.
    pub(crate) fn find_map<R>(&self, f: impl Fn(&T) -> Option<R>) -> Option<R> {
        let map = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.values()
            .filter(|heard| heard.fresh())
            .find_map(|heard| f(&heard.what))
    }
}

impl Lobby {
    fn map(&self) -> std::sync::MutexGuard<'_, Rooms> {
        self.rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The room of game `id` lists as `listing` (a finished game's room lists nothing).
    pub(crate) fn set(&self, id: &str, listing: Option<Listing>) {
        let mut rooms = self.map();
        let changed = match listing {
            Some(listing) => rooms.listed.insert(id.to_owned(), listing) != Some(listing),
            None => rooms.listed.remove(id).is_some(),
        };
        if changed && rooms.told {
            rooms.changed.insert(id.to_owned());
        }
    }

    /// What changed in this node's listings since the last call (what it tells the other
    /// nodes each second, in one message, instead of every listing). The first call finds
    /// nothing: changes are kept from then on (the first news is a full listing).
    pub(crate) fn take_changes(&self) -> Changes {
        let mut rooms = self.map();
        rooms.told = true;
        let changed = std::mem::take(&mut rooms.changed);
        changed
            .into_iter()
            .map(|id| {
                let listing = rooms.listed.get(&id).copied();
                (id, listing)
            })
            .collect()
    }

    /// How game `id` lists now, if its room is open and its game on (here, or on another
    /// node that said so lately).
    pub(crate) fn get(&self, id: &str) -> Option<Listing> {
        if let Some(listing) = self.map().listed.get(id) {
            return Some(*listing);
        }
        self.others.find_map(|rooms| rooms.get(id).copied())
    }

    /// What the lobby lists, on every node: public seeks whose creator is there, then the
    /// games under way with the most spectators, at most `most` in all (issue 50: the list
    /// read every live game from the database at every poll).
    pub(crate) fn listed(&self, most: usize) -> Vec<(String, Listing)> {
        let mut all: Vec<(String, Listing)> = self
            .own()
            .into_iter()
            .filter(|(_, l)| l.joinable() || l.watchable())
            .collect();
        // A game another node says it holds too (handed over a moment ago) lists once, as
        // this node's own listing says.
        let mut seen: std::collections::HashSet<String> =
            all.iter().map(|(id, _)| id.clone()).collect();
        self.others.each(|rooms| {
            for (id, l) in rooms {
                if (l.joinable() || l.watchable()) && seen.insert(id.clone()) {
                    all.push((id.clone(), *l));
                }
            }
        });
        all.sort_by(|(a_id, a), (b_id, b)| {
            b.joinable()
                .cmp(&a.joinable())
                .then(b.watchers.cmp(&a.watchers))
                .then(b.moves.cmp(&a.moves))
                .then(a_id.cmp(b_id))
        });
        all.truncate(most);
        all
    }

    /// This node's rooms as they list (what it tells the other nodes in full, now and then).
    pub(crate) fn own(&self) -> Vec<(String, Listing)> {
        self.map()
            .listed
            .iter()
            .map(|(id, l)| (id.clone(), *l))
            .collect()
    }

    /// Node `node`'s rooms, all of them, as it said just now.
    pub(crate) fn heard(&self, node: &str, listings: HashMap<String, Listing>) {
        self.others.heard(node, listings);
    }

    /// What changed in node `node`'s rooms, as it said just now.
    pub(crate) fn heard_changes(&self, node: &str, changes: Changes) {
        self.others.heard_change(node, |rooms| {
            for (id, listing) in changes {
                match listing {
                    Some(listing) => {
                        rooms.insert(id, listing);
                    }
                    None => {
                        rooms.remove(&id);
                    }
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 50: the list is at most its cap, seeks first, then the most watched games, and
    /// what does not list (a friend's game, a game with no move) is left out.
    #[test]
    fn the_list_is_capped_seeks_first_then_the_most_watched() {
        let lobby = Lobby::default();
        let game = |watchers| Listing {
            seek: false,
            open: false,
            creator_here: false,
            moves: 3,
            opening: None,
            watchers,
        };
        for i in 0..10 {
            lobby.set(&format!("g{i}"), Some(game(i)));
        }
        let seek = Listing {
            seek: true,
            open: true,
            creator_here: true,
            moves: 0,
            ..game(0)
        };
        lobby.set("seek", Some(seek));
        lobby.set(
            "friend",
            Some(Listing {
                seek: false,
                ..seek
            }),
        );
        let listed: Vec<String> = lobby.listed(4).into_iter().map(|(id, _)| id).collect();
        assert_eq!(listed, ["seek", "g9", "g8", "g7"]);
        assert_eq!(
            lobby.listed(100).len(),
            11,
            "the friend's game is not listed"
        );
    }

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

    #[test]
    fn another_nodes_rooms_list_here_until_it_says_they_are_gone() {
        let lobby = Lobby::default();
        let listing = Listing {
            moves: 3,
            ..Listing::default()
        };
        lobby.heard("node2", HashMap::from([("g2".to_owned(), listing)]));
        assert_eq!(lobby.get("g2"), Some(listing));
        // Only this node's own rooms are told to the others.
        assert!(lobby.own().is_empty());
        lobby.set("g1", Some(listing));
        assert_eq!(lobby.own(), vec![("g1".to_owned(), listing)]);
        lobby.heard("node2", HashMap::new());
        assert_eq!(lobby.get("g2"), None);
    }

    /// Issue 55: a node tells the others only what changed; applied to what it said before,
    /// the others see the same rooms as a full listing would show.
    #[test]
    fn changes_told_and_applied_give_the_same_rooms() {
        let (here, there) = (Lobby::default(), Lobby::default());
        let at = |moves| Listing {
            moves,
            ..Listing::default()
        };
        for i in 0..5 {
            here.set(&format!("g{i}"), Some(at(i)));
        }
        there.heard("node1", here.own().into_iter().collect());
        // Changes are kept from the first time they are taken (cluster mode): on one node
        // nothing would take them, and they are not kept.
        assert!(here.map().changed.is_empty());
        assert!(here.take_changes().is_empty());
        here.set("g0", Some(at(7)));
        here.set("g0", Some(at(0)));
        assert_eq!(here.take_changes(), [("g0".to_owned(), Some(at(0)))]);
        // Nothing changed: nothing to tell; the same listing again is no change.
        assert!(here.take_changes().is_empty());
        here.set("g1", Some(at(1)));
        assert!(here.take_changes().is_empty());
        // A move, a room gone, a new room; a room set and gone again within one second.
        here.set("g1", Some(at(2)));
        here.set("g2", None);
        here.set("g9", Some(at(1)));
        here.set("g8", Some(at(1)));
        here.set("g8", None);
        let mut changes = here.take_changes();
        changes.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            changes,
            [
                ("g1".to_owned(), Some(at(2))),
                ("g2".to_owned(), None),
                ("g8".to_owned(), None),
                ("g9".to_owned(), Some(at(1))),
            ]
        );
        there.heard_changes("node1", changes);
        for id in ["g0", "g1", "g2", "g3", "g4", "g8", "g9"] {
            assert_eq!(there.get(id), here.get(id), "{id}");
        }
        assert_eq!(there.get("g1"), Some(at(2)));
        assert_eq!(there.get("g2"), None);
    }
}
