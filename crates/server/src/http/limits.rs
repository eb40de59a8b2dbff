//! Rate limits (lichess has them on the same doors): per client address and per account, with
//! GCRA buckets from `governor`; a refusal is 429 with `Retry-After`. Every route is declared
//! through [`Routes`] with its [`Door`], so a route cannot be born unlimited (STYLE.md 15):
//! the door's limit is a layer on the route itself, and every answer names it in a
//! `RateLimit-Policy` header. Sign-up, log-in and chat also charge a door of their own once
//! the request is understood (a mistyped form does not spend a sign-up). Failed log-ins are slowed per account:
//! after a few, each account waits longer and longer before its password is checked again,
//! while every other account logs in as usual. `--rate-limits off` lifts them all (load tests
//! from one address).

use crate::locks::lock;
use crate::refusal::Code;
use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::AppState;
use super::error::ApiError;

/// What a door allows one key: a burst, then one more every `every`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rate {
    pub(crate) burst: u32,
    pub(crate) every: Duration,
}

impl Rate {
    fn quota(self) -> Quota {
        let burst = NonZeroU32::new(self.burst.max(1)).unwrap_or(NonZeroU32::MIN);
        Quota::with_period(self.every)
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MIN))
            .allow_burst(burst)
    }
}

/// The doors with a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Door {
    /// Reading: pages, API reads, static files.
    Read,
    /// Opening a long-lived connection: a socket, an NDJSON stream.
    Stream,
    /// Account forms: log-in, sign-up, settings, tokens, admin.
    Account,
    SignUp,
    LogIn,
    /// Making a game: the lobby's form, a pool, the AI, a seek, a rematch.
    CreateGame,
    /// A lichess challenge to an account.
    Challenge,
    Import,
    /// A move over HTTP (the game API, the Board and Bot APIs).
    Move,
    /// Any other action in a game: join, resign, draw, abort, chat's route, answers.
    Action,
    /// A line of game chat.
    Chat,
}

impl Door {
    const ALL: [Door; 11] = [
        Door::Read,
        Door::Stream,
        Door::Account,
        Door::SignUp,
        Door::LogIn,
        Door::CreateGame,
        Door::Challenge,
        Door::Import,
        Door::Move,
        Door::Action,
        Door::Chat,
    ];

    /// The name in `RateLimit-Policy`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Door::Read => "read",
            Door::Stream => "stream",
            Door::Account => "account",
            Door::SignUp => "signup",
            Door::LogIn => "login",
            Door::CreateGame => "create",
            Door::Challenge => "challenge",
            Door::Import => "import",
            Door::Move => "move",
            Door::Action => "action",
            Door::Chat => "chat",
        }
    }

    /// Whether the account is charged besides the address (doors that act for an account;
    /// reading is charged to the address alone, with no account to look up).
    fn by_account(self) -> bool {
        !matches!(self, Door::Read | Door::Stream | Door::Account)
    }

    /// The allowance of one client address (an account gets the same).
    fn rate(self) -> Rate {
        let (burst, every_ms) = match self {
            // A page pulls a few scripts and reads; a busy reader stays far below 100 a second.
            Door::Read => (600, 10),
            // A page opens a socket or two; a program a stream per game it plays.
            Door::Stream => (60, 500),
            Door::Account => (30, 1_000),
            // lichess: 25 a minute for an account (and 500 in 10 minutes for an address).
            Door::Challenge => (25, 2_400),
            // Answers and resignations come at the pace of games.
            Door::Action => (60, 200),
            // A club's members signing up from one school network: a few, then slowly.
            Door::SignUp => (5, 60_000),
            Door::LogIn => (20, 3_000),
            // Lichess's blitz player starts a game every few minutes; a script every 915 µs.
            Door::CreateGame => (30, 2_000),
            Door::Import => (20, 3_000),
            // Bullet by hand is a few moves a second; many games from one address at once
            // (a school's network) get room from the burst.
            Door::Move => (100, 50),
            // A few lines in a row, then one a second.
            Door::Chat => (5, 1_000),
        };
        Rate {
            burst,
            every: Duration::from_millis(every_ms),
        }
    }
}

