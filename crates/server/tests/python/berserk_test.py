#!/usr/bin/env python3
"""lichess's API through a real lichess client: berserk 0.14.0 (PyPI) pointed at a Rookery
server (docs/API.md, "lichess's API").

Starts the server on a fresh SQLite file and makes three accounts with `rookery user create`
and `rookery user token`. Then:
1. A person's Board API game: Anna challenges Bo, Bo (his event stream) accepts, both event
   streams hear `gameStart`; Anna offers a draw with her first move and Bo declines it; a second
   offer of Anna's is refused with R5's reason; the game goes to checkmate, seen on Anna's game
   stream (`gameFull`, then `gameState`s, the last `mate` and `white`); `gameFinish` arrives;
   the JSON, PGN and NDJSON exports read back (python-chess reads the PGN).
2. A BOT: a third account upgrades itself to a BOT, streams its events, accepts Bo's challenge
   and plays a whole game with a UCI engine (the `rookery-engine` binary, through
   python-chess), against Bo's random legal moves through the Board API, to its end.
3. A Swiss in a club (docs/API.md "lichess's Swiss API"): Anna makes a club, Bo and the BOT
   join it (`teams.join`); Anna makes a two-round Swiss in it (`create_swiss`, the next round
   "when the arbiter says"), all three join (`join_swiss`); round 1 starts at its time, each
   player hears `gameStart` on his event stream and plays his game from its game stream (the
   BOT through the Bot API); Anna schedules round 2 (`schedule_swiss_next_round`); then the
   tournament (`get_swiss`: finished), its report (`export_swiss_trf`, checked by `rookery
   pairings --dutch FILE -c`), results, games and the club's list of Swiss read back; a
   second Swiss is joined, withdrawn from and terminated.
4. An arena of the club (lichess's arena API): Anna makes a one-minute arena for the club
   (`create_arena`), all three join (`join_arena`), each plays every game he is paired in
   from his event stream (`source` `arena`, its `tournamentId`) until it ends; the standings
   (`get_tournament`), results with sheets (`stream_results`), games (`export_arena_games`)
   and the club's arenas (`arenas_by_team`) read back.

Usage: berserk_test.py --binary target/debug/rookery --engine target/debug/rookery-engine
Needs `pip install berserk==0.14.0 chess`. Exit status 0 when every check held.
"""
import argparse
import io
import json
import os
import queue
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

import berserk
import chess
import chess.engine
import chess.pgn

checks = 0
BASE = []
TOKENS = {}


