#!/usr/bin/env python3
"""Cluster tests: three Rookery nodes on one PostgreSQL database and NATS (docs/SCALING.md).

Each test starts its nodes on a fresh database, on ports of their own, and the load
generator (`rookery-loadgen --reconnect`) spreads the games' players and spectators over
all of them: each game is made on one node, its players connect to two others, its
spectator to the third. What every test checks at the end: every acknowledged move is stored
at its ply (`rookery-loadgen --verify`, 0 lost or reordered), and no game stalled (each had
a move acknowledged in the last 20 s of the run).

  kills    every --every seconds one node is killed with SIGKILL and started again, for
           --seconds; the interruptions (a game's last ack before the kill to its first
           ack after) are reported as p50/p99/max.
  rolling  every node in turn gets SIGTERM (it hands its games over and closes its sockets
           with a reconnect hint) and is started again.
  fencing  a node is paused with SIGSTOP past its leases; the others take its games; it is
           resumed with a move of such a game in hand (on a socket it held) and must not
           store it: the database keeps the new owner's moves only.
  pools    quick pairing across nodes: players join the pools through one node and ask
           after their tickets through another, and are paired with players of every
           node by the one pairing authority; a ticket waiting when the authority is
           killed (SIGKILL), or leaves (SIGTERM), is paired by the next authority.
  analysis analysis jobs requested through one node are claimed from the database queue by
           the workers of every node; the progress of a job shows on every node; a node
           killed in the middle of a job starts again and the job is done.
  bots     games against a level-8 bot made on node1, the bot to move first, more than
           node1 has search threads (6 on two cores, which give one): node1 offers the
           other searches to the other nodes, which think with theirs; every bot plays its
           first move.
  lobby    accounts across nodes (lichess's API): a challenge made through one node is
           heard on the challenged account's event stream on another, listed and accepted
           through a third; both streams hear the game start; board moves, a chat line
           and a resignation through different nodes; then a rematch asked and accepted
           through different nodes; a node killed with a player's socket: the
           opponent (on the owner) hears that player gone.
  nats     NATS (a server of the test's own) is killed for 10 s and started again: each
           owner goes on serving its games to the sockets it holds, the other sockets are
           refused ("unavailable") or reconnect, and play resumes by itself; nothing
           acknowledged is lost. Then a move's event lost as NATS dies reaches the
           player on another node once NATS is back, and that player, counted gone while
           NATS was down, is there again.
  natsauth NATS with a password: nodes connect with it (in the URL, or in the environment)
           and play across nodes; a client without it is refused; no log shows it.
  outage   the nodes reach PostgreSQL through a TCP proxy that cuts it for 10 s: moves
           are refused meanwhile ("cannot be saved"), none acknowledged is lost, and play
           resumes by itself.
  ratings  rated games of the same six accounts end at the same moment through different
           nodes (each round, six games resign together, each account in two of them): every
           game counts once for each player, each player's rating and ladder changes chain
           without a lost update, the stored figures are the last change's, the ladder sums
           to zero (R8), and each game's stored result is the one the players were shown.
  quiet    a game whose players and spectator are all on its owner publishes none of its
           events on NATS (two nodes, every game kept together: not one event heard in 10 s
           of play); the same games with everyone on the other node publish them all; a
           game the other node stops following (its spectator gone 25 s) publishes nothing
           more, and a new spectator there follows it again.
  arena    an arena of sixty players spread over the nodes (loadgen --arena), its
           tournament director killed once: another node directs within the lease, and
           every finished game is counted once in the standings.

Usage: cluster_test.py --binary target/release/rookery --loadgen target/release/rookery-loadgen
                       --postgres postgres://postgres@127.0.0.1:5432/test
                       [--nats nats://127.0.0.1:4222] [--test kills,rolling,fencing,sleep,pools,analysis,bots,lobby,nats,natsauth,outage,ratings,tournament,quiet,arena]
"""
import argparse
import json
import os
import queue
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(port, method, path, body=None, cookie=None, timeout=10):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if cookie:
        req.add_header("Cookie", cookie)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.headers.get("Set-Cookie"), json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, None, json.loads(e.read() or b"null")


# Every node started, so that none outlives the run (a node left running would answer the
# next test's NATS requests: the pools' queue group, games' subjects).
ALL_NODES = []


class Node:
    def __init__(self, args, name, url, log_dir, extra=(), nats=None):
        ALL_NODES.append(self)
        self.args, self.name, self.url, self.extra = args, name, url, list(extra)
        self.nats = nats or args.nats
        self.port = free_port()
        self.proc = None
        self.log_path = os.path.join(log_dir, f"{name}.log")
        self.log = open(self.log_path, "ab")
        # Where this node's part of the log begins (a later test's node appends to it).
        self.log_from = self.log.seek(0, os.SEEK_END)

    def log_text(self):
        """What this node (every run of it) wrote to its log."""
        with open(self.log_path, "rb") as f:
            f.seek(self.log_from)
            return f.read().decode(errors="replace")

    def start(self, wait=True, env=None):
        self.proc = subprocess.Popen(
            [self.args.binary, "--listen", f"127.0.0.1:{self.port}", "--database-url", self.url,
             "--cluster", self.nats, "--node-id", self.name, "--rate-limits", "off",
             # Every player and spectator comes from one address.
             "--max-connections-per-address", "20000"] + self.extra,
            stdout=self.log, stderr=subprocess.STDOUT, env=env)
        if wait:
            self.wait_ready()

    def wait_ready(self):
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if call(self.port, "GET", "/api/ready")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise SystemExit(f"node {self.name} did not start")

    def signal(self, sig):
        self.proc.send_signal(sig)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()


def fresh_database(postgres, tag):
    name = f"rookery_cluster_{tag}_{os.getpid()}"
    subprocess.run(["psql", postgres, "-qc", f"DROP DATABASE IF EXISTS {name}"], check=True,
                   stderr=subprocess.DEVNULL)
    subprocess.run(["psql", postgres, "-qc", f"CREATE DATABASE {name}"], check=True)
    return postgres.rsplit("/", 1)[0] + "/" + name


