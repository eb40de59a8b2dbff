//! The analysis board (docs/ANALYSIS.md): `/analysis` from a position, a pasted FEN or PGN,
//! or a game's move (`?game=ID&ply=N`); pieces move freely for both sides, every move judged
//! by the core. Its socket, `/analysis/socket`, takes the whole line on each change and
//! answers with the position (legal moves, SAN, FEN, the line's PGN); on `go` the engine
//! searches the line's last position and streams each finished depth (evaluation and best
//! line) until `stop`, a new line, 20 seconds, or depth 40. The board has its own small
//! budget ([`BoardBudget`]): a few searches at once on the whole server, one per client
//! address, each on one of the bots' threads only while no bot waits for one (a bot that
//! starts waiting stops it). A client that does not read what it is sent is disconnected:
//! its queue is bounded, and a socket silent past the idle time (pings unanswered) closes.
//!
//! Frames: `{"t": "line", "d": {"fen": "...", "moves": ["e2e4", ...]}}`, `{"t": "load", "d":
//! {"text": FEN or PGN}}`, `{"t": "go"}`, `{"t": "stop"}`; answers `line` (the line's moves
//! as sent, their SAN, the FEN after each, the last position's legal moves), `loaded` (the
//! pasted text as a start, moves, tags and result), `eval`, `done` and `error` (`{"code",
//! "message"}`). The page keeps the tree of variations; the server judges one line at a time.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use askama::Template;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use rookery_core::game::Termination;
use rookery_core::pgn::{GameRecord, RecordedMove};
use rookery_core::{Position, SanPlus, UciMove};
use rookery_engine::analysis::Score;
use rookery_engine::{Evaluation, Limits, Search};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::mpsc;

use super::AppState;
use super::pages::{Chrome, Tr, render, script_json};

/// Largest frame the board takes: a line of a few hundred moves.
const MAX_FRAME: usize = 16 * 1024;
/// Longest line.
const MAX_PLIES: usize = 600;
/// Longest search, and deepest.
const SEARCH_TIME: Duration = Duration::from_secs(20);
const SEARCH_DEPTH: u32 = 40;
/// The board's search table, MiB.
const TABLE_MIB: usize = 8;
/// Frames a connection may have waiting to be sent; a client that lets more pile up does
/// not read, and is disconnected.
const QUEUE: usize = 64;
/// Board searches at once on the whole server.
const SEARCHES: usize = 2;

/// What the analysis board may use of the machine (issue 50: four anonymous boards made a
/// bot lose on time): [`SEARCHES`] at once, one per client address, each on one of the
/// bots' threads only while no bot waits for one.
#[derive(Debug, Clone)]
pub(crate) struct BoardBudget {
    /// The bots' search threads.
    threads: Arc<tokio::sync::Semaphore>,
    /// Bots waiting for a thread now: while any does, no board search starts, and those
    /// running stop.
    bots_waiting: Arc<AtomicUsize>,
    /// The board's own share.
    searches: Arc<tokio::sync::Semaphore>,
    /// Searches running, by client address: one each.
    by_address: super::limits::Places,
}

impl BoardBudget {
    pub(crate) fn new(bots: &crate::bot::Bots) -> BoardBudget {
        BoardBudget {
            threads: bots.permits(),
            bots_waiting: bots.waiting(),
            searches: Arc::new(tokio::sync::Semaphore::new(SEARCHES)),
            by_address: super::limits::Places::new(1),
        }
    }
}

/// Queues a frame for the client: `false` when the client does not read (its queue is
/// full) or is gone, and the connection should end.
fn put(out: &mpsc::Sender<String>, frame: String) -> bool {
    out.try_send(frame).is_ok()
}

#[derive(Debug, Deserialize)]
pub(crate) struct BoardQuery {
    fen: Option<String>,
    game: Option<String>,
    ply: Option<usize>,
}

#[derive(Template)]
#[template(path = "board.html")]
struct BoardPage {
    tr: Tr,
    chrome: Chrome,
    /// The start position and moves the page opens with, as JSON for its script.
    start_json: String,
}

