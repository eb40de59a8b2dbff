#!/usr/bin/env bash
# Server load figures: builds in release mode, then on a fresh database (see bench/lib.sh)
#   1. a ladder of loads, games x moves per second per game, each on a freshly started server;
#   2. memory per idle game: the server's RSS with 0 and then 10,000 idle games;
#   3. many connections: 1,990 games with 8 spectators each = 19,900 WebSockets (the machine's
#      open-file limit, `ulimit -Hn`, bounds one process; two loadgen processes share them)
# and prints Markdown tables for BENCHMARKS.md.
#
#   bench/server.sh
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test bench/server.sh
#   SECONDS_PER_STEP=20 bench/server.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
step_seconds="${SECONDS_PER_STEP:-20}"

echo "Machine: $(machine); $step_seconds s measured per step, after 5 s of warm-up (games set up)."
echo
echo "| games | moves/s asked | moves/s acked | ack p50 / p99 | opponent p50 / p99 | server CPU per move | server RSS max | errors |"
echo "|---|---|---|---|---|---|---|---|"
# games, moves per second per game
for load in "100 1" "500 2" "1000 1" "1000 3" "1000 5" "2000 4"; do
  set -- $load
  start_server
  out=$("$loadgen" --server "127.0.0.1:$port" --games "$1" --rate "$2" --warmup 5 \
        --seconds $((step_seconds + 5)) --pid "$server" 2>/dev/null)
  stop_server
  read_report "$out"
  echo "| $1 | $(( $1 * $2 )) | $acked | $ack | $opp | $cpu | $rss | ${errors:-none} |"
done

echo
start_server
idle=$("$loadgen" --server "127.0.0.1:$port" --idle 10000 --pid "$server" 2>/dev/null)
stop_server
echo "Idle games: $(tr '\n' ' ' <<<"$idle")"

echo
start_server
halves=()
for half in 0 1; do
  "$loadgen" --server "127.0.0.1:$port" --games 995 --spectators 8 --rate 0.2 \
    --seconds 90 --setup-concurrency 16 --pid "$server" >"$tmp/sockets$half.txt" 2>/dev/null &
  halves+=($!)
done
wait "${halves[@]}"
stop_server
for half in 0 1; do
  echo "Connections, loadgen $half: $(grep -E '^(sockets|server RSS|error)' "$tmp/sockets$half.txt" | tr '\n' ' ')"
done
