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
    /// Nodes the built-in engine searches in each position of a computer analysis
    /// (docs/ANALYSIS.md): more is deeper and slower.
    #[arg(
        long,
        env = "ROOKERY_ANALYSIS_NODES",
        default_value_t = 200_000,
        global = true
    )]
    pub(crate) analysis_nodes: u64,
    /// Open connections (sockets included) one client address may hold; more are refused
    /// at once. A load test from one address raises it.
    #[arg(
        long,
        env = "ROOKERY_MAX_CONNECTIONS_PER_ADDRESS",
        default_value_t = 256,
        global = true
    )]
    pub(crate) max_connections_per_address: usize,
    /// Games under way guests from one client address (an IPv6 /64) may play at once, half
    /// of them against bots; accounts are counted by account instead. Off with
    /// `--rate-limits off`. A venue whose guests share one address raises it.
    #[arg(
        long,
        env = "ROOKERY_GUEST_GAMES_PER_ADDRESS",
        default_value_t = crate::new_game::GUEST_GAMES_PER_ADDRESS,
        global = true
    )]
    pub(crate) guest_games_per_address: u32,
    /// Open connections the whole server may hold; more are answered 503 at once. 0 (the
    /// default): the open-file limit (raised to its hard limit at start) less an eighth
    /// (at least 128) kept for the database, files and the log.
    #[arg(
        long,
        env = "ROOKERY_MAX_CONNECTIONS",
        default_value_t = 0,
        global = true
    )]
    pub(crate) max_connections: usize,
    /// Seconds a write to a client may wait for it to read: a client that stops reading
    /// (its socket, stream or page) is disconnected then, and its queue goes with it.
    #[arg(
        long,
        env = "ROOKERY_WRITE_TIMEOUT",
        default_value_t = 20.0,
        global = true
    )]
    pub(crate) write_timeout: f64,
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
    /// Seconds between SIGTERM and the shutdown itself: meanwhile `/api/ready` answers 503
    /// so a load balancer stops sending new players here, while everything else is served
    /// as usual. 0 (the default) stops at once, as a single server should.
    #[arg(
        long,
        env = "ROOKERY_DRAIN_SECONDS",
        default_value_t = 0.0,
        global = true
    )]
    pub(crate) drain_seconds: f64,
    /// Seconds a game under way may sit with nobody connected and nothing asked before its
    /// room sleeps: its memory is given back and the game is loaded again from the store on
    /// the next request, or when its clock must be kept (a flag). 0: rooms never sleep.
    #[arg(
        long,
        env = "ROOKERY_HIBERNATE_AFTER",
        default_value_t = 60.0,
        global = true
    )]
    pub(crate) hibernate_after: f64,
    /// Where to serve `/metrics` (Prometheus text), apart from the site: an address only the
    /// monitoring can reach (`127.0.0.1:9100`). Without it, no metrics are served.
    #[arg(long, env = "ROOKERY_METRICS_LISTEN", global = true)]
    pub(crate) metrics_listen: Option<SocketAddr>,
    /// Behind a reverse proxy: take the client's address (for rate limits and logs) from
    /// the last entry of `X-Forwarded-For`. Only with a proxy that sets it: otherwise any
    /// client could name its own address.
    #[arg(long, env = "ROOKERY_TRUST_PROXY", global = true)]
    pub(crate) trust_proxy: bool,
    /// Rate limits on sign-up, log-in, game creation, import and the move API (429 with
    /// Retry-After). `off` only for load tests from one address.
    #[arg(
        long,
        env = "ROOKERY_RATE_LIMITS",
        value_enum,
        default_value_t = Switch::On,
        global = true
    )]
    pub(crate) rate_limits: Switch,
    /// The speeds whose rated games move the seeds' ladder points (R8): comma-separated
    /// (`blitz,rapid`), or `all`.
    #[arg(
        long,
        env = "ROOKERY_LADDER_SPEEDS",
        default_value = "all",
        global = true
    )]
    pub(crate) ladder_speeds: String,
    /// A site arena every hour for each of these clocks (`3+0,5+0`), as lichess's hourly
    /// arenas: each begins on the hour, lasts 57 minutes, is rated with berserk and streaks,
    /// and is listed on the lobby's schedule an hour ahead. None by default.
    #[arg(
        long,
        env = "ROOKERY_HOURLY_ARENAS",
        value_delimiter = ',',
        global = true
    )]
    pub(crate) hourly_arenas: Vec<String>,
    /// Run as one node of several (docs/SCALING.md): the NATS server the nodes talk over
    /// (`nats://127.0.0.1:4222`; `nats://user:password@host:port` and `tls://` too). Needs a
    /// PostgreSQL `--database-url` shared by every node. NATS must be private to the nodes
    /// and authenticated: whoever can publish on it can act for any player.
    #[arg(long = "cluster", env = "ROOKERY_NATS_URL", global = true)]
    pub(crate) cluster: Option<String>,
    #[command(flatten)]
    pub(crate) nats: NatsAuth,
    /// This node's name in the cluster, unique among the nodes (it owns games' leases).
    /// Kept across restarts, a node takes its own games back at once; by default a new
    /// random name each start.
    #[arg(long, env = "ROOKERY_NODE_ID", global = true)]
    pub(crate) node_id: Option<String>,
    /// The runtime's worker threads (by default one a core).
    #[arg(long, env = "ROOKERY_WORKER_THREADS", global = true)]
    pub(crate) worker_threads: Option<usize>,
}

