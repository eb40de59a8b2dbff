#!/usr/bin/env python3
"""Differential test of rookery-core against python-chess, an implementation nobody here wrote.

Plays random games with python-chess (moves chosen by python-chess, with a bias toward
captures, checks, promotions, castling and en passant so the special rules come up often),
replays them through rookery-core's `replay` example, and compares ply by ply: the legal move
set, the SAN of the move played, the FEN after it, the outcome on the board, and the number of
times the position has occurred (repetition identity, R4.4).

Usage: differential.py --games N [--seed S] [--replay PATH]
Exit status 0 when every ply agrees; 1 with the first mismatches printed otherwise.
"""

import argparse
import random
import subprocess
import sys

import chess

# Start positions besides the standard one: tricky rules close to the surface.
EXTRA_STARTS = [
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
    "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
]


def outcome(board: chess.Board) -> str:
    # The order python-chess's outcome() uses for these three.
    if board.is_checkmate():
        return "checkmate"
    if board.is_insufficient_material():
        return "insufficient_material"
    if board.is_stalemate():
        return "stalemate"
    return "none"


def pick(board: chess.Board, rng: random.Random, biased: bool) -> chess.Move:
    moves = list(board.legal_moves)
    if biased:
        special = [
            m for m in moves
            if board.is_capture(m) or m.promotion or board.is_castling(m)
            or board.is_en_passant(m) or board.gives_check(m)
        ]
        if special and rng.random() < 0.5:
            return rng.choice(special)
    return rng.choice(moves)


def random_game(rng: random.Random, index: int):
    start = "" if index % 4 else rng.choice(EXTRA_STARTS)
    board = chess.Board(start) if start else chess.Board()
    biased = index % 2 == 0
    expected = []
    counts = {board._transposition_key(): 1}
    while not board.is_game_over(claim_draw=False) and len(expected) < 300:
        legal = ",".join(sorted(m.uci() for m in board.legal_moves))
        move = pick(board, rng, biased)
        san = board.san(move)
        board.push(move)
        key = board._transposition_key()
        counts[key] = counts.get(key, 0) + 1
        expected.append((move.uci(), [legal, san, board.fen(), outcome(board), str(counts[key])]))
    return start, expected


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--replay", default="target/release/examples/replay")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    games = [random_game(rng, i) for i in range(args.games)]
    stdin = "".join(f"{start}|{' '.join(u for u, _ in plies)}\n" for start, plies in games)
    proc = subprocess.run([args.replay], input=stdin, capture_output=True, text=True, check=True)
    lines = iter(proc.stdout.splitlines())

    fields = ["legal moves", "SAN", "FEN", "outcome", "repetition count"]
    mismatches = []
    plies = 0
    for g, (start, expected) in enumerate(games):
        for ply, (uci, want) in enumerate(expected, 1):
            got = next(lines, "<missing>").split("\t")
            plies += 1
            if got != want:
                which = [f for f, a, b in zip(fields, got, want) if a != b] or ["line shape"]
                mismatches.append(f"game {g} ({start or 'startpos'}) ply {ply} {uci}: {which}\n"
                                  f"  rookery: {got}\n  python-chess: {want}")
        if next(lines, "<missing>") != "end":
            mismatches.append(f"game {g}: output out of step")
            break
    print(f"differential: {len(games)} games, {plies} plies compared "
          f"(python-chess {chess.__version__}), {len(mismatches)} mismatches")
    for m in mismatches[:10]:
        print(m)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
