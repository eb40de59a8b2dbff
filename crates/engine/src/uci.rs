//! The UCI front-end (`rookery-engine`): speaks the Universal Chess Interface on any input and
//! output, so a GUI, python-chess or a match runner can play the engine. The search runs on its
//! own thread, so `stop`, `isready` and `quit` are answered while it thinks.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use rookery_core::{Position, UciMove};

use crate::level::{Level, Rng, budget};
use crate::search::{Evaluation, Found, Limits, MATE, Search};

const NAME: &str = concat!("Rookery ", env!("CARGO_PKG_VERSION"));

/// Lines written by the engine and its search thread.
type Out<W> = Arc<Mutex<W>>;

fn say<W: Write>(out: &Out<W>, line: &str) {
    let mut w = out
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    // A closed output means the GUI went away; there is nobody to tell.
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

struct Running {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Search>,
    /// Searching until told to stop.
    infinite: bool,
}

/// The engine's state between commands.
struct Engine<W: Write + Send + 'static> {
    out: Out<W>,
    position: Position,
    /// Zobrist keys of the positions before `position`.
    history: Vec<u64>,
    level: Level,
    evaluation: Evaluation,
    hash_mib: usize,
    search: Option<Search>,
    running: Option<Running>,
    rng: Rng,
}

/// Serves UCI on `input`/`output` until `quit` or the end of the input.
pub fn serve<R: BufRead, W: Write + Send + 'static>(input: R, output: W) {
    let mut engine = Engine {
        out: Arc::new(Mutex::new(output)),
        position: Position::new(),
        history: Vec::new(),
        level: Level::MAX,
        evaluation: Level::MAX.evaluation(),
        hash_mib: 16,
        search: None,
        running: None,
        rng: Rng::new(0x5eed),
    };
    for line in input.lines() {
        let Ok(line) = line else { break };
        if !engine.command(line.trim()) {
            engine.finish();
            return;
        }
    }
    // The input ended: a search with limits may finish and report its move.
    engine.wait();
}

