//! What a run measures: counts, latency percentiles, the server's CPU and memory.

use super::*;

/// Figures shared by every task.
#[derive(Debug, Default)]
pub(crate) struct Stats {
    pub(crate) moves: AtomicU64,
    /// Microseconds from sending a move to its ack.
    pub(crate) ack_us: Mutex<Vec<u32>>,
    /// Microseconds from sending a move to the opponent's receiving it.
    pub(crate) opponent_us: Mutex<Vec<u32>>,
    pub(crate) errors: Mutex<HashMap<String, u64>>,
    pub(crate) sockets: AtomicI64,
    pub(crate) games_started: AtomicU64,
    pub(crate) max_rss_kib: AtomicU64,
    /// Past the warm-up: latencies are recorded.
    pub(crate) measuring: AtomicBool,
    /// Each finished game slot's acknowledged moves, in ply order (with `--record`).
    pub(crate) acked: Mutex<Vec<(String, Vec<String>)>>,
    /// Microseconds of each log-in (with `--logins-per-second`).
    pub(crate) login_us: Mutex<Vec<u32>>,
    pub(crate) logins: AtomicU64,
    /// Microseconds from a game's last ack before an interruption to its first after.
    pub(crate) interruption_us: Mutex<Vec<u32>>,
    pub(crate) reconnects: AtomicU64,
    /// When each game slot last had a move acknowledged (or its game made).
    pub(crate) last_ack: Mutex<HashMap<u64, Instant>>,
}

impl Stats {
    pub(crate) fn error(&self, kind: impl Into<String>) {
        let mut map = self
            .errors
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *map.entry(kind.into()).or_default() += 1;
    }

    pub(crate) fn sample(&self, list: &Mutex<Vec<u32>>, since: Instant) {
        if !self.measuring.load(Ordering::Relaxed) {
            return;
        }
        let us = since.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
        list.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(us);
    }
}

/// CPU time (user + system) process `pid` has used, in seconds (Linux; clock ticks at the
/// usual 100 per second).
pub(crate) fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) start at the state, field 3;
    // utime and stime are fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// Resident memory of process `pid`, in KiB (Linux).
pub(crate) fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

pub(crate) fn percentiles(name: &str, list: &Mutex<Vec<u32>>) -> String {
    let mut v = list
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    if v.is_empty() {
        return format!("{name}: no samples");
    }
    v.sort_unstable();
    let q = |p: f64| f64::from(v[((v.len() - 1) as f64 * p) as usize]) / 1000.0;
    format!(
        "{name}: p50 {:.2} ms, p90 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} samples)",
        q(0.5),
        q(0.9),
        q(0.95),
        q(0.99),
        q(1.0),
        v.len()
    )
}
