//! Group commit: one writer task drains the game events waiting from every room and commits
//! them in one transaction, then wakes each waiter. Under load one fsync serves many moves,
//! so durability does not cap throughput at one fsync per move (ARCHITECTURE.md, the move's
//! path). An event is written whole: a move and what it caused (the end of the game, a
//! change of the draw offers) are in the same transaction, or none of it is.

use std::fmt::Write as _;

use tokio::sync::{mpsc, oneshot};

use rookery_core::game::DrawOffers;

use super::{Ending, Status, Store, StoreError, StoredMove};
use crate::metrics::METRICS;

/// At most this many moves share one transaction.
const MAX_BATCH: usize = 512;

/// What one game event writes: the moves it played, and what it changed in the game's row.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct GameWrite {
    pub(crate) game_id: String,
    pub(crate) moves: Vec<StoredMove>,
    /// The draw offers as they stand after the event, when it changed them.
    pub(crate) draw_offers: Option<DrawOffers>,
    /// The end of the game and when, when the event ended it.
    pub(crate) ending: Option<(Ending, i64)>,
    /// Who went berserk, when one just did (lichess's arenas).
    pub(crate) berserk: Option<rookery_core::ByColor<bool>>,
    /// The time given in the game, when some just was.
    pub(crate) gifts: Option<Vec<rookery_core::game::Gift>>,
    /// With the end: the game's first positions and the move from each, for the explorer.
    pub(crate) explorer: Vec<ExplorerRow>,
    /// Fencing (several nodes, issue 41): the epoch under which the writer took the game.
    /// The event is written only if the game still has this epoch, else refused with
    /// [`StoreError::Fenced`]; `None` (one node) writes unconditionally.
    pub(crate) epoch: Option<i64>,
}

impl GameWrite {
    /// Whether the game's row changes (more than a plain insert of moves).
    fn updates_game(&self) -> bool {
        self.draw_offers.is_some()
            || self.ending.is_some()
            || self.berserk.is_some()
            || self.gifts.is_some()
    }
}

struct Pending {
    write: GameWrite,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// A cheap-to-clone handle for writing game events.
#[derive(Debug, Clone)]
pub(crate) struct EventWriter {
    queue: mpsc::Sender<Pending>,
    /// For what a room writes alone, not in a batch (a seat taken).
    store: Store,
}

/// An open seat taken: who holds it now (serde: as a request to a room travels between
/// nodes).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct SeatTaken {
    pub(crate) color: rookery_core::Color,
    pub(crate) token: String,
    pub(crate) name: String,
    /// The account holding the seat; `None` for a guest.
    pub(crate) user: Option<String>,
}

impl std::fmt::Debug for Pending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pending")
            .field("write", &self.write)
            .finish()
    }
}

impl EventWriter {
    /// Starts the writer task on the current runtime.
    pub(crate) fn start(store: Store) -> EventWriter {
        let (queue, rx) = mpsc::channel(8192);
        tokio::spawn(run(store.clone(), rx));
        EventWriter { queue, store }
    }

    /// Stores a seat taken in game `id`, fenced by `epoch` in cluster mode (a seat is rare:
    /// one statement of its own, not a place in the batch). `Ok(false)`: taken already.
    ///
    /// # Errors
    /// [`StoreError::Fenced`] when another node holds the game now; the database's error.
    pub(crate) async fn take_seat(
        &self,
        id: &str,
        seat: &SeatTaken,
        epoch: Option<i64>,
    ) -> Result<bool, StoreError> {
        self.store.take_seat(id, seat, epoch).await
    }

    /// Appends one move and returns once it is committed.
    #[cfg(test)]
    ///
    /// # Errors
    /// The commit failed or the writer stopped; the move is then not stored.
    pub(crate) async fn append(&self, record: StoredMove) -> Result<(), StoreError> {
        self.write(GameWrite {
            game_id: record.game_id.clone(),
            moves: vec![record],
            ..GameWrite::default()
        })
        .await
    }

