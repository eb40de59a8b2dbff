//! `rookery-loadgen`: plays many games against a Rookery server over its real API and
//! WebSockets, and reports throughput and latency.
//!
//! For each game it creates the game over HTTP, joins the second seat, connects both players
//! (and optionally spectators) by WebSocket, and plays random legal moves (chosen with
//! rookery-core) at a set rate. A finished game is replaced by a new one. It measures each
//! move's latency from sending to its acknowledgement and to the opponent's receiving it, and
//! counts errors by kind and the sockets held. It stops by itself after `--seconds` or
//! `--max-moves`, and talks to loopback addresses only.
//!
//! Two more modes: `--idle N` sets up N games that then sit still (for memory per idle
//! game), and `--record FILE` / `--verify FILE` write down every acknowledged move and later
//! check that the server (typically restarted after a kill) still has each of them.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use rookery_core::Position;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// Load generator for a Rookery server (loopback only).
#[derive(Debug, Parser)]
#[command(name = "rookery-loadgen", version, about)]
struct Args {
    /// The server's address (a loopback address), or several nodes' separated by commas:
    /// games are then created, and players and spectators connected, round the nodes.
    #[arg(long, value_delimiter = ',', default_value = "127.0.0.1:8080")]
    server: Vec<SocketAddr>,
    /// When a socket closes, a move is refused for a reason a retry may cure, or an ack is
    /// late, connect again (to the next node) and go on; the interruptions are reported
    /// (from the game's last ack before it to its first ack after).
    #[arg(long)]
    reconnect: bool,
    /// With several nodes: every K-th game has its players and spectators all on the node
    /// that made it (0: none; each is on a node of its own, as far as there are nodes).
    #[arg(long, default_value_t = 0)]
    together_every: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Spectators per game.
    #[arg(long, default_value_t = 0)]
    spectators: usize,
    /// Moves per second in each game.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Time control of the games, in the lobby's form (`untimed`, `5+3`, ...).
    #[arg(long, default_value = "untimed")]
    time_control: String,
    /// How long to play.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// Stop after this many acknowledged moves.
    #[arg(long)]
    max_moves: Option<u64>,
    /// The server's process id, to report its memory (RSS).
    #[arg(long)]
    pid: Option<u32>,
    /// Games set up at once while starting.
    #[arg(long, default_value_t = 64)]
    setup_concurrency: usize,
    /// Seconds at the start (while games are set up) left out of the figures.
    #[arg(long, default_value_t = 0)]
    warmup: u64,
    /// Seconds between progress lines (moves/s, sockets, server RSS) on stderr.
    #[arg(long, default_value_t = 5)]
    progress_every: u64,
    /// Write every acknowledged move to this file, one game per line: `id ply:uci ply:uci ...`.
    #[arg(long)]
    record: Option<std::path::PathBuf>,
    /// Play nothing: check that the server has every move recorded in this file, then exit
    /// (status 1 if any is missing).
    #[arg(long, conflicts_with_all = ["record", "idle"])]
    verify: Option<std::path::PathBuf>,
    /// Play nothing: set up this many games (two moves each, then still; untimed) and
    /// report the server's RSS before and after, then exit.
    #[arg(long)]
    idle: Option<usize>,
    /// Beside the games, log in to an account this many times a second (each an Argon2id
    /// check on the server), and report the log-ins' latency. The account is signed up
    /// first. Run the server with `--rate-limits off`.
    #[arg(long, default_value_t = 0.0)]
    logins_per_second: f64,
}

impl Args {
    /// The `i`-th node, round the list.
    fn node(&self, i: usize) -> SocketAddr {
        self.server[i % self.server.len()]
    }
}

