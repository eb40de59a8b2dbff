//! Tie-breaks case by case from the definitions of FIDE's tie-break regulations (C.07, with
//! the 2026 rules for unplayed rounds), on two small tournaments worked out by hand (FIDE's
//! own checker, tools/TieBreakServer, gives the same figures; `compare_tiebreaks.py`
//! compares the two on random tournaments).

use rookery_pairing::tiebreak::{self, System, TieBreak, Value};
use rookery_pairing::trf::Trf;

fn data(name: &str) -> Trf {
    let path = format!("{}/tests/data/trf/{name}", env!("CARGO_MANIFEST_DIR"));
    Trf::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn list(names: &str) -> Vec<TieBreak> {
    names
        .split_whitespace()
        .map(|n| TieBreak::parse(n).unwrap())
        .collect()
}

/// Values as text, one row per player.
fn table(trf: &Trf, system: System, names: &str) -> Vec<String> {
    let list = list(names);
    let values = tiebreak::compute(trf, 3, system, &list).unwrap();
    values
        .iter()
        .map(|row| {
            let cells: Vec<String> = row.iter().map(Value::to_string).collect();
            cells.join(" ")
        })
        .collect()
}

/// Values as text with each player's rank by them.
fn ranked(trf: &Trf, system: System, names: &str) -> Vec<String> {
    let list = list(names);
    let values = tiebreak::compute(trf, 3, system, &list).unwrap();
    let ranks = tiebreak::ranks(&values, &list);
    table(trf, system, names)
        .into_iter()
        .zip(ranks)
        .map(|(row, rank)| format!("{rank}: {row}"))
        .collect()
}

// tiebreaks-swiss.trf, 3 rounds, ratings 2000 1900 1800 1700 1600:
//   round 1: 1-2 1-0, 3-4 ½-½, 5 the pairing-allocated bye
//   round 2: 3-1 0-1, 2-5 +/- (5 forfeits), 4 a half-point bye
//   round 3: 1-4 ½-½, 2-3 0-1, 5 withdrawn (absent)
// Points: 1 2½, 2 1, 3 1½, 4 1½, 5 1.
// Voluntary unplayed rounds (16.2): 4's half-point bye, 5's forfeit loss and absence (not
// 2's forfeit win, not 5's pairing-allocated bye). The last round that is not one: 5's is
// round 1, everyone else's round 3.
// Adjusted scores (16.3): each player's points, but 5's absence in round 3 (no opponent,
// after his last such round) counts as a draw: 5 is worth 1½ to his opponents.

#[test]
fn buchholz_counts_the_opponents_adjusted_scores_and_unplayed_rounds_as_games_against_oneself() {
    let t = table(&data("tiebreaks-swiss.trf"), System::Swiss, "BH BH/C1");
    // 1: opponents 2 (1), 3 (1½), 4 (1½) = 4; cut the least (1) = 3.
    assert_eq!(t[0], "4.0 3.0");
    // 2: 1 (2½) + round 2 a forfeit win against 5: his own 1, capped by 5's adjusted 1½
    //    (16.4.1) = 1 + 3 (1½) = 5; the cut drops the 1.
    assert_eq!(t[1], "5.0 4.0");
    // 3: 4 (1½) + 1 (2½) + 2 (1) = 5; cut 1 = 4.
    assert_eq!(t[2], "5.0 4.0");
    // 4: 3 (1½) + the half-point bye, his own 1½ capped at a draw a round, 1½ (16.4.2) +
    //    1 (2½) = 5½; the cut takes the bye first, a voluntary unplayed round (14.6) = 4.
    assert_eq!(t[3], "5.5 4.0");
    // 5: the bye 1 (his own 1), the forfeit loss min(1, 2's 1) = 1, the absence 1 = 3;
    //    cut one of the voluntary unplayed rounds = 2.
    assert_eq!(t[4], "3.0 2.0");
}

#[test]
fn sonneborn_berger_and_progressive_scores() {
    let t = table(&data("tiebreaks-swiss.trf"), System::Swiss, "SB PS PS/C1");
    // SB: each round's Buchholz value times the points scored in it.
    // 1: 1×1 + 1½×1 + 1½×½ = 3.25; PS: 1 + 2 + 2½ = 5½; cut round 1: 4½.
    assert_eq!(t[0], "3.25 5.5 4.5");
    // 2: 2½×0 + 1×1 (the forfeit win) + 1½×0 = 1; PS 0 + 1 + 1 = 2.
    assert_eq!(t[1], "1.0 2.0 2.0");
    // 3: 1½×½ + 2½×0 + 1×1 = 1.75; PS ½ + ½ + 1½ = 2½.
    assert_eq!(t[2], "1.75 2.5 2.0");
    // 4: 1½×½ + 1½×½ (the bye) + 2½×½ = 2.75; PS ½ + 1 + 1½ = 3.
    assert_eq!(t[3], "2.75 3.0 2.5");
    // 5: 1×1 (the pairing-allocated bye) + 1×0 + 1×0 = 1; PS 1 + 1 + 1 = 3.
    assert_eq!(t[4], "1.0 3.0 2.0");
}

#[test]
fn counts_of_wins_games_and_colours() {
    let t = table(
        &data("tiebreaks-swiss.trf"),
        System::Swiss,
        "WIN WON BPG BWG REP",
    );
    // WIN counts rounds worth a win, played or not; WON only games won over the board; BPG
    // games played with Black; BWG won with Black; REP rounds played or won without playing.
    assert_eq!(t[0], "2 2 1 1 3");
    assert_eq!(t[1], "1 0 1 0 3"); // the forfeit win: WIN and REP, not WON
    assert_eq!(t[2], "1 1 1 1 3");
    assert_eq!(t[3], "0 0 2 0 2"); // the half-point bye is not a round played
    assert_eq!(t[4], "1 0 0 0 1"); // the pairing-allocated bye is a win and a round played
}

#[test]
fn average_rating_of_opponents_and_performance_count_games_over_the_board() {
    let t = table(
        &data("tiebreaks-swiss.trf"),
        System::Swiss,
        "ARO ARO/C1 TPR",
    );
    // 1: 1900, 1800, 1700: 1800; without the lowest 1850; 2½ of 3 = 83% → dp 273: 2073.
    assert_eq!(t[0], "1800 1850 2073");
    // 2: 2000 and 1800 (the forfeit is no game): 1900; 0% → dp -800: 1100.
    assert_eq!(t[1], "1900 2000 1100");
    // 3: 1700, 2000, 1900: 1866.7 rounds to 1867; 50%: 1867.
    assert_eq!(t[2], "1867 1950 1867");
    // 4: 1800 and 2000: 1900; 1 of 2, 50%.
    assert_eq!(t[3], "1900 2000 1900");
    // 5 played no game: no value.
    assert_eq!(t[4], "- - -");
}

#[test]
fn direct_encounter_ranks_players_tied_before_it_by_their_games_together() {
    // tiebreaks-round-robin.trf: 1 beat 2 and 3, lost to 4; 2 beat 3 and 4; 3 beat 4.
    // Points 2, 2, 1, 1: 1 beat 2 (DE 1, 2), 3 beat 4 (DE 1, 2).
    // SB in a round robin: 1 beat 2 (2) and 3 (1) = 3; 2: 3 (1) + 4 (1) = 2; 3: 4 (1);
    // 4: 1 (2).
    let t = ranked(
        &data("tiebreaks-round-robin.trf"),
        System::RoundRobin,
        "PTS DE SB",
    );
    assert_eq!(
        t,
        [
            "1: 2.0 1 3.0",
            "2: 2.0 2 2.0",
            "3: 1.0 1 1.0",
            "4: 1.0 2 2.0"
        ]
    );
    // In the Swiss example 3 and 4 (1½ each) drew their game: DE leaves them tied (0),
    // and nobody else is tied (0).
    let t = ranked(&data("tiebreaks-swiss.trf"), System::Swiss, "PTS DE");
    assert_eq!(
        t,
        ["1: 2.5 0", "4: 1.0 0", "2: 1.5 0", "2: 1.5 0", "4: 1.0 0"]
    );
}

#[test]
fn names_read_as_fide_writes_them() {
    for name in [
        "PTS", "BH", "BH/C1", "BH/M1", "SB/C1", "PS", "ARO/C1", "TPR", "DE", "WIN",
    ] {
        assert_eq!(TieBreak::parse(name).unwrap().to_string(), name);
    }
    for bad in ["XX", "BH/Q1", "DE/C1", "SB/M1", "BH/C"] {
        assert!(TieBreak::parse(bad).is_none(), "{bad}");
    }
}
