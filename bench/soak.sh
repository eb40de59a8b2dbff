#!/usr/bin/env bash
# Soak: 1,000 games at once, one move per second each, for SOAK_MINUTES (30), on a fresh
# database (see bench/lib.sh). Prints the server's RSS every minute, then kills the server
# with SIGKILL, starts it again on the same database, and checks that every acknowledged move
# is still there.
#
#   bench/soak.sh
#   SOAK_MINUTES=5 DATABASE_URL=postgres://postgres@127.0.0.1:5432/test bench/soak.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
minutes="${SOAK_MINUTES:-30}"

echo "Machine: $(machine); 1,000 games x 1 move/s for $minutes min."
start_server
"$loadgen" --server "127.0.0.1:$port" --games 1000 --rate 1 --seconds $((minutes * 60)) \
  --progress-every 60 --pid "$server" --record "$tmp/acked.txt" 2>&1
stop_server -9
start_server
"$loadgen" --server "127.0.0.1:$port" --verify "$tmp/acked.txt"