/// Figures shared by every task.
#[derive(Debug, Default)]
struct Stats {
    moves: AtomicU64,
    /// Microseconds from sending a move to its ack.
    ack_us: Mutex<Vec<u32>>,
    /// Microseconds from sending a move to the opponent's receiving it.
    opponent_us: Mutex<Vec<u32>>,
    errors: Mutex<HashMap<String, u64>>,
    sockets: AtomicI64,
    games_started: AtomicU64,
    max_rss_kib: AtomicU64,
    /// Past the warm-up: latencies are recorded.
    measuring: AtomicBool,
    /// Each finished game slot's acknowledged moves, in ply order (with `--record`).
    acked: Mutex<Vec<(String, Vec<String>)>>,
    /// Microseconds of each log-in (with `--logins-per-second`).
    login_us: Mutex<Vec<u32>>,
    logins: AtomicU64,
    /// Microseconds from a game's last ack before an interruption to its first after.
    interruption_us: Mutex<Vec<u32>>,
    reconnects: AtomicU64,
    /// When each game slot last had a move acknowledged (or its game made).
    last_ack: Mutex<HashMap<u64, Instant>>,
}

impl Stats {
    fn error(&self, kind: impl Into<String>) {
        let mut map = self
            .errors
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *map.entry(kind.into()).or_default() += 1;
    }

    fn sample(&self, list: &Mutex<Vec<u32>>, since: Instant) {
        if !self.measuring.load(Ordering::Relaxed) {
            return;
        }
        let us = since.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
        list.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(us);
    }
}

/// Sends one request on a new connection and reads the whole answer.
async fn exchange(addr: SocketAddr, request: &str) -> Result<String, String> {
    let mut stream = TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|e| format!("write: {e}"))?;
    let mut raw = Vec::new();
    stream
        .read_to_end(&mut raw)
        .await
        .map_err(|e| format!("read: {e}"))?;
    Ok(String::from_utf8_lossy(&raw).into_owned())
}

/// A form POST; the answer's status.
async fn form_post(addr: SocketAddr, path: &str, body: &str) -> Result<u16, String> {
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    exchange(addr, &request)
        .await?
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| "no status".to_owned())
}

/// `--logins-per-second`: signs up one account, then logs in to it at the asked rate until
/// told to stop, each log-in on its own task (they overlap when the server is slow).
async fn logins(ctx: Ctx) {
    let addr = ctx.args.node(0);
    let credentials = "name=loadgen-login&password=loadgen+password";
    match form_post(addr, "/signup", credentials).await {
        Ok(303 | 409) => {}
        Ok(status) => ctx.stats.error(format!("sign-up answered {status}")),
        Err(e) => ctx.stats.error(format!("sign-up: {e}")),
    }
    let pace = Duration::from_secs_f64(1.0 / ctx.args.logins_per_second);
    let mut next = Instant::now();
    while !ctx.stop.load(Ordering::Relaxed) {
        next += pace;
        tokio::time::sleep_until(next.into()).await;
        let ctx = ctx.clone();
        tokio::spawn(async move {
            let sent = Instant::now();
            match form_post(ctx.args.node(0), "/login", credentials).await {
                Ok(303) => {
                    ctx.stats.logins.fetch_add(1, Ordering::Relaxed);
                    ctx.stats.sample(&ctx.stats.login_us, sent);
                }
                Ok(status) => ctx.stats.error(format!("log-in answered {status}")),
                Err(e) => ctx.stats.error(format!("log-in: {e}")),
            }
        });
    }
}

/// A small deterministic random generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }
}

