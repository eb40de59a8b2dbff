//! Time controls and the clock (R6).

use std::time::Duration;

use rookery_core::Color::{Black, White};
use rookery_core::clock::{Clock, DelayKind, FlagFell, TimeControl};

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

fn ms(m: u64) -> Duration {
    Duration::from_millis(m)
}

#[test]
fn pgn_time_control_syntax_reads_and_writes_every_form_of_r6() {
    for text in [
        "-",
        "300",
        "300+3",
        "40/5400+30:1800+30",
        "40/7200:3600",
        "300d5",
        "900b10",
        "40/5400d30:1800d30",
    ] {
        let tc = TimeControl::from_pgn(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(tc.to_pgn(), text);
    }
    let TimeControl::Periods(p) = TimeControl::from_pgn("40/5400+30:1800+30").unwrap() else {
        panic!()
    };
    assert_eq!(
        (p[0].moves, p[0].base, p[0].increment),
        (Some(40), secs(5400), secs(30))
    );
    assert_eq!(
        (p[1].moves, p[1].base, p[1].increment),
        (None, secs(1800), secs(30))
    );
    let TimeControl::Periods(p) = TimeControl::from_pgn("300b5").unwrap() else {
        panic!()
    };
    assert_eq!(
        p[0].delay.map(|d| (d.kind, d.time)),
        Some((DelayKind::Bronstein, secs(5)))
    );
}

#[test]
fn malformed_time_controls_are_refused_with_the_reason() {
    for (text, reason) in [
        ("?", "unknown time control"),
        ("*", "a sandclock needs a number of seconds"),
        ("abc", "base time must be a number"),
        ("0/300", "a period needs at least one move"),
        ("0", "a period needs some time"),
        ("300+x", "increment must be a number"),
        ("", "unknown time control"),
        ("*0", "a sandclock needs a number of seconds"),
        // Only digits and a point: no exponent, no sign.
        ("1e3", "base time must be a number"),
        ("300+-1", "increment must be a number"),
        // At most ten days a period (864,000 s).
        ("864001", "base time must be a number"),
        (
            "300:40/7200",
            "only the last period may have no number of moves",
        ),
    ] {
        let e = TimeControl::from_pgn(text).unwrap_err();
        assert_eq!(e.reason, reason, "{text}");
        // The message names the text and the reason.
        assert_eq!(e.to_string(), format!("time control {text:?}: {reason}"));
    }
    // A probe's 18,000-character control was accepted and listed everywhere: refused now,
    // with only its start in the message.
    let long = "40/5400:".repeat(2250);
    for e in [
        TimeControl::from_pgn(&long).unwrap_err(),
        TimeControl::from_friendly(&long).unwrap_err(),
    ] {
        assert_eq!(e.reason, "too long (at most 64 characters)");
        assert!(e.to_string().len() < 80, "{e}");
    }
    let longest_real = "40/7200+30:20/3600+30:900+30";
    assert!(TimeControl::from_pgn(longest_real).is_ok());
    // The bound itself: 64 characters are read, 65 are not.
    let at_bound = format!("{}9000", "1/1:".repeat(15));
    assert_eq!(at_bound.len(), 64);
    assert!(
        TimeControl::from_pgn(&at_bound).is_ok(),
        "{:?}",
        TimeControl::from_pgn(&at_bound)
    );
    let past = format!("{at_bound}0");
    assert_eq!(
        TimeControl::from_pgn(&past).unwrap_err().reason,
        "too long (at most 64 characters)"
    );
}

#[test]
fn friendly_form_counts_minutes_for_base_times() {
    let cases = [
        ("5+3", "300+3"),
        ("40/90+30:30+30", "40/5400+30:1800+30"),
        ("0.5+0", "30"),
        ("15d5", "900d5"),
        ("untimed", "-"),
    ];
    for (friendly, pgn) in cases {
        let tc = TimeControl::from_friendly(friendly).unwrap();
        assert_eq!(tc.to_pgn(), pgn, "{friendly}");
        assert_eq!(TimeControl::from_friendly(&tc.to_friendly()).unwrap(), tc);
    }
    assert_eq!(TimeControl::from_pgn("180+2").unwrap().to_string(), "3+2");
    // Any whole number of seconds (or milliseconds) in PGN reads back from the friendly
    // form: 1 s is 0.016667 minutes, not 0.0167 (found by the fuzz target `time_control`).
    for pgn in [
        "1+0", "7+1", "59", "61+0", "*13", "40/7+1:1", "0.001+0", "1.234+0",
    ] {
        let tc = TimeControl::from_pgn(pgn).unwrap();
        assert_eq!(
            TimeControl::from_friendly(&tc.to_friendly()).unwrap(),
            tc,
            "{pgn}"
        );
        assert_eq!(TimeControl::from_pgn(&tc.to_pgn()).unwrap(), tc, "{pgn}");
    }
    assert_eq!(
        TimeControl::from_pgn("1+0").unwrap().to_friendly(),
        "0.016667+0"
    );
}

#[test]
fn fischer_increment_is_added_after_each_move() {
    // The constructor the doors use is the PGN form's `base+increment`.
    let control = TimeControl::fischer(secs(300), secs(3));
    assert_eq!(control, TimeControl::from_pgn("300+3").unwrap());
    assert_eq!(control.to_pgn(), "300+3");
    let mut clock = Clock::new(control);
    clock.press(White, secs(10)).unwrap();
    assert_eq!(clock.remaining(White), secs(293));
    assert_eq!(clock.remaining(Black), secs(300));
}

#[test]
fn the_flag_falls_when_the_time_is_used_up() {
    let mut clock = Clock::new(TimeControl::from_pgn("60").unwrap());
    assert_eq!(clock.press(White, secs(60)), Err(FlagFell));
    assert_eq!(
        clock.remaining(White),
        secs(60),
        "a late move changes nothing"
    );
    clock.press(White, ms(59_999)).unwrap();
    assert_eq!(clock.remaining(White), ms(1));
}

#[test]
fn simple_delay_does_not_charge_the_first_seconds_of_a_move() {
    let mut clock = Clock::new(TimeControl::from_pgn("60d5").unwrap());
    clock.press(White, secs(4)).unwrap();
    assert_eq!(clock.remaining(White), secs(60));
    clock.press(White, secs(8)).unwrap();
    assert_eq!(clock.remaining(White), secs(57));
    // The flag falls only after delay + remaining.
    assert_eq!(clock.allowance(White), Some(secs(62)));
    assert_eq!(clock.remaining_after(White, secs(3)), secs(57));
    assert_eq!(clock.remaining_after(White, secs(10)), secs(52));
}

#[test]
fn bronstein_delay_gives_back_the_time_used_up_to_the_delay() {
    let mut clock = Clock::new(TimeControl::from_pgn("60b5").unwrap());
    clock.press(White, secs(3)).unwrap();
    assert_eq!(clock.remaining(White), secs(60));
    clock.press(White, secs(8)).unwrap();
    assert_eq!(clock.remaining(White), secs(57));
    // Unlike simple delay, the flag falls when the time left is used up.
    assert_eq!(clock.press(White, secs(57)), Err(FlagFell));
}

#[test]
fn the_next_period_begins_after_the_required_number_of_moves() {
    // R6: 40 moves in 90 minutes, then 30 minutes, +30 s per move from move 1.
    let mut clock = Clock::new(TimeControl::from_friendly("40/90+30:30+30").unwrap());
    assert_eq!(clock.moves_to_go(White), Some(40));
    for made in 1..=39 {
        clock.press(White, secs(60)).unwrap();
        assert_eq!(clock.moves_to_go(White), Some(40 - made));
    }
    assert_eq!(clock.moves_to_go(White), Some(1));
    assert_eq!(clock.remaining(White), secs(5400 - 39 * 30));
    clock.press(White, secs(60)).unwrap();
    assert_eq!(clock.remaining(White), secs(5400 - 40 * 30 + 1800));
    assert_eq!(clock.moves_to_go(White), None);
    assert_eq!(clock.per_move(White), secs(30));
}

#[test]
fn per_move_gain_is_the_increment_or_the_delay() {
    let gain = |tc: &str| Clock::new(TimeControl::from_friendly(tc).unwrap()).per_move(White);
    assert_eq!(gain("5+3"), secs(3));
    assert_eq!(gain("15d5"), secs(5));
    assert_eq!(gain("15b5"), secs(5));
    assert_eq!(gain("untimed"), secs(0));
}

#[test]
fn a_last_period_with_a_move_count_repeats() {
    let mut clock = Clock::new(TimeControl::from_pgn("2/60:2/30").unwrap());
    for _ in 0..6 {
        clock.press(Black, secs(5)).unwrap();
    }
    // 60, then 30 more after moves 2, 4 and 6; 6 x 5 s used.
    assert_eq!(clock.remaining(Black), secs(60 + 3 * 30 - 30));
}

#[test]
fn untimed_games_never_flag() {
    let mut clock = Clock::new(TimeControl::Untimed);
    assert!(!clock.is_timed());
    assert!(Clock::new(TimeControl::from_pgn("60").unwrap()).is_timed());
    assert_eq!(clock.allowance(White), None);
    clock.press(White, secs(1_000_000)).unwrap();
}

/// Property: for any sequence of accepted moves, granted = used + remaining to the
/// millisecond, and the time left never goes negative.
#[test]
fn the_books_balance_on_random_games() {
    let controls = [
        "300+3",
        "60",
        "60d5",
        "60b5",
        "40/5400+30:1800+30",
        "2/60:2/30",
        "10+0.5",
    ];
    let mut seed = 0x1234_5678_9abc_def1u64;
    let mut rand = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    for text in controls {
        for _ in 0..200 {
            let mut clock = Clock::new(TimeControl::from_pgn(text).unwrap());
            let mut color = White;
            for _ in 0..rand(200) {
                let elapsed = ms(rand(40_000));
                let before = clock.clone();
                match clock.press(color, elapsed) {
                    Ok(()) => {}
                    Err(FlagFell) => {
                        assert_eq!(clock, before, "a refused press changes nothing");
                        break;
                    }
                }
                for c in [White, Black] {
                    assert_eq!(
                        clock.granted(c),
                        clock.used(c) + clock.remaining(c),
                        "{text}"
                    );
                }
                color = !color;
            }
        }
    }
}

#[test]
fn a_sandclock_gives_the_time_one_side_uses_to_the_other() {
    let mut clock = Clock::new(TimeControl::from_pgn("*180").unwrap());
    clock.press(White, secs(30)).unwrap();
    assert_eq!(
        (clock.remaining(White), clock.remaining(Black)),
        (secs(150), secs(210))
    );
    assert_eq!(clock.press(Black, secs(210)), Err(FlagFell));
}

/// lichess sorts speeds by `base + 40 x increment`; the same estimate paces the bots.
#[test]
fn a_game_is_estimated_at_the_base_plus_forty_moves_of_gain() {
    let friendly = |text: &str| {
        TimeControl::from_friendly(text)
            .unwrap()
            .estimated_duration()
    };
    assert_eq!(friendly("5+3"), Some(secs(300 + 40 * 3)));
    assert_eq!(friendly("1+0"), Some(secs(60)));
    assert_eq!(friendly("0.5+0"), Some(secs(30)));
    // A delay counts as an increment: at most that much comes back per move.
    assert_eq!(friendly("5d3"), Some(secs(420)));
    assert_eq!(friendly("15b10"), Some(secs(900 + 400)));
    // The second period begins at move 41: not within the 40 moves estimated.
    assert_eq!(friendly("40/90+30:30+30"), Some(secs(5400 + 40 * 30)));
    // The second period begins at move 21, within the 40.
    assert_eq!(friendly("20/10:5"), Some(secs(600 + 300)));
    assert_eq!(friendly("10/1:1"), Some(secs(60 + 60)));
    // A last period with a move count repeats: 10 moves a minute begins 4 times in 40 moves.
    assert_eq!(friendly("10/1:10/1"), Some(secs(60 * 4)));
    assert_eq!(
        TimeControl::from_pgn("*180").unwrap().estimated_duration(),
        Some(secs(180))
    );
    assert_eq!(TimeControl::Untimed.estimated_duration(), None);
}

#[test]
fn correspondence_gives_each_move_its_days_and_keeps_no_savings() {
    // lichess's days-per-move choices, written `3d` in both forms.
    for days in rookery_core::clock::CORRESPONDENCE_DAYS {
        let text = format!("{days}d");
        let tc = TimeControl::from_pgn(&text).unwrap();
        assert_eq!(tc, TimeControl::Correspondence(days));
        assert_eq!(tc.to_pgn(), text);
        assert_eq!(TimeControl::from_friendly(&text).unwrap(), tc);
        assert_eq!(tc.estimated_duration(), None, "no speed: unrated");
    }
    for refused in ["4d", "0d", "15d", "30d"] {
        assert!(TimeControl::from_pgn(refused).is_err(), "{refused}");
    }
    let day = secs(24 * 60 * 60);
    let mut clock = Clock::new(TimeControl::Correspondence(3));
    assert_eq!(clock.allowance(White), Some(day * 3));
    // A move after one day: the next move has three days again, not five.
    clock.press(White, day).unwrap();
    assert_eq!(clock.remaining(White), day * 3);
    assert_eq!(clock.allowance(White), Some(day * 3));
    // Three days less a second is in time; three days is not.
    assert!(clock.press(White, day * 3 - secs(1)).is_ok());
    assert_eq!(clock.press(White, day * 3), Err(FlagFell));
    assert_eq!(
        clock.granted(White),
        clock.used(White) + clock.remaining(White)
    );
}
