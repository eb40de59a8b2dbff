//! Computer analysis jobs (docs/ANALYSIS.md). "Request analysis" on a finished game queues a
//! job, stored at once (it survives a restart); a few workers claim jobs from the database
//! in turn (the table is the queue: in cluster mode the workers of every node share it, a
//! node with a free worker takes the next job, and a dead node's job is claimed again once
//! its claim runs out) and evaluate
//! every position of the game at a fixed node budget with the built-in engine. Each position
//! is one search on a blocking thread holding one of the bots' permits: the same bounded pool
//! the bots think in, so an analysis never takes more cores than the bots may, never holds
//! up the async runtime (and so a live game's moves), and a bot waits at most one position's
//! search for its turn. When every position is done, the evaluations are stored; the review
//! (judgements, counts, accuracy) is worked out from them when read.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rookery_core::game::Game;
use rookery_core::{Move, Position};
use rookery_engine::Search;
use rookery_engine::analysis::{
    GameAnalyser, PositionEval, Review, Score, evaluate, judged_cp, review,
};
use std::time::Duration;
use tokio::sync::{Notify, Semaphore};

use crate::rooms::Rooms;
use crate::store::{Store, StoreError};
use crate::wallclock::now_ms;

/// Who asks for an analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Requester {
    /// An account, by its id.
    Account(String),
    /// A guest, by its address (an IPv6 client by its /64).
    Guest(String),
}

impl Requester {
    /// As stored with the job (migration 0018).
    fn key(&self) -> String {
        match self {
            Requester::Account(id) => format!("u:{id}"),
            Requester::Guest(address) => format!("a:{address}"),
        }
    }
}

/// Jobs an account may have waiting (queued or running) at once (issue 50: 100 jobs from
/// 10 addresses kept a core busy for 17 minutes).
pub(crate) const WAITING_PER_ACCOUNT: i64 = 5;
/// Jobs guests from one address may have waiting.
pub(crate) const WAITING_PER_GUEST: i64 = 2;
/// Jobs all guests together may have waiting; accounts' jobs are taken first anyway.
pub(crate) const WAITING_GUESTS: i64 = 20;

/// Why an analysis is not queued.
#[derive(Debug)]
pub(crate) enum RequestError {
    /// The requester waits for this many already.
    TooMany(i64),
    /// Guests wait for [`WAITING_GUESTS`] already.
    GuestsFull,
    Store(StoreError),
}

impl std::fmt::Display for RequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RequestError::TooMany(n) => write!(
                f,
                "{n} of your analyses are waiting already: ask again when one is done"
            ),
            RequestError::GuestsFull => f.write_str(
                "guests' analyses are queued in full just now: log in, or ask again later",
            ),
            RequestError::Store(e) => write!(f, "{e}"),
        }
    }
}

impl From<StoreError> for RequestError {
    fn from(e: StoreError) -> RequestError {
        RequestError::Store(e)
    }
}

/// Positions done and positions in all, of the jobs running now.
type Progress = Arc<Mutex<HashMap<String, (usize, usize)>>>;

/// The analysis queue: a cheap-to-clone handle.
#[derive(Clone)]
pub(crate) struct Analyses {
    /// Wakes an idle worker when a job is queued here.
    queued: Arc<Notify>,
    progress: Progress,
    nodes: u64,
    /// The bots' threads, which the analysis searches share.
    permits: Arc<Semaphore>,
}

impl std::fmt::Debug for Analyses {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Analyses")
            .field("nodes", &self.nodes)
            .finish_non_exhaustive()
    }
}

/// How many jobs run at once on a node (each search still waits for a permit).
const WORKERS: usize = 2;
/// The transposition table of each worker's search, MiB.
const TABLE_MIB: usize = 8;
/// How long a claim on a job lasts without renewal: longer than one position's search can
/// take (an external engine is given 60 s), so a live worker never loses its job; as long
/// as a dead node's job waits for another worker.
const CLAIM: Duration = Duration::from_secs(90);
/// How often a working worker renews its claim (and says how far it is).
const RENEW_EVERY: Duration = Duration::from_secs(2);
/// How often an idle worker looks for jobs queued through other nodes.
const IDLE_LOOK: Duration = Duration::from_secs(2);

