//! Accounts, sessions, API tokens and reset links in the database (migration 0007). Every
//! secret arrives here already hashed (`accounts::tokens`, `accounts::password`): nothing in
//! these tables lets anyone in.

use sqlx::Row;

use super::{GameRow, Status, Store, StoreError, readable, storable};
use crate::accounts::Title;

/// An account as stored (its password hash apart).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct User {
    /// The name in lower case.
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) created_at: i64,
    pub(crate) seen_at: i64,
    pub(crate) title: Option<Title>,
    pub(crate) admin: bool,
    pub(crate) closed_at: Option<i64>,
    /// The account's settings, a JSON object (`http/account.rs` reads it).
    pub(crate) settings: String,
}

/// One of an account's sessions, as the sessions page lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Session {
    pub(crate) id: String,
    pub(crate) user_id: String,
    pub(crate) created_at: i64,
    pub(crate) used_at: i64,
    pub(crate) expires_at: i64,
    pub(crate) client: String,
}

/// A personal API token, as the tokens page lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ApiToken {
    pub(crate) id: String,
    pub(crate) user_id: String,
    pub(crate) description: String,
    /// Comma-separated scope names.
    pub(crate) scopes: String,
    pub(crate) created_at: i64,
    pub(crate) used_at: Option<i64>,
}

/// What an account can revoke.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Revocable {
    Session,
    Token,
}

/// Whose games: an account's (by id), or a name's with no account (anonymous and imported
/// players).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Whose<'a> {
    Account(&'a str),
    Name(&'a str),
}

/// Which of a player's finished games a list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Outcome {
    #[default]
    All,
    Won,
    Drawn,
    Lost,
}

/// A player's record: finished games won, drawn, lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Record {
    pub(crate) won: i64,
    pub(crate) drawn: i64,
    pub(crate) lost: i64,
}

const USER_COLUMNS: &str = "id, name, created_at, seen_at, title, admin, closed_at, settings";

fn user_row(r: &sqlx::any::AnyRow) -> Result<User, StoreError> {
    user_at(r, 0)
}

/// The user whose columns (`USER_COLUMNS`) begin at column `at`.
fn user_at(r: &sqlx::any::AnyRow, at: usize) -> Result<User, StoreError> {
    let title: Option<String> = r.try_get(at + 4)?;
    Ok(User {
        id: r.try_get(at)?,
        name: r.try_get(at + 1)?,
        created_at: r.try_get(at + 2)?,
        seen_at: r.try_get(at + 3)?,
        title: title.as_deref().and_then(Title::parse),
        admin: r.try_get::<i64, _>(at + 5)? != 0,
        closed_at: r.try_get(at + 6)?,
        settings: r.try_get(at + 7)?,
    })
}

/// The SQL that picks a player's side of a game: `g.white_user`/`g.black_user` for an
/// account, the names for anyone else.
pub(super) fn sides(whose: Whose<'_>) -> (&'static str, &'static str, &str) {
    match whose {
        Whose::Account(id) => ("g.white_user", "g.black_user", id),
        Whose::Name(name) => ("g.white_name", "g.black_name", name),
    }
}

