//! The HTTP side: application state, the router, and serving with graceful shutdown.

pub(crate) mod account;
mod analysis;
mod arena;
mod arena_pages;
mod board;
mod boards;
mod body;
mod charts;
mod chat;
mod club_pages;
mod clubs;
pub(crate) mod error;
mod events;
mod exercises;
mod follows;
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
mod swiss;
mod tournaments;
mod tv;

/// The request bodies the fuzz targets read (`crate::fuzzing`).
pub(crate) mod fuzz_bodies {
    pub(crate) use super::account::{Credentials, PrefsPatch};
    pub(crate) use super::body::{CreateGame, MoveRequest};
}

use axum::extract::DefaultBodyLimit;
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
    /// What the analysis board may use of the machine.
    pub(crate) board: board::BoardBudget,
    /// The NDJSON streams each account holds open.
    pub(crate) streams: limits::Places,
    /// Challenges waiting for an answer (lichess's challenge API).
    pub(crate) challenges: crate::challenges::Challenges,
    /// `--guest-games-per-address`.
    pub(crate) guest_games: u32,
}

impl AppState {
    /// Tells every node that `user`'s credentials in `what` are revoked: the sockets and
    /// streams opened with them close.
    pub(crate) fn revoke(&self, user: &str, what: crate::events::Revoked) {
        self.rooms
            .events()
            .send(user, crate::events::UserEvent::Revoked(what));
    }

