#!/usr/bin/env python3
"""Soak of issue 50's high findings against a release server with games running.

For each attack: a load of games (rookery-loadgen, from 127.0.0.1) before, during and after
the attack, with the server's RSS and open files sampled, and the opponent's move latency of
each phase. The attackers come from other loopback addresses (127.0.0.2 ...), so the
server's per-address caps apply to them as to anyone.

  board    sockets to /analysis/socket that send 400-ply lines every 55 ms and never read
  streams  8,000 NDJSON event streams asked with one token from 80 addresses, never read

Usage: bench/attacks.py --binary target/release/rookery --loadgen target/release/rookery-loadgen
                        [--games 1000] [--seconds 60] [--around 30] [--attack board,streams]
"""

import argparse
import base64
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_and_files(pid):
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
    files = len(os.listdir(f"/proc/{pid}/fd"))
    return rss / 1024, files


def ws_frame(text):
    data = text.encode()
    mask = os.urandom(4)
    head = bytearray([0x81])
    n = len(data)
    if n < 126:
        head.append(0x80 | n)
    elif n < 65536:
        head.append(0x80 | 126)
        head += n.to_bytes(2, "big")
    else:
        head.append(0x80 | 127)
        head += n.to_bytes(8, "big")
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
    return bytes(head) + mask + masked


def long_line():
    # A legal 400-ply line of knights going out and back: the board judges each move of a
    # line (it does not end it by repetition), and each answer is several kilobytes.
    moves = []
    cycle = ["g1f3", "g8f6", "f3g1", "f6g8", "b1c3", "b8c6", "c3b1", "c6b8"]
    while len(moves) < 400:
        moves += cycle
    return '{"t":"line","d":{"moves":[%s]}}' % ",".join(f'"{m}"' for m in moves[:400])


def board_attacker(port, source, stop, counts):
    frame = ws_frame(long_line())
    try:
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET /analysis/socket HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                   f"Sec-WebSocket-Version: 13\r\n\r\n").encode())
        s.recv(1024)  # the 101; nothing after it is ever read
        counts["open"] += 1
        while not stop.is_set():
            s.sendall(frame)
            time.sleep(0.055)
    except OSError:
        counts["closed"] += 1


def fresh_address_served(port):
    try:
        s = socket.socket()
        s.bind(("127.0.0.250", 0))
        s.settimeout(5)
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        answer = s.recv(64)
        s.close()
        return answer.split(b" ")[1].decode()
    except OSError as e:
        return f"failed ({e})"


def phase(args, port, pid, seconds, label):
    samples = []
    load = subprocess.Popen(
        [args.loadgen, "--server", f"127.0.0.1:{port}", "--games", str(args.games), "--rate", "1",
         "--warmup", "3", "--seconds", str(seconds), "--pid", str(pid)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    while load.poll() is None:
        samples.append(rss_and_files(pid))
        time.sleep(1)
    out = load.stdout.read()
    opp = re.search(r"sent -> opponent: (.*)", out)
    rss = max(s[0] for s in samples)
    files = max(s[1] for s in samples)
    print(f"  {label}: RSS at most {rss:.0f} MiB, open files at most {files}, "
          f"opponent {opp.group(1) if opp else 'no samples'}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="target/release/rookery")
    ap.add_argument("--loadgen", default="target/release/rookery-loadgen")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--attack", default="board,streams")
    ap.add_argument("--around", type=int,
                    help="seconds measured before and after each attack (default: half of --seconds)")
    args = ap.parse_args()
    around = args.around if args.around is not None else args.seconds // 2
    tmp = tempfile.mkdtemp()
    url = f"sqlite://{tmp}/attacks.db"
    subprocess.run([args.binary, "--database-url", url, "user", "create", "mallory"],
                   input="a long enough password\n", text=True, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    token = subprocess.run([args.binary, "--database-url", url, "user", "token", "mallory",
                            "--scopes", "board:play"], capture_output=True, text=True,
                           check=True).stdout.strip()
    port = free_port()
    # The games' players all come from 127.0.0.1: that address alone may hold them.
    server = subprocess.Popen(
        [args.binary, "--listen", f"127.0.0.1:{port}", "--database-url", url,
         "--rate-limits", "off", "--max-connections-per-address", "4000"],
        stdout=open(os.path.join(tmp, "server.log"), "wb"), stderr=subprocess.STDOUT)
    time.sleep(1.5)
    try:
        for attack in args.attack.split(","):
            print(f"attack: {attack}", flush=True)
            phase(args, port, server.pid, around, "before")
            stop = threading.Event()
            counts = {"open": 0, "closed": 0}
            if attack == "board":
                # 200 sockets from 20 addresses.
                for i in range(200):
                    source = f"127.0.1.{i % 20 + 1}"
                    threading.Thread(target=board_attacker, args=(port, source, stop, counts),
                                     daemon=True).start()
            else:
                # 8,000 streams asked from 80 addresses with one token.
                for k in range(80):
                    threading.Thread(target=stream_worker, args=(port, k, token, stop, counts),
                                     daemon=True).start()
            time.sleep(2)
            phase(args, port, server.pid, args.seconds, "during")
            print(f"  a fresh address during the attack: HTTP {fresh_address_served(port)}",
                  flush=True)
            stop.set()
            time.sleep(3)
            print(f"  attackers: {dict(counts)}", flush=True)
            phase(args, port, server.pid, around, "after")
    finally:
        server.kill()
        server.wait()


def stream_worker(port, k, token, stop, counts):
    """One attacking address: opens streams one after another and holds each (a thread per
    stream would be 8,000 threads: this holds them as sockets)."""
    held = []
    # 100 a address (8,000 in all: the attacking process's own open files are bounded too).
    for _ in range(100):
        if stop.is_set():
            break
        try:
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.bind((f"127.0.2.{k + 1}", 0))
            s.settimeout(5)
            s.connect(("127.0.0.1", port))
            s.sendall((f"GET /api/stream/event HTTP/1.1\r\nHost: localhost\r\n"
                       f"Authorization: Bearer {token}\r\n\r\n").encode())
            head = s.recv(12)
            status = head[9:12].decode(errors="replace") or "closed"
            counts[status] = counts.get(status, 0) + 1
            held.append(s)
        except OSError:
            counts["failed"] = counts.get("failed", 0) + 1
    stop.wait()
    for s in held:
        s.close()


if __name__ == "__main__":
    main()
