#!/usr/bin/env python3
"""The computer analysis judged by Stockfish (the second judge beside lichess's own analysis,
docs/ANALYSIS.md): real games of every level, analysed by ours as the server analyses them
and by Stockfish 15.1 at a million nodes a position; both judged by lichess's rules.

    python3 crates/engine/tests/python/stockfish_judge.py --select games.pgn --games 40
    cargo run --release -p rookery-engine --example analyse -- games.pgn > ours.tsv
    python3 crates/engine/tests/python/stockfish_judge.py --pgn games.pgn --ours ours.tsv \\
        --nodes 1000000 [--part 0/2 --judged part0.txt]   # and --part 1/2 beside it, then
    python3 crates/engine/tests/python/stockfish_judge.py --combine part0.txt part1.txt

`--select` writes `--games` games, half from The Week in Chess 1599 (over the board, masters to
amateurs) and half from the lichess database sample (online, every rating), evenly spread
through each file, each of at least 30 plies; the 37 lichess games that carry lichess's own
analysis are left out (they are `tests/lichess_analysis.rs`'s). The judge: every position
searched by Stockfish (one thread, 64 MiB, `--nodes`); each move judged by lichess's rules
(winning chances 0.1 / 0.2 / 0.3, its mate rules; no judgement for a move the engine itself
chose there, as lichess gives none); a blunder of one side is found when the other calls the
move at least a mistake, a mistake when at least an inaccuracy, an inaccuracy when anything.

Needs python-chess (`pip install chess==1.11.2`) and Stockfish (`apt-get install stockfish`).
"""

import argparse
import os
import sys

import chess
import chess.engine
import chess.pgn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stockfish_vs_lichess import advice, report  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", ".."))
SOURCES = [
    os.path.join(ROOT, "crates/core/tests/data/pgn/shakmaty-pgn-reader/twic1599_1000k.pgn"),
    os.path.join(ROOT, "crates/core/tests/data/pgn/shakmaty-pgn-reader/lichess_db_1000k.pgn"),
]


def read_all(path):
    games = []
    with open(path, encoding="utf-8", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            nodes = list(game.mainline())
            if len(nodes) < 30 or game.errors or any("%eval" in n.comment for n in nodes[:1]):
                continue
            games.append(game)
    return games


def select(args):
    per = args.games // len(SOURCES)
    with open(args.select, "w", encoding="utf-8") as out:
        for path in SOURCES:
            games = read_all(path)
            step = max(1, len(games) // per)
            for game in games[::step][:per]:
                for node in game.mainline():
                    node.comment = ""
                print(game, file=out, end="\n\n")


def score_of(text):
    if text == "-":
        return None
    kind, value = text.split(":")
    return (kind, int(value))


def judge(args):
    ours = {}
    with open(args.ours) as f:
        for line in f:
            g, ply, score, best = line.rstrip("\n").split("\t")
            ours[(int(g), int(ply))] = (score_of(score), None if best == "-" else best)
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": 1, "Hash": 64})
    a_all, b_all = [], []
    part, parts = (int(x) for x in args.part.split("/"))
    with open(args.pgn, encoding="utf-8") as f:
        g = -1
        while (game := chess.pgn.read_game(f)) is not None:
            g += 1
            if g % parts != part:
                continue
            board = game.board()
            moves = list(game.mainline_moves())
            theirs = []
            for ply in range(len(moves) + 1):
                if board.is_game_over():
                    theirs.append((None, None))
                else:
                    info = engine.analyse(board, chess.engine.Limit(nodes=args.nodes))
                    s = info["score"].white()
                    best = info.get("pv", [None])[0]
                    theirs.append((("mate", s.mate()) if s.is_mate() else ("cp", s.score()),
                                   best.uci() if best else None))
                if ply < len(moves):
                    board.push(moves[ply])
            for i, m in enumerate(moves):
                white = i % 2 == 0
                (a0, a_best), (a1, _) = ours[(g, i)], ours[(g, i + 1)]
                (b0, b_best), (b1, _) = theirs[i], theirs[i + 1]
                a_all.append(0 if a_best == m.uci() else advice(a0, a1, white))
                b_all.append(0 if b_best == m.uci() else advice(b0, b1, white))
            print(f"game {g}: {len(moves)} plies", file=sys.stderr, flush=True)
    engine.quit()
    if args.judged:
        with open(args.judged, "w") as out:
            for a, b in zip(a_all, b_all):
                out.write(f"{a}\t{b}\n")
    report(a_all, b_all)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--select")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--pgn")
    ap.add_argument("--ours")
    ap.add_argument("--nodes", type=int, default=1_000_000)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--part", default="0/1",
                    help="K/N: only the games whose index is K modulo N (to run N at once)")
    ap.add_argument("--judged", help="writes each move's two judgements (0-3) to this file")
    ap.add_argument("--combine", nargs="+", help="reports from the --judged files of the parts")
    args = ap.parse_args()
    if args.combine:
        pairs = [line.split() for path in args.combine for line in open(path)]
        report([int(a) for a, _ in pairs], [int(b) for _, b in pairs])
    elif args.select:
        select(args)
    elif args.pgn and args.ours:
        judge(args)
    else:
        ap.error("--select FILE, or --pgn FILE --ours FILE")


if __name__ == "__main__":
    main()
