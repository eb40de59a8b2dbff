-- The time each move was charged, so that a restart replays the clocks exactly, whatever
-- time passed while the server was down.
ALTER TABLE moves ADD COLUMN elapsed_ms BIGINT NOT NULL DEFAULT 0
