#!/usr/bin/env python3
"""Measures the strength of rookery-engine's levels in games against Stockfish.

    cargo build --release -p rookery-engine
    python3 crates/engine/tests/python/strength.py --level 8 --elo 2000 2400 --games 20

Plays `--games` games per (level, opponent) pair at a fast time control (`--tc`, seconds +
increment), colours alternating, each pair of games starting from one of a fixed set of short
openings so that games differ. The opponent is Stockfish (Debian's 15.1) with
UCI_LimitStrength at the given UCI_Elo values, or another level of our own (`--vs-level`).
Another build of the engine (`--vs-engine PATH`) is an opponent too, for A/B tests of a change.
A build written `PATH:NAME=VALUE,...` (here, in calibrate.py and in judge.py) is opened with
those UCI options set, e.g. `target/release/rookery-engine:Evaluation=network`.
Prints one line per pair: wins/draws/losses, score, and the Elo difference with a 95% error
bar, then the rating estimate for the level (difference + the opponent's UCI_Elo).

`--our-tc S+I` gives our engine a clock of its own (time odds: how a faster engine would score).
`--nodes N` plays every move of both sides at N nodes instead of on a clock: for A/B tests of two
builds (`--vs-engine`), where it plays hundreds of games in minutes and no other load on the
machine can decide a game. It does not measure speed, and Stockfish's UCI_Elo (fitted on a
clock) is not known to hold under it.
Needs python-chess (`pip install chess==1.11.2`) and Stockfish (`apt-get install stockfish`).
`--openings FILE.pgn` starts the games from the first moves of real games instead (each
opening played twice, colours swapped), so long matches do not repeat themselves.
This is a measurement, not a test: it takes minutes and its figures have error bars.
"""

import argparse
import concurrent.futures
import math
import os
import sys
import threading
import time

import chess
import chess.engine
import chess.pgn

# Short, common openings (UCI), played by both sides in turn so colours are fair.
OPENINGS = [
    "e2e4 e7e5 g1f3 b8c6", "e2e4 c7c5 g1f3 d7d6", "d2d4 d7d5 c2c4 e7e6", "d2d4 g8f6 c2c4 g7g6",
    "e2e4 e7e6 d2d4 d7d5", "e2e4 c7c6 d2d4 d7d5", "c2c4 e7e5 b1c3 g8f6", "g1f3 d7d5 g2g3 g8f6",
    "e2e4 e7e5 f1c4 g8f6", "d2d4 g8f6 c2c4 e7e6", "e2e4 d7d6 d2d4 g8f6", "e2e4 c7c5 b1c3 b8c6",
    "d2d4 d7d5 g1f3 g8f6", "c2c4 c7c5 g1f3 g8f6", "e2e4 g7g6 d2d4 f8g7", "d2d4 f7f5 g2g3 g8f6",
]


def openings_from_pgn(paths, plies):
    """The first `plies` moves of each game in `paths` that starts from the initial position
    and lasts longer than that, without repeats, in file order."""
    seen, out = set(), []
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                if game.headers.get("FEN") or game.errors:
                    continue
                moves = [m.uci() for m in game.mainline_moves()]
                if len(moves) <= plies:
                    continue
                line = " ".join(moves[:plies])
                if line not in seen:
                    seen.add(line)
                    out.append(line)
    return out


def add_opening_args(p):
    """The options that choose the games' openings and where the games are written (shared
    with calibrate.py)."""
    p.add_argument("--openings", nargs="*", default=[], metavar="PGN",
                   help="take each game's first --opening-plies moves from these PGN files "
                        "instead of the built-in 16 openings (for long A/B matches)")
    p.add_argument("--opening-plies", type=int, default=8)
    p.add_argument("--first-opening", type=int, default=0, metavar="N",
                   help="start from the N-th opening, so that matches run side by side "
                        "(one per core) play different ones")
    p.add_argument("--pgn", metavar="FILE",
                   help="append every game to this PGN file (for judge.py)")
    p.add_argument("--our-tc", metavar="S+I",
                   help="time odds: our engine's clock, when it differs from --tc (which "
                        "is then the opponent's); to see how far more time (or a faster "
                        "search) would take a level")


def load_openings(args, p):
    """Replaces `args.openings` (file names) by the opening lines, splits `args.tc` (and
    `args.our_tc`) into seconds, and sets `args.nodes` (None: the games are on a clock)."""
    args.openings = (openings_from_pgn(args.openings, args.opening_plies) if args.openings
                     else OPENINGS)
    if not args.openings:
        p.error("no usable games in the --openings files")
    k = args.first_opening % len(args.openings)
    args.openings = args.openings[k:] + args.openings[:k]
    def seconds(tc):
        base, _, inc = tc.partition("+")
        return float(base), float(inc or 0)

    # calibrate.py has no --nodes: its matches are always on a clock.
    args.nodes = getattr(args, "nodes", None)
    args.base, args.inc = seconds(args.tc)
    args.our_base, args.our_inc = seconds(args.our_tc) if args.our_tc else (args.base, args.inc)


