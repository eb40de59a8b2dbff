#!/usr/bin/env python3
"""Writes king and pawn against king positions with Stockfish's verdict on each, for the
engine's test of its own table (src/endgame.rs, `agrees_with_stockfish_on_king_and_pawn`).

    pip install chess            # python-chess 1.11.2
    apt-get install stockfish    # Stockfish 15.1
    python3 kpk_reference.py OUT [--count 3000] [--seed 1]

Positions: random legal placements (python-chess's `is_valid`) of two kings and one pawn of
either colour, either side to move. Stockfish 15.1 holds this ending in a table of its own
(its `Endgame<KPK>`, built from its own bitbase), which its classical evaluation uses (`Use
NNUE false`: the network does not consult it), so a shallow search reports its verdict: a won
position scores far above any material count (a queen after a promotion at the least), a drawn
one 0. The search is one ply deep: at depth 2-4 Stockfish's classical search was seen to call
the drawn 8/6k1/4K3/6P1/8/8/8/8 w a win (+2573), at depth 1 and from depth 8 on a draw; one
ply reads the table's verdicts of the position's children, which is the table's own verdict. Each line is
`FEN;W` (the side to move wins), `FEN;L` (loses) or `FEN;D`.
"""

import argparse
import random

import chess
import chess.engine


def random_position(rng):
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), 3)
        pawn_colour = rng.choice([chess.WHITE, chess.BLACK])
        if not 8 <= squares[2] < 56:
            continue
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        board.set_piece_at(squares[2], chess.Piece(chess.PAWN, pawn_colour))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid():
            return board


def verdict(engine, board):
    info = engine.analyse(board, chess.engine.Limit(depth=1))
    score = info["score"].relative
    if score.is_mate():
        return "W" if score.mate() > 0 else "L"
    cp = score.score()
    if cp > 400:
        return "W"
    if cp < -400:
        return "L"
    if cp == 0:
        return "D"
    raise SystemExit(f"{board.fen()}: score {cp} is neither a table win nor a draw")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out")
    p.add_argument("--count", type=int, default=3000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--stockfish", default="/usr/games/stockfish")
    args = p.parse_args()
    rng = random.Random(args.seed)
    seen = set()
    with chess.engine.SimpleEngine.popen_uci(args.stockfish) as engine, open(args.out, "w") as out:
        engine.configure({"Use NNUE": False})
        while len(seen) < args.count:
            board = random_position(rng)
            fen = board.fen()
            if fen in seen:
                continue
            seen.add(fen)
            out.write(f"{fen};{verdict(engine, board)}\n")


if __name__ == "__main__":
    main()
