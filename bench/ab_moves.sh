#!/usr/bin/env bash
# One run of the server-under-load measurement for an A/B comparison of two builds
# (BENCHMARKS.md, issue 55): a fresh database, the server binary given, 2,000 games x 4
# moves/s (GAMES, RATE to change), 20 s after 5 s of warm-up; prints moves/s, the opponent's
# p50/p99 and the server's CPU a move. Alternate the builds: run it A, B, A, B.
# Usage: bench/ab_moves.sh BINARY LABEL [pg]   (pg: a fresh PostgreSQL database `ab`;
# LOADGEN: another load generator's binary)
set -euo pipefail
BIN=$1; LABEL=$2; DB=${3:-sqlite}
dir="$(mktemp -d)"
loadgen="${LOADGEN:-$(dirname "$0")/../target/release/rookery-loadgen}"
if [ "$DB" = pg ]; then
  psql -q -h 127.0.0.1 -U postgres -d test -c "DROP DATABASE IF EXISTS ab WITH (FORCE)" 2>/dev/null
  psql -q -h 127.0.0.1 -U postgres -d test -c "CREATE DATABASE ab"
  URL=postgres://postgres@127.0.0.1:5432/ab
else
  URL="sqlite://$dir/ab.sqlite"
fi
"$BIN" --listen 127.0.0.1:8810 --database-url "$URL" --rate-limits off \
  --max-connections-per-address 100000 >"$dir/server.log" 2>&1 &
PID=$!
sleep 1.5
"$loadgen" --server 127.0.0.1:8810 --games "${GAMES:-2000}" --rate "${RATE:-4}" --warmup 5 \
  --seconds 20 --pid "$PID" >"$dir/loadgen.log" 2>&1
kill "$PID"; wait "$PID" 2>/dev/null || true
echo "$LABEL $DB: $(grep -E 'moves acknowledged' "$dir/loadgen.log" | sed 's/ acknowledged.*= / /') | $(grep 'sent -> opponent' "$dir/loadgen.log" | sed 's/.*p50/p50/; s/, p90.*p99/ p99/; s/, max.*//') | $(grep -o 'server [0-9]* us per move' "$dir/loadgen.log")"
rm -rf "$dir"
