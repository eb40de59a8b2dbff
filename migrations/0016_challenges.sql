-- Challenges between accounts waiting for an answer (lichess's challenge API), stored so
-- that every node of a cluster sees them and a restart keeps them (issue 41). `body` is the
-- challenge as JSON (crates/server/src/challenges.rs); a challenge goes after 20 minutes.
-- Taking one out (accept, decline, cancel) is one DELETE: only one answer wins.
CREATE TABLE challenges (
    id         TEXT PRIMARY KEY,
    challenger TEXT NOT NULL,
    dest       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    body       TEXT NOT NULL
);
CREATE INDEX challenges_by_challenger ON challenges (challenger);
CREATE INDEX challenges_by_dest ON challenges (dest)
