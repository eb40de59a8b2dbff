#!/usr/bin/env python3
"""Kill test: every move acknowledged to a player survives `kill -9` of the server.

Starts the release server on a fresh database (SQLite file, or a fresh PostgreSQL database
when --postgres names a server), creates games, and plays random legal moves (python-chess
picks them) over HTTP from several threads at once. At random moments it kills the server
with SIGKILL, restarts it, and checks that every move the server acknowledged (HTTP 200) is
in the game, in order. Games go on after each restart.

Usage: kill_test.py [--binary target/release/rookery] [--postgres postgres://...] [--kills 8]
At the end every game's PGN export is read by python-chess and compared with the game.
Exit status 0 when no acknowledged move was lost and every export matches.
"""
import argparse
import io
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

import chess
import chess.pgn


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, binary, url):
        self.binary, self.url, self.port, self.proc = binary, url, free_port(), None

    def start(self):
        self.proc = subprocess.Popen(
            [self.binary, "--listen", f"127.0.0.1:{self.port}", "--database-url", self.url],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                call(self, "GET", "/api/health")
                return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("the server did not start")

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


def call(server, method, path, body=None, cookie=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}", data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if cookie:
        req.add_header("Cookie", cookie)
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.status, r.headers.get("Set-Cookie"), json.loads(r.read() or b"null")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="target/release/rookery")
    ap.add_argument("--postgres")
    ap.add_argument("--kills", type=int, default=8)
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    tmp = tempfile.mkdtemp()
    if args.postgres:
        name = f"rookery_kill_{os.getpid()}"
        subprocess.run(["psql", args.postgres, "-qc", f"CREATE DATABASE {name}"], check=True)
        url = args.postgres.rsplit("/", 1)[0] + "/" + name
    else:
        url = f"sqlite://{tmp}/kill.db"
    server = Server(args.binary, url)
    server.start()

    games = []
    for _ in range(args.games):
        _, ck_w, created = call(server, "POST", "/api/games", {"time_control": "untimed", "color": "white"})
        gid = created["id"]
        _, ck_b, _ = call(server, "POST", f"/api/games/{gid}/join")
        games.append({"id": gid, "cookies": {True: ck_w.split(";")[0], False: ck_b.split(";")[0]},
                      "acked": [], "lock": threading.Lock()})

    stop = threading.Event()
    errors = []
    acked_total = [0]

    def player(game, seed):
        prng = random.Random(seed)
        while not stop.is_set():
            with game["lock"]:
                try:
                    _, _, state = call(server, "GET", f"/api/games/{game['id']}")
                except (OSError, urllib.error.URLError):
                    time.sleep(0.05)
                    continue
                if state["status"] != "live":
                    return
                moves = state["uci"]
                acked = game["acked"]
                if moves[:len(acked)] != acked:
                    errors.append(f"game {game['id']}: acknowledged {acked} but the server has {moves}")
                    stop.set()
                    return
                board = chess.Board()
                for u in moves:
                    board.push_uci(u)
                move = prng.choice(list(board.legal_moves)).uci()
                try:
                    status, _, _ = call(server, "POST", f"/api/games/{game['id']}/move", {"m": move},
                                        game["cookies"][board.turn])
                except (OSError, urllib.error.URLError):
                    continue  # not acknowledged: may or may not be stored
                if status == 200:
                    game["acked"] = moves + [move]
                    acked_total[0] += 1

    threads = [threading.Thread(target=player, args=(g, rng.random())) for g in games]
    for t in threads:
        t.start()
    for k in range(args.kills):
        time.sleep(rng.uniform(0.3, 1.5))
        server.kill()
        time.sleep(0.1)
        server.start()
    time.sleep(1.0)
    stop.set()
    for t in threads:
        t.join()

    # Final check after one more kill: every acknowledged move is stored, in order.
    server.kill()
    server.start()
    exported = 0
    for g in games:
        _, _, state = call(server, "GET", f"/api/games/{g['id']}")
        if state["uci"][:len(g["acked"])] != g["acked"]:
            errors.append(f"game {g['id']}: lost acknowledged moves")
        # The PGN export reads back in python-chess with the same moves and result.
        url = f"http://127.0.0.1:{server.port}/game/export/{g['id']}"
        with urllib.request.urlopen(url, timeout=10) as r:
            pgn = chess.pgn.read_game(io.StringIO(r.read().decode()))
        if [m.uci() for m in pgn.mainline_moves()] != state["uci"] or pgn.errors:
            errors.append(f"game {g['id']}: exported PGN differs from the game")
        if pgn.headers["Result"] != (state["result"] or "*"):
            errors.append(f"game {g['id']}: exported result {pgn.headers['Result']} != {state['result']}")
        exported += 1
    server.kill()
    if args.postgres:
        subprocess.run(["psql", args.postgres, "-qc", f"DROP DATABASE {name} WITH (FORCE)"], check=False)
    backend = "postgres" if args.postgres else "sqlite"
    print(f"kill test ({backend}): {args.kills + 1} kills, {len(games)} games, "
          f"{acked_total[0]} acknowledged moves, {len(errors)} lost or out of order; "
          f"{exported} exported PGNs read back by python-chess")
    for e in errors[:5]:
        print("  " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