/// Failed log-ins one client address has for an account before it is slowed down there.
const FREE_FAILURES: u32 = 5;
/// The longest one address waits between password checks of an account.
const MAX_WAIT: Duration = Duration::from_secs(300);
/// Failed log-ins an account has from all addresses together before every address is slowed
/// (many addresses guessing at once).
const FREE_ACCOUNT_FAILURES: u32 = 100;
/// The longest anyone waits between password checks of an account under such an attack: the
/// owner is never locked out longer than this, whoever guesses.
const MAX_ACCOUNT_WAIT: Duration = Duration::from_secs(30);

#[derive(Debug, Clone, Copy)]
struct Failures {
    count: u32,
    /// No password is checked for the account before then.
    not_before: Instant,
}

/// The server's rate limits (cheap to clone).
#[derive(Debug, Clone)]
pub(crate) struct RateLimits {
    inner: Option<Arc<Inner>>,
}

#[derive(Debug)]
struct Inner {
    by_key: HashMap<Door, DefaultKeyedRateLimiter<String>>,
    failures: Mutex<HashMap<String, Failures>>,
}

/// A refusal: wait this long.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TooMany(pub(crate) Duration);

impl TooMany {
    pub(crate) fn seconds(self) -> u64 {
        self.0.as_secs_f64().ceil().max(1.0) as u64
    }
}

impl IntoResponse for TooMany {
    fn into_response(self) -> Response {
        let seconds = self.seconds();
        let mut response = ApiError::from(self).into_response();
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        response
    }
}

impl From<TooMany> for ApiError {
    fn from(t: TooMany) -> ApiError {
        let seconds = t.seconds();
        let mut error = ApiError::new(
            Code::RateLimited,
            format!("too many requests: try again in {seconds} s"),
        );
        error.problem.n = Some(seconds);
        error
    }
}

impl RateLimits {
    /// Limits on (`true`) or none at all.
    pub(crate) fn new(on: bool) -> RateLimits {
        if !on {
            return RateLimits { inner: None };
        }
        let by_key = Door::ALL
            .into_iter()
            .map(|door| (door, RateLimiter::keyed(door.rate().quota())))
            .collect();
        let inner = Arc::new(Inner {
            by_key,
            failures: Mutex::default(),
        });
        RateLimits { inner: Some(inner) }
    }

    /// Whether limits apply (`--rate-limits on`); the caps per client address follow it,
    /// so that a load test from one address may make thousands of games.
    pub(crate) fn enabled(&self) -> bool {
        self.inner.is_some()
    }

    /// Takes one request at `door` for each key (the client's address, and its account if
    /// any): all or none are charged only as far as each allows.
    pub(crate) fn check(&self, door: Door, keys: &[&str]) -> Result<(), TooMany> {
        let Some(inner) = &self.inner else {
            return Ok(());
        };
        let Some(limiter) = inner.by_key.get(&door) else {
            return Ok(());
        };
        let clock = governor::clock::DefaultClock::default();
        for key in keys {
            if let Err(not_until) = limiter.check_key(&(*key).to_owned()) {
                use governor::clock::Clock as _;
                return Err(TooMany(not_until.wait_time_from(clock.now())));
            }
        }
        Ok(())
    }

    /// Whether account `id` may have a password checked now for a client at `address`;
    /// `Err` says how long to wait. Failures are counted per account *and* address, so a
    /// guesser slows itself, not the owner elsewhere (issue 50: 15 wrong passwords from one
    /// address kept the right one out from every address); and per account from all
    /// addresses together, far more loosely and never past [`MAX_ACCOUNT_WAIT`].
    pub(crate) fn may_try_password(&self, id: &str, address: &str) -> Result<(), TooMany> {
        let Some(inner) = &self.inner else {
            return Ok(());
        };
        let failures = lock(&inner.failures);
        let now = Instant::now();
        let wait = [pair_key(id, address), account_key(id)]
            .iter()
            .filter_map(|k| failures.get(k))
            .filter(|f| f.not_before > now)
            .map(|f| f.not_before - now)
            .max();
        match wait {
            Some(wait) => Err(TooMany(wait)),
            None => Ok(()),
        }
    }