impl<W: Write + Send + 'static> Engine<W> {
    /// Handles one command; false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("uci") => {
                say(&self.out, &format!("id name {NAME}"));
                say(&self.out, "id author the Rookery developers");
                say(
                    &self.out,
                    "option name Level type spin default 8 min 1 max 8",
                );
                say(
                    &self.out,
                    "option name Hash type spin default 16 min 1 max 4096",
                );
                say(
                    &self.out,
                    "option name Evaluation type combo default network var classic var network",
                );
                say(&self.out, "uciok");
            }
            Some("isready") => say(&self.out, "readyok"),
            Some("ucinewgame") => {
                self.finish();
                if let Some(s) = &mut self.search {
                    s.clear();
                }
            }
            Some("setoption") => self.set_option(line),
            Some("position") => {
                self.finish();
                if let Err(e) = self.set_position(line) {
                    say(&self.out, &format!("info string {e}"));
                }
            }
            Some("go") => {
                self.finish();
                self.go(line);
            }
            Some("stop") => self.finish(),
            Some("quit") => return false,
            Some(other) => say(&self.out, &format!("info string unknown command {other}")),
            None => {}
        }
        true
    }

    /// Stops a running search (it prints its `bestmove`) and takes the searcher back.
    fn finish(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop.store(true, Ordering::Relaxed);
            if let Ok(search) = running.thread.join() {
                self.search = Some(search);
            }
        }
    }

    fn set_option(&mut self, line: &str) {
        // setoption name <id> [value <x>]
        let lower = line.to_ascii_lowercase();
        let name = lower
            .split_once("name ")
            .map(|(_, r)| r.split(" value").next().unwrap_or("").trim().to_owned())
            .unwrap_or_default();
        let value = lower
            .split_once(" value ")
            .map(|(_, v)| v.trim().to_owned())
            .unwrap_or_default();
        match name.as_str() {
            "level" => match value.parse::<u8>().ok().and_then(Level::new) {
                Some(level) => self.level = level,
                None => say(&self.out, "info string Level must be 1 to 8"),
            },
            "hash" => match value.parse::<usize>() {
                Ok(mib) if (1..=4096).contains(&mib) => {
                    self.hash_mib = mib;
                    self.search = None;
                }
                _ => say(&self.out, "info string Hash must be 1 to 4096 (MiB)"),
            },
            // The level's own choice applies below level 8.
            "evaluation" => match value.as_str() {
                "classic" => self.evaluation = Evaluation::Classic,
                "network" => self.evaluation = Evaluation::Network,
                _ => say(
                    &self.out,
                    "info string Evaluation must be classic or network",
                ),
            },
            _ => say(&self.out, &format!("info string unknown option {name}")),
        }
    }

    fn set_position(&mut self, line: &str) -> Result<(), String> {
        let rest = line["position".len()..].trim();
        let (setup, moves) = match rest.split_once("moves") {
            Some((s, m)) => (s.trim(), m.split_whitespace().collect::<Vec<_>>()),
            None => (rest, Vec::new()),
        };
        let mut pos = if setup == "startpos" {
            Position::new()
        } else if let Some(fen) = setup.strip_prefix("fen") {
            Position::from_fen(fen.trim()).map_err(|e| format!("bad FEN: {e}"))?
        } else {
            return Err(format!("position: expected startpos or fen, got {setup:?}"));
        };
        let mut history = Vec::with_capacity(moves.len());
        for text in moves {
            let m = text
                .parse::<UciMove>()
                .map_err(|e| format!("move {text}: {e}"))?
                .to_move(&pos)
                .map_err(|e| format!("move {text}: {e}"))?;
            history.push(pos.zobrist());
            pos.play_unchecked(m);
        }
        self.position = pos;
        self.history = history;
        Ok(())
    }

    fn go(&mut self, line: &str) {
        let mut words = line.split_whitespace().skip(1);
        let mut limits = Limits {
            evaluation: self.evaluation,
            ..Limits::default()
        };
        let (mut wtime, mut btime, mut winc, mut binc, mut togo) = (None, None, 0, 0, None);
        let mut infinite = false;
        while let Some(word) = words.next() {
            let mut number = || words.next().and_then(|v| v.parse::<i64>().ok());
            match word {
                "wtime" => wtime = number(),
                "btime" => btime = number(),
                "winc" => winc = number().unwrap_or(0),
                "binc" => binc = number().unwrap_or(0),
                "movestogo" => togo = number(),
                "movetime" => limits.time = number().map(ms_duration),
                "depth" => limits.depth = number().map(|d| d.clamp(1, 100) as u32),
                "nodes" => limits.nodes = number().map(|n| n.max(1) as u64),
                "infinite" => infinite = true,
                _ => {}
            }
        }
        let white = self.position.turn() == rookery_core::Color::White;
        let (left, inc) = if white { (wtime, winc) } else { (btime, binc) };
        if limits.time.is_none() && !infinite {
            if let Some(left) = left {
                let togo = togo.and_then(|n| u32::try_from(n).ok());
                let b = budget(ms_duration(left), ms_duration(inc), togo);
                let on_clock = Limits::budget(b);
                limits.time = on_clock.time;
                limits.soft_time = on_clock.soft_time;
            }
        }
        let infinite =
            infinite || (limits.depth.is_none() && limits.nodes.is_none() && limits.time.is_none());
        let stop = Arc::new(AtomicBool::new(false));
        limits.stop = Some(stop.clone());
        let mut search = self
            .search
            .take()
            .unwrap_or_else(|| Search::new(self.hash_mib));
        let (out, pos, history, level) = (
            self.out.clone(),
            self.position,
            self.history.clone(),
            self.level,
        );
        let mut rng = Rng::new(self.rng.next_u64());
        let thread = std::thread::spawn(move || {
            let best = if level == Level::MAX {
                let found = search.run_reporting(&pos, &history, &limits, &mut |f| {
                    say(&out, &info_line(f));
                });
                found.best
            } else {
                level.choose_within(&mut search, &pos, &history, &limits, &mut rng)
            };
            match best {
                Some(m) => say(&out, &format!("bestmove {}", m.to_uci())),
                None => say(&out, "bestmove 0000"),
            }
            search
        });
        self.running = Some(Running {
            stop,
            thread,
            infinite,
        });
    }

    /// Waits for the search to end by itself (end of input); one without limits is stopped.
    fn wait(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.infinite) {
            self.finish();
        }
        if let Some(running) = self.running.take() {
            if let Ok(search) = running.thread.join() {
                self.search = Some(search);
            }
        }
    }
}

fn ms_duration(ms: i64) -> Duration {
    Duration::from_millis(ms.max(0) as u64)
}

fn info_line(f: &Found) -> String {
    let score = if f.score.abs() >= MATE - 1000 {
        let plies = MATE - f.score.abs();
        let moves = (plies + 1) / 2;
        format!("mate {}", if f.score > 0 { moves } else { -moves })
    } else {
        format!("cp {}", f.score)
    };
    let ms = f.elapsed.as_millis().max(1);
    let pv: Vec<String> = f.pv.iter().map(|m| m.to_uci().to_string()).collect();
    format!(
        "info depth {} score {score} nodes {} nps {} time {ms} pv {}",
        f.depth,
        f.nodes,
        u128::from(f.nodes) * 1000 / ms,
        pv.join(" ")
    )
}

