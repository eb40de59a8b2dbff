//! Accepting connections: HTTP/1 with timeouts, a cap on connections per client address, and
//! a graceful shutdown that does not wait for clients that say nothing. A connection that
//! sends no request, drips its headers, or promises a body and stops is dropped after a few
//! seconds instead of holding an open file for ever.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
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
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
        }
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, usize>> {
        // Counts stay consistent whatever panicked while holding the lock.
        self.open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A place for a connection from `address`, if it holds fewer than the cap.
    pub(crate) fn admit(&self, address: IpAddr) -> Option<Admitted> {
        let mut open = self.map();
        let n = open.entry(address).or_insert(0);
        if *n >= self.per_address {
            return None;
        }
        *n += 1;
        Some(Admitted {
            limits: self.clone(),
            address,
        })
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut open = self.limits.map();
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
        let Some(place) = limits.admit(peer.ip()) else {
            tracing::debug!(%peer, "connection refused: too many from this address");
            continue;
        };
        let _ = stream.set_nodelay(true);
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
        assert!(limits.admit(a).is_none());
        assert!(limits.admit(b).is_some(), "another address is not affected");
        drop(first);
        let third = limits.admit(a).unwrap();
        drop((second, third));
        assert!(limits.map().is_empty());
    }
}
