-- Clubs (lichess's teams; issue 52 needs one that a tournament belongs to, issue 53 builds the
-- rest): a club, its members (`leader` 0 or 1), the club a tournament belongs to, and the
-- tournament a game belongs to.
CREATE TABLE clubs (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    description TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    created_by  TEXT NOT NULL
);
CREATE TABLE club_members (
    club_id   TEXT NOT NULL,
    user_id   TEXT NOT NULL,
    leader    INTEGER NOT NULL,
    joined_at BIGINT NOT NULL,
    PRIMARY KEY (club_id, user_id)
);
CREATE INDEX club_members_by_user ON club_members (user_id);
ALTER TABLE tournaments ADD COLUMN club TEXT;
-- A tournament's game names its tournament (lichess's `source`: swiss).
ALTER TABLE games ADD COLUMN tournament TEXT;
CREATE INDEX tournaments_by_club ON tournaments (club)