impl Analyses {
    /// Starts the workers, named `worker` in the database (the node's name). Jobs claimed
    /// under that name before a restart are free again at once.
    pub(crate) async fn start(
        store: Store,
        rooms: Rooms,
        permits: Arc<Semaphore>,
        nodes: u64,
        external: Option<std::path::PathBuf>,
        worker: String,
    ) -> Result<Analyses, StoreError> {
        store.release_analyses_of(&worker).await?;
        let queued = Arc::new(Notify::new());
        let progress = Progress::default();
        for _ in 0..WORKERS {
            let job = Job {
                store: store.clone(),
                rooms: rooms.clone(),
                permits: permits.clone(),
                progress: progress.clone(),
                nodes,
                worker: worker.clone(),
            };
            let (queued, external) = (queued.clone(), external.clone());
            tokio::spawn(async move {
                // The worker's engines, kept from job to job.
                let mut engines = Some(Engines {
                    search: Search::new(TABLE_MIB),
                    external: external.map(rookery_engine::External::new),
                });
                loop {
                    let now = now_ms() as i64;
                    let until = now + CLAIM.as_millis() as i64;
                    match job.store.claim_analysis(&job.worker, now, until).await {
                        Ok(Some(id)) => {
                            if let Err(e) = job.run(&id, &mut engines).await {
                                tracing::error!(game = %id, error = %e, "an analysis failed");
                            }
                            lock(&job.progress).remove(&id);
                        }
                        Ok(None) => {
                            let _ = tokio::time::timeout(IDLE_LOOK, queued.notified()).await;
                        }
                        Err(e) => {
                            tracing::warn!(error = %e, "cannot look for analysis jobs");
                            tokio::time::sleep(IDLE_LOOK).await;
                        }
                    }
                }
            });
        }
        Ok(Analyses {
            queued,
            progress,
            nodes,
            permits,
        })
    }

    /// One search of `pos` (reached after the positions hashed in `history`) by the built-in
    /// engine at the analysis budget, on a blocking thread holding one of the bots' permits
    /// (an exercise's move is judged so).
    pub(crate) async fn evaluate_one(
        &self,
        pos: Position,
        history: Vec<u64>,
    ) -> Result<PositionEval, StoreError> {
        let permit = bots_thread(&self.permits).await?;
        let nodes = self.nodes;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            evaluate(&mut Search::new(TABLE_MIB), &pos, &history, nodes)
        })
        .await
        .map_err(|e| StoreError::Failed(format!("a search failed: {e}")))
    }

    /// Queues the analysis of a finished game (once: asking again changes nothing), unless
    /// (with `quota`) `requester` waits for as many as it may.
    pub(crate) async fn request(
        &self,
        store: &Store,
        game_id: &str,
        requester: &Requester,
        quota: bool,
    ) -> Result<(), RequestError> {
        if store.analysis(game_id).await?.is_some() {
            return Ok(());
        }
        let key = requester.key();
        let (mine, guests) = if quota {
            store.analyses_waiting(&key).await?
        } else {
            (0, 0)
        };
        match requester {
            Requester::Account(_) if mine >= WAITING_PER_ACCOUNT => {
                return Err(RequestError::TooMany(WAITING_PER_ACCOUNT));
            }
            Requester::Guest(_) if mine >= WAITING_PER_GUEST => {
                return Err(RequestError::TooMany(WAITING_PER_GUEST));
            }
            Requester::Guest(_) if guests >= WAITING_GUESTS => {
                return Err(RequestError::GuestsFull);
            }
            _ => {}
        }
        let guest = matches!(requester, Requester::Guest(_));
        if store
            .queue_analysis(game_id, self.nodes as i64, now_ms() as i64, &key, guest)
            .await?
        {
            self.queued.notify_one();
        }
        Ok(())
    }

    /// Positions done and in all, while the game's analysis runs on this node.
    pub(crate) fn progress(&self, game_id: &str) -> Option<(usize, usize)> {
        lock(&self.progress).get(game_id).copied()
    }
}

/// One of the bots' threads, for one analysis search.
async fn bots_thread(
    permits: &Arc<Semaphore>,
) -> Result<tokio::sync::OwnedSemaphorePermit, StoreError> {
    permits
        .clone()
        .acquire_owned()
        .await
        .map_err(|e| StoreError::Failed(e.to_string()))
}

fn lock(progress: &Progress) -> std::sync::MutexGuard<'_, HashMap<String, (usize, usize)>> {
    crate::locks::lock(progress)
}

/// What a worker searches with: the built-in engine, and the external UCI engine when the
/// server has one (`--uci-engine`; a position it fails on is searched by the built-in one).
struct Engines {
    search: Search,
    external: Option<rookery_engine::External>,
}

