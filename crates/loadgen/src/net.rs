//! Talking to the server: raw HTTP on loopback, games made over the API, sockets.

use super::*;

/// Sends one request on a new connection and reads the whole answer.
pub(crate) async fn exchange(addr: SocketAddr, request: &str) -> Result<String, String> {
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
pub(crate) async fn form_post(addr: SocketAddr, path: &str, body: &str) -> Result<u16, String> {
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

/// One HTTP/1.1 request with `Connection: close`: status, the first `Set-Cookie` pair and
/// the body.
pub(crate) async fn http(
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
pub(crate) async fn new_game(
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

pub(crate) type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

pub(crate) async fn connect(
    addr: SocketAddr,
    id: &str,
    cookie: Option<&str>,
) -> Result<Socket, String> {
    let mut request = format!("ws://{addr}/game/{id}/socket")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    if let Some(cookie) = cookie {
        let value = cookie.parse().map_err(|_| "bad cookie")?;
        request.headers_mut().insert("Cookie", value);
    }
    // tungstenite's default read buffer is 128 KiB, and it zeroes the free part of it before
    // every read: a third of the load generator's CPU went to that memset, taken from the
    // server it shares the cores with. The server's frames are far smaller.
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(8 * 1024);
    let (socket, _) = tokio_tungstenite::connect_async_with_config(request, Some(config), false)
        .await
        .map_err(|e| format!("websocket: {e}"))?;
    Ok(socket)
}
