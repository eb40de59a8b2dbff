#!/usr/bin/env python3
"""How deep Stockfish 15.1 searches with UCI_LimitStrength in a given time a move.

Stockfish's limited play (search.cpp, `Skill`) turns UCI_Elo into a level,
((elo - 1346.6) / 143.4) ** (1 / 0.806), about 11.9 for 2400, searches with four principal
variations and, when the iteration of depth 1 + int(level) (12 for 2400) ends, picks its move
among those four with a random push; deeper iterations do not change that choice. A move that
never reaches that depth is picked the same way from the last iteration. So once its time a move
reaches depth 12 its choice is made at that depth, while ours keeps searching deeper (its
transposition table still carries deeper searches of earlier moves, so time is not worth nothing
to it).

This prints, for each time a move, the depth Stockfish reports on the same positions (after
plies 21, 41 and 61 of the first 40 games in the PGN file, for the games that last that long):

    python3 crates/engine/tests/python/sf_depth.py 0.1 0.24 0.5 1.2 \\
        --pgn crates/core/tests/data/pgn/shakmaty-pgn-reader/twic1599_1000k.pgn
"""

import argparse
import os
import statistics
import sys

import chess
import chess.engine
import chess.pgn

sys.path.insert(0, os.path.dirname(__file__))
import strength  # noqa: E402


def pick_depth(elo):
    """The depth at which Stockfish 15.1 picks its move at this UCI_Elo (search.cpp, `Skill`)."""
    level = min(max(((elo - 1346.6) / 143.4) ** (1 / 0.806), 0.0), 20.0)
    return 1 + int(level)


def positions(path, games, plies, count):
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for _ in range(games):
            game = chess.pgn.read_game(f)
            if game is None:
                break
            board = game.board()
            for i, move in enumerate(game.mainline_moves()):
                board.push(move)
                if i in plies:
                    out.append(board.fen())
    return out[:count]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("seconds", type=float, nargs="+", help="time a move")
    ap.add_argument("--pgn", required=True)
    ap.add_argument("--elo", type=int, default=2400)
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    args = ap.parse_args()
    if not 1350 <= args.elo <= 2850:
        ap.error("--elo must lie in Stockfish 15.1's UCI_Elo range, 1350 to 2850")

    fens = positions(args.pgn, 40, (20, 40, 60), args.count)
    pick = pick_depth(args.elo)
    sf = strength.open_engine(("stockfish", args.elo), args)
    try:
        for t in args.seconds:
            depths = [sf.analyse(chess.Board(fen), chess.engine.Limit(time=t)).get("depth", 0) for fen in fens]
            reached = sum(d >= pick for d in depths) / len(depths)
            print(f"{t} s: {len(depths)} positions, depth median {statistics.median(depths)}, "
                  f"min {min(depths)}, max {max(depths)}, {reached:.0%} at depth >= {pick}", flush=True)
    finally:
        sf.quit()


if __name__ == "__main__":
    main()
