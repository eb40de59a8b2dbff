#!/usr/bin/env python3
"""Rookery's tie-breaks against FIDE's tie-break checker, on random tournaments.

bbpPairings's generator (`-g`) makes random Swiss tournaments (draws, forfeits, requested
byes, withdrawals); each is given to FIDE's checker (tools/TieBreakServer,
`tiebreakchecker.py -s -dT -t LIST`) and to `rookery tiebreaks FILE -t LIST`, for several
lists of tie-breaks (direct encounter at different places), and every value and every rank
must be equal.

  compare_tiebreaks.py --bbp tools/bbpPairings/bbpPairings.exe \\
    --checker tools/TieBreakServer/tiebreakchecker.py --rookery target/release/rookery \\
    --tournaments 100

Prints each difference and a summary; exits 1 on any difference or error.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile
from decimal import Decimal

from compare_bbp import generate

LISTS = [
    "PTS BH BH/C1 BH/M1 SB SB/C1 WIN WON BPG BWG REP ARO ARO/C1 ARO/M1 TPR PS PS/C1".split(),
    "PTS DE BH/C1 BH SB".split(),
    "PTS BH/C1 BH DE".split(),
    "PTS WIN DE".split(),
]


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def table(text):
    rows = [l.split("\t") for l in text.strip().splitlines() if l.strip()]
    return rows[0], {r[0]: r[1:] for r in rows[1:]}


def same(a, b):
    # No value (an average without rated games): FIDE's checker prints None as "-0".
    if a == "-0" and b == "-":
        return True
    try:
        return Decimal(a) == Decimal(b)
    except Exception:
        return a == b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bbp", required=True)
    ap.add_argument("--checker", required=True)
    ap.add_argument("--rookery", required=True)
    ap.add_argument("--tournaments", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-players", type=int, default=60)
    ap.add_argument("--keep", default="tiebreak-differences")
    ap.add_argument("--min-values", type=int, default=1,
                    help="fail unless at least this many values were compared")
    args = ap.parse_args()
    prng = random.Random(args.seed)
    tmp = tempfile.mkdtemp()
    compared = differences = errors = 0
    for t in range(args.tournaments):
        players = prng.randint(6, args.max_players)
        rounds = prng.randint(3, min(11, players - 1))
        seed, trf, code, _ = generate(args.bbp, prng, tmp, players, rounds)
        if code != 0:
            continue
        for tbs in LISTS:
            code, theirs, err = run([sys.executable, args.checker, "-i", trf, "-s", "-dT", "-t", *tbs])
            if code != 0 or not theirs.strip():
                print(f"tournament {t} (seed {seed}): FIDE's checker failed: {err.strip()[-300:]}")
                errors += 1
                continue
            code, ours, err = run([args.rookery, "tiebreaks", trf, "-t", *tbs])
            if code != 0:
                print(f"tournament {t} (seed {seed}): rookery failed: {err.strip()}")
                errors += 1
                continue
            (h1, a), (h2, b) = table(theirs), table(ours)
            bad = []
            for sno, row in a.items():
                other = b.get(sno)
                if other is None or len(other) != len(row):
                    bad.append(f"player {sno}: missing")
                    continue
                for name, x, y in zip(h1[1:], row, other):
                    compared += 1
                    if not same(x, y):
                        bad.append(f"player {sno} {name}: FIDE {x}, rookery {y}")
            if bad:
                differences += 1
                os.makedirs(args.keep, exist_ok=True)
                kept = os.path.join(args.keep, f"seed{seed}-p{players}.trf")
                with open(trf) as src, open(kept, "w") as dst:
                    dst.write(src.read())
                print(f"tournament {t} (seed {seed}, {players} players, {' '.join(tbs)}): "
                      f"{len(bad)} values differ ({kept}): {bad[:5]}", flush=True)
    print(f"{args.tournaments} tournaments, {compared} values compared, "
          f"{differences} tables differ, {errors} errors")
    if compared < args.min_values:
        print(f"only {compared} values compared (at least {args.min_values} expected)")
        return 1
    return 1 if differences or errors else 0


if __name__ == "__main__":
    sys.exit(main())
