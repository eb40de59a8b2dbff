//! The players and spectators: each game's seats play random legal moves at the set rate.

use super::*;

/// `--logins-per-second`: signs up one account, then logs in to it at the asked rate until
/// told to stop, each log-in on its own task (they overlap when the server is slow).
pub(crate) async fn logins(ctx: Ctx) {
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
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }

    /// A number in [0, 1).
    pub(crate) fn fraction(&mut self) -> f64 {
        const STEPS: usize = 1 << 24;
        self.below(STEPS) as f64 / STEPS as f64
    }
}

/// When each ply of a game was sent, for the opponent-side latency.
pub(crate) type Sent = Arc<Mutex<HashMap<u64, Instant>>>;

/// What every task shares: the arguments, the figures, and the stop flag.
#[derive(Debug, Clone)]
pub(crate) struct Ctx {
    pub(crate) args: Arc<Args>,
    pub(crate) stats: Arc<Stats>,
    pub(crate) stop: Arc<AtomicBool>,
}

/// A game's acknowledged moves by ply.
pub(crate) type Acked = Arc<Mutex<Vec<(u64, String)>>>;

/// A player's place in one game: its cookie and color, and the game's shared records.
pub(crate) struct Seat {
    pub(crate) id: String,
    pub(crate) cookie: String,
    pub(crate) me: &'static str,
    pub(crate) sent: Sent,
    pub(crate) acked: Acked,
    pub(crate) seed: u64,
    /// The game slot (for its last ack) and the node this player connects to first.
    pub(crate) slot: u64,
    pub(crate) node: usize,
    pub(crate) gap: Gap,
    /// Resign on one's turn from this ply on (an arena's players end games at different
    /// lengths), and go berserk before the first move.
    pub(crate) resign_at: Option<u64>,
    pub(crate) berserk: bool,
    /// The game's result as the `end` frame said it.
    pub(crate) result: Arc<Mutex<Option<String>>>,
}

/// A game's interruption: since when its moves have not been acknowledged (its last ack
/// before a player lost the connection), if they are not.
pub(crate) type Gap = Arc<Mutex<Option<Instant>>>;

/// How one connection of a player ended.
pub(crate) enum Ended {
    /// The game is over, or the run.
    Done,
    /// The connection failed (closed, a move refused for a passing reason, an ack late).
    Lost,
}

/// How long an acknowledgement may take before the connection counts as lost.
pub(crate) const ACK_LATE: Duration = Duration::from_secs(6);

/// One player: moves on its turn after the game's pace, until the game ends or `stop`;
/// with `--reconnect`, a lost connection is made again to the next node.
pub(crate) async fn player(ctx: Ctx, seat: Seat) {
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
pub(crate) async fn play(
    ctx: &Ctx,
    seat: &Seat,
    node: usize,
    rng: &mut Rng,
    last_ack: &mut Instant,
) -> Ended {
    let Seat {
        id,
        cookie,
        me,
        sent,
        acked,
        slot,
        gap,
        resign_at,
        berserk,
        result,
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
    let mut resigned = false;
    if *berserk {
        next_id += 1;
        let frame = json!({"t": "berserk", "d": {"a": next_id}});
        let _ = socket.send(Message::Text(frame.to_string().into())).await;
    }
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
                    *result
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner) =
                        d["over"]["result"].as_str().map(str::to_owned);
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
                *result
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) =
                    d["result"].as_str().map(str::to_owned);
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
        // A thinking time drawn around the pace, never the pace itself: with one fixed pace
        // the moves of a batch committed together were all answered a pace later, together
        // again, and the games fell into step (waves of twice the mean rate every pace).
        tokio::time::sleep(pace.mul_f64(0.5 + rng.fraction())).await;
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if resign_at.is_some_and(|r| ply >= r) {
            if !resigned {
                resigned = true;
                next_id += 1;
                let frame = json!({"t": "resign", "d": {"a": next_id}});
                let _ = socket.send(Message::Text(frame.to_string().into())).await;
            }
            continue;
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
pub(crate) async fn spectator(ctx: Ctx, id: String, mut node: usize) {
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
pub(crate) async fn slot(ctx: Ctx, index: u64) {
    let Ctx { args, stats, stop } = ctx.clone();
    let mut round = 0u64;
    while !stop.load(Ordering::Relaxed) {
        let node = if args.one_owner {
            0
        } else {
            (index + round) as usize
        };
        // Each player and spectator on a node of its own, as far as there are nodes; or,
        // in a game kept together, all on the node that made it.
        let together = args.together_every > 0 && index % args.together_every == 0;
        let apart = usize::from(!together);
        // Where White, Black and the spectators are, from the node that makes the game.
        let (white_at, black_at, watch_at) = if args.away {
            let black = 1 + usize::from(args.server.len() > 2);
            (1, black, 1)
        } else {
            (0, apart, 2 * apart)
        };
        let (id, white, black) = match new_game(&args, node, node + black_at).await {
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
            resign_at: None,
            berserk: false,
            result: Arc::default(),
        };
        let mut tasks = vec![
            tokio::spawn(player(
                ctx.clone(),
                seat(white, "white", seed, node + white_at),
            )),
            tokio::spawn(player(
                ctx.clone(),
                seat(black, "black", seed ^ 0xabcd, node + black_at),
            )),
        ];
        for k in 0..args.spectators {
            tasks.push(tokio::spawn(spectator(
                ctx.clone(),
                id.clone(),
                node + watch_at + k * apart,
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
