//! Schema migrations, embedded in the binary and applied in order at start (and by
//! `rookery migrate`). A migration is never edited once released; a change is a new file.

use sqlx::{AnyConnection, AnyPool, Connection, Executor, Row};

use super::{Backend, StoreError};

/// (version, name, SQL), in order.
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (
        1,
        "games_and_moves",
        include_str!("../../../../migrations/0001_games_and_moves.sql"),
    ),
    (
        2,
        "seats",
        include_str!("../../../../migrations/0002_seats.sql"),
    ),
    (
        3,
        "move_elapsed",
        include_str!("../../../../migrations/0003_move_elapsed.sql"),
    ),
    (
        4,
        "bots_and_rematches",
        include_str!("../../../../migrations/0004_bots_and_rematches.sql"),
    ),
    (
        5,
        "one_vocabulary_and_rule_state",
        include_str!("../../../../migrations/0005_one_vocabulary_and_rule_state.sql"),
    ),
    (
        6,
        "seeks",
        include_str!("../../../../migrations/0006_seeks.sql"),
    ),
    (
        7,
        "accounts",
        include_str!("../../../../migrations/0007_accounts.sql"),
    ),
    (
        8,
        "ratings",
        include_str!("../../../../migrations/0008_ratings.sql"),
    ),
    (
        9,
        "seek_rating_range",
        include_str!("../../../../migrations/0009_seek_rating_range.sql"),
    ),
    (
        10,
        "club_record",
        include_str!("../../../../migrations/0010_club_record.sql"),
    ),
    (
        11,
        "analyses",
        include_str!("../../../../migrations/0011_analyses.sql"),
    ),
    (
        12,
        "chat",
        include_str!("../../../../migrations/0012_chat.sql"),
    ),
    (
        13,
        "move_lag",
        include_str!("../../../../migrations/0013_move_lag.sql"),
    ),
    (
        14,
        "leases",
        include_str!("../../../../migrations/0014_leases.sql"),
    ),
    (
        15,
        "cluster_work",
        include_str!("../../../../migrations/0015_cluster_work.sql"),
    ),
    (
        16,
        "challenges",
        include_str!("../../../../migrations/0016_challenges.sql"),
    ),
    (
        17,
        "name_folds",
        include_str!("../../../../migrations/0017_name_folds.sql"),
    ),
    (
        18,
        "caps",
        include_str!("../../../../migrations/0018_caps.sql"),
    ),
    (
        19,
        "tournaments",
        include_str!("../../../../migrations/0019_tournaments.sql"),
    ),
    (
        20,
        "clubs",
        include_str!("../../../../migrations/0020_clubs.sql"),
    ),
    (
        21,
        "arenas",
        include_str!("../../../../migrations/0021_arenas.sql"),
    ),
    (
        22,
        "clubs_and_arena_chat",
        include_str!("../../../../migrations/0022_clubs_and_arena_chat.sql"),
    ),
    (
        23,
        "imported_tags",
        include_str!("../../../../migrations/0023_imported_tags.sql"),
    ),
    (
        24,
        "time_given",
        include_str!("../../../../migrations/0024_time_given.sql"),
    ),
    (
        25,
        "explorer",
        include_str!("../../../../migrations/0025_explorer.sql"),
    ),
    (
        26,
        "follows",
        include_str!("../../../../migrations/0026_follows.sql"),
    ),
    (
        27,
        "hibernation",
        include_str!("../../../../migrations/0027_hibernation.sql"),
    ),
    (
        28,
        "node_leases",
        include_str!("../../../../migrations/0028_node_leases.sql"),
    ),
    (
        29,
        "exercises",
        include_str!("../../../../migrations/0029_exercises.sql"),
    ),
];

/// Applies the migrations not applied yet, in order, each in its own transaction. On
/// PostgreSQL several nodes may start at once: they take turns under an advisory lock, and
/// each applies only what the ones before it have not.
pub(crate) async fn run(pool: &AnyPool, backend: Backend) -> Result<(), StoreError> {
    let mut conn = pool.acquire().await?;
    if backend == Backend::Postgres {
        conn.execute(sqlx::AssertSqlSafe(format!(
            "SELECT pg_advisory_lock({MIGRATION_LOCK})"
        )))
        .await?;
    }
    let applied = apply(&mut conn).await;
    if backend == Backend::Postgres {
        // Closing the connection would free the lock too; say it at once.
        let _ = conn
            .execute(sqlx::AssertSqlSafe(format!(
                "SELECT pg_advisory_unlock({MIGRATION_LOCK})"
            )))
            .await;
    }
    applied
}

/// The advisory lock the migrations run under on PostgreSQL (any number of our own).
const MIGRATION_LOCK: i64 = 0x524f_4f4b;

async fn apply(conn: &mut AnyConnection) -> Result<(), StoreError> {
    conn.execute(
        "CREATE TABLE IF NOT EXISTS rookery_migrations (\
         version BIGINT PRIMARY KEY, name TEXT NOT NULL)",
    )
    .await?;
    for &(version, name, sql) in MIGRATIONS {
        let done = sqlx::query("SELECT version FROM rookery_migrations WHERE version = $1")
            .bind(version)
            .fetch_optional(&mut *conn)
            .await?;
        if done.is_some_and(|r| r.try_get::<i64, _>(0).is_ok()) {
            continue;
        }
        let mut tx = conn.begin().await?;
        for statement in statements(sql) {
            (&mut *tx).execute(sqlx::AssertSqlSafe(statement)).await?;
        }
        sqlx::query("INSERT INTO rookery_migrations (version, name) VALUES ($1, $2)")
            .bind(version)
            .bind(name)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        tracing::info!(version, name, "migration applied");
    }
    Ok(())
}

/// The statements of a migration file: `--` comments removed (they may hold semicolons),
/// then split at semicolons. Migrations hold no string literals with `--` or `;`.
fn statements(sql: &str) -> Vec<String> {
    let code: String = sql
        .lines()
        .map(|l| l.split_once("--").map_or(l, |(code, _)| code))
        .collect::<Vec<_>>()
        .join("\n");
    code.split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_migration_file_is_registered_in_order() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../migrations");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".sql"))
            .collect();
        files.sort();
        assert_eq!(files.len(), super::MIGRATIONS.len(), "{files:?}");
        for (file, (version, name, _)) in files.iter().zip(super::MIGRATIONS) {
            assert_eq!(file, &format!("{version:04}_{name}.sql"));
        }
    }
}
