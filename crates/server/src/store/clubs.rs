//! Clubs (migration 0020; lichess's teams): a club, its members and leaders, and which
//! tournaments belong to it.

use sqlx::Row;

use super::{Store, StoreError};

/// A club as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Club {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) created_at: i64,
    /// The account that made it (its first leader).
    pub(crate) created_by: String,
    /// Anyone joins; otherwise by a request a leader accepts.
    pub(crate) open: bool,
    /// Asked of whoever joins, when set.
    pub(crate) password: Option<String>,
    /// The leaders' message to all members, and when it was written.
    pub(crate) message: Option<(String, i64)>,
}

/// The columns [`club_row`] reads, in its order.
const CLUB_COLUMNS: &str = "c.id, c.name, c.description, c.created_at, c.created_by, c.open, \
                            c.password, c.message, c.message_at";

/// A request to join a club, waiting for a leader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Request {
    pub(crate) user_id: String,
    pub(crate) message: String,
    pub(crate) created_at: i64,
}

/// A rated game between two accounts, as a club's ladder counts it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LadderGame {
    pub(crate) white: String,
    pub(crate) black: String,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub(crate) result: String,
    pub(crate) finished_at: i64,
}

/// A member: the account's id, whether a leader, since when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Member {
    pub(crate) user_id: String,
    pub(crate) leader: bool,
    pub(crate) joined_at: i64,
}

fn club_row(r: &sqlx::any::AnyRow) -> Result<Club, StoreError> {
    Ok(Club {
        id: r.try_get(0)?,
        name: r.try_get(1)?,
        description: r.try_get(2)?,
        created_at: r.try_get(3)?,
        created_by: r.try_get(4)?,
        open: r.try_get::<i32, _>(5)? == 1,
        password: r.try_get(6)?,
        message: match (
            r.try_get::<Option<String>, _>(7)?,
            r.try_get::<Option<i64>, _>(8)?,
        ) {
            (Some(m), Some(at)) => Some((m, at)),
            _ => None,
        },
    })
}

