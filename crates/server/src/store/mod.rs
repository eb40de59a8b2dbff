//! Storage through sqlx: embedded SQLite by default, PostgreSQL in production, one code path
//! (sqlx's `Any` driver) and one test-suite for both. Moves are written by a group-commit
//! writer (`writer.rs`): a move is acknowledged only once its transaction committed.

pub(crate) mod accounts;
pub(crate) mod analyses;
pub(crate) mod challenges;
pub(crate) mod chat;
pub(crate) mod clubs;
pub(crate) mod exercises;
pub(crate) mod follows;
pub(crate) mod leases;
mod migrate;
pub(crate) mod ratings;
pub(crate) mod tournaments;
pub(crate) mod writer;
pub(crate) use writer::ExplorerRow;

use std::time::Duration;

use rookery_core::Color;
use rookery_core::clock::TimeControl;
use rookery_core::game::{DrawOffers, Termination};
use rookery_core::pgn::GameResult;
use std::collections::HashMap;

use crate::accounts::Title;
use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Executor, Row};

/// The columns of a game row, in the order `game_row` reads them: the game (`g`) and the
/// titles of its players' accounts (`wu`, `bu`), from [`games_from!`].
macro_rules! game_columns {
    () => {
        "g.id, g.created_at, g.start_fen, g.time_control, g.white_name, g.black_name, g.status, \
         g.result, g.termination, g.finished_at, g.white_seat, g.black_seat, g.white_bot, \
         g.black_bot, g.rematch_of, g.draw_offers, g.seek, g.white_user, g.black_user, \
         wu.title, bu.title, g.rated, g.rating_min, g.rating_max, g.event, g.round, g.board, \
         g.tournament, g.berserk, g.berserkable, g.gifts, g.wake_at"
    };
}

/// The tables [`game_columns!`] reads.
macro_rules! games_from {
    () => {
        " FROM games g LEFT JOIN users wu ON wu.id = g.white_user \
         LEFT JOIN users bu ON bu.id = g.black_user"
    };
}

pub(crate) const GAME_COLUMNS: &str = game_columns!();
pub(crate) const GAMES_FROM: &str = games_from!();

/// Which database is behind the pool (SQL is shared; connection set-up differs).
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub(crate) enum Backend {
    Sqlite,
    Postgres,
}

/// A store failure; the words are the database's own, for the logs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StoreError {
    /// The database refused.
    Db(String),
    /// The database could not be reached (its connection lost, no connection within the
    /// pool's wait): a request may succeed again in a moment.
    Unreachable(String),
    /// Fencing (several nodes): another node has taken the game over; nothing was written.
    Fenced,
    /// A stored value does not read back (an unknown word, a move the rules refuse).
    Corrupt(String),
    /// The group-commit writer has stopped (the server is shutting down).
    WriterStopped,
    /// The database URL is not one this server speaks.
    Config(String),
    /// A task the store waited on failed.
    Failed(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Db(e) => write!(f, "store: {e}"),
            StoreError::Unreachable(e) => write!(f, "store: the database cannot be reached: {e}"),
            StoreError::Fenced => {
                f.write_str("store: fenced: another node has taken this game over")
            }
            StoreError::Corrupt(e) => write!(f, "store: a stored value does not read: {e}"),
            StoreError::WriterStopped => f.write_str("store: the move writer has stopped"),
            StoreError::Config(e) | StoreError::Failed(e) => write!(f, "store: {e}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        match e {
            sqlx::Error::Io(_)
            | sqlx::Error::Tls(_)
            | sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::WorkerCrashed => StoreError::Unreachable(e.to_string()),
            e => StoreError::Db(e.to_string()),
        }
    }
}

/// The epoch of a game held from its insert: the one a first take of an unowned game gives
/// (epoch 0 raised by one).
const HELD_EPOCH: i64 = 1;

/// A game as created.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct NewGame {
    pub(crate) id: String,
    pub(crate) created_at: i64,
    pub(crate) start_fen: Option<String>,
    /// Read once from its PGN form (a row whose control does not read is corrupt).
    pub(crate) time_control: TimeControl,
    pub(crate) white_name: String,
    pub(crate) black_name: String,
    /// Seat tokens; `None` while the seat is open.
    pub(crate) white_seat: Option<String>,
    pub(crate) black_seat: Option<String>,
    /// The level of a bot seat; `None` for a person.
    pub(crate) white_bot: Option<i64>,
    pub(crate) black_bot: Option<i64>,
    /// The game this one is the rematch of.
    pub(crate) rematch_of: Option<String>,
    /// A public seek, listed in the lobby (else reached by its link only).
    pub(crate) seek: bool,
    /// The account holding each seat (`None`: anonymous, a bot, or an imported name).
    pub(crate) white_user: Option<String>,
    pub(crate) black_user: Option<String>,
    /// The game counts for both players' ratings (docs/RATINGS.md).
    pub(crate) rated: bool,
    /// A seek's rating range: who may join (their rating at the game's speed, inclusive).
    pub(crate) rating_range: Option<(i64, i64)>,
    /// What a club's score sheet names (seed 003): event, round, table.
    pub(crate) club: ClubRecord,
    /// Its arena lets the players go berserk.
    pub(crate) berserkable: bool,
    /// A game a guest made: the address it came from (migration 0018), kept while it is live.
    pub(crate) guest_address: Option<String>,
}

/// A club game's event, round and table (seed 003; PGN `Event`, `Round`, `Board`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ClubRecord {
    pub(crate) event: Option<String>,
    pub(crate) round: Option<String>,
    pub(crate) table: Option<String>,
    /// The tournament whose round made it (`tournaments.rs`).
    pub(crate) tournament: Option<String>,
}