/// One HTTP/1.1 request with `Connection: close`: status, the first `Set-Cookie` pair and
/// the body.
async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    cookie: Option<&str>,
) -> Result<(u16, Option<String>, Value), String> {
    let body = body.map(Value::to_string).unwrap_or_default();
    let cookie = cookie
        .map(|c| format!("Cookie: {c}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{cookie}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let raw = exchange(addr, &request).await?;
    let (head, rest) = raw.split_once("\r\n\r\n").ok_or("no HTTP head")?;
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or("no status")?;
    let cookie = head.lines().find_map(|l| {
        let (name, value) = l.split_once(':')?;
        name.eq_ignore_ascii_case("set-cookie")
            .then(|| value.trim().split(';').next().unwrap_or("").to_owned())
    });
    let json = serde_json::from_str(rest.trim()).unwrap_or(Value::Null);
    Ok((status, cookie, json))
}

/// Creates a game on node `node` and takes both seats (the second from node `join`): its
/// id and the two players' cookies.
async fn new_game(
    args: &Args,
    node: usize,
    join: usize,
) -> Result<(String, String, String), String> {
    let body = json!({"time_control": args.time_control, "color": "white"});
    let (status, white, created) =
        http(args.node(node), "POST", "/api/games", Some(&body), None).await?;
    if status != 201 {
        return Err(format!("create: HTTP {status}"));
    }
    let id = created["id"].as_str().ok_or("create: no id")?.to_owned();
    let (status, black, _) = http(
        args.node(join),
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await?;
    if status != 200 {
        return Err(format!("join: HTTP {status}"));
    }
    Ok((
        id,
        white.ok_or("create: no cookie")?,
        black.ok_or("join: no cookie")?,
    ))
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

async fn connect(addr: SocketAddr, id: &str, cookie: Option<&str>) -> Result<Socket, String> {
    let mut request = format!("ws://{addr}/game/{id}/socket")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    if let Some(cookie) = cookie {
        let value = cookie.parse().map_err(|_| "bad cookie")?;
        request.headers_mut().insert("Cookie", value);
    }
    let (socket, _) = tokio_tungstenite::connect_async(request)
        .await
        .map_err(|e| format!("websocket: {e}"))?;
    Ok(socket)
}

/// When each ply of a game was sent, for the opponent-side latency.
type Sent = Arc<Mutex<HashMap<u64, Instant>>>;

/// What every task shares: the arguments, the figures, and the stop flag.
#[derive(Debug, Clone)]
struct Ctx {
    args: Arc<Args>,
    stats: Arc<Stats>,
    stop: Arc<AtomicBool>,
}

/// A game's acknowledged moves by ply.
type Acked = Arc<Mutex<Vec<(u64, String)>>>;

/// A player's place in one game: its cookie and color, and the game's shared records.
struct Seat {
    id: String,
    cookie: String,
    me: &'static str,
    sent: Sent,
    acked: Acked,
    seed: u64,
    /// The game slot (for its last ack) and the node this player connects to first.
    slot: u64,
    node: usize,
    gap: Gap,
}

/// A game's interruption: since when its moves have not been acknowledged (its last ack
/// before a player lost the connection), if they are not.
type Gap = Arc<Mutex<Option<Instant>>>;

/// How one connection of a player ended.
enum Ended {
    /// The game is over, or the run.
    Done,
    /// The connection failed (closed, a move refused for a passing reason, an ack late).
    Lost,
}

/// How long an acknowledgement may take before the connection counts as lost.
const ACK_LATE: Duration = Duration::from_secs(6);

/// One player: moves on its turn after the game's pace, until the game ends or `stop`;
/// with `--reconnect`, a lost connection is made again to the next node.
async fn player(ctx: Ctx, seat: Seat) {
    let mut node = seat.node;
    let mut rng = Rng(seat.seed | 1);
    let mut last_ack = Instant::now();
    loop {
        let ended = play(&ctx, &seat, node, &mut rng, &mut last_ack).await;
        if matches!(ended, Ended::Done) || !ctx.args.reconnect || ctx.stop.load(Ordering::Relaxed) {
            break;
        }
        {
            let mut gap = seat
                .gap
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            gap.get_or_insert(last_ack);
        }
        ctx.stats.reconnects.fetch_add(1, Ordering::Relaxed);
        node += 1;
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// One connection of a player, until the game ends, the run stops, or the connection is
/// lost.
async fn play(ctx: &Ctx, seat: &Seat, node: usize, rng: &mut Rng, last_ack: &mut Instant) -> Ended {
    let Seat {
        id,
        cookie,
        me,
        sent,
        acked,
        slot,
        gap,
        ..
    } = seat;
    let Ctx { args, stats, stop } = ctx;
    let mut socket = match connect(args.node(node), id, Some(cookie)).await {
        Ok(s) => s,
        Err(e) => {
            stats.error(format!("connect: {e}"));
            return Ended::Lost;
        }
    };
    stats.sockets.fetch_add(1, Ordering::Relaxed);
    let pace = Duration::from_secs_f64(1.0 / args.rate.max(0.001));
    // Moves sent and not yet acknowledged: when, which ply, which move.
    let mut acks: HashMap<u64, (Instant, u64, String)> = HashMap::new();
    let mut next_id = 0u64;
    let mut ply = 0u64;
    let mut ended = Ended::Lost;
    'game: while !stop.load(Ordering::Relaxed) {
        if acks.values().any(|(at, _, _)| at.elapsed() > ACK_LATE) && args.reconnect {
            stats.error("ack late");
            break;
        }
        let frame = tokio::select! {
            f = socket.next() => f,
            () = tokio::time::sleep(Duration::from_millis(500)) => continue,
        };
        let Some(Ok(Message::Text(text))) = frame else {
            if !matches!(frame, Some(Ok(_))) {
                break;
            }
            continue;
        };
        let Ok(f) = serde_json::from_str::<Value>(&text) else {
            stats.error("bad frame");
            continue;
        };
        let d = &f["d"];
        let (fen, turn) = match f["t"].as_str() {
            Some("state") => {
                if !d["over"].is_null() {
                    ended = Ended::Done;
                    break;
                }
                ply = d["san"].as_array().map_or(0, |a| a.len() as u64);
                (
                    d["fen"].as_str().map(str::to_owned),
                    d["turn"].as_str() == Some(me),
                )
            }
            Some("move") => {
                ply = d["ply"].as_u64().unwrap_or(ply + 1);
                if d["by"].as_str() != Some(*me) {
                    let at = sent
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .remove(&ply);
                    if let Some(at) = at {
                        stats.sample(&stats.opponent_us, at);
                    }
                }
                (
                    d["fen"].as_str().map(str::to_owned),
                    d["by"].as_str() != Some(*me),
                )
            }
            Some("ack") => {
                if let Some((at, ply, uci)) = d["a"].as_u64().and_then(|a| acks.remove(&a)) {
                    stats.sample(&stats.ack_us, at);
                    acked
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push((ply, uci));
                    *last_ack = Instant::now();
                    stats
                        .last_ack
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .insert(*slot, *last_ack);
                    let since = gap
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .take();
                    if let Some(since) = since {
                        let us = since.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                        stats
                            .interruption_us
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .push(us);
                    }
                    let n = stats.moves.fetch_add(1, Ordering::Relaxed) + 1;
                    if args.max_moves.is_some_and(|max| n >= max) {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                continue;
            }
            Some("error") => {
                stats.error(d["message"].as_str().unwrap_or("error").to_owned());
                if args.reconnect {
                    // A fresh state says where the game stands.
                    break;
                }
                continue;
            }
            Some("end") => {
                ended = Ended::Done;
                break 'game;
            }
            _ => continue,
        };
        let (Some(fen), true) = (fen, turn) else {
            continue;
        };
        let Ok(pos) = Position::from_fen(&fen) else {
            stats.error("unreadable FEN");
            ended = Ended::Done;
            break;
        };
        let moves = pos.legal_moves();
        if moves.is_empty() {
            continue;
        }
        tokio::time::sleep(pace).await;
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let m = moves[rng.below(moves.len())];
        let uci = m.to_uci().to_string();
        next_id += 1;
        let now = Instant::now();
        acks.insert(next_id, (now, ply + 1, uci.clone()));
        sent.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(ply + 1, now);
        let frame = json!({"t": "move", "d": {"u": uci, "a": next_id}});
        if socket
            .send(Message::Text(frame.to_string().into()))
            .await
            .is_err()
        {
            stats.error("send failed");
            break;
        }
    }
    if stop.load(Ordering::Relaxed) {
        ended = Ended::Done;
        if *me == "white" {
            // Leave no game behind (a live game would stay in the server's memory): abort
            // one too young to resign, else resign; the core refuses whichever does not
            // apply.
            for (i, t) in ["abort", "resign"].into_iter().enumerate() {
                let frame = json!({"t": t, "d": {"a": next_id + 1 + i as u64}});
                let _ = socket.send(Message::Text(frame.to_string().into())).await;
            }
        }
    }
    let _ = socket.close(None).await;
    stats.sockets.fetch_sub(1, Ordering::Relaxed);
    ended
}

/// A spectator: reads every frame until the game ends or `stop` (with `--reconnect`,
/// connecting again to the next node when the connection is lost).
async fn spectator(ctx: Ctx, id: String, mut node: usize) {
    let Ctx { args, stats, stop } = ctx;
    'connections: while !stop.load(Ordering::Relaxed) {
        let mut socket = match connect(args.node(node), &id, None).await {
            Ok(s) => s,
            Err(e) => {
                stats.error(format!("connect: {e}"));
                if !args.reconnect {
                    return;
                }
                node += 1;
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        };
        stats.sockets.fetch_add(1, Ordering::Relaxed);
        let mut over = false;
        while !stop.load(Ordering::Relaxed) {
            let frame = tokio::select! {
                f = socket.next() => f,
                () = tokio::time::sleep(Duration::from_millis(500)) => continue,
            };
            match frame {
                Some(Ok(Message::Text(t))) if t.contains("\"t\":\"end\"") => {
                    over = true;
                    break;
                }
                Some(Ok(_)) => {}
                _ => break,
            }
        }
        let _ = socket.close(None).await;
        stats.sockets.fetch_sub(1, Ordering::Relaxed);
        if over || !args.reconnect {
            break 'connections;
        }
        node += 1;
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// One game slot: plays a game, then another, until `stop`.
async fn slot(ctx: Ctx, index: u64) {
    let Ctx { args, stats, stop } = ctx.clone();
    let mut round = 0u64;
    while !stop.load(Ordering::Relaxed) {
        let node = (index + round) as usize;
        // Each player and spectator on a node of its own, as far as there are nodes; or,
        // in a game kept together, all on the node that made it.
        let together = args.together_every > 0 && index % args.together_every == 0;
        let apart = usize::from(!together);
        let (id, white, black) = match new_game(&args, node, node + apart).await {
            Ok(g) => g,
            Err(e) => {
                stats.error(e);
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        };
        stats.games_started.fetch_add(1, Ordering::Relaxed);
        stats
            .last_ack
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(index, Instant::now());
        let gap: Gap = Arc::default();
        let sent: Sent = Arc::default();
        let acked: Acked = Arc::default();
        let seed = index.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ round;
        let seat = |cookie, me, seed, node| Seat {
            id: id.clone(),
            cookie,
            me,
            sent: sent.clone(),
            acked: acked.clone(),
            seed,
            slot: index,
            node,
            gap: gap.clone(),
        };
        let mut tasks = vec![
            tokio::spawn(player(ctx.clone(), seat(white, "white", seed, node))),
            tokio::spawn(player(
                ctx.clone(),
                seat(black, "black", seed ^ 0xabcd, node + apart),
            )),
        ];
        for k in 0..args.spectators {
            tasks.push(tokio::spawn(spectator(
                ctx.clone(),
                id.clone(),
                node + (2 + k) * apart,
            )));
        }
        for t in tasks {
            let _ = t.await;
        }
        if args.record.is_some() {
            let mut moves = std::mem::take(
                &mut *acked
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner),
            );
            moves.sort_unstable();
            // With reconnections a move may be stored unacknowledged between two acked
            // ones: each is written with its ply.
            let moves = moves
                .into_iter()
                .map(|(ply, uci)| format!("{ply}:{uci}"))
                .collect();
            stats
                .acked
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push((id, moves));
        }
        round += 1;
    }
}

/// CPU time (user + system) process `pid` has used, in seconds (Linux; clock ticks at the
/// usual 100 per second).
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) start at the state, field 3;
    // utime and stime are fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// Resident memory of process `pid`, in KiB (Linux).
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

fn percentiles(name: &str, list: &Mutex<Vec<u32>>) -> String {
    let mut v = list
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    if v.is_empty() {
        return format!("{name}: no samples");
    }
    v.sort_unstable();
    let q = |p: f64| f64::from(v[((v.len() - 1) as f64 * p) as usize]) / 1000.0;
    format!(
        "{name}: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} samples)",
        q(0.5),
        q(0.9),
        q(0.99),
        q(1.0),
        v.len()
    )
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args = Arc::new(Args::parse());
    if let Some(addr) = args.server.iter().find(|a| !a.ip().is_loopback()) {
        eprintln!("rookery-loadgen: {addr} is not a loopback address; refusing");
        return std::process::ExitCode::from(2);
    }
    if let Some(path) = &args.verify {
        return verify(&args, path).await;
    }
    if let Some(n) = args.idle {
        return idle(&args, n).await;
    }
    let stats = Arc::new(Stats::default());
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let cpus = || {
        (
            args.pid.and_then(cpu_seconds),
            cpu_seconds(std::process::id()),
        )
    };
    let mut cpu_at_start = cpus();
    // Where the measured window starts: when, and how many moves had been acknowledged.
    let mut window = (started, 0u64);
    stats.measuring.store(args.warmup == 0, Ordering::Relaxed);
    let mut slots = Vec::new();
    // Set the games up a batch at a time, so the server is not hit by every handshake at once.
    for batch in (0..args.games as u64)
        .collect::<Vec<_>>()
        .chunks(args.setup_concurrency.max(1))
    {
        for &i in batch {
            let ctx = Ctx {
                args: args.clone(),
                stats: stats.clone(),
                stop: stop.clone(),
            };
            slots.push(tokio::spawn(slot(ctx, i)));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    if args.logins_per_second > 0.0 {
        tokio::spawn(logins(Ctx {
            args: args.clone(),
            stats: stats.clone(),
            stop: stop.clone(),
        }));
    }
    let deadline = started + Duration::from_secs(args.seconds);
    let mut last = (Instant::now(), 0u64);
    while Instant::now() < deadline && !stop.load(Ordering::Relaxed) {
        tokio::time::sleep(
            Duration::from_secs(1).min(deadline.saturating_duration_since(Instant::now())),
        )
        .await;
        if !stats.measuring.load(Ordering::Relaxed)
            && started.elapsed() >= Duration::from_secs(args.warmup)
        {
            stats.measuring.store(true, Ordering::Relaxed);
            window = (Instant::now(), stats.moves.load(Ordering::Relaxed));
            cpu_at_start = cpus();
        }
        if let Some(kib) = args.pid.and_then(rss_kib) {
            stats.max_rss_kib.fetch_max(kib, Ordering::Relaxed);
        }
        if last.0.elapsed() >= Duration::from_secs(args.progress_every.max(1)) {
            let moves = stats.moves.load(Ordering::Relaxed);
            let rss = args
                .pid
                .and_then(rss_kib)
                .map(|kib| format!(", server RSS {:.1} MiB", kib as f64 / 1024.0))
                .unwrap_or_default();
            eprintln!(
                "{:>5.0} s: {:.0} moves/s, {} sockets{rss}",
                started.elapsed().as_secs_f64(),
                (moves - last.1) as f64 / last.0.elapsed().as_secs_f64(),
                stats.sockets.load(Ordering::Relaxed)
            );
            last = (Instant::now(), moves);
        }
    }
    let sockets_at_end = stats.sockets.load(Ordering::Relaxed);
    let stalled = stats
        .last_ack
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .values()
        .filter(|at| at.elapsed() > STALLED)
        .count();
    let rss_at_end = args.pid.and_then(rss_kib);
    let cpu_at_end = cpus();
    let moves_at_end = stats.moves.load(Ordering::Relaxed);
    stop.store(true, Ordering::Relaxed);
    let elapsed = window.0.elapsed().as_secs_f64();
    // Bounded: give the tasks a moment to close their sockets, then report regardless.
    let _ = tokio::time::timeout(Duration::from_secs(10), async {
        for s in slots {
            let _ = s.await;
        }
    })
    .await;
    let moves = moves_at_end - window.1;
    println!(
        "{} games at once ({} started), {} spectators each, {:.1} moves/s per game asked",
        args.games,
        stats.games_started.load(Ordering::Relaxed),
        args.spectators,
        args.rate
    );
    let warm = if args.warmup > 0 {
        format!(" (after {} s of warm-up)", args.warmup)
    } else {
        String::new()
    };
    println!(
        "{moves} moves acknowledged in {elapsed:.1} s{warm} = {:.0} moves/s",
        moves as f64 / elapsed
    );
    println!("{}", percentiles("sent -> ack", &stats.ack_us));
    println!("{}", percentiles("sent -> opponent", &stats.opponent_us));
    if args.logins_per_second > 0.0 {
        println!(
            "log-ins: {} ({:.1}/s asked)",
            stats.logins.load(Ordering::Relaxed),
            args.logins_per_second
        );
        println!("{}", percentiles("log-in", &stats.login_us));
    }
    println!("sockets held at the end: {sockets_at_end}");
    println!(
        "games without an acknowledged move in the last {} s of the run: {stalled}",
        STALLED.as_secs()
    );
    if args.reconnect {
        println!(
            "reconnections: {}",
            stats.reconnects.load(Ordering::Relaxed)
        );
        println!("{}", percentiles("interruption", &stats.interruption_us));
    }
    let used = |start: Option<f64>, end: Option<f64>| end.zip(start).map(|(e, s)| e - s);
    if let Some(server) = used(cpu_at_start.0, cpu_at_end.0) {
        let own = used(cpu_at_start.1, cpu_at_end.1).unwrap_or(0.0);
        let wall = elapsed;
        println!(
            "CPU: server {server:.1} s ({:.0}% of a core), load generator {own:.1} s ({:.0}%); \
             server {:.0} us per move",
            100.0 * server / wall,
            100.0 * own / wall,
            1e6 * server / (moves.max(1) as f64)
        );
    }
    if let Some(kib) = rss_at_end {
        println!(
            "server RSS: {:.1} MiB at the end, {:.1} MiB at most",
            kib as f64 / 1024.0,
            stats.max_rss_kib.load(Ordering::Relaxed) as f64 / 1024.0
        );
    }
    if let Some(path) = &args.record {
        let acked = stats
            .acked
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut text = String::new();
        for (id, moves) in acked.iter() {
            text.push_str(id);
            for m in moves {
                text.push(' ');
                text.push_str(m);
            }
            text.push('\n');
        }
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("rookery-loadgen: cannot write {}: {e}", path.display());
            return std::process::ExitCode::FAILURE;
        }
        let count: usize = acked.iter().map(|(_, m)| m.len()).sum();
        println!(
            "recorded {count} acknowledged moves of {} games in {}",
            acked.len(),
            path.display()
        );
    }
    let errors = stats
        .errors
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if errors.is_empty() {
        println!("errors: none");
    } else {
        for (kind, n) in errors.iter() {
            println!("error: {n} x {kind}");
        }
    }
    std::process::ExitCode::SUCCESS
}

/// A game slot with no acknowledged move for this long at the end of the run counts as
/// stalled.
const STALLED: Duration = Duration::from_secs(20);

/// `--verify`: each recorded game's acknowledged moves must be what the server has at their
/// plies (`ply:uci`; a bare `uci` is the next ply).
async fn verify(args: &Args, path: &std::path::Path) -> std::process::ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("rookery-loadgen: cannot read {}: {e}", path.display());
            return std::process::ExitCode::from(2);
        }
    };
    let games: Vec<(&str, Vec<(usize, &str)>)> = text
        .lines()
        .filter_map(|line| {
            let mut parts = line.split_whitespace();
            let id = parts.next()?;
            let mut next = 1;
            let moves = parts
                .map(|token| {
                    let (ply, uci) = match token.split_once(':') {
                        Some((ply, uci)) => (ply.parse().unwrap_or(0), uci),
                        None => (next, token),
                    };
                    next = ply + 1;
                    (ply, uci)
                })
                .collect();
            Some((id, moves))
        })
        .collect();
    let checks =
        futures_util::stream::iter(games.iter().enumerate().map(|(i, (id, acked))| async move {
            let path = format!("/api/games/{id}");
            let found = http(args.node(i), "GET", &path, None, None).await;
            let problem = match found {
                Ok((200, _, body)) => {
                    let stored: Vec<&str> = body["uci"]
                        .as_array()
                        .map(|a| a.iter().filter_map(Value::as_str).collect())
                        .unwrap_or_default();
                    let wrong = acked
                        .iter()
                        .find(|(ply, uci)| stored.get(ply.wrapping_sub(1)) != Some(uci));
                    wrong.map(|(ply, uci)| {
                        format!(
                            "{id}: {} moves acknowledged, {} stored; ply {ply} acknowledged as \
                         {uci}, stored as {}",
                            acked.len(),
                            stored.len(),
                            stored.get(ply.wrapping_sub(1)).unwrap_or(&"nothing")
                        )
                    })
                }
                Ok((status, _, _)) => Some(format!("{id}: HTTP {status}")),
                Err(e) => Some(format!("{id}: {e}")),
            };
            (acked.len(), problem)
        }))
        .buffer_unordered(16)
        .collect::<Vec<_>>()
        .await;
    let moves: usize = checks.iter().map(|c| c.0).sum();
    let problems: Vec<&String> = checks.iter().filter_map(|c| c.1.as_ref()).collect();
    println!(
        "verified {} games, {moves} acknowledged moves: {} games with a move missing",
        games.len(),
        problems.len()
    );
    for p in problems.iter().take(20) {
        println!("lost: {p}");
    }
    if problems.is_empty() {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}

/// `--idle`: sets up `n` games that then sit still (two moves each, untimed) and reports the
/// server's RSS before and after.
async fn idle(args: &Args, n: usize) -> std::process::ExitCode {
    let Some(pid) = args.pid else {
        eprintln!("rookery-loadgen: --idle needs --pid to read the server's memory");
        return std::process::ExitCode::from(2);
    };
    let before = rss_kib(pid).unwrap_or(0);
    let setup = |i: usize| async move {
        let (id, white, black) = new_game(args, i, i + 1).await?;
        for (cookie, m) in [(&white, "e2e4"), (&black, "e7e5")] {
            let path = format!("/api/games/{id}/move");
            let (status, _, _) = http(
                args.node(i),
                "POST",
                &path,
                Some(&json!({"m": m})),
                Some(cookie),
            )
            .await?;
            if status != 200 {
                return Err(format!("move: HTTP {status}"));
            }
        }
        Ok::<(), String>(())
    };
    let results = futures_util::stream::iter((0..n).map(setup))
        .buffer_unordered(args.setup_concurrency.max(1))
        .collect::<Vec<_>>()
        .await;
    let failed: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    // Let the server settle before reading its memory.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = rss_kib(pid).unwrap_or(0);
    let ok = n - failed.len();
    println!(
        "idle games: {ok} set up, {} failed{}",
        failed.len(),
        failed
            .first()
            .map(|e| format!(" (first: {e})"))
            .unwrap_or_default()
    );
    println!(
        "server RSS: {:.1} MiB before, {:.1} MiB after = {:.1} KiB per idle game",
        before as f64 / 1024.0,
        after as f64 / 1024.0,
        after.saturating_sub(before) as f64 / ok.max(1) as f64
    );
    if failed.is_empty() {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}
