//! The HTTP side: application state, the router, and serving with graceful shutdown.

pub(crate) mod account;
mod analysis;
mod board;
mod boards;
mod body;
mod charts;
mod chat;
pub(crate) mod error;
mod games;
mod guard;
pub(crate) mod identity;
mod lichess;
mod lichess_play;
mod lichess_stream;
pub(crate) mod limits;
mod pages;
mod pgn;
mod pools;
mod serve;
mod sheet;
mod socket;
mod tv;

/// The request bodies the fuzz targets read (`crate::fuzzing`).
pub(crate) mod fuzz_bodies {
    pub(crate) use super::account::{Credentials, PrefsPatch};
    pub(crate) use super::body::{CreateGame, MoveRequest};
}

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::{Json, Router};
use tokio::net::TcpListener;

use crate::cli::{self, Config};
use crate::rooms::Rooms;
use crate::store::Store;
use crate::store::writer::EventWriter;

/// What every handler may use: cheap-to-clone handles only.
#[derive(Debug, Clone)]
pub(crate) struct AppState {
    /// The database.
    pub(crate) store: Store,
    /// The live game rooms.
    pub(crate) rooms: Rooms,
    /// Becomes true when the server shuts down: sockets then close with a reason.
    pub(crate) shutdown: tokio::sync::watch::Receiver<bool>,
    /// Becomes true at SIGTERM, `--drain-seconds` before the shutdown: not ready.
    pub(crate) draining: tokio::sync::watch::Receiver<bool>,
    /// Held by every open socket; once all are dropped, every close frame has been sent.
    pub(crate) socket_open: tokio::sync::mpsc::Sender<()>,
    /// `--public-url`, without a trailing slash.
    pub(crate) public_url: Option<std::sync::Arc<str>>,
    /// A socket that sends nothing (not even the answer to a ping) this long is closed.
    pub(crate) socket_idle: std::time::Duration,
    /// Password hashing, off the runtime and one at a time.
    pub(crate) passwords: crate::accounts::password::Passwords,
    /// Rate limits by client address and account.
    pub(crate) limits: limits::RateLimits,
    /// `--trust-proxy`: the client's address is the last of `X-Forwarded-For`.
    pub(crate) trust_proxy: bool,
    /// Accounts with a socket open.
    pub(crate) online: crate::presence::Online,
    /// The quick-pairing pools.
    pub(crate) pools: crate::pools::Desk,
    /// Computer analyses, queued and running.
    pub(crate) analyses: crate::analysis::Analyses,
    /// Challenges waiting for an answer (lichess's challenge API).
    pub(crate) challenges: crate::challenges::Challenges,
}

/// Where people reach this server (`https://chess.example.org`): `--public-url`, else the
/// request's `Host` with `http://`. Links and the PGN `Site` tag are made from it.
#[derive(Debug, Clone)]
pub(crate) struct Origin(pub(crate) String);

impl axum::extract::FromRequestParts<AppState> for Origin {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> Result<Origin, Self::Rejection> {
        if let Some(url) = &state.public_url {
            return Ok(Origin(url.to_string()));
        }
        let host = parts
            .headers
            .get(axum::http::header::HOST)
            .and_then(|h| h.to_str().ok())
            .filter(|h| !h.is_empty())
            .unwrap_or("localhost");
        Ok(Origin(format!("http://{host}")))
    }
}

impl axum::extract::FromRef<AppState> for Store {
    fn from_ref(state: &AppState) -> Store {
        state.store.clone()
    }
}

/// Request bodies are small JSON documents.
const MAX_BODY: usize = 64 * 1024;

