#!/usr/bin/env bash
# What log-ins cost, and whether they stall the game rooms:
#   1. one Argon2id hash and check against a move through the rules (examples/login_cost.rs);
#   2. 1,000 moves/s (1,000 games, a move a second each) with no log-ins, then the same with
#      20 log-ins a second beside them, each on a freshly started server; the move latency
#      p99 of the two, and the log-ins' own latency.
# Prints Markdown for BENCHMARKS.md.
#
#   bench/logins.sh
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test bench/logins.sh
set -euo pipefail
source "$(dirname "$0")/lib.sh"
step_seconds="${SECONDS_PER_STEP:-30}"
cargo build --release -p rookery-server --example login_cost >&2

echo "Machine: $(machine); $step_seconds s measured per run, after 5 s of warm-up."
echo
echo '```'
target/release/examples/login_cost 20
echo '```'
echo
echo "| log-ins/s | moves/s acked | ack p50 / p99 | opponent p50 / p99 | log-in p50 / p99 | log-ins done | errors |"
echo "|---|---|---|---|---|---|---|"
for logins in 0 20; do
  start_server
  out=$("$loadgen" --server "127.0.0.1:$port" --games 1000 --rate 1 --warmup 5 \
        --seconds $((step_seconds + 5)) --pid "$server" --logins-per-second "$logins" 2>/dev/null)
  stop_server
  read_report "$out"
  login=$(sed -n 's/^log-in: p50 \([0-9.]*\) ms, p90 [0-9.]* ms, p99 \([0-9.]*\) ms.*/\1 \/ \2 ms/p' <<<"$out")
  done_=$(sed -n 's/^log-ins: \([0-9]*\) .*/\1/p' <<<"$out")
  echo "| $logins | $acked | $ack | $opp | ${login:--} | ${done_:-0} | ${errors:-none} |"
done