def speed(args):
    """The time control as printed: `--tc`, and our clock when it has time odds (or the
    nodes a move)."""
    if args.nodes:
        return f"{args.nodes} nodes a move"
    return args.tc + (f" (ours {args.our_tc})" if args.our_tc else "")


def build_options(spec):
    """A build named `PATH:NAME=VALUE,...` is PATH with those UCI options set (for example
    `target/release/rookery-engine:Evaluation=network`); a plain path has none."""
    path, _, rest = spec.partition(":")
    if not rest:
        return spec, {}
    return path, dict(item.split("=", 1) for item in rest.split(","))


def open_engine(spec, args):
    """`spec` is ("rookery", level), ("binary", (path, level)) or ("stockfish", elo)."""
    kind, value = spec
    if kind in ("rookery", "binary"):
        path, level = (args.engine, value) if kind == "rookery" else value
        path, options = build_options(path)
        engine = chess.engine.SimpleEngine.popen_uci(path)
        engine.configure({"Level": level, "Hash": 16, **options})
    else:
        engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
        options = {"Threads": 1, "Hash": 16}
        if value:
            options.update({"UCI_LimitStrength": True, "UCI_Elo": value})
        engine.configure(options)
    return engine


PGN_LOCK = threading.Lock()


def engine_name(spec):
    """The player's name in the PGN headers."""
    kind, value = spec
    if kind == "rookery":
        return f"rookery-engine level {value}"
    if kind == "binary":
        return f"{value[0]} level {value[1]}"
    return f"Stockfish UCI_Elo {value}" if value else "Stockfish"


def write_pgn(board, opening_plies, white, black, white_score, how, args):
    """Appends the finished game to `args.pgn`, if set."""
    if not args.pgn:
        return
    game = chess.pgn.Game.from_board(board)
    result = {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}[white_score]
    game.headers.update({"Event": f"rookery match {speed(args)}", "White": white, "Black": black,
                         "Result": result, "Termination": how, "OpeningPlies": str(opening_plies)})
    with PGN_LOCK, open(args.pgn, "a", encoding="utf-8") as f:
        print(game, file=f, end="\n\n")


