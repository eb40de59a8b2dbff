//! Time controls and the chess clock (R6): untimed, sudden death, Fischer increment, simple
//! (US) and Bronstein delay, and multi-period controls such as "40 moves in 90 minutes, then
//! 30 minutes, 30 seconds added per move from move 1".
//!
//! Time enters as plain values (milliseconds); nothing here reads a clock.

use std::time::Duration;

use crate::{ByColor, Color};

/// How a delay works (R6).
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash)]
pub enum DelayKind {
    /// US / simple delay: the clock waits this long at the start of each move before it runs.
    Simple,
    /// Bronstein delay: after each move, the time used is given back, up to the delay.
    Bronstein,
}

/// A delay per move.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash)]
pub struct Delay {
    pub kind: DelayKind,
    pub time: Duration,
}

/// One period of a time control.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Period {
    /// Moves to make within the period; `None` for the rest of the game. When the last
    /// period has a move count, it repeats (as the PGN standard's `40/9000:40/9000` would).
    pub moves: Option<u32>,
    /// Time granted when the period begins (added to what is left).
    pub base: Duration,
    /// Fischer increment: added after every move made in this period.
    pub increment: Duration,
    /// Delay per move, if any (not together with an increment).
    pub delay: Option<Delay>,
}

/// A time control: untimed, or one or more periods.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum TimeControl {
    #[default]
    Untimed,
    /// Never empty.
    Periods(Vec<Period>),
    /// An hourglass: each side starts with this much, and the time one side uses flows to
    /// the other (the PGN standard's `*180`).
    Sandclock(Duration),
    /// Correspondence, lichess's "days per move": each move has this many calendar days (one
    /// of [`CORRESPONDENCE_DAYS`]), and the clock is full again for the next one; unused time
    /// is not kept. Written `3d`.
    Correspondence(u32),
}

/// The days a correspondence move may take, as lichess offers them.
pub const CORRESPONDENCE_DAYS: [u32; 7] = [1, 2, 3, 5, 7, 10, 14];

/// A calendar day, the unit of correspondence.
pub const DAY: Duration = Duration::from_secs(24 * 60 * 60);

/// Why a time-control text was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeControlError {
    pub text: String,
    pub reason: &'static str,
}

impl std::fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "time control {:?}: {}", self.text, self.reason)
    }
}

impl std::error::Error for TimeControlError {}

/// The unit of a time-control text: the PGN tag counts seconds, the friendly form minutes
/// for base times (increments and delays are seconds in both).
#[derive(Copy, Clone, PartialEq, Eq)]
enum Unit {
    Seconds,
    Minutes,
}

impl TimeControl {
    /// Sudden death plus Fischer increment, the everyday online control.
    pub fn fischer(base: Duration, increment: Duration) -> TimeControl {
        TimeControl::Periods(vec![Period {
            moves: None,
            base,
            increment,
            delay: None,
        }])
    }

    /// Whether the time runs on the calendar (correspondence days, and an untimed game's
    /// abandonment) rather than on a clock that stops while the server is down (R6).
    pub fn runs_on_calendar(&self) -> bool {
        matches!(self, TimeControl::Correspondence(_) | TimeControl::Untimed)
    }

    /// Parses the PGN standard's TimeControl syntax (section 9.6.1): `-` (none), `300`
    /// (sudden death, seconds), `300+3` (increment), `40/5400+30:1800+30` (periods). Delay is
    /// not in the standard; Rookery writes `300d5` for simple delay and `300b5` for
    /// Bronstein delay (see docs/RULES.md). `*180` is a sandclock.
    ///
    /// # Errors
    /// `?` (unknown: there is nothing to play by) and malformed text.
    pub fn from_pgn(text: &str) -> Result<TimeControl, TimeControlError> {
        parse(text, Unit::Seconds)
    }

    /// Parses the friendly lobby form: `5+3` (minutes + seconds), `40/90+30:30+30`, `15d5`,
    /// `0.5+0`, and `-` or `untimed`.
    ///
    /// # Errors
    /// Malformed text.
    pub fn from_friendly(text: &str) -> Result<TimeControl, TimeControlError> {
        if text.trim().eq_ignore_ascii_case("untimed") {
            return Ok(TimeControl::Untimed);
        }
        parse(text, Unit::Minutes)
    }

    /// The PGN TimeControl tag value.
    pub fn to_pgn(&self) -> String {
        format(self, Unit::Seconds)
    }

    /// The friendly form (minutes for base times).
    pub fn to_friendly(&self) -> String {
        format(self, Unit::Minutes)
    }

