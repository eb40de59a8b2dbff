//! Round robin against FIDE's Berger tables as published (tests/data/berger-fide.txt, C.05
//! Annex 1): every size in the tables, every round, every board, every colour.

use rookery_pairing::berger::{Pairing, Schedule};

/// One round of a published table: (white, black) by board.
type TableRound = Vec<(usize, usize)>;

/// The published tables: (even size, its rounds).
fn published() -> Vec<(usize, Vec<TableRound>)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/berger-fide.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut tables: Vec<(usize, Vec<TableRound>)> = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        if let Some(head) = line.strip_suffix(" players:") {
            let even: usize = head.rsplit(' ').next().unwrap().parse().unwrap();
            tables.push((even, Vec::new()));
            continue;
        }
        let (_, games) = line.split_once(": ").unwrap();
        let round = games
            .split(", ")
            .map(|g| {
                let (w, b) = g.split_once('-').unwrap();
                (w.trim().parse().unwrap(), b.trim().parse().unwrap())
            })
            .collect();
        tables.last_mut().unwrap().1.push(round);
    }
    tables
}

fn pairs(boards: &[Pairing]) -> Vec<(usize, usize)> {
    boards.iter().map(|p| (p.white, p.black)).collect()
}

#[test]
fn c05_annex_1_every_table_for_3_to_16_players() {
    let tables = published();
    assert_eq!(
        tables.iter().map(|t| t.0).collect::<Vec<_>>(),
        [4, 6, 8, 10, 12, 14, 16]
    );
    for (even, rounds) in &tables {
        assert_eq!(rounds.len(), even - 1);
        let ours = Schedule::single(*even).unwrap();
        for (r, (theirs, mine)) in rounds.iter().zip(&ours.rounds).enumerate() {
            assert_eq!(
                &pairs(&mine.boards),
                theirs,
                "{even} players, round {}",
                r + 1
            );
            assert_eq!(mine.bye, None);
        }
        // An odd count: the highest number counts as a bye.
        let odd = even - 1;
        let ours = Schedule::single(odd).unwrap();
        assert_eq!(ours.rounds.len(), rounds.len());
        for (r, (theirs, mine)) in rounds.iter().zip(&ours.rounds).enumerate() {
            let played: Vec<_> = theirs
                .iter()
                .copied()
                .filter(|&(w, b)| w != *even && b != *even)
                .collect();
            let bye = theirs
                .iter()
                .find_map(|&(w, b)| (w == *even).then_some(b).or((b == *even).then_some(w)));
            assert_eq!(
                pairs(&mine.boards),
                played,
                "{odd} players, round {}",
                r + 1
            );
            assert_eq!(mine.bye, bye, "{odd} players, round {}", r + 1);
        }
    }
}

#[test]
fn c05_annex_1_a_double_round_robin_swaps_the_first_cycles_last_two_rounds_and_reverses_colours() {
    for (even, rounds) in published() {
        let double = Schedule::double(even).unwrap();
        let n = rounds.len();
        assert_eq!(double.rounds.len(), 2 * n);
        let mut first = rounds.clone();
        if n > 2 {
            first.swap(n - 2, n - 1);
        }
        for (r, theirs) in first.iter().enumerate() {
            assert_eq!(
                &pairs(&double.rounds[r].boards),
                theirs,
                "{even}: round {}",
                r + 1
            );
            let reversed: Vec<_> = theirs.iter().map(|&(w, b)| (b, w)).collect();
            assert_eq!(pairs(&double.rounds[n + r].boards), reversed);
        }
        // Nobody has the same colour three times running (with 4 players, whose cycle has
        // three rounds, the swap cannot avoid it).
        for player in (1..=even).filter(|_| even > 4) {
            let colours: Vec<bool> = double
                .rounds
                .iter()
                .map(|r| r.boards.iter().any(|p| p.white == player))
                .collect();
            assert!(
                colours.windows(3).all(|w| !(w[0] == w[1] && w[1] == w[2])),
                "{even} players: player {player} {colours:?}"
            );
        }
    }
}
