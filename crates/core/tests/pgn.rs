//! PGN reading and writing against files written by others (tests/data/pgn, see its
//! README) and python-chess's reading of the same files (tests/data/pgn/python-chess-games.tsv,
//! made by tests/python/pgn_expectations.py).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rookery_core::pgn::{GameRecord, GameResult, PgnErrorKind, Reader, write};
use rookery_core::{Move, Position};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pgn")
}

fn read_all(bytes: &[u8]) -> Vec<Result<GameRecord, rookery_core::pgn::PgnError>> {
    Reader::new(bytes).collect()
}

fn pgn_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "pgn") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&data(), &mut out);
    out.sort();
    out
}

/// What a game must read as, by an independent reader.
enum Expected {
    /// Read without error: so many plies, this final FEN.
    Ok(usize, String),
    /// Refused: python-chess found an error (it counted `plies` moves before it).
    Refused(usize),
    /// Refused: a variant other than standard chess.
    Variant,
    /// Refused at this ply: a null move.
    NullMove(usize),
}

/// An independent reading of every game of every file: file -> games.
///
/// python-chess-games.tsv is python-chess's reading of each file as it is
/// (tests/python/pgn_expectations.py). For the files python-chess reads otherwise than their
/// authors meant (a comment before move 1 taken for the end of the tags, games one a line,
/// Crafty's columns, `%` escape lines, ...), python-chess-normalised.tsv is its reading of
/// the file rewritten by tests/python/pgn_divergent.py, which names each file's reason and
/// rewriting, and which games are variants or carry null moves; it takes precedence.
fn independent_reading() -> BTreeMap<String, Vec<Expected>> {
    let mut map: BTreeMap<String, Vec<Expected>> = BTreeMap::new();
    let text = std::fs::read_to_string(data().join("python-chess-games.tsv")).unwrap();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let plies = cols[3].parse().unwrap();
        map.entry(cols[0].to_owned())
            .or_default()
            .push(if cols[2] == "1" {
                Expected::Ok(plies, cols[4].to_owned())
            } else {
                Expected::Refused(plies)
            });
    }
    let text = std::fs::read_to_string(data().join("python-chess-normalised.tsv")).unwrap();
    let mut normalised: BTreeMap<String, Vec<Expected>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let expected = match cols[2] {
            "ok" => Expected::Ok(cols[3].parse().unwrap(), cols[4].to_owned()),
            "variant" => Expected::Variant,
            null => Expected::NullMove(null.strip_prefix("null@").unwrap().parse().unwrap()),
        };
        normalised
            .entry(cols[0].to_owned())
            .or_default()
            .push(expected);
    }
    assert!(
        normalised.len() >= 36,
        "{} rewritten files",
        normalised.len()
    );
    map.extend(normalised);
    map
}

#[test]
fn every_game_of_every_pgn_file_reads_as_an_independent_reader_reads_it() {
    let reference = independent_reading();
    let (mut compared_games, mut files) = (0, 0);
    for path in pgn_files() {
        let rel = path
            .strip_prefix(data())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let ours = read_all(&std::fs::read(&path).unwrap());
        let theirs = &reference[&rel];
        assert_eq!(ours.len(), theirs.len(), "{rel}: number of games");
        for (i, (game, expected)) in ours.iter().zip(theirs).enumerate() {
            let n = i + 1;
            match (game, expected) {
                (Ok(record), Expected::Ok(plies, fen)) => {
                    assert_eq!(record.moves.len(), *plies, "{rel} game {n}");
                    assert_eq!(&record.final_position().fen(), fen, "{rel} game {n}");
                }
                (Err(e), Expected::Refused(plies)) => {
                    // python-chess counts the moves it read before the bad one; a fault
                    // that is no move (ply 0) comes before any move.
                    let expected = if e.ply == 0 { 0 } else { plies + 1 };
                    assert_eq!(e.ply, expected, "{rel} game {n}: {e}");
                }
                (Err(e), Expected::Variant) => {
                    assert!(
                        matches!(e.kind, PgnErrorKind::Variant(_)),
                        "{rel} game {n}: {e}"
                    );
                }
                (Err(e), Expected::NullMove(ply)) => {
                    assert_eq!(
                        (&e.kind, e.ply),
                        (&PgnErrorKind::NullMove, *ply),
                        "{rel} game {n}: {e}"
                    );
                }
                (Ok(_), _) => panic!("{rel} game {n}: read, where it must be refused"),
                (Err(e), _) => panic!("{rel} game {n}: refused ({e}), where it must be read"),
            }
            compared_games += 1;
        }
        files += 1;
    }
    assert_eq!(
        files,
        reference.len(),
        "a reference names a file that is gone"
    );
    assert!(compared_games > 2400, "{compared_games}");
}

