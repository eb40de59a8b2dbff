//! Game chat in the database (migration 0012): each line with its room, writer and time.

use sqlx::Row;

use super::{Store, StoreError};

/// Which of a game's two chats: its players', or its spectators' (each sees only its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum ChatRoom {
    Players,
    Spectators,
}

impl ChatRoom {
    /// lichess's word: `player`, `spectator`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            ChatRoom::Players => "player",
            ChatRoom::Spectators => "spectator",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<ChatRoom> {
        match text {
            "player" => Some(ChatRoom::Players),
            "spectator" => Some(ChatRoom::Spectators),
            _ => None,
        }
    }
}

/// One line of chat (serde: as nodes pass it on, cluster mode).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct ChatLine {
    pub(crate) id: String,
    pub(crate) game_id: String,
    pub(crate) room: ChatRoom,
    pub(crate) user_id: Option<String>,
    pub(crate) name: String,
    pub(crate) text: String,
    pub(crate) at: i64,
}

impl Store {
    pub(crate) async fn add_chat(&self, line: &ChatLine) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO chat (id, game_id, room, user_id, name, text, at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&line.id)
        .bind(&line.game_id)
        .bind(line.room.as_str())
        .bind(line.user_id.clone())
        .bind(&line.name)
        .bind(&line.text)
        .bind(line.at)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Writes a line of tournament `tournament`'s chat (`line.game_id` is ignored; its
    /// writer is an account).
    pub(crate) async fn add_tournament_chat(
        &self,
        tournament: &str,
        line: &ChatLine,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tournament_chat (id, tournament_id, user_id, name, text, at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&line.id)
        .bind(tournament)
        .bind(line.user_id.as_deref().unwrap_or(""))
        .bind(&line.name)
        .bind(&line.text)
        .bind(line.at)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Tournament `tournament`'s last `limit` chat lines, oldest first: (id, name, text, at).
    pub(crate) async fn tournament_chat(
        &self,
        tournament: &str,
        limit: i64,
    ) -> Result<Vec<(String, String, String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, name, text, at FROM tournament_chat \
             WHERE tournament_id = $1 AND deleted = 0 ORDER BY at DESC, id DESC LIMIT $2",
        )
        .bind(tournament)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        let mut lines = rows
            .iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?)))
            .collect::<Result<Vec<_>, StoreError>>()?;
        lines.reverse();
        Ok(lines)
    }

    /// A game's lines in one room, oldest first (deleted ones left out).
    pub(crate) async fn chat_of(
        &self,
        game_id: &str,
        room: ChatRoom,
    ) -> Result<Vec<ChatLine>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, user_id, name, text, at FROM chat \
             WHERE game_id = $1 AND room = $2 AND deleted = 0 ORDER BY at, id",
        )
        .bind(game_id)
        .bind(room.as_str())
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ChatLine {
                    id: r.try_get(0)?,
                    game_id: game_id.to_owned(),
                    room,
                    user_id: r.try_get(1)?,
                    name: r.try_get(2)?,
                    text: r.try_get(3)?,
                    at: r.try_get(4)?,
                })
            })
            .collect()
    }

    /// The latest lines of every game, newest first (deleted ones left out), for moderation.
    pub(crate) async fn recent_chat(&self, limit: i64) -> Result<Vec<ChatLine>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, game_id, room, user_id, name, text, at FROM chat \
             WHERE deleted = 0 ORDER BY at DESC, id DESC LIMIT $1",
        )
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                let room: String = r.try_get(2)?;
                Ok(ChatLine {
                    id: r.try_get(0)?,
                    game_id: r.try_get(1)?,
                    room: ChatRoom::parse(&room).unwrap_or(ChatRoom::Spectators),
                    user_id: r.try_get(3)?,
                    name: r.try_get(4)?,
                    text: r.try_get(5)?,
                    at: r.try_get(6)?,
                })
            })
            .collect()
    }

    /// An admin deletes a line: it stays in the table, marked with when, and is shown to
    /// nobody from then on. `false` when there is no such line (or it was deleted already).
    pub(crate) async fn delete_chat(&self, id: &str, at: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE chat SET deleted = $1 WHERE id = $2 AND deleted = 0")
            .bind(at)
            .bind(id)
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// An admin mutes (`true`) or unmutes an account. `false` when there is no such account.
    pub(crate) async fn set_chat_muted(
        &self,
        user_id: &str,
        muted: bool,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE users SET chat_muted = $1 WHERE id = $2")
            .bind(i64::from(muted))
            .bind(user_id)
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Whether an account may not write in chats.
    pub(crate) async fn chat_muted(&self, user_id: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT chat_muted FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row
            .map(|r| r.try_get::<i64, _>(0))
            .transpose()?
            .is_some_and(|m| m != 0))
    }
}
