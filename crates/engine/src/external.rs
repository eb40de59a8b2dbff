//! A driver for any external UCI engine (Stockfish, say), so the server's bots can use it
//! instead of the built-in search. Every exchange has a timeout; an engine that dies or hangs
//! is killed and started again on the next request. The engine's moves are only suggestions:
//! the server still judges them with the core like any player's.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use crate::level::Level;

/// How long the handshake (`uci`, `isready`) may take.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// How long past its budget a search may run before the engine is deemed hung.
const GRACE: Duration = Duration::from_secs(5);

/// Stockfish's lowest `UCI_Elo`; levels measured below it ask for it.
const ELO_FLOOR: u32 = 1350;

/// An external UCI engine, started on first use.
#[derive(Debug)]
pub struct External {
    path: PathBuf,
    running: Option<Running>,
}

#[derive(Debug)]
struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Options the engine announced, lowercase.
    options: Vec<String>,
    /// The level its options are set for.
    level: Option<Level>,
}

impl External {
    pub fn new(path: impl Into<PathBuf>) -> External {
        External {
            path: path.into(),
            running: None,
        }
    }

    /// The engine's move (UCI text) for the position `fen` followed by `moves` (UCI), at
    /// `level`, thinking for about `budget`.
    ///
    /// # Errors
    /// The engine could not be started, answered nonsense, died or hung; it is stopped and
    /// will be started afresh on the next call.
    pub fn best_move(
        &mut self,
        fen: &str,
        moves: &[String],
        level: Level,
        budget: Duration,
    ) -> Result<String, String> {
        let result = self.ask(fen, moves, level, budget);
        self.stopped_on_error(result)
    }

    /// The engine's judgement of the position `fen` followed by `moves` (UCI), at full
    /// strength, searching `nodes` nodes: its last full score and its best move.
    ///
    /// # Errors
    /// As [`External::best_move`]; also when the engine gave no score.
    pub fn evaluate(
        &mut self,
        fen: &str,
        moves: &[String],
        nodes: u64,
        within: Duration,
    ) -> Result<ExternalEval, String> {
        let result = self.judge(fen, moves, nodes, within);
        self.stopped_on_error(result)
    }

    /// An engine that failed is stopped, to be started afresh on the next request.
    fn stopped_on_error<T>(&mut self, result: Result<T, String>) -> Result<T, String> {
        if result.is_err() {
            self.stop();
        }
        result
    }

    /// The engine, started if need be, set to `level` and given the position `fen` followed
    /// by `moves` (UCI): ready for a `go`.
    fn at(&mut self, fen: &str, moves: &[String], level: Level) -> Result<&mut Running, String> {
        if self.running.is_none() {
            self.running = Some(self.start()?);
        }
        let engine = self.running.as_mut().ok_or("the engine is not running")?;
        if engine.level != Some(level) {
            engine.set_level(level)?;
        }
        let position = if moves.is_empty() {
            format!("position fen {fen}")
        } else {
            format!("position fen {fen} moves {}", moves.join(" "))
        };
        engine.send(&position)?;
        Ok(engine)
    }

    fn judge(
        &mut self,
        fen: &str,
        moves: &[String],
        nodes: u64,
        within: Duration,
    ) -> Result<ExternalEval, String> {
        let engine = self.at(fen, moves, Level::MAX)?;
        engine.send(&format!("go nodes {}", nodes.max(1)))?;
        let deadline = Instant::now() + within + GRACE;
        let mut eval = ExternalEval::default();
        loop {
            let line = engine.next_line(deadline)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    if let Some(score) = score_of(&line) {
                        (eval.cp, eval.mate) = score;
                    }
                }
                Some("bestmove") => {
                    eval.best = words
                        .next()
                        .filter(|m| *m != "0000" && *m != "(none)")
                        .map(str::to_owned);
                    break;
                }
                _ => {}
            }
        }
        if eval.cp.is_none() && eval.mate.is_none() {
            return Err("the engine gave no score".into());
        }
        Ok(eval)
    }

    fn ask(
        &mut self,
        fen: &str,
        moves: &[String],
        level: Level,
        budget: Duration,
    ) -> Result<String, String> {
        let engine = self.at(fen, moves, level)?;
        engine.send(&format!("go movetime {}", budget.as_millis().max(1)))?;
        let line = engine.wait_for("bestmove", budget + GRACE)?;
        line.split_whitespace()
            .nth(1)
            .filter(|m| *m != "0000" && *m != "(none)")
            .map(str::to_owned)
            .ok_or_else(|| format!("the engine gave no move: {line:?}"))
    }

    /// Starts the engine's process. "Text file busy" is passing: a binary written moments ago
    /// (an upgrade, a test's fake engine) stays busy while any process forked meanwhile still
    /// holds the writer's handle, until that process execs; so it is tried again a few times.
    fn spawn(&self) -> Result<Child, String> {
        let mut tries = 0;
        loop {
            let started = Command::new(&self.path)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn();
            match started {
                Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 10 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(20));
                }
                other => {
                    return other.map_err(|e| format!("cannot start {}: {e}", self.path.display()));
                }
            }
        }
    }

    fn start(&self) -> Result<Running, String> {
        let mut child = self.spawn()?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Running {
            child,
            stdin,
            lines,
            options: Vec::new(),
            level: None,
        };
        engine.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let line = engine.next_line(deadline)?;
            if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type").next().unwrap_or("").trim();
                engine.options.push(name.to_ascii_lowercase());
            } else if line.trim() == "uciok" {
                break;
            }
        }
        engine.send("isready")?;
        engine.wait_for("readyok", HANDSHAKE)?;
        Ok(engine)
    }

    fn stop(&mut self) {
        if let Some(mut engine) = self.running.take() {
            let _ = engine.send("quit");
            let _ = engine.child.kill();
            let _ = engine.child.wait();
        }
    }
}