    /// Writes a game event whole and returns once it is committed.
    ///
    /// # Errors
    /// The commit failed or the writer stopped; nothing of the event is then stored.
    pub(crate) async fn write(&self, write: GameWrite) -> Result<(), StoreError> {
        let (done, wait) = oneshot::channel();
        self.queue
            .send(Pending { write, done })
            .await
            .map_err(|_| StoreError::WriterStopped)?;
        wait.await.map_err(|_| StoreError::WriterStopped)?
    }
}

async fn run(store: Store, mut rx: mpsc::Receiver<Pending>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    let mut held = Held::default();
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let started = std::time::Instant::now();
        let outcome = match held.connection(&store).await {
            Ok(conn) => commit(conn, &store, &batch).await,
            Err(e) => Err(e),
        };
        if outcome.is_err() {
            // The connection may be what failed: the next batch opens a fresh one.
            held.conn = None;
        }
        METRICS.commit_latency.observe(started.elapsed());
        let moves: usize = batch.iter().map(|p| p.write.moves.len()).sum();
        if outcome.is_ok() {
            METRICS
                .moves
                .fetch_add(moves as u64, std::sync::atomic::Ordering::Relaxed);
        }
        if let Err(e) = &outcome {
            tracing::error!(error = %e, moves, events = batch.len(), "group commit failed");
        }
        for (i, pending) in batch.drain(..).enumerate() {
            let answer = match &outcome {
                Ok(fenced) if fenced.get(i) == Some(&true) => Err(StoreError::Fenced),
                Ok(_) => Ok(()),
                Err(e) => Err(e.clone()),
            };
            // A waiter that went away has nobody to tell.
            let _ = pending.done.send(answer);
        }
    }
}

/// The writer's own connection, outside the pool and kept from one batch to the next
/// (issue 55): a connection taken from the pool and given back for every batch cost two
/// pings of the database beside the commit (the pool tests a connection when it is taken
/// and when it comes back, the latter on a task of its own), three round trips where one
/// does. A connection that has sat idle is pinged once before use, as the pool would; one
/// that failed is dropped and the next batch opens another.
#[derive(Default)]
struct Held {
    conn: Option<sqlx::AnyConnection>,
    last_used: Option<std::time::Instant>,
}

/// A held connection unused this long is pinged before its next batch.
const PING_AFTER_IDLE: std::time::Duration = std::time::Duration::from_secs(1);

impl Held {
    async fn connection(&mut self, store: &Store) -> Result<&mut sqlx::AnyConnection, StoreError> {
        use sqlx::Connection as _;
        let idle = self
            .last_used
            .is_none_or(|at| at.elapsed() >= PING_AFTER_IDLE);
        if idle {
            if let Some(conn) = &mut self.conn {
                if conn.ping().await.is_err() {
                    self.conn = None;
                }
            }
        }
        self.last_used = Some(std::time::Instant::now());
        let conn = match self.conn.take() {
            Some(conn) => conn,
            None => store.connect_one().await?,
        };
        Ok(self.conn.insert(conn))
    }
}

