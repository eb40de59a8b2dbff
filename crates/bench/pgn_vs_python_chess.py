#!/usr/bin/env python3
"""PGN throughput: games per second read and validated, rookery vs python-chess, same files,
same run. Every move is validated by both (python-chess's read_game parses each SAN against
the board).

Usage: python3 crates/bench/pgn_vs_python_chess.py [--rookery target/release/rookery] [--rounds 3]
"""
import argparse
import os
import subprocess
import time

import chess
import chess.pgn

here = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(here, "..", "core", "tests", "data", "pgn", "shakmaty-pgn-reader")
FILES = ["lichess_db_1000k.pgn", "twic1599_1000k.pgn"]


def python_chess(path):
    games = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        while chess.pgn.read_game(f) is not None:
            games += 1
    return games


def rookery(binary, path):
    out = subprocess.run([binary, "pgn", "check", "--json", path], capture_output=True, text=True)
    return len(out.stdout.splitlines())


def best_time(fn, rounds):
    best, result = float("inf"), None
    for _ in range(rounds):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rookery", default="target/release/rookery")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    print(f"| file | games | python-chess {chess.__version__} games/s | rookery games/s | ratio |")
    print("|---|---|---|---|---|")
    for name in FILES:
        path = os.path.join(DATA, name)
        t_py, n_py = best_time(lambda: python_chess(path), args.rounds)
        t_rk, n_rk = best_time(lambda: rookery(args.rookery, path), args.rounds)
        print(f"| {name} | {n_rk} (python-chess: {n_py}) | {n_py / t_py:,.0f} | {n_rk / t_rk:,.0f} | "
              f"{(n_rk / t_rk) / (n_py / t_py):.0f}x |")


if __name__ == "__main__":
    main()