    /// How long a game of 40 moves a side takes on this control, the estimate lichess sorts
    /// its speeds by: the base time plus 40 times the increment (`base + 40 x inc`). Delays
    /// count as increments (at most that much comes back per move) and multi-period controls
    /// count every period that begins within the first 40 moves; a sandclock counts its
    /// start. `None` untimed.
    pub fn estimated_duration(&self) -> Option<Duration> {
        match self {
            // Days a move: no speed (unrated) and no lag to speak of.
            TimeControl::Untimed | TimeControl::Correspondence(_) => None,
            TimeControl::Sandclock(start) => Some(*start),
            TimeControl::Periods(_) => {
                let mut total = Duration::ZERO;
                let (mut index, mut moves_in_period) = (0, 0);
                let mut period = self.period(0)?;
                total += period.base;
                for _ in 0..40 {
                    if period.moves == Some(moves_in_period) {
                        index += 1;
                        moves_in_period = 0;
                        period = self.period(index)?;
                        total += period.base;
                    }
                    total += period.increment + period.delay.map_or(Duration::ZERO, |d| d.time);
                    moves_in_period += 1;
                }
                Some(total)
            }
        }
    }

    /// The period a side plays in after `index` periods began (the last repeats).
    pub fn period(&self, index: usize) -> Option<&Period> {
        match self {
            TimeControl::Untimed | TimeControl::Sandclock(_) | TimeControl::Correspondence(_) => {
                None
            }
            TimeControl::Periods(p) => p.get(index).or_else(|| p.last()),
        }
    }
}

/// The longest time control text read: FIDE's longest real controls (three periods with
/// moves, delay or increment) take about 30 characters; anything far longer is no clock
/// anyone plays, and would be repeated in every listing.
pub const MAX_TIME_CONTROL_LEN: usize = 64;

fn parse(text: &str, unit: Unit) -> Result<TimeControl, TimeControlError> {
    if text.len() > MAX_TIME_CONTROL_LEN {
        return Err(TimeControlError {
            // Only the start of it: the error is shown to the user.
            text: text.chars().take(16).chain("...".chars()).collect(),
            reason: "too long (at most 64 characters)",
        });
    }
    let err = |reason| TimeControlError {
        text: text.to_owned(),
        reason,
    };
    let t = text.trim();
    match t {
        "-" => return Ok(TimeControl::Untimed),
        "?" | "" => return Err(err("unknown time control")),
        _ => {}
    }
    if let Some(days) = t.strip_suffix('d').and_then(|d| d.parse::<u32>().ok()) {
        return if CORRESPONDENCE_DAYS.contains(&days) {
            Ok(TimeControl::Correspondence(days))
        } else {
            Err(err(
                "a correspondence game has 1, 2, 3, 5, 7, 10 or 14 days a move",
            ))
        };
    }
    if let Some(rest) = t.strip_prefix('*') {
        return match duration(rest, unit) {
            Some(d) if !d.is_zero() => Ok(TimeControl::Sandclock(d)),
            _ => Err(err("a sandclock needs a number of seconds")),
        };
    }
    let mut periods = Vec::new();
    let fields: Vec<&str> = t.split(':').collect();
    for (i, &field) in fields.iter().enumerate() {
        // A period with no number of moves never ends: only the last may be one (PGN
        // standard 9.6.1; found by the fuzz target `time_control`).
        if i + 1 < fields.len() && !field.contains('/') {
            return Err(err("only the last period may have no number of moves"));
        }
        let (moves, rest) = match field.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m
                    .parse()
                    .map_err(|_| err("moves before / must be a number"))?;
                if m == 0 {
                    return Err(err("a period needs at least one move"));
                }
                (Some(m), rest)
            }
            None => (None, field),
        };
        let (base, increment, delay) = if let Some((b, i)) = rest.split_once('+') {
            (b, Some(i), None)
        } else if let Some((b, d)) = rest.split_once('d') {
            (b, None, Some((DelayKind::Simple, d)))
        } else if let Some((b, d)) = rest.split_once('b') {
            (b, None, Some((DelayKind::Bronstein, d)))
        } else {
            (rest, None, None)
        };
        let base = duration(base, unit).ok_or_else(|| err("base time must be a number"))?;
        let increment = match increment {
            Some(i) => {
                duration(i, Unit::Seconds).ok_or_else(|| err("increment must be a number"))?
            }
            None => Duration::ZERO,
        };
        let delay = match delay {
            Some((kind, d)) => Some(Delay {
                kind,
                time: duration(d, Unit::Seconds).ok_or_else(|| err("delay must be a number"))?,
            }),
            None => None,
        };
        if base.is_zero() && increment.is_zero() && delay.is_none_or(|d| d.time.is_zero()) {
            return Err(err("a period needs some time"));
        }
        periods.push(Period {
            moves,
            base,
            increment,
            delay,
        });
    }
    Ok(TimeControl::Periods(periods))
}

