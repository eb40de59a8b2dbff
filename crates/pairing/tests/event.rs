//! A tournament run round by round (`event.rs`): what the arbiter and the server do to it,
//! what it refuses, and that every round it pairs is the round its own report's checker
//! pairs again (bbpPairings's checker reads the same reports in
//! `tests/python/check_events.py`).

use std::collections::HashSet;

use rookery_pairing::check::{Verdict, check_dutch};
use rookery_pairing::event::{Bye, Event, EventError, Result, System, random_event};
use rookery_pairing::tiebreak::{TieBreak, Value};
use rookery_pairing::trf::{Color, Trf};

#[test]
fn random_swiss_events_are_paired_as_the_dutch_system_pairs_them() {
    for seed in 1..=12u64 {
        let players = 8 + (seed as u32 * 7) % 40;
        let (event, run) = random_event(seed, players, 7);
        run.unwrap();
        let trf = Trf::parse(&event.trf(false)).unwrap();
        assert_eq!(trf.played_rounds(), 7, "seed {seed}");
        let verdicts = check_dutch(&trf).unwrap();
        assert!(
            verdicts.iter().all(|v| *v == Verdict::AsPaired),
            "seed {seed}: {verdicts:?}"
        );
        // Nobody plays twice in a round; nobody meets the same opponent twice over the
        // board; nobody out of the event or on a bye is paired.
        let mut met = HashSet::new();
        for (r, round) in event.paired.iter().enumerate() {
            let round_no = r as u32 + 1;
            let mut seen = HashSet::new();
            for b in round {
                for p in [Some(b.white), b.black].into_iter().flatten() {
                    assert!(seen.insert(p), "seed {seed}: {p} twice in round {round_no}");
                    let e = &event.players[p as usize - 1];
                    assert!(
                        e.first_round <= round_no,
                        "seed {seed}: {p} before entering"
                    );
                    assert!(e.withdrawn_from.is_none_or(|w| round_no < w), "seed {seed}");
                    assert!(
                        !event
                            .byes
                            .iter()
                            .any(|&(br, bp, _)| (br, bp) == (round_no, p)),
                        "seed {seed}: {p} paired in round {round_no} despite a bye"
                    );
                }
                if let (Some(black), Some(res)) = (b.black, b.result) {
                    if !matches!(
                        res,
                        Result::WhiteByForfeit | Result::BlackByForfeit | Result::DoubleForfeit
                    ) {
                        let pair = (b.white.min(black), b.white.max(black));
                        assert!(met.insert(pair), "seed {seed}: {pair:?} met twice");
                    }
                }
            }
        }
    }
}

fn club_event(system: System, players: u32, rounds: u32) -> Event {
    let mut e = Event::new("Club night", system, rounds, Color::White);
    for i in 0..players {
        e.enter(&format!("P{}", i + 1), 2000 - 10 * i).unwrap();
    }
    e
}

#[test]
fn a_round_is_paired_only_when_the_last_one_has_every_result() {
    let mut e = club_event(System::Dutch, 6, 3);
    let boards = e.pair_next().unwrap().to_vec();
    assert_eq!(boards.len(), 3);
    // C.04.3: the top half meets the bottom half; top player White (XXC white1).
    assert_eq!((boards[0].white, boards[0].black), (1, Some(4)));
    e.set_result(1, 1, Some(Result::WhiteWins)).unwrap();
    e.set_result(1, 2, Some(Result::Draw)).unwrap();
    assert_eq!(e.pair_next().unwrap_err(), EventError::RoundUnfinished(1));
    // The report holds only complete rounds.
    assert_eq!(Trf::parse(&e.trf(false)).unwrap().played_rounds(), 0);
    e.set_result(1, 3, Some(Result::BlackByForfeit)).unwrap();
    assert_eq!(Trf::parse(&e.trf(false)).unwrap().played_rounds(), 1);
    // Wrong calls change nothing.
    let before = e.clone();
    assert_eq!(e.set_result(1, 9, None), Err(EventError::NoSuchBoard(9)));
    assert_eq!(e.set_result(4, 1, None), Err(EventError::NoSuchRound(4)));
    assert_eq!(
        e.ask_bye(9, 2, Bye::Half),
        Err(EventError::UnknownPlayer(9))
    );
    assert_eq!(e.ask_bye(1, 1, Bye::Half), Err(EventError::NoSuchRound(1)));
    assert_eq!(e.ask_bye(1, 4, Bye::Half), Err(EventError::NoSuchRound(4)));
    assert_eq!(e, before);
    e.pair_next().unwrap();
    for b in 1..=3 {
        e.set_result(2, b, Some(Result::Draw)).unwrap();
    }
    e.pair_next().unwrap();
    for b in 1..=3 {
        e.set_result(3, b, Some(Result::Draw)).unwrap();
    }
    assert_eq!(e.pair_next().unwrap_err(), EventError::Finished);
}

