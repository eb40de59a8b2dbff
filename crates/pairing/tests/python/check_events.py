#!/usr/bin/env python3
"""Events run by Rookery (`event.rs`), checked by bbpPairings's checker.

Each random Swiss (late entries, withdrawals, half- and zero-point byes, forfeits; the
results drawn) is run to its end by the `random_event` example, and its report is given to
`bbpPairings --dutch FILE -c`, which pairs every round again: it must find every round as
the Dutch system pairs it. An event stopped by a round Rookery cannot pair (a small field out
of opponents) is given to `bbpPairings -p` as that round's pairing read it: it must find no
pairing either.

  check_events.py --bbp tools/bbpPairings/bbpPairings.exe \\
    --event target/release/examples/random_event --events 100

Exits 1 on any round bbpPairings pairs otherwise, or any error.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bbp", required=True)
    ap.add_argument("--event", required=True)
    ap.add_argument("--events", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-players", type=int, default=80)
    ap.add_argument("--keep", default="event-differences")
    args = ap.parse_args()
    prng = random.Random(args.seed)
    tmp = tempfile.mkdtemp()
    rounds_checked = faults = stuck = 0
    for n in range(args.events):
        seed = prng.randint(1, 2**62)
        players = prng.randint(6, args.max_players)
        rounds = prng.randint(3, min(11, players - 1))
        made = subprocess.run([args.event, str(seed), str(players), str(rounds)],
                              capture_output=True, text=True)
        if made.returncode == 3:
            # Rookery found no pairing for a round: bbpPairings must find none either.
            path = os.path.join(tmp, "stuck.trf")
            with open(path, "w") as f:
                f.write(made.stdout)
            paired = subprocess.run([args.bbp, "--dutch", path, "-p"], capture_output=True, text=True)
            stuck += 1
            if paired.returncode != 1:
                faults += 1
                print(f"event {n} (seed {seed}): no pairing for Rookery, bbpPairings exits "
                      f"{paired.returncode}: {paired.stdout[:300]}")
            continue
        if made.returncode != 0:
            print(f"event {n} (seed {seed}, {players} players, {rounds} rounds): "
                  f"{made.stderr.strip()}")
            faults += 1
            continue
        path = os.path.join(tmp, "event.trf")
        with open(path, "w") as f:
            f.write(made.stdout)
        checked = subprocess.run([args.bbp, "--dutch", path, "-c"], capture_output=True, text=True)
        report = checked.stdout
        rounds_checked += report.count(": Round #")
        if checked.returncode != 0 or "Checker pairings" in report or "No valid pairing" in report:
            faults += 1
            os.makedirs(args.keep, exist_ok=True)
            kept = os.path.join(args.keep, f"event-{seed}.trf")
            with open(kept, "w") as f:
                f.write(made.stdout)
            print(f"event {n} (seed {seed}): bbpPairings disagrees ({kept}):\n"
                  f"{report[:1500]}{checked.stderr[:500]}", flush=True)
    print(f"{args.events} events, {rounds_checked} rounds checked by bbpPairings, {stuck} stopped "
          f"where neither program finds a pairing, {faults} faults")
    if rounds_checked == 0:
        return 1
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
