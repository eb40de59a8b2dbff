//! Computer analysis of a finished game, as lichess judges one: each position evaluated at a
//! fixed budget; each move judged by how much it lowered the mover's winning chances
//! (lichess's thresholds: 0.1 an inaccuracy, 0.2 a mistake, 0.3 a blunder, written with the
//! seeds' symbols `?!`, `?`, `??`); per side the counts, the average centipawn loss and
//! lichess's accuracy percentage (https://lichess.org/page/accuracy). Centipawns are taken
//! within ±1000, and a mate counts as ±1000, as lichess takes them for winning chances.

use rookery_core::{ByColor, Color, Move, Position};

use crate::search::{Evaluation, Limits, MATE, Search};

/// Scores at least this far from zero are mates.
const MATE_SCORES: i32 = MATE - 1000;
/// Centipawns count within ±this.
pub const CP_CEILING: i32 = 1000;

/// An evaluation from White's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// A forced mate in this many moves: positive when White mates, negative when Black does.
    Mate(i32),
}

/// A position's evaluation and the engine's best move there. `score` is `None` in a
/// position where the game is over (checkmate, stalemate): there is nothing to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PositionEval {
    pub score: Option<Score>,
    pub best: Option<Move>,
}

/// Evaluates `pos` (reached after the positions hashed in `history`) with the network
/// evaluation, searching `nodes` nodes.
pub fn evaluate(search: &mut Search, pos: &Position, history: &[u64], nodes: u64) -> PositionEval {
    if pos.legal_moves().is_empty() {
        return PositionEval {
            score: None,
            best: None,
        };
    }
    let limits = Limits {
        nodes: Some(nodes),
        evaluation: Evaluation::Network,
        ..Limits::default()
    };
    let found = search.run(pos, history, &limits);
    PositionEval {
        score: Some(Score::of_search(found.score, pos.turn())),
        best: found.best,
    }
}

/// One search a [`GameAnalyser`] asks for: the position at `index` (0 is the start), searched
/// `nodes` nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    pub index: usize,
    pub nodes: u64,
}

/// A whole game's analysis, one search at a time, so that its caller decides where each
/// search runs (the server: a blocking thread holding one of the bots' permits) and with what
/// engine. It asks for searches ([`GameAnalyser::next_search`]), is given what each found
/// ([`GameAnalyser::record`]), and in the end gives every position's evaluation. Today it
/// asks for one search of each position, in the game's order, at the same budget.
#[derive(Debug, Clone)]
pub struct GameAnalyser {
    /// Every position of the game, the start first.
    positions: Vec<Position>,
    /// The hash of each position: position `i`'s history is `keys[..i]`.
    keys: Vec<u64>,
    /// What each position's search found.
    evals: Vec<Option<PositionEval>>,
    /// The searches still to run, the next first.
    queue: std::collections::VecDeque<Request>,
}

impl GameAnalyser {
    /// The analysis of the game played from `start` by `moves` (legal), at a budget of
    /// `nodes` nodes a position.
    pub fn new(start: Position, moves: &[Move], nodes: u64) -> GameAnalyser {
        let mut positions = Vec::with_capacity(moves.len() + 1);
        let mut pos = start;
        positions.push(pos);
        for &m in moves {
            pos.play_unchecked(m);
            positions.push(pos);
        }
        let keys = positions.iter().map(Position::zobrist).collect();
        let nodes = nodes.max(1);
        GameAnalyser {
            evals: vec![None; positions.len()],
            queue: (0..positions.len())
                .map(|index| Request { index, nodes })
                .collect(),
            positions,
            keys,
        }
    }

    /// The next search to run, or `None` when the analysis is complete.
    pub fn next_search(&self) -> Option<Request> {
        self.queue.front().copied()
    }

    /// The position a request searches.
    pub fn position(&self, index: usize) -> &Position {
        &self.positions[index]
    }

    /// The hashes of the positions before `index` (for repetitions).
    pub fn history(&self, index: usize) -> &[u64] {
        &self.keys[..index]
    }

    /// Records what the search of `request` (the one [`GameAnalyser::next_search`] gave) found.
    pub fn record(&mut self, request: Request, eval: PositionEval) {
        if self.queue.front() == Some(&request) {
            self.queue.pop_front();
        }
        self.evals[request.index] = Some(eval);
    }

