//! Exercises from one's own mistakes (migration 0029): an account's progress on each.

use super::{Store, StoreError};

/// Where an account stands on one exercise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Progress {
    /// A good move was found before the solution was shown.
    pub(crate) solved: bool,
    /// The solution was shown.
    pub(crate) shown: bool,
    /// Moves tried.
    pub(crate) tries: i64,
}

impl Store {
    /// `account`'s progress on the exercises of game `game`, by ply.
    pub(crate) async fn exercise_progress(
        &self,
        account: &str,
        game: &str,
    ) -> Result<Vec<(i64, Progress)>, StoreError> {
        let rows: Vec<(i64, i64, i64, i64)> = sqlx::query_as(
            "SELECT ply, solved, shown, tries FROM exercise_progress \
             WHERE account = $1 AND game_id = $2 ORDER BY ply",
        )
        .bind(account)
        .bind(game)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(ply, solved, shown, tries)| {
                (
                    ply,
                    Progress {
                        solved: solved != 0,
                        shown: shown != 0,
                        tries,
                    },
                )
            })
            .collect())
    }

    /// Notes a move tried at the exercise of `ply`: one more try, and solved if `good` and the
    /// solution had not been shown.
    pub(crate) async fn exercise_tried(
        &self,
        account: &str,
        game: &str,
        ply: i64,
        good: bool,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO exercise_progress \
             (account, game_id, ply, solved, shown, tries, updated_at) \
             VALUES ($1, $2, $3, $4, 0, 1, $5) \
             ON CONFLICT (account, game_id, ply) DO UPDATE SET \
             tries = exercise_progress.tries + 1, \
             solved = CASE WHEN exercise_progress.shown = 0 AND excluded.solved = 1 THEN 1 \
                      ELSE exercise_progress.solved END, \
             updated_at = excluded.updated_at",
        )
        .bind(account)
        .bind(game)
        .bind(ply)
        .bind(i64::from(good))
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Notes that the solution of the exercise of `ply` was shown.
    pub(crate) async fn exercise_shown(
        &self,
        account: &str,
        game: &str,
        ply: i64,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO exercise_progress \
             (account, game_id, ply, solved, shown, tries, updated_at) \
             VALUES ($1, $2, $3, 0, 1, 0, $4) \
             ON CONFLICT (account, game_id, ply) DO UPDATE SET \
             shown = 1, updated_at = excluded.updated_at",
        )
        .bind(account)
        .bind(game)
        .bind(ply)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Run by the store suite on both backends.
    pub(crate) async fn suite(store: &Store) {
        let progress = |solved, shown, tries| Progress {
            solved,
            shown,
            tries,
        };
        assert!(store.exercise_progress("a", "g").await.unwrap().is_empty());
        // A wrong move, then a good one: solved in two tries.
        store.exercise_tried("a", "g", 5, false, 1).await.unwrap();
        store.exercise_tried("a", "g", 5, true, 2).await.unwrap();
        // Another exercise: the solution shown first, then found: not counted as solved.
        store.exercise_shown("a", "g", 9, 3).await.unwrap();
        store.exercise_tried("a", "g", 9, true, 4).await.unwrap();
        // Solved stays solved after the solution is shown; a wrong try does not undo it.
        store.exercise_shown("a", "g", 5, 5).await.unwrap();
        store.exercise_tried("a", "g", 5, false, 6).await.unwrap();
        // Another account's and another game's rows are their own.
        store.exercise_tried("b", "g", 5, true, 7).await.unwrap();
        store.exercise_tried("a", "h", 5, true, 8).await.unwrap();
        assert_eq!(
            store.exercise_progress("a", "g").await.unwrap(),
            [(5, progress(true, true, 3)), (9, progress(false, true, 1))]
        );
        assert_eq!(
            store.exercise_progress("b", "g").await.unwrap(),
            [(5, progress(true, false, 1))]
        );
    }
}