impl<W: Write + Send + 'static> Drop for Engine<W> {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn session(input: &str) -> Vec<String> {
        let out = Shared::default();
        serve(input.as_bytes(), out.clone());
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn handshake_options_and_a_search_to_a_depth() {
        let lines = session(
            "uci\nsetoption name Hash value 4\nisready\nucinewgame\n\
             position startpos moves e2e4 e7e5\ngo depth 4\n",
        );
        assert_eq!(lines[0], format!("id name {NAME}"));
        assert!(lines.contains(&"uciok".to_owned()) && lines.contains(&"readyok".to_owned()));
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 4 score cp "))
        );
        let best = lines.last().unwrap();
        assert!(best.starts_with("bestmove "), "{lines:?}");
        // The move is legal after 1. e4 e5.
        let mut pos = Position::new();
        for m in ["e2e4", "e7e5"] {
            pos.play(m.parse::<UciMove>().unwrap().to_move(&pos).unwrap())
                .unwrap();
        }
        let m: UciMove = best["bestmove ".len()..].parse().unwrap();
        assert!(m.to_move(&pos).is_ok(), "{best}");
    }

    #[test]
    fn mates_are_reported_as_mate_and_bad_input_is_named() {
        let lines = session(
            "position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\ngo depth 3\n\
             position fen not a fen\nposition startpos moves e2e5\nsetoption name Level value 9\nfly\n",
        );
        assert!(
            lines.iter().any(|l| l.contains("score mate 1")),
            "{lines:?}"
        );
        assert!(lines.contains(&"bestmove a1a8".to_owned()), "{lines:?}");
        assert!(lines.iter().any(|l| l.starts_with("info string bad FEN")));
        assert!(lines.iter().any(|l| l.starts_with("info string move e2e5")));
        assert!(
            lines
                .iter()
                .any(|l| l == "info string Level must be 1 to 8")
        );
        assert!(lines.iter().any(|l| l == "info string unknown command fly"));
    }

    /// Each evaluation is chosen by name, still mates and scores the start near even; the
    /// network is the default (level 8's); an unknown value is named and changes nothing.
    #[test]
    fn the_evaluation_option() {
        // The depth 4 line of a search from the start, as (score, nodes). A new `position`
        // stops a running search, so each search ends its own session (whose end waits).
        let start = |setup: &str| -> (i32, String) {
            let lines = session(&format!("{setup}position startpos\ngo depth 4\n"));
            let line = lines
                .iter()
                .find(|l| l.starts_with("info depth 4 score cp "))
                .unwrap_or_else(|| panic!("a depth 4 line: {lines:?}"));
            let words: Vec<&str> = line.split(' ').collect();
            (words[5].parse().unwrap(), words[7].to_owned())
        };
        let mut nodes = Vec::new();
        for value in ["network", "classic"] {
            let (cp, n) = start(&format!("setoption name Evaluation value {value}\n"));
            assert!(cp.abs() < 100, "{value}: {cp}");
            nodes.push(n);
            let lines = session(&format!(
                "setoption name Evaluation value {value}\n\
                 position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\ngo depth 3\n\
                 setoption name Evaluation value oracle\n"
            ));
            assert!(lines.contains(&"bestmove a1a8".to_owned()), "{lines:?}");
            assert!(
                lines
                    .iter()
                    .any(|l| l == "info string Evaluation must be classic or network"),
                "{lines:?}"
            );
        }
        // The two evaluations search differently, and the default is the network.
        assert_ne!(nodes[0], nodes[1]);
        assert_eq!(start("").1, nodes[0]);
        assert!(
            session("uci\n")
                .iter()
                .any(|l| l.starts_with("option name Evaluation type combo default network"))
        );
    }

    #[test]
    fn an_infinite_search_answers_isready_and_stops_on_stop() {
        let lines = session("position startpos\ngo infinite\nisready\nstop\nquit\n");
        let ready = lines.iter().position(|l| l == "readyok").unwrap();
        let best = lines
            .iter()
            .position(|l| l.starts_with("bestmove "))
            .unwrap();
        assert!(ready < best, "{lines:?}");
        // A level below the top plays too, and a clock sets a budget.
        let lines =
            session("setoption name Level value 2\nposition startpos\ngo wtime 1000 btime 1000\n");
        assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    }
}