    /// Records a failed log-in of account `id` from `address`: past [`FREE_FAILURES`] from
    /// that address, each one doubles its wait (1 s, 2 s, 4 s, ... up to 5 minutes); past
    /// [`FREE_ACCOUNT_FAILURES`] from all addresses, everyone's (up to 30 s).
    pub(crate) fn failed_password(&self, id: &str, address: &str) {
        let Some(inner) = &self.inner else {
            return;
        };
        let mut failures = lock(&inner.failures);
        let now = Instant::now();
        for (key, free, most) in [
            (pair_key(id, address), FREE_FAILURES, MAX_WAIT),
            (account_key(id), FREE_ACCOUNT_FAILURES, MAX_ACCOUNT_WAIT),
        ] {
            let entry = failures.entry(key).or_insert(Failures {
                count: 0,
                not_before: now,
            });
            entry.count += 1;
            if entry.count > free {
                let doublings = (entry.count - free - 1).min(16);
                entry.not_before = now + Duration::from_secs(1 << doublings).min(most);
            }
        }
    }

    /// A successful log-in clears the failures of its address (those of others stand).
    pub(crate) fn good_password(&self, id: &str, address: &str) {
        if let Some(inner) = &self.inner {
            lock(&inner.failures).remove(&pair_key(id, address));
        }
    }

    /// Forgets keys whose buckets are full again and failures long past (run now and then,
    /// so the maps do not grow without end).
    pub(crate) fn forget_old(&self) {
        let Some(inner) = &self.inner else {
            return;
        };
        for limiter in inner.by_key.values() {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        let now = Instant::now();
        lock(&inner.failures).retain(|_, f| f.not_before + MAX_WAIT * 2 > now);
    }
}

/// The failures of account `id` from one client address.
fn pair_key(id: &str, address: &str) -> String {
    format!("{id} {address}")
}

/// The failures of account `id` from every address together (account ids have no space).
fn account_key(id: &str) -> String {
    id.to_owned()
}

/// The address of the connection (put in each request's extensions by `serve.rs`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Peer(pub(crate) IpAddr);

/// The client's address: the connection's, or behind a trusted reverse proxy
/// (`--trust-proxy`) the last address of `X-Forwarded-For` (the one the proxy added).
#[derive(Debug, Clone)]
pub(crate) struct ClientAddr(pub(crate) String);

impl ClientAddr {
    pub(crate) fn of(parts: &Parts, trust_proxy: bool) -> ClientAddr {
        if trust_proxy
            && let Some(ip) = parts
                .headers
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .filter_map(|a| a.trim().parse::<IpAddr>().ok())
                .next_back()
        {
            return ClientAddr(super::serve::client(ip).to_string());
        }
        // An IPv6 client is its /64, as the connection cap counts it.
        let ip = parts
            .extensions
            .get::<Peer>()
            .map(|p| super::serve::client(p.0));
        ClientAddr(ip.map_or_else(|| "unknown".to_owned(), |ip| ip.to_string()))
    }
}

impl FromRequestParts<AppState> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        Ok(ClientAddr::of(parts, state.trust_proxy))
    }
}

