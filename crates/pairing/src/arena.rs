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

/// A pause: a player who withdraws from an arena under way is paused, kept in the standings
/// and not paired until he comes back, which he may do only after a delay (lila's
/// `Pause.scala`): 10 s after his first pause; after the next ones, as many fifteenths of the
/// game's estimated length (base + 40 increments) as pauses before, at least 10 s and at most
/// 120 s. Twenty minutes without a pause start the count again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pauses {
    /// Pauses counted (0: never paused, or counted afresh).
    pub count: u32,
    /// When the last began (ms).
    pub at: i64,
}

/// Twenty minutes without a pause forget the earlier ones.
pub const PAUSES_FORGOTTEN_MS: i64 = 20 * 60 * 1000;

impl Pauses {
    /// A new pause at `now`.
    #[must_use]
    pub fn paused(self, now: i64) -> Pauses {
        let count = if self.count == 0 || now - self.at >= PAUSES_FORGOTTEN_MS {
            1
        } else {
            self.count + 1
        };
        Pauses { count, at: now }
    }

    /// How long after the last pause the player must wait before coming back, for games
    /// estimated to last `estimate_s` seconds (base + 40 increments).
    pub fn delay_ms(self, estimate_s: u64) -> i64 {
        if self.count == 0 {
            return 0;
        }
        let step = i64::try_from(estimate_s / 15).unwrap_or(i64::MAX);
        step.saturating_mul(i64::from(self.count - 1))
            .clamp(10, 120)
            * 1000
    }

    /// The milliseconds still to wait at `now` (0: he may come back).
    pub fn remaining_ms(self, now: i64, estimate_s: u64) -> i64 {
        if self.count == 0 || now - self.at >= PAUSES_FORGOTTEN_MS {
            return 0;
        }
        (self.at + self.delay_ms(estimate_s) - now).max(0)
    }
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

/// A player's colours in the arena so far: `strike` is +n after n games in a row with White,
/// -n after n with Black; `balance` is his Whites minus his Blacks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Colours {
    pub strike: i32,
    pub balance: i32,
}

/// Games in a row with one colour that two players may not both have before meeting.
const MAX_STRIKE: i32 = 3;
/// Waiting players paired by the full matching at most, per group (lichess's 100).
const GROUP: usize = 100;

impl Colours {
    /// After one more game, with White or not.
    pub fn after(self, white: bool) -> Colours {
        if white {
            Colours {
                strike: self.strike.max(0) + 1,
                balance: self.balance + 1,
            }
        } else {
            Colours {
                strike: self.strike.min(0) - 1,
                balance: self.balance - 1,
            }
        }
    }

    /// Two players may meet unless both have had Black three times in a row, or both White.
    fn could_meet(self, other: Colours) -> bool {
        (self.strike > -MAX_STRIKE || other.strike > -MAX_STRIKE)
            && (self.strike < MAX_STRIKE || other.strike < MAX_STRIKE)
    }

