-- A public seek may ask for an opponent within a rating range (docs/RATINGS.md): the
-- joiner's rating at the game's speed must lie within [rating_min, rating_max].
ALTER TABLE games ADD COLUMN rating_min BIGINT;
ALTER TABLE games ADD COLUMN rating_max BIGINT;
