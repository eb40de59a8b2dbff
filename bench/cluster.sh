#!/usr/bin/env bash
# Cluster figures (docs/SCALING.md): the same loads against one node without cluster mode
# (the anchor), then against 1, 2 and 3 cluster nodes on one PostgreSQL database and NATS,
# each on a fresh database. The load generator spreads games, players and spectators over
# the nodes (`--server a,b,c`), so with two or three nodes most moves cross NATS to their
# game's owner and most events cross back. Prints a Markdown table, with each node's RSS
# at the end.
#
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test bench/cluster.sh
#   NATS_URL=nats://127.0.0.1:4222 SECONDS_PER_STEP=20 LOADS="1000 1;1000 5" bench/cluster.sh
#
# SETUPS picks the steps (default "1 single;1;2;3"); a step "N together" keeps every game's
# players and spectator on the node that made it (its owner: `--together-every 1`), so no move
# crosses NATS; "N away" puts them all on other nodes (`--away`), so every move does:
# "2 together;2 away;3 together;3 away" measures the remote path against the local one on the
# same nodes (docs/SCALING.md, "The remote path"). "N owner-away" makes every game on the first
# node and puts its players on the others (`--one-owner --away`): the first node's CPU is then
# the owner's share of a move and the others' the entry nodes'.
#
# COUNT_NATS=1 also counts what is published on NATS in each step's window
# (bench/nats_count.py: one more subscriber, so measure CPU in a run without it).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${DATABASE_URL:?set DATABASE_URL to a PostgreSQL database (the new ones are made beside it)}"
nats="${NATS_URL:-nats://127.0.0.1:4222}"
step_seconds="${SECONDS_PER_STEP:-20}"
IFS=';' read -r -a loads <<<"${LOADS:-1000 1;1000 5}"
IFS=';' read -r -a setups <<<"${SETUPS:-1 single;1;2;3}"
cargo build --release -p rookery-server -p rookery-loadgen >&2
# ROOKERY_BIN: another build of the server to measure (an A/B comparison).
server="${ROOKERY_BIN:-target/release/rookery}"
loadgen=target/release/rookery-loadgen
tmp="$(mktemp -d)"
pids=()
dbs=()

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

stop_nodes() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
}

cleanup() {
  stop_nodes
  for db in "${dbs[@]}"; do
    psql "$DATABASE_URL" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >&2 || true
  done
  rm -rf "$tmp"
}
trap cleanup EXIT

# Starts $1 nodes on a fresh database (cluster mode unless $2 is "single"); sets `servers`.
start_nodes() {
  local db="rookery_cluster_bench_$$_${#dbs[@]}"
  psql "$DATABASE_URL" -qc "CREATE DATABASE $db" >&2
  dbs+=("$db")
  local url="${DATABASE_URL%/*}/$db" cluster=()
  servers=""
  for i in $(seq 1 "$1"); do
    local port
    port=$(free_port)
    if [[ "${2:-}" != single ]]; then cluster=(--cluster "$nats" --node-id "node$i"); fi
    "$server" --listen "127.0.0.1:$port" --database-url "$url" "${cluster[@]}" \
      --max-connections-per-address 1000000 --rate-limits off >>"$tmp/node$i.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 300); do
      curl -sf "http://127.0.0.1:$port/api/ready" >/dev/null && break
      sleep 0.1
    done
    servers="${servers:+$servers,}127.0.0.1:$port"
  done
}

# CPU seconds (user + system) each process given has used so far, one line each (0 for one
# that is gone).
cpu_of() {
  for pid in "$@"; do
    awk '{ sub(/.*\) /, ""); split($0, f, " "); print (f[12] + f[13]) / 100 }' \
      "/proc/$pid/stat" 2>/dev/null || echo 0
  done
}

# CPU seconds gained between two readings of the same processes ($1 and $2, as cpu_of gave
# them), a process gone meanwhile counting nothing.
gained() {
  python3 -c "print(sum(max(float(b) - float(a), 0) for a, b in zip('$1'.split(), '$2'.split())))"
}

# Microseconds a move from CPU seconds used over the window ($1, an expression).
us_a_move() {
  python3 -c "print(f'{1e6 * ($1) / max($acked * $step_seconds, 1):.0f}')"
}

