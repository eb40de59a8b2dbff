-- Caps on live games (issue 50). A game a guest made keeps the address it was made from
-- (an IPv4 address, or an IPv6 /64: `http/serve.rs` `client`) while it is live, so guests
-- from one address may run only so many at once; the writer clears it when the game ends.
-- Partial indexes on live games answer the caps and "is this account playing" without
-- reading an account's finished games.
ALTER TABLE games ADD COLUMN guest_address TEXT;
CREATE INDEX games_live_by_guest_address ON games (guest_address) WHERE status = 'live' AND guest_address IS NOT NULL;
CREATE INDEX games_live_by_white_user ON games (white_user) WHERE status = 'live';
CREATE INDEX games_live_by_black_user ON games (black_user) WHERE status = 'live'