/// `GET /analysis`: the board, from a FEN, a game, or the start. A game comes whole, with
/// its tags and result, the board shown at its move `ply` (its last without one).
pub(crate) async fn page(
    State(state): State<AppState>,
    chrome: Chrome,
    super::Origin(origin): super::Origin,
    Query(q): Query<BoardQuery>,
) -> Response {
    let mut fen = q
        .fen
        .filter(|f| Position::from_fen(f.trim()).is_ok())
        .map(|f| f.trim().to_owned());
    let mut moves: Vec<String> = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut result = None;
    if let Some(id) = q.game.as_deref() {
        if let Ok(Some(row)) = state.store.game(id).await {
            if let Ok((_, game)) = state.rooms.game_of(&row).await {
                fen = (*game.start() != Position::new()).then(|| game.start().fen());
                moves = game
                    .moves()
                    .iter()
                    .map(|m| m.m.to_uci().to_string())
                    .collect();
                result = game.result().map(|(r, _)| r.as_str());
                if let Ok(header) = crate::export::header(&state.store, &row, &origin).await {
                    tags = header
                        .iter()
                        .map(|(n, v)| (n.to_owned(), v.to_owned()))
                        .collect();
                }
            }
        }
    }
    let ply = q.ply.unwrap_or(moves.len()).min(moves.len());
    render(&BoardPage {
        tr: chrome.tr,
        chrome,
        start_json: script_json(&json!({
            "fen": fen, "moves": moves, "ply": ply, "tags": tags, "result": result,
        })),
    })
}

#[derive(Debug, Deserialize)]
#[serde(
    tag = "t",
    content = "d",
    rename_all = "lowercase",
    deny_unknown_fields
)]
enum BoardFrame {
    Line(LineData),
    /// A pasted FEN or PGN: the board starts over from it.
    Load(LoadData),
    Go,
    Stop,
}

#[derive(Debug, Deserialize)]
struct LoadData {
    text: String,
}

/// A pasted text as a line: a FEN (no moves), else the first game of a PGN (its start,
/// moves, tags and result, read by the core's PGN reader). A text shaped like a FEN (its first
/// word has the placement's seven slashes) is judged as one, so a broken FEN is told what is
/// wrong with it ("no white king"), not that it is no PGN.
fn load(text: &str) -> Result<Loaded, (&'static str, String)> {
    let text = text.trim();
    let fen_shaped = text
        .split_whitespace()
        .next()
        .is_some_and(|word| word.matches('/').count() == 7 && !text.contains('['));
    if fen_shaped {
        let pos = Position::from_fen(text).map_err(|e| ("bad_fen", format!("bad FEN: {e}")))?;
        return Ok(Loaded {
            line: LineData {
                fen: Some(pos.fen()),
                moves: Vec::new(),
            },
            tags: Vec::new(),
            result: None,
        });
    }
    let mut reader = rookery_core::pgn::Reader::new(text.as_bytes());
    match reader.next() {
        Some(Ok(record)) => Ok(Loaded {
            line: LineData {
                fen: (record.start != Position::new()).then(|| record.start.fen()),
                moves: record
                    .moves
                    .iter()
                    .map(|m| m.m.to_uci().to_string())
                    .collect(),
            },
            tags: record
                .own_tags()
                .map(|(n, v)| (n.to_owned(), v.to_owned()))
                .collect(),
            result: Some(record.result.as_str()),
        }),
        Some(Err(e)) => Err(("bad_pgn", e.to_string())),
        None => Err(("bad_pgn", "neither a FEN nor a PGN".to_owned())),
    }
}

/// A pasted game: its line, and the tags and result its PGN gives.
struct Loaded {
    line: LineData,
    tags: Vec<(String, String)>,
    result: Option<&'static str>,
}

#[derive(Debug, Deserialize)]
struct LineData {
    #[serde(default)]
    fen: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
}

/// A line read through the core: its positions and SAN, or why it cannot be.
struct Line {
    start: Position,
    end: Position,
    history: Vec<u64>,
    record: GameRecord,
}