/// The whole batch in one transaction. Its moves go in as one multi-row INSERT, one round
/// trip to the database instead of one per move; a batch of moves alone is that statement
/// only (atomic by itself, no BEGIN and COMMIT). `MAX_BATCH` events of a move each, 7 values a
/// move, stay far below both backends' limits on bound values (32,766 for SQLite, 65,535 for
/// PostgreSQL).
///
/// Returns, for each event, whether fencing refused it (nothing of it written).
async fn commit(
    conn: &mut sqlx::AnyConnection,
    store: &Store,
    batch: &[Pending],
) -> Result<Vec<bool>, StoreError> {
    use sqlx::Connection as _;
    let fencing = batch.iter().any(|p| p.write.epoch.is_some());
    let moves_only = !batch.iter().any(|p| p.write.updates_game());
    if !fencing && moves_only {
        let moves: Vec<&StoredMove> = batch.iter().flat_map(|p| &p.write.moves).collect();
        insert_moves(&mut *conn, store.backend(), &moves).await?;
        return Ok(vec![false; batch.len()]);
    }
    if moves_only && store.backend() == super::Backend::Postgres {
        // Every event under an epoch: fenced in the insert itself.
        if let Some(epochs) = batch.iter().map(|p| p.write.epoch).collect() {
            return insert_fenced_moves(conn, batch, epochs).await;
        }
    }
    let mut tx = conn.begin().await?;
    let fenced = if fencing {
        fenced(&mut tx, store.backend(), batch).await?
    } else {
        vec![false; batch.len()]
    };
    let kept = || {
        batch
            .iter()
            .zip(&fenced)
            .filter(|(_, f)| !**f)
            .map(|(p, _)| p)
    };
    let moves: Vec<&StoredMove> = kept().flat_map(|p| &p.write.moves).collect();
    insert_moves(&mut *tx, store.backend(), &moves).await?;
    if store.backend() == super::Backend::Postgres {
        // Games that end may change ratings: their players' rows are taken first, in one
        // order for every transaction (issue 51: two nodes lost an update).
        let ending: Vec<&str> = kept()
            .filter(|p| p.write.ending.is_some())
            .map(|p| p.write.game_id.as_str())
            .collect();
        super::ratings::lock_players(&mut tx, &ending).await?;
    }
    for p in kept().filter(|p| p.write.updates_game()) {
        update_game(&mut tx, store.backend(), &p.write, store.ladder_speeds()).await?;
    }
    tx.commit().await?;
    Ok(fenced)
}

/// Which events of the batch were made under an epoch their game no longer has. The games'
/// rows are read with a share lock (PostgreSQL), so no other node can take one of them over
/// until this transaction ends: a write checked here is a write before any takeover.
async fn fenced(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    backend: super::Backend,
    batch: &[Pending],
) -> Result<Vec<bool>, StoreError> {
    let mut ids: Vec<&str> = batch
        .iter()
        .filter(|p| p.write.epoch.is_some())
        .map(|p| p.write.game_id.as_str())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let mut sql = String::from("SELECT id, epoch FROM games WHERE id IN ");
    sql.push_str(&values_rows(backend, 1, ids.len()));
    if backend == super::Backend::Postgres {
        sql.push_str(" FOR SHARE");
    }
    // Only numbers were written into the text; every id is bound.
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for id in &ids {
        query = query.bind(*id);
    }
    let rows = query.fetch_all(&mut **tx).await?;
    let mut epochs = std::collections::HashMap::new();
    for row in &rows {
        use sqlx::Row as _;
        epochs.insert(row.try_get::<String, _>(0)?, row.try_get::<i64, _>(1)?);
    }
    Ok(batch
        .iter()
        .map(|p| {
            p.write
                .epoch
                .is_some_and(|e| epochs.get(&p.write.game_id) != Some(&e))
        })
        .collect())
}

