#!/usr/bin/env python3
"""A sequential probability ratio test on match logs: has the evidence reached a bound?

    python3 crates/engine/tests/python/sprt.py --elo0 0 --elo1 20 \\
        crates/engine/tests/data/level8-sprt-60+0.6.jsonl
    python3 crates/engine/tests/python/sprt.py --check

Each line of a log is one batch as `calibrate.py --log` writes it. With `--games 2` a batch is
one opening played twice with the colours exchanged, and the test counts those pairs: a pair
scores 0, 0.5, 1, 1.5 or 2 points (the pentanomial model; the two games of a pair are not
independent, so counting games one by one would misjudge the variance). A log whose batches are
not all pairs can be read game by game with `--games-as-trials` (the trinomial model).

The statistic is the generalized log-likelihood ratio of H1 against H0, where H0 and H1 fix the
expected score at the one Elo difference `--elo0` or `--elo1` gives on the logistic scale
(s = 1 / (1 + 10^(-elo / 400))): for each hypothesis the distribution of the outcomes that is
most likely given the counts, among those with that mean, and the log of the ratio of the two
likelihoods. Counts of zero are taken as 0.001, so that a mean beyond every observed outcome
stays possible. The bounds for error rates alpha and beta are ln((1 - beta) / alpha) (accept
H1) and ln(beta / (1 - alpha)) (accept H0). The ratio may be looked at after every batch.

`--check` compares the ratio with figures this code did not produce: a closed form where the
outcomes are only 0 and 1, and the SPRT unit tests of the fastchess match runner
(Disservin/fastchess, MIT licence, `tests/sprt_test.cpp` at commit 74b0a8d), which give the
logistic ratio for four large matches to two decimals.
Standard library only.
"""

import argparse
import json
import math
import sys

# Outcomes of one trial, as a fraction of the points it can score.
PAIR_OUTCOMES = (0.0, 0.25, 0.5, 0.75, 1.0)
GAME_OUTCOMES = (0.0, 0.5, 1.0)


