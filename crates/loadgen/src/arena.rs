//! `--arena N`: one arena of N players, as lichess's clients play one. Each player signs
//! up, joins the arena through lichess's `POST /api/tournament/{id}/join`, follows its event
//! stream (`GET /api/stream/event`) and plays every `gameStart` over the game's socket
//! (random legal moves at `--rate`, a tenth of the games berserk, most resigned at a random
//! ply so games differ in length), then waits for the next. The arena lasts the run
//! (`--seconds`, in whole minutes) and is ended by its organiser when the run stops.
//!
//! Reported beside the usual move figures: the wait from a game's end to the next
//! `gameStart` (p50, p95, p99), the games and immediate rematches each player saw, and the
//! check that the standings count every finished game once (the results' sheets against the
//! games the players saw end with a result).

use super::*;

/// Players set up at once.
const SETUP: usize = 32;

/// What the arena's players saw.
#[derive(Debug, Default)]
pub(crate) struct ArenaStats {
    /// Microseconds from a game's end to the player's next `gameStart`.
    pub(crate) wait_us: Mutex<Vec<u32>>,
    /// Games that ended with a result (counted by White), and aborted ones.
    pub(crate) finished: AtomicU64,
    pub(crate) aborted: AtomicU64,
    /// A player met the opponent of his previous game again at once.
    pub(crate) rematches: AtomicU64,
    pub(crate) joined: AtomicU64,
    /// The games the players saw end with a result.
    finished_ids: Mutex<Vec<String>>,
    /// The moves' send times, per game (both players' tasks share a game's).
    sent: Mutex<HashMap<String, Sent>>,
}

/// A running arena: its id and its organiser's cookie.
pub(crate) struct ArenaRun {
    pub(crate) id: String,
    organiser: String,
    pub(crate) stats: Arc<ArenaStats>,
}

/// A random name suffix, so a run can follow another on the same database.
fn suffix() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let mut rng = Rng(u64::from(nanos) | 1);
    (0..4)
        .map(|_| char::from(b'a' + rng.below(26) as u8))
        .collect()
}

/// Signs up account `name`: its session cookie.
async fn signup(addr: SocketAddr, name: &str) -> Result<String, String> {
    let body = format!("name={name}&password=loadgen+arena+password");
    let request = format!(
        "POST /signup HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let raw = exchange(addr, &request).await?;
    raw.lines()
        .take_while(|l| !l.is_empty())
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            (k.eq_ignore_ascii_case("set-cookie") && v.trim().starts_with("rk-session="))
                .then(|| v.trim().split(';').next().unwrap_or("").to_owned())
        })
        .ok_or_else(|| format!("sign-up of {name}: no session"))
}

