//! Lag compensation end to end (docs/RULES.md R6): White plays 1+0 through a proxy that holds
//! every byte 75 ms each way (a 150 ms round trip), Black directly. With its thinking time
//! reported, White's clock is exactly its base less its own thinking; reporting nothing, the
//! server's pings measure the round trip; a client that claims it never thinks gains no more
//! than the quota. The figures are printed (`-- --nocapture`).

mod common;

use std::time::{Duration, Instant};

use common::ws::Ws;
use common::{new_game, start_with, temp_url};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

const ONE_WAY: Duration = Duration::from_millis(75);

/// A TCP proxy to `port` that delivers every chunk `ONE_WAY` after it arrived, in order.
async fn delaying_proxy(port: u16) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let here = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let server = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
            let (cr, cw) = client.into_split();
            let (sr, sw) = server.into_split();
            tokio::spawn(pump(cr, sw));
            tokio::spawn(pump(sr, cw));
        }
    });
    here
}

async fn pump(mut from: tokio::net::tcp::OwnedReadHalf, mut to: tokio::net::tcp::OwnedWriteHalf) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(Instant, Vec<u8>)>();
    tokio::spawn(async move {
        while let Some((due, bytes)) = rx.recv().await {
            tokio::time::sleep_until(due.into()).await;
            if to.write_all(&bytes).await.is_err() {
                break;
            }
        }
    });
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        match from.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                if tx
                    .send((Instant::now() + ONE_WAY, buf[..n].to_vec()))
                    .is_err()
                {
                    break;
                }
            }
        }
    }
}

async fn connect_at(port: u16, id: &str, cookie: &str) -> Ws {
    let mut req = format!("ws://127.0.0.1:{port}/game/{id}/socket")
        .into_client_request()
        .unwrap();
    req.headers_mut().insert("Cookie", cookie.parse().unwrap());
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

/// How a player reports its thinking.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Report {
    Honest,
    Nothing,
    Lies,
}

/// What one player saw: its thinking per timed move, and its clock after each of its moves.
struct Played {
    thinks: Vec<u64>,
    clocks: Vec<i64>,
}

