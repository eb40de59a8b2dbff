#!/usr/bin/env python3
"""Bots under load: does thinking for 50 bot games at once slow a human game's moves?

Starts the release server on a fresh SQLite file. Phase 1 measures the move latency of a
human-vs-human game (HTTP move -> stored and acknowledged) with no bot playing. Phase 2 starts
`--bots` games against bots of mixed levels (the script answers their moves at once with random
legal moves, so the bots think all the time) and measures the same human game again. Prints
p50/p90/p99/max for both phases and the number of bot moves made meanwhile.

Usage: bot_load.py [--binary target/release/rookery] [--bots 50] [--seconds 30]
Needs python-chess. A measurement, not a test: run it on a quiet machine.
"""
import argparse
import json
import random
import socket
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request

import chess


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
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.status, r.headers.get("Set-Cookie"), json.loads(r.read() or b"null")


def cookie_of(header):
    return header.split(";")[0]


def board_of(state):
    board = chess.Board()
    for uci in state["uci"]:
        board.push_uci(uci)
    return board


def human_game(port, seconds, rng):
    """Two people move as fast as the server lets them; returns each move's latency (ms)."""
    latencies = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        _, ck_w, created = call(port, "POST", "/api/games", {"time_control": "untimed", "color": "white"})
        gid = created["id"]
        _, ck_b, _ = call(port, "POST", f"/api/games/{gid}/join")
        cookies = {chess.WHITE: cookie_of(ck_w), chess.BLACK: cookie_of(ck_b)}
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 200 and time.monotonic() < deadline:
            move = rng.choice(list(board.legal_moves))
            started = time.perf_counter()
            call(port, "POST", f"/api/games/{gid}/move", {"m": move.uci()}, cookies[board.turn])
            latencies.append((time.perf_counter() - started) * 1000)
            board.push(move)
            time.sleep(0.02)
    return latencies


def bot_game(port, level, stop, counter, rng):
    """Plays against a bot, answering at once, until `stop`."""
    while not stop.is_set():
        _, ck, created = call(port, "POST", "/api/games",
                              {"time_control": "3+2", "color": "white", "bot": level})
        gid, cookie = created["id"], cookie_of(ck)
        plies = 0
        while not stop.is_set():
            _, _, state = call(port, "GET", f"/api/games/{gid}", cookie=cookie)
            if state["status"] != "live":
                break
            if len(state["uci"]) > plies:
                counter[0] += len(state["uci"]) - plies
                plies = len(state["uci"])
            if state["turn"] != "white":
                # Bots think for a while: polling gently keeps this client's own load small.
                time.sleep(0.5)
                continue
            board = board_of(state)
            move = rng.choice(list(board.legal_moves))
            try:
                call(port, "POST", f"/api/games/{gid}/move", {"m": move.uci()}, cookie)
                plies += 1
            except urllib.error.HTTPError:
                pass


def summary(name, ms):
    ms = sorted(ms)
    q = lambda p: ms[min(len(ms) - 1, int(p * len(ms)))]
    return (f"{name}: {len(ms)} moves, p50 {q(0.5):.2f} ms, p90 {q(0.9):.2f} ms, "
            f"p99 {q(0.99):.2f} ms, max {ms[-1]:.2f} ms")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="target/release/rookery")
    ap.add_argument("--bots", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=30)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp()
    port = free_port()
    proc = subprocess.Popen([args.binary, "--listen", f"127.0.0.1:{port}", "--database-url",
                             f"sqlite://{tmp}/load.db", "--rate-limits", "off"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                call(port, "GET", "/api/health")
                break
            except OSError:
                time.sleep(0.05)
        rng = random.Random(1)
        quiet = human_game(port, args.seconds, rng)
        print(summary("no bots", quiet), flush=True)
        stop = threading.Event()
        counter = [0]
        threads = [threading.Thread(target=bot_game, args=(port, 1 + i % 8, stop, counter, random.Random(i)),
                                    daemon=True) for i in range(args.bots)]
        for t in threads:
            t.start()
        time.sleep(3)
        before = counter[0]
        loaded = human_game(port, args.seconds, rng)
        moves = counter[0] - before
        stop.set()
        print(summary(f"{args.bots} bot games", loaded), flush=True)
        print(f"bot games: {moves} plies played meanwhile ({moves / args.seconds:.1f}/s)")
        ratio = statistics.median(loaded) / statistics.median(quiet)
        print(f"median latency with bots / without: {ratio:.2f}")
    finally:
        proc.terminate()
        proc.wait()


if __name__ == "__main__":
    main()