def accounts(args, url, names, scopes):
    """Accounts made on the command line, each with an API token of these scopes: name -> token."""
    tokens = {}
    for name in names:
        subprocess.run([args.binary, "--database-url", url, "user", "create", name],
                       input="a long enough password\n", text=True, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        tokens[name] = subprocess.run(
            [args.binary, "--database-url", url, "user", "token", name, "--scopes", scopes],
            capture_output=True, text=True, check=True).stdout.strip()
    return tokens


def start_nodes(args, url, tmp, n=3):
    nodes = [Node(args, f"node{i + 1}", url, tmp) for i in range(n)]
    nodes[0].start()  # the first applies the migrations; the others start together
    for node in nodes[1:]:
        node.start(wait=False)
    for node in nodes[1:]:
        node.wait_ready()
    return nodes


def loadgen(args, nodes, seconds, games, record, extra=()):
    servers = ",".join(f"127.0.0.1:{n.port}" for n in nodes)
    return subprocess.Popen(
        [args.loadgen, "--server", servers, "--games", str(games), "--spectators", "1",
         "--rate", "0.5", "--time-control", "10+5", "--seconds", str(seconds),
         "--reconnect", "--record", record, "--progress-every", "20", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def finish(args, nodes, gen, record, errors, label):
    out, _ = gen.communicate()
    print(out)
    verify = subprocess.run(
        [args.loadgen, "--server", ",".join(f"127.0.0.1:{n.port}" for n in nodes if n.proc.poll() is None),
         "--verify", record], capture_output=True, text=True)
    print(verify.stdout.strip())
    if verify.returncode != 0:
        errors.append(f"{label}: acknowledged moves lost or reordered")
    acked = re.search(r"(\d+) moves acknowledged in", out)
    if not acked or int(acked.group(1)) < 500:
        errors.append(f"{label}: too few moves acknowledged to prove anything")
    stalled = re.search(r"games without an acknowledged move in the last \d+ s of the run: (\d+)", out)
    if not stalled or int(stalled.group(1)) != 0:
        errors.append(f"{label}: games stalled ({stalled.group(1) if stalled else '?'})")
    return out


def test_kills(args, tmp, errors):
    url = fresh_database(args.postgres, "kills")
    nodes = start_nodes(args, url, tmp)
    record = os.path.join(tmp, "kills.txt")
    gen = loadgen(args, nodes, args.seconds + 20, args.games, record)
    time.sleep(10)
    kills = 0
    started = time.time()
    while time.time() - started < args.seconds:
        time.sleep(args.every)
        node = nodes[kills % len(nodes)]
        node.signal(signal.SIGKILL)
        node.proc.wait()
        kills += 1
        print(f"{time.time() - started:5.0f} s: killed {node.name} (SIGKILL), starting it again",
              flush=True)
        node.start()
    finish(args, nodes, gen, record, errors, "kills")
    print(f"kills: {kills}")
    for node in nodes:
        node.stop()


def test_rolling(args, tmp, errors):
    url = fresh_database(args.postgres, "rolling")
    nodes = start_nodes(args, url, tmp)
    record = os.path.join(tmp, "rolling.txt")
    gen = loadgen(args, nodes, 75, args.games, record)
    time.sleep(15)
    for node in nodes:
        started = time.time()
        node.signal(signal.SIGTERM)
        node.proc.wait()
        print(f"{node.name} stopped by SIGTERM in {time.time() - started:.1f} s; starting it again",
              flush=True)
        node.start()
        time.sleep(10)
    finish(args, nodes, gen, record, errors, "rolling restart")
    for node in nodes:
        node.stop()


def test_fencing(args, tmp, errors):
    """A node paused past its lease cannot write to a game another node took over."""
    url = fresh_database(args.postgres, "fencing")
    nodes = start_nodes(args, url, tmp, n=2)
    a, b = nodes
    _, white, game = call(a.port, "POST", "/api/games", {"time_control": "10+5", "color": "white"})
    gid = game["id"]
    white = white.split(";")[0]
    _, black, _ = call(a.port, "POST", f"/api/games/{gid}/join")
    black = black.split(";")[0]
    for m, c in [("e2e4", white), ("e7e5", black)]:
        status, _, _ = call(a.port, "POST", f"/api/games/{gid}/move", {"m": m}, c)
        assert status == 200, status
    owner = stored_owner(url, gid)
    if owner != a.name:
        errors.append(f"fencing: the game's owner is {owner}, not {a.name}, which made it")
    # A WebSocket on A, so that A still has a connection with a move to send when it wakes.
    ws = RawSocket(a.port, f"/game/{gid}/socket", white)
    ws.recv_until('"t":"state"')
    a.signal(signal.SIGSTOP)
    print("node1 paused (SIGSTOP)", flush=True)
    # B takes the game over once the lease runs out, and plays on.
    deadline = time.time() + 30
    while time.time() < deadline:
        status, _, _ = call(b.port, "POST", f"/api/games/{gid}/move", {"m": "g1f3"}, white)
        if status == 200:
            break
        time.sleep(0.2)
    else:
        errors.append("fencing: node2 did not take the game over")
    print(f"node2 took the game over: owner {stored_owner(url, gid)}", flush=True)
    # A wakes with a move in hand for White (whose turn it is not on the real board: on A's
    # stale board it is): Nc3, on A's socket. It must not be stored.
    ws.send(json.dumps({"t": "move", "d": {"u": "b1c3", "a": 1}}))
    a.signal(signal.SIGCONT)
    print("node1 resumed (SIGCONT) and sent b1c3 from its stale room", flush=True)
    reply = ws.recv_until('"a":1', timeout=15)
    time.sleep(3)
    status, _, state = call(b.port, "GET", f"/api/games/{gid}")
    print(f"node1 answered: {reply}; stored moves: {state['uci']}", flush=True)
    if state["uci"] != ["e2e4", "e7e5", "g1f3"]:
        errors.append(f"fencing: stored moves are {state['uci']}")
    if reply and '"ack"' in reply:
        errors.append("fencing: the paused node acknowledged a move")
    status, _, _ = call(a.port, "POST", f"/api/games/{gid}/move", {"m": "b8c6"}, black)
    status2, _, state = call(b.port, "GET", f"/api/games/{gid}")
    print(f"after: a move through node1 -> HTTP {status}; stored {state['uci']}", flush=True)
    if status != 200 or state["uci"] != ["e2e4", "e7e5", "g1f3", "b8c6"]:
        errors.append("fencing: the game was not playable through the resumed node")
    for node in nodes:
        node.stop()


def test_sleep(args, tmp, errors):
    """Sleeping games across nodes (issue 55): a game nobody is connected to gives its room and
    its lease up; a move through another node wakes it there; one left alone is taken by a
    node's look before its flag, which falls on time."""
    url = fresh_database(args.postgres, "sleep")
    a, b = [Node(args, f"node{i}", url, tmp, extra=["--hibernate-after", "0.5"]) for i in (1, 2)]
    a.start()
    b.start()
    row = lambda gid: psql(url, f"SELECT owner, wake_at, status, finished_at, termination "
                                f"FROM games WHERE id = '{gid}'").split("|")

    def game(tc):
        _, white, g = call(a.port, "POST", "/api/games", {"time_control": tc, "color": "white"})
        _, black, _ = call(a.port, "POST", f"/api/games/{g['id']}/join")
        cookies = white.split(";")[0], black.split(";")[0]
        for m, c in [("e2e4", cookies[0]), ("e7e5", cookies[1])]:
            status, _, _ = call(a.port, "POST", f"/api/games/{g['id']}/move", {"m": m}, c)
            assert status == 200, status
        return g["id"], cookies

    def asleep(gid):
        deadline = time.time() + 15
        while time.time() < deadline:
            owner, wake_at = row(gid)[:2]
            if wake_at:
                return owner, int(wake_at)
            time.sleep(0.1)
        errors.append(f"sleep: game {gid} never slept")
        return None, None

    flagged, _ = game("0.25+0")
    woken, (white, _) = game("5+3")
    owner, wake_at = asleep(flagged)
    if owner:
        errors.append(f"sleep: a sleeping game is still held by {owner}")
    asleep(woken)
    status, _, _ = call(b.port, "POST", f"/api/games/{woken}/move", {"m": "g1f3"}, white)
    owner = row(woken)[0]
    print(f"sleep: a move through node2 on a game asleep -> HTTP {status}, held by {owner}", flush=True)
    if status != 200 or owner != b.name:
        errors.append(f"sleep: a move through node2 woke the game as {status}, held by {owner}")
    deadline = time.time() + 40
    while time.time() < deadline and row(flagged)[2] == "live":
        time.sleep(0.2)
    _, _, status, finished, termination = row(flagged)
    late = int(finished or 0) - (wake_at or 0)
    print(f"sleep: the game left alone ended by {termination} {late} ms after its flag's time", flush=True)
    if status != "over" or termination != "time forfeit" or not 0 <= late < 1000:
        errors.append(f"sleep: the sleeping game's flag: {status}, {termination}, {late} ms late")
    a.stop()
    b.stop()


def test_seats(args, tmp, errors, rounds=6):
    """A seat is the room's to give (stored under its lease, like a move): taken through a
    non-owner node while the owner is killed, it is either taken once, by the token the
    answer gave, or refused and still open — never stored for a token nobody was given."""
    url = fresh_database(args.postgres, "seats")
    nodes = start_nodes(args, url, tmp, n=3)
    owner, other, third = nodes
    rng = random.Random(7)
    taken = refused = 0
    for r in range(rounds):
        status, white, game = call(owner.port, "POST", "/api/games",
                                   {"time_control": "10+5", "color": "white"})
        if status != 201:
            errors.append(f"seats: round {r}: the owner could not make a game ({status} {game})")
            break
        gid, white = game["id"], white.split(";")[0]
        if stored_owner(url, gid) != owner.name:
            errors.append(f"seats: game {gid} is not held by {owner.name}, which made it")
        answer = {}

        def join():
            answer["reply"] = call(other.port, "POST", f"/api/games/{gid}/join", timeout=30)

        joining = threading.Thread(target=join)
        joining.start()
        time.sleep(rng.uniform(0.0, 0.02))
        owner.signal(signal.SIGKILL)
        owner.proc.wait()
        joining.join()
        status, cookie, body = answer["reply"]
        stored = psql(url, f"SELECT COALESCE(black_seat, '') FROM games WHERE id = '{gid}'")
        if status == 200:
            taken += 1
            token = cookie.split(";")[0].split("=", 1)[1]
            if stored != token:
                errors.append(f"seats: round {r}: taken (200) but the stored seat is {stored!r}")
            black = cookie.split(";")[0]
        else:
            refused += 1
            if stored:
                errors.append(f"seats: round {r}: refused ({status} {body}) yet a seat is stored")
            # Still open: taken through the third node once the game has a new owner.
            deadline = time.time() + 30
            while time.time() < deadline:
                status, cookie, body = call(third.port, "POST", f"/api/games/{gid}/join")
                if status == 200:
                    break
                time.sleep(0.3)
            else:
                errors.append(f"seats: round {r}: the open seat could not be taken after ({body})")
                continue
            black = cookie.split(";")[0]
        # Both players move, through the nodes left.
        for m, c, node in [("e2e4", white, other), ("e7e5", black, third)]:
            deadline = time.time() + 30
            while time.time() < deadline:
                status, _, body = call(node.port, "POST", f"/api/games/{gid}/move", {"m": m}, c)
                if status == 200:
                    break
                time.sleep(0.3)
            else:
                errors.append(f"seats: round {r}: {m} refused ({status} {body})")
        owner.start()
    print(f"seats: {rounds} joins while the owner was killed: {taken} taken, {refused} refused "
          f"(and then taken through another node)", flush=True)
    for node in nodes:
        node.stop()


def pool_join(ports, tc="1+0"):
    """Joins the casual pool of `tc` through ports[0], trying the next node while the
    pairing authority changes hands (503): the ticket."""
    deadline = time.time() + 30
    while time.time() < deadline:
        for port in ports:
            status, _, body = call(port, "POST", "/api/pool", {"time_control": tc})
            if status == 200:
                return body["ticket"]
            if status != 503:
                raise SystemExit(f"pool join: HTTP {status} {body}")
    raise SystemExit("pool join: no node could reach the pairing authority")


def pool_wait(ports, ticket, seconds=40):
    """Asks after `ticket` (long polls) round the nodes until it is paired: (game, colour),
    or None if it is still waiting after `seconds`. A 503 (the authority changing hands)
    is asked again, as the page does; a 404 (ticket lost) is an error."""
    deadline = time.time() + seconds
    i = 0
    while time.time() < deadline:
        port = ports[i % len(ports)]
        i += 1
        try:
            status, _, body = call(port, "GET", f"/api/pool/{ticket}", timeout=40)
        except OSError:
            continue
        if status == 200 and "url" in body:
            return body["id"], body["color"]
        if status == 503:
            time.sleep(0.5)
        elif status != 200:
            raise SystemExit(f"pool poll: HTTP {status} {body}")
    return None


def pairing_authority(url):
    return psql(url, "SELECT holder FROM roles WHERE name = 'pairing'"
                     " AND lease_until > extract(epoch from now()) * 1000")


def test_pools(args, tmp, errors):
    """Quick pairing spans the nodes, and a waiting ticket outlives its pairing authority."""
    url = fresh_database(args.postgres, "pools")
    nodes = start_nodes(args, url, tmp)
    ports = [n.port for n in nodes]
    # 1. 30 players, each joining through node i % 3 and asking through node (i + 1) % 3.
    n = 30
    answers = {}

    def player(i):
        ticket = pool_join(ports[i % 3:] + ports[:i % 3])
        answers[i] = pool_wait([ports[(i + 1) % 3]], ticket)

    threads = [threading.Thread(target=player, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    games = {}
    for i, answer in answers.items():
        if answer is None:
            errors.append(f"pools: player {i} was never paired")
            continue
        games.setdefault(answer[0], []).append((i, answer[1]))
    across = 0
    for gid, seats in games.items():
        colours = sorted(c for _, c in seats)
        if colours != ["black", "white"]:
            errors.append(f"pools: game {gid} seats {seats}")
            continue
        if seats[0][0] % 3 != seats[1][0] % 3:
            across += 1
        status, _, state = call(ports[2], "GET", f"/api/games/{gid}")
        if status != 200 or state.get("status") != "live":
            errors.append(f"pools: game {gid} reads {status} {state}")
    print(f"pools: {n} players joined round the 3 nodes: {len(games)} games, {across} of them "
          f"between players who joined through different nodes", flush=True)
    if len(games) != n // 2 or across == 0:
        errors.append(f"pools: {len(games)} games ({across} across nodes) for {n} players")
    # 2. A ticket waiting when the authority dies (SIGKILL) or leaves (SIGTERM).
    for how in ["SIGKILL", "SIGTERM"]:
        holder = pairing_authority(url)
        authority = next((node for node in nodes if node.name == holder), None)
        if authority is None:
            errors.append(f"pools: no pairing authority ({holder!r})")
            break
        others = [node.port for node in nodes if node is not authority]
        first = pool_join(others)
        # A lone waiter: the grid of every node counts it (from the authority's book).
        time.sleep(2.5)
        counts = [next(p["casual_waiting"] for p in call(port, "GET", "/api/pools")[2]
                       if p["time_control"] == "1+0") for port in ports]
        if counts != [1, 1, 1]:
            errors.append(f"pools: the nodes count {counts} waiting, not one each")
        authority.signal(signal.SIGKILL if how == "SIGKILL" else signal.SIGTERM)
        gone = time.time()
        second = pool_join(others[::-1])
        joined = time.time() - gone
        got = {}
        waiter = threading.Thread(target=lambda: got.setdefault("first", pool_wait(others, first)))
        waiter.start()
        got["second"] = pool_wait(others[::-1], second)
        waiter.join()
        took = time.time() - gone
        authority.proc.wait()
        now_holder = pairing_authority(url)
        print(f"pools: authority {holder} {how}: a second player joined {joined:.1f} s later, "
              f"and the waiting ticket was paired with them {took:.1f} s after the {how} "
              f"by {now_holder}: {got}", flush=True)
        if not got.get("first") or not got.get("second") or got["first"][0] != got["second"][0]:
            errors.append(f"pools: after the authority's {how} the two waiters were not paired "
                          f"together: {got}")
        authority.start()
    for node in nodes:
        node.stop()


# Morphy v. the Duke of Brunswick and Count Isouard, Paris 1858 (public domain): 34 moves.
OPERA = """[White "Paul Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6
9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6
15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0
"""


def import_game(port):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/import", data=OPERA.encode(),
                                 method="POST")
    req.add_header("Content-Type", "text/plain")
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())["id"]


def psql(url, sql):
    return subprocess.run(["psql", url, "-tAc", sql], capture_output=True, text=True).stdout.strip()


def analysis_of(port, gid):
    status, _, body = call(port, "GET", f"/api/games/{gid}/analysis")
    return body if status == 200 else {"status": f"HTTP {status}"}


def test_analysis(args, tmp, errors):
    """Analysis jobs go to whichever node has a free worker, and outlive a node's death."""
    url = fresh_database(args.postgres, "analysis")
    nodes = [Node(args, f"node{i + 1}", url, tmp, ["--analysis-nodes", "400000"])
             for i in range(3)]
    for node in nodes:
        node.start()
    ports = [n.port for n in nodes]
    # 1. Eight jobs, all requested through node1: every node's workers take some.
    games = [import_game(ports[0]) for _ in range(8)]
    for gid in games:
        status, _, body = call(ports[0], "POST", f"/api/games/{gid}/analysis")
        if status != 202:
            errors.append(f"analysis: request answered {status} {body}")
    deadline = time.time() + 300
    while time.time() < deadline:
        if all(analysis_of(ports[2], gid).get("status") == "done" for gid in games):
            break
        time.sleep(0.5)
    else:
        errors.append("analysis: the eight jobs were not all done in 300 s")
    workers = psql(url, "SELECT worker || ':' || count(*) FROM analyses GROUP BY worker "
                        "ORDER BY worker").split()
    print(f"analysis: 8 jobs requested through node1, done by {workers}", flush=True)
    # Every node's workers take some (node1's two take the first jobs at once; the others
    # find the rest within their 2 s look, long before a job of 34 positions is done).
    if len(workers) != 3:
        errors.append(f"analysis: the jobs were not shared by every node: {workers}")
    for gid in games:
        evals = analysis_of(ports[1], gid).get("evals") or []
        if len(evals) != 34:
            errors.append(f"analysis: game {gid} has {len(evals)} evaluations, not 34")
    # 2. A node killed in the middle of a job: the job is done all the same, and while it
    # runs its progress shows on a node that does not run it.
    gid = import_game(ports[1])
    call(ports[1], "POST", f"/api/games/{gid}/analysis")
    worker, seen_elsewhere = "", None
    deadline = time.time() + 60
    while time.time() < deadline and not seen_elsewhere:
        worker = psql(url, f"SELECT worker FROM analyses WHERE game_id = '{gid}' "
                           "AND status = 'running'")
        others = [n for n in nodes if worker and n.name != worker]
        if others:
            v = analysis_of(others[0].port, gid)
            if v.get("status") == "running" and (v.get("done") or 0) > 0:
                seen_elsewhere = f"{others[0].name} shows {v['done']}/{v['total']}"
        time.sleep(0.2)
    if not seen_elsewhere:
        errors.append(f"analysis: no progress of the job on {worker} seen from another node")
    victim = next((n for n in nodes if n.name == worker), None)
    if victim is None:
        errors.append("analysis: no node ran the job")
    else:
        victim.signal(signal.SIGKILL)
        victim.proc.wait()
        victim.start()
    deadline = time.time() + 120
    while time.time() < deadline and analysis_of(ports[0], gid).get("status") != "done":
        time.sleep(0.5)
    v = analysis_of(ports[0], gid)
    print(f"analysis: a job running on {worker} ({seen_elsewhere}); {worker} killed and "
          f"started again: the job is {v.get('status')} with {len(v.get('evals') or [])} "
          f"evaluations, by {psql(url, f'SELECT worker FROM analyses WHERE game_id = {gid!r}')}",
          flush=True)
    if v.get("status") != "done" or len(v.get("evals") or []) != 34:
        errors.append(f"analysis: the job of the killed node ended {v.get('status')}")
    for node in nodes:
        node.stop()


def stored_owner(url, gid):
    return psql(url, f"SELECT owner FROM games WHERE id = '{gid}'")


class RawSocket:
    """A minimal WebSocket client (text frames, client-masked) for the fencing test."""

    def __init__(self, port, path, cookie):
        import base64
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=20)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
             f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
             f"Cookie: {cookie}\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise SystemExit(f"no WebSocket: {head!r}")
        self.buf = b""

    def send(self, text):
        data = text.encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        n = len(data)
        header += bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big")
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(header + mask + masked)

    def frame(self):
        def need(k):
            while len(self.buf) < k:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise EOFError
                self.buf += chunk
        need(2)
        op, n = self.buf[0] & 0x0F, self.buf[1] & 0x7F
        at = 2
        if n == 126:
            need(4)
            n, at = int.from_bytes(self.buf[2:4], "big"), 4
        elif n == 127:
            need(10)
            n, at = int.from_bytes(self.buf[2:10], "big"), 10
        need(at + n)
        payload, self.buf = self.buf[at:at + n], self.buf[at + n:]
        return op, payload

    def recv_until(self, needle, timeout=10):
        self.sock.settimeout(timeout)
        try:
            while True:
                op, payload = self.frame()
                if op == 8:
                    return None
                if op == 1 and needle in payload.decode():
                    return payload.decode()
        except (socket.timeout, EOFError, OSError):
            return None


class Proxy:
    """A TCP proxy between the nodes and PostgreSQL that can cut every connection."""

    def __init__(self, target_port):
        self.target = target_port
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(256)
        self.port = self.listener.getsockname()[1]
        self.cut = threading.Event()
        self.open = []
        self.lock = threading.Lock()
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            client, _ = self.listener.accept()
            if self.cut.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            with self.lock:
                self.open += [client, upstream]
            for src, dst in [(client, upstream), (upstream, client)]:
                threading.Thread(target=self.pipe, args=(src, dst), daemon=True).start()

    def pipe(self, src, dst):
        try:
            while True:
                data = src.recv(65536)
                if not data or self.cut.is_set():
                    break
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.close()
            except OSError:
                pass

    def cut_for(self, seconds):
        self.cut.set()
        with self.lock:
            for s in self.open:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                    s.close()
                except OSError:
                    pass
            self.open = []
        time.sleep(seconds)
        self.cut.clear()


def api(port, method, path, token=None, form=None):
    """A lichess-API call: form fields in, JSON out."""
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method)
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        req.add_header("Content-Type", "application/x-www-form-urlencoded")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers.get("Set-Cookie"), json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, None, json.loads(e.read() or b"null")


def ndjson(port, path, token):
    """Reads an NDJSON stream in a thread: a queue of its objects."""
    lines = queue.Queue()
    lines.seen = []
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
    req.add_header("Authorization", f"Bearer {token}")

    def run():
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                for line in r:
                    if line.strip():
                        lines.put(json.loads(line))
        except OSError:
            pass

    threading.Thread(target=run, daemon=True).start()
    return lines


def heard(lines, pred, timeout=15):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            e = lines.get(timeout=max(0.05, deadline - time.time()))
        except queue.Empty:
            break
        lines.seen.append(e)
        if pred(e):
            return e
    return None


def test_bots(args, tmp, errors):
    """Bots think on whichever node has a free search thread."""
    url = fresh_database(args.postgres, "bots")
    nodes = [Node(args, f"node{i + 1}", url, tmp) for i in range(3)]
    env = dict(os.environ, RUST_LOG="info,rookery_server::cluster::bots=debug")
    for node in nodes:
        node.start(env=env)
    # More bots to move at once than node1 has search threads (one fewer than the cores),
    # so that some searches must be offered elsewhere: 6 on this 2-core machine.
    games = []
    for _ in range(max(6, (os.cpu_count() or 1) + 3)):
        status, _, game = call(nodes[0].port, "POST", "/api/games",
                               {"time_control": "5+3", "color": "black", "bot": 8})
        if status != 201:
            errors.append(f"bots: a bot game was refused: {status} {game}")
            continue
        games.append(game["id"])
    deadline = time.time() + 90
    while time.time() < deadline:
        played = [len(call(nodes[1].port, "GET", f"/api/games/{g}")[2]["uci"]) for g in games]
        if all(n >= 1 for n in played):
            break
        time.sleep(0.5)
    elsewhere = {}
    for node in nodes:
        node.stop()
        with open(os.path.join(tmp, f"{node.name}.log"), errors="replace") as f:
            elsewhere[node.name] = f.read().count("thought for another node's bot")
    print(f"bots: {len(games)} bot games made on node1, first moves played: {played}; "
          f"searches done for another node's bot: {elsewhere}", flush=True)
    if not all(n >= 1 for n in played):
        errors.append(f"bots: not every bot played its first move: {played}")
    if elsewhere["node2"] + elsewhere["node3"] == 0:
        errors.append("bots: no other node thought for node1's bots")


def test_lobby(args, tmp, errors):
    """Challenges, account events, chat and rematches across nodes."""
    url = fresh_database(args.postgres, "lobby")
    tokens = accounts(args, url, ["Anna", "Bo"], "board:play,challenge:read,challenge:write")
    nodes = start_nodes(args, url, tmp)
    n1, n2, n3 = (n.port for n in nodes)
    anna, bo = tokens["Anna"], tokens["Bo"]

    def check(ok, what):
        print(f"  {'ok' if ok else 'FAILED'}: {what}", flush=True)
        if not ok:
            errors.append(f"lobby: {what}")

    anna_events = ndjson(n1, "/api/stream/event", anna)
    bo_events = ndjson(n3, "/api/stream/event", bo)
    time.sleep(1)
    status, _, challenge = api(n1, "POST", "/api/challenge/bo", anna,
                               {"clock.limit": 300, "clock.increment": 3, "color": "white"})
    cid = challenge.get("id") if status == 200 else None
    check(cid is not None, f"Anna challenges Bo through node1 (HTTP {status})")
    e = heard(bo_events, lambda e: e.get("type") == "challenge")
    check(e is not None and e["challenge"]["id"] == cid,
          "Bo's event stream on node3 hears the challenge")
    _, _, listed = api(n2, "GET", "/api/challenge", bo)
    check([c["id"] for c in listed.get("in", [])] == [cid], "node2 lists it as Bo's")
    status, _, _ = api(n2, "POST", f"/api/challenge/{cid}/accept", bo, {})
    check(status == 200, f"Bo accepts it through node2 (HTTP {status})")
    status, _, _ = api(n3, "POST", f"/api/challenge/{cid}/accept", bo, {})
    check(status == 404, f"a second accept through node3 finds no challenge (HTTP {status})")
    start_a = heard(anna_events, lambda e: e.get("type") == "gameStart")
    start_b = heard(bo_events, lambda e: e.get("type") == "gameStart")
    gid = start_a["game"]["gameId"] if start_a else None
    check(gid is not None and start_b is not None and start_b["game"]["gameId"] == gid,
          "both streams (node1, node3) hear the game start")
    if gid:
        game = ndjson(n1, f"/api/board/game/stream/{gid}", anna)
        full = heard(game, lambda e: e.get("type") == "gameFull")
        check(full is not None and full["white"]["id"] == "anna", "gameFull on node1")
        for port, token, uci in [(n1, anna, "e2e4"), (n3, bo, "e7e5"), (n2, anna, "g1f3")]:
            status, _, body = api(port, "POST", f"/api/board/game/{gid}/move/{uci}", token, {})
            check(status == 200, f"{uci} through port {port} (HTTP {status} {body})")
        state = heard(game, lambda e: e.get("type") == "gameState"
                      and e.get("moves") == "e2e4 e7e5 g1f3")
        check(state is not None, "Anna's game stream on node1 has the three moves")
        if state is None:
            print("   the stream said:", game.seen, flush=True)
        status, _, _ = api(n2, "POST", f"/api/board/game/{gid}/chat", bo,
                           {"room": "player", "text": "good luck"})
        line = heard(game, lambda e: e.get("type") == "chatLine")
        check(status == 200 and line is not None and line["text"] == "good luck",
              "Bo's chat line through node2 reaches Anna's game stream on node1")
        status, _, _ = api(n3, "POST", f"/api/board/game/{gid}/resign", bo, {})
        over = heard(game, lambda e: e.get("type") == "gameState" and e.get("status") == "resign")
        check(status == 200 and over is not None and over.get("winner") == "white",
              "Bo resigns through node3: the stream on node1 says White won")
    # A rematch: asked for through node2, accepted through node3, each player's seat answered.
    _, white, game = call(n1, "POST", "/api/games", {"time_control": "5+3", "color": "white"})
    rid = game["id"]
    white = white.split(";")[0]
    _, black, _ = call(n2, "POST", f"/api/games/{rid}/join")
    black = black.split(";")[0]
    call(n3, "POST", f"/api/games/{rid}/move", {"m": "e2e4"}, white)
    call(n1, "POST", f"/api/games/{rid}/move", {"m": "e7e5"}, black)

    def listed_on(port):
        _, _, games = call(port, "GET", "/api/games")
        return any(g.get("id") == rid for g in games or [])

    def within(seconds, ok):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if ok():
                return True
            time.sleep(0.1)
        return False
    # The lobby spans the nodes: a node tells the others what changed in its rooms each second.
    check(within(3, lambda: listed_on(n2) and listed_on(n3)),
          "the game under way lists in the lobby of node2 and node3 within 3 s")
    status, _, _ = call(n1, "POST", f"/api/games/{rid}/resign", {}, black)
    check(status == 200, f"Black resigns through node1 (HTTP {status})")
    check(within(3, lambda: not listed_on(n2) and not listed_on(n3)),
          "and leaves it within 3 s once over")
    status, _, offered = call(n2, "POST", f"/api/games/{rid}/rematch", {}, white)
    check(status == 200 and offered.get("offered") is True,
          f"White asks for a rematch through node2 ({status} {offered})")
    status, _, seat = call(n3, "POST", f"/api/games/{rid}/rematch", {}, black)
    check(status in (200, 201) and seat.get("color") == "white",
          f"Black accepts through node3 and plays White in the rematch ({status} {seat})")
    status, _, again = call(n1, "POST", f"/api/games/{rid}/rematch", {}, white)
    check(seat.get("id") is not None and again.get("id") == seat.get("id")
          and again.get("color") == "black",
          f"White's seat in the same rematch, Black, through node1 ({status} {again})")
    # Presence: a game owned by node1, Black's socket on node1, White's on node3. node3 is
    # killed and not started again: node1's room hears that White's connection is gone.
    _, white, game = call(n1, "POST", "/api/games", {"time_control": "5+3", "color": "white"})
    pid = game["id"]
    white = white.split(";")[0]
    _, black, _ = call(n1, "POST", f"/api/games/{pid}/join")
    black = black.split(";")[0]
    ws_black = RawSocket(n1, f"/game/{pid}/socket", black)
    ws_black.recv_until('"t":"state"')
    ws_white = RawSocket(n3, f"/game/{pid}/socket", white)
    ws_white.recv_until('"t":"state"')
    # White's presence, told by node3 (Black's own connection is announced too: waiting for
    # any "connected" could kill node3 before it told the owner White was there).
    ws_black.recv_until('"color":"white","connected":true')
    nodes[2].signal(signal.SIGKILL)
    nodes[2].proc.wait()
    killed = time.time()
    gone = ws_black.recv_until('"connected":false', timeout=20)
    check(gone is not None and '"color":"white"' in gone,
          f"node3 killed with White's socket: Black on node1 hears White gone "
          f"{time.time() - killed:.1f} s later ({gone})")
    for node in nodes:
        node.stop()


def test_nats(args, tmp, errors):
    """NATS killed for 10 s: the owners go on, the rest recover, nothing is lost."""
    url = fresh_database(args.postgres, "nats")
    port = free_port()
    nats_log = open(os.path.join(tmp, "nats-server.log"), "ab")

    def nats_server():
        return subprocess.Popen([args.nats_server, "-a", "127.0.0.1", "-p", str(port)],
                                stdout=nats_log, stderr=subprocess.STDOUT)

    server = nats_server()
    time.sleep(0.5)
    nodes = [Node(args, f"node{i + 1}", url, tmp, nats=f"nats://127.0.0.1:{port}")
             for i in range(3)]
    nodes[0].start()
    for node in nodes[1:]:
        node.start()
    record = os.path.join(tmp, "nats.txt")
    # Half the games have everyone on the node that made them (and owns them): those can
    # go on without NATS. The others' players are on other nodes than the owner.
    gen = loadgen(args, nodes, 70, min(args.games, 100), record, ["--together-every", "2"])
    time.sleep(20)
    before = moves_stored(url)
    server.send_signal(signal.SIGKILL)
    server.wait()
    print("NATS killed for 10 s", flush=True)
    time.sleep(10)
    during = moves_stored(url) - before
    server = nats_server()
    print(f"NATS back; {during} moves stored while it was down", flush=True)
    if during == 0:
        errors.append("nats: no game went on while NATS was down")
    out = finish(args, nodes, gen, record, errors, "NATS outage")
    told = re.search(r"error: (\d+) x the game's server does not answer just now", out)
    print(f"players of games owned elsewhere told 'does not answer just now': "
          f"{told.group(1) if told else 0} times", flush=True)
    if not told:
        errors.append("nats: no player of a game owned elsewhere was told it cannot be reached")
    # A game owned by node1, White's socket there, Black's on node2. A move whose event the
    # owner wrote to NATS just as NATS died (here: NATS stopped, the move made, then NATS
    # killed with the event unread) never reaches Black as it was published: once NATS is
    # back, node2 must ask for it, since no other move comes to show the gap (before it did,
    # such games stalled in the run above). While NATS is down, node2 is silent and Black counts as
    # gone on the owner; once node2 is heard again Black is there again (else White could
    # claim a win against a player who is still connected).
    a, b = nodes[0], nodes[1]
    _, white, game = call(a.port, "POST", "/api/games", {"time_control": "10+5", "color": "white"})
    gid, white = game["id"], white.split(";")[0]
    _, black, _ = call(a.port, "POST", f"/api/games/{gid}/join")
    black = black.split(";")[0]
    call(a.port, "POST", f"/api/games/{gid}/move", {"m": "e2e4"}, white)
    white_ws = RawSocket(a.port, f"/game/{gid}/socket", white)
    white_ws.recv_until('"t":"state"')
    black_ws = RawSocket(b.port, f"/game/{gid}/socket", black)
    black_ws.recv_until('"t":"state"')
    call(a.port, "POST", f"/api/games/{gid}/move", {"m": "e7e5"}, black)
    followed = black_ws.recv_until('"ply":2') is not None
    server.send_signal(signal.SIGSTOP)
    status, _, _ = call(a.port, "POST", f"/api/games/{gid}/move", {"m": "g1f3"}, white)
    time.sleep(0.5)
    server.send_signal(signal.SIGKILL)
    server.wait()
    gone = white_ws.recv_until('"color":"black","connected":false', timeout=12) is not None
    server = nats_server()
    seen = black_ws.recv_until('"ply":3', timeout=15) is not None
    back = white_ws.recv_until('"color":"black","connected":true', timeout=15) is not None
    print(f"nats: a move made on the owner as NATS died (HTTP {status}) reached Black on the "
          f"other node once NATS was back: {seen} (it followed before: {followed}); Black gone "
          f"for White while NATS was down: {gone}, back after: {back}", flush=True)
    if not (followed and status == 200 and seen):
        errors.append("nats: a move published as NATS died never reached the player on "
                      "another node")
    if not (gone and back):
        errors.append("nats: a player on another node did not count as there again once NATS "
                      "was back")
    for node in nodes:
        node.stop()
    server.send_signal(signal.SIGKILL)
    server.wait()


def test_quiet(args, tmp, errors):
    """Events go on NATS only for games another node follows (docs/SCALING.md, the remote
    path): counted by one more subscriber on every game's event subject while 80 games are
    played on two nodes, first with each game's players and spectator on its owner, then with
    all of them on the other node."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../bench"))
    from nats_count import count

    for setup, extra, expect_events in [("together", ["--together-every", "1"], False),
                                        ("away", ["--away"], True)]:
        url = fresh_database(args.postgres, f"quiet_{setup}")
        nodes = start_nodes(args, url, tmp, n=2)
        record = os.path.join(tmp, f"quiet-{setup}.txt")
        gen = loadgen(args, nodes, 28, 80, record, extra)
        time.sleep(10)
        heard = count(args.nats, 10, "game.*.ev").get("game event", [0, 0])[0]
        out = finish(args, nodes, gen, record, errors, f"quiet, {setup}")
        acked = re.search(r"(\d+) moves acknowledged in", out)
        print(f"quiet, {setup}: {heard} game events heard on NATS in 10 s, "
              f"{acked.group(1) if acked else '?'} moves acknowledged in the run", flush=True)
        if expect_events and heard < 100:
            errors.append(f"quiet, {setup}: only {heard} game events on NATS, where every move "
                          "crosses to the other node")
        if not expect_events and heard != 0:
            errors.append(f"quiet, {setup}: {heard} game events on NATS, where no other node "
                          "follows any game")
        for node in nodes:
            node.stop()

    # A game followed from the other node for a while, then no longer: once that node's mirror
    # has ended (20 s without a connection there), the owner publishes nothing more; a new
    # spectator there follows it again and sees the next move.
    url = fresh_database(args.postgres, "quiet_unfollowed")
    a, b = start_nodes(args, url, tmp, n=2)
    _, white, game = call(a.port, "POST", "/api/games", {"time_control": "untimed", "color": "white"})
    gid = game["id"]
    white = white.split(";")[0]
    _, black, _ = call(a.port, "POST", f"/api/games/{gid}/join")
    black = black.split(";")[0]
    moves = iter([("e2e4", white), ("e7e5", black), ("g1f3", white), ("b8c6", black),
                  ("f1c4", white), ("g8f6", black), ("d2d3", white)])

    def play(n):
        for _ in range(n):
            m, c = next(moves)
            status, _, _ = call(a.port, "POST", f"/api/games/{gid}/move", {"m": m}, c)
            if status != 200:
                errors.append(f"quiet, unfollowed: {m} refused ({status})")

    def heard_while(n):
        box = {}
        listener = threading.Thread(target=lambda: box.update(count(args.nats, 3, f"game.{gid}.ev")))
        listener.start()
        time.sleep(0.5)
        play(n)
        listener.join()
        return box.get("game event", [0, 0])[0]

    watcher = RawSocket(b.port, f"/game/{gid}/socket", "none=0")
    watcher.recv_until('"t":"state"')
    followed = heard_while(2)
    watcher.sock.close()
    time.sleep(25)
    after = heard_while(2)
    again = RawSocket(b.port, f"/game/{gid}/socket", "none=0")
    again.recv_until('"t":"state"')
    play(1)
    seen = again.recv_until('"t":"move"', timeout=10)
    again.sock.close()
    print(f"quiet, unfollowed: {followed} events heard while followed from node2, {after} after "
          f"its spectator left, the next spectator there saw the move: {seen is not None}", flush=True)
    if followed < 2:
        errors.append(f"quiet, unfollowed: {followed} events on NATS while node2 followed the game")
    if after != 0:
        errors.append(f"quiet, unfollowed: {after} events on NATS after node2 stopped following")
    if seen is None:
        errors.append("quiet, unfollowed: a spectator on node2 did not see the move after it followed again")
    for node in (a, b):
        node.stop()


def test_nats_auth(args, tmp, errors):
    """NATS with a password (issue 50): the nodes connect with it and play across nodes; a
    client without it is refused by NATS, so it cannot forge a room request; the password
    is in no node's log."""
    url = fresh_database(args.postgres, "natsauth")
    port = free_port()
    secret = "s3cret-" + str(os.getpid())
    nats_log = open(os.path.join(tmp, "nats-auth-server.log"), "ab")
    server = subprocess.Popen([args.nats_server, "-a", "127.0.0.1", "-p", str(port),
                               "--user", "rookery", "--pass", secret],
                              stdout=nats_log, stderr=subprocess.STDOUT)
    time.sleep(0.5)
    # One node with the password in the URL, one with it in the environment.
    first = Node(args, "auth1", url, tmp, nats=f"nats://rookery:{secret}@127.0.0.1:{port}")
    env = dict(os.environ, ROOKERY_NATS_USER="rookery", ROOKERY_NATS_PASSWORD=secret)
    second = Node(args, "auth2", url, tmp, nats=f"nats://127.0.0.1:{port}")
    first.start()
    second.start(env=env)
    nodes = [first, second]
    record = os.path.join(tmp, "nats-auth.txt")
    gen = loadgen(args, nodes, 25, 80, record)
    # A client without the password: NATS refuses it before any message.
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        raw.recv(4096)  # INFO
        raw.sendall(b'CONNECT {"verbose":false,"pedantic":false}\r\n'
                    b"PUB game.x.cmd 2\r\nhi\r\nPING\r\n")
        answer = b""
        deadline = time.time() + 5
        while b"\r\n" not in answer and time.time() < deadline:
            chunk = raw.recv(4096)
            if not chunk:
                break
            answer += chunk
    refused = b"Authorization Violation" in answer
    print(f"nats auth: a client without the password got {answer.strip()!r}", flush=True)
    if not refused:
        errors.append(f"nats auth: a client without credentials was not refused ({answer!r})")
    finish(args, nodes, gen, record, errors, "NATS with a password")
    for node in nodes:
        node.stop()
        node.log.flush()
    for name in ("auth1", "auth2"):
        with open(os.path.join(tmp, f"{name}.log"), "rb") as log:
            if secret.encode() in log.read():
                errors.append(f"nats auth: {name}'s log shows the NATS password")
    print("nats auth: the nodes played through an authenticated NATS; no log shows the password",
          flush=True)
    server.send_signal(signal.SIGKILL)
    server.wait()


def moves_stored(url):
    return int(psql(url, "SELECT count(*) FROM moves") or 0)


def test_outage(args, tmp, errors):
    url = fresh_database(args.postgres, "outage")
    host, rest = url.split("@", 1)
    db = rest.split("/", 1)[1]
    proxy = Proxy(5432)
    proxied = f"{host}@127.0.0.1:{proxy.port}/{db}"
    nodes = start_nodes(args, proxied, tmp)
    record = os.path.join(tmp, "outage.txt")
    games = min(args.games, 100)
    gen = loadgen(args, nodes, 60, games, record)
    time.sleep(20)
    print("PostgreSQL cut for 10 s", flush=True)
    proxy.cut_for(10)
    print("PostgreSQL back", flush=True)
    out = finish(args, nodes, gen, record, errors, "database outage")
    told = re.search(r"error: (\d+) x the move cannot be saved right now", out)
    print(f"players told 'cannot be saved right now': {told.group(1) if told else 0} times")
    if not told:
        errors.append("database outage: no player was told the move cannot be saved")
    for node in nodes:
        node.stop()
    # Every node's lease ran out at once: each game may change hands once (its owner renewed
    # late), not twice (taken by a node whose own lease had run out, which loses it again at
    # its renewal): rooms closed because another node holds the game, at most one a game.
    lost = sum(n.log_text().count("another node holds the game now") for n in nodes)
    taken = sum(n.log_text().count("game taken over") for n in nodes)
    print(f"rooms closed for a game held elsewhere: {lost}; games taken over by a look: {taken}")
    if lost > games:
        errors.append(f"database outage: {lost} rooms closed for {games} games (hands changed twice)")


def test_ratings(args, tmp, errors, rounds=20):
    """Rated games of the same accounts ending together through different nodes."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import kill_test  # its ratings check reads the database as it is after the run

    url = fresh_database(args.postgres, "ratings")
    names = [f"Rater{i}" for i in range(6)]
    tokens = accounts(args, url, names, "board:play")
    nodes = start_nodes(args, url, tmp)
    ports = [n.port for n in nodes]

    def bearer(port, method, path, token, body=None):
        req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                     data=json.dumps(body).encode() if body is not None else None)
        req.add_header("Content-Type", "application/json")
        req.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read() or b"null")

    # Each round pairs the six accounts three ways (0-1 2-3 4-5, 1-2 3-4 5-0, ...): six games
    # a round, each account in two of them, with White and Black alternating.
    barrier = threading.Barrier(6)
    ended, failures = [], []
    lock = threading.Lock()

    def player(slot):
        prng = random.Random(slot)
        for r in range(rounds):
            a, b = (slot + r) % 6, (slot + r + 1 + slot % 2) % 6
            white, black = (names[a], names[b]) if r % 2 else (names[b], names[a])
            try:
                made = bearer(prng.choice(ports), "POST", "/api/games", tokens[white],
                              {"time_control": "3+2", "color": "white", "rated": True})
                gid = made["id"]
                bearer(prng.choice(ports), "POST", f"/api/games/{gid}/join", tokens[black])
                for i, m in enumerate(["e2e4", "e7e5", "g1f3", "b8c6"]):
                    who = tokens[white] if i % 2 == 0 else tokens[black]
                    bearer(prng.choice(ports), "POST", f"/api/games/{gid}/move", who, {"m": m})
            except (OSError, urllib.error.URLError) as e:
                with lock:
                    failures.append(f"round {r} slot {slot}: {e}")
                barrier.abort()
                return
            resigner = prng.choice([white, black])
            try:
                barrier.wait(timeout=60)
            except threading.BrokenBarrierError:
                return
            try:
                bearer(prng.choice(ports), "POST", f"/api/games/{gid}/resign", tokens[resigner])
                shown = bearer(prng.choice(ports), "GET", f"/api/games/{gid}", tokens[white])
            except (OSError, urllib.error.URLError) as e:
                with lock:
                    failures.append(f"game {gid}: {e}")
                continue
            told = (shown["status"], shown["result"])
            expected = ("over", "0-1" if resigner == white else "1-0")
            with lock:
                if told != expected:
                    failures.append(f"game {gid}: shown {told}, the resignation makes {expected}")
                ended.append((gid, "resign", told))

    threads = [threading.Thread(target=player, args=(slot,)) for slot in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for node in nodes:
        node.stop()
    errors.extend(f"ratings: {f}" for f in failures)
    found = []
    summary = kill_test.check_ratings(url, tmp, found, ended)
    errors.extend(f"ratings: {f}" for f in found)
    print(f"ratings: {len(ended)} rated games resigned six at a time through 3 nodes; {summary}")
    if len(ended) < 6 * rounds:
        errors.append(f"ratings: only {len(ended)} of {6 * rounds} games ended")


def test_tournament(args, tmp, errors, rounds=3):
    """An online Swiss on three nodes, a node killed in the middle of each round: every round
    is paired (by whichever node's keeper comes first), each game made once, every result
    taken in, and the report passes the Dutch system's check."""
    url = fresh_database(args.postgres, "tournament")
    names = [f"Swiss{i}" for i in range(8)]
    tokens = accounts(args, url, ["Arbiter"] + names, "board:play,tournament:write")
    nodes = start_nodes(args, url, tmp)
    prng = random.Random(7)

    def bearer(method, path, token, body=None, retries=100):
        """Through a random node that is up; a node going down mid-request is retried."""
        for _ in range(retries):
            node = prng.choice([n for n in nodes if n.proc.poll() is None])
            req = urllib.request.Request(f"http://127.0.0.1:{node.port}{path}", method=method,
                                         data=json.dumps(body).encode() if body is not None else None)
            req.add_header("Content-Type", "application/json")
            req.add_header("Authorization", f"Bearer {token}")
            try:
                with urllib.request.urlopen(req, timeout=30) as r:
                    return json.loads(r.read() or b"null")
            except urllib.error.HTTPError as e:
                if e.code != 503:  # 503: the game's node is gone; another takes it over
                    raise SystemExit(f"tournament: {method} {path}: {e.code} {e.read()[:300]!r}")
                time.sleep(0.3)
            except OSError:
                time.sleep(0.3)
        raise SystemExit(f"tournament: {method} {path}: no node answered")

    t = bearer("POST", "/api/events", tokens["Arbiter"],
               {"name": "Cluster Swiss", "system": "swiss", "rounds": rounds, "clock": "3+2"})
    tid = t["id"]
    for name in names:
        bearer("POST", f"/api/events/{tid}", tokens[name], {"action": "join"})
    by_number = {p["number"]: p["name"] for p in bearer("GET", f"/api/events/{tid}", tokens["Arbiter"])["players"]}
    t = bearer("POST", f"/api/events/{tid}", tokens["Arbiter"], {"action": "pair"})
    for r in range(rounds):
        boards = t["pairings"][r]
        games = [(b["game"], by_number[b["white"]], by_number[b["black"]]) for b in boards]
        for gid, white, black in games:
            for i, m in enumerate(["e2e4", "e7e5", "g1f3", "b8c6"]):
                bearer("POST", f"/api/games/{gid}/move", tokens[white if i % 2 == 0 else black], {"m": m})
        # A node dies in the middle of the round, and comes back.
        victim = nodes[r % len(nodes)]
        victim.stop()
        print(f"round {r + 1}: killed {victim.name} (SIGKILL) with its games under way", flush=True)
        for gid, white, black in games[: len(games) // 2]:
            bearer("POST", f"/api/games/{gid}/resign", tokens[prng.choice([white, black])])
        victim.start()
        for gid, white, black in games[len(games) // 2:]:
            bearer("POST", f"/api/games/{gid}/resign", tokens[prng.choice([white, black])])
        # The next round comes without anyone asking for it (the keepers); read it.
        deadline = time.time() + 60
        while True:
            t = bearer("GET", f"/api/events/{tid}", tokens["Arbiter"])
            done = all(b["result"] for b in t["pairings"][r])
            if done and (r + 1 == rounds or len(t["pairings"]) > r + 1):
                break
            if time.time() > deadline:
                errors.append(f"tournament: round {r + 1} never ended: {t['pairings'][r]}")
                for node in nodes:
                    node.stop()
                return
            time.sleep(0.2)
    for node in nodes:
        node.stop()
    made = int(psql(url, "SELECT count(*) FROM games"))
    boards = sum(1 for rnd in t["pairings"] for b in rnd if b["black"] is not None)
    if made != boards:
        errors.append(f"tournament: {made} games made for {boards} boards")
    report = os.path.join(tmp, "tournament.trf")
    nodes[0].start()
    with urllib.request.urlopen(f"http://127.0.0.1:{nodes[0].port}/api/events/{tid}/trf", timeout=30) as r:
        with open(report, "wb") as f:
            f.write(r.read())
    nodes[0].stop()
    checked = subprocess.run([args.binary, "pairings", "--dutch", report, "-c"],
                             capture_output=True, text=True)
    if checked.returncode != 0:
        errors.append(f"tournament: the report fails the check:\n{checked.stdout}{checked.stderr}")
    print(f"tournament: {rounds} rounds of {len(names)} players through 3 nodes, a node killed "
          f"in each; {made} games for {boards} boards; the report's check exits {checked.returncode}")


def test_arena(args, tmp, errors):
    """One arena on three nodes (loadgen --arena: players signed up, joined through lichess's
    API, each following its event stream on a node of its own), its director (the node holding
    the `tournaments` role) killed with SIGKILL once while games go on: another node takes the
    role and goes on from the store; no game is lost or counted twice (the standings' sheets
    against the server's export, and every game the players saw finish among them)."""
    players, seconds = args.arena_players, args.arena_seconds
    url = fresh_database(args.postgres, "arena")
    nodes = start_nodes(args, url, tmp)
    servers = ",".join(f"127.0.0.1:{n.port}" for n in nodes)
    gen = subprocess.Popen(
        [args.loadgen, "--server", servers, "--arena", str(players), "--rate", "2",
         "--time-control", "1+0", "--seconds", str(seconds), "--reconnect", "--progress-every", "30"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    director = ""
    for _ in range(240):
        time.sleep(1)
        director = psql(url, "SELECT holder FROM roles WHERE name = 'tournaments'"
                             " AND lease_until > extract(epoch from now()) * 1000")
        games = psql(url, "SELECT COUNT(*) FROM games WHERE tournament IS NOT NULL")
        if director and games and int(games) >= players // 4:
            break
    node = next((n for n in nodes if n.name == director), None)
    if node is None:
        errors.append(f"arena: no tournament director found ({director!r})")
        gen.kill()
        return
    time.sleep(10)
    node.signal(signal.SIGKILL)
    node.proc.wait()
    killed_at = time.time()
    print(f"arena: killed the director {node.name} (SIGKILL)", flush=True)
    after = ""
    while time.time() - killed_at < 30:
        time.sleep(0.5)
        after = psql(url, "SELECT holder FROM roles WHERE name = 'tournaments'"
                          " AND lease_until > extract(epoch from now()) * 1000")
        if after and after != node.name:
            break
    print(f"arena: {after} directs after {time.time() - killed_at:.1f} s", flush=True)
    if not after or after == node.name:
        errors.append("arena: no other node took the director's role")
    node.start()
    out, _ = gen.communicate()
    print(out)
    if gen.returncode != 0 or "every game counted once" not in out:
        errors.append("arena: games lost or counted twice (see the loadgen's report)")
    finished = re.search(r"(\d+) games finished with a result", out)
    if not finished or int(finished.group(1)) < players // 2:
        errors.append("arena: too few games finished to prove anything")
    for node in nodes:
        node.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="target/release/rookery")
    ap.add_argument("--loadgen", default="target/release/rookery-loadgen")
    ap.add_argument("--postgres", required=True)
    ap.add_argument("--nats", default="nats://127.0.0.1:4222")
    ap.add_argument("--nats-server", default="nats-server",
                    help="the NATS server the nats test starts and kills (its own port)")
    ap.add_argument("--test",
                    default="kills,rolling,fencing,sleep,seats,pools,analysis,bots,lobby,nats,natsauth,outage,ratings,tournament,quiet,arena")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seconds", type=int, default=180)
    ap.add_argument("--every", type=int, default=20)
    ap.add_argument("--arena-players", type=int, default=60)
    ap.add_argument("--arena-seconds", type=int, default=90)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp()
    errors = []
    tests = {"kills": test_kills, "rolling": test_rolling, "fencing": test_fencing, "sleep": test_sleep,
             "seats": test_seats,
             "pools": test_pools, "analysis": test_analysis, "bots": test_bots, "lobby": test_lobby, "nats": test_nats,
             "natsauth": test_nats_auth, "outage": test_outage, "ratings": test_ratings,
             "tournament": test_tournament, "quiet": test_quiet, "arena": test_arena}
    try:
        for name in args.test.split(","):
            print(f"\n--- cluster test: {name} ---", flush=True)
            tests[name](args, tmp, errors)
    finally:
        for node in ALL_NODES:
            node.stop()
    print(f"node logs in {tmp}")
    if errors:
        for e in errors:
            print(f"FAILED: {e}")
        sys.exit(1)
    print("cluster tests passed")


if __name__ == "__main__":
    main()
