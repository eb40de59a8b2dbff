//! Lag compensation (docs/RULES.md R6), with lichess's figures (scalachess `LagTracker`):
//! quota gain per move = min(1 s, 0.4 x the estimated game seconds + 15 cs); the quota starts
//! at 3 x gain and holds at most 7 x gain; a flag waits min(quota, 2 s) past zero.

use std::time::Duration;

use rookery_core::Color::{Black, White};
use rookery_core::clock::{Clock, LagQuota, MAX_FLAG_GRACE, TimeControl};
use rookery_core::game::{Command, Event, Game, MoveText, MoveTiming, Termination};
use rookery_core::{Color, Position};

fn ms(m: u64) -> Duration {
    Duration::from_millis(m)
}

fn control(friendly: &str) -> TimeControl {
    TimeControl::from_friendly(friendly).unwrap()
}

#[test]
fn gain_and_quota_per_time_control_are_lichess_figures() {
    // (control, estimated seconds = base + 40 x increment, gain in ms)
    let table = [
        ("0.25+0", 15, 210),   // 15 s: 6 + 15 cs
        ("0.5+0", 30, 270),    // 30 s: 12 + 15 cs
        ("1+0", 60, 390),      // 24 + 15 cs
        ("2+1", 160, 790),     // 64 + 15 cs
        ("3+0", 180, 870),     // 72 + 15 cs: lichess's 0.87 s at 3+0
        ("3+2", 260, 1000),    // 104 + 15 = 119 cs, capped at 1 s
        ("5+3", 420, 1000),    // capped
        ("15+10", 1300, 1000), // capped
        ("90+30", 6600, 1000), // capped
    ];
    for (tc, seconds, gain) in table {
        let tc = control(tc);
        assert_eq!(tc.estimated_duration(), Some(Duration::from_secs(seconds)));
        let q = LagQuota::for_control(&tc);
        assert_eq!(q.gain(), ms(gain), "{tc}");
        assert_eq!(q.quota(), ms(3 * gain), "{tc}: starts at 3 x gain");
        assert_eq!(q.max(), ms(7 * gain), "{tc}: holds at most 7 x gain");
        assert_eq!(q.grace(), ms(3 * gain).min(MAX_FLAG_GRACE), "{tc}");
    }
    let untimed = LagQuota::for_control(&TimeControl::Untimed);
    assert_eq!(
        (untimed.gain(), untimed.quota()),
        (Duration::ZERO, Duration::ZERO)
    );
}

#[test]
fn the_quota_refills_by_its_gain_and_is_spent_by_what_is_credited() {
    let mut clock = Clock::new(control("3+0"));
    // 2,610 ms to start: a 3 s lag is credited 2,610, and the quota refills by 870 only.
    assert_eq!(
        clock.press_with_lag(White, ms(10_000), ms(3_000)),
        Ok(ms(2_610))
    );
    assert_eq!(clock.lag_quota(White).quota(), ms(870));
    assert_eq!(clock.remaining(White), ms(180_000 - 10_000 + 2_610));
    // Black's quota is its own.
    assert_eq!(clock.lag_quota(Black).quota(), ms(2_610));
    // No lag: the quota grows by the gain up to 7 x gain.
    for _ in 0..10 {
        clock
            .press_with_lag(White, ms(1_000), Duration::ZERO)
            .unwrap();
    }
    assert_eq!(clock.lag_quota(White).quota(), ms(6_090));
    // The books balance: what is credited is simply not charged.
    assert_eq!(
        clock.granted(White),
        clock.used(White) + clock.remaining(White)
    );
}

/// Plays 1. e4 e5 untimed, then `n` moves a side (knights back and forth), each with
/// `think(ply)` ms of thinking on a line of `round_trip` ms: the server's watch for a move is
/// the thinking plus the round trip (the opponent's move going out, this one coming back).
/// Each move reports `report(thinking)`. Returns the game and each side's real thinking.
fn knights(
    tc: &str,
    n: usize,
    think: impl Fn(usize) -> u64,
    round_trip: u64,
    report: impl Fn(u64) -> MoveTiming,
) -> (Game, [u64; 2]) {
    let mut g = Game::new(Position::new(), control(tc));
    let mut t = 0;
    for m in ["e4", "e5"] {
        let by = g.position().turn();
        g.apply(mv(by, m, MoveTiming::default()), t).unwrap();
        t += 100;
    }
    t -= 100;
    let mut spent = [0, 0];
    for ply in 0..2 * n {
        let thought = think(ply);
        spent[ply % 2] += thought;
        t += thought + round_trip;
        let events = g.apply(fresh_move(&g, report(thought)), t).unwrap();
        assert!(
            matches!(events.first(), Some(Event::MovePlayed { .. })),
            "ply {ply}: {events:?}"
        );
    }
    (g, spent)
}

/// A legal move to a position not seen before that does not end the game, so the
/// game goes on as long as a test needs.
fn fresh_move(g: &Game, timing: MoveTiming) -> Command {
    let pos = g.position();
    let m = pos
        .legal_moves()
        .into_iter()
        .find(|&m| {
            let mut next = *pos;
            next.play(m).unwrap();
            next.outcome().is_none() && !g.position_hashes().contains(&next.zobrist())
        })
        .expect("a new move");
    Command::Move {
        by: pos.turn(),
        text: MoveText::Uci(m.to_uci().to_string()),
        offer_draw: false,
        timing,
    }
}

