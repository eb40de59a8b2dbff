//! Command-line arguments (and their environment variables).

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Rookery: a self-hostable chess server. Without a command, it serves.
#[derive(Debug, Parser)]
#[command(name = "rookery", version, about)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub(crate) config: Config,
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
}

/// Where to listen and which database to use.
#[derive(Debug, Clone, Args)]
pub(crate) struct Config {
    /// Address to listen on.
    #[arg(
        long,
        env = "ROOKERY_LISTEN",
        default_value = "127.0.0.1:8080",
        global = true
    )]
    pub(crate) listen: SocketAddr,
    /// Database URL: `sqlite://FILE` (created on first run) or `postgres://...`.
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "sqlite://rookery.db",
        global = true
    )]
    pub(crate) database_url: String,
    /// An external UCI engine (e.g. /usr/games/stockfish) to drive the bots instead of the
    /// built-in one; levels map to its strength options.
    #[arg(long, env = "ROOKERY_UCI_ENGINE", global = true)]
    pub(crate) uci_engine: Option<PathBuf>,
    /// Open connections (sockets included) one client address may hold; more are refused
    /// at once. A load test from one address raises it.
    #[arg(
        long,
        env = "ROOKERY_MAX_CONNECTIONS_PER_ADDRESS",
        default_value_t = 256,
        global = true
    )]
    pub(crate) max_connections_per_address: usize,
    /// The address people reach the server at (`https://chess.example.org`): links and the
    /// PGN `Site` tag use it. Without it, each request's `Host` header with `http://`.
    #[arg(long, env = "ROOKERY_PUBLIC_URL", global = true)]
    pub(crate) public_url: Option<String>,
    /// Seconds a client has to send a request's headers (also the most a kept-alive
    /// connection may sit idle between requests).
    #[arg(
        long,
        env = "ROOKERY_HEADER_TIMEOUT",
        default_value_t = 10.0,
        global = true
    )]
    pub(crate) header_timeout: f64,
    /// Seconds one request may take, its body included; then 408 and the connection closes.
    #[arg(
        long,
        env = "ROOKERY_REQUEST_TIMEOUT",
        default_value_t = 30.0,
        global = true
    )]
    pub(crate) request_timeout: f64,
    /// Seconds a WebSocket may stay silent before it is closed. The server pings every
    /// third of that, and browsers answer pings by themselves, so only a dead connection
    /// (a phone gone from the network, a half-open TCP link) reaches it.
    #[arg(
        long,
        env = "ROOKERY_SOCKET_IDLE_TIMEOUT",
        default_value_t = 60.0,
        global = true
    )]
    pub(crate) socket_idle_timeout: f64,
    /// Where to serve `/metrics` (Prometheus text), apart from the site: an address only the
    /// monitoring can reach (`127.0.0.1:9100`). Without it, no metrics are served.
    #[arg(long, env = "ROOKERY_METRICS_LISTEN", global = true)]
    pub(crate) metrics_listen: Option<SocketAddr>,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run the server (the default).
    Serve,
    /// Apply the database migrations and exit.
    Migrate,
    /// Import finished games from PGN files (each game whole, or not at all).
    Import {
        /// PGN files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
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
