//! `--verify` (every acknowledged move still stored) and `--idle` (memory per still game).

use super::*;

/// A game slot with no acknowledged move for this long at the end of the run counts as
/// stalled.
pub(crate) const STALLED: Duration = Duration::from_secs(20);

/// `--verify`: each recorded game's acknowledged moves must be what the server has at their
/// plies (`ply:uci`; a bare `uci` is the next ply).
pub(crate) async fn verify(args: &Args, path: &std::path::Path) -> std::process::ExitCode {
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

/// `--idle`: sets up `n` games that then sit still (two moves each) and reports the server's
/// RSS before and after.
pub(crate) async fn idle(args: &Args, n: usize) -> std::process::ExitCode {
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
    tokio::time::sleep(Duration::from_secs_f64(args.settle.max(0.0))).await;
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