/// One move as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StoredMove {
    pub(crate) game_id: String,
    pub(crate) ply: i64,
    pub(crate) uci: String,
    pub(crate) san: String,
    pub(crate) clock_ms: Option<i64>,
    pub(crate) at_ms: i64,
    /// Thinking time charged for the move (replays the clocks exactly after a restart).
    pub(crate) elapsed_ms: i64,
    /// Network lag credited to the move (replays the lag quotas exactly, R6).
    pub(crate) lag_ms: i64,
}

/// Whether a game is on (`live`, loaded into a room on start) or finished (`over`).
#[derive(Debug, Copy, Clone, PartialEq, Eq, Default)]
pub(crate) enum Status {
    #[default]
    Live,
    Over,
}

impl Status {
    /// The stored word.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Status::Live => "live",
            Status::Over => "over",
        }
    }

    fn parse(text: &str) -> Result<Status, StoreError> {
        match text {
            "live" => Ok(Status::Live),
            "over" => Ok(Status::Over),
            other => Err(StoreError::Corrupt(format!(
                "unknown game status {other:?}"
            ))),
        }
    }
}

/// How a finished game ended, as stored: the core's result and termination, each in the
/// core's one spelling (`GameResult::as_str`, `Termination::as_str`), for games played here
/// and imported alike.
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub(crate) struct Ending {
    pub(crate) result: GameResult,
    pub(crate) termination: Termination,
}

/// A game row.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct GameRow {
    pub(crate) game: NewGame,
    pub(crate) status: Status,
    /// How it ended, once over.
    pub(crate) ending: Option<Ending>,
    pub(crate) finished_at: Option<i64>,
    /// The draw-offer state as last written (`None`: never changed from the start's).
    pub(crate) draw_offers: Option<DrawOffers>,
    /// The titles of the players' accounts, as they are now.
    pub(crate) white_title: Option<Title>,
    pub(crate) black_title: Option<Title>,
    /// Who went berserk (an arena's game).
    pub(crate) berserk: rookery_core::ByColor<bool>,
    /// Time given, in order (migration 0024).
    pub(crate) gifts: Vec<rookery_core::game::Gift>,
    /// The game sleeps (migration 0027): no room holds it, and it is to be loaded by then.
    pub(crate) wake_at: Option<i64>,
}

/// Gifts of time as the `gifts` column keeps them: `w12 b13` (the giver, the moves played).
pub(crate) fn gifts_text(gifts: &[rookery_core::game::Gift]) -> String {
    gifts
        .iter()
        .map(|g| format!("{}{}", g.by.char(), g.plies))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads the `gifts` column back; `None` if it does not read.
pub(crate) fn parse_gifts(text: &str) -> Option<Vec<rookery_core::game::Gift>> {
    text.split_whitespace()
        .map(|word| {
            let mut chars = word.chars();
            let by = Color::from_char(chars.next()?)?;
            let plies = chars.as_str().parse().ok()?;
            Some(rookery_core::game::Gift { by, plies })
        })
        .collect()
}

impl NewGame {
    /// The color whose seat nobody holds yet (white first), if any.
    pub(crate) fn open_seat(&self) -> Option<Color> {
        match (&self.white_seat, &self.black_seat) {
            (None, _) => Some(Color::White),
            (_, None) => Some(Color::Black),
            _ => None,
        }
    }

    /// The seat token of `color`; `None` while the seat is open.
    pub(crate) fn seat(&self, color: Color) -> Option<&str> {
        match color {
            Color::White => self.white_seat.as_deref(),
            Color::Black => self.black_seat.as_deref(),
        }
    }

    /// The account holding the seat of `color`, if any.
    pub(crate) fn user(&self, color: Color) -> Option<&str> {
        match color {
            Color::White => self.white_user.as_deref(),
            Color::Black => self.black_user.as_deref(),
        }
    }

    /// The name of the player of `color`.
    pub(crate) fn name(&self, color: Color) -> &str {
        match color {
            Color::White => &self.white_name,
            Color::Black => &self.black_name,
        }
    }

    /// The time control in the lobby's form (`10+5`, `15d5`, `untimed`), or as stored if
    /// unreadable.
    /// The game's speed (lichess's, by its estimated duration); `None` for an untimed game.
    pub(crate) fn speed(&self) -> Option<rookery_core::rating::Speed> {
        rookery_core::rating::Speed::of_control(&self.time_control)
    }

    pub(crate) fn friendly_time_control(&self) -> String {
        self.time_control.to_friendly()
    }
}

/// The database: a cheap-to-clone handle around the pool.
/// A database URL, which may hold a password: never printed.
#[derive(Clone)]
struct Url(std::sync::Arc<str>);

impl std::fmt::Debug for Url {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Url(..)")
    }
}

/// What every connection runs when it opens.
async fn prepare(conn: &mut sqlx::AnyConnection, backend: Backend) -> Result<(), sqlx::Error> {
    if backend == Backend::Sqlite {
        // WAL lets readers run beside the writer; FULL makes a commit durable on power loss,
        // not only on a crash of the process.
        conn.execute("PRAGMA journal_mode = WAL").await?;
        conn.execute("PRAGMA synchronous = FULL").await?;
        conn.execute("PRAGMA foreign_keys = ON").await?;
        conn.execute("PRAGMA busy_timeout = 5000").await?;
    }
    Ok(())
}

#[derive(Debug, Clone)]
pub(crate) struct Store {
    pool: AnyPool,
    backend: Backend,
    /// The database's URL as the pool connects to it (the move writer opens its own
    /// connection with it).
    url: Url,
    /// The speeds whose rated games move ladder points (`--ladder-speeds`; all by default).
    ladder_speeds: std::sync::Arc<[rookery_core::rating::Speed]>,
}

