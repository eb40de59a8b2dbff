//! Taking a std `Mutex` that a panic may have poisoned: every guarded value here changes in
//! one step (an insert, a remove, a counter), so what a panicking holder left is consistent
//! and the lock is taken as it is. A leaf, like `wallclock.rs`, for every layer to use.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks `mutex`, poisoned or not.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
