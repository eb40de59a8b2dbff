-- Computer analysis of finished games (docs/ANALYSIS.md): one row per game, requested once.
-- `evals` holds every position's evaluation, the start's first, as JSON: [cp, mate, best]
-- from White's side (cp or mate null; all null where the game is over), written when the
-- job is done. A queued or running job is picked up again after a restart.
CREATE TABLE analyses (
    game_id      TEXT PRIMARY KEY REFERENCES games (id),
    status       TEXT NOT NULL,       -- queued, running, done
    requested_at BIGINT NOT NULL,
    finished_at  BIGINT,
    nodes        BIGINT NOT NULL,     -- the search budget of each position
    evals        TEXT
);
CREATE INDEX analyses_by_status ON analyses (status);