impl Store {
    /// Connects (creating a SQLite file if needed) and applies the migrations.
    pub(crate) async fn open(url: &str) -> Result<Store, StoreError> {
        install_default_drivers();
        let (backend, url) = if url.starts_with("sqlite:") {
            let url = if url.contains('?') {
                url.to_owned()
            } else {
                format!("{url}?mode=rwc")
            };
            (Backend::Sqlite, url)
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            (Backend::Postgres, url.to_owned())
        } else {
            return Err(StoreError::Config(format!(
                "unsupported database URL {url:?} (sqlite: or postgres:)"
            )));
        };
        let pool = AnyPoolOptions::new()
            .max_connections(if backend == Backend::Sqlite { 4 } else { 8 })
            .acquire_timeout(Duration::from_secs(10))
            .after_connect(move |conn, _meta| Box::pin(prepare(conn, backend)))
            .connect(&url)
            .await?;
        let store = Store {
            pool,
            backend,
            url: Url(url.into()),
            ladder_speeds: rookery_core::rating::Speed::ALL.into(),
        };
        migrate::run(&store.pool, store.backend).await?;
        Ok(store)
    }

    /// A connection of its own, outside the pool, set up as the pool's are: the move
    /// writer's, which it keeps from one commit to the next.
    pub(crate) async fn connect_one(&self) -> Result<sqlx::AnyConnection, StoreError> {
        use sqlx::Connection as _;
        let mut conn = sqlx::AnyConnection::connect(&self.url.0).await?;
        prepare(&mut conn, self.backend).await?;
        Ok(conn)
    }

    /// Only rated games of these speeds move ladder points (R8; `--ladder-speeds`).
    pub(crate) fn with_ladder_speeds(mut self, speeds: &[rookery_core::rating::Speed]) -> Store {
        self.ladder_speeds = speeds.into();
        self
    }

    pub(crate) fn ladder_speeds(&self) -> &[rookery_core::rating::Speed] {
        &self.ladder_speeds
    }

    pub(crate) fn backend(&self) -> Backend {
        self.backend
    }

    pub(crate) fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub(crate) async fn create_game(&self, g: &NewGame) -> Result<(), StoreError> {
        self.insert_game(g, None).await
    }

    /// Stores a new game already held by `node` (cluster mode: for as long as the node's own
    /// lease), under [`HELD_EPOCH`]: no other node can take it between its insert and its
    /// lease. Its epoch.
    pub(crate) async fn create_game_held(
        &self,
        g: &NewGame,
        node: &str,
    ) -> Result<i64, StoreError> {
        self.insert_game(g, Some(node)).await?;
        Ok(HELD_EPOCH)
    }