impl Store {
    /// Sets one column of account `id`; false if there is no such account.
    async fn set_user<V>(
        &self,
        id: &str,
        column: &'static str,
        value: V,
    ) -> Result<bool, StoreError>
    where
        V: for<'q> sqlx::Encode<'q, sqlx::Any> + sqlx::Type<sqlx::Any> + Send,
    {
        let sql = format!("UPDATE users SET {column} = $1 WHERE id = $2");
        let done = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(value)
            .bind(id)
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Makes an account; false if the name (without regard to case) is taken, by an open or
    /// a closed account, or looks like one that is (`aIice` beside `alice`, `b0ss` beside
    /// `boss`: i, l and 1 alike, o and 0 alike).
    pub(crate) async fn create_user(
        &self,
        id: &str,
        name: &str,
        password_hash: &str,
        admin: bool,
        now: i64,
    ) -> Result<bool, StoreError> {
        // Refused too when an existing name looks the same (migration 0017's fold).
        let done = sqlx::query(
            "INSERT INTO users (id, name, password_hash, created_at, seen_at, admin) \
             SELECT $1, $2, $3, $4, $5, $6 WHERE NOT EXISTS (SELECT 1 FROM users WHERE \
             replace(replace(replace(lower(name), 'i', 'l'), '1', 'l'), '0', 'o') \
             = replace(replace(replace(lower($7), 'i', 'l'), '1', 'l'), '0', 'o')) \
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(id)
        .bind(name)
        .bind(password_hash)
        .bind(now)
        .bind(now)
        .bind(i64::from(admin))
        .bind(name)
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    pub(crate) async fn user(&self, id: &str) -> Result<Option<User>, StoreError> {
        if !storable(id) {
            return Ok(None);
        }
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(id.to_ascii_lowercase())
            .fetch_optional(self.pool())
            .await?;
        row.map(|r| user_row(&r)).transpose()
    }

    /// The stored password hash of an open account.
    pub(crate) async fn password_hash(&self, id: &str) -> Result<Option<String>, StoreError> {
        if !storable(id) {
            return Ok(None);
        }
        let row =
            sqlx::query("SELECT password_hash FROM users WHERE id = $1 AND closed_at IS NULL")
                .bind(id)
                .fetch_optional(self.pool())
                .await?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    /// A password changed by its owner: the new hash, and every session but `keep` ended
    /// and every API token revoked, in one transaction (whoever knew the old password may
    /// have made them).
    pub(crate) async fn change_password(
        &self,
        id: &str,
        hash: &str,
        keep: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
            .bind(hash)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id <> $2")
            .bind(id)
            .bind(keep)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM api_tokens WHERE user_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Accounts whose name contains `text` (any case), by name: `limit` from `offset`.
    pub(crate) async fn users(
        &self,
        text: &str,
        offset: i64,
        limit: i64,
    ) -> Result<Vec<User>, StoreError> {
        let pattern: String = text
            .to_ascii_lowercase()
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        let sql = format!(
            "SELECT {USER_COLUMNS} FROM users WHERE id LIKE $1 ORDER BY id LIMIT $2 OFFSET $3"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(format!("%{pattern}%"))
            .bind(limit)
            .bind(offset)
            .fetch_all(self.pool())
            .await?;
        rows.iter().map(user_row).collect()
    }

    /// Closes an account (`Some(now)`) or reopens it (`None`); closing ends its sessions and
    /// revokes its tokens in the same transaction.
    pub(crate) async fn set_closed(&self, id: &str, at: Option<i64>) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        let done = sqlx::query("UPDATE users SET closed_at = $1 WHERE id = $2")
            .bind(at)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        if at.is_some() {
            for sql in [
                "DELETE FROM sessions WHERE user_id = $1",
                "DELETE FROM api_tokens WHERE user_id = $1",
                "DELETE FROM password_resets WHERE user_id = $1",
            ] {
                sqlx::query(sql).bind(id).execute(&mut *tx).await?;
            }
        }
        tx.commit().await?;
        Ok(done.rows_affected() == 1)
    }

    pub(crate) async fn set_title(
        &self,
        id: &str,
        title: Option<Title>,
    ) -> Result<bool, StoreError> {
        self.set_user(id, "title", title.map(|t| t.as_str().to_owned()))
            .await
    }

    /// The open accounts with `title`.
    pub(crate) async fn users_titled(&self, title: Title) -> Result<Vec<User>, StoreError> {
        let sql = format!(
            "SELECT {USER_COLUMNS} FROM users WHERE title = $1 AND closed_at IS NULL ORDER BY id"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(title.as_str())
            .fetch_all(self.pool())
            .await?;
        rows.iter().map(|r| user_at(r, 0)).collect()
    }

    pub(crate) async fn set_admin(&self, id: &str, admin: bool) -> Result<bool, StoreError> {
        self.set_user(id, "admin", i64::from(admin)).await
    }

    pub(crate) async fn set_settings(&self, id: &str, json: &str) -> Result<(), StoreError> {
        self.set_user(id, "settings", json.to_owned())
            .await
            .map(drop)
    }

    // Sessions.

    pub(crate) async fn create_session(
        &self,
        session: &Session,
        token_hash: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO sessions (id, token_hash, user_id, created_at, used_at, expires_at, \
             client) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&session.id)
        .bind(token_hash)
        .bind(&session.user_id)
        .bind(session.created_at)
        .bind(session.used_at)
        .bind(session.expires_at)
        .bind(&session.client)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// The session of a token hash and its open account, if the session has not expired.
    pub(crate) async fn session(
        &self,
        token_hash: &str,
        now: i64,
    ) -> Result<Option<(Session, User)>, StoreError> {
        let sql = format!(
            "SELECT s.id, s.user_id, s.created_at, s.used_at, s.expires_at, s.client, {} \
             FROM sessions s JOIN users u ON u.id = s.user_id \
             WHERE s.token_hash = $1 AND s.expires_at > $2 AND u.closed_at IS NULL",
            prefixed("u.")
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(token_hash)
            .bind(now)
            .fetch_optional(self.pool())
            .await?;
        row.map(|r| Ok((session_row(&r)?, user_at(&r, 6)?)))
            .transpose()
    }

    /// Notes a session's use (and its account's: the sessions page and "last seen" read
    /// them) and moves its expiry to `expires_at`: a session in use stays open.
    pub(crate) async fn touch_session(
        &self,
        id: &str,
        user_id: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE sessions SET used_at = $1, expires_at = $2 WHERE id = $3")
            .bind(now)
            .bind(expires_at)
            .bind(id)
            .execute(self.pool())
            .await?;
        self.touch_user(user_id, now).await
    }

    pub(crate) async fn touch_user(&self, id: &str, now: i64) -> Result<(), StoreError> {
        self.set_user(id, "seen_at", now).await.map(drop)
    }

    /// An account's live sessions, the latest used first.
    pub(crate) async fn sessions_of(
        &self,
        user_id: &str,
        now: i64,
    ) -> Result<Vec<Session>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, user_id, created_at, used_at, expires_at, client FROM sessions \
             WHERE user_id = $1 AND expires_at > $2 ORDER BY used_at DESC, id",
        )
        .bind(user_id)
        .bind(now)
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(session_row).collect()
    }

    /// Ends the session of a token hash (log out).
    pub(crate) async fn end_session(&self, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Ends one session of an account (`Revocable::Session`) or revokes one of its API
    /// tokens, by public id; false if the account has no such one.
    pub(crate) async fn revoke(
        &self,
        what: Revocable,
        user_id: &str,
        id: &str,
    ) -> Result<bool, StoreError> {
        let table = match what {
            Revocable::Session => "sessions",
            Revocable::Token => "api_tokens",
        };
        let sql = format!("DELETE FROM {table} WHERE user_id = $1 AND id = $2");
        let done = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(user_id)
            .bind(id)
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Ends every session of an account but `keep` (log out everywhere else; `None`: all).
    pub(crate) async fn end_sessions(
        &self,
        user_id: &str,
        keep: Option<&str>,
    ) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id <> $2")
            .bind(user_id)
            .bind(keep.unwrap_or(""))
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected())
    }

    // API tokens.

    pub(crate) async fn create_token(
        &self,
        token: &ApiToken,
        token_hash: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO api_tokens (id, token_hash, user_id, description, scopes, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&token.id)
        .bind(token_hash)
        .bind(&token.user_id)
        .bind(&token.description)
        .bind(&token.scopes)
        .bind(token.created_at)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// The token of a hash and its open account.
    pub(crate) async fn token(
        &self,
        token_hash: &str,
    ) -> Result<Option<(ApiToken, User)>, StoreError> {
        let sql = format!(
            "SELECT t.id, t.user_id, t.description, t.scopes, t.created_at, t.used_at, {} \
             FROM api_tokens t JOIN users u ON u.id = t.user_id \
             WHERE t.token_hash = $1 AND u.closed_at IS NULL",
            prefixed("u.")
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(token_hash)
            .fetch_optional(self.pool())
            .await?;
        row.map(|r| Ok((token_row(&r)?, user_at(&r, 6)?)))
            .transpose()
    }

    pub(crate) async fn touch_token(&self, id: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE api_tokens SET used_at = $1 WHERE id = $2")
            .bind(now)
            .bind(id)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    pub(crate) async fn tokens_of(&self, user_id: &str) -> Result<Vec<ApiToken>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, user_id, description, scopes, created_at, used_at FROM api_tokens \
             WHERE user_id = $1 ORDER BY created_at DESC, id",
        )
        .bind(user_id)
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(token_row).collect()
    }

    // Password-reset links.

    pub(crate) async fn create_reset(
        &self,
        user_id: &str,
        token_hash: &str,
        expires_at: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO password_resets (token_hash, user_id, expires_at) VALUES ($1, $2, $3)",
        )
        .bind(token_hash)
        .bind(user_id)
        .bind(expires_at)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// The account a reset link is for, if it is unexpired and unused.
    pub(crate) async fn reset(
        &self,
        token_hash: &str,
        now: i64,
    ) -> Result<Option<String>, StoreError> {
        let row = sqlx::query(
            "SELECT user_id FROM password_resets WHERE token_hash = $1 AND expires_at > $2",
        )
        .bind(token_hash)
        .bind(now)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    /// Uses a reset link once: sets the password, removes every reset link, session and API
    /// token of the account, all in one transaction. `None` if the link was expired or already used.
    pub(crate) async fn use_reset(
        &self,
        token_hash: &str,
        password_hash: &str,
        now: i64,
    ) -> Result<Option<String>, StoreError> {
        let mut tx = self.pool().begin().await?;
        let row = sqlx::query(
            "DELETE FROM password_resets WHERE token_hash = $1 AND expires_at > $2 \
             RETURNING user_id",
        )
        .bind(token_hash)
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let user_id: String = row.try_get(0)?;
        sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
            .bind(password_hash)
            .bind(&user_id)
            .execute(&mut *tx)
            .await?;
        for sql in [
            "DELETE FROM password_resets WHERE user_id = $1",
            "DELETE FROM sessions WHERE user_id = $1",
            "DELETE FROM api_tokens WHERE user_id = $1",
        ] {
            sqlx::query(sql).bind(&user_id).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(Some(user_id))
    }

    // A player's games.

    /// A player's games, newest first: finished ones of the given outcome and time control
    /// (`None`: any) — or, with `Outcome::All` and no control, live ones too — `limit` from
    /// `offset`.
    pub(crate) async fn games_of(
        &self,
        whose: Whose<'_>,
        outcome: Outcome,
        control: Option<&str>,
        offset: i64,
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        let (white, black, key) = sides(whose);
        if !storable(key) || control.is_some_and(|c| !storable(c)) {
            return Ok(Vec::new());
        }
        let result = match outcome {
            Outcome::All => String::new(),
            Outcome::Won => format!(
                " AND (({white} = $1 AND g.result = '1-0') OR ({black} = $1 AND g.result = '0-1'))"
            ),
            Outcome::Lost => format!(
                " AND (({white} = $1 AND g.result = '0-1') OR ({black} = $1 AND g.result = '1-0'))"
            ),
            Outcome::Drawn => " AND g.result = '1/2-1/2'".to_owned(),
        };
        let sql = format!(
            "SELECT {} {} WHERE ({white} = $1 OR {black} = $1){result} \
             AND ($2 = '' OR g.time_control = $2) \
             ORDER BY g.created_at DESC, g.id DESC LIMIT $3 OFFSET $4",
            super::GAME_COLUMNS,
            super::GAMES_FROM,
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(key)
            .bind(control.unwrap_or(""))
            .bind(limit)
            .bind(offset)
            .fetch_all(self.pool())
            .await?;
        Ok(readable(&rows))
    }

    /// Finished games won, drawn and lost.
    pub(crate) async fn record_of(&self, whose: Whose<'_>) -> Result<Record, StoreError> {
        let (white, black, key) = sides(whose);
        if !storable(key) {
            return Ok(Record::default());
        }
        let sql = format!(
            "SELECT \
             COUNT(CASE WHEN ({white} = $1 AND g.result = '1-0') OR ({black} = $1 AND g.result = '0-1') THEN 1 END), \
             COUNT(CASE WHEN g.result = '1/2-1/2' THEN 1 END), \
             COUNT(CASE WHEN ({white} = $1 AND g.result = '0-1') OR ({black} = $1 AND g.result = '1-0') THEN 1 END) \
             FROM games g WHERE ({white} = $1 OR {black} = $1) AND g.status = $2"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(key)
            .bind(Status::Over.as_str())
            .fetch_one(self.pool())
            .await?;
        Ok(Record {
            won: row.try_get(0)?,
            drawn: row.try_get(1)?,
            lost: row.try_get(2)?,
        })
    }

    /// The time controls a player has played, most played first (the page's filter).
    pub(crate) async fn controls_of(&self, whose: Whose<'_>) -> Result<Vec<String>, StoreError> {
        let (white, black, key) = sides(whose);
        if !storable(key) {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT g.time_control, COUNT(*) AS n FROM games g \
             WHERE {white} = $1 OR {black} = $1 GROUP BY g.time_control \
             ORDER BY n DESC, g.time_control LIMIT 20"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(key)
            .fetch_all(self.pool())
            .await?;
        rows.iter()
            .map(|r| Ok(r.try_get(0)?))
            .collect::<Result<_, StoreError>>()
    }
}

/// A session from its six columns (`id, user_id, created_at, used_at, expires_at, client`).
fn session_row(r: &sqlx::any::AnyRow) -> Result<Session, StoreError> {
    Ok(Session {
        id: r.try_get(0)?,
        user_id: r.try_get(1)?,
        created_at: r.try_get(2)?,
        used_at: r.try_get(3)?,
        expires_at: r.try_get(4)?,
        client: r.try_get(5)?,
    })
}

fn token_row(r: &sqlx::any::AnyRow) -> Result<ApiToken, StoreError> {
    Ok(ApiToken {
        id: r.try_get(0)?,
        user_id: r.try_get(1)?,
        description: r.try_get(2)?,
        scopes: r.try_get(3)?,
        created_at: r.try_get(4)?,
        used_at: r.try_get(5)?,
    })
}

/// `USER_COLUMNS` with a table prefix.
fn prefixed(prefix: &str) -> String {
    USER_COLUMNS
        .split(", ")
        .map(|c| format!("{prefix}{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
pub(super) mod tests {
    //! Accounts on both backends (run by `store::tests`).

    use super::super::tests::{ended, game};
    use super::super::writer::EventWriter;
    use super::super::*;
    use super::{Outcome, Whose};

    /// Accounts, sessions, tokens, reset links and a player's games by account: the same
    /// on both backends. Secrets are stored only as hashes (read back from the tables).
    pub(in crate::store) async fn suite(store: &Store, writer: &EventWriter) {
        use crate::accounts::{Title, tokens};
        use crate::store::accounts::{ApiToken, Record, Revocable, Session};
        assert!(
            store
                .create_user("anna", "Anna", "$argon2id$h1", false, 100)
                .await
                .unwrap()
        );
        // Unique without regard to case: the id is the lower-case name.
        assert!(
            !store
                .create_user("anna", "ANNA", "$argon2id$h2", false, 101)
                .await
                .unwrap()
        );
        // Issue 50: nor a name that looks the same.
        assert!(
            store
                .create_user("alice", "alice", "$argon2id$h4", false, 101)
                .await
                .unwrap()
        );
        for (id, name) in [("aiice", "aIice"), ("a1ice", "a1ice"), ("allce", "aLlce")] {
            assert!(
                !store
                    .create_user(id, name, "$argon2id$h5", false, 101)
                    .await
                    .unwrap(),
                "{name} looks like alice"
            );
        }
        assert!(
            store
                .create_user("alicia", "alicia", "$argon2id$h6", false, 101)
                .await
                .unwrap(),
            "a name that only starts alike is fine"
        );
        assert!(
            store
                .create_user("bo", "Bo", "$argon2id$h3", true, 102)
                .await
                .unwrap()
        );
        let anna = store.user("Anna").await.unwrap().unwrap();
        assert_eq!(
            (anna.name.as_str(), anna.admin, anna.title),
            ("Anna", false, None)
        );
        assert!(store.user("bo").await.unwrap().unwrap().admin);
        assert!(store.user("nobody").await.unwrap().is_none());
        assert!(store.user("a\0b").await.unwrap().is_none());
        assert_eq!(
            store.password_hash("anna").await.unwrap().as_deref(),
            Some("$argon2id$h1")
        );

        // Sessions: found by the token's hash only, until they expire or end.
        let (token, hash) = tokens::new("rks_");
        let session = Session {
            id: "s1".into(),
            user_id: "anna".into(),
            created_at: 200,
            used_at: 200,
            expires_at: 1_000,
            client: "Firefox".into(),
        };
        store.create_session(&session, &hash).await.unwrap();
        let (found, user) = store.session(&hash, 500).await.unwrap().unwrap();
        assert_eq!((found, user.id.as_str()), (session.clone(), "anna"));
        assert!(
            store.session(&token, 500).await.unwrap().is_none(),
            "the clear token finds nothing"
        );
        assert!(
            store.session(&hash, 1_000).await.unwrap().is_none(),
            "expired"
        );
        store.touch_session("s1", "anna", 600, 5_000).await.unwrap();
        assert!(
            store.session(&hash, 2_000).await.unwrap().is_some(),
            "use extends it"
        );
        assert_eq!(store.user("anna").await.unwrap().unwrap().seen_at, 600);
        let stored: Vec<String> = sqlx::query_scalar("SELECT token_hash FROM sessions")
            .fetch_all(store.pool())
            .await
            .unwrap();
        assert!(stored.iter().all(|h| h.len() == 64 && !h.contains("rks_")));
        let (_, hash2) = tokens::new("rks_");
        let second = Session {
            id: "s2".into(),
            ..session.clone()
        };
        store.create_session(&second, &hash2).await.unwrap();
        assert_eq!(store.sessions_of("anna", 700).await.unwrap().len(), 2);
        assert!(
            store
                .revoke(Revocable::Session, "anna", "s2")
                .await
                .unwrap()
        );
        assert!(
            !store.revoke(Revocable::Session, "bo", "s1").await.unwrap(),
            "not bo's"
        );
        assert_eq!(store.end_sessions("anna", Some("s1")).await.unwrap(), 0);
        assert_eq!(store.end_sessions("anna", None).await.unwrap(), 1);
        assert!(store.session(&hash, 700).await.unwrap().is_none());

        // API tokens.
        let (api, api_hash) = tokens::new("rkp_");
        let row = ApiToken {
            id: "t1".into(),
            user_id: "bo".into(),
            description: "bot runner".into(),
            scopes: "bot:play,challenge:read".into(),
            created_at: 300,
            used_at: None,
        };
        store.create_token(&row, &api_hash).await.unwrap();
        assert_eq!(store.token(&api_hash).await.unwrap().unwrap().0, row);
        assert!(store.token(&api).await.unwrap().is_none());
        store.touch_token("t1", 400).await.unwrap();
        assert_eq!(store.tokens_of("bo").await.unwrap()[0].used_at, Some(400));
        assert!(!store.revoke(Revocable::Token, "anna", "t1").await.unwrap());

        // Reset links: once, before they expire; they end every session.
        let (_, reset_hash) = tokens::new("rkr_");
        store
            .create_reset("anna", &reset_hash, 5_000)
            .await
            .unwrap();
        store.create_session(&session, &hash).await.unwrap();
        assert_eq!(
            store.reset(&reset_hash, 4_000).await.unwrap().as_deref(),
            Some("anna")
        );
        assert!(store.reset(&reset_hash, 5_000).await.unwrap().is_none());
        assert_eq!(
            store
                .use_reset(&reset_hash, "$argon2id$new", 4_000)
                .await
                .unwrap()
                .as_deref(),
            Some("anna")
        );
        assert!(
            store
                .use_reset(&reset_hash, "$argon2id$again", 4_000)
                .await
                .unwrap()
                .is_none()
        );
        assert_eq!(
            store.password_hash("anna").await.unwrap().as_deref(),
            Some("$argon2id$new")
        );
        assert!(store.sessions_of("anna", 0).await.unwrap().is_empty());

        // Titles show on the games of the account, as they are now.
        assert!(store.set_title("anna", Some(Title::Wgm)).await.unwrap());
        let played = |id: &str, at: i64, white: Option<&str>| NewGame {
            white_user: white.map(str::to_owned),
            black_user: Some("bo".into()),
            white_name: white.map_or("Quiet Heron 4", |_| "Anna").into(),
            black_name: "Bo".into(),
            ..game(id, at)
        };
        store
            .create_game(&played("a1", 1_000, Some("anna")))
            .await
            .unwrap();
        store
            .create_game(&played("a2", 1_001, Some("anna")))
            .await
            .unwrap();
        store.create_game(&played("a3", 1_002, None)).await.unwrap();
        let a1 = store.game("a1").await.unwrap().unwrap();
        assert_eq!((a1.white_title, a1.black_title), (Some(Title::Wgm), None));
        assert_eq!(a1.game.white_user.as_deref(), Some("anna"));
        let end = |result| Ending {
            result,
            termination: Termination::Resignation,
        };
        writer
            .write(ended("a1", end(GameResult::WhiteWins), 1_100))
            .await
            .unwrap();
        writer
            .write(ended("a2", end(GameResult::BlackWins), 1_101))
            .await
            .unwrap();
        writer
            .write(ended("a3", end(GameResult::BlackWins), 1_102))
            .await
            .unwrap();
        assert_eq!(
            store.record_of(Whose::Account("bo")).await.unwrap(),
            Record {
                won: 2,
                drawn: 0,
                lost: 1
            }
        );
        assert_eq!(
            store.record_of(Whose::Account("anna")).await.unwrap(),
            Record {
                won: 1,
                drawn: 0,
                lost: 1
            }
        );
        let ids = |rows: Vec<GameRow>| rows.into_iter().map(|r| r.game.id).collect::<Vec<_>>();
        let won = store
            .games_of(Whose::Account("bo"), Outcome::Won, None, 0, 10)
            .await
            .unwrap();
        assert_eq!(ids(won), ["a3", "a2"]);
        let lost = store
            .games_of(Whose::Account("bo"), Outcome::Lost, Some("300+3"), 0, 10)
            .await
            .unwrap();
        assert_eq!(ids(lost), ["a1"]);
        let page2 = store
            .games_of(Whose::Account("bo"), Outcome::All, None, 1, 1)
            .await
            .unwrap();
        assert_eq!(ids(page2), ["a2"]);
        assert!(
            store
                .games_of(Whose::Account("bo"), Outcome::All, Some("60+0"), 0, 10)
                .await
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            store.controls_of(Whose::Account("bo")).await.unwrap(),
            ["300+3"]
        );
        let exported = store
            .finished_games_of(Whose::Account("anna"), None, 10)
            .await
            .unwrap();
        assert_eq!(ids(exported), ["a1", "a2"]);

        // Closing ends sessions and tokens; the name stays taken; reopening restores it.
        store.create_session(&session, &hash).await.unwrap();
        assert!(store.set_closed("bo", Some(9_000)).await.unwrap());
        assert!(store.token(&api_hash).await.unwrap().is_none());
        assert!(
            !store
                .create_user("bo", "BO", "$argon2id$x", false, 9_001)
                .await
                .unwrap()
        );
        assert!(store.password_hash("bo").await.unwrap().is_none());
        assert!(store.set_closed("bo", None).await.unwrap());
        assert!(store.password_hash("bo").await.unwrap().is_some());
        assert_eq!(store.users("B", 0, 10).await.unwrap().len(), 1);
        assert_eq!(
            store.users("", 0, 10).await.unwrap().len(),
            4,
            "anna, bo, alice, alicia"
        );
        store
            .set_settings("anna", r#"{"sound":false}"#)
            .await
            .unwrap();
        assert_eq!(
            store.user("anna").await.unwrap().unwrap().settings,
            r#"{"sound":false}"#
        );
    }
}
