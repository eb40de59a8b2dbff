//! Speeds: a rating per speed, chosen as lichess chooses it, by a time control's estimated
//! duration `base + 40 x increment` (`TimeControl::estimated_duration`: delays count as
//! increments, every period begun within 40 moves counts, a sandclock its start); a game of
//! days a move is correspondence, rated in a speed of its own as lichess rates it.

use std::time::Duration;

/// A rating category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Speed {
    /// Under 30 s.
    UltraBullet,
    /// Under 3 minutes.
    Bullet,
    /// Under 8 minutes.
    Blitz,
    /// Under 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
    /// Days a move (`TimeControl::Correspondence`).
    Correspondence,
}

impl Speed {
    pub const ALL: [Speed; 6] = [
        Speed::UltraBullet,
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// The speed of a game estimated to last `estimate` (lichess's bounds); an untimed game
    /// (no estimate) has none and is not rated.
    pub fn of(estimate: Option<Duration>) -> Option<Speed> {
        let secs = estimate?.as_secs_f64();
        Some(if secs < 30.0 {
            Speed::UltraBullet
        } else if secs < 180.0 {
            Speed::Bullet
        } else if secs < 480.0 {
            Speed::Blitz
        } else if secs < 1500.0 {
            Speed::Rapid
        } else {
            Speed::Classical
        })
    }

    /// The speed of games on `control` (`None`: untimed, not rated). Correspondence has no
    /// estimated duration but a speed of its own.
    pub fn of_control(control: &crate::clock::TimeControl) -> Option<Speed> {
        match control {
            crate::clock::TimeControl::Correspondence(_) => Some(Speed::Correspondence),
            _ => Speed::of(control.estimated_duration()),
        }
    }

    /// The stored and URL word.
    pub fn as_str(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultrabullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }

    pub fn parse(text: &str) -> Option<Speed> {
        Speed::ALL.into_iter().find(|s| s.as_str() == text)
    }
}
