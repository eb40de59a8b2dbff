//! Computer analyses in the database (migration 0011): requested once per finished game,
//! queued, and once done, every position's evaluation. The table is the job queue (migration
//! 0015): a worker claims a job for a while and renews its claim as it goes, so that several
//! nodes share the jobs and a dead node's job is claimed again by another.

use sqlx::Row;

use super::{Backend, Store, StoreError};

/// Where a game's analysis stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AnalysisStatus {
    Queued,
    Running,
    Done,
}

impl AnalysisStatus {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            AnalysisStatus::Queued => "queued",
            AnalysisStatus::Running => "running",
            AnalysisStatus::Done => "done",
        }
    }

    fn parse(text: &str) -> Result<AnalysisStatus, StoreError> {
        match text {
            "queued" => Ok(AnalysisStatus::Queued),
            "running" => Ok(AnalysisStatus::Running),
            "done" => Ok(AnalysisStatus::Done),
            other => Err(StoreError::Corrupt(format!(
                "unknown analysis status {other:?}"
            ))),
        }
    }
}

/// A stored analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StoredAnalysis {
    pub(crate) status: AnalysisStatus,
    pub(crate) nodes: i64,
    /// The evaluations as JSON, once done.
    pub(crate) evals: Option<String>,
    /// Positions done and in all, as its worker last said while it runs.
    pub(crate) progress: Option<(i64, i64)>,
}

impl Store {
    /// Queues an analysis of `game_id` unless one exists, asked by `requester` (stored as
    /// [`super::analyses`]' `requester`; a guest's jobs are taken after accounts'): true if
    /// this call queued it.
    pub(crate) async fn queue_analysis(
        &self,
        game_id: &str,
        nodes: i64,
        at: i64,
        requester: &str,
        guest: bool,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO analyses (game_id, status, requested_at, nodes, requester, guest) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game_id)
        .bind(AnalysisStatus::Queued.as_str())
        .bind(at)
        .bind(nodes)
        .bind(requester)
        .bind(i64::from(guest))
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Jobs not done yet: asked by `requester`, and asked by guests in all.
    pub(crate) async fn analyses_waiting(&self, requester: &str) -> Result<(i64, i64), StoreError> {
        let row = sqlx::query(
            "SELECT (SELECT COUNT(*) FROM analyses WHERE requester = $1 AND status <> 'done'), \
             (SELECT COUNT(*) FROM analyses WHERE guest = 1 AND status <> 'done')",
        )
        .bind(requester)
        .fetch_one(self.pool())
        .await?;
        Ok((row.try_get(0)?, row.try_get(1)?))
    }

    pub(crate) async fn analysis(
        &self,
        game_id: &str,
    ) -> Result<Option<StoredAnalysis>, StoreError> {
        let row = sqlx::query(
            "SELECT status, nodes, evals, done_positions, total_positions FROM analyses \
             WHERE game_id = $1",
        )
        .bind(game_id)
        .fetch_optional(self.pool())
        .await?;
        row.map(|r| {
            let done: Option<i64> = r.try_get(3)?;
            let total: Option<i64> = r.try_get(4)?;
            Ok(StoredAnalysis {
                status: AnalysisStatus::parse(&r.try_get::<String, _>(0)?)?,
                nodes: r.try_get(1)?,
                evals: r.try_get(2)?,
                progress: done.zip(total),
            })
        })
        .transpose()
    }

    /// Claims the oldest job nobody works on (queued, or running under a claim that ran out
    /// by `now`), accounts' jobs before guests', for `worker` until `until`: its game. On PostgreSQL the row is taken with
    /// `FOR UPDATE SKIP LOCKED`, so workers of several nodes never claim the same job; an
    /// SQLite file has one writer at a time.
    pub(crate) async fn claim_analysis(
        &self,
        worker: &str,
        now: i64,
        until: i64,
    ) -> Result<Option<String>, StoreError> {
        let lock = match self.backend() {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        };
        let sql = format!(
            "UPDATE analyses SET status = 'running', worker = $1, claimed_until = $2, \
             done_positions = NULL, total_positions = NULL \
             WHERE game_id = (SELECT game_id FROM analyses \
             WHERE status = 'queued' OR (status = 'running' AND claimed_until < $3) \
             ORDER BY guest, requested_at, game_id LIMIT 1{lock}) RETURNING game_id"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(worker)
            .bind(until)
            .bind(now)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.map(|r| r.try_get::<String, _>(0)).transpose()?)
    }

    /// Renews `worker`'s claim on the job of `game_id` until `until`, with its progress:
    /// false if the job is no longer this worker's (its claim ran out and another took it).
    pub(crate) async fn renew_analysis(
        &self,
        game_id: &str,
        worker: &str,
        until: i64,
        (done, total): (i64, i64),
    ) -> Result<bool, StoreError> {
        let renewed = sqlx::query(
            "UPDATE analyses SET claimed_until = $1, done_positions = $2, total_positions = $3 \
             WHERE game_id = $4 AND worker = $5 AND status = 'running'",
        )
        .bind(until)
        .bind(done)
        .bind(total)
        .bind(game_id)
        .bind(worker)
        .execute(self.pool())
        .await?;
        Ok(renewed.rows_affected() == 1)
    }

    /// Frees the jobs claimed under `worker`'s name (a node starting again): any worker may
    /// take them at once.
    pub(crate) async fn release_analyses_of(&self, worker: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE analyses SET claimed_until = 0 WHERE worker = $1 AND status = 'running'",
        )
        .bind(worker)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Stores the evaluations of `worker`'s job: false (nothing written) if the job is no
    /// longer its own.
    pub(crate) async fn finish_analysis(
        &self,
        game_id: &str,
        worker: &str,
        evals: &str,
        at: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE analyses SET status = $1, evals = $2, finished_at = $3 \
             WHERE game_id = $4 AND worker = $5 AND status = 'running'",
        )
        .bind(AnalysisStatus::Done.as_str())
        .bind(evals)
        .bind(at)
        .bind(game_id)
        .bind(worker)
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }
}