pub(crate) fn router(state: AppState, request_timeout: std::time::Duration) -> Router {
    Router::new()
        .route("/api/health", get(health))
        .route("/api/ready", get(ready))
        .route("/api/games", post(games::create).get(games::list))
        .route("/api/games/user/{name}", get(pgn::user_games))
        .route("/api/import", post(pgn::import))
        .route("/api/token/test", post(lichess::token_test))
        .route("/api/token", axum::routing::delete(lichess::revoke_token))
        .route("/api/account", get(lichess::account))
        .route("/api/account/playing", get(lichess::playing))
        .route("/api/user/{name}", get(lichess::user))
        .route("/api/users/status", get(lichess::users_status))
        .route("/api/stream/event", get(lichess_stream::event_stream))
        .route("/api/challenge", get(lichess_play::challenges))
        .route("/api/challenge/ai", post(lichess_play::challenge_ai))
        .route("/api/challenge/{name}", post(lichess_play::challenge))
        .route("/api/challenge/{id}/{what}", post(lichess_play::answer))
        .route(
            "/api/board/game/stream/{id}",
            get(lichess_stream::game_stream),
        )
        .route(
            "/api/bot/game/stream/{id}",
            get(lichess_stream::game_stream),
        )
        .route(
            "/api/board/game/{id}/move/{uci}",
            post(lichess_play::board_move),
        )
        .route(
            "/api/bot/game/{id}/move/{uci}",
            post(lichess_play::bot_move),
        )
        .route(
            "/api/board/game/{id}/chat",
            post(chat::board_post).get(chat::board_list),
        )
        .route(
            "/api/bot/game/{id}/chat",
            post(chat::bot_post).get(chat::bot_list),
        )
        .route("/api/games/{id}/chat", post(chat::post).get(chat::list))
        .route(
            "/api/board/game/{id}/{what}",
            post(lichess_play::board_action),
        )
        .route(
            "/api/board/game/{id}/{what}/{answer}",
            post(lichess_play::board_answer),
        )
        .route("/api/bot/game/{id}/{what}", post(lichess_play::bot_action))
        .route(
            "/api/bot/game/{id}/{what}/{answer}",
            post(lichess_play::bot_answer),
        )
        .route("/api/bot/account/upgrade", post(lichess_play::upgrade))
        .route("/api/board/seek", post(lichess_play::seek))
        .route("/api/bot/online", get(lichess_play::bots_online))
        .route("/api/pools", get(pools::grid))
        .route("/api/pool", post(pools::join))
        .route("/api/pool/{ticket}", get(pools::poll).delete(pools::leave))
        .route("/api/games/{id}", get(games::show))
        .route("/api/games/{id}/join", post(games::join))
        .route("/api/games/{id}/move", post(games::play))
        .route(
            "/api/games/{id}/analysis",
            post(analysis::request).get(analysis::show),
        )
        .route("/api/games/{id}/rematch", post(games::rematch))
        .route(
            "/api/games/{id}/decline-rematch",
            post(games::decline_rematch),
        )
        .route("/api/games/{id}/{action}", post(games::action))
        .route("/game/export/{id}", get(pgn::export))
        .route("/game/{id}/socket", get(socket::upgrade))
        .route("/", get(pages::home))
        .route("/game/{id}", get(pages::game))
        .route("/game/{id}/sheet", get(sheet::sheet))
        .route("/@/{name}", get(pages::player))
        .route("/leaderboard", get(boards::overview))
        .route("/leaderboard/{speed}", get(boards::speed))
        .route("/ladder", get(boards::ladder))
        .route("/analysis", get(board::page))
        .route("/tv", get(tv::page))
        .route("/api/tv", get(tv::pick))
        .route("/analysis/socket", get(board::socket))
        .route("/login", get(account::login_form).post(account::login))
        .route("/signup", get(account::signup_form).post(account::signup))
        .route("/logout", post(account::logout))
        .route("/account", get(account::page))
        .route("/account/preferences", post(account::save_prefs))
        .route("/account/password", post(account::change_password))
        .route(
            "/account/logout-everywhere",
            post(account::logout_everywhere),
        )
        .route("/account/tokens", post(account::create_token))
        .route("/account/{kind}/{id}/revoke", post(account::revoke))
        .route("/account/close", post(account::close))
        .route(
            "/reset/{token}",
            get(account::reset_form).post(account::reset),
        )
        .route("/admin", get(account::admin_page))
        .route("/admin/users/{id}/{action}", post(account::admin_action))
        .route("/admin/chat/{id}/delete", post(account::admin_delete_chat))
        .route("/static/{file}", get(pages::static_file))
        .route("/{id}", get(pages::short_link))
        .route("/{id}/{side}", get(pages::short_link_side))
        .fallback(pages::fallback)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            limits::limit,
        ))
        .layer(axum::middleware::from_fn(error::json_errors))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::guard,
        ))
        .layer(axum::middleware::from_fn_with_state(
            request_timeout,
            serve::request_timeout,
        ))
        .with_state(state)
}