    /// Whether the site is served over https (`--public-url https://...`): cookies then
    /// carry `Secure`.
    pub(crate) fn secure(&self) -> bool {
        self.public_url
            .as_deref()
            .is_some_and(|u| u.starts_with("https://"))
    }
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

/// Every route with its door (its rate limit, `limits.rs`): the only place routes are
/// declared.
pub(crate) fn routes(state: AppState) -> (Router<AppState>, Vec<limits::Declared>) {
    use limits::Door::{Account, Action, Challenge, CreateGame, Import, Move, Read, Stream};
    limits::Routes::new(state)
        .get("/api/health", Read, health)
        .get("/api/ready", Read, ready)
        .post("/api/games", CreateGame, games::create)
        .get("/api/games", Read, games::list)
        .get("/api/games/user/{name}", Read, pgn::user_games)
        .post("/api/import", Import, pgn::import)
        .post("/api/events", CreateGame, tournaments::create)
        .get("/api/events/{id}", Read, tournaments::show)
        .post("/api/events/{id}", Action, tournaments::change)
        .get("/api/events/{id}/trf", Read, tournaments::trf)
        .get("/api/events/{id}/games", Read, tournaments::games)
        .post("/api/clubs", CreateGame, clubs::create)
        .get("/api/team/of/{user}", Read, clubs::of_user)
        .get("/api/team/{id}", Read, clubs::show)
        .get("/api/team/{id}/users", Read, clubs::users)
        .get("/api/team/{id}/swiss", Read, clubs::swiss)
        .get("/api/team/all", Read, clubs::listed)
        .get("/api/team/search", Read, clubs::listed)
        .get("/api/team/{id}/requests", Read, clubs::requests)
        .get("/api/team/{id}/ladder", Read, clubs::ladder)
        .post(
            "/api/team/{id}/request/{user}/{what}",
            Action,
            clubs::answer,
        )
        .post("/api/team/{id}/kick/{user}", Action, clubs::kick)
        .post("/api/team/{id}/leader/{user}", Action, clubs::leader)
        .post("/api/team/{id}/rules", Action, clubs::rules)
        .post("/team/{id}/{what}", Action, clubs::membership)
        .post("/api/swiss/new/{team}", CreateGame, swiss::create)
        .get("/api/swiss/{id}", Read, swiss::show)
        .get("/api/swiss/{id}/games", Read, tournaments::games)
        .get("/api/swiss/{id}/results", Read, swiss::results)
        .post("/api/swiss/{id}/{what}", Action, swiss::change)
        .get("/swiss/{file}", Read, swiss::file)
        .post("/api/tournament", CreateGame, arena::create)
        .get("/api/tournament", Read, arena::list)
        .get("/api/tournament/{id}", Read, arena::show)
        .get("/api/tournament/{id}/results", Read, arena::results)
        .get("/api/tournament/{id}/games", Read, arena::games)
        .post("/api/tournament/{id}/{what}", Action, arena::change)
        .get(
            "/api/user/{name}/tournament/created",
            Read,
            arena::created_by,
        )
        .get("/api/team/{id}/arena", Read, arena::of_club)
        .post("/api/token/test", Account, lichess::token_test)
        .delete("/api/token", Account, lichess::revoke_token)
        .get("/api/account", Read, lichess::account)
        .get("/api/account/playing", Read, lichess::playing)
        .get("/api/user/{name}", Read, lichess::user)
        .get("/api/users/status", Read, lichess::users_status)
        .get("/api/stream/event", Stream, lichess_stream::event_stream)
        .get("/api/challenge", Read, lichess_play::challenges)
        .post("/api/challenge/ai", CreateGame, lichess_play::challenge_ai)
        .post("/api/challenge/{name}", Challenge, lichess_play::challenge)
        .post("/api/challenge/{id}/{what}", Action, lichess_play::answer)
        .get(
            "/api/board/game/stream/{id}",
            Stream,
            lichess_stream::game_stream,
        )
        .get(
            "/api/bot/game/stream/{id}",
            Stream,
            lichess_stream::game_stream,
        )
        .post(
            "/api/board/game/{id}/move/{uci}",
            Move,
            lichess_play::board_move,
        )
        .post(
            "/api/bot/game/{id}/move/{uci}",
            Move,
            lichess_play::bot_move,
        )
        // Chat lines are charged to the chat's own door once understood (`chat.rs`).
        .post("/api/board/game/{id}/chat", Action, chat::board_post)
        .get("/api/board/game/{id}/chat", Read, chat::board_list)
        .post("/api/bot/game/{id}/chat", Action, chat::bot_post)
        .get("/api/bot/game/{id}/chat", Read, chat::bot_list)
        .post("/api/games/{id}/chat", Action, chat::post)
        .get("/api/games/{id}/chat", Read, chat::list)
        .post(
            "/api/board/game/{id}/{what}",
            Action,
            lichess_play::board_action,
        )
        .post(
            "/api/board/game/{id}/{what}/{answer}",
            Action,
            lichess_play::board_answer,
        )
        .post(
            "/api/bot/game/{id}/{what}",
            Action,
            lichess_play::bot_action,
        )
        .post(
            "/api/bot/game/{id}/{what}/{answer}",
            Action,
            lichess_play::bot_answer,
        )
        .post("/api/bot/account/upgrade", Account, lichess_play::upgrade)
        .post("/api/board/seek", CreateGame, lichess_play::seek)
        .get("/api/bot/online", Read, lichess_play::bots_online)
        .get("/api/pools", Read, pools::grid)
        .post("/api/pool", CreateGame, pools::join)
        .get("/api/pool/{ticket}", Read, pools::poll)
        .delete("/api/pool/{ticket}", Action, pools::leave)
        .get("/api/games/{id}", Read, games::show)
        .post("/api/games/{id}/join", Action, games::join)
        .post("/api/games/{id}/move", Move, games::play)
        // An analysis is minutes of a core: as dear as an import.
        .post("/api/games/{id}/analysis", Import, analysis::request)
        .get("/api/games/{id}/analysis", Read, analysis::show)
        .get("/api/games/{id}/exercises", Read, exercises::list)
        // A move tried is one search: as dear as an import.
        .post(
            "/api/games/{id}/exercises/{ply}",
            Import,
            exercises::attempt,
        )
        .post(
            "/api/games/{id}/exercises/{ply}/solution",
            Action,
            exercises::solution,
        )
        .post("/api/games/{id}/rematch", CreateGame, games::rematch)
        .post(
            "/api/games/{id}/decline-rematch",
            Action,
            games::decline_rematch,
        )
        .post("/api/games/{id}/{action}", Action, games::action)
        .get("/game/export/{id}", Read, pgn::export)
        .get("/game/{id}/socket", Stream, socket::upgrade)
        .get("/", Read, pages::home)
        .get("/game/{id}", Read, pages::game)
        .get("/game/{id}/sheet", Read, sheet::sheet)
        .get("/game/{id}/learn", Read, exercises::page)
        .get(
            "/events/{id}/round/{round}/sheets",
            Read,
            sheet::round_sheets,
        )
        .get("/team", Read, club_pages::list)
        .get("/team/{id}", Read, club_pages::page)
        .get("/tournament", Read, arena_pages::list)
        .get("/tournament/{id}", Read, arena_pages::page)
        .get("/api/tournament/{id}/chat", Read, arena_pages::chat_list)
        .post("/api/tournament/{id}/chat", Action, arena_pages::chat_post)
        .get("/events", Read, events::list)
        .get("/events/{id}", Read, events::page)
        .get("/events/{id}/standings", Read, events::print_standings)
        .get(
            "/events/{id}/round/{round}/pairings",
            Read,
            events::print_pairings,
        )
        .get("/@/{name}", Read, pages::player)
        .get("/leaderboard", Read, boards::overview)
        .get("/leaderboard/{speed}", Read, boards::speed)
        .get("/ladder", Read, boards::ladder)
        .get("/analysis", Read, board::page)
        .get("/api/explorer", Read, board::explorer)
        .post("/api/rel/{what}/{name}", Action, follows::change)
        .get("/api/rel/following", Read, follows::following)
        .get("/tv", Read, tv::page)
        .get("/api/tv", Read, tv::pick)
        .get("/analysis/socket", Stream, board::socket)
        // Log-in and sign-up also charge their own doors once the form is understood.
        .get("/login", Read, account::login_form)
        .post("/login", Account, account::login)
        .get("/signup", Read, account::signup_form)
        .post("/signup", Account, account::signup)
        .post("/logout", Account, account::logout)
        .get("/account", Read, account::page)
        .post("/account/preferences", Account, account::save_prefs)
        .post("/account/password", Account, account::change_password)
        .post(
            "/account/logout-everywhere",
            Account,
            account::logout_everywhere,
        )
        .post("/account/tokens", Account, account::create_token)
        .post("/account/{kind}/{id}/revoke", Account, account::revoke)
        .post("/account/close", Account, account::close)
        .get("/reset/{token}", Read, account::reset_form)
        .post("/reset/{token}", Account, account::reset)
        .get("/admin", Read, account::admin_page)
        .post("/admin/users/{id}/{action}", Account, account::admin_action)
        .post(
            "/admin/chat/{id}/delete",
            Account,
            account::admin_delete_chat,
        )
        .get("/static/{file}", Read, pages::static_file)
        // lichess's short links: a challenge's url, a game's.
        .get("/{id}", Read, pages::short_link)
        .get("/{id}/{side}", Read, pages::short_link_side)
        .fallback(pages::fallback)
        .finish()
}

/// The routes with the web layer around them, innermost first: body limit, JSON errors, the
/// cross-site guard and security headers, the request timeout (408), compression (gzip or
/// brotli, as the client accepts; never the NDJSON streams, which must not wait for a
/// compressor's buffer), CORS (any origin may call the API without credentials, as lichess
/// allows), and a request id (`x-request-id`, kept from a proxy or made here) on the answer and
/// in every log line written while the request is served.
pub(crate) fn router(state: AppState, request_timeout: std::time::Duration) -> Router {
    use tower_http::compression::CompressionLayer;
    use tower_http::compression::predicate::{NotForContentType, Predicate as _, SizeAbove};
    let (routes, _) = routes(state.clone());
    let compress = SizeAbove::new(256)
        .and(NotForContentType::GRPC)
        .and(NotForContentType::IMAGES)
        .and(NotForContentType::SSE)
        .and(NotForContentType::const_new("application/x-ndjson"));
    let cors = tower_http::cors::CorsLayer::new()
        .allow_origin(tower_http::cors::Any)
        .allow_methods([
            axum::http::Method::GET,
            axum::http::Method::POST,
            axum::http::Method::DELETE,
        ])
        .allow_headers([
            axum::http::header::AUTHORIZATION,
            axum::http::header::CONTENT_TYPE,
        ])
        .max_age(std::time::Duration::from_secs(3600));
    routes
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(error::json_errors))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::guard,
        ))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            request_timeout,
        ))
        .layer(CompressionLayer::new().compress_when(compress))
        .layer(cors)
        .layer(tower_http::request_id::PropagateRequestIdLayer::x_request_id())
        .layer(tower_http::trace::TraceLayer::new_for_http().make_span_with(request_span))
        .layer(tower_http::request_id::SetRequestIdLayer::x_request_id(
            RequestIds,
        ))
        .with_state(state)
}

