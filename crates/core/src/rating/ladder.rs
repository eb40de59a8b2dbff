//! The seeds' ladder (seed 004, 等級分記分方法; docs/RULES.md R8): zero-sum points, the loser
//! losing what the winner gains, by the difference of the two players' points:
//!
//! | difference d | draw | the lower-rated wins | the higher-rated wins |
//! |---|---|---|---|
//! | d < 10 | nothing | 10 | 10 |
//! | 10 <= d < 100 | lower gains (10 + d/10) / 2 | 10 + d/10 | 10 - d/12.5 |
//! | 100 <= d < 200 | lower gains d/4 | d/2 | 2 |
//! | d >= 200 | lower gains d/4 | d/2 | nothing |
//!
//! Classes (级别) are 100 points each: below 100 a player is unclassed (无级别), then 30级 at
//! 100, 29级 at 200, ... 1级 at 3,000 and above. Rookery's decisions where the seed is silent
//! (R8): everyone starts at 0, and points may fall below 0 (still unclassed), so the ladder
//! stays zero-sum. Points are kept in hundredths, each change rounded to a hundredth (half away
//! from zero), the same amount added to one side and taken from the other.

/// Ladder points, in hundredths (`1050` is 10.50 points).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct LadderPoints(pub i64);

/// A game's result between the two players, as the ladder sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LadderResult {
    /// `a` won.
    AWins,
    Draw,
    /// `b` won.
    BWins,
}

impl LadderPoints {
    /// The points shown: `12.5`, `-3.25`, `0`.
    pub fn shown(self) -> String {
        let sign = if self.0 < 0 { "-" } else { "" };
        let (whole, part) = (self.0.abs() / 100, self.0.abs() % 100);
        match part {
            0 => format!("{sign}{whole}"),
            p if p % 10 == 0 => format!("{sign}{whole}.{}", p / 10),
            p => format!("{sign}{whole}.{p:02}"),
        }
    }

    /// The class of these points.
    pub fn class(self) -> Class {
        match self.0 / 10_000 {
            n if n <= 0 => Class::Unclassed,
            n => Class::Grade((31 - n.min(30)) as u8),
        }
    }
}

/// A ladder class: unclassed (无级别), or a grade from 30 (the first, at 100 points) to 1 (the
/// highest, at 3,000).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Unclassed,
    Grade(u8),
}

impl Class {
    /// The class in the seed's words: `无级别`, `30级` ... `1级`.
    pub fn zh(self) -> String {
        match self {
            Class::Unclassed => "无级别".to_owned(),
            Class::Grade(n) => format!("{n}级"),
        }
    }

    /// The class in English: `unclassed`, `grade 30` ... `grade 1`.
    pub fn en(self) -> String {
        match self {
            Class::Unclassed => "unclassed".to_owned(),
            Class::Grade(n) => format!("grade {n}"),
        }
    }
}

/// A player's figures settle after about this many games (seed 004); before, the ladder shows
/// them as settling.
pub const SETTLING_GAMES: u32 = 50;

/// `hundredths x numerator / denominator`, rounded to a whole hundredth (half up), for a
/// difference `d`, never negative.
fn scaled(d: i64, numerator: i64, denominator: i64) -> i64 {
    debug_assert!(d >= 0, "a difference of points is never negative");
    (d * numerator + denominator / 2) / denominator
}

/// What the lower-rated player gains when they win, by the difference `d` (hundredths).
fn lower_wins(d: i64) -> i64 {
    if d < 1_000 {
        1_000
    } else if d < 10_000 {
        1_000 + scaled(d, 1, 10)
    } else {
        scaled(d, 1, 2)
    }
}

/// What the higher-rated player gains when they win.
fn higher_wins(d: i64) -> i64 {
    if d < 1_000 {
        1_000
    } else if d < 10_000 {
        // 10 - d/12.5 = 10 - 2d/25
        1_000 - scaled(d, 2, 25)
    } else if d < 20_000 {
        200
    } else {
        0
    }
}

/// What the lower-rated player gains in a draw.
fn lower_draws(d: i64) -> i64 {
    if d < 1_000 {
        0
    } else if d < 10_000 {
        // (10 + d/10) / 2 = 5 + d/20
        500 + scaled(d, 1, 20)
    } else {
        scaled(d, 1, 4)
    }
}

/// How many points move when a game between `a` and `b` ends with `result` (R8): `(change of
/// a, change of b)` in hundredths, the two summing to zero. With equal points nobody is the
/// lower: a win is worth 10 and a draw nothing, as both rows say below a difference of 10.
pub fn change(a: LadderPoints, b: LadderPoints, result: LadderResult) -> (i64, i64) {
    let d = (a.0 - b.0).abs();
    let a_gains = match result {
        LadderResult::Draw if a.0 < b.0 => lower_draws(d),
        LadderResult::Draw => -lower_draws(d),
        LadderResult::AWins if a.0 < b.0 => lower_wins(d),
        LadderResult::AWins => higher_wins(d),
        LadderResult::BWins if b.0 < a.0 => -lower_wins(d),
        LadderResult::BWins => -higher_wins(d),
    };
    (a_gains, -a_gains)
}
