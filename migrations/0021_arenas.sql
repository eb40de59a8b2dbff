-- Arenas (issue 53) live beside the Swiss and round robins in `tournaments`, each row's JSON
-- read by its kind's code: `event` (crates/server/src/tournaments.rs) or `arena`
-- (crates/server/src/arenas.rs).
ALTER TABLE tournaments ADD COLUMN kind TEXT NOT NULL DEFAULT 'event';
CREATE INDEX tournaments_by_kind ON tournaments (kind, created_at)
