#!/usr/bin/env python3
"""What Rookery writes, other readers read back the same (issue: PGN writer).

For every PGN file under tests/data/pgn: rookery-core reads it and writes its valid games
(examples/pgn_rewrite). Then
- python-chess reads the written file: every game without errors, the same moves (UCI),
  the same result, and every tag Rookery wrote (the Seven Tag Roster first);
- pgn-extract (if installed) reads the written file: no errors reported, and the same
  moves in long algebraic notation.
rookery-core's own reading of the written file (--summary) is the thing compared against.

Usage: pgn_readback.py [--rewrite PATH] [--pgn-extract PATH]
"""
import argparse
import glob
import io
import os
import shutil
import subprocess
import sys
import tempfile

import chess.pgn

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..", "data", "pgn")
STR = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rewrite", default="target/release/examples/pgn_rewrite")
    ap.add_argument("--pgn-extract", default=shutil.which("pgn-extract") or "/usr/games/pgn-extract")
    args = ap.parse_args()
    have_pgn_extract = os.path.exists(args.pgn_extract)
    if not have_pgn_extract:
        print("pgn-extract: SKIPPED (not installed; apt-get install pgn-extract)")
    files = sorted(glob.glob(os.path.join(root, "**", "*.pgn"), recursive=True))
    if not files:
        # Nothing read is no proof: a moved folder must fail, not pass.
        print(f"readback: no PGN files under {root}")
        return 1
    problems = []
    games_total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            rel = os.path.relpath(path, root)
            written = os.path.join(tmp, "out.pgn")
            with open(written, "wb") as w:
                subprocess.run([args.rewrite, path], stdout=w, stderr=subprocess.DEVNULL, check=True)
            summary = subprocess.run([args.rewrite, "--summary", written], capture_output=True,
                                     text=True, check=True).stdout.splitlines()
            ours = []
            for line in summary:
                tags, moves, result = line.split("\t")
                tags = [t.split("=", 1) for t in tags.split("\x1f")] if tags else []
                ours.append((tags, moves.split(), result))
            games_total += len(ours)

            # python-chess
            with open(written, encoding="utf-8") as f:
                text = f.read()
            theirs = []
            stream = io.StringIO(text)
            while (g := chess.pgn.read_game(stream)) is not None:
                theirs.append(g)
            if len(theirs) != len(ours):
                problems.append(f"{rel}: python-chess reads {len(theirs)} games, rookery wrote {len(ours)}")
                continue
            for i, (g, (tags, moves, result)) in enumerate(zip(theirs, ours), 1):
                where = f"{rel} game {i}"
                if g.errors:
                    problems.append(f"{where}: python-chess errors {g.errors[:1]}")
                    continue
                if [m.uci() for m in g.mainline_moves()] != moves:
                    problems.append(f"{where}: python-chess reads other moves")
                if g.headers.get("Result") != result:
                    problems.append(f"{where}: result {g.headers.get('Result')} != {result}")
                if list(g.headers.keys())[:7] != STR:
                    problems.append(f"{where}: tag order {list(g.headers.keys())[:7]}")
                for name, value in tags:
                    if name not in ("FEN", "SetUp") and g.headers.get(name) != value:
                        problems.append(f"{where}: tag {name} {g.headers.get(name)!r} != {value!r}")

            # pgn-extract
            if have_pgn_extract and ours:
                out = os.path.join(tmp, "pe.pgn")
                log = os.path.join(tmp, "pe.log")
                subprocess.run([args.pgn_extract, "-s", "-Wlalg", "--nocomments", "--nonags",
                                "--novars", "-w100000", "-o", out, "-l", log, written],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
                with open(log, encoding="utf-8", errors="replace") as f:
                    # A warning about a game itself (a result tag the source got wrong,
                    # followed by the game's name and line) is not about how it is written.
                    lines = f.read().splitlines()
                    skip = set()
                    for i, l in enumerate(lines):
                        if "inconsistent with" in l:
                            skip.update({i, i + 1, i + 2})
                    complaints = [l for i, l in enumerate(lines) if l.strip() and i not in skip]
                if complaints:
                    problems.append(f"{rel}: pgn-extract reports: {complaints[:2]}")
                pe_games = []
                for g in open(out, encoding="utf-8", errors="replace").read().split("\n\n"):
                    if g.startswith("["):
                        continue
                    words = [w for w in g.split() if not w.endswith(".") and w not in ("1-0", "0-1", "1/2-1/2", "*")]
                    if g.strip():
                        pe_games.append([w.lower().replace("-", "").replace("x", "").rstrip("+#") for w in words])
                ours_lalg = [[m for m in moves] for _, moves, _ in ours]
                if len(pe_games) != len(ours_lalg):
                    problems.append(f"{rel}: pgn-extract wrote {len(pe_games)} games, rookery {len(ours_lalg)}")
                else:
                    for i, (a, b) in enumerate(zip(pe_games, ours_lalg), 1):
                        if [normalise_lalg(w) for w in a] != b:
                            problems.append(f"{rel} game {i}: pgn-extract reads other moves: {a[:6]} vs {b[:6]}")
                            break
    print(f"readback: {len(files)} files, {games_total} games written by rookery; "
          f"{len(problems)} problems")
    for p in problems[:20]:
        print("  " + p)
    return 1 if problems else 0


def normalise_lalg(word: str) -> str:
    """pgn-extract's long algebraic (`e2e4`, `e7e8=q` lowercased) in UCI."""
    return word.replace("=", "")


if __name__ == "__main__":
    sys.exit(main())