#[test]
fn deliberately_broken_games_are_rejected_at_the_right_ply_and_reading_goes_on() {
    let text = b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n\n\
                 [White \"C\"]\n\n1. d4 d5 2. Nf3 *\n\n\
                 [White \"D\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n\
                 1. e4 { unterminated";
    let games = read_all(text);
    assert_eq!(games.len(), 4);
    let e = games[0].as_ref().unwrap_err();
    assert_eq!((e.game, e.ply, e.text.as_str()), (1, 3, "Ke3"));
    assert_eq!(e.white.as_deref(), Some("A"));
    assert_eq!(
        e.to_string(),
        "game 1 (A - B), ply 3 (2. Ke3): no legal move matches Ke3"
    );
    assert_eq!(games[1].as_ref().unwrap().moves.len(), 3);
    let e = games[2].as_ref().unwrap_err();
    assert!(matches!(e.kind, PgnErrorKind::BadFen(_)), "{e}");
    assert_eq!(
        games[3].as_ref().unwrap_err().kind,
        PgnErrorKind::UnterminatedComment
    );
}

#[test]
fn movetext_forms() {
    let text = "\u{feff}[Event \"x \\\"quoted\\\" \\\\ y\"]\r\n\r\n\
                1.e4 e5 2. Nf3 2... Nc6 3. Bb5 ... a6 ; a comment to the end of the line\r\n\
                4.Ba4 $1 Nf6!? 5. O-O (5. Nc3 {inside} (5. d3)) 5... Be7 {after} 1/2-1/2";
    let games = read_all(text.as_bytes());
    assert_eq!(games.len(), 1);
    let g = games[0].as_ref().unwrap();
    assert_eq!(g.tags.get("Event"), Some("x \"quoted\" \\ y"));
    let sans: Vec<String> = g.moves.iter().map(|m| m.san.to_string()).collect();
    assert_eq!(
        sans,
        [
            "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"
        ]
    );
    assert_eq!(g.moves[5].comments, ["a comment to the end of the line"]);
    assert_eq!(g.moves[6].nags, [1]);
    assert_eq!(g.moves[7].nags, [5]);
    assert_eq!(g.moves[9].comments, ["after"]);
    assert_eq!(g.result, GameResult::Draw);
}

#[test]
fn lichess_clocks_are_read() {
    let text = std::fs::read(data().join("shakmaty-pgn-reader/lichess_db_1000k.pgn")).unwrap();
    let games = read_all(&text);
    let first = games[0].as_ref().unwrap();
    assert!(first.moves.iter().all(|m| m.clock.is_some()));
    assert!(first.tags.get("TimeControl").is_some());
}

/// The line files: one game per line, no tags, no result.
#[test]
fn san_line_files_replay_move_by_move() {
    for (file, lines) in [
        ("prod500standard.san.txt", 500),
        ("raws.san.txt", 0),
        ("shortCastles.san.txt", 3),
        ("longCastles.san.txt", 3),
    ] {
        let text = std::fs::read_to_string(data().join("scalachess/fixtures").join(file)).unwrap();
        let mut count = 0;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let games = read_all(line.as_bytes());
            let g = games[0]
                .as_ref()
                .unwrap_or_else(|e| panic!("{file}: {e}\n{line}"));
            assert_eq!(
                g.moves.len(),
                line.split_whitespace().count(),
                "{file}: {line}"
            );
            count += 1;
        }
        if lines > 0 {
            assert_eq!(count, lines, "{file}");
        }
    }
}

