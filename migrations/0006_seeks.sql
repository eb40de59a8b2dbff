-- A public seek is listed in the lobby for anyone to join; a game "for a friend" is reached by
-- its link only (1 / 0: an integer, which SQLite and PostgreSQL read alike).
ALTER TABLE games ADD COLUMN seek BIGINT NOT NULL DEFAULT 0
