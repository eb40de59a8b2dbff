-- Work that one node at a time does for the whole cluster (issue 41).
--
-- `roles`: a cluster-wide role (the pairing authority of the quick-pairing pools) held by
-- one node until `lease_until` (ms since the epoch) and renewed by it; taking it raises
-- `epoch`, and a holder whose renewal no longer matches its epoch has lost it.
CREATE TABLE roles (
    name        TEXT PRIMARY KEY,
    holder      TEXT NOT NULL,
    lease_until BIGINT NOT NULL,
    epoch       BIGINT NOT NULL
);
-- Analysis jobs are claimed by a node's worker (`worker`) until `claimed_until`, renewed as
-- the job goes on; a job whose claim ran out (its node died) is claimed again elsewhere.
-- `done_positions`/`total_positions` show its progress on every node.
ALTER TABLE analyses ADD COLUMN worker TEXT;
ALTER TABLE analyses ADD COLUMN claimed_until BIGINT NOT NULL DEFAULT 0;
ALTER TABLE analyses ADD COLUMN done_positions BIGINT;
ALTER TABLE analyses ADD COLUMN total_positions BIGINT;
-- Every node looks for live games nobody holds every second: only live games are indexed.
CREATE INDEX games_live_by_lease ON games (lease_until) WHERE status = 'live'
