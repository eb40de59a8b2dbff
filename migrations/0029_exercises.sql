-- Learning from one's own mistakes (issue 56, lichess's "learn from your mistakes"): an
-- account's progress on the exercises made from the mistakes and blunders of an analysed
-- game, one row an exercise (the ply of the mistake). `solved`: a good move was found before
-- the solution was shown; `shown`: the solution was shown; `tries`: moves tried.
CREATE TABLE exercise_progress (
    account    TEXT NOT NULL,
    game_id    TEXT NOT NULL,
    ply        INTEGER NOT NULL,
    solved     INTEGER NOT NULL,
    shown      INTEGER NOT NULL,
    tries      INTEGER NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (account, game_id, ply)
);
