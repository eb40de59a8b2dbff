-- Clubs' own rules (issue 53): open to all or by request (`open` 0 or 1), an optional
-- password to join, the leaders' message to all members (shown on their lobby) and when it
-- was written; the requests waiting for a leader's answer. And the arenas' chat.
ALTER TABLE clubs ADD COLUMN open INTEGER NOT NULL DEFAULT 1;
ALTER TABLE clubs ADD COLUMN password TEXT;
ALTER TABLE clubs ADD COLUMN message TEXT;
ALTER TABLE clubs ADD COLUMN message_at BIGINT;
CREATE TABLE club_requests (
    club_id    TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    message    TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (club_id, user_id)
);
CREATE INDEX club_requests_by_user ON club_requests (user_id);
-- An arena's chat: every logged-in reader of its page writes in it (lichess's tournament
-- chat); a line an admin deleted stays, marked.
CREATE TABLE tournament_chat (
    id            TEXT PRIMARY KEY,
    tournament_id TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    name          TEXT NOT NULL,
    text          TEXT NOT NULL,
    at            BIGINT NOT NULL,
    deleted       BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX tournament_chat_by_tournament ON tournament_chat (tournament_id, at)
