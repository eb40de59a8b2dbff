//! Importing finished games from PGN: `POST /api/import` and `rookery import`. The core reads
//! and validates every move; a game with any fault is rejected whole and stores nothing.

use std::fs::File;
use std::io::BufReader;
use std::process::ExitCode;

use rookery_core::Position;
use rookery_core::game::{Game, GameError};
use rookery_core::pgn::{GameRecord, Reader};

use crate::ids;
use crate::store::{ClubRecord, Ending, NewGame, Store, StoreError, StoredMove, storable};
use crate::wallclock::now_ms;

/// Why a well-formed record is not stored.
#[derive(Debug)]
pub(crate) enum Refused {
    /// The rules refuse one of its moves (one played after the game had ended by itself,
    /// say: fivefold repetition or the 75-move rule, R4).
    Rules { ply: usize, reason: GameError },
    /// A player's name that no page could show: too long, or with a NUL character.
    Name(&'static str),
    /// Its result is `*` and its moves do not end it: not a finished game.
    Unfinished,
    /// A tag with a NUL character, which no store keeps.
    Tag(String),
}

/// The longest player name taken from a record (names are shown in every list).
const MAX_NAME_LEN: usize = 100;

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Rules { ply, reason } => write!(f, "ply {ply}: {reason}"),
            Refused::Name(tag) => write!(
                f,
                "the {tag} tag is too long (at most {MAX_NAME_LEN} characters) or has a NUL \
                 character"
            ),
            Refused::Tag(name) => write!(f, "the {name:?} tag has a NUL character"),
            Refused::Unfinished => f.write_str(
                "the game is not finished (its result is * and its moves do not end it): only a \
                 finished game can be imported",
            ),
        }
    }
}

impl std::error::Error for Refused {}

/// Stores a record as a finished game, as the core's replay of it says it ended (an end
/// the moves show wins over the record's result); returns its new id.
///
/// # Errors
/// The outer error is the store's; the inner says why the rules refuse the record (nothing
/// is stored then).
pub(crate) async fn store_record(
    store: &Store,
    record: &GameRecord,
) -> Result<Result<String, Refused>, StoreError> {
    store_record_as(store, record, None, ClubRecord::default()).await
}

/// As [`store_record`], with the players' names given (a tournament's board names them,
/// whatever the record says) and the club record (event, round, table, tournament) set.
///
/// # Errors
/// As [`store_record`].
pub(crate) async fn store_record_as(
    store: &Store,
    record: &GameRecord,
    names: Option<(&str, &str)>,
    club: ClubRecord,
) -> Result<Result<String, Refused>, StoreError> {
    let game = match Game::from_record(record) {
        Ok(game) => game,
        Err((ply, reason)) => return Ok(Err(Refused::Rules { ply, reason })),
    };
    let Some((result, termination)) = game.result() else {
        // `restore_end` ends every record (a `*` one as unterminated).
        return Ok(Err(Refused::Rules {
            ply: record.moves.len(),
            reason: GameError::GameIsOver,
        }));
    };
    if termination == rookery_core::game::Termination::Unterminated {
        return Ok(Err(Refused::Unfinished));
    }
    let tag = |name: &str| record.tags.get(name).filter(|v| !v.is_empty() && *v != "?");
    for name in ["White", "Black"] {
        if tag(name).is_some_and(|v| v.chars().count() > MAX_NAME_LEN || !storable(v)) {
            return Ok(Err(Refused::Name(name)));
        }
    }
    if let Some((name, _)) = record
        .tags
        .iter()
        .find(|(n, v)| !storable(n) || !storable(v))
    {
        return Ok(Err(Refused::Tag(name.to_owned())));
    }
    let id = ids::game_id();
    let new = NewGame {
        id: id.clone(),
        created_at: now_ms() as i64,
        start_fen: (record.start != Position::new()).then(|| record.start.fen()),
        time_control: game.clock().control().clone(),
        white_name: names
            .map_or_else(|| tag("White").unwrap_or("?"), |n| n.0)
            .to_owned(),
        black_name: names
            .map_or_else(|| tag("Black").unwrap_or("?"), |n| n.1)
            .to_owned(),
        club,
        ..NewGame::default()
    };
    let moves: Vec<StoredMove> = record
        .moves
        .iter()
        .enumerate()
        .map(|(i, rm)| StoredMove {
            game_id: id.clone(),
            ply: i as i64 + 1,
            uci: rm.m.to_uci().to_string(),
            san: rm.san.to_string(),
            clock_ms: rm.clock.map(|c| c.as_millis() as i64),
            at_ms: 0,
            // Replayed without times, as the core rebuilt it (`Game::from_record`).
            elapsed_ms: 0,
            lag_ms: 0,
        })
        .collect();
    let ending = Ending {
        result,
        termination,
    };
    // Its own tags, but for those its moves and result decide.
    let tags: Vec<(String, String)> = record
        .own_tags()
        .map(|(n, v)| (n.to_owned(), v.to_owned()))
        .collect();
    let explorer = crate::store::ExplorerRow::of(&game);
    store
        .import_game(&new, &moves, ending, &tags, &explorer)
        .await?;
    Ok(Ok(id))
}

/// `rookery import FILE...`: imports every valid game, reports each rejected one, and prints a
/// summary. Exit status 0 when every game was imported, 1 otherwise, 2 on a file or store fault.
pub(crate) async fn run(
    database_url: &str,
    files: &[std::path::PathBuf],
) -> Result<ExitCode, String> {
    let store = Store::open(database_url).await.map_err(|e| e.to_string())?;
    let bar = crate::pgn_check::files_bar(files, "{msg}");
    let (mut imported, mut rejected) = (0usize, 0usize);
    for path in files {
        let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        let mut reader = Reader::new(BufReader::new(file));
        let (mut last, mut number) = (0, 0);
        while let Some(game) = reader.next() {
            number += 1;
            match game {
                Ok(record) => match store_record(&store, &record)
                    .await
                    .map_err(|e| e.to_string())?
                {
                    Ok(_) => imported += 1,
                    Err(e) => {
                        rejected += 1;
                        bar.suspend(|| {
                            eprintln!("{}: rejected game {number}, {e}", path.display());
                        });
                    }
                },
                Err(e) => {
                    rejected += 1;
                    // Every rejection is reported, terminal or not.
                    bar.suspend(|| eprintln!("{}: rejected {e}", path.display()));
                }
            }
            bar.inc(reader.bytes_read() - last);
            last = reader.bytes_read();
            bar.set_message(format!("{imported} imported, {rejected} rejected"));
        }
    }
    bar.finish_and_clear();
    println!("imported {imported} games, rejected {rejected}");
    Ok(ExitCode::from(if rejected == 0 { 0 } else { 1 }))
}