/// An external engine's judgement of a position, from the side to move's view: centipawns,
/// or a mate in so many moves (negative: the side to move is mated), and its best move (UCI).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExternalEval {
    pub cp: Option<i32>,
    pub mate: Option<i32>,
    pub best: Option<String>,
}

/// The exact score of an `info` line (`score cp 31`, `score mate -2`); none for a bound.
fn score_of(line: &str) -> Option<(Option<i32>, Option<i32>)> {
    let mut words = line
        .split_whitespace()
        .skip_while(|w| *w != "score")
        .skip(1);
    let kind = words.next()?;
    let value: i32 = words.next()?.parse().ok()?;
    if matches!(words.next(), Some("lowerbound" | "upperbound")) {
        return None;
    }
    match kind {
        "cp" => Some((Some(value), None)),
        "mate" => Some((None, Some(value))),
        _ => None,
    }
}

impl Drop for External {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Running {
    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("the engine stopped reading: {e}"))
    }

    fn next_line(&mut self, deadline: Instant) -> Result<String, String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err("the engine did not answer in time".into()),
            Err(RecvTimeoutError::Disconnected) => Err("the engine exited".into()),
        }
    }

    /// Reads lines until one starts with `word`; returns it.
    fn wait_for(&mut self, word: &str, within: Duration) -> Result<String, String> {
        let deadline = Instant::now() + within;
        loop {
            let line = self.next_line(deadline)?;
            if line.split_whitespace().next() == Some(word) {
                return Ok(line);
            }
        }
    }

    fn has(&self, option: &str) -> bool {
        self.options.iter().any(|o| o == option)
    }

    /// Sets the engine's strength for `level`: `UCI_Elo` when it has it, else `Skill Level`,
    /// else our own `Level` option; full strength at level 8.
    fn set_level(&mut self, level: Level) -> Result<(), String> {
        let n = level.get();
        if self.has("uci_limitstrength") && self.has("uci_elo") {
            if level == Level::MAX {
                self.send("setoption name UCI_LimitStrength value false")?;
            } else {
                self.send("setoption name UCI_LimitStrength value true")?;
                // The same strength as our own level, as far as the engine's scale goes down.
                let elo = level.rating().max(ELO_FLOOR);
                self.send(&format!("setoption name UCI_Elo value {elo}"))?;
            }
        } else if self.has("skill level") {
            let skill = (u32::from(n - 1) * 20) / 7;
            self.send(&format!("setoption name Skill Level value {skill}"))?;
        } else if self.has("level") {
            self.send(&format!("setoption name Level value {n}"))?;
        }
        self.send("isready")?;
        self.wait_for("readyok", HANDSHAKE)?;
        self.level = Some(level);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_read_from_info_lines() {
        let line = "info depth 12 seldepth 15 multipv 1 score cp -31 nodes 20345 pv e7e5 g1f3";
        assert_eq!(score_of(line), Some((Some(-31), None)));
        assert_eq!(
            score_of("info depth 3 score mate 2 pv a1a8"),
            Some((None, Some(2)))
        );
        assert_eq!(
            score_of("info depth 9 score cp 40 lowerbound nodes 5"),
            None
        );
        assert_eq!(score_of("info string NNUE evaluation enabled"), None);
    }
}