impl Config {
    /// The clocks of `--hourly-arenas`, as written (the server checks each as an arena's).
    pub(crate) fn hourly_arenas(&self) -> Vec<String> {
        self.hourly_arenas
            .iter()
            .map(|c| c.trim().to_owned())
            .filter(|c| !c.is_empty())
            .collect()
    }

    /// `--ladder-speeds` read: `Err` names a word that is no speed.
    pub(crate) fn ladder_speeds(&self) -> Result<Vec<rookery_core::rating::Speed>, String> {
        use rookery_core::rating::Speed;
        if self.ladder_speeds.trim() == "all" {
            return Ok(Speed::ALL.to_vec());
        }
        self.ladder_speeds
            .split(',')
            .map(str::trim)
            .filter(|w| !w.is_empty())
            .map(|w| {
                Speed::parse(w).ok_or_else(|| {
                    format!(
                        "--ladder-speeds: {w:?} is no speed \
                         (ultrabullet, bullet, blitz, rapid, classical, or all)"
                    )
                })
            })
            .collect()
    }
}

/// On or off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Switch {
    On,
    Off,
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
    /// Pair a round of a tournament from its TRF file, as bbpPairings and JaVaFo do
    /// (`--dutch FILE -p [OUT]`), or by FIDE's Berger tables (`--round-robin FILE -p`).
    Pairings(PairingsArgs),
    /// Tie-breaks of a tournament from its TRF file, by FIDE's regulations (C.07)
    /// (docs/TOURNAMENTS.md)
    Tiebreaks(TiebreaksArgs),
    /// Manage accounts from the command line (no browser, no e-mail needed).
    User {
        #[command(subcommand)]
        command: UserCommand,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum UserCommand {
    /// Make an account; its password is read from standard input (one line).
    Create {
        name: String,
        /// The account may use the admin page.
        #[arg(long)]
        admin: bool,
    },
    /// Print a one-time link (valid for an hour) to set a new password.
    ResetPassword { name: String },
    /// Print a new personal API token of the account.
    Token {
        name: String,
        /// Comma-separated scopes (board:play, bot:play, challenge:read, challenge:write,
        /// preference:read, preference:write, team:lead, team:read, team:write, tournament:write).
        #[arg(long, default_value = "")]
        scopes: String,
        /// What the token is for, as the account's tokens page lists it.
        #[arg(long, default_value = "command line")]
        description: String,
    },
    /// Grant a title (GM, IM, FM, WGM, WIM, NM, CM), or remove it with `none`.
    Title { name: String, title: String },
    /// Make the account an admin, or (with --remove) no longer one.
    Admin {
        name: String,
        #[arg(long)]
        remove: bool,
    },
    /// Close an account (its games stay; the name is never taken again).
    Close { name: String },
    /// Reopen a closed account.
    Reopen { name: String },
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

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("system").required(true).args(["dutch", "round_robin"])))]
pub(crate) struct PairingsArgs {
    /// The tournament (TRF), paired by the FIDE Dutch system (C.04.3).
    #[arg(long, value_name = "FILE")]
    pub(crate) dutch: Option<PathBuf>,
    /// The tournament (TRF), paired by FIDE's Berger tables (C.05 Annex 1).
    #[arg(long = "round-robin", value_name = "FILE")]
    pub(crate) round_robin: Option<PathBuf>,
    /// Pair the next round and write it (first line the number of pairs, then `white
    /// black` by starting number, `N 0` for the bye) to OUT, or to standard output.
    #[arg(short = 'p', value_name = "OUT", num_args = 0..=1, default_missing_value = "-")]
    pub(crate) pair: Option<PathBuf>,
    /// Check every round the file records: pair it again from the rounds before it and
    /// report the pairs that differ, as bbpPairings's checker does (Dutch only).
    #[arg(short = 'c', conflicts_with_all = ["pair", "round_robin"])]
    pub(crate) check: bool,
}

