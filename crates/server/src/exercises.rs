//! Learning from one's own mistakes (docs/ANALYSIS.md, lichess's "learn from your mistakes"):
//! once a game is analysed, each mistake and blunder of a side is an exercise: from the
//! position before it, find a better move. The engine judges a move tried: its own choice
//! there is best; another is good when, searched at the analysis budget, it loses less than
//! an inaccuracy's worth from the position's evaluation (lichess's thresholds, by
//! `analysis::advice`); the move played in the game is the mistake again.

use rookery_core::game::Game;
use rookery_core::{Color, Move, Position};
use rookery_engine::analysis::{Judgement, PositionEval, Score, advice};

use crate::analysis::GameAnalysis;

/// One exercise: the mistake of ply `ply` (the game's first move is ply 1).
#[derive(Debug, Clone)]
pub(crate) struct Exercise {
    pub(crate) ply: usize,
    /// The position before the mistake (its side to move finds a better move).
    pub(crate) before: Position,
    /// The hashes of the positions before it (for repetitions).
    pub(crate) history: Vec<u64>,
    pub(crate) played: Move,
    /// The engine's move there, the solution (none when the analysis has none).
    pub(crate) best: Option<Move>,
    pub(crate) judgement: Judgement,
    /// The evaluation of `before`, White's side.
    pub(crate) eval: Option<Score>,
}

/// How a move tried at an exercise is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The engine's own move.
    Best,
    /// Another move that loses less than an inaccuracy.
    Good,
    /// The mistake of the game again.
    Played,
    /// A move that loses an inaccuracy's worth or more.
    Worse,
}

impl Verdict {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Verdict::Best => "best",
            Verdict::Good => "good",
            Verdict::Played => "played",
            Verdict::Worse => "worse",
        }
    }

    /// Whether the exercise is solved by it.
    pub(crate) fn solves(self) -> bool {
        matches!(self, Verdict::Best | Verdict::Good)
    }
}

/// The exercises of `color` in `game`: its mistakes and blunders, in the order played.
pub(crate) fn of_game(game: &Game, analysis: &GameAnalysis, color: Color) -> Vec<Exercise> {
    let mut out = Vec::new();
    let mut pos = *game.start();
    let mut history = Vec::with_capacity(game.moves().len());
    for (i, played) in game.moves().iter().enumerate() {
        let judgement = analysis.review.judgements.get(i).copied().flatten();
        if pos.turn() == color
            && let Some(judgement @ (Judgement::Mistake | Judgement::Blunder)) = judgement
        {
            let eval = analysis.evals.get(i);
            out.push(Exercise {
                ply: i + 1,
                before: pos,
                history: history.clone(),
                played: played.m,
                best: eval.and_then(|e| e.best),
                judgement,
                eval: eval.and_then(|e| e.score),
            });
        }
        history.push(pos.zobrist());
        pos.play_unchecked(played.m);
    }
    out
}

impl Exercise {
    /// The verdict on `m` (legal here) that needs no search: the engine's move, or the
    /// mistake again. `None`: it must be searched ([`Exercise::judge_searched`]).
    pub(crate) fn quick_verdict(&self, m: Move) -> Option<Verdict> {
        if Some(m) == self.best {
            Some(Verdict::Best)
        } else if m == self.played {
            Some(Verdict::Played)
        } else {
            None
        }
    }

    /// The position after `m`, and its history, to search.
    pub(crate) fn after(&self, m: Move) -> (Position, Vec<u64>) {
        let mut history = self.history.clone();
        history.push(self.before.zobrist());
        (self.before.after(m), history)
    }

    /// The verdict on a move from the search of the position it leads to: good unless it
    /// loses an inaccuracy's worth from the position's evaluation. A mate given is good; a
    /// stalemate counts as an even score.
    pub(crate) fn judge_searched(&self, after: &Position, eval: &PositionEval) -> Verdict {
        let score = match eval.score {
            Some(score) => score,
            None if after.is_checkmate() => return Verdict::Good,
            None => Score::Cp(0),
        };
        match advice(self.eval, Some(score), self.before.turn()) {
            None => Verdict::Good,
            Some(_) => Verdict::Worse,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise(fen: &str, played: &str, best: &str, cp: i32) -> Exercise {
        let before = Position::from_fen(fen).unwrap();
        let uci = |u: &str| {
            u.parse::<rookery_core::UciMove>()
                .unwrap()
                .to_move(&before)
                .unwrap()
        };
        Exercise {
            ply: 1,
            before,
            history: Vec::new(),
            played: uci(played),
            best: Some(uci(best)),
            judgement: Judgement::Blunder,
            eval: Some(Score::Cp(cp)),
        }
    }

    #[test]
    fn moves_are_judged_against_the_positions_evaluation() {
        // White to move, a queen up; Qxg7 was played and hung the queen.
        let e = exercise(
            "rnb1kbnr/pppp1ppp/8/4p3/4P1Q1/8/PPPP1PPP/RNB1KBNR w KQkq - 0 3",
            "g4g7",
            "g4g3",
            50,
        );
        let m = |u: &str| {
            u.parse::<rookery_core::UciMove>()
                .unwrap()
                .to_move(&e.before)
                .unwrap()
        };
        assert_eq!(e.quick_verdict(m("g4g3")), Some(Verdict::Best));
        assert_eq!(e.quick_verdict(m("g4g7")), Some(Verdict::Played));
        assert_eq!(e.quick_verdict(m("g4f3")), None);
        let at = |cp| PositionEval {
            score: Some(Score::Cp(cp)),
            best: None,
        };
        let (after, history) = e.after(m("g4f3"));
        assert_eq!(history, [e.before.zobrist()]);
        // +0.30 after +0.50: within an inaccuracy; -1.50: worse.
        assert_eq!(e.judge_searched(&after, &at(30)), Verdict::Good);
        assert_eq!(e.judge_searched(&after, &at(-150)), Verdict::Worse);
        assert!(Verdict::Good.solves() && !Verdict::Played.solves());
    }
}
