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

Some games are played slowly (a pause of 0.2-1.2 s between moves) on a server whose rooms
sleep after --hibernate-after seconds with nobody there (issue 55): kills land while they sleep,
while they wake for a move, and between; at each kill the database shows how many slept, and a
run in which none ever did fails (it proves nothing about them).

Rated games run beside them (docs/RATINGS.md): pairs of accounts (made with `rookery user
create` and `rookery user token`) play rated 3+2 games through API tokens, ended by
resignation, Fool's mate or an abort, until --rated games have ended by resignation or mate
(each must count) and every kill is done.
At the end, with the server down, the database is read: every finished rated game in which
both sides moved changed each player's rating exactly once (one `rating_changes` row per
player), no other game changed any; each player's stored rating, game count and ladder
points are the last link of an unbroken chain of their changes; the ladder sums to zero.

Usage: kill_test.py [--binary target/release/rookery] [--postgres postgres://...] [--kills 8]
                    [--min-acked 300] [--rated 200] [--sleepy 4] [--hibernate-after 0.25]
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
    def __init__(self, binary, url, hibernate_after):
        self.binary, self.url, self.port, self.proc = binary, url, free_port(), None
        self.hibernate_after = hibernate_after

    def start(self):
        self.proc = subprocess.Popen(
            [self.binary, "--listen", f"127.0.0.1:{self.port}", "--database-url", self.url,
             # Many games' moves from one address, as fast as they go: no rate limits.
             "--rate-limits", "off", "--hibernate-after", str(self.hibernate_after)],
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


def call(server, method, path, body=None, cookie=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}", data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if cookie:
        req.add_header("Cookie", cookie)
    if token:
        req.add_header("Authorization", f"Bearer {token}")
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
    ap.add_argument("--min-mated", type=int, default=10)
    ap.add_argument("--rated", type=int, default=200)
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--sleepy", type=int, default=4)
    ap.add_argument("--hibernate-after", type=float, default=0.25)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    tmp = tempfile.mkdtemp()
    if args.postgres:
        name = f"rookery_kill_{os.getpid()}"
        subprocess.run(["psql", args.postgres, "-qc", f"CREATE DATABASE {name}"], check=True)
        url = args.postgres.rsplit("/", 1)[0] + "/" + name
    else:
        url = f"sqlite://{tmp}/kill.db"
    server = Server(args.binary, url, args.hibernate_after)
    server.start()
    tokens = {}
    for i in range(2 * args.pairs):
        user = f"rater{i}"
        subprocess.run([args.binary, "--database-url", url, "user", "create", user],
                       input="a long enough password\n", text=True, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        tokens[user] = subprocess.run(
            [args.binary, "--database-url", url, "user", "token", user, "--scopes", "board:play"],
            capture_output=True, text=True, check=True).stdout.strip()
    # (game id, how it ended, (status, result) as the server showed it to a player once the
    # last action was answered): resigned or mated, so each must count.
    rated_ended = []
    rated_aborted = []
    told_wrong = []  # games whose shown end is not the one the players' actions made

    def new_game():
        _, ck_w, created = call(server, "POST", "/api/games", {"time_control": "untimed", "color": "white"})
        gid = created["id"]
        _, ck_b, _ = call(server, "POST", f"/api/games/{gid}/join")
        return {"id": gid, "cookies": {True: ck_w.split(";")[0], False: ck_b.split(";")[0]},
                "acked": [], "unanswered": [], "offer": None, "lock": threading.Lock()}

    games = [new_game() for _ in range(args.games)]
    sleepy = [new_game() for _ in range(args.sleepy)]
    games += sleepy
    asleep_at_kills = [0]
    mated = []  # Fool's mate games, made while the server is being killed

    stop = threading.Event()
    errors = []
    acked_total = [0]

    def player(game, seed, pause=None):
        prng = random.Random(seed)
        while not stop.is_set():
            if pause:
                time.sleep(prng.uniform(*pause))
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
                    except urllib.error.HTTPError as e:
                        # An answer, a refusal: read before the OSError below (HTTPError is one).
                        status = e.code
                    except (OSError, urllib.error.URLError):
                        time.sleep(0.05)
                        continue
                    if status == 200:
                        game["acked"].append(move)
                        acked_total[0] += 1
                        break
                    # Refused after a kill: the move was stored before it and its answer cut
                    # (the retry is then not this side's turn). The final check proves the
                    # store has it.
                    game["acked"].append(move)
                    game["unanswered"].append(i)
                    break
                else:
                    break

    def rated_games(a, b, seed):
        """One pair of accounts plays rated games one after another, through API tokens."""
        prng = random.Random(seed)

        def until_answered(method, path, token, body=None, answer=False):
            # Retried through kills; a refusal (4xx) after a kill means it was done already.
            # With `answer`, the answer's body instead of its status.
            while not stop_rated.is_set():
                try:
                    status, _, got = call(server, method, path, body, token=token)
                    return got if answer else status
                except urllib.error.HTTPError as e:
                    return None if answer else e.code
                except (OSError, urllib.error.URLError):
                    time.sleep(0.05)
            return None

        while not stop_rated.is_set():
            white, black = (a, b) if prng.random() < 0.5 else (b, a)
            try:
                _, _, made = call(server, "POST", "/api/games",
                                  {"time_control": "3+2", "color": "white", "rated": True},
                                  token=tokens[white])
            except (OSError, urllib.error.URLError):
                time.sleep(0.05)
                continue
            gid = made["id"]
            if until_answered("POST", f"/api/games/{gid}/join", tokens[black]) is None:
                return
            ending = prng.choice(["resign", "mate", "abort"])
            moves = ["f2f3", "e7e5", "g2g4", "d8h4"] if ending == "mate" else ["e2e4", "e7e5"]
            if ending == "abort":
                moves = moves[:1]
            for i, m in enumerate(moves):
                who = tokens[white] if i % 2 == 0 else tokens[black]
                if until_answered("POST", f"/api/games/{gid}/move", who, {"m": m}) is None:
                    return
            expected = "0-1" if ending == "mate" else None
            if ending == "resign":
                white_resigns = prng.random() < 0.5
                loser = tokens[white] if white_resigns else tokens[black]
                if until_answered("POST", f"/api/games/{gid}/resign", loser) is None:
                    return
                expected = "0-1" if white_resigns else "1-0"
            elif ending == "abort":
                if until_answered("POST", f"/api/games/{gid}/abort", tokens[black]) is None:
                    return
            # What the server tells a player the game's end is, once the last action is
            # answered: compared with the database at the end (check_ratings).
            shown = until_answered("GET", f"/api/games/{gid}", tokens[white], answer=True)
            if shown is None:
                return
            told = (shown["status"], shown["result"])
            if ending != "abort" and told != ("over", expected):
                told_wrong.append(f"game {gid} ({ending}): shown {told}, expected {expected}")
            (rated_aborted if ending == "abort" else rated_ended).append((gid, ending, told))

    def check_store():
        """With the server down: the stored rules state is what the stored moves say."""
        rows = stored_games(args.postgres and url, tmp)
        asleep_at_kills[0] += int(read_rows(
            args.postgres and url, tmp,
            "SELECT COUNT(*) FROM games WHERE status = 'live' AND wake_at IS NOT NULL")[0][0])
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

    stop_rated = threading.Event()
    threads = [threading.Thread(target=player, args=(g, rng.random(), (0.2, 1.2) if g in sleepy else None))
               for g in games]
    threads += [threading.Thread(target=mater) for _ in range(2)]
    raters = [threading.Thread(target=rated_games, args=(f"rater{2 * i}", f"rater{2 * i + 1}", rng.random()))
              for i in range(args.pairs)]
    for t in threads + raters:
        t.start()
    checks = 0
    k = 0
    # Kill at random moments until every kill is done and enough rated games have ended.
    while k < args.kills or (len(rated_ended) < args.rated and k < 10 * args.kills):
        time.sleep(rng.uniform(0.3, 1.5))
        server.kill()
        check_store()
        checks += 1
        k += 1
        server.start()
    time.sleep(1.0)
    stop.set()
    stop_rated.set()
    for t in threads + raters:
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
        export_url = f"http://127.0.0.1:{server.port}/game/export/{g['id']}"
        with urllib.request.urlopen(export_url, timeout=10) as r:
            pgn = chess.pgn.read_game(io.StringIO(r.read().decode()))
        if [m.uci() for m in pgn.mainline_moves()] != state["uci"] or pgn.errors:
            errors.append(f"game {g['id']}: exported PGN differs from the game")
        if pgn.headers["Result"] != (state["result"] or "*"):
            errors.append(f"game {g['id']}: exported result {pgn.headers['Result']} != {state['result']}")
        exported += 1
    server.kill()
    errors.extend(told_wrong)
    rated_summary = check_ratings(args.postgres and url, tmp, errors, rated_ended)
    rated_summary += f" ({len(rated_ended)} rated games played to an end, {len(rated_aborted)} aborted)"
    if args.postgres:
        subprocess.run(["psql", args.postgres, "-qc", f"DROP DATABASE {name} WITH (FORCE)"], check=False)
    backend = "postgres" if args.postgres else "sqlite"
    over = sum(1 for g in mated if len(g["acked"]) == 4)
    print(f"kill test ({backend}): {k + 1} kills, {len(games)} games and {len(mated)} "
          f"Fool's mates ({over} played out), {acked_total[0]} acknowledged moves, "
          f"{len(errors)} faults; the stored rules state checked at {checks} kills; "
          f"{exported} exported PGNs read back by python-chess; {rated_summary}; "
          f"{asleep_at_kills[0]} games found asleep over the kills")
    if sleepy and asleep_at_kills[0] == 0:
        print("  no game was ever asleep at a kill: the sleeping games were not tested")
        return 1
    if len(rated_ended) < args.rated:
        print(f"  only {len(rated_ended)} rated games ended (at least {args.rated} expected)")
        return 1
    for e in errors[:5]:
        print("  " + e)
    if over < args.min_mated:
        print(f"  only {over} Fool's mates played out (at least {args.min_mated} expected)")
        return 1
    if acked_total[0] < args.min_acked:
        print(f"  only {acked_total[0]} moves acknowledged (at least {args.min_acked} expected)")
        return 1
    return 1 if errors else 0


def read_rows(postgres_url, tmp, sql):
    """Rows of a query, from the database itself (the server is down)."""
    if postgres_url:
        out = subprocess.run(["psql", postgres_url, "-AtF", "\t", "-c", sql],
                             check=True, capture_output=True, text=True).stdout
        return [tuple(None if f == "" else f for f in line.split("\t"))
                for line in out.splitlines() if line]
    db = sqlite3.connect(f"{tmp}/kill.db")
    rows = [tuple(None if v is None else str(v) for v in r) for r in db.execute(sql).fetchall()]
    db.close()
    return rows


def check_ratings(postgres_url, tmp, errors, ended):
    """Every finished rated game in which both sides moved counted once for each player; no
    other game counted; each player's stored figures end an unbroken chain of changes; every
    game a client saw end (`ended`: id, how, the result it was told) is stored with that
    result and counted."""
    rows = lambda sql: read_rows(postgres_url, tmp, sql)
    games = rows("SELECT g.id, g.rated, g.status, g.termination, g.white_user, g.black_user, "
                 "(SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) FROM games g")
    results = {gid: (status, result) for gid, status, result in
               rows("SELECT id, status, result FROM games")}
    counted_changes = {}
    for gid, user in rows("SELECT game_id, user_id FROM rating_changes"):
        counted_changes[gid] = counted_changes.get(gid, 0) + 1
    for gid, how, told in ended:
        if results.get(gid) != told:
            errors.append(f"rated game {gid} ({how}): the players were shown {told}, stored {results.get(gid)}")
        if counted_changes.get(gid) != 2:
            errors.append(f"rated game {gid} ({how}) ended for its players but has "
                          f"{counted_changes.get(gid, 0)} rating changes, not 2")
    changes = rows("SELECT game_id, user_id, speed, at, rating_before, rating_after, "
                   "ladder_before, ladder_after FROM rating_changes ORDER BY at, game_id")
    by_game = {}
    for c in changes:
        by_game.setdefault(c[0], []).append(c)
    counted = 0
    for gid, rated, status, termination, white, black, plies in games:
        got = sorted(c[1] for c in by_game.get(gid, []))
        should = (rated == "1" and status == "over" and termination != "aborted"
                  and int(plies) >= 2 and white and black)
        if should:
            counted += 1
            if got != sorted([white, black]):
                errors.append(f"rated game {gid} ({termination}): changes for {got}, expected each player once")
        elif got:
            errors.append(f"game {gid} (rated={rated}, {status}/{termination}, {plies} plies) changed ratings of {got}")
    # Each player's changes chain: the rating and ladder points after one are those before the
    # next, and the stored figures are the last change's.
    stored = {(u, sp): (float(r), int(n)) for u, sp, r, n in
              rows("SELECT user_id, speed, rating, games FROM ratings")}
    ladder = {u: (int(p), int(n)) for u, p, n in rows("SELECT user_id, points, games FROM ladder")}
    chains, ladders = {}, {}
    for gid, user, speed, at, r_before, r_after, l_before, l_after in changes:
        chain = chains.setdefault((user, speed), [])
        if chain and abs(float(r_before) - chain[-1]) > 1e-6:
            errors.append(f"{user} {speed}: game {gid} starts from {r_before}, the last change left {chain[-1]}")
        chain.append(float(r_after))
        lad = ladders.setdefault(user, [])
        if lad and int(l_before) != lad[-1]:
            errors.append(f"{user} ladder: game {gid} starts from {l_before}, the last change left {lad[-1]}")
        lad.append(int(l_after))
    for key, chain in chains.items():
        if key not in stored or abs(stored[key][0] - chain[-1]) > 1e-6 or stored[key][1] != len(chain):
            errors.append(f"{key}: stored {stored.get(key)}, the changes say {chain[-1]} after {len(chain)} games")
    for user, lad in ladders.items():
        if ladder.get(user) != (lad[-1], len(lad)):
            errors.append(f"{user} ladder: stored {ladder.get(user)}, the changes say {(lad[-1], len(lad))}")
    total = sum(p for p, _ in ladder.values())
    if total != 0:
        errors.append(f"the ladder sums to {total}, not 0")
    return (f"{counted} finished rated games counted, {len(changes)} rating changes, "
            f"each once; ladder sums to {total}")


def stored_games(postgres_url, tmp):
    """Every game row and its moves, read from the database itself."""
    games = read_rows(postgres_url, tmp, "SELECT id, status, termination, draw_offers FROM games")
    moves = read_rows(postgres_url, tmp, "SELECT game_id, uci FROM moves ORDER BY game_id, ply")
    stored = {gid: (status, termination, offers, []) for gid, status, termination, offers in games}
    for gid, uci in moves:
        stored[gid][3].append(uci)
    return stored


if __name__ == "__main__":
    sys.exit(main())
