#!/usr/bin/env python3
"""Judges every move of played games with full-strength Stockfish: how much each player's moves
lose, by phase of the game, and which moves lose a pawn or more.

    python3 crates/engine/tests/python/strength.py --elo 2400 --games 10 --pgn games.pgn
    python3 crates/engine/tests/python/judge.py games.pgn --depth 14 --list
    python3 crates/engine/tests/python/judge.py --engine NEW OLD --ms 200 --count 400 \
        --positions crates/core/tests/data/pgn/shakmaty-pgn-reader/twic1599_1000k.pgn

Every position after the opening (the `OpeningPlies` tag strength.py writes) is searched by
Stockfish (Debian's 15.1, one thread, no strength limit) to `--depth`; a move's loss is the
score of the position before it minus the score after it, from the mover's side, each clipped
to +-1000 centipawns (mates count as 1000), never below 0. Phases: plies up to 39 ("opening"),
40-79 ("middlegame"), 80 and on ("endgame"). Like strength.py this is a measurement, not a
test: it shows where a player loses ground, not by how much it would score.

With `--engine`, no games are read: each build (rookery-engine at level 8, `--ms` or
`--nodes` a move; `sfNNNN` is Stockfish limited to UCI_Elo NNNN, the strength goal's yardstick)
chooses a move in `--count` positions taken from the games of `--positions` (the i-th position
taken is at ply 16 + i mod 24 by default: positions people reached just out of the opening;
`--plies 60 40` takes later ones), and the same judge scores each move's loss. Every build
sees the same positions, so the builds are compared move by move (the mean of the
differences, with its 95% interval). With `--nodes` a rookery-engine build plays the same
moves on every run (Stockfish's limited play picks at random among its best moves).

Needs python-chess (`pip install chess==1.11.2`) and Stockfish (`apt-get install stockfish`).
"""

import argparse
import os
import re
import sys

import chess
import chess.engine
import chess.pgn

sys.path.insert(0, os.path.dirname(__file__))
import strength  # noqa: E402

CLIP = 1000
PHASES = ((0, "opening"), (40, "middlegame"), (80, "endgame"))


def phase(ply):
    return [name for start, name in PHASES if ply >= start][-1]


def score_of(board, engine, depth):
    """The position's value for the side to move, in centipawns, clipped."""
    if board.is_checkmate():
        return -CLIP
    if board.is_game_over(claim_draw=True):
        return 0
    info = engine.analyse(board, chess.engine.Limit(depth=depth))
    return max(-CLIP, min(CLIP, info["score"].relative.score(mate_score=CLIP)))


def judge(game, engine, depth):
    """Yields (player, ply, SAN, loss) for every move after the opening."""
    board = game.board()
    skip = int(game.headers.get("OpeningPlies", "0"))
    moves = list(game.mainline_moves())
    for m in moves[:skip]:
        board.push(m)
    before = score_of(board, engine, depth)
    for m in moves[skip:]:
        player = game.headers["White" if board.turn == chess.WHITE else "Black"]
        ply, san = board.ply(), board.san(m)
        board.push(m)
        after = score_of(board, engine, depth)
        yield player, ply, san, max(0, before + after)
        before = after


def positions_from(path, count, first_ply=16, span=24):
    """Up to `count` positions from the games in `path`, the i-th taken at ply
    `first_ply` + i mod `span` (games too short for it, or over by then, are passed over)."""
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        while len(out) < count and (game := chess.pgn.read_game(f)) is not None:
            if game.headers.get("FEN") or game.errors:
                continue
            board, target = game.board(), first_ply + len(out) % span
            for m in game.mainline_moves():
                if board.ply() == target:
                    break
                board.push(m)
            if board.ply() == target and not board.is_game_over():
                out.append(board)
    return out


def open_build(name, args):
    """A rookery-engine build at level 8, or for `sfNNNN` Stockfish limited to UCI_Elo NNNN
    (the yardstick of the strength goal), opened as strength.py's matches open them."""
    if re.fullmatch(r"sf\d{4}", name):
        return strength.open_engine(("stockfish", int(name[2:])), args)
    return strength.open_engine(("binary", (name, 8)), args)


