//! `rookery`: the command line of the Rookery chess server.

mod cli;
mod pgn_check;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match cli.command {
        cli::Command::Pgn {
            command: cli::PgnCommand::Check(args),
        } => pgn_check::run(&args),
    }
}
