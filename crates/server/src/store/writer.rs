//! Group commit: one writer task drains the moves waiting from every room and commits them in
//! one transaction, then wakes each waiter. Under load one fsync serves many moves, so
//! durability does not cap throughput at one fsync per move (DESIGN: One move, end to end).

use std::fmt::Write as _;

use tokio::sync::{mpsc, oneshot};

use super::{Store, StoreError, StoredMove};
use crate::metrics::METRICS;

/// At most this many moves share one transaction.
const MAX_BATCH: usize = 512;

struct Pending {
    record: StoredMove,
    done: oneshot::Sender<Result<(), String>>,
}

/// A cheap-to-clone handle for appending moves.
#[derive(Debug, Clone)]
pub(crate) struct MoveWriter {
    queue: mpsc::Sender<Pending>,
}

impl std::fmt::Debug for Pending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pending")
            .field("record", &self.record)
            .finish()
    }
}

impl MoveWriter {
    /// Starts the writer task on the current runtime.
    pub(crate) fn start(store: Store) -> MoveWriter {
        let (queue, rx) = mpsc::channel(8192);
        tokio::spawn(run(store, rx));
        MoveWriter { queue }
    }

    /// Appends a move and returns once it is committed.
    ///
    /// # Errors
    /// The commit failed or the writer stopped; the move is then not stored.
    pub(crate) async fn append(&self, record: StoredMove) -> Result<(), StoreError> {
        let (done, wait) = oneshot::channel();
        self.queue
            .send(Pending { record, done })
            .await
            .map_err(|_| StoreError("the move writer has stopped".into()))?;
        wait.await
            .map_err(|_| StoreError("the move writer has stopped".into()))?
            .map_err(StoreError)
    }
}

async fn run(store: Store, mut rx: mpsc::Receiver<Pending>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let started = std::time::Instant::now();
        let outcome = commit(&store, &batch).await.map_err(|e| e.to_string());
        METRICS.commit_latency.observe(started.elapsed());
        if outcome.is_ok() {
            METRICS
                .moves
                .fetch_add(batch.len() as u64, std::sync::atomic::Ordering::Relaxed);
        }
        if let Err(e) = &outcome {
            tracing::error!(error = %e, moves = batch.len(), "group commit failed");
        }
        for pending in batch.drain(..) {
            // A waiter that went away has nobody to tell.
            let _ = pending.done.send(outcome.clone());
        }
    }
}

/// The whole batch as one multi-row INSERT: one statement is atomic by itself (all its moves
/// are stored or none), and costs one round trip to the database instead of one per move
/// plus BEGIN and COMMIT. `MAX_BATCH` rows of 7 values stay far below both backends' limits
/// on bound values (32,766 for SQLite, 65,535 for PostgreSQL).
async fn commit(store: &Store, batch: &[Pending]) -> Result<(), StoreError> {
    // Numbered placeholders, which both backends read (sqlx's builder would write `?`
    // through the Any driver, which PostgreSQL does not).
    let mut sql = String::from(
        "INSERT INTO moves (game_id, ply, uci, san, clock_ms, at_ms, elapsed_ms) VALUES ",
    );
    for i in 0..batch.len() {
        let n = 7 * i;
        let _ = write!(
            sql,
            "{}(${}, ${}, ${}, ${}, ${}, ${}, ${})",
            if i > 0 { ", " } else { "" },
            n + 1,
            n + 2,
            n + 3,
            n + 4,
            n + 5,
            n + 6,
            n + 7
        );
    }
    // Only numbers were written into the text; every value is bound.
    let mut insert = sqlx::query(sqlx::AssertSqlSafe(sql));
    for p in batch {
        let m = &p.record;
        insert = insert
            .bind(m.game_id.as_str())
            .bind(m.ply)
            .bind(m.uci.as_str())
            .bind(m.san.as_str())
            .bind(m.clock_ms)
            .bind(m.at_ms)
            .bind(m.elapsed_ms);
    }
    insert.execute(store.pool()).await?;
    Ok(())
}

/// Inserts one move inside a transaction.
pub(crate) async fn insert_move(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    m: &StoredMove,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO moves (game_id, ply, uci, san, clock_ms, at_ms, elapsed_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&m.game_id)
    .bind(m.ply)
    .bind(&m.uci)
    .bind(&m.san)
    .bind(m.clock_ms)
    .bind(m.at_ms)
    .bind(m.elapsed_ms)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
