//! An arena's scoring, rule by rule, as lichess publishes it (its arena FAQ: "How are points
//! calculated?", "Berserk", "Quick draws"; the thresholds as lila counts them). Each test is
//! named after the rule it checks; the figures are worked out by hand from the rule.

use rookery_pairing::arena::{
    Flag, Game, Outcome, PAUSES_FORGOTTEN_MS, Pauses, Sheet, performance, standings,
};

fn game(outcome: Outcome, plies: u32, berserk: bool) -> Game {
    Game {
        outcome,
        plies,
        berserk,
    }
}

const W: Outcome = Outcome::Win;
const D: Outcome = Outcome::Draw;
const L: Outcome = Outcome::Loss;

/// The points of each game in turn, streaks on.
fn points(games: &[Game]) -> Vec<u32> {
    let mut sheet = Sheet::default();
    games.iter().map(|&g| sheet.add(g, true).points).collect()
}

#[test]
fn a_win_is_worth_two_a_draw_one_a_loss_nothing() {
    assert_eq!(
        points(&[game(W, 40, false), game(L, 40, false), game(D, 40, false)]),
        [2, 0, 1]
    );
}

#[test]
fn two_wins_in_a_row_double_every_game_until_one_is_not_won() {
    // W W | W W (on fire: 4 each) | L (ends it) | W W | W (on fire again)
    let games: Vec<Game> = [W, W, W, W, L, W, W, W]
        .iter()
        .map(|&o| game(o, 40, false))
        .collect();
    assert_eq!(points(&games), [2, 2, 4, 4, 0, 2, 2, 4]);
}

#[test]
fn a_draw_on_fire_is_worth_two_and_ends_the_streak() {
    let games: Vec<Game> = [W, W, D, W].iter().map(|&o| game(o, 40, false)).collect();
    let mut sheet = Sheet::default();
    let scores: Vec<(u32, Flag)> = games
        .iter()
        .map(|&g| {
            let s = sheet.add(g, true);
            (s.points, s.flag)
        })
        .collect();
    assert_eq!(
        scores,
        [
            (2, Flag::Normal),
            (2, Flag::Normal),
            (2, Flag::Double),
            (2, Flag::Normal)
        ]
    );
}

#[test]
fn an_arena_without_streaks_never_doubles() {
    let mut sheet = Sheet::default();
    for _ in 0..4 {
        assert_eq!(sheet.add(game(W, 40, false), false).points, 2);
    }
    assert_eq!(sheet.total, 8);
}

#[test]
fn a_berserk_win_of_at_least_seven_moves_each_earns_one_more_point_not_doubled() {
    // Berserk win of exactly 14 plies: 2 + 1. On fire, a berserk win is 4 + 1, not 6 or 10.
    assert_eq!(
        points(&[game(W, 14, true), game(W, 40, false), game(W, 41, true)]),
        [3, 2, 5]
    );
}

#[test]
fn a_berserk_win_in_under_seven_moves_each_earns_no_extra_point() {
    assert_eq!(points(&[game(W, 13, true)]), [2]);
}

#[test]
fn going_berserk_and_drawing_or_losing_earns_nothing_more() {
    assert_eq!(points(&[game(D, 40, true), game(L, 40, true)]), [1, 0]);
}

#[test]
fn a_draw_in_fewer_than_ten_moves_each_scores_nothing() {
    // 19 plies: quick; 20: counts.
    assert_eq!(points(&[game(D, 19, false)]), [0]);
    assert_eq!(points(&[game(D, 20, false)]), [1]);
}

#[test]
fn a_quick_draw_scores_nothing_even_on_fire() {
    assert_eq!(
        points(&[game(W, 40, false), game(W, 40, false), game(D, 10, false)]),
        [2, 2, 0]
    );
}

#[test]
fn a_short_draw_after_a_draw_scores_nothing_losses_between_do_not_reset_it() {
    // D (1) then D (0); D L D: the loss does not break the run of draws (0); a win does.
    assert_eq!(points(&[game(D, 40, false), game(D, 40, false)]), [1, 0]);
    assert_eq!(
        points(&[game(D, 40, false), game(L, 40, false), game(D, 40, false)]),
        [1, 0, 0]
    );
    assert_eq!(
        points(&[game(D, 40, false), game(W, 40, false), game(D, 40, false)]),
        [1, 2, 1]
    );
    // A quick draw counts as a draw before the next one.
    assert_eq!(points(&[game(D, 10, false), game(D, 40, false)]), [0, 0]);
}