fn read_line(data: &LineData) -> Result<Line, (&'static str, String)> {
    let start = match data.fen.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
        Some(fen) => Position::from_fen(fen).map_err(|e| ("bad_fen", format!("bad FEN: {e}")))?,
        None => Position::new(),
    };
    if data.moves.len() > MAX_PLIES {
        return Err(("malformed", format!("a line has at most {MAX_PLIES} moves")));
    }
    let mut record = GameRecord::new();
    record.start = start;
    let mut pos = start;
    let mut history = Vec::with_capacity(data.moves.len());
    for (i, text) in data.moves.iter().enumerate() {
        let m = UciMove::from_ascii(text.as_bytes())
            .map_err(|e| ("illegal_move", format!("ply {}: {text:?}: {e}", i + 1)))?
            .to_move(&pos)
            .map_err(|e| ("illegal_move", format!("ply {}: {text}: {e}", i + 1)))?;
        history.push(pos.zobrist());
        let san = SanPlus::of_and_play(&mut pos, m);
        record.moves.push(RecordedMove {
            m,
            san,
            clock: None,
            elapsed: None,
            comments: Vec::new(),
            nags: Vec::new(),
        });
    }
    Ok(Line {
        start,
        end: pos,
        history,
        record,
    })
}

fn line_frame(line: &Line) -> String {
    let end = &line.end;
    // The opening the line reached, by lichess's names (from the normal start only).
    let opening = (line.start == Position::new())
        .then(|| {
            let mut hashes = line.history.clone();
            hashes.push(end.zobrist());
            rookery_openings::of_hashes(&hashes)
        })
        .flatten()
        .map(|o| json!({ "eco": o.eco, "name": o.name }));
    // The position after each move, for the board to show while it steps through the line.
    let mut pos = line.start;
    let fens: Vec<String> = line
        .record
        .moves
        .iter()
        .map(|m| {
            pos.play_unchecked(m.m);
            pos.fen()
        })
        .collect();
    let mut d = json!({
        "moves": line.record.moves.iter().map(|m| m.m.to_uci().to_string()).collect::<Vec<_>>(),
        "fens": fens,
        "fen": end.fen(),
        "start_fen": line.start.fen(),
        "start_ply": line.start.plies_before(),
        "san": line.record.moves.iter().map(|m| m.san.to_string()).collect::<Vec<_>>(),
        "check": end.is_check().then(|| end.king_of(end.turn()).to_string()),
        "turn": end.turn().name(),
        // As a game's end frame says it.
        "over": end.outcome().map(Termination::of_outcome).map(|(result, how)| {
            json!({ "result": result.as_str(), "termination": how.as_str() })
        }),
        "pgn": rookery_core::pgn::write(&line.record),
        "last": line.record.moves.last().map(|m| m.m.to_uci().to_string()),
        "opening": opening,
    });
    if let (Some(obj), serde_json::Value::Object(moves)) =
        (d.as_object_mut(), crate::protocol::playable(end))
    {
        obj.extend(moves);
    }
    json!({ "t": "line", "d": d }).to_string()
}

fn error_frame(code: &str, message: &str) -> String {
    json!({ "t": "error", "d": { "code": code, "message": message } }).to_string()
}

/// The search's report of one finished depth: the evaluation from White's side and the best
/// line in SAN.
fn eval_frame(pos: &Position, found: &rookery_engine::Found) -> String {
    let (cp, mate) = match Score::of_search(found.score, pos.turn()) {
        Score::Cp(cp) => (Some(cp), None),
        Score::Mate(n) => (None, Some(n)),
    };
    let mut p = *pos;
    let mut pv = Vec::new();
    for &m in &found.pv {
        if !p.is_legal(m) {
            break;
        }
        pv.push(SanPlus::of_and_play(&mut p, m).to_string());
    }
    // The best move as UCI too, for the page's arrow.
    let best = found
        .pv
        .first()
        .filter(|m| pos.is_legal(**m))
        .map(|m| m.to_uci().to_string());
    json!({ "t": "eval", "d": {
        "depth": found.depth, "cp": cp, "mate": mate, "pv": pv, "best": best, "nodes": found.nodes,
    }})
    .to_string()
}

#[derive(Debug, Deserialize)]
pub(crate) struct ExplorerQuery {
    fen: String,
}

