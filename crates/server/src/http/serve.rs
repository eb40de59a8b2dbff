//! Accepting connections: HTTP/1 with timeouts, a cap on connections per client address (an
//! IPv6 client by its /64) and one for the whole server below the open-file limit, and a
//! graceful shutdown that does not wait for clients that say nothing. A connection that sends
//! no request, drips its headers, promises a body and stops, or stops reading what it is sent
//! is dropped after a few seconds instead of holding an open file for ever.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpListener;
use tower::ServiceExt as _;

/// How long shutdown waits for requests in flight.
const DRAIN: Duration = Duration::from_secs(5);

/// What a client may hold and how long it may take (`--max-connections-per-address`,
/// `--header-timeout`, `--request-timeout`). Open connections are counted by client address;
/// a std `Mutex` is fine: it guards a map update and is never held across `.await`.
#[derive(Debug, Clone)]
pub(crate) struct Limits {
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
    per_address: usize,
    /// Connections open on the whole server.
    open_total: Arc<AtomicUsize>,
    /// The most the server holds (below the open-file limit, so accepting never fails).
    pub(crate) total: usize,
    /// How long a write may wait for the client to read before the connection is dropped.
    pub(crate) write_timeout: Duration,
    /// How long a client has to send a request's headers: from the connection's start, and
    /// between two requests on a kept-alive connection (so an idle connection closes too).
    pub(crate) header_timeout: Duration,
    /// How long one request may take, its body included (a WebSocket's upgrade answers at
    /// once; the socket then lives on its own).
    pub(crate) request_timeout: Duration,
}

/// A connection's place, shared by its requests and any WebSocket one of them opens.
#[derive(Debug, Clone)]
pub(crate) struct Place(#[allow(dead_code, reason = "held, never read")] Arc<Admitted>);

/// One admitted connection; dropping it gives its place back.
#[derive(Debug)]
pub(crate) struct Admitted {
    limits: Limits,
    address: IpAddr,
}

impl Limits {
    pub(crate) fn new(per_address: usize) -> Limits {
        Limits {
            open: Arc::default(),
            per_address,
            open_total: Arc::default(),
            total: usize::MAX,
            write_timeout: Duration::from_secs(20),
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
        }
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, usize>> {
        // Counts stay consistent whatever panicked while holding the lock.
        crate::locks::lock(&self.open)
    }

    /// A place for a connection from `address`, if the server and the client's address hold
    /// fewer than their caps.
    pub(crate) fn admit(&self, address: IpAddr) -> Result<Admitted, Full> {
        let address = client(address);
        let mut open = self.map();
        if self.open_total.load(Ordering::Relaxed) >= self.total {
            return Err(Full::Server);
        }
        let n = open.entry(address).or_insert(0);
        if *n >= self.per_address {
            return Err(Full::Address);
        }
        *n += 1;
        self.open_total.fetch_add(1, Ordering::Relaxed);
        Ok(Admitted {
            limits: self.clone(),
            address,
        })
    }
}

/// Why a connection was not admitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Full {
    /// The whole server holds all it may: answered 503.
    Server,
    /// The client's address holds its share: dropped.
    Address,
}

/// The client a connection counts for: an IPv4 address, or an IPv6 client's /64 (one
/// household or server gets a /64, and picks addresses in it at will).
pub(crate) fn client(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
        },
    }
}

/// The connections a server may hold by default: the open-file `limit` (raised at start to
/// its hard limit) less an eighth (at least 128 files) for the database, the log and the rest.
pub(crate) fn total_from_file_limit(limit: u64) -> usize {
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let total = limit.saturating_sub((limit / 8).max(128)).max(16);
    tracing::info!(open_files = limit, connections = total, "connection cap");
    total
}

/// What a client is told when the server holds all it may: try again shortly.
fn busy() -> Vec<u8> {
    let body = r#"{"error":"the server is full just now; try again shortly","code":"unavailable"}"#;
    format!(
        "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut open = self.limits.map();
        self.limits.open_total.fetch_sub(1, Ordering::Relaxed);
        if let Some(n) = open.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.address);
            }
        }
    }
}

