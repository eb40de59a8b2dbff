#!/usr/bin/env python3
"""Kill test: every move acknowledged to a player survives `kill -9` of the server.

Starts the release server on a fresh database (SQLite file, or a fresh PostgreSQL database
when --postgres names a server), creates games, and plays random legal moves (python-chess
picks them) over HTTP from several threads at once. At random moments it kills the server
with SIGKILL, restarts it, and checks that every move the server acknowledged (HTTP 200) is
in the game, in order. Games go on after each restart.

Besides the random games, threads play Fool's mate over and over in new games (so kills land
between a game's last move and its end) and offer draws with their moves (so kills land across a
pending offer). While the server is down after each kill, the database itself is read: a game
whose stored moves end it must be stored as over, as the rules say, and the last acknowledged
draw offer must be stored as standing while no later move was (docs/RULES.md R4, R5).

Usage: kill_test.py [--binary target/release/rookery] [--postgres postgres://...] [--kills 8]
                    [--min-acked 300]
At the end every game's PGN export is read by python-chess and compared with the game.
Exit status 0 when no acknowledged move was lost, the stored rules state was right at every
kill, every export matches, and at least --min-acked moves were acknowledged (a run in which
every move was refused proves nothing).
"""
import argparse
import io
import json
import os
import sqlite3
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
            [self.binary, "--listen", f"127.0.0.1:{self.port}", "--database-url", self.url,
             # Many games' moves from one address, as fast as they go: no rate limits.
             "--rate-limits", "off"],
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
    ap.add_argument("--min-acked", type=int, default=300)
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

    def new_game():
        _, ck_w, created = call(server, "POST", "/api/games", {"time_control": "untimed", "color": "white"})
        gid = created["id"]
        _, ck_b, _ = call(server, "POST", f"/api/games/{gid}/join")
        return {"id": gid, "cookies": {True: ck_w.split(";")[0], False: ck_b.split(";")[0]},
                "acked": [], "offer": None, "lock": threading.Lock()}

    games = [new_game() for _ in range(args.games)]
    mated = []  # Fool's mate games, made while the server is being killed

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
                offer = prng.random() < 0.2
                try:
                    status, _, _ = call(server, "POST", f"/api/games/{game['id']}/move",
                                        {"m": move, "offer_draw": offer}, game["cookies"][board.turn])
                except (OSError, urllib.error.URLError):
                    continue  # not acknowledged: may or may not be stored
                if status == 200:
                    game["acked"] = moves + [move]
                    # R5.1: an offer made with a move stands once the move is stored.
                    game["offer"] = (len(moves) + 1, "w" if board.turn else "b") if offer else None
                    acked_total[0] += 1

    def mater():
        """Fool's mate, game after game: the last move and the end are one event."""
        while not stop.is_set():
            try:
                game = new_game()
            except (OSError, urllib.error.URLError):
                time.sleep(0.05)
                continue
            mated.append(game)
            for i, move in enumerate(["f2f3", "e7e5", "g2g4", "d8h4"]):
                while not stop.is_set():
                    try:
                        status, _, _ = call(server, "POST", f"/api/games/{game['id']}/move", {"m": move},
                                            game["cookies"][i % 2 == 0])
                    except (OSError, urllib.error.URLError):
                        time.sleep(0.05)
                        continue
                    if status == 200:
                        game["acked"].append(move)
                        acked_total[0] += 1
                        break
                    # Refused: it was stored before the kill without an answer; go on.
                    game["acked"].append(move)
                    break

    def check_store():
        """With the server down: the stored rules state is what the stored moves say."""
        rows = stored_games(args.postgres and url, tmp)
        for g in games + mated:
            if g["id"] not in rows:
                continue
            status, termination, offers, uci = rows[g["id"]]
            board = chess.Board()
            for u in uci:
                board.push_uci(u)
            if board.is_checkmate() and (status, termination) != ("over", "checkmate"):
                errors.append(f"game {g['id']}: mated on the board but stored {status}/{termination}")
            if status == "over" and not board.is_game_over(claim_draw=False):
                errors.append(f"game {g['id']}: stored over ({termination}) but the board goes on")
            offer = g.get("offer")
            if offer and len(uci) == offer[0] and status == "live":
                if f"standing={offer[1]}" not in (offers or ""):
                    errors.append(f"game {g['id']}: acknowledged draw offer by {offer[1]} stored as {offers!r}")

    threads = [threading.Thread(target=player, args=(g, rng.random())) for g in games]
    threads += [threading.Thread(target=mater) for _ in range(2)]
    for t in threads:
        t.start()
    checks = 0
    for k in range(args.kills):
        time.sleep(rng.uniform(0.3, 1.5))
        server.kill()
        check_store()
        checks += 1
        server.start()
    time.sleep(1.0)
    stop.set()
    for t in threads:
        t.join()

    # Final check after one more kill: every acknowledged move is stored, in order.
    server.kill()
    check_store()
    checks += 1
    server.start()
    exported = 0
    for g in mated:
        _, _, state = call(server, "GET", f"/api/games/{g['id']}")
        if state["uci"][:len(g["acked"])] != g["acked"]:
            errors.append(f"game {g['id']}: lost acknowledged moves")
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
    over = sum(1 for g in mated if len(g["acked"]) == 4)
    print(f"kill test ({backend}): {args.kills + 1} kills, {len(games)} games and {len(mated)} "
          f"Fool's mates ({over} played out), {acked_total[0]} acknowledged moves, "
          f"{len(errors)} faults; the stored rules state checked at {checks} kills; "
          f"{exported} exported PGNs read back by python-chess")
    for e in errors[:5]:
        print("  " + e)
    if acked_total[0] < args.min_acked:
        print(f"  only {acked_total[0]} moves acknowledged (at least {args.min_acked} expected)")
        return 1
    return 1 if errors else 0


def stored_games(postgres_url, tmp):
    """Every game row and its moves, read from the database itself."""
    query_games = "SELECT id, status, termination, draw_offers FROM games"
    query_moves = "SELECT game_id, uci FROM moves ORDER BY game_id, ply"
    if postgres_url:
        def rows(sql):
            out = subprocess.run(["psql", postgres_url, "-AtF", "\t", "-c", sql],
                                 check=True, capture_output=True, text=True).stdout
            return [tuple(None if f == "" else f for f in line.split("\t"))
                    for line in out.splitlines() if line]
        games, moves = rows(query_games), rows(query_moves)
    else:
        db = sqlite3.connect(f"{tmp}/kill.db")
        games, moves = db.execute(query_games).fetchall(), db.execute(query_moves).fetchall()
        db.close()
    stored = {gid: (status, termination, offers, []) for gid, status, termination, offers in games}
    for gid, uci in moves:
        stored[gid][3].append(uci)
    return stored


if __name__ == "__main__":
    sys.exit(main())