/// `GET /api/explorer?fen=FEN`: the moves played from a position in Rookery's finished games
/// (the first 30 plies of each, migration 0025) and how they scored, as lichess's opening
/// explorer answers: `{"white", "draws", "black", "moves": [{"uci", "san", "white", "draws",
/// "black"}]}`, the most played first. Positions are matched by their Zobrist key, so
/// transpositions meet.
pub(crate) async fn explorer(
    State(state): State<AppState>,
    Query(q): Query<ExplorerQuery>,
) -> Result<axum::Json<serde_json::Value>, super::error::ApiError> {
    let pos = Position::from_fen(q.fen.trim()).map_err(|e| {
        super::error::ApiError::new(crate::refusal::Code::BadFen, format!("bad FEN: {e}"))
    })?;
    let moves = state.store.explored(pos.zobrist() as i64).await?;
    let listed: Vec<serde_json::Value> = moves
        .iter()
        .filter_map(|(uci, white, draws, black)| {
            // A move the position does not allow (a key shared by two positions) is left out.
            let m = UciMove::from_ascii(uci.as_bytes())
                .ok()?
                .to_move(&pos)
                .ok()?;
            let san = SanPlus::of_and_play(&mut { pos }, m).to_string();
            Some(json!({ "uci": uci, "san": san, "white": white, "draws": draws, "black": black }))
        })
        .collect();
    let sum = |field: &str| listed.iter().filter_map(|m| m[field].as_i64()).sum::<i64>();
    Ok(axum::Json(json!({
        "white": sum("white"), "draws": sum("draws"), "black": sum("black"), "moves": listed,
    })))
}

/// `GET /analysis/socket`.
pub(crate) async fn socket(
    State(state): State<AppState>,
    address: super::limits::ClientAddr,
    place: Option<axum::Extension<super::serve::Place>>,
    ws: WebSocketUpgrade,
) -> Response {
    let budget = state.board.clone();
    let open = state.socket_open.clone();
    let idle = state.socket_idle;
    ws.max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .write_buffer_size(0)
        .on_upgrade(move |socket| async move {
            connection(socket, budget, address.0, idle).await;
            drop(open);
            drop(place);
        })
}

async fn connection(socket: WebSocket, budget: BoardBudget, address: String, idle: Duration) {
    let (mut sink, mut stream) = socket.split();
    let (out, mut outgoing) = mpsc::channel::<String>(QUEUE);
    let writer = tokio::spawn(async move {
        // A ping every third of the idle time: a live client answers, a dead one does not.
        let every = idle / 3;
        let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        loop {
            let message = tokio::select! {
                text = outgoing.recv() => match text {
                    Some(text) => Message::Text(text.into()),
                    None => break,
                },
                _ = ping.tick() => Message::Ping(axum::body::Bytes::new()),
            };
            if sink.send(message).await.is_err() {
                return;
            }
        }
        let _ = sink.close().await;
    });
    let mut line: Option<Line> = None;
    let mut stop: Option<Arc<AtomicBool>> = None;
    let mut window = std::time::Instant::now();
    let mut frames = 0u32;
    loop {
        let msg = match tokio::time::timeout(idle, stream.next()).await {
            Ok(Some(Ok(msg))) => msg,
            // Silent past the idle time (pings unanswered), closed, or broken.
            Err(_) | Ok(None | Some(Err(_))) => break,
        };
        let Message::Text(text) = msg else {
            if matches!(msg, Message::Close(_)) {
                break;
            }
            continue;
        };
        // At most 20 frames a second.
        if window.elapsed() >= Duration::from_secs(1) {
            (window, frames) = (std::time::Instant::now(), 0);
        }
        frames += 1;
        if frames > 20 {
            if !put(&out, error_frame("slow_down", "too many frames: slow down")) {
                break;
            }
            continue;
        }
        let mut sent = true;
        match serde_json::from_str::<BoardFrame>(text.as_str()) {
            Err(e) => {
                sent = put(
                    &out,
                    error_frame("malformed", &format!("unreadable frame: {e}")),
                );
            }
            Ok(BoardFrame::Line(data)) => {
                if let Some(flag) = stop.take() {
                    flag.store(true, Ordering::Relaxed);
                }
                match read_line(&data) {
                    Ok(read) => {
                        sent = put(&out, line_frame(&read));
                        line = Some(read);
                    }
                    Err((code, message)) => sent = put(&out, error_frame(code, &message)),
                }
            }
            Ok(BoardFrame::Load(data)) => {
                if let Some(flag) = stop.take() {
                    flag.store(true, Ordering::Relaxed);
                }
                match load(&data.text).and_then(|l| Ok((read_line(&l.line)?, l))) {
                    Ok((read, data)) => {
                        let loaded = json!({ "t": "loaded", "d": {
                            "fen": data.line.fen, "moves": data.line.moves,
                            "tags": data.tags, "result": data.result,
                        }});
                        sent = put(&out, loaded.to_string()) && put(&out, line_frame(&read));
                        line = Some(read);
                    }
                    Err((code, message)) => sent = put(&out, error_frame(code, &message)),
                }
            }
            Ok(BoardFrame::Stop) => {
                if let Some(flag) = stop.take() {
                    flag.store(true, Ordering::Relaxed);
                }
            }
            Ok(BoardFrame::Go) => {
                let Some(current) = &line else {
                    if !put(&out, error_frame("waiting", "send a line first")) {
                        break;
                    }
                    continue;
                };
                if let Some(flag) = stop.take() {
                    flag.store(true, Ordering::Relaxed);
                }
                // One search per client address: a new `go` waits for the last one's place.
                let flag = Arc::new(AtomicBool::new(false));
                stop = Some(flag.clone());
                let job = Job {
                    pos: current.end,
                    history: current.history.clone(),
                    stop: flag,
                    out: out.clone(),
                };
                tokio::spawn(search(budget.clone(), address.clone(), job));
            }
        }
        if !sent {
            // The client does not read what it is sent.
            break;
        }
    }
    if let Some(flag) = stop {
        flag.store(true, Ordering::Relaxed);
    }
    drop(out);
    let _ = writer.await;
}

