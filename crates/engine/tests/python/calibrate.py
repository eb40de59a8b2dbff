#!/usr/bin/env python3
"""Gives every level of rookery-engine a rating on Stockfish's UCI_Elo scale, with an error bar.

    cargo build --release -p rookery-engine
    python3 crates/engine/tests/python/calibrate.py --games 100 --log levels.jsonl \\
        --pairs 1:2 2:3 3:4 4:5 5:6 6:7 7:8 4:sf1350 5:sf1350 6:sf1500 7:sf1800 8:sf2000
    python3 crates/engine/tests/python/calibrate.py --fit levels.jsonl

Each pair `A:B` (a level 1-8, or `sfNNNN` for Stockfish 15.1 with UCI_LimitStrength at that
UCI_Elo) plays `--games` games with strength.py's match rules (time control, alternating
colours, openings). Every result is appended to `--log` as one JSON line, so matches played in
separate runs (or at different speeds) can be combined.

The fit: each pair's score s (standard error e, from the per-game scores) gives an Elo
difference d = -400 log10(1/s - 1) with standard error 400 / ln 10 * e / (s (1 - s)). The
Stockfish opponents are fixed at their UCI_Elo; the levels' ratings are the weighted least
squares solution of r_A - r_B = d over all pairs (weights 1/error^2), and their 95% intervals
come from the solution's covariance. Levels below Stockfish's floor (1350) are placed by their
games against the level above: their error bars add up along the chain. A clean sweep has no
finite difference; it is reported and left out of the fit, as are matches played with time odds
(`--our-tc`, strength.py).
"""

import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import strength  # noqa: E402


def parse_side(text):
    if text.startswith("sf"):
        return ("stockfish", int(text[2:]))
    return ("rookery", int(text))


def name(side):
    kind, value = side
    return f"sf{value}" if kind == "stockfish" else f"L{value}"


def play_pairs(args):
    for pair in args.pairs:
        a, _, b = pair.partition(":")
        ours, theirs = parse_side(a), parse_side(b)
        if ours[0] != "rookery":
            sys.exit(f"{pair}: the first side must be a level")
        w, d, l, mean, diff, lo, hi = strength.match(ours, theirs, args)
        row = {"a": name(ours), "b": name(theirs), "wins": w, "draws": d, "losses": l,
               "tc": args.tc}
        if args.our_tc:
            # Time odds: not the same measurement as an even clock.
            row["our_tc"] = args.our_tc
        print(f"{row['a']} vs {row['b']} at {strength.speed(args)}: +{w} ={d} -{l}, "
              f"score {mean:.1%}, Elo {diff:+.0f} [{lo:+.0f}, {hi:+.0f}]", flush=True)
        if args.log:
            with open(args.log, "a") as f:
                f.write(json.dumps(row) + "\n")


def difference(row):
    """(Elo difference of a over b, its standard error), or None for a sweep."""
    s, se = strength.mean_and_error(row["wins"], row["draws"], row["losses"])
    if s in (0.0, 1.0):
        return None
    return strength.elo_diff(s), 400 / math.log(10) * se / (s * (1 - s))


def solve(matrix, vector):
    """Solves matrix x = vector (small, symmetric positive definite) by Gauss-Jordan; also
    returns the inverse (the covariance of the fit)."""
    n = len(vector)
    aug = [list(matrix[i]) + [vector[i]] + [1.0 if j == i else 0.0 for j in range(n)]
           for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(aug[r][col]))
        if abs(aug[pivot][col]) < 1e-12:
            raise ValueError("the pairs do not connect every level to a Stockfish anchor")
        aug[col], aug[pivot] = aug[pivot], aug[col]
        p = aug[col][col]
        aug[col] = [v / p for v in aug[col]]
        for r in range(n):
            if r != col and aug[r][col] != 0:
                f = aug[r][col]
                aug[r] = [v - f * c for v, c in zip(aug[r], aug[col])]
    return [aug[i][n] for i in range(n)], [aug[i][n + 1:] for i in range(n)]


def fit(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            rows += [json.loads(line) for line in f if line.strip()]
    # Merge repeated pairs (same sides, same speed) into one result.
    merged = {}
    for r in rows:
        if "our_tc" in r:
            print(f"{r['a']} vs {r['b']} with time odds ({r['our_tc']} against {r['tc']}): "
                  "left out of the fit")
            continue
        key = (r["a"], r["b"], r["tc"])
        m = merged.setdefault(key, {"a": r["a"], "b": r["b"], "tc": r["tc"],
                                    "wins": 0, "draws": 0, "losses": 0})
        for k in ("wins", "draws", "losses"):
            m[k] += r[k]
    edges = []
    for r in merged.values():
        n = r["wins"] + r["draws"] + r["losses"]
        got = difference(r)
        text = f"{r['a']} vs {r['b']} at {r['tc']}: +{r['wins']} ={r['draws']} -{r['losses']} of {n}"
        if got is None:
            print(f"{text}: a sweep, left out of the fit")
            continue
        d, se = got
        print(f"{text}: Elo {d:+.0f} +- {1.96 * se:.0f}")
        edges.append((r["a"], r["b"], d, se))
    levels = sorted({s for e in edges for s in e[:2] if s.startswith("L")},
                    key=lambda s: int(s[1:]))
    index = {lv: i for i, lv in enumerate(levels)}
    n = len(levels)
    normal = [[0.0] * n for _ in range(n)]
    rhs = [0.0] * n
    for a, b, d, se in edges:
        w = 1 / se ** 2
        # Row of the design matrix: +1 for a, -1 for b; anchors move to the right side.
        coef = {}
        target = d
        for side, sign in ((a, 1), (b, -1)):
            if side.startswith("sf"):
                target -= sign * int(side[2:])
            else:
                coef[index[side]] = coef.get(index[side], 0) + sign
        for i, ci in coef.items():
            rhs[i] += w * ci * target
            for j, cj in coef.items():
                normal[i][j] += w * ci * cj
    try:
        ratings, cov = solve(normal, rhs)
    except ValueError as e:
        sys.exit(f"cannot fit: {e}")
    print()
    for lv in levels:
        i = index[lv]
        print(f"level {lv[1:]}: {ratings[i]:.0f} +- {1.96 * math.sqrt(cov[i][i]):.0f}")
    return {lv: (ratings[index[lv]], 1.96 * math.sqrt(cov[index[lv]][index[lv]])) for lv in levels}


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(__file__)
    p.add_argument("--engine", default=os.path.join(here, "../../../../target/release/rookery-engine"))
    p.add_argument("--stockfish", default="/usr/games/stockfish")
    p.add_argument("--pairs", nargs="*", default=[], metavar="A:B")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--tc", default="10+0.1")
    p.add_argument("--concurrency", type=int, default=2)
    strength.add_opening_args(p)
    p.add_argument("--log", help="append each pair's result here (JSON lines)")
    p.add_argument("--fit", nargs="*", default=[], metavar="LOG",
                   help="fit ratings from these logs (after playing --pairs, if any)")
    args = p.parse_args()
    strength.load_openings(args, p)
    play_pairs(args)
    if args.fit:
        fit(args.fit)


if __name__ == "__main__":
    sys.exit(main())
