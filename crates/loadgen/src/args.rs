//! The command line.

use super::*;

/// Load generator for a Rookery server (loopback only).
#[derive(Debug, Parser)]
#[command(name = "rookery-loadgen", version, about)]
pub(crate) struct Args {
    /// The server's address (a loopback address), or several nodes' separated by commas:
    /// games are then created, and players and spectators connected, round the nodes.
    #[arg(long, value_delimiter = ',', default_value = "127.0.0.1:8080")]
    pub(crate) server: Vec<SocketAddr>,
    /// When a socket closes, a move is refused for a reason a retry may cure, or an ack is
    /// late, connect again (to the next node) and go on; the interruptions are reported
    /// (from the game's last ack before it to its first ack after).
    #[arg(long)]
    pub(crate) reconnect: bool,
    /// With several nodes: every K-th game has its players and spectators all on the node
    /// that made it (0: none; each is on a node of its own, as far as there are nodes).
    #[arg(long, default_value_t = 0)]
    pub(crate) together_every: u64,
    /// With several nodes: every player and spectator on a node other than the one that made
    /// the game (its owner), so that every move crosses to the owner and back (with two nodes
    /// both players are on the other one; with three, one on each other node).
    #[arg(long, conflicts_with = "together_every")]
    pub(crate) away: bool,
    /// With several nodes: every game made on the first node (so it owns them all), instead
    /// of round the nodes; with `--away`, the other nodes only carry the players' sockets,
    /// and each node's CPU is the owner's or the entry's share of a move.
    #[arg(long)]
    pub(crate) one_owner: bool,
    /// Games played at once.
    #[arg(long, default_value_t = 100)]
    pub(crate) games: usize,
    /// Spectators per game.
    #[arg(long, default_value_t = 0)]
    pub(crate) spectators: usize,
    /// Moves per second in each game, on average: a player thinks between half and one and a
    /// half times the mean (uniformly), so the games do not fall into step.
    #[arg(long, default_value_t = 1.0)]
    pub(crate) rate: f64,
    /// Time control of the games, in the lobby's form (`untimed`, `5+3`, ...).
    #[arg(long, default_value = "untimed")]
    pub(crate) time_control: String,
    /// How long to play.
    #[arg(long, default_value_t = 30)]
    pub(crate) seconds: u64,
    /// Stop after this many acknowledged moves.
    #[arg(long)]
    pub(crate) max_moves: Option<u64>,
    /// The server's process id, to report its memory (RSS).
    #[arg(long)]
    pub(crate) pid: Option<u32>,
    /// Games set up at once while starting.
    #[arg(long, default_value_t = 64)]
    pub(crate) setup_concurrency: usize,
    /// Seconds at the start (while games are set up) left out of the figures.
    #[arg(long, default_value_t = 0)]
    pub(crate) warmup: u64,
    /// Seconds between progress lines (moves/s, sockets, server RSS) on stderr.
    #[arg(long, default_value_t = 5)]
    pub(crate) progress_every: u64,
    /// Write every acknowledged move to this file, one game per line: `id ply:uci ply:uci ...`.
    #[arg(long)]
    pub(crate) record: Option<std::path::PathBuf>,
    /// Play nothing: check that the server has every move recorded in this file, then exit
    /// (status 1 if any is missing).
    #[arg(long, conflicts_with_all = ["record", "idle"])]
    pub(crate) verify: Option<std::path::PathBuf>,
    /// Play nothing: set up this many games (two moves each under `--time-control`, then
    /// still) and report the server's RSS before and `--settle` seconds after, then exit.
    #[arg(long)]
    pub(crate) idle: Option<usize>,
    /// With `--idle`: seconds to wait after the set-up before reading the server's memory
    /// (long enough for rooms to sleep, when they do).
    #[arg(long, default_value_t = 2.0)]
    pub(crate) settle: f64,
    /// Beside the games, log in to an account this many times a second (each an Argon2id
    /// check on the server), and report the log-ins' latency. The account is signed up
    /// first. Run the server with `--rate-limits off`.
    #[arg(long, default_value_t = 0.0)]
    pub(crate) logins_per_second: f64,
    /// Instead of games from the lobby: one arena of this many players (each signed up,
    /// joined through lichess's API, following its event stream and playing each game it
    /// is paired in), lasting the run; `--time-control` is its clock (`1+0`), `--rate` each
    /// player's moves a second. Run the server with `--rate-limits off`.
    #[arg(long, conflicts_with_all = ["verify", "idle"])]
    pub(crate) arena: Option<usize>,
}

impl Args {
    /// The `i`-th node, round the list.
    pub(crate) fn node(&self, i: usize) -> SocketAddr {
        self.server[i % self.server.len()]
    }
}