/// A non-negative decimal number of `unit`s, at most about 10 days.
fn duration(text: &str, unit: Unit) -> Option<Duration> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let value: f64 = text.parse().ok()?;
    let secs = match unit {
        Unit::Seconds => value,
        Unit::Minutes => value * 60.0,
    };
    (secs.is_finite() && secs <= 864_000.0)
        .then(|| Duration::from_millis((secs * 1000.0).round() as u64))
}

fn format(tc: &TimeControl, unit: Unit) -> String {
    let number = |d: Duration, unit: Unit| {
        let ms = d.as_millis() as f64;
        let v = match unit {
            Unit::Seconds => ms / 1000.0,
            Unit::Minutes => ms / 60_000.0,
        };
        // Whole numbers without a point; otherwise as few decimals as needed. Six decimals
        // of a minute are within 0.03 ms, so every whole millisecond reads back exactly
        // (found by the time_control fuzz target: 1 s was written "0.0167" minutes).
        let s = format!("{v:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    };
    let periods = match tc {
        TimeControl::Untimed => return "-".to_owned(),
        TimeControl::Sandclock(d) => return format!("*{}", number(*d, unit)),
        TimeControl::Correspondence(days) => return format!("{days}d"),
        TimeControl::Periods(p) => p,
    };
    let fields: Vec<String> = periods
        .iter()
        .map(|p| {
            let mut f = String::new();
            if let Some(m) = p.moves {
                f.push_str(&format!("{m}/"));
            }
            f.push_str(&number(p.base, unit));
            if let Some(d) = p.delay {
                let c = match d.kind {
                    DelayKind::Simple => 'd',
                    DelayKind::Bronstein => 'b',
                };
                f.push(c);
                f.push_str(&number(d.time, Unit::Seconds));
            } else if !p.increment.is_zero() || unit == Unit::Minutes {
                f.push('+');
                f.push_str(&number(p.increment, Unit::Seconds));
            }
            f
        })
        .collect();
    fields.join(":")
}

impl std::fmt::Display for TimeControl {
    /// The friendly form.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_friendly())
    }
}

/// Lag compensation (R6), lichess's `LagTracker`: each side has a quota of network lag the
/// clock forgives. Every timed move adds `gain` to it (up to `max`) and the lag credited to the
/// move is taken out of it, so an honest player on a slow line keeps their time while a client
/// that claims more lag than it has gains no more than the quota.
///
/// The figures are lichess's: `gain` = 0.4 x the game's estimated seconds + 15 centiseconds,
/// at most one second (0.87 s at 3+0, 1 s from 3+2 up); the quota starts at 3 x `gain` and
/// holds at most 7 x `gain`.
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub struct LagQuota {
    gain: Duration,
    quota: Duration,
    max: Duration,
}

/// The longest a flag waits past zero for a move still on its way: lichess's two seconds.
pub const MAX_FLAG_GRACE: Duration = Duration::from_secs(2);

impl LagQuota {
    /// The quota a side starts with under `control` (none untimed).
    pub fn for_control(control: &TimeControl) -> LagQuota {
        let gain = control
            .estimated_duration()
            .map_or(Duration::ZERO, |estimate| {
                // 0.4 cs a second of the estimate is 4 ms a second; plus 15 cs.
                let ms = estimate.as_millis() as u64 * 4 / 1000 + 150;
                Duration::from_millis(ms.min(1000))
            });
        LagQuota {
            gain,
            quota: gain * 3,
            max: gain * 7,
        }
    }

    /// What each timed move adds to the quota.
    pub fn gain(&self) -> Duration {
        self.gain
    }

    /// The lag the next move may be credited at most.
    pub fn quota(&self) -> Duration {
        self.quota
    }

    /// The most the quota can hold.
    pub fn max(&self) -> Duration {
        self.max
    }

    /// How long past zero a flag waits for a move that may still be travelling: the quota,
    /// at most [`MAX_FLAG_GRACE`].
    pub fn grace(&self) -> Duration {
        self.quota.min(MAX_FLAG_GRACE)
    }

    /// A timed move measured `lag`: returns the part credited (at most the quota) and
    /// refills the quota for the next move.
    fn credit(&mut self, lag: Duration) -> Duration {
        let credited = lag.min(self.quota);
        self.quota = (self.quota + self.gain - credited).min(self.max);
        credited
    }
}

/// Why a move's clock could not be pressed.
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub struct FlagFell;

/// Both sides' clocks under a time control (R6). The caller says how long each move took;
/// the clock charges it (minus any delay), adds increments and the next period's time, and
/// keeps the books: for each side, time granted = time used + time left, to the millisecond.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    /// Time left per side (zero for untimed games).
    remaining: ByColor<Duration>,
    /// Index of the period each side is in.
    period: ByColor<usize>,
    /// Moves each side has made in its current period.
    moves_in_period: ByColor<u32>,
    /// Everything each side has been given: bases, increments, Bronstein refunds.
    granted: ByColor<Duration>,
    /// Everything charged to each side.
    used: ByColor<Duration>,
    /// Each side's lag quota.
    lag: ByColor<LagQuota>,
    /// Each side went berserk (lichess's arenas): half his time, no increment.
    berserk: ByColor<bool>,
}

