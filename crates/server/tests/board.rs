//! The analysis board's socket (`/analysis/socket`, docs/ANALYSIS.md): lines judged by the
//! core, the engine's evaluation streamed depth by depth until stopped, bad frames refused.

mod common;

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

use common::{start, temp_url};

async fn next(ws: &mut common::ws::Ws) -> serde_json::Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .expect("a frame in time")
            .expect("open")
            .unwrap();
        if let Message::Text(t) = msg {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

async fn send(ws: &mut common::ws::Ws, text: &str) {
    ws.send(Message::Text(text.into())).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_judges_lines_and_streams_the_engine() {
    let (dir, url) = temp_url("board");
    let s = start(&url);
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{}/analysis/socket", s.port))
            .await
            .unwrap();
    send(
        &mut ws,
        r#"{"t":"line","d":{"moves":["e2e4","e7e5","g1f3"]}}"#,
    )
    .await;
    let f = next(&mut ws).await;
    assert_eq!(f["t"], "line", "{f}");
    assert_eq!(f["d"]["san"], serde_json::json!(["e4", "e5", "Nf3"]));
    assert_eq!(f["d"]["turn"], "black");
    assert!(f["d"]["dests"]["g8"].is_array());
    // The engine: depth after depth, each with an evaluation and a line in SAN, until stopped.
    send(&mut ws, r#"{"t":"go"}"#).await;
    let mut depths = Vec::new();
    while depths.len() < 3 {
        let f = next(&mut ws).await;
        assert_eq!(f["t"], "eval", "{f}");
        assert!(f["d"]["cp"].is_i64() || f["d"]["mate"].is_i64(), "{f}");
        assert!(!f["d"]["pv"].as_array().unwrap().is_empty());
        depths.push(f["d"]["depth"].as_u64().unwrap());
    }
    assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
    send(&mut ws, r#"{"t":"stop"}"#).await;
    loop {
        let f = next(&mut ws).await;
        if f["t"] == "done" {
            break;
        }
        assert_eq!(f["t"], "eval", "{f}");
    }
    // A mate in one is found and said as a mate.
    send(
        &mut ws,
        r#"{"t":"line","d":{"fen":"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1","moves":[]}}"#,
    )
    .await;
    assert_eq!(next(&mut ws).await["t"], "line");
    send(&mut ws, r#"{"t":"go"}"#).await;
    let f = next(&mut ws).await;
    assert_eq!(f["d"]["mate"], 1, "{f}");
    assert_eq!(f["d"]["pv"][0], "Ra8#");
    send(&mut ws, r#"{"t":"stop"}"#).await;
    // Refusals change nothing and say why.
    send(&mut ws, r#"{"t":"line","d":{"moves":["e2e4","e2e4"]}}"#).await;
    let f = loop {
        let f = next(&mut ws).await;
        if f["t"] == "error" {
            break f;
        }
    };
    assert_eq!(f["d"]["code"], "illegal_move", "{f}");
    send(&mut ws, "junk").await;
    assert_eq!(next(&mut ws).await["d"]["code"], "malformed");
    send(&mut ws, r#"{"t":"load","d":{"text":"1. d4 d5 2. c4 *"}}"#).await;
    let f = next(&mut ws).await;
    assert_eq!(f["t"], "loaded");
    assert_eq!(f["d"]["moves"], serde_json::json!(["d2d4", "d7d5", "c2c4"]));
    assert_eq!(next(&mut ws).await["d"]["san"][2], "c4");
    drop(ws);
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}
