-- An imported game keeps the tags it came with (issue 54): its own Event, Site, Date, Round,
-- players' titles and ratings and every other tag, as a JSON array of [name, value] pairs in
-- the order it had them. Its PGN and score sheet say them; NULL for a game played here.
ALTER TABLE games ADD COLUMN tags TEXT;
