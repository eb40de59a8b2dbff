-- The network lag credited to each move (docs/RULES.md R6, lag compensation), so that a
-- restart replays every side's lag quota exactly as well as its clock.
ALTER TABLE moves ADD COLUMN lag_ms BIGINT NOT NULL DEFAULT 0
