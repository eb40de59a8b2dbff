-- Seats: the unguessable token of each player's seat (bound to the browser by an HttpOnly
-- cookie). A NULL seat is open: the first visitor of the challenge link takes it.
ALTER TABLE games ADD COLUMN white_seat TEXT;
ALTER TABLE games ADD COLUMN black_seat TEXT
