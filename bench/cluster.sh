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

# CPU seconds (user + system) each node has used so far, one figure a node.
cpu_each_node() {
  for pid in "${pids[@]}"; do
    awk '{ sub(/.*\) /, ""); split($0, f, " "); print (f[12] + f[13]) / 100 }' "/proc/$pid/stat"
  done
}

# CPU seconds (user + system) all nodes have used so far.
cpu_of_nodes() {
  cpu_each_node | awk '{ t += $1 } END { print t }'
}

# CPU seconds used so far by the processes named $1 (NATS's server, PostgreSQL's backends).
cpu_of_named() {
  local total=0
  for pid in $(pgrep -x "$1" || true); do
    total=$(awk -v t="$total" '{ sub(/.*\) /, ""); split($0, f, " "); print t + (f[12] + f[13]) / 100 }' "/proc/$pid/stat" 2>/dev/null || echo "$total")
  done
  echo "$total"
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
    cpu_start=$(cpu_of_nodes)
    each_start=$(cpu_each_node | tr '\n' ' ')
    nats_start=$(cpu_of_named nats-server)
    pg_start=$(cpu_of_named postgres)
    if [[ -n "${COUNT_NATS:-}" ]]; then
      python3 bench/nats_count.py --nats "$nats" --seconds "$step_seconds" >"$tmp/nats" &
    fi
    sleep "$step_seconds"
    cpu_end=$(cpu_of_nodes)
    each_end=$(cpu_each_node | tr '\n' ' ')
    nats_end=$(cpu_of_named nats-server)
    pg_end=$(cpu_of_named postgres)
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
    per_move=$(python3 -c "print(f'{1e6 * ($cpu_end - $cpu_start) / max($acked * $step_seconds, 1):.0f} us')")
    nats_move=$(python3 -c "print(f'{1e6 * ($nats_end - $nats_start) / max($acked * $step_seconds, 1):.0f} us')")
    pg_move=$(python3 -c "print(f'{1e6 * ($pg_end - $pg_start) / max($acked * $step_seconds, 1):.0f} us')")
    by_node=$(python3 -c "
a, b = '$each_start'.split(), '$each_end'.split()
print(', '.join(f'{1e6 * (float(y) - float(x)) / max($acked * $step_seconds, 1):.0f}' for x, y in zip(a, b)))")
    case "$setup" in
      "1 single") name="one node, no cluster (anchor)" ;;
      *together) name="${setup% together} cluster node(s), players on the owner" ;;
      *owner-away) name="${setup% owner-away} cluster node(s), all games owned by the first, players on the others" ;;
      *away) name="${setup% away} cluster node(s), players on other nodes" ;;
      *) name="$setup cluster node(s)" ;;
    esac
    if [[ -n "${COUNT_NATS:-}" ]]; then
      wait $! 2>/dev/null || true
      name="$name; on NATS a move: $(python3 -c "
import json
heard = json.load(open('$tmp/nats'))
moves = max($acked * $step_seconds, 1)
print(', '.join(f'{k} {n / moves:.2f} ({b / max(n, 1):.0f} B)' for k, (n, b) in sorted(heard.items())))")"
    fi
    echo "| $name | $1 x $2 | $acked | $ratio | $ack | $opp | $per_move ($by_node) | $nats_move | $pg_move | $rss | ${errors:-none} |"
  done
done
