-- Clubs' own rules (issue 53): open to all or by request (`open` 0 or 1), an optional
-- password to join, the leaders' message to all members (shown on their lobby) and when it
-- was written; the requests waiting for a leader's answer.
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
CREATE INDEX club_requests_by_user ON club_requests (user_id)