def check(ok, what):
    global checks
    checks += 1
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        raise SystemExit(f"FAILED: {what}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listen(stream, into):
    """Puts every event of a berserk stream on a queue, in a thread."""
    def run():
        try:
            for event in stream:
                into.put(event)
        except Exception as e:  # the stream ended with the server or the game
            into.put({"type": "closed", "error": str(e)})
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def wait_for(q, pred, what, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            event = q.get(timeout=max(0.1, deadline - time.time()))
        except queue.Empty:
            break
        if pred(event):
            return event
    raise SystemExit(f"FAILED: no {what} within {timeout} s")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="target/debug/rookery")
    ap.add_argument("--engine", default="target/debug/rookery-engine")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp()
    url = f"sqlite://{tmp}/berserk.db"
    tokens = {}
    swiss = "tournament:write,team:write,team:lead"
    for name, scopes in [("Anna", f"board:play,challenge:read,challenge:write,{swiss}"),
                         ("Bo", f"board:play,challenge:read,challenge:write,{swiss}"),
                         ("Engine", f"bot:play,challenge:read,challenge:write,{swiss}")]:
        subprocess.run([args.binary, "--database-url", url, "user", "create", name],
                       input="a long enough password\n", text=True, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        tokens[name] = subprocess.run(
            [args.binary, "--database-url", url, "user", "token", name, "--scopes", scopes],
            capture_output=True, text=True, check=True).stdout.strip()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([args.binary, "--listen", f"127.0.0.1:{port}", "--database-url", url,
                               "--rate-limits", "off"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"{base}/api/health", timeout=1)
                break
            except OSError:
                time.sleep(0.05)
        BASE.append(base)
        TOKENS.update(tokens)
        client = {n: berserk.Client(berserk.TokenSession(t), base_url=base) for n, t in tokens.items()}
        person_game(client)
        correspondence_game(client)
        bot_game(client, args.engine)
        swiss_event(client, args.binary)
        arena_event(client)
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"berserk 0.14.0 against Rookery: {checks} checks, 0 failures")


def person_game(client):
    anna, bo = client["Anna"], client["Bo"]
    check(anna.account.get()["username"] == "Anna", "account.get names the token's account")
    anna_events, bo_events = queue.Queue(), queue.Queue()
    listen(anna.board.stream_incoming_events(), anna_events)
    listen(bo.board.stream_incoming_events(), bo_events)
    time.sleep(0.5)
    challenge = anna.challenges.create("Bo", rated=False, clock_limit=300, clock_increment=3, color="white")
    cid = challenge["id"]
    check(challenge["destUser"]["id"] == "bo" and challenge["timeControl"]["show"] == "5+3",
          "a challenge answers as lichess's ChallengeJson")
    event = wait_for(bo_events, lambda e: e.get("type") == "challenge", "challenge event for Bo")
    check(event["challenge"]["id"] == cid, "Bo's event stream hears the challenge")
    bo.challenges.accept(cid)
    start = wait_for(anna_events, lambda e: e.get("type") == "gameStart", "gameStart for Anna")
    gid = start["game"]["gameId"]
    wait_for(bo_events, lambda e: e.get("type") == "gameStart", "gameStart for Bo")
    check(start["game"]["color"] == "white" and start["game"]["isMyTurn"], "gameStart: Anna plays white, her turn")

    states = queue.Queue()
    listen(anna.board.stream_game_state(gid), states)
    full = wait_for(states, lambda e: e.get("type") == "gameFull", "gameFull")
    check(full["white"]["id"] == "anna" and full["black"]["id"] == "bo", "gameFull names both players")
    check(full["state"]["moves"] == "" and full["clock"]["initial"] == 300000, "gameFull: no move yet, 5 minutes")

    # R5: an offer made on one's turn stands once the move is made; the opponent declines.
    anna.board.offer_draw(gid)
    anna.board.make_move(gid, "e2e4")
    state = wait_for(states, lambda e: e.get("type") == "gameState" and e["moves"] == "e2e4", "e4 state")
    check(state.get("wdraw") is True, "after e4, White's draw offer stands (wdraw)")
    bo.board.decline_draw(gid)
    wait_for(states, lambda e: e.get("type") == "gameState" and not e.get("wdraw"), "offer declined")
    bo.board.make_move(gid, "e7e5")
    # Chat: a line to the players' room reaches the game stream and the chat list.
    bo.board.post_message(gid, "good luck")
    line = wait_for(states, lambda e: e.get("type") == "chatLine", "chatLine")
    check(line["username"] == "Bo" and line["text"] == "good luck" and line["room"] == "player",
          "a chat line reaches Anna's game stream as chatLine")
    check(anna.board.get_game_chat(gid) == [{"text": "good luck", "user": "Bo"}], "and the game's chat list")
    # R5.4: once declined, Anna may not offer again until Bo has offered.
    try:
        anna.board.offer_draw(gid)
        refused = None
    except berserk.exceptions.ResponseError as e:
        refused = e
    check(refused is not None and refused.status_code == 400 and "offer" in str(refused).lower(),
          f"a second offer is refused with R5's reason ({refused})")
    for i, move in enumerate(["f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]):
        (anna if i % 2 == 0 else bo).board.make_move(gid, move)
    last = wait_for(states, lambda e: e.get("type") == "gameState" and e.get("status") != "started", "the end")
    check(last["status"] == "mate" and last["winner"] == "white", "the game stream ends in mate, White wins")
    finish = wait_for(bo_events, lambda e: e.get("type") == "gameFinish", "gameFinish for Bo")
    check(finish["game"]["gameId"] == gid, "Bo's event stream hears gameFinish")

    game = anna.games.export(gid)
    check(game["status"] == "mate" and game["winner"] == "white", "the JSON export: mate, White")
    check(game["moves"].split() == ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"], "and its moves")
    pgn = anna.games.export(gid, as_pgn=True)
    read = chess.pgn.read_game(io.StringIO(pgn))
    check(read is not None and not read.errors and read.headers["Result"] == "1-0"
          and len(list(read.mainline_moves())) == 7, "the PGN export reads back in python-chess")
    mine = list(anna.games.export_by_player("Anna"))
    check(any(g["id"] == gid for g in mine), "the NDJSON export of Anna's games holds it")

    # A seek (POST /api/board/seek) is listed in the lobby while its request stays open, and
    # the request ends once someone takes the seat.
    seeking = {}
    seeker = threading.Thread(target=lambda: seeking.setdefault("took", anna.board.seek(3, 2)), daemon=True)
    seeker.start()
    listed = None
    for _ in range(100):
        games = json.load(urllib.request.urlopen(f"{BASE[0]}/api/games"))
        listed = next((g for g in games if g["open"] and "Anna" in (g["white"], g["black"])), None)
        if listed:
            break
        time.sleep(0.1)
    check(listed is not None and listed["time_control"] == "180+2", "the seek is listed in the lobby")
    join = urllib.request.Request(f"{BASE[0]}/api/games/{listed['id']}/join", method="POST", data=b"")
    join.add_header("Authorization", f"Bearer {TOKENS['Bo']}")
    urllib.request.urlopen(join)
    seeker.join(timeout=15)
    check("took" in seeking, f"the seek's request ended when Bo took the seat ({seeking.get('took', 0):.1f} s)")
    start = wait_for(anna_events, lambda e: e.get("type") == "gameStart" and e["game"]["gameId"] == listed["id"],
                     "gameStart of the seek's game")
    anna.board.abort_game(listed["id"])


def correspondence_game(client):
    """A rated correspondence challenge, as lichess plays one: the game takes the challenge's
    id, the challenge's url leads to the game's page, and the game is rated in the
    correspondence speed."""
    anna, bo = client["Anna"], client["Bo"]
    challenge = anna.challenges.create("Bo", rated=True, days=3, color="white")
    cid = challenge["id"]
    check(challenge["timeControl"] == {"type": "correspondence", "daysPerTurn": 3}
          and challenge["speed"] == "correspondence", "a correspondence challenge (days=3) is made")
    bo.challenges.accept(cid)
    with urllib.request.urlopen(challenge["url"]) as page:
        check(page.status == 200 and page.url.endswith(f"/game/{cid}"),
              f"the challenge's url leads to its game's page ({page.url})")
    anna.board.make_move(cid, "e2e4")
    bo.board.make_move(cid, "e7e5")
    check(anna.games.export(cid)["moves"].split() == ["e4", "e5"], "moves are made with the challenge's id")
    bo.board.resign_game(cid)
    for name in ["Anna", "Bo"]:
        perfs = anna.users.get_public_data(name)["perfs"]
        check(perfs.get("correspondence", {}).get("games") == 1,
              f"the correspondence game is rated for {name} ({perfs.get('correspondence')})")


def bot_game(client, engine_path):
    engine, bo = client["Engine"], client["Bo"]
    engine.account.upgrade_to_bot()
    check(engine.account.get().get("title") == "BOT", "the account upgraded itself to a BOT")
    uci = chess.engine.SimpleEngine.popen_uci(engine_path)
    events = queue.Queue()
    listen(engine.bots.stream_incoming_events(), events)
    time.sleep(0.5)
    online = list(engine.bots.get_online_bots())
    check(any(b["id"] == "engine" for b in online), "the BOT is listed online while its stream is open")
    pool = urllib.request.Request(f"{BASE[0]}/api/pool", method="POST", data=b'{"time_control":"3+2"}')
    pool.add_header("Authorization", f"Bearer {TOKENS['Engine']}")
    pool.add_header("Content-Type", "application/json")
    try:
        urllib.request.urlopen(pool)
        refused = False
    except urllib.error.HTTPError as e:
        refused = e.code == 403
    check(refused, "a BOT cannot join a quick-pairing pool (it plays by challenge)")
    done = threading.Event()
    results = {}

    def bot_loop():
        while not done.is_set():
            try:
                event = events.get(timeout=0.5)
            except queue.Empty:
                continue
            if event.get("type") == "challenge":
                engine.bots.accept_challenge(event["challenge"]["id"])
            elif event.get("type") == "gameStart":
                play_as_bot(engine, uci, event["game"]["gameId"], results)
                done.set()

    bot_thread = threading.Thread(target=bot_loop, daemon=True)
    bot_thread.start()
    bo_events = queue.Queue()
    listen(bo.board.stream_incoming_events(), bo_events)
    time.sleep(0.5)
    bo.challenges.create("Engine", rated=False, clock_limit=600, clock_increment=5, color="white")
    start = wait_for(bo_events, lambda e: e.get("type") == "gameStart", "gameStart for Bo vs the BOT")
    gid = start["game"]["gameId"]
    rng = random.Random(3)
    states = queue.Queue()
    listen(bo.board.stream_game_state(gid), states)
    board = chess.Board()
    status = "started"
    while status == "started" and board.ply() < 300:
        event = wait_for(states, lambda e: e.get("type") in ("gameFull", "gameState"), "a state", timeout=60)
        state = event["state"] if event["type"] == "gameFull" else event
        status = state["status"]
        board = chess.Board()
        for m in state["moves"].split():
            board.push_uci(m)
        if status == "started" and board.turn == chess.WHITE:
            bo.board.make_move(gid, rng.choice(list(board.legal_moves)).uci())
    done.wait(timeout=60)
    uci.quit()
    check(status != "started", f"the BOT's game was played to its end ({status}, {board.ply()} plies)")
    check(results.get("moves", 0) > 0 and "refused" not in results,
          f"the BOT moved {results.get('moves', 0)} times with its UCI engine, none refused "
          f"({results.get('refused')})")
    game = bo.games.export(gid)
    check(game["status"] == status and game["players"]["black"]["user"]["id"] == "engine",
          "the JSON export of the BOT game")
    check({"text": "Good luck!", "user": "Engine"} in bo.board.get_game_chat(gid), "the BOT chatted through the Bot API")
    read = chess.pgn.read_game(io.StringIO(bo.games.export(gid, as_pgn=True)))
    check(read is not None and not read.errors and read.headers["Black"] == "Engine",
          "and its PGN reads back in python-chess")


def states_of(api, gid, me):
    """A game's stream as (the colour account `me` plays, each state), from `gameFull` on."""
    colour = None
    for event in api.stream_game_state(gid):
        if event["type"] == "gameFull":
            colour = chess.WHITE if event["white"].get("id") == me else chess.BLACK
            yield colour, event["state"]
        elif event["type"] == "gameState":
            yield colour, event


def play_as_bot(engine, uci, gid, results):
    """The BOT's side: on each state where it is to move, its UCI engine chooses."""
    for color, state in states_of(engine.bots, gid, "engine"):
        if state["status"] != "started":
            return
        board = chess.Board()
        for m in state["moves"].split():
            board.push_uci(m)
        if board.turn == color and not board.is_game_over():
            if not results.get("greeted"):
                engine.bots.post_message(gid, "Good luck!")
                results["greeted"] = True
            move = uci.play(board, chess.engine.Limit(time=0.05)).move
            try:
                engine.bots.make_move(gid, move.uci())
                results["moves"] = results.get("moves", 0) + 1
            except berserk.exceptions.ResponseError as e:
                results["refused"] = str(e)




def plays_through_streams(client, name, bot, stop, played, wanted=lambda g: g.get("source") == "swiss" and g.get("swissId"),
                          berserk_first=False):
    """A player: hears `gameStart` on his event stream, then plays that game from its game
    stream (random legal moves; as Black, resigns once six plies are on the board); with
    `berserk_first`, goes berserk (`POST /api/board/game/{id}/berserk`) before his first move
    and notes whether the game stream then says so (`wberserk`/`bberserk`)."""
    api = client[name].bots if bot else client[name].board
    events = queue.Queue()
    listen(api.stream_incoming_events(), events)
    me = name.lower()
    rng = random.Random(name)

    def game(gid):
        if berserk_first:
            try:
                post(f"/api/board/game/{gid}/berserk", TOKENS[name], {})
            except urllib.error.HTTPError as e:
                played.put((name, gid, f"berserk refused: {e.read()}"))
        for colour, state in states_of(api, gid, me):
            if berserk_first and state.get("wberserk" if colour == chess.WHITE else "bberserk"):
                played.put((name, gid, "berserk"))
            if state["status"] != "started":
                played.put((name, gid, state["status"]))
                return
            board = chess.Board()
            for m in state["moves"].split():
                board.push_uci(m)
            if board.turn != colour:
                continue
            if colour == chess.BLACK and board.ply() >= 6:
                api.resign_game(gid)
            else:
                api.make_move(gid, rng.choice(list(board.legal_moves)).uci())

    def run():
        seen = set()
        while not stop.is_set():
            try:
                event = events.get(timeout=0.5)
            except queue.Empty:
                continue
            if event.get("type") == "gameStart":
                gid = event["game"]["gameId"]
                if gid not in seen and wanted(event["game"]):
                    seen.add(gid)
                    threading.Thread(target=game, args=(gid,), daemon=True).start()

    threading.Thread(target=run, daemon=True).start()


def post(path, token, body):
    req = urllib.request.Request(f"{BASE[0]}{path}", method="POST", data=json.dumps(body).encode())
    req.add_header("Authorization", f"Bearer {token}")
    req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def swiss_event(client, binary):
    anna, bo, engine = client["Anna"], client["Bo"], client["Engine"]
    club = post("/api/clubs", TOKENS["Anna"], {"name": "Thursday Club", "description": "We meet on Thursdays"})
    check(club["id"] == "thursday-club" and club["leader"]["name"] == "Anna", "Anna makes a club, its leader")
    bo.teams.join("thursday-club")
    engine.teams.join("thursday-club")
    team = anna.teams.get_team("thursday-club")
    check(team["nbMembers"] == 3, f"Bo and the BOT join it through teams.join ({team['nbMembers']} members)")
    starts = int(time.time() * 1000) + 3000
    made = anna.tournaments.create_swiss("thursday-club", 180, 2, 2, name="Thursday Swiss",
                                         startsAt=starts, roundInterval=99999999, rated=False)
    sid = made["id"]
    check(made["status"] == "created" and made["nbRounds"] == 2 and made["clock"]["limit"] == 180,
          f"create_swiss makes a Swiss in the club ({made['status']}, {made['clock']})")
    stop, played = threading.Event(), queue.Queue()
    for name, bot in [("Anna", False), ("Bo", False), ("Engine", True)]:
        client[name].tournaments.join_swiss(sid)
        plays_through_streams(client, name, bot, stop, played)
    info = anna.tournaments.get_swiss(sid)
    check(info["nbPlayers"] == 3, f"all three joined ({info['nbPlayers']})")
    # Round 1 at its start time: one game (three players: one has the bye).
    ended = [played.get(timeout=90) for _ in range(2)]
    check(all(status in ("resign", "mate", "draw", "stalemate") for _, _, status in ended),
          f"round 1's game was played through the streams to its end ({ended})")
    deadline = time.time() + 30
    while anna.tournaments.get_swiss(sid)["nbOngoing"] and time.time() < deadline:
        time.sleep(0.2)
    time.sleep(3)
    info = anna.tournaments.get_swiss(sid)
    check(info["round"] == 1 and info["status"] == "started",
          f"round 2 waits for the arbiter ({info['round']}, {info['status']})")
    anna.tournaments.schedule_swiss_next_round(sid, int(time.time() * 1000))
    ended = [played.get(timeout=90) for _ in range(2)]
    check(len({gid for _, gid, _ in ended}) == 1, "round 2's game was played to its end")
    deadline = time.time() + 30
    while anna.tournaments.get_swiss(sid)["status"] != "finished" and time.time() < deadline:
        time.sleep(0.2)
    info = anna.tournaments.get_swiss(sid)
    check(info["status"] == "finished" and info["round"] == 2, f"the Swiss has finished ({info['status']})")
    stop.set()
    trf = anna.tournaments.export_swiss_trf(sid)
    with tempfile.NamedTemporaryFile("w", suffix=".trf", delete=False) as f:
        f.write(trf)
    checked = subprocess.run([binary, "pairings", "--dutch", f.name, "-c"], capture_output=True, text=True)
    os.unlink(f.name)
    check(checked.returncode == 0 and "Thursday Swiss" in trf,
          f"export_swiss_trf: the report, every round as the Dutch system pairs it ({checked.stdout.strip()})")
    results = list(anna.tournaments.stream_swiss_results(sid))
    check(len(results) == 3 and results[0]["rank"] == 1
          and sorted(r["username"] for r in results) == ["Anna", "Bo", "Engine"]
          and sum(r["points"] for r in results) == 4.0,
          f"stream_swiss_results: three players, four points in all (two games, two byes) ({results})")
    games = list(anna.tournaments.export_swiss_games(sid, as_pgn=True))
    pgn = "".join(games)
    check(pgn.count('[Event "Thursday Swiss"]') == 2, "export_swiss_games: both games as PGN")
    listed = anna.tournaments.swiss_by_team("thursday-club")
    check(any(t["id"] == sid for t in listed), "swiss_by_team lists it")
    # A second Swiss: Bo joins and withdraws; Anna terminates it.
    other = anna.tournaments.create_swiss("thursday-club", 60, 0, 3, name="Another Swiss")
    bo.tournaments.join_swiss(other["id"])
    check(anna.tournaments.get_swiss(other["id"])["nbPlayers"] == 1, "Bo joins another")
    bo.tournaments.withdraw_swiss(other["id"])
    anna.tournaments.terminate_swiss(other["id"])
    check(anna.tournaments.get_swiss(other["id"])["status"] == "finished", "withdraw_swiss and terminate_swiss")



def arena_event(client):
    anna = client["Anna"]
    starts = int(time.time() * 1000) + 2000
    made = anna.tournaments.create_arena(3, 2, 1, name="Thursday Arena", startDate=starts,
                                         rated=False, teamId="thursday-club")
    aid = made["id"]
    check(made["system"] == "arena" and made["minutes"] == 1 and made["clock"]["limit"] == 180,
          f"create_arena makes a one-minute 3+2 arena for the club ({made['fullName']})")
    stop, played = threading.Event(), queue.Queue()
    in_arena = lambda g: g.get("source") == "arena" and g.get("tournamentId") == aid  # noqa: E731
    for name, bot in [("Anna", False), ("Bo", False), ("Engine", True)]:
        client[name].tournaments.join_arena(aid)
        plays_through_streams(client, name, bot, stop, played, in_arena, berserk_first=name == "Anna")
    info = anna.tournaments.get_tournament(aid)
    check(info["nbPlayers"] == 3, f"join_arena: three players ({info['nbPlayers']})")
    deadline = time.time() + 120
    while not anna.tournaments.get_tournament(aid)["isFinished"] and time.time() < deadline:
        time.sleep(1)
    # Games under way at the end still count when they end.
    time.sleep(3)
    stop.set()
    info = anna.tournaments.get_tournament(aid)
    check(info["isFinished"] and info["podium"][0]["nb"]["game"] >= 1,
          f"the arena ran its minute and ended, games played ({info['podium'][0]})")
    games = list(anna.tournaments.export_arena_games(aid, as_pgn=True))
    nb = "".join(games).count('[Event "Thursday Arena"]')
    results = list(anna.tournaments.stream_results(aid, sheet=True))
    scored = sum(r["score"] for r in results)
    # Every finished game was won (Black resigns): at least 2 points each, 4 on fire.
    check(len(results) == 3 and nb >= 1 and scored >= 2 * nb,
          f"stream_results and export_arena_games: {nb} games, {scored} points ({results})")
    check(all("scores" in r["sheet"] for r in results), "each result carries its sheet")
    listed = anna.tournaments.arenas_by_team("thursday-club")
    check(any(t["id"] == aid for t in listed), "arenas_by_team lists it")
    berserked = set()
    while not played.empty():
        who, gid, what = played.get()
        if what == "berserk":
            berserked.add(gid)
    check(len(berserked) >= 1,
          f"Anna goes berserk in her arena games and the game stream says so ({len(berserked)} games)")

if __name__ == "__main__":
    sys.exit(main())
