#!/usr/bin/env python3
"""What a cluster's leases cost (issue 55, docs/SCALING.md): three nodes on a fresh PostgreSQL
database and NATS, --games idle games set up over them (1.e4 e5 under --time-control, nobody
connected), then:

1. idle: over --seconds, the rows written a second to `games` and `nodes` (PostgreSQL's own
   count of inserted and updated rows: a lease renewal is an update), each node's RSS and
   CPU, and the bytes of lobby news the nodes send a second (heard on NATS);
2. playing: the same while rookery-loadgen plays --playing games at one move a second each,
   spread over the nodes;
3. a node killed (SIGKILL): how long until no live game names it as owner, and whether every
   game is still there, live, with its moves.

Usage: bench/leases.py --binary target/release/rookery --loadgen target/release/rookery-loadgen
         --postgres postgres://postgres@127.0.0.1:5432/test [--nats nats://127.0.0.1:4222]
         [--games 100000] [--playing 2000] [--seconds 30] [--hibernate-after 60]
"""
import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import nats_count  # beside this script

TICKS = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sql(url, query):
    out = subprocess.run(["psql", url, "-AtF", "\t", "-c", query], check=True,
                         capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines() if line]


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_mib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def written(url):
    """Rows inserted and updated so far in `games` and in `nodes`."""
    rows = dict(sql(url, "SELECT relname, n_tup_ins + n_tup_upd FROM pg_stat_user_tables "
                         "WHERE relname IN ('games', 'nodes')"))
    return {t: int(rows.get(t, 0)) for t in ("games", "nodes")}


def news_bytes(nats, seconds, out):
    """Listens on the nodes' lobby news subject for `seconds`; the payload bytes heard go to
    `out[0]`."""
    heard = nats_count.count(nats, seconds, subject="rookery.nodes")
    out[0] = sum(b for _, b in heard.values())


def window(url, nodes, seconds, label, nats=None):
    """Watches the nodes for `seconds`: writes a second, each node's CPU and RSS, and the bytes
    of lobby news a second (all nodes together)."""
    time.sleep(1.5)  # what was counted before reaches the statistics
    heard = [0]
    listener = threading.Thread(target=news_bytes, args=(nats, seconds, heard)) if nats else None
    if listener:
        listener.start()
    before, cpu0, t0 = written(url), [cpu_seconds(n.pid) for n in nodes], time.time()
    time.sleep(seconds)
    if listener:
        listener.join()
        print(f"{label}: lobby news heard on NATS: {heard[0] / seconds / 1024:.1f} KiB a second",
              flush=True)
    time.sleep(1.5)
    after, cpu1, t1 = written(url), [cpu_seconds(n.pid) for n in nodes], time.time()
    span = t1 - t0 - 1.5
    rates = {t: (after[t] - before[t]) / span for t in after}
    cpu = ", ".join(f"{100 * (b - a) / span:.1f}%" for a, b in zip(cpu0, cpu1))
    rss = ", ".join(f"{rss_mib(n.pid):.0f}" for n in nodes)
    print(f"{label}: rows written a second: games {rates['games']:.1f}, nodes {rates['nodes']:.1f}; "
          f"CPU of each node {cpu}; RSS of each node {rss} MiB", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="target/release/rookery")
    ap.add_argument("--loadgen", default="target/release/rookery-loadgen")
    ap.add_argument("--postgres", required=True)
    ap.add_argument("--nats", default="nats://127.0.0.1:4222")
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--playing", type=int, default=2_000)
    ap.add_argument("--seconds", type=int, default=30)
    ap.add_argument("--hibernate-after", type=float, default=60)
    ap.add_argument("--time-control", default="3d")
    args = ap.parse_args()

    name = f"rookery_leases_{os.getpid()}"
    sql(args.postgres, f"CREATE DATABASE {name}")
    url = args.postgres.rsplit("/", 1)[0] + "/" + name
    logs = tempfile.mkdtemp()
    nodes, ports = [], []
    try:
        for i in (1, 2, 3):
            port = free_port()
            ports.append(port)
            nodes.append(subprocess.Popen(
                [args.binary, "--listen", f"127.0.0.1:{port}", "--database-url", url,
                 "--cluster", args.nats, "--node-id", f"node{i}", "--rate-limits", "off",
                 "--max-connections-per-address", "1000000",
                 "--hibernate-after", str(args.hibernate_after)],
                stdout=subprocess.DEVNULL, stderr=open(f"{logs}/node{i}.log", "w")))
            for _ in range(300):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/api/ready", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
        servers = ",".join(f"127.0.0.1:{p}" for p in ports)
        started = time.time()
        setup = subprocess.run([args.loadgen, "--server", servers, "--idle", str(args.games),
                        "--time-control", args.time_control, "--settle", "0",
                        "--setup-concurrency", "32", "--pid", str(nodes[0].pid)],
                       check=False, stdout=subprocess.PIPE, text=True)
        print("  loadgen: " + " / ".join(l for l in setup.stdout.splitlines() if "set up" in l))
        print(f"{args.games} games of {args.time_control} set up over three nodes in "
              f"{time.time() - started:.0f} s (rooms sleep after {args.hibernate_after} s)",
              flush=True)
        time.sleep(min(args.hibernate_after, 60) + 3)
        window(url, nodes, args.seconds, "idle", args.nats)

        play = subprocess.Popen(
            [args.loadgen, "--server", servers, "--games", str(args.playing), "--rate", "1",
             "--warmup", "5", "--seconds", str(args.seconds + 10)],
            stdout=open(f"{logs}/loadgen.log", "w"), stderr=subprocess.STDOUT)
        time.sleep(8)
        window(url, nodes, args.seconds, f"{args.playing} games playing", args.nats)
        play.wait()
        for line in open(f"{logs}/loadgen.log"):
            if "moves acknowledged" in line or "sent -> opponent" in line:
                print("  loadgen: " + line.strip())

        live = lambda: int(sql(url, "SELECT COUNT(*) FROM games WHERE status = 'live'")[0][0])
        held = lambda: int(sql(url, "SELECT COUNT(*) FROM games WHERE status = 'live' "
                                    "AND owner = 'node1'")[0][0])
        before_live, before_moves = live(), int(sql(url, "SELECT COUNT(*) FROM moves")[0][0])
        node1 = held()
        nodes[0].send_signal(signal.SIGKILL)
        nodes[0].wait()
        killed = time.time()
        while held() and time.time() - killed < 600:
            time.sleep(0.25)
        took = time.time() - killed
        after_live, after_moves = live(), int(sql(url, "SELECT COUNT(*) FROM moves")[0][0])
        print(f"node1 killed holding {node1} live games: none names it after {took:.1f} s; "
              f"live games {before_live} -> {after_live}, moves stored {before_moves} -> "
              f"{after_moves}", flush=True)
        return 0 if (held() == 0 and after_live == before_live
                     and after_moves == before_moves) else 1
    finally:
        for n in nodes:
            if n.poll() is None:
                n.terminate()
        for n in nodes:
            try:
                n.wait(timeout=10)
            except subprocess.TimeoutExpired:
                n.kill()
        sql(args.postgres, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


if __name__ == "__main__":
    sys.exit(main())
