//! `rookery pairings`: the next round of a tournament from its TRF file, written as
//! bbpPairings and JaVaFo write it, so that arbiters' programs can call Rookery instead
//! (docs/TOURNAMENTS.md). Exit status as theirs: 0 done, 1 no valid pairing, 3 a file that
//! cannot be read as a tournament (the message names the line), 5 a file that cannot be
//! opened or written. Nothing is written unless the pairing is complete.

use std::process::ExitCode;

use rookery_pairing::berger::Schedule;
use rookery_pairing::dutch;
use rookery_pairing::swiss::Field;
use rookery_pairing::trf::Trf;

use crate::cli::PairingsArgs;

const NO_VALID_PAIRING: u8 = 1;
const INVALID_REQUEST: u8 = 3;
const FILE_ERROR: u8 = 5;

pub(crate) fn run(args: &PairingsArgs) -> ExitCode {
    let (path, dutch) = match (&args.dutch, &args.round_robin) {
        (Some(p), _) => (p, true),
        (None, Some(p)) => (p, false),
        (None, None) => unreachable!("clap requires one system"),
    };
    let Some(out) = &args.pair else {
        eprintln!("rookery: nothing to do: give -p [OUT] to pair the next round");
        return ExitCode::from(INVALID_REQUEST);
    };
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!("rookery: cannot read {}: {e}", path.display());
            return ExitCode::from(FILE_ERROR);
        }
    };
    let trf = match Trf::parse(&text) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("rookery: {}: {e}", path.display());
            return ExitCode::from(INVALID_REQUEST);
        }
    };
    let written = if dutch {
        let field = match Field::for_next_round(&trf) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("rookery: {}: {e}", path.display());
                return ExitCode::from(INVALID_REQUEST);
            }
        };
        match dutch::pair(&field) {
            Ok(boards) => dutch::write_pairs(&field, &boards),
            Err(e) => {
                eprintln!("rookery: {}: {e}", path.display());
                return ExitCode::from(NO_VALID_PAIRING);
            }
        }
    } else {
        match round_robin(&trf) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("rookery: {}: {e}", path.display());
                return ExitCode::from(INVALID_REQUEST);
            }
        }
    };
    let result = if out.as_os_str() == "-" {
        use std::io::Write;
        std::io::stdout().write_all(written.as_bytes())
    } else {
        std::fs::write(out, written)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rookery: cannot write {}: {e}", out.display());
            ExitCode::from(FILE_ERROR)
        }
    }
}

/// The next round of a round robin: players by starting number, a double round robin when
/// the file plans more rounds than one cycle has.
fn round_robin(trf: &Trf) -> Result<String, String> {
    let players = trf.players.len();
    let ids: Vec<u32> = trf.players.keys().copied().collect();
    let cycle = players + players % 2 - 1;
    let planned = trf.rounds.map_or(cycle, |r| r as usize);
    let schedule = if planned > cycle {
        Schedule::double(players)
    } else {
        Schedule::single(players)
    }
    .map_err(|e| e.to_string())?;
    let next = trf.played_rounds() as usize;
    let round = schedule
        .rounds
        .get(next)
        .ok_or_else(|| format!("every round of the round robin is paired ({next})"))?;
    let mut out = format!(
        "{}\n",
        round.boards.len() + usize::from(round.bye.is_some())
    );
    for b in &round.boards {
        out.push_str(&format!("{} {}\n", ids[b.white - 1], ids[b.black - 1]));
    }
    if let Some(bye) = round.bye {
        out.push_str(&format!("{} 0\n", ids[bye - 1]));
    }
    Ok(out)
}