impl Clock {
    pub fn new(control: TimeControl) -> Clock {
        let base = match &control {
            TimeControl::Sandclock(d) => *d,
            TimeControl::Correspondence(days) => DAY * *days,
            _ => control.period(0).map_or(Duration::ZERO, |p| p.base),
        };
        Clock {
            remaining: ByColor {
                white: base,
                black: base,
            },
            period: ByColor::default(),
            moves_in_period: ByColor::default(),
            granted: ByColor {
                white: base,
                black: base,
            },
            used: ByColor::default(),
            lag: ByColor::new_with(|_| LagQuota::for_control(&control)),
            berserk: ByColor::default(),
            control,
        }
    }

    /// Whether `color` may go berserk: a clock of one period of minutes with an increment or
    /// none (no delay, no move count, a base time to halve), not berserk yet, his clock not
    /// pressed yet (the caller knows whether he has moved).
    pub fn can_berserk(&self, color: Color) -> bool {
        let TimeControl::Periods(periods) = &self.control else {
            return false;
        };
        matches!(periods.as_slice(), [p] if p.moves.is_none() && p.delay.is_none() && !p.base.is_zero())
            && !self.berserk[color]
            && self.used[color].is_zero()
    }

    /// `color` goes berserk (lichess's arenas): half his time is taken back and he gets no
    /// increment for the rest of the game. The books still balance (granted = used + left).
    /// Whether it was done ([`Clock::can_berserk`]).
    pub fn berserk(&mut self, color: Color) -> bool {
        if !self.can_berserk(color) {
            return false;
        }
        let half = self.remaining[color] / 2;
        self.remaining[color] -= half;
        self.granted[color] -= half;
        self.berserk[color] = true;
        true
    }

    /// Whether time may be given on this clock: a clock of periods (minutes), not
    /// correspondence, an hourglass (where one side's time is the other's) or none.
    pub fn can_give(&self) -> bool {
        matches!(self.control, TimeControl::Periods(_))
    }

    /// Gives `color` `extra` on his clock (lichess's "+15 seconds"); the books balance
    /// (granted = used + left). Whether it was done ([`Clock::can_give`]).
    pub fn give(&mut self, color: Color, extra: Duration) -> bool {
        if !self.can_give() {
            return false;
        }
        self.remaining[color] += extra;
        self.granted[color] += extra;
        true
    }

    /// Whether `color` went berserk.
    pub fn is_berserk(&self, color: Color) -> bool {
        self.berserk[color]
    }

    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    pub fn is_timed(&self) -> bool {
        !matches!(self.control, TimeControl::Untimed)
    }

    /// Time left for `color` when its move began (not counting the move in progress).
    pub fn remaining(&self, color: Color) -> Duration {
        self.remaining[color]
    }

    pub fn granted(&self, color: Color) -> Duration {
        self.granted[color]
    }

    pub fn used(&self, color: Color) -> Duration {
        self.used[color]
    }

    fn current_period(&self, color: Color) -> Option<&Period> {
        self.control.period(self.period[color])
    }

    /// How long `color` may think on the move in progress before the flag falls: the time
    /// left, plus a simple delay. `None` when untimed.
    pub fn allowance(&self, color: Color) -> Option<Duration> {
        if let TimeControl::Sandclock(_) | TimeControl::Correspondence(_) = self.control {
            return Some(self.remaining[color]);
        }
        let period = self.current_period(color)?;
        let delay = match period.delay {
            Some(Delay {
                kind: DelayKind::Simple,
                time,
            }) => time,
            _ => Duration::ZERO,
        };
        Some(self.remaining[color] + delay)
    }

    /// What `color`'s clock would show after thinking `elapsed` on the move in progress.
    pub fn remaining_after(&self, color: Color, elapsed: Duration) -> Duration {
        self.allowance(color).map_or(Duration::ZERO, |a| {
            a.saturating_sub(elapsed).min(self.remaining[color])
        })
    }