/// `GET /api/health`: the server answers, and its database takes a write (a database that
/// answers reads but cannot store a move is not healthy).
#[derive(Debug, serde::Serialize)]
struct Health {
    ok: bool,
}

async fn health(
    axum::extract::State(state): axum::extract::State<AppState>,
) -> (axum::http::StatusCode, Json<Health>) {
    match state.store.check_write().await {
        Ok(()) => (axum::http::StatusCode::OK, Json(Health { ok: true })),
        Err(e) => {
            tracing::error!(error = %e, "health check: the database cannot be written");
            (
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                Json(Health { ok: false }),
            )
        }
    }
}

/// `GET /api/ready`: whether a load balancer should send new players here: 200 `{"ready":
/// true}` when the database takes a write and the server is not draining; 503 with the
/// `reason` (`draining`, `database`) otherwise. `/api/health` stays 200 while draining: the
/// server still serves everyone it has.
#[derive(Debug, serde::Serialize)]
struct Ready {
    ready: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
}

async fn ready(
    axum::extract::State(state): axum::extract::State<AppState>,
) -> (axum::http::StatusCode, Json<Ready>) {
    let not = |reason| {
        (
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            Json(Ready {
                ready: false,
                reason: Some(reason),
            }),
        )
    };
    if *state.draining.borrow() {
        return not("draining");
    }
    match state.store.check_write().await {
        Ok(()) => (
            axum::http::StatusCode::OK,
            Json(Ready {
                ready: true,
                reason: None,
            }),
        ),
        Err(_) => not("database"),
    }
}