def play(index, ours, theirs, args):
    """One game; returns the score for `ours` (1, 0.5, 0), how it ended, the seconds each
    move took, ours and theirs, and the seconds left on each clock at the end."""
    opening = args.openings[(index // 2) % len(args.openings)].split()
    ours_white = index % 2 == 0
    board = chess.Board()
    for uci in opening:
        board.push_uci(uci)
    engines = {True: None, False: None}
    try:
        engines[ours_white] = open_engine(ours, args)
        engines[not ours_white] = open_engine(theirs, args)
        names = (engine_name(ours), engine_name(theirs))
        white, black = names if ours_white else names[::-1]
        ours = chess.WHITE if ours_white else chess.BLACK
        clock = {ours: args.our_base, not ours: args.base}
        inc = {ours: args.our_inc, not ours: args.inc}
        spent = {chess.WHITE: [], chess.BLACK: []}

        def ended(score, how):
            white_score = score if ours == chess.WHITE else 1 - score
            write_pgn(board, len(opening), white, black, white_score, how, args)
            return score, how, spent[ours], spent[not ours], (clock[ours], clock[not ours])

        while not board.is_game_over(claim_draw=True) and board.ply() < 400:
            side = board.turn
            if args.nodes:
                limit = chess.engine.Limit(nodes=args.nodes)
            else:
                limit = chess.engine.Limit(
                    white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                    white_inc=inc[chess.WHITE], black_inc=inc[chess.BLACK])
            engine = engines[side == chess.WHITE]
            started = time.monotonic()
            result = engine.play(board, limit)
            spent[side].append(time.monotonic() - started)
            clock[side] -= spent[side][-1]
            if clock[side] < 0 and not args.nodes:
                # Lost on time, unless the opponent cannot mate.
                winner_can_mate = not board.has_insufficient_material(not side)
                lost = (side == chess.WHITE) == ours_white
                if not winner_can_mate:
                    return ended(0.5, "time (draw)")
                return ended(0.0 if lost else 1.0, "time")
            clock[side] += inc[side]
            board.push(result.move)
        outcome = board.outcome(claim_draw=True)
        if outcome is None or outcome.winner is None:
            return ended(0.5, outcome.termination.name if outcome else "ply limit")
        return ended(1.0 if outcome.winner == ours_white else 0.0, outcome.termination.name)
    finally:
        for e in engines.values():
            if e is not None:
                e.quit()


def elo_diff(score):
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def mean_and_error(wins, draws, losses):
    """The mean score per game and its standard error (from the per-game variance of the
    scores 1, 0.5 and 0)."""
    n = wins + draws + losses
    mean = (wins + 0.5 * draws) / n
    var = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean ** 2) / max(1, n - 1)
    return mean, math.sqrt(var / n)


def match(ours, theirs, args):
    scores = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.concurrency) as pool:
        futures = [pool.submit(play, i, ours, theirs, args) for i in range(args.games)]
        endings = {}
        spent = ([], [])
        left = ([], [])
        for f in futures:
            score, how, ours_spent, theirs_spent, clocks = f.result()
            left[0].append(clocks[0])
            left[1].append(clocks[1])
            spent[0].extend(ours_spent)
            spent[1].extend(theirs_spent)
            scores.append(score)
            key = f"{ {1.0: 'won', 0.5: 'drawn', 0.0: 'lost'}[score]} by {how}"
            endings[key] = endings.get(key, 0) + 1
    print("  endings: " + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())), flush=True)
    per_move = [sum(x) / max(1, len(x)) for x in spent]
    print(f"  seconds per move: ours {per_move[0]:.3f}, theirs {per_move[1]:.3f}", flush=True)
    # What the base time left unused: the clock at the end of each game (negative: flagged).
    if not args.nodes:
        at_end = [sum(x) / max(1, len(x)) for x in left]
        print(f"  seconds left at the end: ours {at_end[0]:.2f}, theirs {at_end[1]:.2f}",
              flush=True)
    wins = scores.count(1.0)
    draws = scores.count(0.5)
    losses = scores.count(0.0)
    mean, se = mean_and_error(wins, draws, losses)
    lo, hi = elo_diff(max(1e-3, mean - 1.96 * se)), elo_diff(min(1 - 1e-3, mean + 1.96 * se))
    return wins, draws, losses, mean, elo_diff(mean), lo, hi


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", default=os.path.join(os.path.dirname(__file__), "../../../../target/release/rookery-engine"))
    p.add_argument("--stockfish", default="/usr/games/stockfish")
    p.add_argument("--level", type=int, nargs="+", default=[8])
    p.add_argument("--elo", type=int, nargs="*", default=None,
                   help="Stockfish UCI_Elo values (default 2000 unless --vs-level is given)")
    p.add_argument("--vs-level", type=int, nargs="*", default=[])
    p.add_argument("--vs-engine", nargs="*", default=[],
                   help="other rookery-engine binaries (e.g. an older build), at the same "
                        "level as ours (so that a change to the search can be checked at "
                        "every level)")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--tc", default="10+0.1", help="seconds+increment")
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--nodes", type=int, help="nodes a move for both sides, instead of a clock")
    add_opening_args(p)
    args = p.parse_args()
    load_openings(args, p)
    if args.elo is None:
        args.elo = [] if args.vs_level or args.vs_engine else [2000]
    for level in args.level:
        opponents = ([(("stockfish", e), f"Stockfish UCI_Elo {e}") for e in args.elo]
                     + [(("rookery", v), f"level {v}") for v in args.vs_level]
                     + [(("binary", (path, level)), f"{path} (level {level})")
                        for path in args.vs_engine])
        for theirs, name in opponents:
            w, d, l, mean, diff, lo, hi = match(("rookery", level), theirs, args)
            if mean in (0.0, 1.0):
                # A clean sweep bounds the difference but does not measure it.
                bound = "below -400" if mean == 0.0 else "above +400"
                line = (f"level {level} vs {name} at {speed(args)}: +{w} ={d} -{l} of {w + d + l}, "
                        f"score {mean:.1%}, Elo difference {bound} (unmeasured)")
                print(line, flush=True)
                continue
            line = (f"level {level} vs {name} at {speed(args)}: +{w} ={d} -{l} of {w + d + l}, "
                    f"score {mean:.1%}, Elo {diff:+.0f} [{lo:+.0f}, {hi:+.0f}]")
            if theirs[0] == "stockfish" and not args.our_tc:
                # (With time odds the difference is not a rating.)
                line += f" -> estimate {theirs[1] + diff:.0f}"
            print(line, flush=True)


if __name__ == "__main__":
    sys.exit(main())