impl Engines {
    /// The evaluation of `pos`, reached from `start` by `moves` (whose positions' hashes are
    /// `history`).
    fn evaluate(
        &mut self,
        start: &Position,
        moves: &[Move],
        pos: &Position,
        history: &[u64],
        nodes: u64,
    ) -> PositionEval {
        if let Some(engine) = &mut self.external {
            if pos.legal_moves().is_empty() {
                return PositionEval {
                    score: None,
                    best: None,
                };
            }
            let uci: Vec<String> = moves.iter().map(|m| m.to_uci().to_string()).collect();
            let within = std::time::Duration::from_secs(60);
            match engine.evaluate(&start.fen(), &uci, nodes, within) {
                Ok(e) => {
                    let white = if pos.turn() == rookery_core::Color::White {
                        1
                    } else {
                        -1
                    };
                    let score = match (e.cp, e.mate) {
                        (_, Some(n)) if n != 0 => Some(Score::Mate(n * white)),
                        (Some(cp), _) => Some(Score::Cp(cp * white)),
                        _ => None,
                    };
                    let best = e.best.and_then(|u| {
                        rookery_core::UciMove::from_ascii(u.as_bytes())
                            .ok()?
                            .to_move(pos)
                            .ok()
                    });
                    if score.is_some() {
                        return PositionEval { score, best };
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, "the external engine failed; the built-in one analyses")
                }
            }
        }
        evaluate(&mut self.search, pos, history, nodes)
    }
}

struct Job {
    store: Store,
    rooms: Rooms,
    permits: Arc<Semaphore>,
    progress: Progress,
    nodes: u64,
    worker: String,
}

impl Job {
    async fn run(&self, id: &str, engines: &mut Option<Engines>) -> Result<(), StoreError> {
        let Some(row) = self.store.game(id).await? else {
            return Ok(());
        };
        let (_, game) = self.rooms.game_of(&row).await?;
        let moves: Vec<Move> = game.moves().iter().map(|m| m.m).collect();
        let start = *game.start();
        // The engine crate plans the searches (which positions, how deep); each runs here on
        // a blocking thread holding one of the bots' permits.
        let mut analyser = GameAnalyser::new(start, &moves, self.nodes);
        let mut renewed = std::time::Instant::now();
        while let Some(request) = analyser.next_search() {
            let (done, total) = analyser.progress();
            lock(&self.progress).insert(id.to_owned(), (done, total));
            if renewed.elapsed() >= RENEW_EVERY {
                renewed = std::time::Instant::now();
                let until = now_ms() as i64 + CLAIM.as_millis() as i64;
                let mine = self
                    .store
                    .renew_analysis(id, &self.worker, until, (done as i64, total as i64))
                    .await?;
                if !mine {
                    tracing::warn!(game = %id, "another worker has this analysis now");
                    return Ok(());
                }
            }
            let permit = bots_thread(&self.permits).await?;
            let mut worker = engines.take().unwrap_or_else(|| Engines {
                search: Search::new(TABLE_MIB),
                external: None,
            });
            let i = request.index;
            let pos = *analyser.position(i);
            let (seen, played) = (analyser.history(i).to_vec(), moves[..i].to_vec());
            let (worker, eval) = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                let eval = worker.evaluate(&start, &played, &pos, &seen, request.nodes);
                (worker, eval)
            })
            .await
            .map_err(|e| StoreError::Failed(format!("an analysis search failed: {e}")))?;
            *engines = Some(worker);
            analyser.record(request, eval);
        }
        let evals = analyser.evals();
        let total = evals.len();
        let at = now_ms() as i64;
        if !self
            .store
            .finish_analysis(id, &self.worker, &evals_json(&evals), at)
            .await?
        {
            tracing::warn!(game = %id, "another worker has this analysis now");
            return Ok(());
        }
        tracing::info!(game = %id, positions = total, "analysis done");
        Ok(())
    }
}

/// The stored form: `[[cp, mate, best], ...]`, from White's side.
fn evals_json(evals: &[PositionEval]) -> String {
    let rows: Vec<serde_json::Value> = evals
        .iter()
        .map(|e| {
            let (cp, mate) = match e.score {
                Some(Score::Cp(cp)) => (Some(cp), None),
                Some(Score::Mate(n)) => (None, Some(n)),
                None => (None, None),
            };
            serde_json::json!([cp, mate, e.best.map(|m| m.to_uci().to_string())])
        })
        .collect();
    serde_json::Value::Array(rows).to_string()
}

/// A finished analysis, read back against its game: every position's evaluation, the
/// review, and the engine's best move at each ply in SAN.
#[derive(Debug, Clone)]
pub(crate) struct GameAnalysis {
    pub(crate) evals: Vec<PositionEval>,
    /// White's centipawns of each position as the review takes them (within ±1000).
    pub(crate) cps: Vec<i32>,
    pub(crate) review: Review,
    /// The engine's best move in the position before each ply (SAN).
    pub(crate) best: Vec<Option<String>>,
}