impl Store {
    /// Makes club `id`, account `by` its leader, in one transaction: whether it was made
    /// (`false`: the id is taken).
    pub(crate) async fn add_club(&self, club: &Club) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        let made = sqlx::query(
            "INSERT INTO clubs (id, name, description, created_at, created_by, open, password) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING",
        )
        .bind(&club.id)
        .bind(&club.name)
        .bind(&club.description)
        .bind(club.created_at)
        .bind(&club.created_by)
        .bind(i32::from(club.open))
        .bind(&club.password)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        if !made {
            return Ok(false);
        }
        sqlx::query(
            "INSERT INTO club_members (club_id, user_id, leader, joined_at) VALUES ($1, $2, 1, $3)",
        )
        .bind(&club.id)
        .bind(&club.created_by)
        .bind(club.created_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Club `id`, if there is one.
    pub(crate) async fn club(&self, id: &str) -> Result<Option<Club>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {CLUB_COLUMNS} FROM clubs c WHERE c.id = $1"
        )))
        .bind(id)
        .fetch_optional(self.pool())
        .await?;
        row.as_ref().map(club_row).transpose()
    }

    /// Account `user` joins club `club` (a member already stays as he is).
    pub(crate) async fn join_club(
        &self,
        club: &str,
        user: &str,
        at: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO club_members (club_id, user_id, leader, joined_at) VALUES ($1, $2, 0, $3) \
             ON CONFLICT (club_id, user_id) DO NOTHING",
        )
        .bind(club)
        .bind(user)
        .bind(at)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Account `user` leaves club `club`: whether he was a member.
    pub(crate) async fn leave_club(&self, club: &str, user: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM club_members WHERE club_id = $1 AND user_id = $2")
            .bind(club)
            .bind(user)
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Club `club`'s members, leaders first, then by the date they joined.
    pub(crate) async fn club_members(&self, club: &str) -> Result<Vec<Member>, StoreError> {
        let rows = sqlx::query(
            "SELECT user_id, leader, joined_at FROM club_members WHERE club_id = $1 \
             ORDER BY leader DESC, joined_at, user_id",
        )
        .bind(club)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Member {
                    user_id: r.try_get(0)?,
                    leader: r.try_get::<i32, _>(1)? == 1,
                    joined_at: r.try_get(2)?,
                })
            })
            .collect()
    }

    /// Account `user`'s membership of club `club`: `None` for none, else whether a leader.
    pub(crate) async fn membership(
        &self,
        club: &str,
        user: &str,
    ) -> Result<Option<bool>, StoreError> {
        let row =
            sqlx::query("SELECT leader FROM club_members WHERE club_id = $1 AND user_id = $2")
                .bind(club)
                .bind(user)
                .fetch_optional(self.pool())
                .await?;
        Ok(match row {
            Some(r) => Some(r.try_get::<i32, _>(0)? == 1),
            None => None,
        })
    }

    /// The clubs account `user` is a member of.
    pub(crate) async fn clubs_of(&self, user: &str) -> Result<Vec<Club>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {CLUB_COLUMNS} FROM clubs c \
             JOIN club_members m ON m.club_id = c.id WHERE m.user_id = $1 ORDER BY c.id"
        )))
        .bind(user)
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(club_row).collect()
    }

    /// The clubs, most members first, `limit` of them after the first `offset`, those whose
    /// name or description hold `text` (any case) when given; and how many there are.
    pub(crate) async fn clubs_listed(
        &self,
        text: Option<&str>,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<Club>, i64), StoreError> {
        let pattern = text.map(|t| {
            let escaped: String = t
                .to_lowercase()
                .chars()
                .flat_map(|c| match c {
                    '%' | '_' | '\\' => vec!['\\', c],
                    c => vec![c],
                })
                .collect();
            format!("%{escaped}%")
        });
        let filter = "($1 IS NULL OR LOWER(c.name) LIKE $1 ESCAPE '\\' \
                      OR LOWER(c.description) LIKE $1 ESCAPE '\\')";
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {CLUB_COLUMNS} FROM clubs c WHERE {filter} ORDER BY \
             (SELECT COUNT(*) FROM club_members m WHERE m.club_id = c.id) DESC, c.id \
             LIMIT $2 OFFSET $3"
        )))
        .bind(&pattern)
        .bind(limit)
        .bind(offset)
        .fetch_all(self.pool())
        .await?;
        let clubs = rows.iter().map(club_row).collect::<Result<Vec<_>, _>>()?;
        let count: i64 = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT COUNT(*) FROM clubs c WHERE {filter}"
        )))
        .bind(&pattern)
        .fetch_one(self.pool())
        .await?
        .try_get(0)?;
        Ok((clubs, count))
    }

    /// Changes club `club`'s description, openness and password.
    pub(crate) async fn set_club_rules(
        &self,
        club: &str,
        description: &str,
        open: bool,
        password: Option<&str>,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE clubs SET description = $1, open = $2, password = $3 WHERE id = $4")
            .bind(description)
            .bind(i32::from(open))
            .bind(password)
            .bind(club)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Writes the leaders' message to all of club `club`'s members (`None` takes it away).
    pub(crate) async fn set_club_message(
        &self,
        club: &str,
        message: Option<&str>,
        at: i64,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE clubs SET message = $1, message_at = $2 WHERE id = $3")
            .bind(message)
            .bind(message.map(|_| at))
            .bind(club)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Makes account `user` a leader of club `club` or not: whether he is a member.
    pub(crate) async fn set_leader(
        &self,
        club: &str,
        user: &str,
        leader: bool,
    ) -> Result<bool, StoreError> {
        let done =
            sqlx::query("UPDATE club_members SET leader = $1 WHERE club_id = $2 AND user_id = $3")
                .bind(i32::from(leader))
                .bind(club)
                .bind(user)
                .execute(self.pool())
                .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Account `user` asks to join club `club` (a second request replaces the first).
    pub(crate) async fn add_club_request(
        &self,
        club: &str,
        user: &str,
        message: &str,
        at: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO club_requests (club_id, user_id, message, created_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (club_id, user_id) \
             DO UPDATE SET message = excluded.message, created_at = excluded.created_at",
        )
        .bind(club)
        .bind(user)
        .bind(message)
        .bind(at)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Takes account `user`'s request to join club `club` away: whether there was one.
    pub(crate) async fn remove_club_request(
        &self,
        club: &str,
        user: &str,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM club_requests WHERE club_id = $1 AND user_id = $2")
            .bind(club)
            .bind(user)
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The requests to join club `club`, oldest first.
    pub(crate) async fn club_requests(&self, club: &str) -> Result<Vec<Request>, StoreError> {
        let rows = sqlx::query(
            "SELECT user_id, message, created_at FROM club_requests WHERE club_id = $1 \
             ORDER BY created_at, user_id",
        )
        .bind(club)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Request {
                    user_id: r.try_get(0)?,
                    message: r.try_get(1)?,
                    created_at: r.try_get(2)?,
                })
            })
            .collect()
    }

    /// The rated games that ended between two members of club `club`, oldest first.
    pub(crate) async fn club_games(&self, club: &str) -> Result<Vec<LadderGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.white_user, g.black_user, g.result, g.finished_at FROM games g \
             JOIN club_members w ON w.club_id = $1 AND w.user_id = g.white_user \
             JOIN club_members b ON b.club_id = $1 AND b.user_id = g.black_user \
             WHERE g.rated <> 0 AND g.status = 'over' AND g.result IN ('1-0', '0-1', '1/2-1/2') \
             ORDER BY g.finished_at, g.id",
        )
        .bind(club)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(LadderGame {
                    white: r.try_get(0)?,
                    black: r.try_get(1)?,
                    result: r.try_get(2)?,
                    finished_at: r.try_get::<Option<i64>, _>(3)?.unwrap_or(0),
                })
            })
            .collect()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Run on both backends by the store's suite.
    pub(crate) async fn suite(store: &Store) {
        let club = Club {
            id: "thursday-club".into(),
            name: "Thursday Club".into(),
            description: "We meet on Thursdays".into(),
            created_at: 10,
            created_by: "anna".into(),
            open: false,
            password: Some("rook".into()),
            message: None,
        };
        assert!(store.add_club(&club).await.unwrap());
        assert!(!store.add_club(&club).await.unwrap(), "the id is taken");
        assert_eq!(
            store.club("thursday-club").await.unwrap(),
            Some(club.clone())
        );
        assert_eq!(store.club("nosuch").await.unwrap(), None);
        store.join_club("thursday-club", "bo", 20).await.unwrap();
        store.join_club("thursday-club", "bo", 30).await.unwrap();
        let members = store.club_members("thursday-club").await.unwrap();
        assert_eq!(
            members,
            [
                Member {
                    user_id: "anna".into(),
                    leader: true,
                    joined_at: 10
                },
                Member {
                    user_id: "bo".into(),
                    leader: false,
                    joined_at: 20
                },
            ]
        );
        assert_eq!(
            store.membership("thursday-club", "anna").await.unwrap(),
            Some(true)
        );
        assert_eq!(
            store.membership("thursday-club", "bo").await.unwrap(),
            Some(false)
        );
        assert_eq!(store.membership("thursday-club", "cy").await.unwrap(), None);
        assert_eq!(
            store.clubs_of("bo").await.unwrap(),
            std::slice::from_ref(&club)
        );
        assert!(store.leave_club("thursday-club", "bo").await.unwrap());
        assert!(!store.leave_club("thursday-club", "bo").await.unwrap());
        assert!(store.clubs_of("bo").await.unwrap().is_empty());
        // Requests, rules, the message, leaders, the list and its search.
        store
            .add_club_request("thursday-club", "cy", "hello", 40)
            .await
            .unwrap();
        store
            .add_club_request("thursday-club", "cy", "hello again", 41)
            .await
            .unwrap();
        assert_eq!(
            store.club_requests("thursday-club").await.unwrap(),
            [Request {
                user_id: "cy".into(),
                message: "hello again".into(),
                created_at: 41
            }]
        );
        assert!(
            store
                .remove_club_request("thursday-club", "cy")
                .await
                .unwrap()
        );
        assert!(
            !store
                .remove_club_request("thursday-club", "cy")
                .await
                .unwrap()
        );
        store
            .set_club_rules("thursday-club", "Thursdays, 7pm", true, None)
            .await
            .unwrap();
        store
            .set_club_message("thursday-club", Some("Bring clocks"), 50)
            .await
            .unwrap();
        let c = store.club("thursday-club").await.unwrap().unwrap();
        assert!(c.open && c.password.is_none() && c.description == "Thursdays, 7pm");
        assert_eq!(c.message, Some(("Bring clocks".into(), 50)));
        assert!(
            store
                .set_leader("thursday-club", "anna", false)
                .await
                .unwrap()
        );
        assert!(
            !store
                .set_leader("thursday-club", "zed", true)
                .await
                .unwrap()
        );
        let other = Club {
            id: "rook-100%".into(),
            name: "Rook 100%".into(),
            description: "a_b".into(),
            ..club.clone()
        };
        assert!(store.add_club(&other).await.unwrap());
        let (all, n) = store.clubs_listed(None, 0, 10).await.unwrap();
        assert_eq!(n, 2);
        assert_eq!(all.len(), 2);
        let (found, n) = store.clubs_listed(Some("THURSDAY"), 0, 10).await.unwrap();
        assert_eq!((found.len(), n), (1, 1));
        assert_eq!(found[0].id, "thursday-club");
        let (found, _) = store.clubs_listed(Some("100%"), 0, 10).await.unwrap();
        assert_eq!(found.len(), 1, "a % is looked for as itself");
        let (found, _) = store.clubs_listed(Some("s,_7"), 0, 10).await.unwrap();
        assert!(found.is_empty(), "a _ is looked for as itself");
        let (page, n) = store.clubs_listed(None, 1, 10).await.unwrap();
        assert_eq!((page.len(), n), (1, 2));
    }
}
