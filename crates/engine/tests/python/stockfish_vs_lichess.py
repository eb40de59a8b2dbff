#!/usr/bin/env python3
"""How far Stockfish itself agrees with lichess's analysis of the 37 games of
`crates/engine/tests/data/lichess-evals.pgn`, judged as `tests/lichess_analysis.rs` judges
ours: the yardstick for that test's figures (what an engine of Stockfish's evaluation reaches
at a given budget).

    python3 crates/engine/tests/python/stockfish_vs_lichess.py --nodes 200000

Every position after a move is searched by Stockfish 15.1 (one thread, 64 MiB, `--nodes`);
lichess's start counts +0.15 for both; each move is judged by lichess's rules (winning chances
0.1 / 0.2 / 0.3, its mate rules); a blunder of one judge is found when the other calls the move
at least a mistake, a mistake when at least an inaccuracy, an inaccuracy when anything.

Needs python-chess (`pip install chess==1.11.2`) and Stockfish (`apt-get install stockfish`).
"""

import argparse
import math
import os
import re

import chess
import chess.engine
import chess.pgn

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "lichess-evals.pgn")


def chances(cp):
    cp = max(-1000, min(1000, cp))
    return 2 / (1 + math.exp(-0.00368208 * cp)) - 1


def advice(before, after, white):
    """0 none, 1 inaccuracy, 2 mistake, 3 blunder: lichess's CpAdvice, then MateAdvice.
    Scores are ("cp" | "mate", value) from White's side, or None when the game is over."""
    if before is None or after is None:
        return 0
    if not white:
        before, after = (before[0], -before[1]), (after[0], -after[1])
    if before[0] == "cp" and after[0] == "cp":
        drop = chances(before[1]) - chances(after[1])
        return 3 if drop >= 0.3 else 2 if drop >= 0.2 else 1 if drop >= 0.1 else 0
    if before[0] == "cp" and after[0] == "mate" and after[1] < 0:
        return 1 if before[1] < -999 else 2 if before[1] < -700 else 3
    if before[0] == "mate" and before[1] > 0 and after[0] == "cp":
        return 1 if after[1] > 999 else 2 if after[1] > 700 else 3
    if before[0] == "mate" and before[1] > 0 and after[0] == "mate" and after[1] < 0:
        return 3
    return 0


def lichess_eval(comment):
    m = re.search(r"\[%eval ([^\]]+)\]", comment)
    if not m:
        return None
    text = m.group(1)
    if text.startswith("#"):
        return ("mate", int(text[1:]))
    return ("cp", round(float(text) * 100))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=200_000)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    args = ap.parse_args()
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": 1, "Hash": 64})
    ours, theirs = [], []
    with open(DATA, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            board = game.board()
            a, b = [("cp", 15)], [("cp", 15)]
            for node in game.mainline():
                board.push(node.move)
                t = lichess_eval(node.comment)
                if t is None:
                    break
                score = engine.analyse(board, chess.engine.Limit(nodes=args.nodes))["score"].white()
                a.append(("mate", score.mate()) if score.is_mate() else ("cp", score.score()))
                b.append(t)
            for i in range(len(a) - 1):
                ours.append(advice(a[i], a[i + 1], i % 2 == 0))
                theirs.append(advice(b[i], b[i + 1], i % 2 == 0))
    engine.quit()
    report(ours, theirs, judged="Stockfish's", judge="lichess's")


def report(judged_moves, by, judged="ours", judge="Stockfish's"):
    """Recall (the judge's moves of a class found by the judged) and precision (the judged's
    moves of a class that the judge has), each class one below counting as found."""
    for cls, name in ((3, "blunders"), (2, "mistakes"), (1, "inaccuracies")):
        floor = max(1, cls - 1)
        recall = [a >= floor for a, b in zip(judged_moves, by) if b == cls]
        precision = [b >= floor for a, b in zip(judged_moves, by) if a == cls]
        print(f"{name}: recall {sum(recall) / max(1, len(recall)):.3f} ({sum(recall)} of "
              f"{judge} {len(recall)}), precision {sum(precision) / max(1, len(precision)):.3f} "
              f"({sum(precision)} of {judged} {len(precision)})")


if __name__ == "__main__":
    main()
