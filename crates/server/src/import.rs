//! Importing finished games from PGN: `POST /api/import` and `rookery import`. The core reads
//! and validates every move; a game with any fault is rejected whole and stores nothing.

use std::fs::File;
use std::io::BufReader;
use std::process::ExitCode;

use rookery_core::Position;
use rookery_core::clock::TimeControl;
use rookery_core::pgn::{GameRecord, Reader};

use crate::identity;
use crate::room::now_ms;
use crate::store::{NewGame, Store, StoreError, StoredMove};

/// Stores a valid record as a finished game; returns its new id.
pub(crate) async fn store_record(store: &Store, record: &GameRecord) -> Result<String, StoreError> {
    let id = identity::game_id();
    let tag = |name: &str| record.tags.get(name).filter(|v| !v.is_empty() && *v != "?");
    let time_control = tag("TimeControl")
        .and_then(|tc| TimeControl::from_pgn(tc).ok())
        .map_or_else(|| "-".to_owned(), |tc| tc.to_pgn());
    let game = NewGame {
        id: id.clone(),
        created_at: now_ms() as i64,
        start_fen: (record.start != Position::new()).then(|| record.start.fen()),
        time_control,
        white_name: tag("White").unwrap_or("?").to_owned(),
        black_name: tag("Black").unwrap_or("?").to_owned(),
        white_seat: None,
        black_seat: None,
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
            elapsed_ms: rm.elapsed.map_or(0, |e| e.as_millis() as i64),
        })
        .collect();
    let termination = tag("Termination").unwrap_or("Normal");
    store
        .import_game(&game, &moves, record.result.as_str(), termination)
        .await?;
    Ok(id)
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
        let mut last = 0;
        while let Some(game) = reader.next() {
            match game {
                Ok(record) => {
                    store_record(&store, &record)
                        .await
                        .map_err(|e| e.to_string())?;
                    imported += 1;
                }
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
