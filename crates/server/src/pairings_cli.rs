//! `rookery pairings`: the next round of a tournament from its TRF file, written as
//! bbpPairings and JaVaFo write it, so that arbiters' programs can call Rookery instead
//! (docs/TOURNAMENTS.md). Exit status as theirs: 0 done, 1 no valid pairing, 3 a file that
//! cannot be read as a tournament (the message names the line), 5 a file that cannot be
//! opened or written. Nothing is written unless the pairing is complete.

use std::process::ExitCode;

use rookery_pairing::swiss::Field;
use rookery_pairing::tiebreak::{self, System, TieBreak};
use rookery_pairing::trf::{self, Trf};
use rookery_pairing::{berger, check, dutch};

use crate::cli::{PairingsArgs, TiebreaksArgs};

const NO_VALID_PAIRING: u8 = 1;
const INVALID_REQUEST: u8 = 3;
const FILE_ERROR: u8 = 5;

pub(crate) fn run(args: &PairingsArgs) -> ExitCode {
    let (path, dutch) = match (&args.dutch, &args.round_robin) {
        (Some(p), _) => (p, true),
        (None, Some(p)) => (p, false),
        (None, None) => unreachable!("clap requires one system"),
    };
    if args.pair.is_none() && !args.check {
        eprintln!(
            "rookery: nothing to do: give -p [OUT] to pair the next round, or -c to check \
             the rounds played"
        );
        return ExitCode::from(INVALID_REQUEST);
    }
    let trf = match read_trf(path) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let Some(out) = &args.pair else {
        return check(path, &trf);
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
        match berger::next_round(&trf) {
            Ok(boards) => trf::write_pairings(boards),
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

/// `-c`: every round checked, the report printed as bbpPairings's checker prints it; exit
/// status 0 when every round is as the system pairs it, 1 when one is not (bbpPairings's
/// checker exits 0 either way).
fn check(path: &std::path::Path, trf: &Trf) -> ExitCode {
    let verdicts = match check::check_dutch(trf) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("rookery: {}: {e}", path.display());
            return ExitCode::from(INVALID_REQUEST);
        }
    };
    let name = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    print!("{}", check::write_report(&name, &verdicts));
    if verdicts.iter().all(|v| *v == check::Verdict::AsPaired) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(NO_VALID_PAIRING)
    }
}

/// `rookery tiebreaks FILE`: every player's tie-breaks, tab-separated as FIDE's tie-break
/// checker prints them (`-dT`): starting number, rank, then each tie-break.
pub(crate) fn tiebreaks(args: &TiebreaksArgs) -> ExitCode {
    let system = if args.round_robin {
        System::RoundRobin
    } else {
        System::Swiss
    };
    let mut list = if args.tie_breaks.is_empty() {
        tiebreak::defaults(system)
    } else {
        Vec::new()
    };
    for name in &args.tie_breaks {
        match TieBreak::parse(name) {
            Some(tb) => list.push(tb),
            None => {
                eprintln!(
                    "rookery: unknown tie-break {name:?} (PTS, BH, BH/C1, BH/M1, SB, SB/C1, DE, \
                     WIN, WON, BPG, BWG, REP, ARO, ARO/C1, TPR, PS)"
                );
                return ExitCode::from(INVALID_REQUEST);
            }
        }
    }
    let trf = match read_trf(&args.file) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let rounds = args.rounds.unwrap_or(trf.played_rounds() as usize);
    let values = match tiebreak::compute(&trf, rounds, system, &list) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("rookery: {}: {e}", args.file.display());
            return ExitCode::from(INVALID_REQUEST);
        }
    };
    let ranks = tiebreak::ranks(&values, &list);
    let mut out = String::from("StartNo\tRank");
    for tb in &list {
        out.push('\t');
        out.push_str(&tb.to_string());
    }
    out.push('\n');
    for (i, id) in trf.players.keys().enumerate() {
        out.push_str(&format!("{id}\t{}", ranks[i]));
        for v in &values[i] {
            out.push_str(&format!("\t{v}"));
        }
        out.push('\n');
    }
    print!("{out}");
    ExitCode::SUCCESS
}

/// The tournament file, read; the exit status (the fault said on standard error) if it
/// cannot be opened (5) or is not a tournament (3).
fn read_trf(path: &std::path::Path) -> Result<Trf, ExitCode> {
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!("rookery: cannot read {}: {e}", path.display());
            return Err(ExitCode::from(FILE_ERROR));
        }
    };
    Trf::parse(&text).map_err(|e| {
        eprintln!("rookery: {}: {e}", path.display());
        ExitCode::from(INVALID_REQUEST)
    })
}
