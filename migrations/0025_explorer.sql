-- The explorer of Rookery's own games (issue 54): for each finished game, its first 30
-- positions (the Zobrist key of the position, as a signed 64-bit number), the move played
-- from each and the game's result. The analysis board asks which moves were played from its
-- position and how they scored. Written with a game's end and with an import; games that
-- ended before this migration are not in it.
CREATE TABLE explorer (
    position BIGINT NOT NULL,
    game_id  TEXT NOT NULL,
    next     TEXT NOT NULL,
    result   TEXT NOT NULL
);
CREATE INDEX explorer_by_position ON explorer (position);
