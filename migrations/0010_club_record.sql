-- A game for club play carries what its score sheet names (seed 003, docs/RULES.md R7): the
-- event, the round and the table. They are set when the game is created and written into its
-- PGN (Event, Round, Board) and onto its score sheet (/game/{id}/sheet).
ALTER TABLE games ADD COLUMN event TEXT;
ALTER TABLE games ADD COLUMN round TEXT;
ALTER TABLE games ADD COLUMN board TEXT;
