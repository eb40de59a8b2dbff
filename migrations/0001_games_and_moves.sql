-- Games and their moves: the store holds the truth; everything else (legal moves, FEN,
-- repetition) is derived by replaying the moves through rookery-core (DESIGN: State and recovery).
-- One file for both backends: the types used mean the same in SQLite and PostgreSQL.

CREATE TABLE games (
    id            TEXT PRIMARY KEY,
    created_at    BIGINT NOT NULL,          -- ms since the Unix epoch
    start_fen     TEXT,                     -- NULL: the standard start
    time_control  TEXT NOT NULL,            -- PGN TimeControl syntax
    white_name    TEXT NOT NULL,
    black_name    TEXT NOT NULL,
    status        TEXT NOT NULL,            -- 'live' or 'over'
    result        TEXT,                     -- '1-0', '0-1', '1/2-1/2', '*'
    termination   TEXT,
    finished_at   BIGINT
);

CREATE TABLE moves (
    game_id       TEXT NOT NULL REFERENCES games (id),
    ply           INTEGER NOT NULL,         -- 1-based
    uci           TEXT NOT NULL,
    san           TEXT NOT NULL,
    clock_ms      BIGINT,                   -- the mover's time left after the move
    at_ms         BIGINT NOT NULL,          -- when the move was made
    PRIMARY KEY (game_id, ply)
);

CREATE INDEX games_by_status ON games (status);
