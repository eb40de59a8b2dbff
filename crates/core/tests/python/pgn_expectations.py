#!/usr/bin/env python3
"""Writes tests/data/pgn/python-chess-games.tsv: how python-chess reads every game of every
PGN file under tests/data/pgn (an independent reference for tests/pgn.rs).

Columns: file, game (1-based), ok (1/0), plies of the main line, final FEN (empty when the
game has errors or a variant python-chess cannot set up), first error.
"""
import glob
import os

import chess
import chess.pgn

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..", "data", "pgn")
rows = []
for path in sorted(glob.glob(os.path.join(root, "**", "*.pgn"), recursive=True)):
    rel = os.path.relpath(path, root)
    with open(path, encoding="utf-8-sig", errors="replace") as f:
        n = 0
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            n += 1
            errors = [str(e).replace("\t", " ").replace("\n", " ") for e in game.errors]
            try:
                fen = game.end().board().fen()
                plies = len(list(game.mainline_moves()))
            except ValueError as e:
                fen, plies = "", 0
                errors.append(str(e))
            ok = 0 if errors else 1
            rows.append(f"{rel}\t{n}\t{ok}\t{plies}\t{fen if ok else ''}\t{errors[0][:120] if errors else ''}")
with open(os.path.join(root, "python-chess-games.tsv"), "w") as out:
    out.write(f"# python-chess {chess.__version__}\n")
    out.write("\n".join(rows) + "\n")
print(len(rows), "games")