def expected_score(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def bounds(alpha, beta):
    """The log-likelihood ratio's bounds: (accept H0 at or below, accept H1 at or above)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def most_likely_with_mean(freqs, outcomes, mean):
    """The distribution over `outcomes` nearest the observed frequencies `freqs` (in
    likelihood) whose mean is `mean`. By Lagrange's method its probabilities are
    f_i / (1 + t (x_i - mean)) for the one t that makes them sum to 1 (equivalently, that makes
    their mean `mean`); t is found by bisection on the interval where all are positive."""
    gaps = [x - mean for x in outcomes]
    hi_gap, lo_gap = max(gaps), min(gaps)
    if hi_gap <= 0 or lo_gap >= 0:
        raise ValueError(f"mean {mean} lies outside the outcomes {outcomes}")
    lo, hi = -1 / hi_gap, -1 / lo_gap

    def drift(t):
        # Decreasing in t: positive below the root, negative above it.
        return sum(f * g / (1 + t * g) for f, g in zip(freqs, gaps))

    # Stay strictly inside the open interval.
    lo, hi = lo + 1e-12 * (hi - lo), hi - 1e-12 * (hi - lo)
    for _ in range(200):
        mid = (lo + hi) / 2
        if drift(mid) > 0:
            lo = mid
        else:
            hi = mid
    t = (lo + hi) / 2
    probs = [f / (1 + t * g) for f, g in zip(freqs, gaps)]
    total = sum(probs)
    return [p / total for p in probs]


def llr(counts, outcomes, elo0, elo1):
    """The generalized log-likelihood ratio of mean score s(elo1) against s(elo0)."""
    counts = [max(c, 1e-3) for c in counts]
    n = sum(counts)
    freqs = [c / n for c in counts]
    p0 = most_likely_with_mean(freqs, outcomes, expected_score(elo0))
    p1 = most_likely_with_mean(freqs, outcomes, expected_score(elo1))
    return sum(c * math.log(a / b) for c, a, b in zip(counts, p1, p0))


def llr_normal(counts, outcomes, elo0, elo1):
    """The usual normal approximation of the same ratio: N (s1 - s0) (2 m - s0 - s1) / (2 v),
    with m and v the trials' mean and variance. A cross-check, close to `llr` for small
    differences."""
    n = sum(counts)
    mean = sum(c * x for c, x in zip(counts, outcomes)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, outcomes)) / n
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def read_logs(paths, games_as_trials):
    """Pentanomial counts (pairs scoring 0, 0.5, 1, 1.5, 2) or, with `games_as_trials`,
    trinomial ones (losses, draws, wins), and the games' wins, draws and losses."""
    penta, tri = [0] * 5, [0] * 3
    for path in paths:
        with open(path) as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                row = json.loads(line)
                w, d, l = row["wins"], row["draws"], row["losses"]
                if not games_as_trials and w + d + l != 2:
                    sys.exit(f"{path}:{number}: a batch of {w + d + l} games, not a pair "
                             "(use --games-as-trials to count games one by one)")
                if w + d + l == 2:
                    penta[2 * w + d] += 1
                tri[0] += l
                tri[1] += d
                tri[2] += w
    return penta, tri


def check():
    """Figures from outside this code; exits non-zero on a mismatch."""
    failures = 0

    def expect(what, got, want, tolerance):
        nonlocal failures
        ok = abs(got - want) <= tolerance
        failures += not ok
        print(f"{'ok ' if ok else 'BAD'} {what}: {got:.4f}, expected {want:.4f} ± {tolerance}")

    # Only 0 and 1 observed: the most likely distribution with mean s is Bernoulli(s) exactly,
    # so the ratio is k ln(s1 / s0) + (n - k) ln((1 - s1) / (1 - s0)).
    k, n = 60, 100
    s0, s1 = expected_score(0), expected_score(50)
    closed = k * math.log(s1 / s0) + (n - k) * math.log((1 - s1) / (1 - s0))
    expect("two outcomes, closed form", llr([n - k, 0, k], GAME_OUTCOMES, 0, 50), closed, 0.01)
    # fastchess's tests/sprt_test.cpp: trinomial Stats(wins, losses, draws), pentanomial
    # Stats(LL, LD, and the four pairs scoring 1 in two counts, WD, WW); logistic model,
    # alpha = beta = 0.05; each figure to two decimals, checked there with epsilon 0.01.
    for (wins, losses, draws), elo0, elo1, want in [
        ((21404, 21184, 40708), 0.5, 2.5, -1.57),
        ((57433, 57030, 106593), 0.0, 2.0, -2.59),
    ]:
        got = llr([losses, draws, wins], GAME_OUTCOMES, elo0, elo1)
        expect(f"fastchess trinomial {wins}/{losses}/{draws}", got, want, 0.01)
    for (ll, ld, even_a, even_b, wd, ww), elo0, elo1, want in [
        ((223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, -3.07),
        ((871, 26175, 55003, 980, 26678, 821), 0.0, 2.0, -4.98),
    ]:
        got = llr([ll, ld, even_a + even_b, wd, ww], PAIR_OUTCOMES, elo0, elo1)
        expect(f"fastchess pentanomial {ll}/{ld}/{even_a + even_b}/{wd}/{ww}", got, want, 0.01)
    # The normal approximation agrees with the exact ratio for a small Elo gap.
    counts = [223, 9863, 21279, 10037, 246]
    expect("normal approximation beside the exact ratio",
           llr_normal(counts, PAIR_OUTCOMES, 0.5, 2.5), llr(counts, PAIR_OUTCOMES, 0.5, 2.5), 0.05)
    # A mean outside every observed outcome is still possible (counts of zero become 0.001).
    all_wins = llr([0, 0, 0, 0, 50], PAIR_OUTCOMES, 0, 20)
    expect("fifty won pairs favour H1", float(all_wins > 0), 1.0, 0)
    if failures:
        sys.exit(f"{failures} check(s) failed")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("logs", nargs="*", help="calibrate.py --log files")
    p.add_argument("--elo0", type=float, default=0.0, help="H0's Elo difference (default 0)")
    p.add_argument("--elo1", type=float, default=20.0, help="H1's Elo difference (default 20)")
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--beta", type=float, default=0.05)
    p.add_argument("--games-as-trials", action="store_true",
                   help="count games one by one (trinomial) instead of pairs")
    p.add_argument("--check", action="store_true", help="check against outside figures")
    args = p.parse_args()
    if args.check:
        check()
        return
    if not args.logs:
        p.error("give the logs to read, or --check")
    if not (0 < args.alpha < 1 and 0 < args.beta < 1 and args.elo0 < args.elo1):
        p.error("need 0 < alpha, beta < 1 and elo0 < elo1")
    penta, tri = read_logs(args.logs, args.games_as_trials)
    if args.games_as_trials:
        counts, outcomes, trials = tri, GAME_OUTCOMES, "games"
    else:
        counts, outcomes, trials = penta, PAIR_OUTCOMES, "pairs"
    if sum(counts) == 0:
        sys.exit("no games in the logs")
    lower, upper = bounds(args.alpha, args.beta)
    ratio = llr(counts, outcomes, args.elo0, args.elo1)
    approx = llr_normal(counts, outcomes, args.elo0, args.elo1)
    losses, draws, wins = tri
    games = wins + draws + losses
    print(f"games: +{wins} ={draws} -{losses} of {games}, score {(wins + draws / 2) / games:.1%}")
    if not args.games_as_trials:
        print("pairs scoring 0, 0.5, 1, 1.5, 2: " + " ".join(map(str, penta)))
    print(f"H0 Elo {args.elo0:+g}, H1 Elo {args.elo1:+g}, alpha {args.alpha}, beta {args.beta}, "
          f"{sum(counts)} {trials}")
    print(f"LLR {ratio:+.3f} (normal approximation {approx:+.3f}), bounds [{lower:+.3f}, "
          f"{upper:+.3f}]")
    if ratio >= upper:
        print("H1 accepted: the score is above H0's")
    elif ratio <= lower:
        print("H0 accepted: the score is not H1's")
    else:
        print("no decision yet")


if __name__ == "__main__":
    main()
