#!/usr/bin/env python3
"""Bots and analyses under load: does thinking for 50 bot games, or analysing 10 finished
games, slow a human game's moves?

Starts the release server on a fresh SQLite file. Phase 1 measures the move latency of a
human-vs-human game (HTTP move -> stored and acknowledged) with no bot playing. Phase 2 starts
`--bots` games against bots of mixed levels (the script answers their moves at once with random
legal moves, so the bots think all the time) and measures the same human game again. With
`--analyses N`, phase 3 requests the computer analysis of N finished 60-move games at once
(docs/ANALYSIS.md; at the server's default budget they run for minutes) and measures the human
game again. Prints p50/p90/p99/max for each phase, the bot moves made and the positions
analysed meanwhile.

Usage: bot_load.py [--binary target/release/rookery] [--bots 50] [--analyses 10] [--seconds 30]
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


SIXTY_MOVES = (
    '[White "Kasia"]\n[Black "Li Wei"]\n[Result "1-0"]\n\n'
    "1. d4 d5 2. e4 c6 3. exd5 cxd5 4. Nc3 Nc6 5. Bb5 Nf6 6. Nf3 Bg4 7. h3 Bh5 8. O-O e6 9. Qd3 Bg6 "
    "10. Qe2 Be7 11. Bxc6+ bxc6 12. Be3 O-O 13. Ne5 Qc7 14. Qd2 Ne4 15. Nxe4 Bxe4 16. Bf4 Qb7 17. c3 a5 "
    "18. a3 a4 19. Qe2 Bf6 20. Nd3 Bxd3 21. Qxd3 c5 22. Rab1 c4 23. Qg3 Qb3 24. h4 Qc2 25. h5 Kh8 26. h6 g6 "
    "27. Be5 Qf5 28. f4 Rac8 29. Bd6 Rg8 30. Be5 Rce8 31. Qh2 Rc8 32. Rf3 Qxb1+ 33. Rf1 Qf5 34. g3 Rb8 "
    "35. Qg2 Rbc8 36. g4 Qd3 37. Bxf6+ Rg7 38. hxg7+ Kg8 39. Be5 Qe3+ 40. Qf2 Qh3 41. Qg2 Qe3+ 42. Rf2 Qe1+ "
    "43. Kh2 Qe3 44. Re2 Qc1 45. Qf2 h6 46. Qh4 Kh7 47. Qf6 Rg8 48. Qxf7 Qf1 49. Rg2 Qf3 50. Qxe6 h5 "
    "51. gxh5 Qxh5+ 52. Kg1 Qd1+ 53. Kf2 Qd2+ 54. Kf3 Qd3+ 55. Kg4 Qd1+ 56. Kg3 Qd3+ 57. Kh2 Qf3 58. Qg4 Qxg4 "
    "59. Rxg4 Kh6 60. Rh4# 1-0\n")


def import_pgn(port, pgn):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/import", data=pgn.encode(), method="POST")
    req.add_header("Content-Type", "application/x-chess-pgn")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())["id"]


def analysed_positions(port, ids):
    """Positions evaluated so far over the analyses of `ids`."""
    total = 0
    for gid in ids:
        _, _, a = call(port, "GET", f"/api/games/{gid}/analysis")
        total += a.get("done") or 0
    return total


def summary(name, ms):
    ms = sorted(ms)
    q = lambda p: ms[min(len(ms) - 1, int(p * len(ms)))]
    return (f"{name}: {len(ms)} moves, p50 {q(0.5):.2f} ms, p90 {q(0.9):.2f} ms, "
            f"p99 {q(0.99):.2f} ms, max {ms[-1]:.2f} ms")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="target/release/rookery")
    ap.add_argument("--bots", type=int, default=50)
    ap.add_argument("--analyses", type=int, default=0)
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
        if args.analyses:
            ids = [import_pgn(port, SIXTY_MOVES) for _ in range(args.analyses)]
            for gid in ids:
                call(port, "POST", f"/api/games/{gid}/analysis")
            time.sleep(3)
            before = analysed_positions(port, ids)
            loaded = human_game(port, args.seconds, rng)
            done = analysed_positions(port, ids) - before
            print(summary(f"{args.analyses} analyses", loaded), flush=True)
            print(f"analyses: {done} positions evaluated meanwhile ({done / args.seconds:.1f}/s)")
            ratio = statistics.median(loaded) / statistics.median(quiet)
            print(f"median latency with analyses / without: {ratio:.2f}", flush=True)
        if not args.bots:
            return
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
