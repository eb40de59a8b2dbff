-- Hibernating games (issue 55): a live game nobody has been connected to for a while has no
-- room in memory; `wake_at` (ms since the epoch) is when it must be loaded again to keep time
-- (its flag, its abandonment), written by the room that went to sleep and cleared by the next
-- load. NULL: the game is awake, or never slept. In cluster mode a sleeping game has no owner
-- and its `lease_until` is `wake_at`, so the nodes' look for unowned games takes it when due.
ALTER TABLE games ADD COLUMN wake_at BIGINT;
CREATE INDEX games_sleeping ON games (wake_at) WHERE status = 'live' AND wake_at IS NOT NULL
