-- One vocabulary for how a game ended: the core's words (rookery-core's Termination::as_str)
-- for every game. Imported games kept their PGN Termination tag; each becomes the core's
-- word as Termination::from_pgn_tag reads it: a decisive "Normal" game was resigned, a drawn
-- one agreed, a '*' one is unterminated (or aborted, if "Abandoned").
UPDATE games SET result = '*' WHERE status = 'over' AND result IS NULL;
UPDATE games SET termination = CASE
    WHEN result = '*' AND lower(termination) = 'abandoned' THEN 'aborted'
    WHEN result = '*' THEN 'unterminated'
    WHEN lower(termination) = 'time forfeit' THEN 'time forfeit'
    WHEN lower(termination) = 'abandoned' THEN 'abandonment'
    WHEN result = '1/2-1/2' THEN 'agreement'
    ELSE 'resignation'
END
WHERE status = 'over' AND (termination IS NULL OR termination NOT IN (
    'checkmate', 'stalemate', 'insufficient material', 'fivefold repetition',
    'seventy-five-move rule', 'threefold repetition', 'fifty-move rule', 'agreement',
    'resignation', 'abandonment', 'time forfeit', 'aborted', 'unterminated'));

-- Rule state the moves do not show: the draw offers (R5; rookery-core's DrawOffers::to_text),
-- written with the event that changed them, so a restart resumes the game exactly.
ALTER TABLE games ADD COLUMN draw_offers TEXT;

-- How many times the game has been loaded into a room: each load numbers its events from a
-- new base (epoch x 10^9), so versions never repeat for a game (docs/PROTOCOL.md).
ALTER TABLE games ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;

-- One row the health check writes: a database that answers but cannot store is not healthy.
CREATE TABLE health (id INTEGER PRIMARY KEY, checked_at BIGINT NOT NULL);
INSERT INTO health (id, checked_at) VALUES (1, 0)
