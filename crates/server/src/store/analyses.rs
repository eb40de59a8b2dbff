//! Computer analyses in the database (migration 0011): requested once per finished game,
//! queued, and once done, every position's evaluation.

use sqlx::Row;

use super::{Store, StoreError};

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
            other => Err(StoreError(format!("unknown analysis status {other:?}"))),
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
}

impl Store {
    /// Queues an analysis of `game_id` unless one exists; true if this call queued it.
    pub(crate) async fn queue_analysis(
        &self,
        game_id: &str,
        nodes: i64,
        at: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO analyses (game_id, status, requested_at, nodes) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game_id)
        .bind(AnalysisStatus::Queued.as_str())
        .bind(at)
        .bind(nodes)
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    pub(crate) async fn analysis(
        &self,
        game_id: &str,
    ) -> Result<Option<StoredAnalysis>, StoreError> {
        let row = sqlx::query("SELECT status, nodes, evals FROM analyses WHERE game_id = $1")
            .bind(game_id)
            .fetch_optional(self.pool())
            .await?;
        row.map(|r| {
            Ok(StoredAnalysis {
                status: AnalysisStatus::parse(&r.try_get::<String, _>(0)?)?,
                nodes: r.try_get(1)?,
                evals: r.try_get(2)?,
            })
        })
        .transpose()
    }

    pub(crate) async fn set_analysis_running(&self, game_id: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE analyses SET status = $1 WHERE game_id = $2")
            .bind(AnalysisStatus::Running.as_str())
            .bind(game_id)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    pub(crate) async fn finish_analysis(
        &self,
        game_id: &str,
        evals: &str,
        at: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE analyses SET status = $1, evals = $2, finished_at = $3 WHERE game_id = $4",
        )
        .bind(AnalysisStatus::Done.as_str())
        .bind(evals)
        .bind(at)
        .bind(game_id)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// The analyses not done yet, oldest first (picked up again after a restart).
    pub(crate) async fn unfinished_analyses(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id FROM analyses WHERE status <> $1 ORDER BY requested_at, game_id",
        )
        .bind(AnalysisStatus::Done.as_str())
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }
}
