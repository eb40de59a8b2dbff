//! An arena's scoring, by lichess's rules (its arena FAQ, and lila's `arena/ArenaSheet.scala`
//! and `Pairing.scala` for the exact thresholds):
//!
//! - A win is worth 2, a draw 1, a loss 0.
//! - Two wins in a row put a player "on fire" (a streak): each game after them is worth double
//!   (a win 4, a draw 2) until a game is not won. An arena may turn streaks off.
//! - Berserk (half one's clock, no increment) adds 1 to a win, not doubled, if the game lasted
//!   at least 14 plies (seven moves each); a berserk game lost or drawn gains nothing.
//! - A draw in fewer than 20 plies (ten moves each) scores nothing, and neither does a draw of
//!   under 60 plies (thirty moves each) that follows the player's last draw with only losses
//!   between: short draws in a row count once.
//! - The standings rank by score, then by performance (the average of each opponent's rating
//!   plus 500 for a win and minus 500 for a loss), the rating standing in for a performance
//!   not known yet.
//!
//! Pure, like the rest of the crate: the server keeps the games and calls [`Sheet::add`].

/// A finished game from one player's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Game {
    pub outcome: Outcome,
    /// Half-moves played.
    pub plies: u32,
    /// The player went berserk.
    pub berserk: bool,
}

/// A game's result for the player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// How a game counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flag {
    /// A draw that scores nothing: too quick, or a short one after a draw.
    Nothing,
    Normal,
    /// Played on fire: worth double.
    Double,
}

/// One game on a player's sheet, as it counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Score {
    pub game: Game,
    pub flag: Flag,
    /// The berserk point was earned.
    pub berserk_point: bool,
    pub points: u32,
}

/// Fewer plies than this make a draw "quick": it scores nothing.
pub const QUICK_DRAW_PLIES: u32 = 20;
/// A berserk win needs this many plies for its point.
pub const BERSERK_PLIES: u32 = 14;
/// A draw of this many plies or more counts even right after another draw.
pub const LONG_GAME_PLIES: u32 = 60;
/// A win's and a loss's weight in the performance.
const PERFORMANCE_STEP: i64 = 500;

/// A player's sheet: his games as they counted, oldest first, and his score.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sheet {
    pub scores: Vec<Score>,
    pub total: u32,
}

impl Sheet {
    /// Whether the player's next game counts double (his last two games were won).
    pub fn on_fire(&self) -> bool {
        let n = self.scores.len();
        n >= 2
            && self.scores[n - 2..]
                .iter()
                .all(|s| s.game.outcome == Outcome::Win)
    }

    /// Whether the player's last game that was not lost was a draw (a short draw then counts
    /// nothing).
    fn after_a_draw(&self) -> bool {
        self.scores
            .iter()
            .rev()
            .find(|s| s.game.outcome != Outcome::Loss)
            .is_some_and(|s| s.game.outcome == Outcome::Draw)
    }

    /// Counts one more game; `streaks`: whether the arena doubles on fire.
    pub fn add(&mut self, game: Game, streaks: bool) -> Score {
        let fire = streaks && self.on_fire();
        let flag = match game.outcome {
            Outcome::Draw if game.plies < QUICK_DRAW_PLIES => Flag::Nothing,
            Outcome::Draw if fire => Flag::Double,
            Outcome::Draw if game.plies < LONG_GAME_PLIES && self.after_a_draw() => Flag::Nothing,
            Outcome::Win if fire => Flag::Double,
            _ => Flag::Normal,
        };
        let base = match (game.outcome, flag) {
            (_, Flag::Nothing) | (Outcome::Loss, _) => 0,
            (Outcome::Win, Flag::Double) => 4,
            (Outcome::Win, _) | (Outcome::Draw, Flag::Double) => 2,
            (Outcome::Draw, _) => 1,
        };
        let berserk_point =
            game.berserk && game.outcome == Outcome::Win && game.plies >= BERSERK_PLIES;
        let score = Score {
            game,
            flag,
            berserk_point,
            points: base + u32::from(berserk_point),
        };
        self.scores.push(score);
        self.total += score.points;
        score
    }
}

/// A player's performance: the average over his games of the opponent's rating, plus 500 for
/// a win and minus 500 for a loss (whole points, rounded down); `None` without games.
pub fn performance(games: &[(u32, Outcome)]) -> Option<i64> {
    if games.is_empty() {
        return None;
    }
    let sum: i64 = games
        .iter()
        .map(|&(rating, outcome)| {
            i64::from(rating)
                + match outcome {
                    Outcome::Win => PERFORMANCE_STEP,
                    Outcome::Draw => 0,
                    Outcome::Loss => -PERFORMANCE_STEP,
                }
        })
        .sum();
    Some(sum.div_euclid(games.len() as i64))
}

/// The order of the standings: by score, then by performance (the rating where there is
/// none), then by the order given (who joined first). Answers indexes into `players`, best
/// first; each player is (score, performance, rating).
pub fn standings(players: &[(u32, Option<i64>, u32)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by_key(|&i| {
        let (score, performance, rating) = players[i];
        let tie = performance.filter(|p| *p > 0).unwrap_or(i64::from(rating));
        (std::cmp::Reverse(score), std::cmp::Reverse(tie), i)
    });
    order
}
