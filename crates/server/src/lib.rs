//! The Rookery chess server and its command line, as a library: the `rookery` binary
//! (`main.rs`) calls [`main`]; the fuzz targets (`fuzz/`) call [`fuzzing`].

mod accounts;
mod analysis;
mod arenas;
mod bot;
mod challenges;
mod cli;
mod clubs;
mod cluster;
mod events;
mod exercises;
mod export;
pub mod fuzzing;
mod http;
mod ids;
mod import;
mod keeper;
mod lobby;
mod locks;
mod metrics;
mod new_game;
mod pairings_cli;
mod pgn_check;
mod pools;
mod presence;
mod protocol;
mod refusal;
mod rematch;
mod room;
mod rooms;
mod store;
mod tournaments;
mod user_cli;
mod wallclock;

use std::process::ExitCode;

use clap::Parser;

/// The command line: parses the arguments and runs the command (serving by default).
pub fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    let workers = cli.config.worker_threads;
    match cli.command {
        Some(cli::Command::Pgn {
            command: cli::PgnCommand::Check(args),
        }) => pgn_check::run(&args),
        Some(cli::Command::Pairings(args)) => pairings_cli::run(&args),
        Some(cli::Command::Tiebreaks(args)) => pairings_cli::tiebreaks(&args),
        Some(cli::Command::Migrate) => runtime(workers, migrate(cli.config)),
        Some(cli::Command::Import { files }) => {
            let url = cli.config.database_url.clone();
            let mut status = ExitCode::from(2);
            let code = runtime(workers, async {
                status = import::run(&url, &files).await?;
                Ok(())
            });
            if code == ExitCode::SUCCESS {
                status
            } else {
                code
            }
        }
        Some(cli::Command::User { command }) => {
            let config = cli.config;
            runtime(
                workers,
                async move { user_cli::run(&config, command).await },
            )
        }
        Some(cli::Command::Serve) | None => runtime(workers, http::serve(cli.config)),
    }
}

/// Runs a server task on a multi-threaded runtime, with logs on standard error (standard
/// output is for what a command prints: a token, a link).
fn runtime(
    workers: Option<usize>,
    task: impl std::future::Future<Output = Result<(), String>>,
) -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder.enable_all();
    if let Some(n) = workers {
        builder.worker_threads(n.max(1));
    }
    let rt = match builder.build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("rookery: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match rt.block_on(task) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e}");
            ExitCode::FAILURE
        }
    }
}

async fn migrate(config: cli::Config) -> Result<(), String> {
    store::Store::open(&config.database_url)
        .await
        .map_err(|e| e.to_string())?;
    tracing::info!(database = %config.database_url, "migrations applied");
    Ok(())
}

/// What the benchmarks measure of the server's own code (`examples/login_cost.rs`).
pub mod measure {
    /// Hashes a password as sign-up does (Argon2id, on the calling thread).
    pub fn password_hash(password: &str) -> String {
        crate::accounts::password::hash_now(password)
    }

    /// Checks a password as log-in does.
    pub fn password_verify(password: &str, hash: &str) -> bool {
        crate::accounts::password::verify_now(password, hash)
    }
}