/// Plays `moves` moves as `me` ("white"/"black"), thinking `think` each, choosing among the
/// legal moves the server sends with a small fixed generator (no promotions).
async fn player(ws: Ws, me: &'static str, moves: usize, think: Duration, report: Report) -> Played {
    // One task reads all the time, as a browser does: pings are answered at once, not when
    // the player next looks.
    let (sink, mut stream) = ws.split();
    let sink = std::sync::Arc::new(tokio::sync::Mutex::new(sink));
    let (tx, mut frames) = tokio::sync::mpsc::unbounded_channel::<serde_json::Value>();
    let flusher = sink.clone();
    let reader = tokio::spawn(async move {
        while let Some(Ok(msg)) = stream.next().await {
            match msg {
                // The library queues the pong; a browser sends it at once, so flush now.
                Message::Ping(_) => {
                    let _ = flusher.lock().await.flush().await;
                }
                Message::Text(t) => {
                    let f: serde_json::Value = serde_json::from_str(t.as_str()).unwrap();
                    if f["t"] != "presence" && f["t"] != "watchers" && tx.send(f).is_err() {
                        break;
                    }
                }
                _ => {}
            }
        }
    });
    // The server's pings measure the round trip every 3 s: let it take one first.
    tokio::time::sleep(Duration::from_millis(3300)).await;
    let mut seed: u64 = if me == "white" { 7 } else { 11 };
    let mut played = Played {
        thinks: Vec::new(),
        clocks: Vec::new(),
    };
    let mut made = 0;
    loop {
        let Ok(Some(f)) = tokio::time::timeout(Duration::from_secs(10), frames.recv()).await else {
            panic!("{me}: no frame in time");
        };
        let d = &f["d"];
        match f["t"].as_str() {
            Some("end") => break,
            Some("move") if d["by"] == me => {
                played.clocks.push(d["clocks"][me].as_i64().unwrap_or(0));
                if made >= moves {
                    break;
                }
                continue;
            }
            Some("state" | "move") => {}
            _ => continue,
        }
        let Some(dests) = d["dests"].as_object() else {
            continue;
        };
        let arrived = Instant::now();
        let mut choices: Vec<String> = Vec::new();
        for (from, tos) in dests {
            for to in tos.as_array().unwrap() {
                let to = to.as_str().unwrap();
                let last_rank = to.ends_with('8') || to.ends_with('1');
                let pawn_rank = from.ends_with('7') || from.ends_with('2');
                if !(last_rank && pawn_rank) {
                    choices.push(format!("{from}{to}"));
                }
            }
        }
        choices.sort();
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let uci = &choices[(seed >> 33) as usize % choices.len()];
        tokio::time::sleep(think).await;
        let thought = arrived.elapsed().as_millis() as u64;
        let think_field = match report {
            Report::Honest => format!(r#","think":{thought}"#),
            Report::Nothing => String::new(),
            Report::Lies => r#","think":0"#.to_owned(),
        };
        let text = format!(r#"{{"t":"move","d":{{"u":"{uci}"{think_field}}}}}"#);
        sink.lock()
            .await
            .send(Message::Text(text.into()))
            .await
            .unwrap();
        if made > 0 {
            played.thinks.push(thought);
        }
        made += 1;
    }
    let _ = sink.lock().await.close().await;
    reader.abort();
    played
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_150_ms_client_keeps_its_time_at_1_0() {
    let (dir, url) = temp_url("lag-proxy");
    let s = start_with(&url, &["--rate-limits", "off"]);
    let proxy = delaying_proxy(s.port).await;
    let moves = 16;
    let think = Duration::from_millis(250);
    let (gain, start_quota) = (390_i64, 1170_i64); // 1+0 (R6, lichess's figures)
    eprintln!(
        "1+0, White through a 150 ms round trip, {moves} moves a side, 250 ms a move (the liar 1 s):"
    );
    for report in [Report::Honest, Report::Nothing, Report::Lies] {
        let (id, white, black) = new_game(&s, r#"{"time_control":"1+0","color":"white"}"#);
        let w = connect_at(proxy, &id, &white).await;
        let b = connect_at(s.port, &id, &black).await;
        let (w, _) = tokio::join!(
            // The liar thinks a second a move, more than the quota's gain.
            player(
                w,
                "white",
                moves,
                if report == Report::Lies {
                    Duration::from_secs(1)
                } else {
                    think
                },
                report
            ),
            player(b, "black", moves, Duration::from_millis(30), Report::Honest)
        );
        let timed = w.thinks.len() as i64;
        assert!(timed >= 10, "{report:?}: only {timed} timed moves");
        let thought: i64 = w.thinks.iter().map(|&t| t as i64).sum();
        let left = *w.clocks.last().unwrap();
        let honest = 60_000 - thought;
        // Without compensation each timed move would cost its thinking plus the round trip.
        let uncompensated = honest - 150 * timed;
        eprintln!(
            "  {report:?}: clock {left} ms; own thinking would leave {honest}; \
             uncompensated ~{uncompensated}; gained {} ms over its own thinking",
            left - honest
        );
        match report {
            // Every move's lag (the round trip) is within the quota: exactly its thinking.
            Report::Honest => assert_eq!(left, honest),
            // The pings' round trip stands in for the report: close to it either way.
            Report::Nothing => assert!((left - honest).abs() <= 60 * timed, "{left} vs {honest}"),
            // It claims its whole watch as lag: credited at most the quota in all.
            Report::Lies => {
                assert!(left > honest, "a liar is credited its thinking too");
                let credited = left - uncompensated;
                assert!(
                    credited <= start_quota + (timed - 1) * gain,
                    "no more than the quota: {credited}"
                );
                eprintln!(
                    "    credited {credited} ms in {timed} moves: the quota allows at most \
                     {} (3 x {gain} + {} x {gain})",
                    start_quota + (timed - 1) * gain,
                    timed - 1
                );
            }
        }
    }
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