rss_of_nodes() {
  local out=""
  for pid in "${pids[@]}"; do
    out="$out $(awk '/VmRSS/ {printf "%.0f", $2/1024}' "/proc/$pid/status") MiB"
  done
  echo "${out# }"
}

echo "Machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1); \
PostgreSQL and NATS on the same machine; $step_seconds s measured per step after 5 s of warm-up; \
1 spectator a game."
echo
echo "| setup | games x moves/s | moves/s acked | ratio to one node | ack p50 / p99 | opponent p50 / p99 | nodes' CPU per move (each node's) | NATS's | PostgreSQL's | RSS per node at the end | errors |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for load in "${loads[@]}"; do
  set -- $load
  anchor=""
  for setup in "${setups[@]}"; do
    start_nodes $setup
    placing=()
    case "$setup" in
      *together) placing=(--together-every 1) ;;
      *owner-away) placing=(--away --one-owner) ;;
      *away) placing=(--away) ;;
    esac
    "$loadgen" --server "$servers" --games "$1" --rate "$2" --spectators 1 --warmup 5 \
      "${placing[@]}" --seconds $((step_seconds + 5)) >"$tmp/out" 2>/dev/null &
    gen=$!
    # The nodes' CPU over the measured window (after the warm-up).
    sleep 5
    # NATS's server and PostgreSQL's backends as they are at the window's start.
    nats_pids=$(pgrep -x nats-server || true)
    pg_pids=$(pgrep -x postgres || true)
    each_start=($(cpu_of "${pids[@]}"))
    nats_start=$(cpu_of $nats_pids | xargs)
    pg_start=$(cpu_of $pg_pids | xargs)
    if [[ -n "${COUNT_NATS:-}" ]]; then
      python3 bench/nats_count.py --nats "$nats" --seconds "$step_seconds" >"$tmp/nats" &
      counter=$!
    fi
    sleep "$step_seconds"
    each_end=($(cpu_of "${pids[@]}"))
    nats_end=$(cpu_of $nats_pids | xargs)
    pg_end=$(cpu_of $pg_pids | xargs)
    wait "$gen"
    out=$(cat "$tmp/out")
    rss=$(rss_of_nodes)
    stop_nodes
    acked=$(sed -n 's/.* = \([0-9]*\) moves\/s$/\1/p' <<<"$out")
    ack=$(sed -n 's/^sent -> ack: p50 \([0-9.]*\) ms, .* p99 \([0-9.]*\) ms.*/\1 \/ \2 ms/p' <<<"$out")
    opp=$(sed -n 's/^sent -> opponent: p50 \([0-9.]*\) ms, .* p99 \([0-9.]*\) ms.*/\1 \/ \2 ms/p' <<<"$out")
    errors=$(grep '^error:' <<<"$out" | tr '\n' ' ' || true)
    anchor="${anchor:-$acked}"
    ratio=$(python3 -c "print(f'{$acked / max($anchor, 1):.2f}')")
    by_node=""
    for i in "${!each_start[@]}"; do
      by_node="${by_node:+$by_node, }$(us_a_move "${each_end[$i]} - ${each_start[$i]}")"
    done
    per_move="$(us_a_move "$(gained "${each_start[*]}" "${each_end[*]}")") us"
    nats_move="$(us_a_move "$(gained "$nats_start" "$nats_end")") us"
    pg_move="$(us_a_move "$(gained "$pg_start" "$pg_end")") us"
    case "$setup" in
      "1 single") name="one node, no cluster (anchor)" ;;
      *together) name="${setup% together} cluster node(s), players on the owner" ;;
      *owner-away) name="${setup% owner-away} cluster node(s), all games owned by the first, players on the others" ;;
      *away) name="${setup% away} cluster node(s), players on other nodes" ;;
      *) name="$setup cluster node(s)" ;;
    esac
    if [[ -n "${COUNT_NATS:-}" ]]; then
      wait "$counter" 2>/dev/null || true
      name="$name; on NATS a move: $(python3 -c "
import json
heard = json.load(open('$tmp/nats'))
moves = max($acked * $step_seconds, 1)
print(', '.join(f'{k} {n / moves:.2f} ({b / max(n, 1):.0f} B)' for k, (n, b) in sorted(heard.items())))")"
    fi
    echo "| $name | $1 x $2 | $acked | $ratio | $ack | $opp | $per_move ($by_node) | $nats_move | $pg_move | $rss | ${errors:-none} |"
  done
done