/// The route layer of `door`: charges the client's address (and, for doors that act for an
/// account, the account) and names the door in `RateLimit-Policy`. The caller it looks up
/// stays in the request for the handler.
async fn limit(
    axum::extract::State((state, door)): axum::extract::State<(AppState, Door)>,
    request: Request,
    next: axum::middleware::Next,
) -> Response {
    let (mut parts, body) = request.into_parts();
    let address = ClientAddr::of(&parts, state.trust_proxy);
    let account = if door.by_account() {
        match super::identity::Caller::resolve(&mut parts, &state.store).await {
            Ok(caller) => caller.account.map(|a| format!("@{}", a.user.id)),
            Err(e) => return e.into_response(),
        }
    } else {
        None
    };
    let mut keys = vec![address.0.as_str()];
    if let Some(account) = account.as_deref() {
        keys.push(account);
    }
    let mut response = match state.limits.check(door, &keys) {
        Ok(()) => next.run(Request::from_parts(parts, body)).await,
        Err(wait) => {
            tracing::info!(?door, address = %address.0, "rate limited");
            wait.into_response()
        }
    };
    response.headers_mut().insert(POLICY, policy_of(door));
    response
}

/// The draft standard's header naming the limit an answer was counted against.
const POLICY: header::HeaderName = header::HeaderName::from_static("ratelimit-policy");

/// `"move";q=100;w=5`: the door, its burst and the seconds in which a burst comes back.
fn policy_of(door: Door) -> HeaderValue {
    let rate = door.rate();
    let window = (rate.every.as_secs_f64() * f64::from(rate.burst))
        .ceil()
        .max(1.0);
    HeaderValue::from_str(&format!("\"{}\";q={};w={window}", door.name(), rate.burst))
        .unwrap_or_else(|_| HeaderValue::from_static("\"limited\""))
}

/// A route as declared: its method, path and door.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Declared {
    pub(crate) method: &'static str,
    pub(crate) path: &'static str,
    pub(crate) door: Door,
}

/// The router's routes, each declared with its door: the only way a route is added, so that
/// every route is limited, and a list of them that a test walks.
#[derive(Debug)]
pub(crate) struct Routes {
    state: AppState,
    router: axum::Router<AppState>,
    declared: Vec<Declared>,
}

impl Routes {
    pub(crate) fn new(state: AppState) -> Routes {
        Routes {
            state,
            router: axum::Router::new(),
            declared: Vec::new(),
        }
    }

    fn add(
        mut self,
        method: &'static str,
        path: &'static str,
        door: Door,
        route: axum::routing::MethodRouter<AppState>,
    ) -> Routes {
        let layer = axum::middleware::from_fn_with_state((self.state.clone(), door), limit);
        self.router = self.router.route(path, route.layer(layer));
        self.declared.push(Declared { method, path, door });
        self
    }

