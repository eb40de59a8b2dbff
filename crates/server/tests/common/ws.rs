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

/// Opens `/api/stream/event` with `token` on a raw socket and reads the answer's status: the
/// status and the socket (the stream's lines follow on it).
pub async fn event_stream(port: u16, token: &str) -> (u16, tokio::net::TcpStream) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let request = format!(
        "GET /api/stream/event HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {token}\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = [0u8; 12];
    tokio::time::timeout(Duration::from_secs(10), stream.read_exact(&mut head))
        .await
        .unwrap()
        .unwrap();
    let status = String::from_utf8_lossy(&head[9..12]).parse().unwrap();
    (status, stream)
}

/// An analysis-board socket (`/analysis/socket`) from loopback address `from`, with a
/// receive buffer of `receive_buffer` bytes if given (a client that will not read).
pub async fn board_socket(
    port: u16,
    from: [u8; 4],
    receive_buffer: Option<u32>,
) -> tokio_tungstenite::WebSocketStream<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    if let Some(size) = receive_buffer {
        socket.set_recv_buffer_size(size).unwrap();
    }
    socket.bind((from, 0).into()).unwrap();
    let stream = socket.connect(([127, 0, 0, 1], port).into()).await.unwrap();
    tokio_tungstenite::client_async(format!("ws://127.0.0.1:{port}/analysis/socket"), stream)
        .await
        .unwrap()
        .0
}