    /// Whether this player takes White against `other`: the one with the shorter run of
    /// Whites (then the fewer Whites) does; `None` when they are alike (then by lot).
    fn white_against(self, other: Colours) -> Option<bool> {
        match (self.strike, self.balance).cmp(&(other.strike, other.balance)) {
            std::cmp::Ordering::Less => Some(true),
            std::cmp::Ordering::Greater => Some(false),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// A player waiting for his next game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Waiting {
    /// The caller's id for him.
    pub id: u64,
    /// His place in the standings now, from 1.
    pub rank: u32,
    pub rating: u32,
    /// Whom he played last, if anyone.
    pub last_opponent: Option<u64>,
    pub colours: Colours,
}

/// How an arena pairs its waiting players now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wave {
    /// The arena has just begun: neighbours in the standings (its first order) meet.
    First,
    /// Later: the matching below.
    Later,
    /// Only two players are active: they meet again and again.
    TwoAlone,
}

/// Pairs waiting players as lichess's arena does: at the start, neighbours by rank; later,
/// among up to a hundred players at a time, the pairs that keep ranks (and ratings) closest,
/// the top of the standings counting most (a rank gap costs 2,000 a place at the top, 300 at
/// the bottom, a rating point 1), never two players who just met (unless only they are
/// active) nor two who have both had one colour three times in a row; as many pairs as can
/// be made. More than a hundred waiting: the two best groups so, then neighbours by rank in
/// up to six more. Answers (white, black) by id; `coin` settles colours the histories leave
/// open.
pub fn pair(waiting: &[Waiting], wave: Wave, coin: &mut dyn FnMut() -> bool) -> Vec<(u64, u64)> {
    let mut players: Vec<Waiting> = waiting.to_vec();
    players.sort_by_key(|p| (p.rank, p.id));
    let mut pairs: Vec<(Waiting, Waiting)> = Vec::new();
    match wave {
        Wave::First => neighbours(&players, &mut pairs, false),
        Wave::TwoAlone => best(&players, true, &mut pairs),
        Wave::Later if players.len() <= GROUP => best(&players, false, &mut pairs),
        Wave::Later => {
            let group = (players.len() / 4 * 2).min(GROUP);
            best(&players[..group], false, &mut pairs);
            best(&players[group..2 * group], false, &mut pairs);
            let end = (8 * group).min(players.len());
            neighbours(&players[2 * group..end], &mut pairs, true);
        }
    }
    pairs
        .into_iter()
        .map(|(a, b)| {
            let a_white = if wave == Wave::First {
                coin()
            } else {
                a.colours
                    .white_against(b.colours)
                    .unwrap_or_else(&mut *coin)
            };
            if a_white { (a.id, b.id) } else { (b.id, a.id) }
        })
        .collect()
}

fn just_met(a: &Waiting, b: &Waiting) -> bool {
    a.last_opponent == Some(b.id) || b.last_opponent == Some(a.id)
}

/// Neighbours in rank order, two by two (with `careful`, a pair that just met or clashes in
/// colour is skipped: both wait for the next wave).
fn neighbours(players: &[Waiting], pairs: &mut Vec<(Waiting, Waiting)>, careful: bool) {
    for two in players.chunks_exact(2) {
        let (a, b) = (two[0], two[1]);
        if !careful || (!just_met(&a, &b) && a.colours.could_meet(b.colours)) {
            pairs.push((a, b));
        }
    }
}

/// The least costly matching of the most pairs among `players` (sorted by rank).
fn best(players: &[Waiting], two_alone: bool, pairs: &mut Vec<(Waiting, Waiting)>) {
    let n = players.len();
    if n < 2 {
        return;
    }
    let max_rank = players.iter().map(|p| p.rank).max().unwrap_or(1).max(1);
    let cost = |a: &Waiting, b: &Waiting| -> Option<u64> {
        if two_alone {
            return Some(1);
        }
        if just_met(a, b) || !a.colours.could_meet(b.colours) {
            return None;
        }
        let top = a.rank.min(b.rank);
        let factor = 300 + 1700 * u64::from(max_rank - top) / u64::from(max_rank);
        Some(u64::from(a.rank.abs_diff(b.rank)) * factor + u64::from(a.rating.abs_diff(b.rating)))
    };
    let costs: Vec<Vec<Option<u64>>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| (i != j).then(|| cost(&players[i], &players[j])).flatten())
                .collect()
        })
        .collect();
    let most = costs.iter().flatten().flatten().copied().max().unwrap_or(0);
    // One more pair always outweighs any saving in cost: the most pairs first, then the
    // cheapest of those.
    let top = most * (n as u64 / 2 + 1) + 1;
    let mut matcher = crate::matching::Matcher::<1>::new(n);
    for (i, row) in costs.iter().enumerate() {
        for (j, c) in row.iter().enumerate().skip(i + 1) {
            if let Some(c) = c {
                matcher.set_weight(i, j, crate::wide::Wide::from_u64(top - c));
            }
        }
    }
    matcher.solve();
    for i in 0..n {
        if let Some(j) = matcher.mate(i).filter(|&j| j > i) {
            pairs.push((players[i], players[j]));
        }
    }
}
