//! The spectators of a room, and when their count is told.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// The spectators of a room. Their count goes out at most once per [`WATCHERS_EVERY`], so
/// an audience arriving all at once costs one frame per spectator per interval, not one per
/// spectator per arrival (which grew with the square of the audience).
#[derive(Debug, Default)]
pub(super) struct Watchers {
    /// Open spectator connections.
    pub(super) n: u32,
    /// The logged-in spectators, by name, with their open connections.
    names: BTreeMap<String, u32>,
    /// Whether the audience changed since it was last told.
    changed: bool,
    /// When the count is next due to go out, if it changed.
    pub(super) due: Option<tokio::time::Instant>,
    /// When it last went out.
    last: Option<tokio::time::Instant>,
}

/// The most names a `watchers` event lists (the count covers everyone).
pub(super) const MAX_NAMES: usize = 30;

/// The shortest interval between two `watchers` events of a room.
pub(super) const WATCHERS_EVERY: Duration = Duration::from_millis(250);

impl Watchers {
    /// A spectator came (`true`) or went, by name if logged in; the new audience is due one
    /// interval after the last.
    pub(super) fn change(&mut self, joined: bool, name: Option<String>, now: tokio::time::Instant) {
        self.n = if joined {
            self.n + 1
        } else {
            self.n.saturating_sub(1)
        };
        if let Some(name) = name {
            let count = self.names.entry(name.clone()).or_default();
            if joined {
                *count += 1;
            } else {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    self.names.remove(&name);
                }
            }
        }
        self.changed = true;
        if self.due.is_none() {
            let earliest = self.last.map_or(now, |last| last + WATCHERS_EVERY);
            self.due = Some(earliest.max(now));
        }
    }

    /// The audience to publish now, if it is due and changed: the count, and the names of
    /// the logged-in spectators (at most [`MAX_NAMES`], alphabetical).
    pub(super) fn publish_due(
        &mut self,
        now: tokio::time::Instant,
    ) -> Option<(u32, Arc<[String]>)> {
        if self.due.is_none_or(|due| now < due) {
            return None;
        }
        self.due = None;
        self.last = Some(now);
        std::mem::take(&mut self.changed).then(|| (self.n, self.names()))
    }

    /// The logged-in spectators' names (at most [`MAX_NAMES`]).
    pub(super) fn names(&self) -> Arc<[String]> {
        self.names.keys().take(MAX_NAMES).cloned().collect()
    }
}
