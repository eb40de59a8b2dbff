-- Accounts (docs/ACCOUNTS.md). A user's id is the name in lower case: names are unique
-- without regard to case, and a closed account keeps its row, so its name is never taken
-- again. Secrets are stored only as hashes: the password as an Argon2id PHC string, session
-- and API tokens and reset links as SHA-256 of the token (hex).
CREATE TABLE users (
    id            TEXT PRIMARY KEY,         -- lower-case name
    name          TEXT NOT NULL,            -- as the user wrote it
    password_hash TEXT NOT NULL,            -- Argon2id, PHC string
    created_at    BIGINT NOT NULL,          -- ms since the Unix epoch
    seen_at       BIGINT NOT NULL,
    title         TEXT,                     -- GM, IM, FM, WGM, WIM, NM, CM (admin-granted)
    admin         BIGINT NOT NULL DEFAULT 0,
    closed_at     BIGINT,                   -- set: the account is closed
    settings      TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE sessions (
    id            TEXT PRIMARY KEY,         -- a public handle (the sessions page revokes by it)
    token_hash    TEXT NOT NULL UNIQUE,
    user_id       TEXT NOT NULL REFERENCES users (id),
    created_at    BIGINT NOT NULL,
    used_at       BIGINT NOT NULL,
    expires_at    BIGINT NOT NULL,
    client        TEXT NOT NULL             -- the browser's User-Agent, cut short
);
CREATE INDEX sessions_by_user ON sessions (user_id);

CREATE TABLE api_tokens (
    id            TEXT PRIMARY KEY,
    token_hash    TEXT NOT NULL UNIQUE,
    user_id       TEXT NOT NULL REFERENCES users (id),
    description   TEXT NOT NULL,
    scopes        TEXT NOT NULL,            -- comma-separated, lichess's scope names
    created_at    BIGINT NOT NULL,
    used_at       BIGINT
);
CREATE INDEX api_tokens_by_user ON api_tokens (user_id);

CREATE TABLE password_resets (
    token_hash    TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users (id),
    expires_at    BIGINT NOT NULL
);

-- The account that holds each seat (NULL: an anonymous player, a bot, an imported name).
ALTER TABLE games ADD COLUMN white_user TEXT;
ALTER TABLE games ADD COLUMN black_user TEXT;
CREATE INDEX games_by_white_user ON games (white_user, created_at);
CREATE INDEX games_by_black_user ON games (black_user, created_at)