    /// Searches done, and searches in all.
    pub fn progress(&self) -> (usize, usize) {
        let all = self.positions.len();
        (all - self.queue.len(), all)
    }

    /// Every position's evaluation, the start's first (a position never searched has none).
    pub fn evals(&self) -> Vec<PositionEval> {
        self.evals
            .iter()
            .map(|e| {
                e.unwrap_or(PositionEval {
                    score: None,
                    best: None,
                })
            })
            .collect()
    }
}

/// Analyses a whole game with the built-in engine: [`GameAnalyser`] run to the end on one
/// search.
pub fn analyse_game(
    search: &mut Search,
    start: Position,
    moves: &[Move],
    nodes: u64,
) -> Vec<PositionEval> {
    let mut analyser = GameAnalyser::new(start, moves, nodes);
    while let Some(request) = analyser.next_search() {
        let pos = *analyser.position(request.index);
        let eval = evaluate(search, &pos, analyser.history(request.index), request.nodes);
        analyser.record(request, eval);
    }
    analyser.evals()
}

impl Score {
    /// A search's score (for `turn`, the side to move: centipawns, or `MATE - plies`) from
    /// White's side, a mate counted in moves.
    pub fn of_search(own: i32, turn: Color) -> Score {
        let for_white = if turn == Color::White { 1 } else { -1 };
        if own.abs() >= MATE_SCORES {
            let moves = (MATE - own.abs() + 1) / 2;
            Score::Mate(own.signum() * moves.max(1) * for_white)
        } else {
            Score::Cp(own * for_white)
        }
    }
}

impl Score {
    /// The score from `side`'s point of view.
    pub fn for_side(self, side: Color) -> Score {
        match (self, side) {
            (s, Color::White) => s,
            (Score::Cp(cp), Color::Black) => Score::Cp(-cp),
            (Score::Mate(n), Color::Black) => Score::Mate(-n),
        }
    }

    /// Centipawns as winning chances and accuracy take them: a mate as ±1000 (lichess's
    /// `forceAsCp`, then its ceiling).
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(cp) => cp.clamp(-CP_CEILING, CP_CEILING),
            Score::Mate(n) => CP_CEILING * n.signum(),
        }
    }
}

/// White's centipawns as winning chances are taken from them: within ±1000, a mate as ±1000;
/// a finished game's position as its result (`turn`: the side to move there, mated if
/// `checkmate`).
pub fn judged_cp(eval: &PositionEval, turn: Color, checkmate: bool) -> i32 {
    match eval.score {
        Some(Score::Cp(cp)) => cp.clamp(-CP_CEILING, CP_CEILING),
        Some(Score::Mate(n)) => CP_CEILING * n.signum(),
        None if checkmate => match turn {
            Color::White => -CP_CEILING,
            Color::Black => CP_CEILING,
        },
        None => 0,
    }
}

/// Winning chances in [-1, 1] of `cp` (lichess's curve, fitted to real games).
pub fn winning_chances(cp: i32) -> f64 {
    let cp = f64::from(cp.clamp(-CP_CEILING, CP_CEILING));
    2.0 / (1.0 + (-0.003_682_08 * cp).exp()) - 1.0
}

/// Win% in [0, 100]: `50 + 50 x winning chances`.
pub fn win_percent(cp: i32) -> f64 {
    50.0 + 50.0 * winning_chances(cp)
}

