//! Opening names: lichess's tables (CC0, `data/README.md`), indexed by the position each
//! named line reaches. A game's opening is the deepest named position it passed through in
//! its first 40 plies, as lichess names it; matching positions, not move orders, lets
//! transpositions find their name. Positions are compared as for repetition (R4.4: pieces,
//! side to move, castling rights, a usable en passant square), which is how lichess's
//! tables key them (EPD). Games from a set-up position have no opening.
//!
//! The tables are parsed once, on first use, with the core's own SAN reader.

use std::collections::HashMap;
use std::sync::LazyLock;

use rookery_core::{Move, Position, RepetitionKey};

/// How far into a game an opening is looked for (lichess: 40 plies).
pub const MAX_PLIES: usize = 40;

/// A named opening line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// The ECO code, `B90`.
    pub eco: &'static str,
    /// lichess's name, `Sicilian Defense: Najdorf Variation`.
    pub name: &'static str,
    /// The line's moves as the table writes them, `1. e4 c5 2. Nf3 ...`.
    pub pgn: &'static str,
    /// How many plies the line has.
    pub plies: usize,
}

const TABLES: [&str; 5] = [
    include_str!("../data/a.tsv"),
    include_str!("../data/b.tsv"),
    include_str!("../data/c.tsv"),
    include_str!("../data/d.tsv"),
    include_str!("../data/e.tsv"),
];

/// A row that could not be read (a fault in the bundled data: the tests make sure there are
/// none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    pub row: String,
    pub reason: String,
}

/// The tables, read: every opening, and each position's opening.
#[derive(Debug)]
pub struct Book {
    openings: Vec<Opening>,
    by_position: HashMap<RepetitionKey, usize>,
    /// The same by the core's Zobrist hash of the position (the hash of its repetition key),
    /// for games that keep their positions' hashes: no replay needed.
    by_hash: HashMap<u64, usize>,
    /// Rows that could not be read, and rows whose position an earlier row had named.
    pub faults: Vec<RowError>,
}

/// The moves of a table row, read from the start position.
fn replay(pgn: &str) -> Result<(Position, usize), String> {
    let mut pos = Position::new();
    let mut plies = 0;
    for token in pgn.split_whitespace() {
        // Move numbers: "1." and "1...".
        if token.ends_with('.') && token.trim_end_matches('.').parse::<u32>().is_ok() {
            continue;
        }
        let m = pos.parse_san(token).map_err(|e| format!("{token}: {e}"))?;
        pos.play_unchecked(m);
        plies += 1;
    }
    Ok((pos, plies))
}

impl Book {
    fn read() -> Book {
        let mut book = Book {
            openings: Vec::new(),
            by_position: HashMap::new(),
            by_hash: HashMap::new(),
            faults: Vec::new(),
        };
        for table in TABLES {
            for line in table.lines().skip(1).filter(|l| !l.trim().is_empty()) {
                let mut fields = line.split('\t');
                let (Some(eco), Some(name), Some(pgn)) =
                    (fields.next(), fields.next(), fields.next())
                else {
                    book.faults.push(RowError {
                        row: line.to_owned(),
                        reason: "fewer than three columns".to_owned(),
                    });
                    continue;
                };
                match replay(pgn) {
                    Ok((pos, plies)) => {
                        let index = book.openings.len();
                        book.openings.push(Opening {
                            eco,
                            name,
                            pgn,
                            plies,
                        });
                        if let Some(&earlier) = book.by_position.get(&pos.repetition_key()) {
                            book.faults.push(RowError {
                                row: line.to_owned(),
                                reason: format!(
                                    "its position is named already: {}",
                                    book.openings[earlier].name
                                ),
                            });
                        } else if let Some(&other) = book.by_hash.get(&pos.zobrist()) {
                            book.faults.push(RowError {
                                row: line.to_owned(),
                                reason: format!(
                                    "its hash is another position's: {}",
                                    book.openings[other].name
                                ),
                            });
                        } else {
                            book.by_position.insert(pos.repetition_key(), index);
                            book.by_hash.insert(pos.zobrist(), index);
                        }
                    }
                    Err(reason) => book.faults.push(RowError {
                        row: line.to_owned(),
                        reason,
                    }),
                }
            }
        }
        book
    }

    /// Every opening of the tables, in their order.
    pub fn openings(&self) -> &[Opening] {
        &self.openings
    }

    /// The opening named at exactly this position.
    pub fn at(&self, pos: &Position) -> Option<&Opening> {
        self.by_position
            .get(&pos.repetition_key())
            .map(|&i| &self.openings[i])
    }

    /// The opening of a game from the normal start with these moves: the deepest named
    /// position among the first [`MAX_PLIES`]. Stops at the first illegal move.
    pub fn of_game(&self, moves: &[Move]) -> Option<&Opening> {
        let mut pos = Position::new();
        let mut found = None;
        for &m in moves.iter().take(MAX_PLIES) {
            if !pos.is_legal(m) {
                break;
            }
            pos.play_unchecked(m);
            if let Some(o) = self.at(&pos) {
                found = Some(o);
            }
        }
        found
    }
}

impl Book {
    /// The opening of a game from the normal start whose positions have these Zobrist hashes
    /// (the start's first, as `Game::position_hashes` keeps them): the deepest named among
    /// the first [`MAX_PLIES`] after the start. A 64-bit hash of one of the tables' 3,807
    /// positions matching another position is as likely as a few in 10^14 per game; the tests
    /// check that this agrees with [`Book::of_game`] on every table row and every test game.
    pub fn of_hashes(&self, hashes: &[u64]) -> Option<&Opening> {
        hashes
            .iter()
            .skip(1)
            .take(MAX_PLIES)
            .rev()
            .find_map(|h| self.by_hash.get(h))
            .map(|&i| &self.openings[i])
    }
}

static BOOK: LazyLock<Book> = LazyLock::new(Book::read);

/// The bundled tables, read on first use.
pub fn book() -> &'static Book {
    &BOOK
}

/// The opening named at exactly this position, if any.
pub fn at(pos: &Position) -> Option<&'static Opening> {
    book().at(pos)
}

/// The opening of a game played from the normal start, by its positions' hashes (see
/// [`Book::of_hashes`]).
pub fn of_hashes(hashes: &[u64]) -> Option<&'static Opening> {
    book().of_hashes(hashes)
}

/// The opening of a game played from the normal start (see [`Book::of_game`]).
pub fn of_game(moves: &[Move]) -> Option<&'static Opening> {
    book().of_game(moves)
}