/// Request ids: a new one for a request that comes without (`x-request-id` from a proxy is
/// kept).
#[derive(Debug, Clone, Copy)]
struct RequestIds;

impl tower_http::request_id::MakeRequestId for RequestIds {
    fn make_request_id<B>(
        &mut self,
        _: &axum::http::Request<B>,
    ) -> Option<tower_http::request_id::RequestId> {
        axum::http::HeaderValue::from_str(&crate::ids::game_id())
            .ok()
            .map(tower_http::request_id::RequestId::new)
    }
}

/// The span every log line written while serving a request is in: its id, method and path.
fn request_span<B>(request: &axum::http::Request<B>) -> tracing::Span {
    let id = request
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("-");
    tracing::info_span!("request", id, method = %request.method(), path = request.uri().path())
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
    let open_files = match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => {
            tracing::info!(limit, "open files allowed");
            limit
        }
        Err(e) => {
            tracing::warn!(error = %e, "cannot raise the open-file limit");
            1024
        }
    };
    let ladder_speeds = config.ladder_speeds()?;
    let hourly_arenas = config.hourly_arenas();
    for clock in &hourly_arenas {
        crate::arenas::arena_clock(clock)
            .map_err(|e| format!("--hourly-arenas: {clock:?}: {}", e.problem().message))?;
    }
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
    let board = board::BoardBudget::new(&bots);
    let seconds = |s: f64, what: &str| {
        std::time::Duration::try_from_secs_f64(s).map_err(|_| format!("{what}: {s} seconds?"))
    };
    let mut rooms = Rooms::new(
        store.clone(),
        EventWriter::start(store.clone()),
        bots.clone(),
    );
    if config.hibernate_after > 0.0 {
        rooms = rooms.sleeping_after(seconds(config.hibernate_after, "--hibernate-after")?);
    }
    let mut cluster = None;
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
        let node = crate::cluster::Cluster::join(url, &config.nats, node, store.clone()).await?;
        // The cluster plugs itself in where the rooms, the bots and the pools leave room.
        rooms = rooms.placed_by(std::sync::Arc::new(node.clone()));
        bots.think_elsewhere_through(std::sync::Arc::new(node.clone()));
        node.think_for_others(bots);
        cluster = Some(node);
    }
    let recovered = rooms.recover().await.map_err(|e| e.to_string())?;
    tracing::info!(games = recovered, "live games loaded back into rooms");
    let (stopping, shutdown) = tokio::sync::watch::channel(false);
    let (drain, draining) = tokio::sync::watch::channel(false);
    let (socket_open, mut sockets_closed) = tokio::sync::mpsc::channel::<()>(1);
    let drain_for = seconds(config.drain_seconds, "--drain-seconds")?;
    let mut limits = serve::Limits::new(config.max_connections_per_address);
    limits.total = match config.max_connections {
        0 => serve::total_from_file_limit(open_files),
        n => n,
    };
    limits.write_timeout = seconds(config.write_timeout, "--write-timeout")?;
    limits.header_timeout = seconds(config.header_timeout, "--header-timeout")?;
    limits.request_timeout = seconds(config.request_timeout, "--request-timeout")?;
    let pools = match &cluster {
        Some(cluster) => {
            cluster.start_pairing(rooms.clone());
            crate::pools::Desk::Remote(std::sync::Arc::new(cluster.clone()))
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
        cluster
            .as_ref()
            .map_or_else(|| "local".to_owned(), |c| c.node().to_owned()),
    )
    .await
    .map_err(|e| e.to_string())?;
    let state = AppState {
        challenges: crate::challenges::Challenges::new(store.clone()),
        guest_games: config.guest_games_per_address,
        store,
        rooms,
        pools,
        analyses,
        board,
        streams: limits::Places::new(limits::STREAMS_PER_ACCOUNT),
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
    if let Some(cluster) = &cluster {
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
    crate::keeper::keep(
        state.rooms.clone(),
        cluster.as_ref().map(|c| c.node().to_owned()),
        hourly_arenas,
    );
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
        if let Some(cluster) = &cluster {
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
    let app = crate::metrics::router();
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

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt as _;

    use super::*;

    /// The state of a server on a fresh SQLite file, rate limits on.
    async fn state(dir: &std::path::Path) -> AppState {
        let url = format!("sqlite://{}", dir.join("routes.db").display());
        let store = Store::open(&url).await.unwrap();
        let bots = crate::bot::Bots::new(None);
        let permits = bots.permits();
        let board = board::BoardBudget::new(&bots);
        let rooms = Rooms::new(store.clone(), EventWriter::start(store.clone()), bots);
        let analyses = crate::analysis::Analyses::start(
            store.clone(),
            rooms.clone(),
            permits,
            1,
            None,
            "local".to_owned(),
        )
        .await
        .unwrap();
        let (_, shutdown) = tokio::sync::watch::channel(false);
        let (_, draining) = tokio::sync::watch::channel(false);
        let (socket_open, _) = tokio::sync::mpsc::channel(1);
        AppState {
            challenges: crate::challenges::Challenges::new(store.clone()),
            guest_games: crate::new_game::GUEST_GAMES_PER_ADDRESS,
            pools: crate::pools::Desk::Local(crate::pools::Pools::start(rooms.clone())),
            store,
            rooms,
            analyses,
            board,
            streams: limits::Places::new(limits::STREAMS_PER_ACCOUNT),
            shutdown,
            draining,
            socket_open,
            socket_idle: std::time::Duration::from_secs(30),
            public_url: None,
            passwords: crate::accounts::password::Passwords::default(),
            limits: limits::RateLimits::new(true),
            trust_proxy: false,
            online: crate::presence::Online::default(),
        }
    }

    /// STYLE.md 15: walks every declared route, calls it (its parameters filled with a
    /// word), and checks that the answer was counted against the route's door — the layer is
    /// on the route, not only in the list. A route added outside `routes()` has no door, so
    /// `router()` may hold no other.
    #[tokio::test]
    async fn every_route_is_rate_limited_by_its_door() {
        let dir = std::env::temp_dir().join(format!("rookery-routes-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let state = state(&dir).await;
        let (router, declared) = routes(state.clone());
        let router = router.with_state::<()>(state);
        assert!(declared.len() > 70, "{} routes", declared.len());
        let mut seen = std::collections::HashSet::new();
        for route in &declared {
            assert!(
                seen.insert((route.method, route.path)),
                "{} {} declared twice",
                route.method,
                route.path
            );
            let path: String = route
                .path
                .split('/')
                .map(|part| if part.starts_with('{') { "zz" } else { part })
                .collect::<Vec<_>>()
                .join("/");
            let request = Request::builder()
                .method(route.method)
                .uri(&path)
                .body(Body::empty())
                .unwrap();
            let answer = router.clone().oneshot(request).await.unwrap();
            let policy = answer
                .headers()
                .get("ratelimit-policy")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default();
            assert!(
                policy.starts_with(&format!("\"{}\";", route.door.name())),
                "{} {} ({path}) answered {} with policy {policy:?}, not its door {:?}",
                route.method,
                route.path,
                answer.status(),
                route.door
            );
        }
        // A path no route has is limited too.
        let request = Request::builder()
            .uri("/no/such/page/here")
            .body(Body::empty())
            .unwrap();
        let answer = router.oneshot(request).await.unwrap();
        assert!(answer.headers().contains_key("ratelimit-policy"));
        // And nothing adds a route to the router but `routes()`.
        let source = include_str!("mod.rs");
        let direct = [".route(", ".nest(", ".merge(", ".route_service("];
        let outside_tests = source.split("#[cfg(test)]").next().unwrap_or_default();
        for call in direct {
            assert!(
                !outside_tests.contains(call),
                "http/mod.rs adds a route with {call} outside routes(): it would have no door"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