/// What a move was, by the drop in the mover's winning chances.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// The seeds' symbol: `?!`, `?`, `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// The PGN NAG: `$6`, `$2`, `$4`.
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// The English word, as lichess writes it in comments.
    pub fn word(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

/// The judgement of a move that took the mover from `before` to `after` (centipawns from the
/// mover's side): a drop in winning chances of 0.3 is a blunder, 0.2 a mistake, 0.1 an
/// inaccuracy (lichess's thresholds).
pub fn judge(before: i32, after: i32) -> Option<Judgement> {
    let drop = winning_chances(before) - winning_chances(after);
    if drop >= 0.3 {
        Some(Judgement::Blunder)
    } else if drop >= 0.2 {
        Some(Judgement::Mistake)
    } else if drop >= 0.1 {
        Some(Judgement::Inaccuracy)
    } else {
        None
    }
}

/// The judgement of a move by `mover` from the evaluations of the positions before and after
/// it (White's side), exactly as lichess advises (its `CpAdvice`, then `MateAdvice`):
/// - both in centipawns: the drop in winning chances ([`judge`]);
/// - a mate against the mover appears ("Checkmate is now unavoidable"): a blunder, a mistake
///   if the mover was already below -700, an inaccuracy below -999;
/// - the mover's own mate is gone ("Lost forced checkmate sequence"): a blunder, a mistake if
///   still above +700, an inaccuracy above +999 (a mate for the opponent counts as 0);
/// - anything else between mates (a slower mate, a mate against the mover still there) and a
///   position with no evaluation (the game is over): no judgement.
pub fn advice(before: Option<Score>, after: Option<Score>, mover: Color) -> Option<Judgement> {
    let (before, after) = (before?.for_side(mover), after?.for_side(mover));
    let by = |inaccuracy: bool, mistake: bool| {
        Some(if inaccuracy {
            Judgement::Inaccuracy
        } else if mistake {
            Judgement::Mistake
        } else {
            Judgement::Blunder
        })
    };
    match (before, after) {
        (Score::Cp(b), Score::Cp(a)) => judge(b, a),
        (Score::Cp(b), Score::Mate(n)) if n < 0 => by(b < -999, b < -700),
        (Score::Mate(p), Score::Cp(a)) if p > 0 => by(a > 999, a > 700),
        (Score::Mate(p), Score::Mate(n)) if p > 0 && n < 0 => Some(Judgement::Blunder),
        _ => None,
    }
}

/// A move's accuracy from the mover's Win% before and after it (lichess's curve, with its
/// one-point allowance for an imperfect analysis), within [0, 100].
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let raw = 103.166_8 * (-0.043_54 * (before - after)).exp() - 3.166_9;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// One side's figures over a game.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SideSummary {
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// Average centipawn loss (each move's loss within the ±1000 ceiling).
    pub acpl: u32,
    /// Accuracy in percent; `None` for a side that made no move.
    pub accuracy: Option<f64>,
}

/// A game's review: each ply's judgement and each side's summary.
#[derive(Debug, Clone, PartialEq)]
pub struct Review {
    pub judgements: Vec<Option<Judgement>>,
    pub sides: ByColor<SideSummary>,
}

fn std_dev(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / xs.len() as f64).sqrt()
}

