//! The wall clock: milliseconds since the Unix epoch, the timestamps the core and the store
//! use. Its own module, at the bottom of the server's layers, so that everything may read the
//! time without depending on the rooms.

use std::time::{SystemTime, UNIX_EPOCH};

use rookery_core::game::Millis;

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> Millis {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as Millis)
}