    /// `color`'s flag fell (R6): the time it had left is used up, so its clock shows zero;
    /// under a sandclock that sand has run to the other side. The books still balance.
    pub fn run_out(&mut self, color: Color) {
        let left = self.remaining[color];
        self.used[color] += left;
        self.remaining[color] = Duration::ZERO;
        if let TimeControl::Sandclock(_) = self.control {
            self.granted[!color] += left;
            self.remaining[!color] += left;
        }
    }

    /// `color`'s lag quota (R6).
    pub fn lag_quota(&self, color: Color) -> LagQuota {
        self.lag[color]
    }

    /// Presses `color`'s clock after a move that took `elapsed`, with no lag measured.
    ///
    /// # Errors
    /// [`FlagFell`] when `elapsed` reached the allowance; nothing changes then.
    /// The lag quota is left as it is: this is the clock of a move that was not timed
    /// (each side's first) or of a caller that measures no lag.
    pub fn press(&mut self, color: Color, elapsed: Duration) -> Result<(), FlagFell> {
        self.charge(color, elapsed)
    }

    /// Presses `color`'s clock after a move that took `elapsed` on the server's watch, of
    /// which `lag` was measured as network lag: the lag is credited up to the side's quota
    /// ([`LagQuota`]) and the rest charged. Returns the time credited.
    ///
    /// # Errors
    /// [`FlagFell`] when the time charged reached the allowance; nothing changes then.
    pub fn press_with_lag(
        &mut self,
        color: Color,
        elapsed: Duration,
        lag: Duration,
    ) -> Result<Duration, FlagFell> {
        if !self.is_timed() {
            return Ok(Duration::ZERO);
        }
        let mut quota = self.lag[color];
        let credited = quota.credit(lag.min(elapsed));
        self.charge(color, elapsed - credited)?;
        self.lag[color] = quota;
        Ok(credited)
    }

    fn charge(&mut self, color: Color, elapsed: Duration) -> Result<(), FlagFell> {
        if let TimeControl::Correspondence(_) = self.control {
            if elapsed >= self.remaining[color] {
                return Err(FlagFell);
            }
            // The days used are charged, and given again whole for the next move.
            self.used[color] += elapsed;
            self.granted[color] += elapsed;
            return Ok(());
        }
        if let TimeControl::Sandclock(_) = self.control {
            if elapsed >= self.remaining[color] {
                return Err(FlagFell);
            }
            // The sand one side lets run falls to the other side.
            self.used[color] += elapsed;
            self.remaining[color] -= elapsed;
            self.granted[!color] += elapsed;
            self.remaining[!color] += elapsed;
            return Ok(());
        }
        let Some(period) = self.current_period(color).cloned() else {
            return Ok(());
        };
        let allowance = self.allowance(color).unwrap_or(Duration::ZERO);
        if elapsed >= allowance {
            return Err(FlagFell);
        }
        let charged = match period.delay {
            Some(Delay {
                kind: DelayKind::Simple,
                time,
            }) => elapsed.saturating_sub(time),
            _ => elapsed,
        };
        let refund = match period.delay {
            Some(Delay {
                kind: DelayKind::Bronstein,
                time,
            }) => charged.min(time),
            _ => Duration::ZERO,
        };
        self.used[color] += charged;
        let increment = if self.berserk[color] {
            Duration::ZERO
        } else {
            period.increment
        };
        let gain = refund + increment;
        self.granted[color] += gain;
        self.remaining[color] = self.remaining[color] - charged + gain;
        self.moves_in_period[color] += 1;
        if period.moves == Some(self.moves_in_period[color]) {
            self.period[color] += 1;
            self.moves_in_period[color] = 0;
            let next_base = self
                .current_period(color)
                .map_or(Duration::ZERO, |p| p.base);
            self.remaining[color] += next_base;
            self.granted[color] += next_base;
        }
        Ok(())
    }

    /// What `color` gets back for a move in the current period at most: its increment, or
    /// its delay (zero untimed or on a sandclock).
    pub fn per_move(&self, color: Color) -> Duration {
        if self.berserk[color] {
            return Duration::ZERO;
        }
        self.current_period(color).map_or(Duration::ZERO, |p| {
            p.increment + p.delay.map_or(Duration::ZERO, |d| d.time)
        })
    }

    /// Moves `color` still has to make before its next period begins.
    pub fn moves_to_go(&self, color: Color) -> Option<u32> {
        let period = self.current_period(color)?;
        period.moves.map(|m| m - self.moves_in_period[color])
    }
}