/// What matters of a record for the round trip: start, moves, result, tags, annotations.
type Essence = (
    Position,
    Vec<Move>,
    GameResult,
    Vec<(String, String)>,
    Vec<String>,
);

fn essence(r: &GameRecord) -> Essence {
    let tags = r
        .own_tags()
        .map(|(n, v)| (n.to_owned(), v.replace(['\n', '\r', '\t'], " ")))
        .collect();
    let notes = r
        .moves
        .iter()
        .map(|m| {
            format!(
                "{:?} {:?} {:?} {:?}",
                m.clock, m.elapsed, m.nags, m.comments
            )
        })
        .chain(r.intro.iter().cloned())
        .map(|s| s.replace('{', "(").replace('}', ")"))
        .collect();
    (
        r.start,
        r.moves.iter().map(|m| m.m).collect(),
        r.result,
        tags,
        notes,
    )
}

#[test]
fn every_valid_game_round_trips_through_the_writer() {
    let mut checked = 0;
    for path in pgn_files() {
        for game in read_all(&std::fs::read(&path).unwrap())
            .into_iter()
            .flatten()
        {
            let text = write(&game);
            let again = read_all(text.as_bytes());
            assert_eq!(again.len(), 1, "{}: {text}", path.display());
            let again = again[0].as_ref().unwrap_or_else(|e| panic!("{e}\n{text}"));
            let (a, b) = (essence(&game), essence(again));
            // The writer adds the Seven Tag Roster where it was missing.
            let tags_kept = a.3.iter().all(|t| b.3.contains(t));
            assert!(tags_kept, "{}: tags {:?} -> {:?}", path.display(), a.3, b.3);
            assert_eq!(
                (a.0, a.1, a.2, a.4),
                (b.0, b.1, b.2, b.4),
                "{}\n{text}",
                path.display()
            );
            // Movetext lines fit in 80 characters unless one word alone is longer; a tag
            // pair is one line whatever its length.
            let long = |l: &&str| l.chars().count() > 80 && l.contains(' ') && !l.starts_with('[');
            assert!(!text.lines().any(|l| long(&l)), "{text}");
            checked += 1;
        }
    }
    assert!(checked > 2000, "{checked}");
}