#[derive(Debug, Clone, clap::Args)]
pub(crate) struct TiebreaksArgs {
    /// The tournament (TRF).
    pub(crate) file: PathBuf,
    /// The tie-breaks, in order (FIDE's names: PTS, BH, BH/C1, BH/M1, SB, DE, WIN, WON, BPG,
    /// BWG, REP, ARO, TPR, PS); the default depends on the system.
    #[arg(short = 't', long = "tie-breaks", num_args = 1.., value_name = "TB")]
    pub(crate) tie_breaks: Vec<String>,
    /// The rounds counted (default: every round the file records).
    #[arg(short = 'n', long)]
    pub(crate) rounds: Option<usize>,
    /// The tournament is a round robin (unplayed games count as played).
    #[arg(long = "round-robin")]
    pub(crate) round_robin: bool,
}

/// How a node proves itself to NATS (docs/SCALING.md). Secrets are never logged.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct NatsAuth {
    /// NATS user name (with `--nats-password`).
    #[arg(long, env = "ROOKERY_NATS_USER", global = true)]
    pub(crate) nats_user: Option<String>,
    /// NATS password (with `--nats-user`); better in the environment than on the command
    /// line.
    #[arg(
        long,
        env = "ROOKERY_NATS_PASSWORD",
        global = true,
        hide_env_values = true
    )]
    pub(crate) nats_password: Option<String>,
    /// A NATS token.
    #[arg(
        long,
        env = "ROOKERY_NATS_TOKEN",
        global = true,
        hide_env_values = true
    )]
    pub(crate) nats_token: Option<String>,
    /// A NATS credentials file (JWT and NKey seed, as `nsc` writes them).
    #[arg(long, env = "ROOKERY_NATS_CREDS", global = true)]
    pub(crate) nats_creds: Option<std::path::PathBuf>,
    /// The certificate authority to check the NATS server's TLS certificate against (TLS
    /// is then required).
    #[arg(long, env = "ROOKERY_NATS_TLS_CA", global = true)]
    pub(crate) nats_tls_ca: Option<std::path::PathBuf>,
    /// This node's client certificate for NATS (with `--nats-tls-key`).
    #[arg(long, env = "ROOKERY_NATS_TLS_CERT", global = true)]
    pub(crate) nats_tls_cert: Option<std::path::PathBuf>,
    /// The key of `--nats-tls-cert`.
    #[arg(long, env = "ROOKERY_NATS_TLS_KEY", global = true)]
    pub(crate) nats_tls_key: Option<std::path::PathBuf>,
}