    /// Inserts a new game: unowned, or `held` by a node.
    async fn insert_game(&self, g: &NewGame, held: Option<&str>) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO games (id, created_at, start_fen, time_control, white_name, black_name, \
             white_seat, black_seat, white_bot, black_bot, rematch_of, status, seek, white_user, \
             black_user, rated, rating_min, rating_max, event, round, board, owner, lease_until, \
             epoch, guest_address, tournament, berserkable) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, \
             $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27)",
        )
        .bind(&g.id)
        .bind(g.created_at)
        .bind(g.start_fen.clone())
        .bind(g.time_control.to_pgn())
        .bind(&g.white_name)
        .bind(&g.black_name)
        .bind(g.white_seat.clone())
        .bind(g.black_seat.clone())
        .bind(g.white_bot)
        .bind(g.black_bot)
        .bind(g.rematch_of.clone())
        .bind(Status::Live.as_str())
        .bind(i64::from(g.seek))
        .bind(g.white_user.clone())
        .bind(g.black_user.clone())
        .bind(i64::from(g.rated))
        .bind(g.rating_range.map(|r| r.0))
        .bind(g.rating_range.map(|r| r.1))
        .bind(g.club.event.clone())
        .bind(g.club.round.clone())
        .bind(g.club.table.clone())
        .bind(held)
        .bind(if held.is_some() { leases::HELD } else { 0 })
        .bind(if held.is_some() { HELD_EPOCH } else { 0 })
        .bind(g.guest_address.clone())
        .bind(g.club.tournament.clone())
        .bind(i64::from(g.berserkable))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Writes to the database and commits (the health check): fails when the database
    /// answers but cannot store anything (read-only, disk full, a replica).
    pub(crate) async fn check_write(&self) -> Result<(), StoreError> {
        sqlx::query("UPDATE health SET checked_at = $1 WHERE id = 1")
            .bind(crate::wallclock::now_ms() as i64)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Claims the next load of game `id` into a room: its epoch, which no earlier load had
    /// (room versions start from it, so they never repeat for a game).
    pub(crate) async fn next_epoch(&self, id: &str) -> Result<i64, StoreError> {
        // A load wakes a sleeping game (migration 0027).
        let row = sqlx::query(
            "UPDATE games SET epoch = epoch + 1, wake_at = NULL WHERE id = $1 RETURNING epoch",
        )
        .bind(id)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get(0)?)
    }

    /// Takes the open seat of `color` for `token` under `name` (and the account `user`, if
    /// logged in); false if it was taken.
    /// Stores `seat` as taken in game `id` if it is still open and, when `epoch` is given
    /// (cluster mode), the game still has that epoch: one statement, so a takeover (which
    /// raises the epoch) and a second taker both find it decided. `Ok(false)`: the seat was
    /// taken already.
    ///
    /// # Errors
    /// [`StoreError::Fenced`] when another node holds the game now; the database's error.
    pub(crate) async fn take_seat(
        &self,
        id: &str,
        seat: &writer::SeatTaken,
        epoch: Option<i64>,
    ) -> Result<bool, StoreError> {
        let side = match seat.color {
            rookery_core::Color::White => "white",
            rookery_core::Color::Black => "black",
        };
        let fence = if epoch.is_some() {
            " AND epoch = $5"
        } else {
            ""
        };
        // Only the side's name and the fence's clause were written into the text; every
        // value is bound.
        let sql = format!(
            "UPDATE games SET {side}_seat = $1, {side}_name = $2, {side}_user = $3 \
             WHERE id = $4 AND {side}_seat IS NULL{fence}"
        );
        let mut update = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(seat.token.as_str())
            .bind(seat.name.as_str())
            .bind(seat.user.as_deref())
            .bind(id);
        if let Some(epoch) = epoch {
            update = update.bind(epoch);
        }
        let done = update.execute(&self.pool).await?;
        if done.rows_affected() == 1 {
            return Ok(true);
        }
        if let Some(epoch) = epoch {
            let now: Option<i64> = sqlx::query_scalar("SELECT epoch FROM games WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
            if now != Some(epoch) {
                return Err(StoreError::Fenced);
            }
        }
        Ok(false)
    }

    /// The games of `ids` that exist, oldest first.
    pub(crate) async fn games(&self, ids: &[String]) -> Result<Vec<GameRow>, StoreError> {
        let ids: Vec<&String> = ids.iter().filter(|id| storable(id)).collect();
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT {} {} WHERE g.id IN ({}) ORDER BY g.created_at, g.id",
            game_columns!(),
            games_from!(),
            placeholders(1, ids.len())
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for id in ids {
            query = query.bind(id.as_str());
        }
        let rows = query.fetch_all(&self.pool).await?;
        Ok(readable(&rows))
    }

    pub(crate) async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        if !storable(id) {
            return Ok(None);
        }
        self.one_game(
            concat!(
                "SELECT ",
                game_columns!(),
                games_from!(),
                " WHERE g.id = $1"
            ),
            id,
        )
        .await
    }

    /// The game `sql` selects (its columns as `game_columns!`, one `$1` parameter), if any.
    async fn one_game(&self, sql: &'static str, key: &str) -> Result<Option<GameRow>, StoreError> {
        let row = sqlx::query(sql)
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| game_row(&r)).transpose()
    }

    /// Finished games of a player, oldest first: at most `limit` of them, those after the
    /// game `after` (by creation time, then id) when given.
    pub(crate) async fn finished_games_of(
        &self,
        whose: accounts::Whose<'_>,
        after: Option<&GameRow>,
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        let (white, black, key) = accounts::sides(whose);
        if !storable(key) {
            return Ok(Vec::new());
        }
        let (created, id) =
            after.map_or((i64::MIN, ""), |g| (g.game.created_at, g.game.id.as_str()));
        let sql = format!(
            "SELECT {GAME_COLUMNS}{GAMES_FROM} WHERE g.status = $1 \
             AND ({white} = $2 OR {black} = $2) \
             AND (g.created_at > $3 OR (g.created_at = $3 AND g.id > $4)) \
             ORDER BY g.created_at, g.id LIMIT $5"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(Status::Over.as_str())
            .bind(key)
            .bind(created)
            .bind(id)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        Ok(readable(&rows))
    }

    /// Stores a finished game and all its moves in one transaction: all of it or nothing.
    /// `tags` are the ones the game came with, in their order (migration 0023).
    pub(crate) async fn import_game(
        &self,
        g: &NewGame,
        moves: &[StoredMove],
        ending: Ending,
        tags: &[(String, String)],
        explorer: &[ExplorerRow],
    ) -> Result<(), StoreError> {
        let tags = serde_json::to_string(tags).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO games (id, created_at, start_fen, time_control, white_name, black_name, \
             status, result, termination, finished_at, event, round, board, tournament, tags) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
        )
        .bind(&g.id)
        .bind(g.created_at)
        .bind(g.start_fen.clone())
        .bind(g.time_control.to_pgn())
        .bind(&g.white_name)
        .bind(&g.black_name)
        .bind(Status::Over.as_str())
        .bind(ending.result.as_str())
        .bind(ending.termination.as_str())
        .bind(g.created_at)
        .bind(g.club.event.clone())
        .bind(g.club.round.clone())
        .bind(g.club.table.clone())
        .bind(g.club.tournament.clone())
        .bind(tags)
        .execute(&mut *tx)
        .await?;
        for m in moves {
            writer::insert_move(&mut tx, m).await?;
        }
        writer::insert_explorer(&mut tx, self.backend(), &g.id, explorer, ending.result).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The tags an imported game came with, in their order; `None` for a game played here.
    pub(crate) async fn imported_tags(
        &self,
        id: &str,
    ) -> Result<Option<Vec<(String, String)>>, StoreError> {
        let row = sqlx::query("SELECT tags FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        let Some(text) = row
            .map(|r| r.try_get::<Option<String>, _>(0))
            .transpose()?
            .flatten()
        else {
            return Ok(None);
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| StoreError::Corrupt(format!("unreadable tags of game {id}: {e}")))
    }

    /// The moves played from a position in finished games and how those games ended:
    /// `(move, White's wins, draws, Black's wins)`, the most played first (the explorer,
    /// migration 0025).
    pub(crate) async fn explored(
        &self,
        position: i64,
    ) -> Result<Vec<(String, i64, i64, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT next, COUNT(CASE WHEN result = '1-0' THEN 1 END), \
             COUNT(CASE WHEN result = '1/2-1/2' THEN 1 END), \
             COUNT(CASE WHEN result = '0-1' THEN 1 END) \
             FROM explorer WHERE position = $1 GROUP BY next ORDER BY COUNT(*) DESC, next",
        )
        .bind(position)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?)))
            .collect()
    }

    /// How many games are under way (the lobby says it).
    pub(crate) async fn live_game_count(&self) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) FROM games WHERE status = $1")
            .bind(Status::Live.as_str())
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get(0)?)
    }

    /// The rematch that follows game `id`, if one was made.
    pub(crate) async fn rematch_of(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let sql = concat!(
            "SELECT ",
            game_columns!(),
            games_from!(),
            " WHERE g.rematch_of = $1"
        );
        self.one_game(sql, id).await
    }

    /// Every game not finished, oldest first: what a restart loads back into rooms.
    pub(crate) async fn live_games(&self) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            game_columns!(),
            games_from!(),
            " WHERE g.status = $1 ORDER BY g.created_at, g.id"
        ))
        .bind(Status::Live.as_str())
        .fetch_all(&self.pool)
        .await?;
        Ok(readable(&rows))
    }

    /// How many games under way an account plays: all of them, and those against a bot.
    pub(crate) async fn live_counts_of(&self, user_id: &str) -> Result<(i64, i64), StoreError> {
        self.live_counts("(white_user = $2 OR black_user = $2)", user_id)
            .await
    }

    /// How many games under way guests made from `address`: all of them, and those against
    /// a bot.
    pub(crate) async fn live_counts_from(&self, address: &str) -> Result<(i64, i64), StoreError> {
        self.live_counts("guest_address = $2", address).await
    }

    /// Games under way whose row meets `whose` (a condition on `$2`, one of the two above):
    /// all of them, and those against a bot. The partial indexes of migration 0018 serve it.
    async fn live_counts(&self, whose: &'static str, key: &str) -> Result<(i64, i64), StoreError> {
        // Only one of the conditions above is written into the text; the key is bound.
        let sql = format!(
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN white_bot IS NOT NULL OR black_bot IS NOT \
             NULL THEN 1 ELSE 0 END), 0) FROM games WHERE status = $1 AND {whose}"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(Status::Live.as_str())
            .bind(key)
            .fetch_one(&self.pool)
            .await?;
        Ok((row.try_get(0)?, row.try_get(1)?))
    }

    /// Which of these accounts hold a seat in a game under way.
    pub(crate) async fn playing(
        &self,
        users: &[String],
    ) -> Result<std::collections::HashSet<String>, StoreError> {
        let mut out = std::collections::HashSet::new();
        if users.is_empty() {
            return Ok(out);
        }
        let marks = placeholders(2, users.len());
        let sql = format!(
            "SELECT white_user FROM games WHERE status = $1 AND white_user IN ({marks}) \
             UNION SELECT black_user FROM games WHERE status = $1 AND black_user IN ({marks})"
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(Status::Live.as_str());
        for user in users {
            query = query.bind(user);
        }
        for r in query.fetch_all(&self.pool).await? {
            out.insert(r.try_get(0)?);
        }
        Ok(out)
    }

    /// The games not finished in which an account holds a seat, oldest first.
    pub(crate) async fn live_games_of(&self, user_id: &str) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            game_columns!(),
            games_from!(),
            " WHERE g.status = $1 AND (g.white_user = $2 OR g.black_user = $2) \
             ORDER BY g.created_at, g.id"
        ))
        .bind(Status::Live.as_str())
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(readable(&rows))
    }

    /// The first `plies` moves (UCI) of each of these games, by game id: enough to name
    /// their openings on a page that lists them.
    pub(crate) async fn first_moves(
        &self,
        ids: &[String],
        plies: usize,
    ) -> Result<HashMap<String, Vec<String>>, StoreError> {
        let mut out: HashMap<String, Vec<String>> = HashMap::new();
        if ids.is_empty() {
            return Ok(out);
        }
        let sql = format!(
            "SELECT game_id, uci FROM moves WHERE ply <= $1 AND game_id IN ({}) \
             ORDER BY game_id, ply",
            placeholders(2, ids.len())
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(plies as i64);
        for id in ids {
            query = query.bind(id);
        }
        for r in query.fetch_all(&self.pool).await? {
            out.entry(r.try_get(0)?).or_default().push(r.try_get(1)?);
        }
        Ok(out)
    }

    /// The moves of a game in order.
    pub(crate) async fn moves(&self, id: &str) -> Result<Vec<StoredMove>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, ply, uci, san, clock_ms, at_ms, elapsed_ms, lag_ms FROM moves \
             WHERE game_id = $1 ORDER BY ply",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(StoredMove {
                    game_id: r.try_get(0)?,
                    ply: r.try_get(1)?,
                    uci: r.try_get(2)?,
                    san: r.try_get(3)?,
                    clock_ms: r.try_get(4)?,
                    at_ms: r.try_get(5)?,
                    elapsed_ms: r.try_get(6)?,
                    lag_ms: r.try_get(7)?,
                })
            })
            .collect()
    }
}

