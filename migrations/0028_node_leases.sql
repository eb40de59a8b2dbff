-- One lease per node (issue 55): a node renews its own row in `nodes`, and every game it
-- holds (`games.owner`, its `lease_until` then the largest BIGINT) is held for as long as that
-- row is alive, so lease writes grow with nodes, not games. A game nobody holds (released,
-- asleep) keeps its own `lease_until`: until then no look takes it.
CREATE TABLE nodes (
    name        TEXT PRIMARY KEY,
    alive_until BIGINT NOT NULL
);
CREATE INDEX games_by_owner ON games (owner) WHERE owner IS NOT NULL
