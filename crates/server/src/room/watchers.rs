//! The spectators of a room, and when their count is told.

use std::time::Duration;

/// The spectators of a room. Their count goes out at most once per [`WATCHERS_EVERY`], so
/// an audience arriving all at once costs one frame per spectator per interval, not one per
/// spectator per arrival (which grew with the square of the audience).
#[derive(Debug, Default)]
pub(super) struct Watchers {
    /// Open spectator connections.
    pub(super) n: u32,
    /// The count the players and spectators were last told.
    told: u32,
    /// When the count is next due to go out, if it changed.
    pub(super) due: Option<tokio::time::Instant>,
    /// When it last went out.
    last: Option<tokio::time::Instant>,
}

/// The shortest interval between two `watchers` events of a room.
pub(super) const WATCHERS_EVERY: Duration = Duration::from_millis(250);

impl Watchers {
    /// A spectator came (`true`) or went; the new count is due one interval after the last.
    pub(super) fn change(&mut self, joined: bool, now: tokio::time::Instant) {
        self.n = if joined {
            self.n + 1
        } else {
            self.n.saturating_sub(1)
        };
        if self.due.is_none() {
            let earliest = self.last.map_or(now, |last| last + WATCHERS_EVERY);
            self.due = Some(earliest.max(now));
        }
    }

    /// The count to publish now, if it is due and differs from the one told.
    pub(super) fn publish_due(&mut self, now: tokio::time::Instant) -> Option<u32> {
        if self.due.is_none_or(|due| now < due) {
            return None;
        }
        self.due = None;
        self.last = Some(now);
        (self.n != self.told).then(|| {
            self.told = self.n;
            self.n
        })
    }
}
