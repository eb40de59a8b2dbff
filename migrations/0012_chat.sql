-- Game chat (docs/API.md): the players' room and the spectators' room of each game, kept with
-- the game. A line an admin deleted stays, marked, and is shown to nobody. A muted account
-- cannot write.
CREATE TABLE chat (
    id       TEXT PRIMARY KEY,
    game_id  TEXT NOT NULL REFERENCES games (id),
    room     TEXT NOT NULL,           -- player, spectator
    user_id  TEXT,                    -- the writer's account, if any
    name     TEXT NOT NULL,
    text     TEXT NOT NULL,
    at       BIGINT NOT NULL,
    deleted  BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX chat_by_game ON chat (game_id, at);
ALTER TABLE users ADD COLUMN chat_muted BIGINT NOT NULL DEFAULT 0;
