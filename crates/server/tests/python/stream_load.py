#!/usr/bin/env python3
"""Many event streams at once (lichess's `/api/stream/event`, docs/API.md): opens N NDJSON
streams (20 accounts, N/20 each) on a fresh release server, checks that each gets its games'
`gameStart` when a challenge between two of them is accepted, and reports the server's
resident memory before and with the streams open.

Usage: stream_load.py [--binary target/release/rookery] [--streams 500]
A measurement, not a test: run it on a quiet machine.
"""
import argparse
import json
import socket
import subprocess
import tempfile
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def call(port, method, path, token, body=None):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                 data=json.dumps(body).encode() if body is not None else None)
    req.add_header("Authorization", f"Bearer {token}")
    req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read() or b"null")


def open_stream(port, token):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall((f"GET /api/stream/event HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\r\n").encode())
    s.settimeout(20)
    return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="target/release/rookery")
    ap.add_argument("--streams", type=int, default=500)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp()
    url = f"sqlite://{tmp}/streams.db"
    tokens = []
    for i in range(20):
        name = f"player{i}"
        subprocess.run([args.binary, "--database-url", url, "user", "create", name],
                       input="a long enough password\n", text=True, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        tokens.append(subprocess.run(
            [args.binary, "--database-url", url, "user", "token", name, "--scopes",
             "board:play,challenge:write"], capture_output=True, text=True, check=True).stdout.strip())
    port = free_port()
    proc = subprocess.Popen([args.binary, "--listen", f"127.0.0.1:{port}", "--database-url", url,
                             "--rate-limits", "off", "--max-connections-per-address", "5000"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1)
                break
            except OSError:
                time.sleep(0.05)
        time.sleep(0.5)
        before = rss_kib(proc.pid)
        streams = [(i % 20, open_stream(port, tokens[i % 20])) for i in range(args.streams)]
        time.sleep(2)
        with_streams = rss_kib(proc.pid)
        # A challenge between player0 and player1: every stream of theirs hears gameStart.
        c = call(port, "POST", "/api/challenge/player1", tokens[0], {"clock.limit": 300, "clock.increment": 3})
        call(port, "POST", f"/api/challenge/{c['id']}/accept", tokens[1])
        heard = 0
        for who, s in streams:
            if who not in (0, 1):
                continue
            data = b""
            deadline = time.time() + 10
            while b"gameStart" not in data and time.time() < deadline:
                try:
                    chunk = s.recv(65536)
                except socket.timeout:
                    break
                if not chunk:
                    break
                data += chunk
            heard += b"gameStart" in data
        expected = sum(1 for who, _ in streams if who in (0, 1))
        per = (with_streams - before) / args.streams
        print(f"{args.streams} event streams open: RSS {before / 1024:.1f} -> {with_streams / 1024:.1f} MiB "
              f"({per:.1f} KiB a stream); gameStart heard on {heard} of the {expected} streams of the two players")
        for _, s in streams:
            s.close()
        return 0 if heard == expected else 1
    finally:
        proc.terminate()
        proc.wait()


if __name__ == "__main__":
    raise SystemExit(main())
