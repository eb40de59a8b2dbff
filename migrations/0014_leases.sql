-- Several nodes on one database (issue 41): each live game's room runs on one node, which
-- holds a lease on it until `lease_until` (ms since the epoch) and renews it. A node takes a
-- game by raising its `epoch` (the fencing number, already counting loads into rooms); every
-- write of a node that asks for fencing is conditional on the epoch it took, so an old owner
-- that was paused or cut off can never write after another node took the game over.
ALTER TABLE games ADD COLUMN owner TEXT;
ALTER TABLE games ADD COLUMN lease_until BIGINT NOT NULL DEFAULT 0
