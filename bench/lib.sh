# Shared by the server benchmarks: a release build, a fresh database, and starting and
# stopping the server. Sourced, not run.
#
# The database: SQLite in a temporary directory, or, when DATABASE_URL is given, a new
# PostgreSQL database created beside the one it names (and dropped at the end), so a run never
# touches existing data.

cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo build --release -p rookery-server -p rookery-loadgen >&2

loadgen=target/release/rookery-loadgen
tmp="$(mktemp -d)"
server=""
pg_db=""
if [[ -n "${DATABASE_URL:-}" ]]; then
  pg_db="rookery_bench_$$"
  psql "$DATABASE_URL" -qc "CREATE DATABASE $pg_db" >&2
  url="${DATABASE_URL%/*}/$pg_db"
  backend="PostgreSQL"
else
  url="sqlite://$tmp/bench.db"
  backend="SQLite"
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

cleanup() {
  stop_server
  if [[ -n "$pg_db" ]]; then
    psql "$DATABASE_URL" -qc "DROP DATABASE IF EXISTS $pg_db WITH (FORCE)" >&2 || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

start_server() {
  # Every simulated client comes from 127.0.0.1: lift the per-address cap (256 by default)
  # and the rate limits (a thousand players' games from one address).
  target/release/rookery --listen "127.0.0.1:$port" --database-url "$url" \
    --max-connections-per-address 1000000 --rate-limits off >>"$tmp/server.log" 2>&1 &
  server=$!
  for _ in $(seq 1 200); do
    curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && return 0
    sleep 0.1
  done
  echo "the server did not start; its log:" >&2
  cat "$tmp/server.log" >&2
  exit 1
}

# Stops the server gracefully (or with SIGKILL when given "-9").
stop_server() {
  if [[ -n "$server" ]]; then
    kill "${1:--TERM}" "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=""
  fi
}

machine() {
  echo "$(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1), \
$(free -g | awk '/Mem:/ {print $2}') GiB RAM, $backend"
}

# Reads a loadgen report ($1) into acked, ack, opp, cpu, rss and errors.
read_report() {
  acked=$(sed -n 's/.* = \([0-9]*\) moves\/s$/\1/p' <<<"$1")
  ack=$(sed -n 's/^sent -> ack: p50 \([0-9.]*\) ms, p90 [0-9.]* ms, p99 \([0-9.]*\) ms.*/\1 \/ \2 ms/p' <<<"$1")
  opp=$(sed -n 's/^sent -> opponent: p50 \([0-9.]*\) ms, p90 [0-9.]* ms, p99 \([0-9.]*\) ms.*/\1 \/ \2 ms/p' <<<"$1")
  cpu=$(sed -n 's/.*server \([0-9]*\) us per move$/\1 us/p' <<<"$1")
  rss=$(sed -n 's/.*MiB at the end, \([0-9.]*\) MiB at most/\1 MiB/p' <<<"$1")
  errors=$(grep '^error:' <<<"$1" | tr '\n' ' ' || true)
}
