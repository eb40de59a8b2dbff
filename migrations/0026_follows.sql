-- Following (issue 54, lichess's "follow"): who follows whom and since when. A follower's
-- lobby lists the players they follow who are online, with their games under way, and a
-- player's page its activity says whom they started following.
CREATE TABLE follows (
    follower   TEXT NOT NULL,
    followed   TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (follower, followed)
);
CREATE INDEX follows_by_followed ON follows (followed);
