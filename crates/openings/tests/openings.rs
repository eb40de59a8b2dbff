//! The opening tables against themselves and against lichess's own naming: every row gets its
//! own name back, transpositions find the same name, and the lichess games in the core's test
//! data (which carry lichess's `ECO` and `Opening` tags) are named as lichess named them.

use rookery_core::Position;
use rookery_core::pgn::Reader;

fn moves_of(line: &str) -> Vec<rookery_core::Move> {
    let mut pos = Position::new();
    line.split_whitespace()
        .filter(|t| !t.ends_with('.'))
        .map(|t| {
            let m = pos.parse_san(t).unwrap();
            pos.play_unchecked(m);
            m
        })
        .collect()
}

/// The Zobrist hash of every position of a game from the start, the start's first.
fn hashes(moves: &[rookery_core::Move]) -> Vec<u64> {
    let mut pos = Position::new();
    let mut out = vec![pos.zobrist()];
    for &m in moves {
        pos.play_unchecked(m);
        out.push(pos.zobrist());
    }
    out
}

#[test]
fn every_row_is_read_and_names_its_own_position() {
    let book = rookery_openings::book();
    assert!(book.faults.is_empty(), "{:#?}", book.faults);
    assert_eq!(book.openings().len(), 3807);
    for o in book.openings() {
        let moves = moves_of(o.pgn);
        let named = rookery_openings::of_game(&moves).expect(o.name);
        assert_eq!((named.eco, named.name), (o.eco, o.name), "{}", o.pgn);
        assert_eq!(rookery_openings::of_hashes(&hashes(&moves)), Some(named));
    }
}

#[test]
fn transpositions_find_the_same_name() {
    for (a, b) in [
        // The Queen's Gambit Declined by two roads.
        ("1. d4 d5 2. c4 e6", "1. c4 e6 2. d4 d5"),
        // A Sicilian Najdorf reached with the knight moves swapped.
        (
            "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6",
            "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 a6 5. Nc3 Nf6",
        ),
        // The Four Knights by another road.
        (
            "1. e4 e5 2. Nf3 Nc6 3. Nc3 Nf6",
            "1. Nf3 Nc6 2. Nc3 Nf6 3. e4 e5",
        ),
    ] {
        let (x, y) = (
            rookery_openings::of_game(&moves_of(a)).unwrap(),
            rookery_openings::of_game(&moves_of(b)).unwrap(),
        );
        assert_eq!(x, y, "{a} / {b}");
        assert_eq!(rookery_openings::of_hashes(&hashes(&moves_of(b))), Some(y));
    }
    let najdorf = rookery_openings::of_game(&moves_of(
        "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 a6 5. Nc3 Nf6",
    ))
    .unwrap();
    assert_eq!(
        (najdorf.eco, najdorf.name),
        ("B90", "Sicilian Defense: Najdorf Variation")
    );
    // Past 40 plies nothing more is looked for; moves out of book keep the last name.
    let mut long = moves_of("1. e4 e5 2. Nf3 Nc6 3. Bb5");
    let mut pos = Position::new();
    for &m in &long {
        pos.play_unchecked(m);
    }
    for _ in 0..10 {
        let m = pos.legal_moves()[0];
        pos.play_unchecked(m);
        long.push(m);
    }
    assert_eq!(rookery_openings::of_game(&long).unwrap().eco, "C60");
}

/// lichess's games carry the name lichess's tables gave them on the day (May 2025); ours are
/// the tables of July 2026. Each game is named as lichess named it, or the difference is one
/// the tables' history explains: lichess's name is no longer in the tables (renamed since), or
/// the game passed lichess's named position and then a deeper one that the newer tables name
/// (a line added since). A game without moves is "?" to lichess and has no opening to us.
/// Nothing else may differ; the figures are printed.
#[test]
fn lichess_games_are_named_as_lichess_named_them() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../core/tests/data/pgn/shakmaty-pgn-reader/lichess_db_1000k.pgn"
    );
    let book = rookery_openings::book();
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let (mut games, mut same_name, mut same_eco, mut renamed, mut deeper) = (0, 0, 0, 0, 0);
    let mut unexplained = Vec::new();
    for game in Reader::new(file) {
        let Ok(record) = game else { continue };
        let (Some(eco), Some(name)) = (record.tags.get("ECO"), record.tags.get("Opening")) else {
            continue;
        };
        if record.start != Position::new() {
            continue;
        }
        games += 1;
        let moves: Vec<_> = record.moves.iter().map(|m| m.m).collect();
        let ours = rookery_openings::of_game(&moves);
        assert_eq!(
            rookery_openings::of_hashes(&hashes(&moves)),
            ours,
            "by hashes"
        );
        if ours.map(|o| o.eco) == Some(eco) || (ours.is_none() && eco == "?") {
            same_eco += 1;
        }
        if ours.map_or((eco == "?").then_some(name), |o| Some(o.name)) == Some(name)
            && ours.is_none_or(|o| o.eco == eco)
        {
            same_name += 1;
            continue;
        }
        let ours = ours.expect("a game lichess named has a name here too");
        // The plies at which the game stands on a position named as lichess named it, and
        // on ours.
        let mut pos = Position::new();
        let (mut theirs_at, mut ours_at) = (None, None);
        for (ply, &m) in moves.iter().take(rookery_openings::MAX_PLIES).enumerate() {
            pos.play_unchecked(m);
            if let Some(o) = book.at(&pos) {
                if o.eco == eco && o.name == name {
                    theirs_at = Some(ply);
                }
                if o == ours {
                    ours_at = Some(ply);
                }
            }
        }
        let known = book
            .openings()
            .iter()
            .any(|o| o.eco == eco && o.name == name);
        let why = if !known {
            renamed += 1;
            "lichess's name is not in the newer tables"
        } else if theirs_at.is_some() && theirs_at < ours_at {
            deeper += 1;
            "the newer tables name a deeper position the game reached"
        } else {
            unexplained.push(format!("{eco} {name} / {} {}", ours.eco, ours.name));
            "unexplained"
        };
        println!(
            "differs: lichess {eco} {name:?}, ours {} {:?} ({why}); {}",
            ours.eco,
            ours.name,
            record
                .moves
                .iter()
                .take(12)
                .map(|m| m.san.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    let pct = |n: usize| 100.0 * n as f64 / games as f64;
    println!(
        "lichess games: {games}; the same name {same_name} ({:.1}%), the same ECO {same_eco} \
         ({:.1}%); differences: {renamed} renamed since, {deeper} deeper lines added since, {} \
         unexplained",
        pct(same_name),
        pct(same_eco),
        unexplained.len()
    );
    assert!(games > 400, "{games}");
    assert!(unexplained.is_empty(), "{unexplained:#?}");
    assert_eq!(same_name + renamed + deeper, games);
}
