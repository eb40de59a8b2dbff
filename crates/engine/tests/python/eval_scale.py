#!/usr/bin/env python3
"""Measures how rookery-engine's centipawns (the network evaluation, at the analysis budget)
compare with Stockfish's, whose scale lichess's judgements are made on, and fits a map from
ours to theirs (a measurement: the analysis does not apply one; docs/ANALYSIS.md says why).

    cargo build --release -p rookery-engine
    python3 crates/engine/tests/python/eval_scale.py --positions 1200 --out pairs.tsv
    python3 crates/engine/tests/python/eval_scale.py --fit pairs.tsv

Positions: from the real games of the core's test data, The Week in Chess 1599 (over-the-board
masters and amateurs) and the lichess database sample (every level), every 3rd game that has
no `[%eval]` (the 37 games lichess analysed are the judge of `tests/lichess_analysis.rs`, and
stay out of the fit), one position a game at a random ply from 10 to 100, positions in check
or over passed over. Each is searched by Stockfish 15.1 (one thread, full strength,
`--sf-nodes`) and by rookery-engine (network evaluation, `--nodes`, the analysis budget); a
mate is left out.

The fit: a map from our centipawns to Stockfish's that is odd (f(-x) = -f(x)), increasing, and
linear between knots at 0, 50, 100, ... 1000 (and flat past it, where winning chances no longer
move): the knots' values are the quantiles of |Stockfish| at the quantiles of |ours| (the two
distributions matched, so that noise on either side does not flatten the map as a regression
would). Printed as a Rust table.

Needs python-chess (`pip install chess==1.11.2`) and Stockfish (`apt-get install stockfish`).
"""

import argparse
import bisect
import os
import random
import re

import chess
import chess.engine
import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
SOURCES = [
    os.path.join(ROOT, "crates/core/tests/data/pgn/shakmaty-pgn-reader/twic1599_1000k.pgn"),
    os.path.join(ROOT, "crates/core/tests/data/pgn/shakmaty-pgn-reader/lichess_db_1000k.pgn"),
]
KNOTS = list(range(0, 1001, 50))


def positions(count, seed):
    rng = random.Random(seed)
    out = []
    per_source = count // len(SOURCES)
    for path in SOURCES:
        taken = 0
        with open(path, encoding="utf-8", errors="replace") as f:
            index = 0
            while taken < per_source:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                index += 1
                if index % 3 != 0:
                    continue
                moves = list(game.mainline())
                if any("%eval" in node.comment for node in moves[:1]):
                    continue
                if len(moves) < 12:
                    continue
                ply = rng.randint(10, min(100, len(moves)))
                board = moves[ply - 1].board()
                if board.is_check() or board.is_game_over():
                    continue
                out.append(board.fen())
                taken += 1
    return out


def measure(args):
    fens = positions(args.positions, args.seed)
    sf = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    sf.configure({"Threads": 1, "Hash": 64})
    ours = chess.engine.SimpleEngine.popen_uci(args.engine)
    ours.configure({"Evaluation": "network", "Hash": 8})
    with open(args.out, "w") as out:
        for i, fen in enumerate(fens):
            board = chess.Board(fen)
            a = ours.analyse(board, chess.engine.Limit(nodes=args.nodes))["score"].white()
            b = sf.analyse(board, chess.engine.Limit(nodes=args.sf_nodes))["score"].white()
            if a.is_mate() or b.is_mate():
                continue
            out.write(f"{fen}\t{a.score()}\t{b.score()}\n")
            out.flush()
            if (i + 1) % 100 == 0:
                print(f"{i + 1} of {len(fens)}", flush=True)
    sf.quit()
    ours.quit()


def quantile(sorted_xs, q):
    if not sorted_xs:
        return 0.0
    at = q * (len(sorted_xs) - 1)
    lo = int(at)
    hi = min(lo + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (at - lo)


def fit(path):
    ours, theirs = [], []
    with open(path) as f:
        for line in f:
            _, a, b = line.rstrip("\n").split("\t")
            ours.append(abs(int(a)))
            theirs.append(abs(int(b)))
    ours.sort()
    theirs.sort()
    table = []
    for knot in KNOTS:
        q = bisect.bisect_left(ours, knot) / len(ours)
        table.append(round(quantile(theirs, q)))
    # Increasing, as a map must be.
    for i in range(1, len(table)):
        table[i] = max(table[i], table[i - 1] + 1)
    table[0] = 0
    print(f"{len(ours)} positions; ours -> Stockfish's centipawns at the knots:")
    print("const JUDGED_SCALE: [i32; %d] = [%s];" % (len(table), ", ".join(map(str, table))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=1200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nodes", type=int, default=200_000)
    ap.add_argument("--sf-nodes", type=int, default=1_000_000)
    ap.add_argument("--engine", default=os.path.join(ROOT, "target/release/rookery-engine"))
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--out", default="eval-scale.tsv")
    ap.add_argument("--fit")
    args = ap.parse_args()
    if args.fit:
        fit(args.fit)
    else:
        measure(args)


if __name__ == "__main__":
    main()
