-- Ratings (docs/RATINGS.md): Glicko-2 per account and speed, the seeds' ladder points (R8),
-- and every change a rated game made. A change is keyed by game and account: the primary key
-- is what makes a game's rating change happen once, whatever crashes and restarts come; it is
-- written in the same transaction as the game's end.
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;

CREATE TABLE ratings (
    user_id     TEXT NOT NULL REFERENCES users (id),
    speed       TEXT NOT NULL,              -- ultrabullet, bullet, blitz, rapid, classical
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    games       BIGINT NOT NULL,
    rated_at    BIGINT NOT NULL,            -- ms: the last rated game's end
    PRIMARY KEY (user_id, speed)
);
CREATE INDEX ratings_by_speed ON ratings (speed, rating);

CREATE TABLE ladder (
    user_id     TEXT PRIMARY KEY REFERENCES users (id),
    points      BIGINT NOT NULL,            -- hundredths of a point
    games       BIGINT NOT NULL
);

CREATE TABLE rating_changes (
    game_id     TEXT NOT NULL REFERENCES games (id),
    user_id     TEXT NOT NULL REFERENCES users (id),
    speed       TEXT NOT NULL,
    at          BIGINT NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    deviation_before DOUBLE PRECISION NOT NULL,
    volatility_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    deviation_after DOUBLE PRECISION NOT NULL,
    volatility_after DOUBLE PRECISION NOT NULL,
    ladder_before BIGINT NOT NULL,
    ladder_after BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rating_changes_by_user ON rating_changes (user_id, speed, at)
