#!/usr/bin/env bash
# Idle games and sleeping rooms (BENCHMARKS.md "Idle games", issue 55): sets up N games of a
# time control that then sit still (1.e4 e5, nobody connected), on a fresh SQLite database,
# with the rooms sleeping after SLEEP seconds (0: never), and reports the server's RSS per
# game after SETTLE seconds; with FLAGS=1 it then waits for every White flag and reports how
# late each fell after its time (from the stored moves: 1...e5's time plus White's clock).
# CORR=N sets up N correspondence games first, beside them.
# Usage: [FLAGS=1] [CORR=N] bench/sleep.sh BINARY GAMES TIME_CONTROL SLEEP [SETTLE]
set -euo pipefail
BIN=$1; GAMES=$2; TC=$3; SLEEP=$4; SETTLE=${5:-10}
dir="$(mktemp -d)"
trap 'kill $PID 2>/dev/null || true; rm -rf "$dir"' EXIT
loadgen="$(dirname "$0")/../target/release/rookery-loadgen"
"$BIN" --listen 127.0.0.1:8811 --database-url "sqlite://$dir/s.db" --rate-limits off \
  --max-connections-per-address 100000 --hibernate-after "$SLEEP" >"$dir/server.log" 2>&1 &
PID=$!
sleep 1.5
start=$(date +%s)
if [ -n "${CORR:-}" ]; then
  # First CORR correspondence games (three days a move), asleep beside the others.
  "$loadgen" --server 127.0.0.1:8811 --idle "$CORR" --time-control 3d --settle 0 \
    --setup-concurrency 32 --pid "$PID" | sed "s/^/3d first, sleep after $SLEEP s: /"
fi
"$loadgen" --server 127.0.0.1:8811 --idle "$GAMES" --time-control "$TC" --settle "$SETTLE" \
  --setup-concurrency 32 --pid "$PID" | sed "s/^/$TC, sleep after $SLEEP s: /"
echo "set up and settled in $(( $(date +%s) - start )) s"
if [ "${FLAGS:-0}" = 1 ]; then
  python3 - "$dir/s.db" "$GAMES" <<'PY'
import sqlite3, sys, time
db, n = sys.argv[1], int(sys.argv[2])
deadline = time.time() + 900
while True:
    c = sqlite3.connect(db)
    over = c.execute("SELECT COUNT(*) FROM games WHERE status = 'over' "
                     "AND time_control != '3d'").fetchone()[0]
    if over >= n or time.time() > deadline:
        break
    c.close()
    time.sleep(2)
late = [r[0] for r in c.execute(
    "SELECT g.finished_at - (m2.at_ms + m1.clock_ms) FROM games g "
    "JOIN moves m1 ON m1.game_id = g.id AND m1.ply = 1 "
    "JOIN moves m2 ON m2.game_id = g.id AND m2.ply = 2 "
    "WHERE g.status = 'over' AND g.termination = 'time forfeit'")]
late.sort()
if not late:
    sys.exit("no flag fell")
pick = lambda q: late[min(len(late) - 1, int(q * len(late)))]
print(f"flags: {len(late)} of {n} fell; ms after their time: min {late[0]}, p50 {pick(0.5)}, "
      f"p99 {pick(0.99)}, max {late[-1]}")
PY
fi