fn mv(by: Color, san: &str, timing: MoveTiming) -> Command {
    Command::Move {
        by,
        text: MoveText::San(san.into()),
        offer_draw: false,
        timing,
    }
}

fn honest(thought: u64) -> MoveTiming {
    MoveTiming {
        think: Some(ms(thought)),
        round_trip: None,
    }
}

#[test]
fn an_honest_laggy_player_keeps_its_time() {
    // 150 ms round trips at 1+0 and 3+0, 30 moves a side of 0.3-1.2 s: every move's lag
    // is within the quota, so each clock is exactly its base minus its own thinking.
    for tc in ["1+0", "3+0"] {
        let think = |ply: usize| 300 + (ply as u64 * 37) % 900;
        let (g, spent) = knights(tc, 30, think, 150, honest);
        let base = control(tc).estimated_duration().unwrap().as_millis() as u64;
        assert_eq!(g.clock().remaining(White), ms(base - spent[0]), "{tc}");
        assert_eq!(g.clock().remaining(Black), ms(base - spent[1]), "{tc}");
        for m in &g.moves()[2..] {
            assert_eq!(m.lag, ms(150), "{tc}: the whole round trip credited");
        }
    }
    // The same player reporting nothing, with the round trip the server measured: the same.
    let by_server = |_| MoveTiming {
        think: None,
        round_trip: Some(ms(150)),
    };
    let (g, spent) = knights("1+0", 30, |_| 500, 150, by_server);
    assert_eq!(g.clock().remaining(White), ms(60_000 - spent[0]));
}

#[test]
fn a_lying_client_gains_no_more_than_the_quota() {
    // The client claims it thought 0 ms on every move, though it thought 1.5 s: the whole
    // watch looks like lag. It is credited the quota (2,610 ms at 3+0) once, then only the
    // gain (870 ms) a move — never more than start + (moves - 1) x gain in all.
    let liar = |_| MoveTiming {
        think: Some(Duration::ZERO),
        round_trip: None,
    };
    let n = 30;
    let (g, spent) = knights("3+0", n, |_| 1_500, 50, liar);
    let white: Vec<Duration> = g.moves()[2..].iter().step_by(2).map(|m| m.lag).collect();
    // Quota 2,610 → 1,930 → 1,250 → 870: two lies fit whole, the third gets what is left,
    // every later one the gain.
    assert_eq!(&white[..3], &[ms(1_550), ms(1_550), ms(1_250)]);
    assert!(white[3..].iter().all(|&c| c == ms(870)), "{white:?}");
    let credited: Duration = white.iter().sum();
    assert_eq!(credited, ms(2_610 + (n as u64 - 1) * 870));
    // What it gained over an honest 50 ms line, in all: at most the quota it started with
    // plus the gain of every move.
    let honest_credit = ms(50 * n as u64);
    assert!(credited - honest_credit <= ms(2_610 + n as u64 * 870));
    let remaining = g.clock().remaining(White);
    assert_eq!(remaining, ms(180_000 - spent[0] - 50 * n as u64) + credited);
}

#[test]
fn a_flag_waits_the_grace_for_a_move_on_its_way() {
    // 1+0, White spends all but 100 ms, then its move arrives 1 s after zero having been
    // sent in time (round trip 1.1 s): credited, it stands. The same move with no lag to
    // show flags.
    for (round_trip, stands) in [(1_100, true), (0, false)] {
        let mut g = Game::new(Position::new(), control("1+0"));
        g.apply(mv(White, "e4", MoveTiming::default()), 0).unwrap();
        g.apply(mv(Black, "e5", MoveTiming::default()), 0).unwrap();
        // The deadline is 60 s plus the grace, 1.17 s at 1+0.
        assert_eq!(g.next_deadline(), Some(61_170));
        let timing = MoveTiming {
            think: None,
            round_trip: Some(ms(round_trip)),
        };
        let events = g.apply(mv(White, "Nf3", timing), 61_000).unwrap();
        let flagged = events.iter().any(|e| {
            matches!(
                e,
                Event::GameOver {
                    termination: Termination::TimeForfeit,
                    ..
                }
            )
        });
        assert_eq!(!flagged, stands, "round trip {round_trip}: {events:?}");
        if stands {
            assert_eq!(g.clock().remaining(White), ms(100));
        }
    }
}

#[test]
fn a_replay_with_the_credited_lag_rebuilds_clocks_and_quotas() {
    // What a server does after a restart: each stored move replayed with the time charged
    // plus the lag credited, the lag given as the round trip.
    let liar = |_| MoveTiming {
        think: Some(Duration::ZERO),
        round_trip: None,
    };
    let (g, _) = knights("1+0", 20, |ply| 200 + ply as u64 * 13, 40, liar);
    let mut again = Game::new(Position::new(), control("1+0"));
    let mut t = 0;
    for m in g.moves() {
        t += (m.elapsed + m.lag).as_millis() as u64;
        let by = again.position().turn();
        let timing = MoveTiming {
            think: None,
            round_trip: Some(m.lag),
        };
        let uci = m.m.to_uci().to_string();
        let cmd = Command::Move {
            by,
            text: MoveText::Uci(uci),
            offer_draw: false,
            timing,
        };
        again.apply(cmd, t).unwrap();
    }
    assert_eq!(again.clock(), g.clock());
    for (a, b) in again.moves().iter().zip(g.moves()) {
        assert_eq!((a.elapsed, a.lag, a.clock), (b.elapsed, b.lag, b.clock));
    }
}
