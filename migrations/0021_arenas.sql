-- Arenas (issue 53) live beside the Swiss and round robins in `tournaments`, each row's JSON
-- read by its kind's code: `event` (crates/server/src/tournaments.rs) or `arena`
-- (crates/server/src/arenas.rs).
ALTER TABLE tournaments ADD COLUMN kind TEXT NOT NULL DEFAULT 'event';
CREATE INDEX tournaments_by_kind ON tournaments (kind, created_at);
-- Who went berserk in a game (bit 0 White, bit 1 Black), replayed with its moves, and whether
-- its arena allows it.
ALTER TABLE games ADD COLUMN berserk INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN berserkable INTEGER NOT NULL DEFAULT 0
