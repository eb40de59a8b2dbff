#!/usr/bin/env bash
# Runs every fuzz target (cargo fuzz, libFuzzer, nightly) for a while each, from the committed
# seeds, growing a corpus under target/fuzz-corpus/; a crash stops the run (exit 1) and
# leaves its input under fuzz/artifacts/TARGET/.
#
#   fuzz/run.sh                 # 30 s per target, all seven
#   fuzz/run.sh 600             # 10 minutes per target
#   fuzz/run.sh 10 fen san uci pgn time_control   # CI: the core's targets (the server's two
#                               # need minutes more of build; `cargo test -p rookery-server
#                               # --test fuzz_seeds` runs their seeds and mutations of them)
#   FUZZ_RUNS=10000000 fuzz/run.sh   # a number of executions per target instead of a time
#   fuzz/run.sh 60 pgn san           # only these targets
#
# Needs `rustup toolchain install nightly` and `cargo install cargo-fuzz`.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
targets=(fen san uci pgn time_control ws_frame api_body)
if [[ $# -gt 1 ]]; then
  targets=("${@:2}")
fi
# Without AddressSanitizer: the fuzzed code is safe Rust, where it would find nothing that the
# fuzz build's panics and overflow checks do not; without it the build and each run are lighter.
sanitizer=(--sanitizer none)
# The server's targets need the server crate built for fuzzing (minutes): only when asked for.
features=()
for target in "${targets[@]}"; do
  case "$target" in
    ws_frame | api_body) features=(--features server) ;;
  esac
done
cargo +nightly fuzz build --fuzz-dir fuzz "${sanitizer[@]}" "${features[@]}" >&2
for target in "${targets[@]}"; do
  corpus="target/fuzz-corpus/$target"
  mkdir -p "$corpus"
  if [[ -n "${FUZZ_RUNS:-}" ]]; then
    limit=(-runs="$FUZZ_RUNS")
  else
    limit=(-max_total_time="$seconds")
  fi
  log="$(mktemp)"
  if ! cargo +nightly fuzz run --fuzz-dir fuzz "${sanitizer[@]}" "${features[@]}" "$target" "$corpus" "fuzz/seeds/$target" -- \
      "${limit[@]}" -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "FUZZ FAILED: $target (the input is under fuzz/artifacts/$target/)"
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
  echo "$target: ${runs:-?} executions in ${secs:-?} s, ${cov:-cov: ?}, 0 crashes"
  rm -f "$log"
done