#[test]
fn a_draw_of_thirty_moves_each_counts_even_after_a_draw() {
    assert_eq!(points(&[game(D, 40, false), game(D, 60, false)]), [1, 1]);
    assert_eq!(points(&[game(D, 40, false), game(D, 59, false)]), [1, 0]);
}

#[test]
fn three_wins_the_third_berserk_score_two_two_four_plus_one() {
    // The example: the loser resigns after 2, 2 and 7 moves (4, 4 and 14 plies),
    // the winner berserk in the third: 2 + 2 + 4 + 1 = 9; the loser 0.
    let mut winner = Sheet::default();
    let mut loser = Sheet::default();
    for (plies, berserk) in [(4, false), (4, false), (14, true)] {
        winner.add(game(W, plies, berserk), true);
        loser.add(game(L, plies, false), true);
    }
    assert_eq!((winner.total, loser.total), (9, 0));
}

#[test]
fn performance_averages_the_opponents_rating_plus_or_minus_five_hundred() {
    // (1600 + 500) + (1400) + (1800 - 500) = 4800 / 3 = 1600.
    assert_eq!(performance(&[(1600, W), (1400, D), (1800, L)]), Some(1600));
    // Rounded down: (1500 + 500 + 1501) / 2 = 1750.5 -> 1750.
    assert_eq!(performance(&[(1500, W), (1501, D)]), Some(1750));
    assert_eq!(performance(&[]), None);
}

#[test]
fn ties_in_score_are_broken_by_performance_then_by_rating_then_by_who_came_first() {
    // (score, performance, rating)
    let players = [
        (10, Some(1700), 1500),
        (12, Some(1400), 1400),
        (10, Some(1900), 1200),
        (10, None, 1800),
        (10, None, 1800),
    ];
    assert_eq!(standings(&players), [1, 2, 3, 4, 0]);
}

mod pairing {
    use std::collections::HashSet;

    use rookery_pairing::arena::{Colours, Waiting, Wave, pair};

    fn waiting(id: u64, rank: u32, rating: u32) -> Waiting {
        Waiting {
            id,
            rank,
            rating,
            last_opponent: None,
            colours: Colours::default(),
        }
    }

    /// The pairs as unordered sets of ids, sorted.
    fn pairs(w: &[Waiting], wave: Wave) -> Vec<(u64, u64)> {
        let mut heads = true;
        let mut out: Vec<(u64, u64)> = pair(w, wave, &mut || {
            heads = !heads;
            heads
        })
        .into_iter()
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
        out.sort_unstable();
        out
    }

    #[test]
    fn at_the_start_neighbours_in_the_standings_meet() {
        let w: Vec<Waiting> = (1..=6).map(|i| waiting(i, i as u32, 1500)).collect();
        assert_eq!(pairs(&w, Wave::First), [(1, 2), (3, 4), (5, 6)]);
    }

    #[test]
    fn later_the_closest_ranks_meet() {
        let w: Vec<Waiting> = (1..=4).map(|i| waiting(i, i as u32, 1500)).collect();
        assert_eq!(pairs(&w, Wave::Later), [(1, 2), (3, 4)]);
    }

    #[test]
    fn no_immediate_rematch_while_others_wait() {
        let mut w: Vec<Waiting> = (1..=4).map(|i| waiting(i, i as u32, 1500)).collect();
        w[0].last_opponent = Some(2);
        assert_eq!(pairs(&w, Wave::Later), [(1, 3), (2, 4)]);
        // Nor when only the other one remembers it.
        let mut w: Vec<Waiting> = (1..=4).map(|i| waiting(i, i as u32, 1500)).collect();
        w[1].last_opponent = Some(1);
        assert_eq!(pairs(&w, Wave::Later), [(1, 3), (2, 4)]);
    }

    #[test]
    fn two_players_alone_meet_again() {
        let mut w = vec![waiting(1, 1, 1500), waiting(2, 2, 1500)];
        w[0].last_opponent = Some(2);
        w[1].last_opponent = Some(1);
        assert!(
            pairs(&w, Wave::Later).is_empty(),
            "not while others could come"
        );
        assert_eq!(pairs(&w, Wave::TwoAlone), [(1, 2)]);
    }

