#!/usr/bin/env python3
"""Counts what is published on NATS for SECONDS: messages and payload bytes by kind (a move's
request to its game's owner, the owner's answer, a game's events, the rest). Standard library
only; NATS's text protocol.

    python3 bench/nats_count.py --seconds 15 [--nats nats://127.0.0.1:4222]

Prints one line of JSON: {"kind": [messages, bytes], ...}. The listener is one subscriber
more (on `>`), so NATS delivers each message once more while it runs: count in a run of its
own, not while measuring CPU.
"""

import argparse
import json
import socket
import time


def kind(subject):
    if subject.startswith(b"game.") and subject.endswith(b".cmd"):
        return "request to the owner"
    if subject.startswith(b"game.") and subject.endswith(b".ev"):
        return "game event"
    if subject.startswith(b"_INBOX."):
        return "answer"
    return subject.split(b".")[0].decode(errors="replace")


def count(nats, seconds, subject=">"):
    """What is published on `subject` (NATS's wildcards allowed) for `seconds`, by kind:
    {kind: [messages, payload bytes]}."""
    host, port = nats.split("//", 1)[1].rsplit(":", 1)
    heard = {}
    with socket.create_connection((host, int(port))) as s:
        s.recv(4096)  # INFO
        s.sendall(b'CONNECT {"verbose":false}\r\nSUB ' + subject.encode() + b' 1\r\n')
        s.settimeout(0.2)
        buf, end = b"", time.time() + seconds
        while time.time() < end:
            try:
                buf += s.recv(1 << 20)
            except socket.timeout:
                continue
            while (i := buf.find(b"\r\n")) >= 0:
                line = buf[:i]
                if line.startswith(b"MSG ") or line.startswith(b"HMSG "):
                    parts = line.split()
                    n = int(parts[-1])
                    if len(buf) < i + 2 + n + 2:
                        break
                    k = kind(parts[1])
                    got = heard.setdefault(k, [0, 0])
                    got[0] += 1
                    got[1] += n
                    buf = buf[i + 4 + n:]
                else:
                    if line == b"PING":
                        s.sendall(b"PONG\r\n")
                    buf = buf[i + 2:]
    return heard


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nats", default="nats://127.0.0.1:4222")
    ap.add_argument("--seconds", type=float, default=15)
    args = ap.parse_args()
    print(json.dumps(count(args.nats, args.seconds)))


if __name__ == "__main__":
    main()
