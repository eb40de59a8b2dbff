-- Time given to the opponent (lichess's "+15 seconds", issue 54), in order, each as the giver's
-- colour and the moves played when it was given: `w12 b13` (White gave after 12 moves, Black
-- after 13). A restart replays each gift at its place among the moves; NULL: none.
ALTER TABLE games ADD COLUMN gifts TEXT;