/// Reviews a game from the evaluations of every position, the start's first (White's side;
/// `None` where the game is over); `first` is the side that made the first move. Each move is
/// judged by [`advice`], unless `engine_moves[i]` says the move of ply `i` was the engine's
/// own choice there (lichess gives advice only where its analysis has a better line: what
/// the engine itself would play is not an error, whatever two searches' noise says); a
/// missing entry counts as not. The average centipawn loss and the accuracy are taken over the
/// positions that have an evaluation (as lichess's, whose analysis has none for a finished
/// game's last position), a mate as ±1000. A side's accuracy is, as lichess computes it, the
/// mean of two means of its moves' accuracies: one weighted by how much the game swung around
/// each move (the standard deviation of Win% over a window of 2 to 8 positions, within
/// [0.5, 12]), and the harmonic one.
pub fn review(first: Color, scores: &[Option<Score>], engine_moves: &[bool]) -> Review {
    let mover = |i: usize| if i % 2 == 0 { first } else { !first };
    let judgements: Vec<Option<Judgement>> = scores
        .windows(2)
        .enumerate()
        .map(|(i, w)| {
            if engine_moves.get(i) == Some(&true) {
                None
            } else {
                advice(w[0], w[1], mover(i))
            }
        })
        .collect();
    let mut sides = ByColor::<SideSummary>::default();
    for (i, judgement) in judgements.iter().enumerate() {
        let side = sides.get_mut(mover(i));
        match judgement {
            Some(Judgement::Inaccuracy) => side.inaccuracies += 1,
            Some(Judgement::Mistake) => side.mistakes += 1,
            Some(Judgement::Blunder) => side.blunders += 1,
            None => {}
        }
    }
    let cps: Vec<i32> = scores.iter().map_while(|s| s.map(Score::as_cp)).collect();
    let plies = cps.len().saturating_sub(1);
    let wins: Vec<f64> = cps.iter().map(|&cp| win_percent(cp)).collect();
    let window = (plies / 10).clamp(2, 8).min(wins.len().max(1));
    // One weight per move: the windows ending at the first positions are the first full one.
    let mut per_side: ByColor<(Vec<f64>, Vec<f64>, i64)> = ByColor::default();
    for i in 0..plies {
        let end = (i + 2).max(window).min(wins.len());
        let start = end.saturating_sub(window);
        let weight = std_dev(&wins[start..end]).clamp(0.5, 12.0);
        let sign = if mover(i) == Color::White { 1 } else { -1 };
        let (before, after) = (cps[i] * sign, cps[i + 1] * sign);
        let accuracy = move_accuracy(win_percent(before), win_percent(after));
        let (accs, ws, loss) = per_side.get_mut(mover(i));
        accs.push(accuracy);
        ws.push(weight);
        *loss += i64::from((before - after).max(0));
    }
    for color in [Color::White, Color::Black] {
        let (accs, ws, loss) = per_side.get(color);
        let side = sides.get_mut(color);
        if accs.is_empty() {
            continue;
        }
        side.acpl = (*loss as f64 / accs.len() as f64).round() as u32;
        let weighted =
            accs.iter().zip(ws).map(|(a, w)| a * w).sum::<f64>() / ws.iter().sum::<f64>();
        let harmonic = accs.len() as f64 / accs.iter().map(|a| 1.0 / a.max(0.001)).sum::<f64>();
        side.accuracy = Some((weighted + harmonic) / 2.0);
    }
    Review { judgements, sides }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_percent_is_lichess_curve() {
        assert!((win_percent(0) - 50.0).abs() < 1e-9);
        // +100 cp: 59.10%; +300: 75.11% (python: 50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1)).
        assert!(
            (win_percent(100) - 59.10).abs() < 0.01,
            "{}",
            win_percent(100)
        );
        assert!(
            (win_percent(300) - 75.11).abs() < 0.01,
            "{}",
            win_percent(300)
        );
        assert!((win_percent(-300) + win_percent(300) - 100.0).abs() < 1e-9);
        // Past the ceiling nothing changes.
        assert_eq!(win_percent(5000), win_percent(1000));
    }

    /// The accuracy curve was fitted by lichess to these points (Win% lost -> accuracy,
    /// published beside its source): 0 -> 100, 5 -> 75, 10 -> 60, 20 -> 42, 40 -> 20,
    /// 60 -> 5, 80 -> 0. The fit passes within 6 points of each; losing nothing is 100.
    #[test]
    fn move_accuracy_follows_lichess_published_points() {
        for (lost, expected) in [
            (0.0, 100.0),
            (5.0, 75.0),
            (10.0, 60.0),
            (20.0, 42.0),
            (40.0, 20.0),
            (60.0, 5.0),
            (80.0, 0.0),
        ] {
            let got = move_accuracy(60.0, 60.0 - lost);
            assert!((got - expected).abs() <= 6.0, "{lost}: {got} vs {expected}");
        }
        assert_eq!(move_accuracy(40.0, 55.0), 100.0, "a gain is perfect");
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }

    #[test]
    fn thresholds_are_lichess_winning_chance_drops() {
        assert_eq!(judge(0, -20), None);
        assert_eq!(judge(0, -60), Some(Judgement::Inaccuracy));
        assert_eq!(judge(0, -115), Some(Judgement::Mistake));
        assert_eq!(judge(0, -180), Some(Judgement::Blunder));
        // The same centipawns matter less when the game is decided.
        assert_eq!(judge(900, 700), None);
        // Hanging a queen from equality: a blunder.
        assert_eq!(judge(0, -900), Some(Judgement::Blunder));
        assert_eq!(Judgement::Blunder.symbol(), "??");
        assert_eq!(Judgement::Mistake.nag(), 2);
    }

    /// Lichess's `MateAdvice`, case by case (its `MateSequence` and thresholds), from both
    /// sides; its `CpAdvice` for two centipawn scores.
    #[test]
    fn advice_follows_lichess_mate_rules() {
        use Judgement::*;
        let (cp, mate) = (|c| Some(Score::Cp(c)), |n| Some(Score::Mate(n)));
        // White lets Black mate: a blunder from -700 up, a mistake below, an inaccuracy below
        // -999.
        assert_eq!(advice(cp(-200), mate(-5), Color::White), Some(Blunder));
        assert_eq!(advice(cp(-700), mate(-5), Color::White), Some(Blunder));
        assert_eq!(advice(cp(-701), mate(-5), Color::White), Some(Mistake));
        assert_eq!(advice(cp(-1000), mate(-5), Color::White), Some(Inaccuracy));
        // The same for Black: the scores are White's.
        assert_eq!(advice(cp(200), mate(5), Color::Black), Some(Blunder));
        assert_eq!(advice(cp(850), mate(5), Color::Black), Some(Mistake));
        // White had a mate and lost it: judged by what is left.
        assert_eq!(advice(mate(3), cp(400), Color::White), Some(Blunder));
        assert_eq!(advice(mate(3), cp(800), Color::White), Some(Mistake));
        assert_eq!(advice(mate(3), cp(1200), Color::White), Some(Inaccuracy));
        assert_eq!(advice(mate(3), mate(-2), Color::White), Some(Blunder));
        // A slower mate, a mate still against the mover, a mate found: no advice.
        assert_eq!(advice(mate(2), mate(6), Color::White), None);
        assert_eq!(advice(mate(-2), mate(-1), Color::White), None);
        assert_eq!(advice(cp(50), mate(4), Color::White), None);
        // Two centipawn scores: the drop in winning chances; a game over: nothing.
        assert_eq!(advice(cp(0), cp(-180), Color::White), Some(Blunder));
        assert_eq!(advice(cp(0), cp(180), Color::Black), Some(Blunder));
        assert_eq!(advice(cp(0), None, Color::White), None);
    }

    #[test]
    fn the_analyser_asks_for_every_position_with_its_history() {
        let start = Position::new();
        let e4 = start.parse_san("e4").unwrap();
        let e5 = start.after(e4).parse_san("e5").unwrap();
        let mut analyser = GameAnalyser::new(start, &[e4, e5], 1000);
        let mut asked = Vec::new();
        while let Some(request) = analyser.next_search() {
            let pos = *analyser.position(request.index);
            assert_eq!(analyser.history(request.index).len(), request.index);
            if request.index > 0 {
                assert_eq!(
                    analyser.history(request.index).last(),
                    Some(&analyser.position(request.index - 1).zobrist())
                );
            }
            asked.push((request.index, request.nodes, pos.turn()));
            let score = Some(Score::Cp(request.index as i32));
            analyser.record(request, PositionEval { score, best: None });
            assert_eq!(analyser.progress().0, asked.len());
        }
        assert_eq!(
            asked,
            [
                (0, 1000, Color::White),
                (1, 1000, Color::Black),
                (2, 1000, Color::White)
            ]
        );
        let scores: Vec<_> = analyser.evals().iter().map(|e| e.score).collect();
        assert_eq!(
            scores,
            [Some(Score::Cp(0)), Some(Score::Cp(1)), Some(Score::Cp(2))]
        );
    }

    #[test]
    fn the_engines_own_move_is_never_an_error() {
        let scores = [Some(Score::Cp(20)), Some(Score::Cp(-300))];
        assert_eq!(
            review(Color::White, &scores, &[]).judgements,
            [Some(Judgement::Blunder)]
        );
        assert_eq!(review(Color::White, &scores, &[true]).judgements, [None]);
    }

    #[test]
    fn a_review_counts_each_side() {
        // White keeps the balance, then drops 900 on move 3; Black plays on.
        let cps = [20, 25, 20, 30, 25, -880, -870, -880];
        let scores: Vec<Option<Score>> = cps.iter().map(|&cp| Some(Score::Cp(cp))).collect();
        let r = review(Color::White, &scores, &[]);
        assert_eq!(r.judgements.len(), 7);
        assert_eq!(r.judgements[4], Some(Judgement::Blunder));
        assert_eq!(r.sides.white.blunders, 1);
        assert_eq!(r.sides.black.blunders + r.sides.black.mistakes, 0);
        assert!(
            r.sides.white.acpl > 200 && r.sides.black.acpl < 20,
            "{:?}",
            r.sides
        );
        let (w, b) = (
            r.sides.white.accuracy.unwrap(),
            r.sides.black.accuracy.unwrap(),
        );
        assert!(w < 70.0 && b > 90.0, "{w} {b}");
    }
}
