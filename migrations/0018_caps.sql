-- Caps on what one may hold (issue 50).
--
-- A game a guest made keeps the address it was made from (an IPv4 address, or an IPv6 /64:
-- `http/serve.rs` `client`) while it is live, so guests from one address may run only so
-- many at once; the writer clears it when the game ends. Partial indexes on live games
-- answer the caps and "is this account playing" without reading finished games.
ALTER TABLE games ADD COLUMN guest_address TEXT;
CREATE INDEX games_live_by_guest_address ON games (guest_address) WHERE status = 'live' AND guest_address IS NOT NULL;
CREATE INDEX games_live_by_white_user ON games (white_user) WHERE status = 'live';
CREATE INDEX games_live_by_black_user ON games (black_user) WHERE status = 'live';

-- Who asked for an analysis: an account (`u:` and its id) or a guest's address (`a:` and
-- the address), so each waits for only so many jobs at once; accounts' jobs are taken
-- first (`guest` 0), guests' after (1).
ALTER TABLE analyses ADD COLUMN requester TEXT;
ALTER TABLE analyses ADD COLUMN guest BIGINT NOT NULL DEFAULT 0;
CREATE INDEX analyses_waiting_by_requester ON analyses (requester) WHERE status <> 'done'