def compare(args, engine):
    """Each build's mean loss a move over the same positions, and each one's difference from
    the first build, with 95% intervals."""
    boards = positions_from(args.positions, args.count, *args.plies)
    scores = {}

    def judged(board):
        key = board.fen()
        if key not in scores:
            scores[key] = score_of(board, engine, args.depth)
        return scores[key]

    limit = (chess.engine.Limit(nodes=args.nodes) if args.nodes
             else chess.engine.Limit(time=args.ms / 1000))
    losses = []
    for path in args.engine:
        build = open_build(path, args)
        mine = []
        try:
            for i, board in enumerate(boards):
                # A new game each time (`game` differs): no table carried over.
                m = build.play(board, limit, game=i).move
                after = board.copy()
                after.push(m)
                mine.append(max(0, judged(board) + judged(after)))
        finally:
            build.quit()
        losses.append(mine)
        print(f"{path}: mean loss {mean_error(mine)} cp over {len(mine)} positions", flush=True)
    for path, mine in zip(args.engine[1:], losses[1:]):
        diff = [a - b for a, b in zip(mine, losses[0])]
        print(f"{path} - {args.engine[0]}: {mean_error(diff)} cp a move", flush=True)


def mean_error(xs):
    """The mean of `xs` with its 95% interval, as text."""
    n = len(xs)
    mean = sum(xs) / n
    half = 1.96 * (sum((x - mean) ** 2 for x in xs) / max(1, n - 1) / n) ** 0.5
    return f"{mean:+.1f} [{mean - half:+.1f}, {mean + half:+.1f}]"


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("pgn", nargs="*", help="games to judge (as strength.py --pgn writes them)")
    p.add_argument("--engine", nargs="*", default=[],
                   help="rookery-engine builds (or sfNNNN: Stockfish at UCI_Elo NNNN) to compare "
                        "on --positions instead")
    p.add_argument("--positions", metavar="PGN")
    p.add_argument("--count", type=int, default=400)
    p.add_argument("--plies", type=int, nargs=2, default=[16, 24], metavar=("FIRST", "SPAN"),
                   help="take the i-th position at ply FIRST + i mod SPAN (default 16 24: "
                        "just out of the opening)")
    p.add_argument("--ms", type=int, default=200, help="time a move for --engine")
    p.add_argument("--nodes", type=int,
                   help="nodes a move for --engine instead of --ms (the same moves on every "
                        "run: only the builds differ)")
    p.add_argument("--stockfish", default="/usr/games/stockfish")
    p.add_argument("--depth", type=int, default=14)
    p.add_argument("--list", action="store_true", help="print every move that loses 100 or more")
    args = p.parse_args()
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": 1, "Hash": 64})
    if args.engine:
        if not args.positions:
            p.error("--engine needs --positions")
        try:
            compare(args, engine)
        finally:
            engine.quit()
        return
    totals = {}
    try:
        for path in args.pgn:
            with open(path, encoding="utf-8") as f:
                while (game := chess.pgn.read_game(f)) is not None:
                    if args.list:
                        h = game.headers
                        print(f"{h['White']} - {h['Black']} {h['Result']} "
                              f"({h.get('Termination')})", flush=True)
                    for player, ply, san, loss in judge(game, engine, args.depth):
                        t = totals.setdefault(player, {})
                        moves, lost, big = t.get(phase(ply), (0, 0, 0))
                        t[phase(ply)] = (moves + 1, lost + loss, big + (loss >= 100))
                        if args.list and loss >= 100:
                            print(f"  ply {ply:3} {player}: {san} loses {loss}", flush=True)
    finally:
        engine.quit()
    for player, t in sorted(totals.items()):
        moves = sum(v[0] for v in t.values())
        lost = sum(v[1] for v in t.values())
        big = sum(v[2] for v in t.values())
        parts = ", ".join(f"{name} {t[name][1] / t[name][0]:.1f} over {t[name][0]}"
                          for _, name in PHASES if name in t)
        print(f"{player}: {moves} moves, mean loss {lost / max(1, moves):.1f} cp ({parts}); "
              f"{big} moves lose 100 cp or more", flush=True)


if __name__ == "__main__":
    sys.exit(main())