/// Signs up the organiser and the players, makes the arena (starting now, lasting the run)
/// and starts every player.
pub(crate) async fn start(ctx: &Ctx, n: usize) -> Result<ArenaRun, String> {
    let args = &ctx.args;
    let addr = args.node(0);
    let tag = suffix();
    let organiser = signup(addr, &format!("org{tag}")).await?;
    let (base, increment) = args
        .time_control
        .split_once('+')
        .ok_or("--arena needs a --time-control of minutes+seconds (1+0)")?;
    let minutes = args.seconds.div_ceil(60).max(1);
    let body = json!({
        "name": format!("Load {tag}"), "clockTime": base, "clockIncrement": increment,
        "minutes": minutes, "waitMinutes": 0, "berserkable": true, "rated": true,
    });
    let (status, _, arena) = http(
        addr,
        "POST",
        "/api/tournament",
        Some(&body),
        Some(&organiser),
    )
    .await?;
    if status != 200 {
        return Err(format!("the arena: HTTP {status} {arena}"));
    }
    let id = arena["id"].as_str().ok_or("the arena: no id")?.to_owned();
    let stats = Arc::new(ArenaStats::default());
    eprintln!("arena {id}: signing up {n} players");
    let mut cookies = Vec::with_capacity(n);
    for batch in (0..n).collect::<Vec<_>>().chunks(SETUP) {
        let signups = batch.iter().map(|&i| {
            let name = format!("p{tag}{i:05}");
            let node = args.node(i);
            async move { signup(node, &name).await }
        });
        for cookie in futures_util::future::join_all(signups).await {
            cookies.push(cookie?);
        }
    }
    eprintln!("arena {id}: {n} players join and play");
    for (i, cookie) in cookies.into_iter().enumerate() {
        tokio::spawn(player(ctx.clone(), stats.clone(), id.clone(), cookie, i));
        if i % SETUP == SETUP - 1 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    Ok(ArenaRun {
        id,
        organiser,
        stats,
    })
}

/// Reads an HTTP/1.1 chunked body as it comes: each JSON line, to `found`.
async fn next_lines(
    stream: &mut TcpStream,
    buf: &mut Vec<u8>,
    found: &mut Vec<Value>,
) -> Result<(), String> {
    let mut chunk = [0u8; 4096];
    let n = stream
        .read(&mut chunk)
        .await
        .map_err(|e| format!("stream: {e}"))?;
    if n == 0 {
        return Err("stream closed".into());
    }
    buf.extend_from_slice(&chunk[..n]);
    // Chunks: a size in hex, CRLF, the data, CRLF. Lines of JSON may span chunks.
    loop {
        let Some(end) = buf.windows(2).position(|w| w == b"\r\n") else {
            return Ok(());
        };
        let size = usize::from_str_radix(String::from_utf8_lossy(&buf[..end]).trim(), 16)
            .map_err(|_| "stream: not chunked".to_owned())?;
        if buf.len() < end + 2 + size + 2 {
            return Ok(());
        }
        let data: Vec<u8> = buf[end + 2..end + 2 + size].to_vec();
        buf.drain(..end + 2 + size + 2);
        for line in String::from_utf8_lossy(&data).lines() {
            if let Ok(v) = serde_json::from_str::<Value>(line.trim()) {
                found.push(v);
            }
        }
    }
}

/// Opens `cookie`'s event stream on `addr`: the connection after the answer's head.
async fn event_stream(addr: SocketAddr, cookie: &str) -> Result<(TcpStream, Vec<u8>), String> {
    let mut stream = TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let request =
        format!("GET /api/stream/event HTTP/1.1\r\nHost: {addr}\r\nCookie: {cookie}\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|e| format!("write: {e}"))?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = stream
            .read(&mut chunk)
            .await
            .map_err(|e| format!("read: {e}"))?;
        if n == 0 {
            return Err("the event stream closed".into());
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            if !buf.starts_with(b"HTTP/1.1 200") {
                return Err(format!(
                    "the event stream: {}",
                    String::from_utf8_lossy(&buf[..end.min(40)])
                ));
            }
            buf.drain(..end + 4);
            return Ok((stream, buf));
        }
    }
}

/// One arena player: joins, then plays each game its event stream starts.
async fn player(ctx: Ctx, stats: Arc<ArenaStats>, id: String, cookie: String, index: usize) {
    let mut node = index;
    let addr = ctx.args.node(node);
    let (mut stream, mut buf) = match event_stream(addr, &cookie).await {
        Ok(s) => s,
        Err(e) => return ctx.stats.error(e),
    };
    match http(
        addr,
        "POST",
        &format!("/api/tournament/{id}/join"),
        Some(&json!({})),
        Some(&cookie),
    )
    .await
    {
        Ok((200, _, _)) => {
            stats.joined.fetch_add(1, Ordering::Relaxed);
        }
        Ok((status, _, body)) => return ctx.stats.error(format!("join: {status} {body}")),
        Err(e) => return ctx.stats.error(format!("join: {e}")),
    }
    let mut rng = Rng((index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut played: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut ended_at: Option<Instant> = None;
    let mut last_opponent: Option<String> = None;
    let mut events = Vec::new();
    while !ctx.stop.load(Ordering::Relaxed) {
        if events.is_empty() {
            let read = tokio::time::timeout(
                Duration::from_secs(1),
                next_lines(&mut stream, &mut buf, &mut events),
            )
            .await;
            match read {
                Err(_) => continue,
                Ok(Err(e)) => {
                    if ctx.stop.load(Ordering::Relaxed) {
                        return;
                    }
                    if !ctx.args.reconnect {
                        return ctx.stats.error(e);
                    }
                    // Its node is gone: the stream again from the next (it begins with a
                    // `gameStart` for a game under way).
                    ctx.stats.reconnects.fetch_add(1, Ordering::Relaxed);
                    loop {
                        node += 1;
                        tokio::time::sleep(Duration::from_millis(200)).await;
                        if let Ok((s, b)) = event_stream(ctx.args.node(node), &cookie).await {
                            (stream, buf) = (s, b);
                            break;
                        }
                        if ctx.stop.load(Ordering::Relaxed) {
                            return;
                        }
                    }
                    continue;
                }
                Ok(Ok(())) => {}
            }
        }
        let Some(event) = (!events.is_empty()).then(|| events.remove(0)) else {
            continue;
        };
        if event["type"] != "gameStart" {
            continue;
        }
        let game = &event["game"];
        let Some(gid) = game["gameId"].as_str().map(str::to_owned) else {
            continue;
        };
        if !played.insert(gid.clone()) {
            continue;
        }
        if let Some(at) = ended_at.take() {
            ctx.stats.sample(&stats.wait_us, at);
        }
        let opponent = game["opponent"]["username"].as_str().map(str::to_owned);
        if opponent.is_some() && opponent == last_opponent {
            stats.rematches.fetch_add(1, Ordering::Relaxed);
        }
        last_opponent = opponent;
        let me: &'static str = if game["color"] == "white" {
            "white"
        } else {
            "black"
        };
        let sent = {
            let mut all = stats
                .sent
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            all.entry(gid.clone()).or_default().clone()
        };
        let mut seat = Seat {
            id: gid.clone(),
            cookie: cookie.clone(),
            me,
            sent,
            acked: Arc::default(),
            seed: rng.below(usize::MAX) as u64 | 1,
            slot: index as u64,
            node,
            gap: Arc::default(),
            // Most games resigned between move 10 and 60; some played to the flag.
            resign_at: (rng.below(4) != 0).then(|| 20 + rng.below(100) as u64),
            berserk: rng.below(10) == 0,
            result: Arc::default(),
        };
        let result = seat.result.clone();
        ctx.stats.games_started.fetch_add(1, Ordering::Relaxed);
        let mut last_ack = Instant::now();
        // A lost connection (its node killed): the game again from the next node.
        while matches!(
            play(&ctx, &seat, node, &mut rng, &mut last_ack).await,
            Ended::Lost
        ) && ctx.args.reconnect
            && !ctx.stop.load(Ordering::Relaxed)
        {
            ctx.stats.reconnects.fetch_add(1, Ordering::Relaxed);
            node += 1;
            // Berserk once: asked again it is refused (and a refusal reconnects).
            seat.berserk = false;
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        ended_at = Some(Instant::now());
        if me == "white" {
            let result = result
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .clone();
            match result.as_deref() {
                Some("1-0" | "0-1" | "1/2-1/2") => {
                    stats.finished.fetch_add(1, Ordering::Relaxed);
                    stats
                        .finished_ids
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push(gid.clone());
                }
                _ => {
                    stats.aborted.fetch_add(1, Ordering::Relaxed);
                }
            }
            stats
                .sent
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .remove(&gid);
        }
    }
}

/// Ends the arena, lets its last games end, and reports what the players saw beside what
/// the standings count; `false` when they disagree.
pub(crate) async fn report(args: &Args, run: &ArenaRun) -> bool {
    let addr = args.node(0);
    let path = format!("/api/tournament/{}/terminate", run.id);
    if let Err(e) = http(addr, "POST", &path, Some(&json!({})), Some(&run.organiser)).await {
        eprintln!("rookery-loadgen: the arena could not be ended: {e}");
    }
    // Games under way end (their players resign or abort as the run stops); the keeper
    // takes their results in within a few seconds.
    tokio::time::sleep(Duration::from_secs(8)).await;
    let s = &run.stats;
    println!(
        "arena {}: {} players joined; {} games finished with a result, {} aborted; \
         immediate rematches: {}",
        run.id,
        s.joined.load(Ordering::Relaxed),
        s.finished.load(Ordering::Relaxed),
        s.aborted.load(Ordering::Relaxed),
        s.rematches.load(Ordering::Relaxed)
    );
    println!("{}", percentiles("game end -> next gameStart", &s.wait_us));
    // The finished games exported, then the standings: a game that ended last reaches the
    // standings at the director's next round (every 2 s), so they are read again until they
    // agree, for up to half a minute.
    let mut tries = 0;
    let (exported, counted, lines) = loop {
        let exported = exported_games(addr, &run.id).await;
        let (counted, lines) = sheets(addr, &run.id).await;
        tries += 1;
        if counted == 2 * exported.len() as u64 || tries >= 15 {
            break (exported, counted, lines);
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
    };
    let seen = s
        .finished_ids
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    let missing = seen.iter().filter(|id| !exported.contains(*id)).count();
    let same = counted == 2 * exported.len() as u64 && missing == 0;
    println!(
        "standings: {lines} players, {} games on their sheets; {} finished games exported; \
         of the {} the players saw finish, {missing} missing: {}",
        counted / 2,
        exported.len(),
        seen.len(),
        if same {
            "every game counted once"
        } else {
            "DIFFERENT"
        }
    );
    same
}

/// The arena's finished games with a result, as the server exports them (PGN): their ids.
async fn exported_games(addr: SocketAddr, id: &str) -> std::collections::HashSet<String> {
    let request = format!(
        "GET /api/tournament/{id}/games HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    );
    let pgn = exchange(addr, &request).await.unwrap_or_default();
    let mut exported = std::collections::HashSet::new();
    let mut site = None;
    for line in pgn.lines() {
        if let Some(rest) = line.strip_prefix("[Site \"") {
            site = rest
                .trim_end_matches("\"]")
                .rsplit('/')
                .next()
                .map(str::to_owned);
        } else if let Some(result) = line.strip_prefix("[Result \"") {
            if ["1-0\"]", "0-1\"]", "1/2-1/2\"]"].contains(&result) {
                if let Some(game) = site.take() {
                    exported.insert(game);
                }
            }
        }
    }
    exported
}

/// The standings' sheets: the games on them (two a game; each digit a game's points, 0 to
/// 5) and the players.
async fn sheets(addr: SocketAddr, id: &str) -> (u64, u64) {
    let request = format!(
        "GET /api/tournament/{id}/results?sheet=true HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    );
    let raw = exchange(addr, &request).await.unwrap_or_default();
    let body = raw.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    let (mut counted, mut lines) = (0u64, 0u64);
    for line in body.lines() {
        if let Ok(v) = serde_json::from_str::<Value>(line.trim()) {
            lines += 1;
            counted += v["sheet"]["scores"].as_str().map_or(0, |sc| {
                sc.chars().filter(char::is_ascii_digit).count() as u64
            });
        }
    }
    (counted, lines)
}