/// Serves `app` on `listener` until `stop` resolves; then stops accepting, closes idle
/// connections, and gives requests in flight [`DRAIN`] to finish.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    stop: impl std::future::Future<Output = ()>,
) {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    // Connections hear the shutdown on `stopping`; the set holds their tasks, so the ones
    // still going after the drain are ended with it.
    let (stopping, stopped) = tokio::sync::watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            // Finished connections leave the set as they end.
            Some(_) = connections.join_next() => continue,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of files, say: wait a moment rather than spin.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let place = match limits.admit(peer.ip()) {
            Ok(place) => place,
            Err(Full::Address) => {
                tracing::debug!(%peer, "connection refused: too many from this address");
                continue;
            }
            Err(Full::Server) => {
                tracing::warn!(%peer, "connection refused: the server holds all it may");
                let mut stream = stream;
                tokio::spawn(async move {
                    // Said, then the request read and dropped for a moment: closing with it
                    // unread would reset the connection, and the answer with it.
                    let answer = async {
                        stream.write_all(&busy()).await?;
                        stream.shutdown().await?;
                        let mut sink = [0u8; 1024];
                        while stream.read(&mut sink).await? > 0 {}
                        Ok::<(), std::io::Error>(())
                    };
                    let _ = tokio::time::timeout(Duration::from_secs(1), answer).await;
                });
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        // A client that stops reading makes writes wait; after the timeout the connection
        // (a socket or a stream upgraded from it too) fails and closes.
        let mut stream = tokio_io_timeout::TimeoutStream::new(stream);
        stream.set_write_timeout(Some(limits.write_timeout));
        let stream = Box::pin(stream);
        // Each request carries the connection's place, so that a WebSocket it upgrades to
        // keeps holding it (the HTTP connection ends at the upgrade).
        let place = Place(Arc::new(place));
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<_>| {
            request.extensions_mut().insert(place.clone());
            request
                .extensions_mut()
                .insert(super::limits::Peer(peer.ip()));
            app.clone().oneshot(request)
        });
        let connection = http
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        let mut stopped = stopped.clone();
        connections.spawn(async move {
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = async { stopped.wait_for(|stop| *stop).await.is_ok() } => {
                    // Idle connections close now; one with a request in flight after it.
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    let drained = async { while connections.join_next().await.is_some() {} };
    if tokio::time::timeout(DRAIN, drained).await.is_err() {
        tracing::warn!(
            left = connections.len(),
            "connections still open after the drain are closed"
        );
        connections.shutdown().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_its_places_and_gets_them_back() {
        let limits = Limits::new(2);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let first = limits.admit(a).unwrap();
        let second = limits.admit(a).unwrap();
        assert_eq!(limits.admit(a).unwrap_err(), Full::Address);
        assert!(limits.admit(b).is_ok(), "another address is not affected");
        drop(first);
        let third = limits.admit(a).unwrap();
        drop((second, third));
        assert!(limits.map().is_empty());
        assert_eq!(limits.open_total.load(Ordering::Relaxed), 0);
    }

    /// Issue 50: an IPv6 client picks any address of its /64, so the /64 is one client; the
    /// server as a whole stops admitting below its file limit, whoever asks.
    #[test]
    fn an_ipv6_client_counts_by_its_64_and_the_server_holds_at_most_its_total() {
        let mut limits = Limits::new(2);
        let one: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let same: IpAddr = "2001:db8:1:2:ffff:ffff:ffff:ffff".parse().unwrap();
        let other: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        let mapped: IpAddr = "::ffff:10.0.0.9".parse().unwrap();
        let places = [limits.admit(one).unwrap(), limits.admit(same).unwrap()];
        assert_eq!(limits.admit(same).unwrap_err(), Full::Address);
        assert!(
            limits.admit(other).is_ok(),
            "the next /64 is another client"
        );
        assert_eq!(client(mapped), "10.0.0.9".parse::<IpAddr>().unwrap());
        drop(places);
        limits.total = 3;
        let held: Vec<Admitted> = ["10.0.0.1", "10.0.0.2", "10.0.0.3"]
            .iter()
            .map(|a| limits.admit(a.parse().unwrap()).unwrap())
            .collect();
        assert_eq!(
            limits.admit("10.0.0.4".parse().unwrap()).unwrap_err(),
            Full::Server
        );
        drop(held);
        assert!(limits.admit("10.0.0.4".parse().unwrap()).is_ok());
    }
}
