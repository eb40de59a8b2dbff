#!/usr/bin/env python3
"""Starting positions for `datagen --openings`: positions people reached in real games.

Takes the position after plies 6, 10, 14, 18 and 22 of every standard game in the given PGN
files (and of every line of bare SAN moves in `.san.txt` files), drops repeats and finished
games, and writes the FENs one a line in a shuffled order (fixed by `--seed`).

    python3 openings.py OUT.fen crates/core/tests/data/pgn/shakmaty-pgn-reader/*.pgn

Needs python-chess (`pip install chess==1.11.2`).
"""

import argparse
import random

import chess
import chess.pgn

PLIES = (6, 10, 14, 18, 22)


def from_moves(board, moves, fens):
    """Adds the positions at `PLIES` along `moves` (python-chess moves) from `board`."""
    for ply, m in enumerate(moves, start=1):
        board.push(m)
        if ply in PLIES and not board.is_game_over():
            fens.add(board.fen())
        if ply >= PLIES[-1]:
            return


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    fens = set()
    for path in args.files:
        with open(path, errors="replace") as f:
            if path.endswith(".san.txt"):
                for line in f:
                    board = chess.Board()
                    try:
                        moves = []
                        for san in line.split()[: PLIES[-1]]:
                            moves.append(board.push_san(san))
                    except ValueError:
                        pass
                    from_moves(chess.Board(), moves, fens)
                continue
            while (game := chess.pgn.read_game(f)) is not None:
                if game.headers.get("Variant", "Standard") != "Standard" or "FEN" in game.headers:
                    continue
                from_moves(game.board(), game.mainline_moves(), fens)
    fens = sorted(fens)
    random.Random(args.seed).shuffle(fens)
    with open(args.out, "w") as f:
        f.write("".join(fen + "\n" for fen in fens))
    print(f"{len(fens)} positions written to {args.out}")


if __name__ == "__main__":
    main()