    #[test]
    fn two_players_with_three_whites_in_a_row_each_do_not_meet() {
        let mut w: Vec<Waiting> = (1..=4).map(|i| waiting(i, i as u32, 1500)).collect();
        for p in &mut w[..2] {
            p.colours = Colours {
                strike: 3,
                balance: 3,
            };
        }
        assert_eq!(pairs(&w, Wave::Later), [(1, 3), (2, 4)]);
    }

    #[test]
    fn the_player_with_the_shorter_run_of_whites_takes_white() {
        let mut w = vec![waiting(1, 1, 1500), waiting(2, 2, 1500)];
        w[0].colours = Colours::default().after(true).after(true);
        w[1].colours = Colours::default().after(false);
        assert_eq!(
            w[1].colours,
            Colours {
                strike: -1,
                balance: -1
            }
        );
        let got = pair(&w, Wave::Later, &mut || unreachable!("the colours decide"));
        assert_eq!(got, [(2, 1)]);
    }

    #[test]
    fn the_top_of_the_standings_is_paired_closest() {
        // Six waiting, ranks 1, 2, 3 and 50, 51, 52 of 52: the leaders meet each other and
        // the tail each other; the odd ones out of each trio meet across.
        let w: Vec<Waiting> = [1, 2, 3, 50, 51, 52]
            .iter()
            .enumerate()
            .map(|(i, &r)| waiting(i as u64 + 1, r, 1500))
            .collect();
        let got = pairs(&w, Wave::Later);
        assert!(got.contains(&(1, 2)), "{got:?}");
        assert_eq!(got.len(), 3);
    }

    #[test]
    fn a_crowd_of_waiting_players_is_paired_in_groups_nobody_twice() {
        let w: Vec<Waiting> = (1..=250u64)
            .map(|i| {
                let mut p = waiting(i, i as u32, 2000 - i as u32);
                // Each just played his neighbour below.
                p.last_opponent = Some(if i % 2 == 1 { i + 1 } else { i - 1 });
                p
            })
            .collect();
        let got = pairs(&w, Wave::Later);
        let mut seen = HashSet::new();
        for &(a, b) in &got {
            assert!(seen.insert(a) && seen.insert(b), "{a} or {b} twice");
            assert!(a.abs_diff(b) != 1 || a % 2 == 0, "{a}-{b} just met");
        }
        // Two matched groups of 100 (everyone), then neighbours in rank order among the last
        // 50, every neighbour pair of which just met: they wait.
        assert_eq!(got.len(), 100, "{}", got.len());
    }
}

// Pausing (lila's Pause.scala): 10 s after the first pause, then pauses-1 fifteenths of the
// game's estimated length, between 10 and 120 s; forgotten after twenty minutes.
#[test]
fn the_first_pause_keeps_a_player_out_ten_seconds() {
    let p = Pauses::default().paused(1_000);
    assert_eq!(p.count, 1);
    assert_eq!(p.remaining_ms(1_000, 300), 10_000);
    assert_eq!(p.remaining_ms(6_000, 300), 5_000);
    assert_eq!(p.remaining_ms(11_000, 300), 0);
}

#[test]
fn each_later_pause_waits_a_fifteenth_of_the_game_more_at_most_two_minutes() {
    // 5+0: 300 s / 15 = 20 s a pause after the first.
    let mut p = Pauses::default();
    let mut delays = Vec::new();
    for k in 0..9 {
        p = p.paused(k * 1_000);
        delays.push(p.delay_ms(300) / 1_000);
    }
    assert_eq!(delays, vec![10, 20, 40, 60, 80, 100, 120, 120, 120]);
    // 1+0: 60 s / 15 = 4 s, under the 10 s floor for the second pause.
    let q = Pauses::default().paused(0).paused(1).paused(2);
    assert_eq!(q.delay_ms(60), 10_000);
    // 3+2: (180 + 80) / 15 = 17 s.
    let r = Pauses::default().paused(0).paused(1);
    assert_eq!(r.delay_ms(260), 17_000);
}

#[test]
fn twenty_minutes_without_a_pause_count_the_pauses_afresh() {
    let p = Pauses::default().paused(0).paused(1_000).paused(2_000);
    assert_eq!(p.count, 3);
    let later = p.paused(2_000 + PAUSES_FORGOTTEN_MS);
    assert_eq!(later.count, 1);
    assert_eq!(p.remaining_ms(2_000 + PAUSES_FORGOTTEN_MS, 300), 0);
}
