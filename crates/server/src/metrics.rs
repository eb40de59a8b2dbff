//! Prometheus metrics, `GET /metrics` in the text exposition format.
//!
//! One process-wide set of atomics: metrics are written from every room, socket and the
//! writer, and a global is what every Prometheus client library uses for the same reason.
//! Nothing reads them but the `/metrics` handler.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

/// Upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 12] = [
    0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0,
];

/// A latency histogram with fixed buckets.
#[derive(Debug)]
pub(crate) struct Histogram {
    counts: [AtomicU64; 12],
    count: AtomicU64,
    sum_micros: AtomicU64,
}

impl Histogram {
    const fn new() -> Histogram {
        Histogram {
            counts: [const { AtomicU64::new(0) }; 12],
            count: AtomicU64::new(0),
            sum_micros: AtomicU64::new(0),
        }
    }

    pub(crate) fn observe(&self, d: Duration) {
        let secs = d.as_secs_f64();
        for (bound, count) in BUCKETS.iter().zip(&self.counts) {
            if secs <= *bound {
                count.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_micros
            .fetch_add(d.as_micros() as u64, Ordering::Relaxed);
    }

    fn render(&self, name: &str, help: &str, out: &mut String) {
        out.push_str(&format!("# HELP {name} {help}\n# TYPE {name} histogram\n"));
        for (bound, count) in BUCKETS.iter().zip(&self.counts) {
            out.push_str(&format!(
                "{name}_bucket{{le=\"{bound}\"}} {}\n",
                count.load(Ordering::Relaxed)
            ));
        }
        let n = self.count.load(Ordering::Relaxed);
        out.push_str(&format!("{name}_bucket{{le=\"+Inf\"}} {n}\n"));
        let sum = self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
        out.push_str(&format!("{name}_sum {sum}\n{name}_count {n}\n"));
    }
}

/// Everything `/metrics` reports.
#[derive(Debug)]
pub(crate) struct Metrics {
    pub(crate) live_games: AtomicI64,
    pub(crate) sockets: AtomicI64,
    /// Open rooms: live games, and finished ones still lingering.
    pub(crate) rooms: AtomicI64,
    pub(crate) moves: AtomicU64,
    /// Rooms gone to sleep (their games under way, loaded again when needed).
    pub(crate) slept: AtomicU64,
    /// Cluster mode: bytes of lobby news sent to the other nodes.
    pub(crate) news_bytes: AtomicU64,
    /// From a move reaching its room to its acknowledgement (commit included).
    pub(crate) move_latency: Histogram,
    /// One group commit.
    pub(crate) commit_latency: Histogram,
}

pub(crate) static METRICS: Metrics = Metrics {
    live_games: AtomicI64::new(0),
    sockets: AtomicI64::new(0),
    rooms: AtomicI64::new(0),
    moves: AtomicU64::new(0),
    slept: AtomicU64::new(0),
    news_bytes: AtomicU64::new(0),
    move_latency: Histogram::new(),
    commit_latency: Histogram::new(),
};

/// Counts a lobby news message sent to the other nodes.
pub(crate) fn count_news(bytes: usize) {
    METRICS
        .news_bytes
        .fetch_add(bytes as u64, Ordering::Relaxed);
}

/// `GET /metrics`.
pub(crate) async fn render() -> ([(axum::http::HeaderName, &'static str); 1], String) {
    let m = &METRICS;
    let mut out = String::new();
    let gauge = |out: &mut String, name: &str, help: &str, kind: &str, v: String| {
        out.push_str(&format!(
            "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {v}\n"
        ));
    };
    gauge(
        &mut out,
        "rookery_live_games",
        "Games being played whose room is awake on this node.",
        "gauge",
        m.live_games.load(Ordering::Relaxed).to_string(),
    );
    gauge(
        &mut out,
        "rookery_sockets",
        "Open game WebSockets.",
        "gauge",
        m.sockets.load(Ordering::Relaxed).to_string(),
    );
    gauge(
        &mut out,
        "rookery_rooms",
        "Open game rooms (live games and recently finished ones).",
        "gauge",
        m.rooms.load(Ordering::Relaxed).to_string(),
    );
    gauge(
        &mut out,
        "rookery_moves_total",
        "Moves stored.",
        "counter",
        m.moves.load(Ordering::Relaxed).to_string(),
    );
    gauge(
        &mut out,
        "rookery_rooms_slept_total",
        "Rooms of games under way gone to sleep with nobody there (loaded again when needed).",
        "counter",
        m.slept.load(Ordering::Relaxed).to_string(),
    );
    gauge(
        &mut out,
        "rookery_cluster_news_bytes_total",
        "Bytes of lobby news (rooms and who is online) sent to the other nodes.",
        "counter",
        m.news_bytes.load(Ordering::Relaxed).to_string(),
    );
    m.move_latency.render(
        "rookery_move_latency_seconds",
        "From a move reaching its room to its acknowledgement, commit included.",
        &mut out,
    );
    m.commit_latency.render(
        "rookery_store_commit_seconds",
        "One group commit of moves.",
        &mut out,
    );
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4",
        )],
        out,
    )
}

/// The metrics listener's one route (`--metrics-listen`: the operator's, never the site's).
pub(crate) fn router() -> axum::Router {
    axum::Router::new().route("/metrics", axum::routing::get(render))
}