/// Opens the store, applies migrations, and serves until Ctrl-C or SIGTERM.
pub(crate) async fn serve(config: Config) -> Result<(), String> {
    // Each WebSocket is an open file: allow as many as the system lets this process have
    // (the usual default of 1,024 would cap the server near a thousand connections).
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => tracing::info!(limit, "open files allowed"),
        Err(e) => tracing::warn!(error = %e, "cannot raise the open-file limit"),
    }
    let ladder_speeds = config.ladder_speeds()?;
    let store = Store::open(&config.database_url)
        .await
        .map_err(|e| e.to_string())?
        .with_ladder_speeds(&ladder_speeds);
    tracing::info!(backend = ?store.backend(), "database open, migrations applied");
    if let Some(engine) = &config.uci_engine {
        tracing::info!(engine = %engine.display(), "bots use an external UCI engine");
    }
    let bots = crate::bot::Bots::new(config.uci_engine.clone());
    let permits = bots.permits();
    let mut rooms = Rooms::new(store.clone(), EventWriter::start(store.clone()), bots);
    if let Some(url) = &config.cluster {
        if store.backend() != crate::store::Backend::Postgres {
            return Err(
                "cluster mode (--cluster) needs PostgreSQL: an SQLite file belongs to \
                 one process. Give every node the same --database-url postgres://..."
                    .to_owned(),
            );
        }
        let node = config
            .node_id
            .clone()
            .unwrap_or_else(|| format!("node-{}", crate::ids::game_id()));
        let cluster = crate::cluster::Cluster::join(url, node, store.clone()).await?;
        rooms = rooms.with_cluster(cluster);
    }
    let recovered = rooms.recover().await.map_err(|e| e.to_string())?;
    tracing::info!(games = recovered, "live games loaded back into rooms");
    let (stopping, shutdown) = tokio::sync::watch::channel(false);
    let (drain, draining) = tokio::sync::watch::channel(false);
    let (socket_open, mut sockets_closed) = tokio::sync::mpsc::channel::<()>(1);
    let seconds = |s: f64, what: &str| {
        std::time::Duration::try_from_secs_f64(s).map_err(|_| format!("{what}: {s} seconds?"))
    };
    let drain_for = seconds(config.drain_seconds, "--drain-seconds")?;
    let mut limits = serve::Limits::new(config.max_connections_per_address);
    limits.header_timeout = seconds(config.header_timeout, "--header-timeout")?;
    limits.request_timeout = seconds(config.request_timeout, "--request-timeout")?;
    let pools = match rooms.cluster() {
        Some(cluster) => {
            cluster.start_pairing(rooms.clone());
            crate::pools::Desk::Cluster(cluster.clone())
        }
        None => crate::pools::Desk::Local(crate::pools::Pools::start(rooms.clone())),
    };
    let analyses = crate::analysis::Analyses::start(
        store.clone(),
        rooms.clone(),
        permits,
        config.analysis_nodes.max(1),
        config.uci_engine.clone(),
        // The jobs a node claims are claimed under its name (one lone node: "local").
        rooms
            .cluster()
            .map_or_else(|| "local".to_owned(), |c| c.node().to_owned()),
    )
    .await
    .map_err(|e| e.to_string())?;
    let state = AppState {
        challenges: crate::challenges::Challenges::new(store.clone()),
        store,
        rooms,
        pools,
        analyses,
        shutdown,
        draining,
        socket_open,
        socket_idle: seconds(config.socket_idle_timeout, "--socket-idle-timeout")?,
        public_url: config
            .public_url
            .as_deref()
            .map(|u| std::sync::Arc::from(u.trim_end_matches('/'))),
        passwords: crate::accounts::password::Passwords::default(),
        limits: limits::RateLimits::new(config.rate_limits == cli::Switch::On),
        trust_proxy: config.trust_proxy,
        online: crate::presence::Online::default(),
    };
    if let Some(cluster) = state.rooms.cluster() {
        cluster.gossip(state.rooms.lobby().clone(), state.online.clone());
        cluster.relay_events(state.rooms.events().clone());
    }
    // Buckets that are full again and old failures are forgotten now and then.
    let forget = state.limits.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
        loop {
            every.tick().await;
            forget.forget_old();
        }
    });
    let handing_over = state.rooms.clone();
    let app = router(state, limits.request_timeout);
    if let Some(address) = config.metrics_listen {
        serve_metrics(address).await?;
    }
    let listener = TcpListener::bind(config.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    tracing::info!(%address, database = %config.database_url, "rookery listening");
    serve::serve(listener, app, limits, async move {
        shutdown_signal().await;
        if !drain_for.is_zero() {
            // Not ready: the load balancer sends new players elsewhere; everyone here is
            // still served until the drain is over.
            tracing::info!(
                seconds = drain_for.as_secs_f64(),
                "draining before the shutdown"
            );
            let _ = drain.send(true);
        }
        if let Some(cluster) = handing_over.cluster() {
            // Other nodes take this node's games at once; its sockets on them reconnect.
            cluster
                .hand_over(&handing_over, std::time::Duration::from_secs(5))
                .await;
        }
        tokio::time::sleep(drain_for).await;
        // Stop accepting (the loop does), and tell every socket to close.
        let _ = stopping.send(true);
    })
    .await;
    // Upgraded sockets outlive the HTTP server: wait until each has sent its close frame
    // (every sender is dropped), or give up after a few seconds.
    if tokio::time::timeout(SOCKET_CLOSE_WAIT, sockets_closed.recv())
        .await
        .is_err()
    {
        tracing::warn!("some sockets did not close in time");
    }
    Ok(())
}

/// Serves `/metrics` alone on `address` (`--metrics-listen`), never on the site's listener:
/// what the server counts is for its operator, not for every visitor.
async fn serve_metrics(address: std::net::SocketAddr) -> Result<(), String> {
    let listener = TcpListener::bind(address)
        .await
        .map_err(|e| format!("cannot listen on {address} for metrics: {e}"))?;
    tracing::info!(%address, "metrics listening");
    let app = Router::new().route("/metrics", get(crate::metrics::render));
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::error!(error = %e, "the metrics listener stopped");
        }
    });
    Ok(())
}

/// How long shutdown waits for open sockets to say goodbye.
const SOCKET_CLOSE_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}
