#!/usr/bin/env python3
"""Rookery's Dutch pairings against bbpPairings's, round by round, on random tournaments.

bbpPairings (the FIDE-endorsed engine; build it from its sources, see docs/TOURNAMENTS.md)
makes random tournaments with `-g` (its own generator: draws, forfeits, requested byes,
withdrawals). Every round of each is cut out of it (the rounds before it, plus the byes
asked for it) and paired by both programs, `bbpPairings --dutch CUT -p` and
`rookery pairings --dutch CUT -p`; the two outputs must be identical, byte for byte.

  compare_bbp.py --bbp bbpPairings.exe --rookery target/release/rookery --tournaments 200

With --check, each whole tournament is also checked by both checkers (`-c`), as generated
and with one game's colours swapped in a random round; their reports must be identical, and
Rookery's exit status must say whether bbpPairings's report found a fault. With --baku, every
file names the Dutch system with Baku acceleration (`192 FIDE_DUTCH_2025_BAKU`).

Prints one line per tournament that differs (the cut file is kept under --keep) and a
summary with the time each program took; exits 1 on any difference or error.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile
import time


def records(line):
    """The round records of a 001 line, each the 8 characters from column 92 on."""
    out = []
    at = 91
    while at < len(line):
        out.append(line[at:at + 8].ljust(8))
        at += 10
    return out


def points(rec):
    r = rec[7]
    if r in "1+FUW":
        return 10
    if r in "=HD":
        return 5
    return 0


def participated(rec):
    return rec[:4].strip() not in ("", "0000") or rec[7] in "U+"


def cut(lines, rounds, r):
    """The tournament before round r (from 1): rounds 1..r-1, and the byes asked for round r."""
    out = []
    first_colours = []
    for line in lines:
        if not line.startswith("001"):
            if line[:3] not in ("XXR", "XXC"):
                out.append(line)
            continue
        recs = records(line)
        kept = recs[: r - 1]
        if len(recs) >= r:
            ahead = recs[r - 1]
            if ahead[:4].strip() in ("", "0000") and ahead[7] in "HFZ":
                kept.append(ahead)
        total = sum(points(x) for x in recs[: r - 1])
        head = line[:80] + f"{total // 10:>2}.{total % 10}" + line[84:91]
        body = "".join("  " + x if i else x for i, x in enumerate(kept))
        out.append((head.rstrip().ljust(91) + body).rstrip() if kept else head.rstrip())
        if recs:
            first_colours.append((participated(recs[0]), recs[0][5]))
    out.append(f"XXR {rounds}")
    # The first round's colour of the top player (as bbpPairings infers it from round 1).
    effective = 0
    for took_part, colour in first_colours:
        if took_part:
            if colour in "wb":
                if effective % 2:
                    colour = "b" if colour == "w" else "w"
                out.append("XXC " + ("white1" if colour == "w" else "black1"))
                break
            effective += 1
    return "\r".join(out) + "\r"


def with_system(lines, baku):
    """The lines, naming the Dutch system with Baku acceleration when asked."""
    lines = [l for l in lines if not l.startswith("192")]
    return lines + ["192 FIDE_DUTCH_2025_BAKU"] if baku else lines


def tampered(lines, prng):
    """The tournament with the colours of one game swapped, in a random round."""
    games = []
    for n, line in enumerate(lines):
        if line.startswith("001"):
            for r, rec in enumerate(records(line)):
                if rec[:4].strip() not in ("", "0000") and rec[5] in "wb":
                    games.append((int(line[4:8]), r, int(rec[:4])))
    if not games:
        return None
    a, r, b = prng.choice(games)
    out = []
    for line in lines:
        if line.startswith("001") and int(line[4:8]) in (a, b):
            at = 91 + 10 * r + 5
            line = line[:at] + ("b" if line[at] == "w" else "w") + line[at + 1:]
        out.append(line)
    return out


def found_fault(report):
    return "Checker pairings" in report or "No valid pairing" in report


def compare_checkers(args, tmp, lines, label):
    """Both checkers on one whole tournament; a description of the difference, if any."""
    path = os.path.join(tmp, "t.trf")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    theirs = run([args.bbp, "--dutch", path, "-c"])
    ours = run([args.rookery, "pairings", "--dutch", path, "-c"])
    if theirs[0] != 0:
        return f"{label}: bbpPairings's checker failed ({theirs[0]}): {theirs[2].strip()[:200]}", None
    faulty = found_fault(theirs[1])
    if ours[1] != theirs[1] or ours[0] != (1 if faulty else 0):
        os.makedirs(args.keep, exist_ok=True)
        kept = os.path.join(args.keep, f"check-{label}.trf")
        with open(kept, "w") as f:
            f.write("\n".join(lines) + "\n")
        return (f"{label}: the checkers differ ({kept}); rookery exit {ours[0]} {ours[2].strip()[:200]}\n"
                f"bbpPairings:\n{theirs[1][:800]}\nrookery:\n{ours[1][:800]}"), faulty
    return None, faulty


def generate(bbp, prng, tmp, players, rounds):
    """A random tournament from bbpPairings's generator, its other settings drawn from prng:
    (generator seed, file, exit status, error text)."""
    config = os.path.join(tmp, "rtg.cfg")
    with open(config, "w") as f:
        f.write(f"PlayersNumber={players}\nRoundsNumber={rounds}\n"
                f"DrawPercentage={prng.randint(0, 60)}\nForfeitRate={prng.choice([3, 10, 40, 1000])}\n"
                f"RetiredRate={prng.choice([3, 10, 40, 1000])}\nHalfPointByeRate={prng.choice([3, 10, 40, 1000])}\n"
                f"HighestRating=2700\nLowestRating=1200\n")
    seed = prng.randint(1, 2**31 - 1)
    trf = os.path.join(tmp, "t.trf")
    code, _, err, _ = run([bbp, "--dutch", "-g", config, "-o", trf, "-s", str(seed)])
    return seed, trf, code, err


def run(cmd):
    started = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr, time.perf_counter() - started


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bbp", required=True)
    ap.add_argument("--rookery", required=True)
    ap.add_argument("--tournaments", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-players", type=int, default=6)
    ap.add_argument("--max-players", type=int, default=300)
    ap.add_argument("--keep", default="bbp-differences")
    ap.add_argument("--min-rounds", type=int, default=1,
                    help="fail unless at least this many rounds were compared")
    ap.add_argument("--check", action="store_true",
                    help="also compare the checkers (-c) on every whole tournament")
    ap.add_argument("--baku", action="store_true",
                    help="pair and check with Baku acceleration")
    args = ap.parse_args()
    prng = random.Random(args.seed)
    tmp = tempfile.mkdtemp()
    rounds_compared = 0
    differences = 0
    times = [0.0, 0.0]
    # Tournaments checked, of which bbpPairings found faulty, and where the checkers differ.
    checks = [0, 0, 0]
    for t in range(args.tournaments):
        # Mostly small fields, some large: sizes spread on a log scale.
        players = int(round(args.min_players * (args.max_players / args.min_players) ** prng.random()))
        rounds = prng.randint(3, min(13, players - 1))
        seed, trf, code, err = generate(args.bbp, prng, tmp, players, rounds)
        if code != 0:
            print(f"tournament {t}: the generator failed ({code}): {err.strip()}")
            continue
        with open(trf, encoding="utf-8", errors="replace") as f:
            lines = [l for l in f.read().replace("\r\n", "\n").replace("\r", "\n").split("\n") if l.strip()]
        played = max(len(records(l)) for l in lines if l.startswith("001"))
        if args.check:
            for label, version in (("as-generated", lines), ("tampered", tampered(lines, prng))):
                if version is None:
                    continue
                fault, faulty = compare_checkers(args, tmp, with_system(version, args.baku),
                                                 f"seed{seed}-p{players}-{label}")
                checks[0] += 1
                checks[1] += bool(faulty)
                if fault:
                    checks[2] += 1
                    print(f"tournament {t}: {fault}", flush=True)
        for r in range(1, played + 1):
            text = cut(with_system(lines, args.baku), rounds, r)
            path = os.path.join(tmp, "cut.trf")
            with open(path, "w") as f:
                f.write(text)
            theirs = run([args.bbp, "--dutch", path, "-p", os.path.join(tmp, "theirs.txt")])
            ours = run([args.rookery, "pairings", "--dutch", path, "-p", os.path.join(tmp, "ours.txt")])
            times[0] += theirs[3]
            times[1] += ours[3]
            def read(name):
                try:
                    with open(os.path.join(tmp, name)) as f:
                        return f.read().replace("\r", "").strip()
                except FileNotFoundError:
                    return ""
            a, b = (read("theirs.txt") if theirs[0] == 0 else f"exit {theirs[0]}",
                    read("ours.txt") if ours[0] == 0 else f"exit {ours[0]}")
            for name in ("theirs.txt", "ours.txt"):
                try:
                    os.remove(os.path.join(tmp, name))
                except FileNotFoundError:
                    pass
            rounds_compared += 1
            if a != b:
                differences += 1
                os.makedirs(args.keep, exist_ok=True)
                kept = os.path.join(args.keep, f"seed{seed}-p{players}-round{r}.trf")
                with open(kept, "w") as f:
                    f.write(text)
                print(f"tournament {t} (seed {seed}, {players} players), round {r}: differs "
                      f"({kept}); bbpPairings {a.splitlines()[:3]} rookery {b.splitlines()[:3]} "
                      f"{ours[2].strip()[:200]}", flush=True)
    print(f"{args.tournaments} tournaments, {rounds_compared} rounds compared, {differences} differ; "
          f"time pairing: bbpPairings {times[0]:.1f} s, rookery {times[1]:.1f} s")
    if args.check:
        print(f"checkers: {checks[0]} tournaments checked, {checks[1]} with rounds not as the "
              f"system pairs them, {checks[2]} reported differently")
        if not checks[1]:
            print("no tournament checked had a round out of order: the check proved nothing")
            return 1
    if rounds_compared < args.min_rounds:
        print(f"only {rounds_compared} rounds compared (at least {args.min_rounds} expected)")
        return 1
    return 1 if differences or checks[2] else 0


if __name__ == "__main__":
    sys.exit(main())
