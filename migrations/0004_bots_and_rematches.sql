-- Bots and rematches. A bot seat holds a token nobody is given, plus the bot's level (1-8);
-- a person's seat has no level. A rematch points at the game it follows; the unique index
-- lets only one rematch follow a game, however the two players' requests interleave.
ALTER TABLE games ADD COLUMN white_bot INTEGER;
ALTER TABLE games ADD COLUMN black_bot INTEGER;
ALTER TABLE games ADD COLUMN rematch_of TEXT;
CREATE UNIQUE INDEX games_by_rematch_of ON games (rematch_of)