/// Several nodes, a batch of moves alone (the common case): fencing and the insert in one
/// statement on PostgreSQL instead of a transaction of four (BEGIN, the games' epochs, the
/// insert, COMMIT). Each move is inserted only if its game still has the epoch its event was
/// made under, and those games' rows are locked `FOR SHARE` until the statement commits, so a
/// takeover waits for it as it waits for the transaction. An event none of whose moves came
/// back was fenced (an event's moves are of one game and one epoch: all or none). `epochs`:
/// each event's.
async fn insert_fenced_moves(
    conn: &mut sqlx::AnyConnection,
    batch: &[Pending],
    epochs: Vec<i64>,
) -> Result<Vec<bool>, StoreError> {
    let moves: Vec<(&StoredMove, i64)> = batch
        .iter()
        .zip(epochs)
        .flat_map(|(p, epoch)| p.write.moves.iter().map(move |m| (m, epoch)))
        .collect();
    let mut sql = String::from(
        "INSERT INTO moves (game_id, ply, uci, san, clock_ms, at_ms, elapsed_ms, lag_ms) \
         SELECT v.game_id, v.ply, v.uci, v.san, v.clock_ms, v.at_ms, v.elapsed_ms, v.lag_ms \
         FROM (VALUES ",
    );
    sql.push_str(&values_rows(super::Backend::Postgres, moves.len(), 9));
    sql.push_str(
        ") AS v (game_id, ply, uci, san, clock_ms, at_ms, elapsed_ms, lag_ms, epoch) \
         JOIN games g ON g.id = v.game_id AND g.epoch = v.epoch FOR SHARE OF g \
         RETURNING game_id",
    );
    // Only numbers were written into the text; every value is bound.
    let mut insert = sqlx::query(sqlx::AssertSqlSafe(sql));
    for (m, epoch) in &moves {
        insert = bind_move(insert, m).bind(*epoch);
    }
    let rows = insert.fetch_all(conn).await?;
    let mut stored = std::collections::HashSet::new();
    for row in &rows {
        use sqlx::Row as _;
        stored.insert(row.try_get::<String, _>(0)?);
    }
    Ok(batch
        .iter()
        .map(|p| !p.write.moves.is_empty() && !stored.contains(&p.write.game_id))
        .collect())
}

#[cfg(test)]
#[test]
fn placeholders_are_numbered_for_postgresql_and_anonymous_for_sqlite() {
    use super::Backend;
    assert_eq!(values_rows(Backend::Postgres, 2, 2), "($1, $2), ($3, $4)");
    assert_eq!(values_rows(Backend::Sqlite, 2, 3), "(?, ?, ?), (?, ?, ?)");
}

/// The text of a multi-row INSERT's `VALUES` rows: `rows` rows of `width` placeholders each.
/// PostgreSQL reads numbered ones (`$1`); SQLite gets anonymous ones (`?`), bound in order: it
/// looks a numbered placeholder's name up by a scan of all of them, so binding a statement of
/// n numbered placeholders costs n²/2 steps (3.8 % of the server's CPU at 7,000 moves/s on
/// SQLite, in `sqlite3_bind_parameter_name`, before this).
pub(crate) fn values_rows(backend: super::Backend, rows: usize, width: usize) -> String {
    let mut sql = String::with_capacity(rows * width * 5);
    for i in 0..rows {
        sql.push_str(if i > 0 { ", (" } else { "(" });
        for j in 0..width {
            if j > 0 {
                sql.push_str(", ");
            }
            match backend {
                super::Backend::Postgres => {
                    let _ = write!(sql, "${}", i * width + j + 1);
                }
                super::Backend::Sqlite => sql.push('?'),
            }
        }
        sql.push(')');
    }
    sql
}

/// One INSERT of every move given (none: nothing to do).
async fn insert_moves<'e, E>(
    db: E,
    backend: super::Backend,
    moves: &[&StoredMove],
) -> Result<(), StoreError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    if moves.is_empty() {
        return Ok(());
    }
    let mut sql = String::from(
        "INSERT INTO moves (game_id, ply, uci, san, clock_ms, at_ms, elapsed_ms, lag_ms) \
         VALUES ",
    );
    sql.push_str(&values_rows(backend, moves.len(), 8));
    // Only numbers were written into the text; every value is bound.
    let mut insert = sqlx::query(sqlx::AssertSqlSafe(sql));
    for m in moves {
        insert = bind_move(insert, m);
    }
    insert.execute(db).await?;
    Ok(())
}

/// Binds a move's eight values, in the order of the `moves` columns the inserts name.
fn bind_move<'q>(
    query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
    m: &'q StoredMove,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
    query
        .bind(m.game_id.as_str())
        .bind(m.ply)
        .bind(m.uci.as_str())
        .bind(m.san.as_str())
        .bind(m.clock_ms)
        .bind(m.at_ms)
        .bind(m.elapsed_ms)
        .bind(m.lag_ms)
}