#[test]
fn writer_puts_the_seven_tag_roster_first_and_clocks_in_comments() {
    let games = read_all(
        b"[White \"Kasparov, G\"]\n[ECO \"B00\"]\n[Black \"Deep \\\"Blue\\\"\"]\n\n\
          1. e4 { [%clk 0:05:00] } 1... c6 { [%clk 0:04:58.5] [%emt 0:00:02] ok } 2. d4 1-0",
    );
    let text = write(games[0].as_ref().unwrap());
    let expected = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
        [White \"Kasparov, G\"]\n[Black \"Deep \\\"Blue\\\"\"]\n[Result \"1-0\"]\n[ECO \"B00\"]\n\n\
        1. e4 { [%clk 0:05:00] } 1... c6 { [%clk 0:04:58.5] [%emt 0:00:02] ok } 2. d4\n1-0\n\n";
    // The result did not fit on the 80-character line.
    assert_eq!(text, expected);
}

/// Tags after a comment that comes before the moves still count, and are checked: a
/// `Variant` there is refused, a `FEN` there sets the start (found by the fuzz target `pgn`:
/// such a tag was kept, unchecked, and the written game did not read back).
#[test]
fn tags_after_an_opening_comment_are_checked() {
    let games = read_all(b"[Event \"x\"]\n{ before the tags }\n[Variant \"Atomic\"]\n\n1. e4 *");
    let e = games[0].as_ref().unwrap_err();
    assert!(e.to_string().contains("Atomic"), "{e}");
    let games = read_all(b"; intro\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *");
    let record = games[0].as_ref().unwrap();
    assert_eq!(record.start.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert_eq!(record.intro, ["intro"]);
    let again = read_all(write(record).as_bytes());
    assert_eq!(again[0].as_ref().unwrap().moves.len(), 2);
}

/// A comment's word that begins with `%` never starts a line: such a line is an escape line,
/// skipped by readers, and the comment's closing brace with it (found by the fuzz target
/// `pgn`).
#[test]
fn no_written_line_begins_with_a_percent_sign() {
    // Some of these lengths bring `%percent` to the start of a line.
    for n in 0..40 {
        let words = "w ".repeat(n);
        let games = read_all(format!("1. e4 {{ {words}%percent and more }} e5 *").as_bytes());
        let text = write(games[0].as_ref().unwrap());
        assert!(text.lines().all(|l| !l.starts_with('%')), "{text}");
        let again = read_all(text.as_bytes());
        let record = again[0].as_ref().unwrap();
        assert_eq!(record.moves.len(), 2, "{text}");
        assert!(
            record.moves[0].comments[0].contains("%percent and more"),
            "{text}"
        );
    }
}

#[test]
fn writer_marks_a_set_up_position() {
    let games = read_all(b"[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]\n\n30... Kd7 31. e4 *");
    let text = write(games[0].as_ref().unwrap());
    assert!(
        text.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]\n"),
        "{text}"
    );
    assert!(text.contains("30... Kd7 31. e4 *"), "{text}");
}

/// Random games from random play, with random clocks, comments and NAGs, from the start or
/// from a mid-game position: write, read back, compare.
#[test]
fn random_games_round_trip() {
    let mut seed = 0x2026_1130_5eed_0001u64;
    let mut rand = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n.max(1)
    };
    for i in 0..2000 {
        let mut record = GameRecord::new();
        let mut pos = Position::new();
        if i % 3 == 0 {
            for _ in 0..rand(30) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rand(moves.len() as u64) as usize]);
            }
            record.start = pos;
        }
        record.tags.set("Event", format!("Random \"{i}\" \\ test"));
        record.tags.set("TimeControl", "40/5400+30:1800+30");
        for ply in 0..rand(200) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rand(moves.len() as u64) as usize];
            let san = rookery_core::SanPlus::of_and_play(&mut pos, m);
            record.moves.push(rookery_core::pgn::RecordedMove {
                m,
                san,
                clock: (ply % 2 == 0)
                    .then(|| std::time::Duration::from_millis(rand(10_800_000) / 100 * 100)),
                elapsed: (rand(4) == 0).then(|| std::time::Duration::from_secs(rand(600))),
                comments: if rand(5) == 0 {
                    vec![format!("note {ply} {{x}}")]
                } else {
                    vec![]
                },
                nags: if rand(7) == 0 {
                    vec![rand(255) as u8 + 1]
                } else {
                    vec![]
                },
            });
        }
        record.result = [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::Unknown,
        ][rand(4) as usize];
        let text = write(&record);
        let again = read_all(text.as_bytes());
        let again = again[0].as_ref().unwrap_or_else(|e| panic!("{e}\n{text}"));
        let (a, b) = (essence(&record), essence(again));
        assert_eq!((a.0, a.1, a.2, a.4), (b.0, b.1, b.2, b.4), "{text}");
        assert!(a.3.iter().all(|t| b.3.contains(t)), "{text}");
    }
}

/// R7: the seeds' score sheet has a table number; PGN calls it `Board`. A record that has
/// one keeps it through reading and writing, after the Seven Tag Roster.
#[test]
fn r7_the_score_sheets_table_is_the_board_tag_and_survives_a_round_trip() {
    let text = "[Event \"Club ladder\"]\n[Site \"Hall\"]\n[Date \"2026.12.01\"]\n[Round \"3\"]\n\
                [White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[Board \"7\"]\n\
                [TimeControl \"5400+30\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    let record = rookery_core::pgn::Reader::new(text.as_bytes())
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(record.tags.get("Board"), Some("7"));
    let written = rookery_core::pgn::write(&record);
    let tags: Vec<&str> = written.lines().take_while(|l| l.starts_with('[')).collect();
    assert_eq!(tags[6], "[Result \"1-0\"]");
    assert!(tags[7..].contains(&"[Board \"7\"]"), "{written}");
    assert!(
        tags[7..].contains(&"[TimeControl \"5400+30\"]"),
        "{written}"
    );
}