/// The rows of a list that read as games; one that does not (written by hand, or by a
/// version that is gone) is left out and logged, so it never costs the list the rest.
fn readable(rows: &[sqlx::any::AnyRow]) -> Vec<GameRow> {
    rows.iter()
        .filter_map(|r| match game_row(r) {
            Ok(row) => Some(row),
            Err(e) => {
                let id = r.try_get::<String, _>(0).unwrap_or_default();
                tracing::error!(game = %id, error = %e, "unreadable game row left out");
                None
            }
        })
        .collect()
}

/// `$first, $first+1, ...`: `n` numbered placeholders for an `IN (...)` list, which both
/// backends read. Only these are ever written into a query's text; every value is bound.
pub(super) fn placeholders(first: usize, n: usize) -> String {
    (first..first + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether a text can be stored and looked up at all: PostgreSQL's text holds no NUL
/// character, so no stored game or player has one (and asking would be a database error).
pub(crate) fn storable(text: &str) -> bool {
    !text.contains('\0')
}

fn game_row(r: &sqlx::any::AnyRow) -> Result<GameRow, StoreError> {
    Ok(GameRow {
        game: NewGame {
            id: r.try_get(0)?,
            created_at: r.try_get(1)?,
            start_fen: r.try_get(2)?,
            time_control: {
                let text: String = r.try_get(3)?;
                TimeControl::from_pgn(&text).map_err(|e| {
                    StoreError::Corrupt(format!("unreadable time control {text:?}: {e}"))
                })?
            },
            white_name: r.try_get(4)?,
            black_name: r.try_get(5)?,
            white_seat: r.try_get(10)?,
            black_seat: r.try_get(11)?,
            white_bot: r.try_get(12)?,
            black_bot: r.try_get(13)?,
            rematch_of: r.try_get(14)?,
            seek: r.try_get::<i64, _>(16)? != 0,
            white_user: r.try_get(17)?,
            black_user: r.try_get(18)?,
            rated: r.try_get::<i64, _>(21)? != 0,
            // Only the caps read it, in SQL (`live_counts_from`).
            guest_address: None,
            rating_range: match (r.try_get(22)?, r.try_get(23)?) {
                (Some(lo), Some(hi)) => Some((lo, hi)),
                _ => None,
            },
            club: ClubRecord {
                event: r.try_get(24)?,
                round: r.try_get(25)?,
                table: r.try_get(26)?,
                tournament: r.try_get(27)?,
            },
            berserkable: r.try_get::<i64, _>(29)? != 0,
        },
        status: Status::parse(&r.try_get::<String, _>(6)?)?,
        ending: ending(r.try_get(7)?, r.try_get(8)?)?,
        finished_at: r.try_get(9)?,
        berserk: {
            let bits = r.try_get::<i64, _>(28)?;
            rookery_core::ByColor {
                white: bits & 1 != 0,
                black: bits & 2 != 0,
            }
        },
        gifts: match r.try_get::<Option<String>, _>(30)? {
            Some(text) => parse_gifts(&text)
                .ok_or_else(|| StoreError::Corrupt(format!("unreadable gifts {text:?}")))?,
            None => Vec::new(),
        },
        wake_at: r.try_get(31)?,
        draw_offers: match r.try_get::<Option<String>, _>(15)? {
            Some(text) => {
                Some(DrawOffers::parse(&text).ok_or_else(|| {
                    StoreError::Corrupt(format!("unreadable draw offers {text:?}"))
                })?)
            }
            None => None,
        },
        white_title: r
            .try_get::<Option<String>, _>(19)?
            .as_deref()
            .and_then(Title::parse),
        black_title: r
            .try_get::<Option<String>, _>(20)?
            .as_deref()
            .and_then(Title::parse),
    })
}

/// The stored ending: both words or neither, each the core's.
fn ending(
    result: Option<String>,
    termination: Option<String>,
) -> Result<Option<Ending>, StoreError> {
    match (result, termination) {
        (Some(r), Some(t)) => {
            let result = GameResult::parse(&r)
                .ok_or_else(|| StoreError::Corrupt(format!("unknown result {r:?}")))?;
            let termination = Termination::parse(&t)
                .ok_or_else(|| StoreError::Corrupt(format!("unknown termination {t:?}")))?;
            Ok(Some(Ending {
                result,
                termination,
            }))
        }
        _ => Ok(None),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! One test-suite for both backends: SQLite always, PostgreSQL when
    //! `ROOKERY_TEST_POSTGRES` names a server (CI sets it), in a fresh database of its own.

    use super::accounts::{Outcome, Whose};
    use super::writer::{EventWriter, GameWrite};
    use super::*;

    pub(super) fn ended(id: &str, ending: Ending, at: i64) -> GameWrite {
        GameWrite {
            game_id: id.into(),
            ending: Some((ending, at)),
            ..GameWrite::default()
        }
    }

    pub(super) fn game(id: &str, at: i64) -> NewGame {
        NewGame {
            id: id.to_owned(),
            created_at: at,
            start_fen: None,
            time_control: TimeControl::from_pgn("300+3").unwrap(),
            white_name: "Anna".into(),
            black_name: "Bo".into(),
            white_seat: Some("t-white".into()),
            black_seat: None,
            ..NewGame::default()
        }
    }

    async fn suite(url: &str, backend: Backend) {
        let store = Store::open(url).await.unwrap();
        assert_eq!(store.backend(), backend);
        // Migrations are applied once; opening again changes nothing.
        let store2 = Store::open(url).await.unwrap();
        drop(store2);

        store.create_game(&game("g1", 1)).await.unwrap();
        let mut with_fen = game("g2", 2);
        with_fen.start_fen = Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".into());
        store.create_game(&with_fen).await.unwrap();
        assert_eq!(store.game("g2").await.unwrap().unwrap().game, with_fen);
        assert!(store.game("nope").await.unwrap().is_none());
        // No NUL character reaches the database (PostgreSQL cannot hold one): not found.
        assert!(store.game("a\0b").await.unwrap().is_none());
        assert!(
            store
                .games_of(Whose::Name("a\0b"), Outcome::All, None, 0, 5)
                .await
                .unwrap()
                .is_empty()
        );
        assert!(
            store
                .finished_games_of(Whose::Name("a\0b"), None, 10)
                .await
                .unwrap()
                .is_empty()
        );

        // A bot seat and a rematch: only one rematch may follow a game.
        let rematch = NewGame {
            black_bot: Some(3),
            rematch_of: Some("g1".into()),
            ..game("r1", 3)
        };
        store.create_game(&rematch).await.unwrap();
        assert_eq!(store.game("r1").await.unwrap().unwrap().game, rematch);
        assert!(
            store
                .create_game(&NewGame {
                    id: "r2".into(),
                    ..rematch.clone()
                })
                .await
                .is_err()
        );
        assert_eq!(store.rematch_of("g1").await.unwrap().unwrap().game.id, "r1");
        assert!(store.rematch_of("g2").await.unwrap().is_none());
        let writer = EventWriter::start(store.clone());
        let aborted = Ending {
            result: GameResult::Unknown,
            termination: Termination::Aborted,
        };
        writer.write(ended("r1", aborted, 4)).await.unwrap();

        // Many rooms append at once: every acknowledged move is there, in order.
        let mut tasks = Vec::new();
        for g in 0..20 {
            let id = format!("c{g}");
            store.create_game(&game(&id, 10 + g)).await.unwrap();
            let writer = writer.clone();
            tasks.push(tokio::spawn(async move {
                for ply in 1..=30i64 {
                    let m = StoredMove {
                        game_id: id.clone(),
                        ply,
                        uci: "e2e4".into(),
                        san: "e4".into(),
                        clock_ms: (ply % 2 == 0).then_some(1000 * ply),
                        at_ms: ply,
                        elapsed_ms: ply * 10,
                        lag_ms: 0,
                    };
                    writer.append(m).await.unwrap();
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        for g in 0..20 {
            let moves = store.moves(&format!("c{g}")).await.unwrap();
            assert_eq!(moves.len(), 30);
            assert!(moves.iter().enumerate().all(|(i, m)| m.ply == i as i64 + 1));
            assert_eq!(moves[1].clock_ms, Some(2000));
            assert_eq!(moves[0].clock_ms, None);
            assert_eq!(moves[29].elapsed_ms, 300);
        }

        // A move that cannot be stored is not acknowledged.
        let dup = StoredMove {
            game_id: "c0".into(),
            ply: 1,
            uci: "d2d4".into(),
            san: "d4".into(),
            clock_ms: None,
            at_ms: 99,
            elapsed_ms: 0,
            lag_ms: 0,
        };
        assert!(writer.append(dup).await.is_err());
        assert_eq!(store.moves("c0").await.unwrap()[0].uci, "e2e4");

        // An open seat is taken once.
        let seat = |color, token: &str, name: &str| writer::SeatTaken {
            color,
            token: token.into(),
            name: name.into(),
            user: None,
        };
        use rookery_core::Color::{Black, White};
        assert!(
            store
                .take_seat("g1", &seat(Black, "t-black", "Cy"), None)
                .await
                .unwrap()
        );
        assert!(
            !store
                .take_seat("g1", &seat(Black, "t-other", "Di"), None)
                .await
                .unwrap()
        );
        assert!(
            !store
                .take_seat("g1", &seat(White, "t-other", "Di"), None)
                .await
                .unwrap()
        );
        let g1 = store.game("g1").await.unwrap().unwrap().game;
        assert_eq!(
            (g1.black_seat.as_deref(), g1.black_name.as_str()),
            (Some("t-black"), "Cy")
        );

        // A player's games, newest first, live ones too.
        let recent = store
            .games_of(Whose::Name("Anna"), Outcome::All, None, 0, 2)
            .await
            .unwrap();
        let ids: Vec<&str> = recent.iter().map(|r| r.game.id.as_str()).collect();
        assert_eq!(ids, ["c19", "c18"]);

        // Finished games leave the live list that recovery loads.
        assert_eq!(store.live_games().await.unwrap().len(), 22);
        let resigned = Ending {
            result: GameResult::WhiteWins,
            termination: Termination::Resignation,
        };
        writer.write(ended("g1", resigned, 5)).await.unwrap();
        let live = store.live_games().await.unwrap();
        assert_eq!(live.len(), 21);
        assert_eq!(live[0].game.id, "g2");
        let over = store.game("g1").await.unwrap().unwrap();
        assert_eq!(
            (over.status, over.ending, over.finished_at),
            (Status::Over, Some(resigned), Some(5))
        );

        // The caps of issue 50: live games by guests' address and by account, counted
        // without reading finished ones; an ended game leaves both counts.
        for (id, bot) in [("cap1", None), ("cap2", Some(2)), ("cap3", None)] {
            let g = NewGame {
                guest_address: Some("203.0.113.7".into()),
                black_bot: bot,
                white_user: (id == "cap3").then(|| "cap-anna".to_owned()),
                black_user: (id == "cap1").then(|| "cap-bo".to_owned()),
                ..game(id, 30)
            };
            store.create_game(&g).await.unwrap();
        }
        assert_eq!(store.live_counts_from("203.0.113.7").await.unwrap(), (3, 1));
        assert_eq!(store.live_counts_from("203.0.113.8").await.unwrap(), (0, 0));
        let asked: Vec<String> = ["cap-anna", "cap-bo", "cap-cy"].map(str::to_owned).to_vec();
        let playing = store.playing(&asked).await.unwrap();
        assert_eq!(playing.len(), 2);
        assert!(playing.contains("cap-anna") && playing.contains("cap-bo"));
        writer.write(ended("cap2", resigned, 31)).await.unwrap();
        writer.write(ended("cap3", resigned, 31)).await.unwrap();
        assert_eq!(store.live_counts_from("203.0.113.7").await.unwrap(), (1, 0));
        let playing = store.playing(&asked).await.unwrap();
        assert_eq!(playing.into_iter().collect::<Vec<_>>(), ["cap-bo"]);
        assert!(store.playing(&[]).await.unwrap().is_empty());
        let kept: Option<String> =
            sqlx::query_scalar("SELECT guest_address FROM games WHERE id = 'cap2'")
                .fetch_one(store.pool())
                .await
                .unwrap();
        assert_eq!(kept, None, "an ended game keeps no address");
        writer.write(ended("cap1", resigned, 32)).await.unwrap();
        // Analyses: counted by requester while not done, guests' in all; accounts' first.
        let guest = "a:203.0.113.7";
        assert!(
            store
                .queue_analysis("cap1", 10, 40, guest, true)
                .await
                .unwrap()
        );
        assert!(
            store
                .queue_analysis("cap2", 10, 41, guest, true)
                .await
                .unwrap()
        );
        assert!(
            store
                .queue_analysis("cap3", 10, 42, "u:cap-anna", false)
                .await
                .unwrap()
        );
        assert_eq!(store.analyses_waiting(guest).await.unwrap(), (2, 2));
        assert_eq!(store.analyses_waiting("u:cap-anna").await.unwrap(), (1, 2));
        let mut order = Vec::new();
        while let Some(id) = store.claim_analysis("w", 50, 60).await.unwrap() {
            if id == "cap1" {
                // A running job counts as waiting.
                assert_eq!(store.analyses_waiting(guest).await.unwrap(), (2, 2));
            }
            assert!(store.finish_analysis(&id, "w", "[]", 55).await.unwrap());
            order.push(id);
        }
        assert_eq!(order, ["cap3", "cap1", "cap2"], "the account's job first");
        assert_eq!(store.analyses_waiting(guest).await.unwrap(), (0, 0));

        accounts::tests::suite(&store, &writer).await;
        ratings::tests::suite(&store, &writer).await;
        leases::tests::suite(&store, &writer).await;
        tournaments::tests::suite(&store).await;
        clubs::tests::suite(&store).await;
        exercises::tests::suite(&store).await;
        if backend == Backend::Postgres {
            the_writer_comes_back_after_its_connection_is_lost(&store, &writer).await;
        }
    }

    /// The move writer keeps one connection from batch to batch (issue 55). When the
    /// database drops it, the batch that finds it broken is refused (nothing acknowledged),
    /// and the next takes a fresh one; one that sat idle for a second is pinged first, so a
    /// connection lost while nobody moved costs no refusal at all.
    async fn the_writer_comes_back_after_its_connection_is_lost(
        store: &Store,
        writer: &writer::EventWriter,
    ) {
        store.create_game(&game("lost", 500)).await.unwrap();
        let mv = |ply: i64| StoredMove {
            game_id: "lost".into(),
            ply,
            uci: if ply % 2 == 1 { "g1f3" } else { "g8f6" }.into(),
            san: if ply % 2 == 1 { "Nf3" } else { "Nf6" }.into(),
            clock_ms: None,
            at_ms: 500 + ply,
            elapsed_ms: 0,
            lag_ms: 0,
        };
        let cut_others = || async {
            // Every session of this database but the one asking (the writer's among them).
            let cut: i64 = sqlx::query_scalar(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
                 WHERE datname = current_database() AND pid <> pg_backend_pid()",
            )
            .fetch_one(store.pool())
            .await
            .unwrap();
            assert!(cut >= 1, "the writer's session was there to cut");
        };
        writer.append(mv(1)).await.unwrap();
        cut_others().await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        // Used a moment ago, so not pinged: this batch may meet the broken connection.
        let mut ply = 2;
        if writer.append(mv(ply)).await.is_ok() {
            ply += 1;
        }
        writer
            .append(mv(ply))
            .await
            .expect("the batch after a broken connection goes in");
        cut_others().await;
        tokio::time::sleep(Duration::from_millis(1_200)).await;
        writer
            .append(mv(ply + 1))
            .await
            .expect("an idle connection is pinged before use: no batch meets it broken");
        let stored = store.moves("lost").await.unwrap();
        assert_eq!(stored.len() as i64, ply + 1);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_health_check_fails_when_the_database_cannot_be_written() {
        let dir = std::env::temp_dir().join(format!("rookery-health-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("h.db");
        let _ = std::fs::remove_file(&file);
        let url = format!("sqlite://{}", file.display());
        let store = Store::open(&url).await.unwrap();
        store.check_write().await.unwrap();
        // The same database opened read-only answers reads but takes no write.
        let read_only = Store::open(&format!("{url}?mode=ro")).await.unwrap();
        assert!(read_only.game("x").await.unwrap().is_none());
        assert!(read_only.check_write().await.is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn store_suite_on_sqlite() {
        let dir = std::env::temp_dir().join(format!("rookery-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("test.db");
        let _ = std::fs::remove_file(&file);
        suite(&format!("sqlite://{}", file.display()), Backend::Sqlite).await;
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn store_suite_on_postgres() {
        let Ok(admin_url) = std::env::var("ROOKERY_TEST_POSTGRES") else {
            // Straight to stderr, past the test harness's capture, so the skip is seen.
            use std::io::Write as _;
            let _ = std::io::stderr().write_all(
                b"SKIPPED: store_suite_on_postgres (set ROOKERY_TEST_POSTGRES=postgres://...)\n",
            );
            return;
        };
        install_default_drivers();
        let admin = AnyPool::connect(&admin_url).await.unwrap();
        let name = format!("rookery_test_{}_{}", std::process::id(), rand_suffix());
        let create = format!("CREATE DATABASE {name}");
        admin.execute(sqlx::AssertSqlSafe(create)).await.unwrap();
        let url = match admin_url.rsplit_once('/') {
            Some((base, _)) => format!("{base}/{name}"),
            None => panic!("ROOKERY_TEST_POSTGRES needs a database path"),
        };
        suite(&url, Backend::Postgres).await;
        let drop = format!("DROP DATABASE {name} WITH (FORCE)");
        admin.execute(sqlx::AssertSqlSafe(drop)).await.unwrap();
    }

    fn rand_suffix() -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos().into())
    }
}