/// What an event changed in its game's row: the draw offers, the end.
async fn update_game(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    backend: super::Backend,
    write: &GameWrite,
    ladder_speeds: &[rookery_core::rating::Speed],
) -> Result<(), StoreError> {
    if let Some(offers) = &write.draw_offers {
        sqlx::query("UPDATE games SET draw_offers = $1 WHERE id = $2")
            .bind(offers.to_text())
            .bind(write.game_id.as_str())
            .execute(&mut **tx)
            .await?;
    }
    if let Some(berserk) = write.berserk {
        sqlx::query("UPDATE games SET berserk = $1 WHERE id = $2")
            .bind(i64::from(berserk.white) | i64::from(berserk.black) << 1)
            .bind(write.game_id.as_str())
            .execute(&mut **tx)
            .await?;
    }
    if let Some(gifts) = &write.gifts {
        sqlx::query("UPDATE games SET gifts = $1 WHERE id = $2")
            .bind(super::gifts_text(gifts))
            .bind(write.game_id.as_str())
            .execute(&mut **tx)
            .await?;
    }
    if let Some((ending, at)) = &write.ending {
        sqlx::query(
            "UPDATE games SET status = $1, result = $2, termination = $3, finished_at = $4, \
             draw_offers = NULL, guest_address = NULL WHERE id = $5",
        )
        .bind(Status::Over.as_str())
        .bind(ending.result.as_str())
        .bind(ending.termination.as_str())
        .bind(*at)
        .bind(write.game_id.as_str())
        .execute(&mut **tx)
        .await?;
        // A rated game's ratings change with its end, in this transaction (once: a game
        // already counted is not counted again).
        super::ratings::apply(tx, &write.game_id, *ending, *at, ladder_speeds).await?;
        if ending.termination != rookery_core::game::Termination::Aborted {
            insert_explorer(tx, backend, &write.game_id, &write.explorer, ending.result).await?;
        }
    }
    Ok(())
}

/// A position of a finished game for the explorer: its Zobrist key (the bits as a signed
/// number) and the move played from it (UCI).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ExplorerRow {
    pub(crate) position: i64,
    pub(crate) next: String,
}

/// Positions of a game the explorer keeps: the first this many.
pub(crate) const EXPLORER_PLIES: usize = 30;

impl ExplorerRow {
    /// The explorer's rows of `game`: its first [`EXPLORER_PLIES`] positions and the move
    /// from each.
    pub(crate) fn of(game: &rookery_core::game::Game) -> Vec<ExplorerRow> {
        game.position_hashes()
            .iter()
            .zip(game.moves())
            .take(EXPLORER_PLIES)
            .map(|(hash, played)| ExplorerRow {
                position: *hash as i64,
                next: played.m.to_uci().to_string(),
            })
            .collect()
    }
}

/// Inserts a finished game's explorer rows, in one statement, inside a transaction.
pub(crate) async fn insert_explorer(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    backend: super::Backend,
    game_id: &str,
    rows: &[ExplorerRow],
    result: rookery_core::pgn::GameResult,
) -> Result<(), StoreError> {
    if rows.is_empty() {
        return Ok(());
    }
    let mut sql = String::from("INSERT INTO explorer (position, game_id, next, result) VALUES ");
    sql.push_str(&values_rows(backend, rows.len(), 4));
    // Placeholders only: every value is bound.
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for row in rows {
        query = query
            .bind(row.position)
            .bind(game_id)
            .bind(row.next.as_str())
            .bind(result.as_str());
    }
    query.execute(&mut **tx).await?;
    Ok(())
}

/// Inserts one move inside a transaction.
pub(crate) async fn insert_move(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    m: &StoredMove,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO moves (game_id, ply, uci, san, clock_ms, at_ms, elapsed_ms, lag_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&m.game_id)
    .bind(m.ply)
    .bind(&m.uci)
    .bind(&m.san)
    .bind(m.clock_ms)
    .bind(m.at_ms)
    .bind(m.elapsed_ms)
    .bind(m.lag_ms)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
