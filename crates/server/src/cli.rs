//! Command-line arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Rookery: a self-hostable chess server.
#[derive(Debug, Parser)]
#[command(name = "rookery", version, about)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Work with PGN files.
    Pgn {
        #[command(subcommand)]
        command: PgnCommand,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum PgnCommand {
    /// Read every game, validate every move, print one line per game.
    Check(CheckArgs),
}

#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// One JSON object per game and line (NDJSON), and no progress bar.
    #[arg(long)]
    pub(crate) json: bool,
    /// PGN files to read (`-` for standard input).
    #[arg(required = true)]
    pub(crate) files: Vec<PathBuf>,
}
