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
    })
}

impl Store {
    /// Makes club `id`, account `by` its leader, in one transaction: whether it was made
    /// (`false`: the id is taken).
    pub(crate) async fn add_club(&self, club: &Club) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        let made = sqlx::query(
            "INSERT INTO clubs (id, name, description, created_at, created_by) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING",
        )
        .bind(&club.id)
        .bind(&club.name)
        .bind(&club.description)
        .bind(club.created_at)
        .bind(&club.created_by)
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
        let row = sqlx::query(
            "SELECT id, name, description, created_at, created_by FROM clubs WHERE id = $1",
        )
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
        let rows = sqlx::query(
            "SELECT c.id, c.name, c.description, c.created_at, c.created_by FROM clubs c \
             JOIN club_members m ON m.club_id = c.id WHERE m.user_id = $1 ORDER BY c.id",
        )
        .bind(user)
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(club_row).collect()
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
        assert_eq!(store.clubs_of("bo").await.unwrap(), [club]);
        assert!(store.leave_club("thursday-club", "bo").await.unwrap());
        assert!(!store.leave_club("thursday-club", "bo").await.unwrap());
        assert!(store.clubs_of("bo").await.unwrap().is_empty());
    }
}