/// A search the client asked for: the line's last position and what it repeats, its stop
/// flag, and where its frames go.
struct Job {
    pos: Position,
    history: Vec<u64>,
    stop: Arc<AtomicBool>,
    out: mpsc::Sender<String>,
}

/// How often a waiting or running board search looks at whether a bot waits.
const GIVE_WAY_EVERY: Duration = Duration::from_millis(20);

/// One search of `pos` within the board's budget (a stop meanwhile cancels it): the
/// address's place, a place in the board's share, then a bots' thread once no bot waits for
/// one; a bot that starts waiting stops it.
async fn search(budget: BoardBudget, address: String, job: Job) {
    let Job {
        pos,
        history,
        stop,
        out,
    } = job;
    if pos.legal_moves().is_empty() {
        let _ = out.try_send(json!({ "t": "done" }).to_string());
        return;
    }
    // The address's one place; its last search is stopping, so wait for it a moment.
    let mut mine = budget.by_address.take(&address);
    while mine.is_none() && !stop.load(Ordering::Relaxed) {
        tokio::time::sleep(GIVE_WAY_EVERY).await;
        mine = budget.by_address.take(&address);
    }
    let Some(mine) = mine else { return };
    let Ok(share) = budget.searches.clone().acquire_owned().await else {
        return;
    };
    let permit = loop {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        if budget.bots_waiting.load(Ordering::Relaxed) == 0
            && let Ok(permit) = budget.threads.clone().try_acquire_owned()
        {
            break permit;
        }
        tokio::time::sleep(GIVE_WAY_EVERY).await;
    };
    // While it runs, a bot that starts waiting stops it.
    let watch = {
        let (stop, waiting) = (stop.clone(), budget.bots_waiting.clone());
        tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                if waiting.load(Ordering::Relaxed) > 0 {
                    stop.store(true, Ordering::Relaxed);
                }
                tokio::time::sleep(GIVE_WAY_EVERY).await;
            }
        })
    };
    let done = stop.clone();
    let _ = tokio::task::spawn_blocking(move || {
        let _held = (permit, share, mine);
        let limits = Limits {
            depth: Some(SEARCH_DEPTH),
            time: Some(SEARCH_TIME),
            stop: Some(stop),
            evaluation: Evaluation::Network,
            ..Limits::default()
        };
        let mut search = Search::new(TABLE_MIB);
        // A progress frame the client has no room for is dropped: it does not read.
        search.run_reporting(&pos, &history, &limits, &mut |found| {
            let _ = out.try_send(eval_frame(&pos, found));
        });
        let _ = out.try_send(json!({ "t": "done" }).to_string());
    })
    .await;
    done.store(true, Ordering::Relaxed);
    let _ = watch.await;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rust's `Debug` form of a struct (`Name { field: ...`) somewhere in `text`.
    fn debug_syntax(text: &str) -> Option<&str> {
        text.match_indices(" { ").find_map(|(at, _)| {
            let before = text[..at].chars().next_back()?;
            let after: String = text[at + 3..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let colon = text[at + 3 + after.len()..].starts_with(':');
            (before.is_ascii_alphanumeric() && !after.is_empty() && colon)
                .then(|| &text[at.saturating_sub(20)..(at + 30).min(text.len())])
        })
    }

    #[test]
    fn a_mated_line_says_how_in_words_not_in_rusts_debug_form() {
        assert!(
            debug_syntax("checkmate { winner: white }").is_some(),
            "the detector works"
        );
        assert!(debug_syntax(r#"{"over":{"result":"1-0"}}"#).is_none());
        let line = read_line(&LineData {
            fen: None,
            moves: ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]
                .map(String::from)
                .to_vec(),
        })
        .unwrap();
        let text = line_frame(&line);
        assert_eq!(debug_syntax(&text), None, "{text}");
        let frame: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            frame["d"]["over"],
            json!({ "result": "1-0", "termination": "checkmate" })
        );
    }

    #[test]
    fn a_line_is_read_by_the_core_and_refused_with_the_ply() {
        let line = read_line(&LineData {
            fen: None,
            moves: vec!["e2e4".into(), "e7e5".into(), "g1f3".into()],
        })
        .unwrap();
        let frame: serde_json::Value = serde_json::from_str(&line_frame(&line)).unwrap();
        assert_eq!(frame["d"]["san"], json!(["e4", "e5", "Nf3"]));
        assert_eq!(frame["d"]["turn"], "black");
        assert!(
            frame["d"]["pgn"]
                .as_str()
                .unwrap()
                .contains("1. e4 e5 2. Nf3 *")
        );
        assert_eq!(frame["d"]["dests"]["b8"], json!(["a6", "c6"]));
        let bad = read_line(&LineData {
            fen: None,
            moves: vec!["e2e4".into(), "e2e4".into()],
        });
        let (code, message) = bad.err().unwrap();
        assert_eq!(code, "illegal_move");
        assert!(message.starts_with("ply 2: e2e4"), "{message}");
        let (code, _) = read_line(&LineData {
            fen: Some("not a fen".into()),
            moves: Vec::new(),
        })
        .err()
        .unwrap();
        assert_eq!(code, "bad_fen");
        // Pasted text: a FEN, or a PGN's first game.
        assert!(load("4k3/8/8/8/8/8/8/4K3 w - - 0 1").is_ok());
        let l = load("[Event \"x\"]\n\n1. d4 d5 2. c4 *").unwrap();
        assert_eq!(l.line.moves, ["d2d4", "d7d5", "c2c4"]);
        assert_eq!(l.tags, [("Event".to_owned(), "x".to_owned())]);
        assert_eq!(l.result, Some("*"));
        assert_eq!(load("1. e4 e5 2. Ke3").err().unwrap().0, "bad_pgn");
        // Issue 54: an empty board is a FEN without kings, not a PGN with a strange move.
        let (code, message) = load("8/8/8/8/8/8/8/8 w - - 0 1").err().unwrap();
        assert_eq!(code, "bad_fen");
        assert!(message.contains("king"), "{message}");
        // From a FEN, the PGN carries it.
        let line = read_line(&LineData {
            fen: Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".into()),
            moves: vec!["e2e4".into()],
        })
        .unwrap();
        let frame: serde_json::Value = serde_json::from_str(&line_frame(&line)).unwrap();
        assert!(
            frame["d"]["pgn"]
                .as_str()
                .unwrap()
                .contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]")
        );
    }
}
