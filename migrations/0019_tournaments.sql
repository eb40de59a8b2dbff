-- Tournaments run by Rookery (issue 52): each one's players, rounds, boards and results as
-- JSON (crates/server/src/tournaments.rs), with its arbiter's account. A change is one UPDATE
-- that names the version it read: two nodes changing the same tournament at once cannot
-- both win, and the one that loses reads it again. `active` (0 or 1): an online tournament
-- with a round under way, which every node's keeper looks at every few seconds.
CREATE TABLE tournaments (
    id         TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    version    BIGINT NOT NULL,
    active     INTEGER NOT NULL,
    body       TEXT NOT NULL
);
CREATE INDEX tournaments_by_owner ON tournaments (owner);
CREATE INDEX tournaments_active ON tournaments (active)
