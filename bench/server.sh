#!/usr/bin/env bash
# Server load ladder: builds in release mode, starts the server on a fresh database (SQLite; or
# PostgreSQL when DATABASE_URL is given), runs rookery-loadgen at rising loads and prints a
# Markdown table (paste it into BENCHMARKS.md).
#
#   bench/server.sh                  # SQLite in a temporary directory
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test bench/server.sh
#   SECONDS_PER_STEP=20 bench/server.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p rookery-server -p rookery-loadgen >&2

step_seconds="${SECONDS_PER_STEP:-20}"
tmp="$(mktemp -d)"
url="${DATABASE_URL:-sqlite://$tmp/bench.db}"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
target/release/rookery --listen "127.0.0.1:$port" --database-url "$url" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break
  sleep 0.1
done

echo "| games | spectators/game | moves/s asked | moves/s acked | ack p50 / p99 | opponent p50 / p99 | sockets | server RSS max | errors |"
echo "|---|---|---|---|---|---|---|---|---|"
# games, spectators per game, moves per second per game
for load in "100 0 1" "500 0 2" "1000 0 1" "1000 0 5" "2000 0 4" "1000 4 1"; do
  set -- $load
  out=$(target/release/rookery-loadgen --server "127.0.0.1:$port" --games "$1" --spectators "$2" \
        --rate "$3" --seconds "$step_seconds" --pid "$server" 2>/dev/null)
  acked=$(sed -n 's/.* = \([0-9]*\) moves\/s$/\1/p' <<<"$out")
  ack=$(sed -n 's/^sent -> ack: p50 \([0-9.]*\) ms, p90 [0-9.]* ms, p99 \([0-9.]*\) ms.*/\1 \/ \2 ms/p' <<<"$out")
  opp=$(sed -n 's/^sent -> opponent: p50 \([0-9.]*\) ms, p90 [0-9.]* ms, p99 \([0-9.]*\) ms.*/\1 \/ \2 ms/p' <<<"$out")
  sockets=$(sed -n 's/^sockets held at the end: //p' <<<"$out")
  rss=$(sed -n 's/.*MiB at the end, \([0-9.]*\) MiB at most/\1 MiB/p' <<<"$out")
  errors=$(grep -c '^error:' <<<"$out" || true)
  echo "| $1 | $2 | $(( $1 * ${3%.*} )) | $acked | $ack | $opp | $sockets | $rss | $errors |"
done
