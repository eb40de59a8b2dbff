#!/usr/bin/env python3
"""How long a bot takes over its moves in a timed game, as a player waits for them.

Starts the release server on a fresh SQLite file, creates a game against the bot `--level` at
`--tc` (the lobby's form), and answers each bot move at once with the first move of a fixed
opening, then python-chess's first legal move, over HTTP. For each bot move it records the
wall time from the human move's acknowledgement to the bot's move appearing in
`GET /api/games/{id}`, and prints the mean, median and longest. Run it on a busy machine too
(another load on both cores): the bot's limit is wall time, so it should barely change.

Usage: bot_pace.py [--binary target/release/rookery] [--level 8] [--tc 5+3] [--moves 12]
Needs python-chess. A measurement, not a test.
"""
import argparse
import json
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.request

import chess

OPENING = ["e2e4", "g1f3", "f1c4", "b1c3", "d2d3", "e1g1", "c1g5", "a2a3"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(port, method, path, body=None, cookie=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if cookie:
        req.add_header("Cookie", cookie)
    with urllib.request.urlopen(req, timeout=60) as r:
        return r.headers.get("Set-Cookie"), json.loads(r.read() or b"null")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", default="target/release/rookery")
    p.add_argument("--level", type=int, default=8)
    p.add_argument("--tc", default="5+3")
    p.add_argument("--moves", type=int, default=12)
    args = p.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as dir:
        server = subprocess.Popen([args.binary, "--listen", f"127.0.0.1:{port}",
                                   "--database-url", f"sqlite://{dir}/pace.db"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(100):
                try:
                    call(port, "GET", "/api/health")
                    break
                except OSError:
                    time.sleep(0.1)
            cookie, game = call(port, "POST", "/api/games",
                                {"time_control": args.tc, "color": "white", "bot": args.level})
            cookie = cookie.split(";")[0]
            gid = game["id"]
            waits = []
            for ply in range(args.moves):
                state = call(port, "GET", f"/api/games/{gid}", cookie=cookie)[1]
                board = chess.Board()
                for uci in state["uci"]:
                    board.push_uci(uci)
                if board.is_game_over():
                    break
                ours = OPENING[ply] if ply < len(OPENING) else None
                if ours is None or chess.Move.from_uci(ours) not in board.legal_moves:
                    ours = next(iter(board.legal_moves)).uci()
                call(port, "POST", f"/api/games/{gid}/move", {"m": ours}, cookie)
                sent = time.monotonic()
                while True:
                    state = call(port, "GET", f"/api/games/{gid}", cookie=cookie)[1]
                    if len(state["uci"]) >= len(board.move_stack) + 2 or state["status"] != "live":
                        break
                    time.sleep(0.02)
                if state["status"] != "live":
                    break
                waits.append(time.monotonic() - sent)
                print(f"bot move {ply + 1}: {waits[-1]:.2f} s", flush=True)
            print(f"level {args.level} at {args.tc}: {len(waits)} moves, mean {statistics.mean(waits):.2f} s, "
                  f"median {statistics.median(waits):.2f} s, longest {max(waits):.2f} s")
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