#[test]
fn byes_late_entries_and_withdrawals_keep_players_out_of_the_pairing() {
    let mut e = club_event(System::Dutch, 5, 4);
    e.ask_bye(2, 1, Bye::Half).unwrap();
    // A second request for the round replaces the first; a cancelled one is gone.
    e.ask_bye(3, 1, Bye::Zero).unwrap();
    e.cancel_bye(3, 1);
    let boards = e.pair_next().unwrap().to_vec();
    // Four left: two boards, no pairing-allocated bye; 2 is on none.
    assert_eq!(boards.len(), 2);
    assert!(boards.iter().all(|b| b.white != 2 && b.black != Some(2)));
    for b in 1..=2 {
        e.set_result(1, b, Some(Result::WhiteWins)).unwrap();
    }
    // Entered late: from round 2, round 1 counted as nothing.
    let late = e.enter("Late", 1500).unwrap();
    assert_eq!(late, 6);
    e.withdraw(5).unwrap();
    let boards = e.pair_next().unwrap().to_vec();
    let in_round: Vec<u32> = boards
        .iter()
        .flat_map(|b| [Some(b.white), b.black])
        .flatten()
        .collect();
    assert!(
        in_round.contains(&6) && !in_round.contains(&5),
        "{boards:?}"
    );
    // The report: 2's half-point bye, 6's absence from round 1, 5's from round 2 on.
    let trf = e.trf(false);
    let line = |n: u32| {
        trf.lines()
            .find(|l| l[4..8].trim() == n.to_string())
            .unwrap()
            .to_owned()
    };
    assert!(line(2).ends_with("0000 - H"), "{}", line(2));
    assert!(line(6).ends_with("0000 - Z"), "{}", line(6));
    // A round robin takes nobody once it has begun.
    let mut rr = club_event(System::RoundRobin, 4, 3);
    rr.pair_next().unwrap();
    assert_eq!(rr.enter("Late", 1500), Err(EventError::RoundRobinStarted));
}

#[test]
fn a_round_robin_follows_the_berger_tables_and_ranks_by_its_tie_breaks() {
    let mut e = club_event(System::RoundRobin, 4, 3);
    // FIDE's table for 4 players: round 1 1-4, 2-3; round 2 4-3, 1-2; round 3 2-4, 3-1.
    let expected = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]];
    for (r, pairs) in expected.iter().enumerate() {
        let boards = e.pair_next().unwrap().to_vec();
        let got: Vec<(u32, u32)> = boards.iter().map(|b| (b.white, b.black.unwrap())).collect();
        assert_eq!(got, pairs.to_vec(), "round {}", r + 1);
        for b in 1..=2 {
            // White wins every game but the last board of round 3.
            let res = if r == 2 && b == 2 {
                Result::Draw
            } else {
                Result::WhiteWins
            };
            e.set_result(r as u32 + 1, b, Some(res)).unwrap();
        }
    }
    // 1: beat 4, beat 2, drew 3 = 2½; 2: beat 3, lost 1, beat 4 = 2; 3: lost 2, lost 4,
    // drew 1 = ½; 4: lost 1, beat 3, lost 2 = 1.
    let list = [TieBreak::Points, TieBreak::DirectEncounter];
    let (values, ranks) = e.standings(&list);
    let points: Vec<Value> = values.iter().map(|v| v[0]).collect();
    assert_eq!(
        points,
        [
            Value::Points(250),
            Value::Points(200),
            Value::Points(50),
            Value::Points(100)
        ]
    );
    assert_eq!(ranks, [1, 2, 4, 3]);
}