impl GameAnalysis {
    /// Reads stored evaluations for `game`; `None` if they do not fit it.
    pub(crate) fn of(game: &Game, stored: &str) -> Option<GameAnalysis> {
        let rows: Vec<(Option<i32>, Option<i32>, Option<String>)> =
            serde_json::from_str(stored).ok()?;
        if rows.len() != game.moves().len() + 1 {
            return None;
        }
        let mut pos: Position = *game.start();
        let mut evals = Vec::with_capacity(rows.len());
        let mut cps = Vec::with_capacity(rows.len());
        let mut best = Vec::with_capacity(rows.len());
        for (i, (cp, mate, uci)) in rows.into_iter().enumerate() {
            let score = match (cp, mate) {
                (Some(cp), _) => Some(Score::Cp(cp)),
                (None, Some(n)) => Some(Score::Mate(n)),
                _ => None,
            };
            let m = uci.and_then(|u| {
                rookery_core::UciMove::from_ascii(u.as_bytes())
                    .ok()?
                    .to_move(&pos)
                    .ok()
            });
            let eval = PositionEval { score, best: m };
            cps.push(judged_cp(&eval, pos.turn(), pos.is_checkmate()));
            evals.push(eval);
            if let Some(played) = game.moves().get(i) {
                best.push(m.map(|m| pos.san(m)));
                pos.play_unchecked(played.m);
            }
        }
        let first = game.start().turn();
        let scores: Vec<Option<Score>> = evals.iter().map(|e| e.score).collect();
        let engine_moves: Vec<bool> = game
            .moves()
            .iter()
            .zip(&evals)
            .map(|(played, e)| e.best == Some(played.m))
            .collect();
        Some(GameAnalysis {
            review: review(first, &scores, &engine_moves),
            evals,
            cps,
            best,
        })
    }

    /// The `[%eval]` of a position, as lichess writes it: pawns from White's side with up to
    /// two decimals (`0.17`, `-1.5`), or `#3` / `#-3`.
    pub(crate) fn eval_text(eval: &PositionEval) -> Option<String> {
        match eval.score? {
            Score::Cp(cp) => {
                let text = format!("{:.2}", f64::from(cp) / 100.0);
                let text = text.trim_end_matches('0').trim_end_matches('.');
                Some(if text == "-0" {
                    "0".to_owned()
                } else {
                    text.to_owned()
                })
            }
            Score::Mate(n) => Some(format!("#{n}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evals_are_written_as_lichess_writes_them() {
        let at = |score| PositionEval { score, best: None };
        assert_eq!(
            GameAnalysis::eval_text(&at(Some(Score::Cp(17)))).unwrap(),
            "0.17"
        );
        assert_eq!(
            GameAnalysis::eval_text(&at(Some(Score::Cp(-150)))).unwrap(),
            "-1.5"
        );
        assert_eq!(
            GameAnalysis::eval_text(&at(Some(Score::Cp(300)))).unwrap(),
            "3"
        );
        assert_eq!(
            GameAnalysis::eval_text(&at(Some(Score::Cp(0)))).unwrap(),
            "0"
        );
        assert_eq!(
            GameAnalysis::eval_text(&at(Some(Score::Mate(3)))).unwrap(),
            "#3"
        );
        assert_eq!(
            GameAnalysis::eval_text(&at(Some(Score::Mate(-2)))).unwrap(),
            "#-2"
        );
        assert_eq!(GameAnalysis::eval_text(&at(None)), None);
    }

    #[test]
    fn stored_evaluations_read_back_against_their_game() {
        let mut game = Game::new(Position::new(), rookery_core::clock::TimeControl::Untimed);
        for uci in ["e2e4", "e7e5"] {
            game.apply(
                rookery_core::game::Command::Move {
                    by: game.position().turn(),
                    text: rookery_core::game::MoveText::Uci(uci.into()),
                    offer_draw: false,
                    timing: Default::default(),
                },
                0,
            )
            .unwrap();
        }
        let stored = r#"[[20,null,"e2e4"],[25,null,"e7e5"],[30,null,"g1f3"]]"#;
        let a = GameAnalysis::of(&game, stored).unwrap();
        assert_eq!(a.best, [Some("e4".to_owned()), Some("e5".to_owned())]);
        assert_eq!(a.review.judgements, [None, None]);
        assert!(
            GameAnalysis::of(&game, "[[1,null,null]]").is_none(),
            "wrong length"
        );
        assert!(GameAnalysis::of(&game, "junk").is_none());
    }
}