    pub(crate) fn get<H, T>(self, path: &'static str, door: Door, handler: H) -> Routes
    where
        H: axum::handler::Handler<T, AppState>,
        T: 'static,
    {
        self.add("GET", path, door, axum::routing::get(handler))
    }

    pub(crate) fn post<H, T>(self, path: &'static str, door: Door, handler: H) -> Routes
    where
        H: axum::handler::Handler<T, AppState>,
        T: 'static,
    {
        self.add("POST", path, door, axum::routing::post(handler))
    }

    pub(crate) fn delete<H, T>(self, path: &'static str, door: Door, handler: H) -> Routes
    where
        H: axum::handler::Handler<T, AppState>,
        T: 'static,
    {
        self.add("DELETE", path, door, axum::routing::delete(handler))
    }

    /// What answers a path no route has (a 404), limited as reading.
    pub(crate) fn fallback<H, T>(mut self, handler: H) -> Routes
    where
        H: axum::handler::Handler<T, AppState>,
        T: 'static,
    {
        let layer = axum::middleware::from_fn_with_state((self.state.clone(), Door::Read), limit);
        self.router = self.router.fallback_service(
            axum::routing::any(handler)
                .layer(layer)
                .with_state(self.state.clone()),
        );
        self
    }

    /// The router and the routes declared in it.
    pub(crate) fn finish(self) -> (axum::Router<AppState>, Vec<Declared>) {
        (self.router, self.declared)
    }
}

/// Streams (NDJSON) one account may hold open at once, on this node.
pub(crate) const STREAMS_PER_ACCOUNT: usize = 16;

/// Places held by key, at most `cap` each (an account's open streams, a client address's
/// analysis-board search): cheap to clone; a
/// std `Mutex` guards a map update, never held across `.await`.
#[derive(Debug, Clone)]
pub(crate) struct Places {
    held: Arc<Mutex<HashMap<String, usize>>>,
    cap: usize,
}

/// One place; dropping it gives it back.
#[derive(Debug)]
pub(crate) struct Place {
    places: Places,
    key: String,
}

impl Places {
    pub(crate) fn new(cap: usize) -> Places {
        Places {
            held: Arc::default(),
            cap,
        }
    }

    /// A place for `key`, or `None` when it holds its cap already.
    pub(crate) fn take(&self, key: &str) -> Option<Place> {
        let mut held = lock(&self.held);
        let n = held.entry(key.to_owned()).or_insert(0);
        if *n >= self.cap {
            return None;
        }
        *n += 1;
        Some(Place {
            places: self.clone(),
            key: key.to_owned(),
        })
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut held = lock(&self.places.held);
        if let Some(n) = held.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_gets_its_burst_then_waits_and_others_are_apart() {
        let limits = RateLimits::new(true);
        for _ in 0..5 {
            assert!(limits.check(Door::SignUp, &["1.2.3.4"]).is_ok());
        }
        let wait = limits.check(Door::SignUp, &["1.2.3.4"]).unwrap_err();
        assert!(wait.0 > Duration::from_secs(50), "{wait:?}");
        assert_eq!(wait.seconds(), wait.0.as_secs_f64().ceil() as u64);
        assert!(limits.check(Door::SignUp, &["5.6.7.8"]).is_ok());
        assert!(limits.check(Door::LogIn, &["1.2.3.4"]).is_ok());
        assert!(
            RateLimits::new(false)
                .check(Door::SignUp, &["1.2.3.4"])
                .is_ok()
        );
    }

    #[test]
    fn failed_passwords_slow_one_account_only() {
        let limits = RateLimits::new(true);
        let at = "10.0.0.1";
        for _ in 0..FREE_FAILURES {
            assert!(limits.may_try_password("anna", at).is_ok());
            limits.failed_password("anna", at);
        }
        assert!(limits.may_try_password("anna", at).is_ok());
        limits.failed_password("anna", at);
        let wait = limits.may_try_password("anna", at).unwrap_err();
        assert!(wait.0 <= Duration::from_secs(1));
        assert!(limits.may_try_password("bo", at).is_ok());
        for _ in 0..40 {
            limits.failed_password("anna", at);
        }
        let wait = limits.may_try_password("anna", at).unwrap_err();
        assert!(wait.0 > Duration::from_secs(200) && wait.0 <= MAX_WAIT);
        limits.good_password("anna", at);
        assert!(limits.may_try_password("anna", at).is_ok());
    }

    /// Issue 50: 15 wrong passwords from one address, then one every 300 s, kept the owner
    /// out from any address. Now the guesser slows only itself; many addresses guessing
    /// together slow everyone, but never for more than [`MAX_ACCOUNT_WAIT`].
    #[test]
    fn a_guesser_cannot_lock_the_owner_out() {
        let limits = RateLimits::new(true);
        for _ in 0..50 {
            limits.failed_password("anna", "6.6.6.6");
        }
        assert!(limits.may_try_password("anna", "6.6.6.6").is_err());
        assert!(
            limits.may_try_password("anna", "10.0.0.7").is_ok(),
            "the owner at another address is not slowed"
        );
        // A thousand addresses, a few guesses each: past the account's free failures every
        // address waits, the owner too, but at most half a minute.
        for i in 0..1000 {
            let at = format!("7.7.{}.{}", i / 256, i % 256);
            for _ in 0..3 {
                limits.failed_password("anna", &at);
            }
        }
        let wait = limits.may_try_password("anna", "10.0.0.7").unwrap_err();
        assert!(wait.0 <= MAX_ACCOUNT_WAIT, "{:?}", wait.0);
    }
}
