//! WebSocket helpers for the integration tests: connect as a player or a spectator, read
//! frames, send frames.
#![allow(dead_code, unreachable_pub)]

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub async fn connect(port: u16, id: &str, cookie: Option<&str>, v: Option<u64>) -> Ws {
    let query = v.map(|v| format!("?v={v}")).unwrap_or_default();
    let mut req = format!("ws://127.0.0.1:{port}/game/{id}/socket{query}")
        .into_client_request()
        .unwrap();
    if let Some(c) = cookie {
        req.headers_mut().insert("Cookie", c.parse().unwrap());
    }
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

/// The next frame, players and watchers coming and going aside.
pub async fn next(ws: &mut Ws) -> serde_json::Value {
    loop {
        let f = next_any(ws).await;
        if f["t"] != "presence" && f["t"] != "watchers" {
            return f;
        }
    }
}

pub async fn next_any(ws: &mut Ws) -> serde_json::Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .expect("a frame in time")
            .expect("the socket is open")
            .unwrap();
        if let Message::Text(t) = msg {
            if std::env::var_os("ROOKERY_TEST_LOG").is_some() {
                eprintln!("frame: {t}");
            }
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

pub async fn send(ws: &mut Ws, text: &str) {
    ws.send(Message::Text(text.into())).await.unwrap();
}