/// A player's record round by round as the crosstable and the pairing lists show it: known
/// once the board's result is in, the points before a round summing the known ones (C.04.1:
/// a win 1, a draw ½, a pairing-allocated bye 1, a half-point bye ½).
#[test]
fn records_and_points_before_a_round_follow_the_results() {
    use rookery_pairing::trf::Outcome;
    let mut e = Event::new("Records", System::Dutch, 3, Color::White);
    for (name, rating) in [("A", 2000), ("B", 1900), ("C", 1800)] {
        e.enter(name, rating).unwrap();
    }
    e.ask_bye(3, 1, Bye::Half).unwrap();
    let round = e.pair_next().unwrap().to_vec();
    assert_eq!(round.len(), 1, "two play, the third asked for a bye");
    let (w, b) = (round[0].white, round[0].black.unwrap());
    // While the game goes on, neither record is known; the bye's is.
    assert_eq!(e.record_of(w, 1), None);
    assert_eq!(e.record_of(b, 1), None);
    assert_eq!(e.record_of(3, 1).map(|r| r.outcome), Some(Outcome::HalfBye));
    assert_eq!(e.record_of(3, 2), None, "round 2 is not paired");
    assert_eq!(e.record_of(4, 1), None, "no player 4");
    e.set_result(1, 1, Some(Result::BlackWins)).unwrap();
    let rw = e.record_of(w, 1).unwrap();
    assert_eq!(
        (rw.opponent, rw.colour, rw.outcome),
        (Some(b), Some(Color::White), Outcome::Lost)
    );
    assert_eq!(rw.outcome.as_char(), '0');
    assert_eq!(e.record_of(b, 1).unwrap().outcome, Outcome::Won);
    // Points in tenths.
    assert_eq!(e.points_before(b, 2), 10);
    assert_eq!(e.points_before(w, 2), 0);
    assert_eq!(e.points_before(3, 2), 5);
    assert_eq!(e.points_before(b, 1), 0, "nothing before round 1");
}

/// A forbidden pair (C.04.3's absolute criterion B1 extended by the organiser, as JaVaFo's
/// and bbpPairings's `XXP`): four players would meet 1-3 and 2-4 in round 1 (the top half
/// against the bottom half); with 1 and 3 forbidden to meet, nobody plays 1-3.
#[test]
fn forbidden_pairs_never_meet() {
    let mut e = Event::new("Family", System::Dutch, 3, Color::White);
    for (name, rating) in [("A", 2000), ("B", 1900), ("C", 1800), ("D", 1700)] {
        e.enter(name, rating).unwrap();
    }
    let free = e.clone().pair_next().unwrap().to_vec();
    assert!(
        free.iter().any(|b| (b.white, b.black) == (1, Some(3))),
        "{free:?}"
    );
    e.forbidden.push((1, 3));
    assert!(e.trf(true).contains("XXP 1 3"));
    assert!(
        !e.trf(false).contains("XXP"),
        "the report holds games, not wishes"
    );
    for round in 1..=2 {
        let boards = e.pair_next().unwrap().to_vec();
        for b in &boards {
            let pair = (b.white.min(b.black.unwrap()), b.white.max(b.black.unwrap()));
            assert_ne!(pair, (1, 3), "round {round}: {boards:?}");
        }
        for k in 1..=boards.len() as u32 {
            e.set_result(round, k, Some(Result::Draw)).unwrap();
        }
    }
    // Round 3 would need 1-3 (every other pair has met): no pairing, said so.
    assert_eq!(e.pair_next().unwrap_err(), EventError::NoPairing);
}

/// Baku acceleration (C.04.7.1, FIDE's handbook): in round 1 of eight players, the top half
/// (GA: 1-4) counts a virtual point, so GA pairs within itself (1-3, 2-4) and GB too (5-7,
/// 6-8), where the plain Dutch system pairs the top half against the bottom (1-5, 2-6, ...).
#[test]
fn baku_acceleration_pairs_the_top_half_among_itself() {
    let mut e = Event::new("Accelerated", System::Dutch, 5, Color::White);
    for i in 0..8 {
        e.enter(&format!("P{i}"), 2400 - i * 50).unwrap();
    }
    let pairs = |e: &mut Event| -> Vec<(u32, u32)> {
        e.clone()
            .pair_next()
            .unwrap()
            .iter()
            .map(|b| (b.white.min(b.black.unwrap()), b.white.max(b.black.unwrap())))
            .collect()
    };
    assert_eq!(pairs(&mut e), [(1, 5), (2, 6), (3, 7), (4, 8)]);
    e.baku = true;
    assert!(e.trf(false).contains("192 FIDE_DUTCH_2025_BAKU"));
    assert_eq!(pairs(&mut e), [(1, 3), (2, 4), (5, 7), (6, 8)]);
}
