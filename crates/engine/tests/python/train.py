#!/usr/bin/env python3
"""Trains the evaluation network (src/net.bin) on positions from the engine's own games.

Data: lines `FEN;score;result` written by `cargo run --release -p rookery-engine --example
datagen -- OUT SEED POSITIONS [NODES]` (score in centipawns and result 1/0.5/0, both White's).

The network: 768 inputs (colour relative to the side looking, role, square seen from that side),
one hidden layer of H units computed twice with the same weights (from the side to move's view
and from the other side's), each clipped to 0..1 and squared, and one output over both halves
with one of 8 sets of output weights chosen by the number of pieces (2-5, 6-9, ..., 30-32).
The target is a win expectation, LAMBDA * sigmoid(score / 400) + (1 - LAMBDA) * result, both
from the side to move; the output is read as score / 400. LAMBDA is 1 (the search's score
only): with 0.7 the network predicted results better but played far worse (docs/benchmarks-log.md).

Written out quantised for src/nn.rs: u32 H, u32 8 (the buckets), then i16 W1[768][H] and
b1[H] (times QA), i16 w2[8][2H] (times QB) and i32 b2[8] (times QA * QB), little-endian.

    pip install numpy scipy        # net.bin was made with numpy 2.4.6, scipy 1.17.1,
                                   # and --epochs 20 --batch 16384 (the defaults then)
    python3 train.py OUT.bin DATA... [--hidden 128] [--epochs 15] [--batch 1024] [--lam 1.0]

Batches of 1024 (Adam, learning rate 0.002, cut to 0.3 times at 2/3 and 8/9 of the epochs):
on 4.2 million positions a held-out loss of 0.002331 after 15 epochs, against 0.002372 after
20 epochs of batches of 16384 (the earlier default); on 540,000 of them, 0.002157
against 0.003114 after 20 epochs each, as big batches take few steps an epoch (docs/benchmarks-log.md,
"A fifth network").
"""

import argparse
import struct
import sys
import time

import numpy as np
import scipy.sparse as sp

QA = 255
QB = 1024
BUCKETS = 8
PIECES = "PNBRQK"
SCALE = 400.0


def features(fens):
    """Index arrays (white's view, black's view) of shape (N, 32), padded with 768."""
    n = len(fens)
    white = np.full((n, 32), 768, dtype=np.int32)
    black = np.full((n, 32), 768, dtype=np.int32)
    stm = np.zeros(n, dtype=np.int8)
    for i, fen in enumerate(fens):
        board, turn = fen.split(" ", 2)[:2]
        stm[i] = 0 if turn == "w" else 1
        k = 0
        rank = 7
        file = 0
        for ch in board:
            if ch == "/":
                rank -= 1
                file = 0
            elif ch.isdigit():
                file += int(ch)
            else:
                sq = rank * 8 + file
                role = PIECES.index(ch.upper())
                is_white = ch.isupper()
                white[i, k] = (0 if is_white else 384) + role * 64 + sq
                black[i, k] = (384 if is_white else 0) + role * 64 + (sq ^ 56)
                k += 1
                file += 1
    return white, black, stm


def load(paths):
    fens, scores, results = [], [], []
    for path in paths:
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split(";")
                if len(parts) != 3:
                    continue
                fens.append(parts[0])
                scores.append(float(parts[1]))
                results.append(float(parts[2]))
    white, black, stm = features(fens)
    scores = np.array(scores, dtype=np.float32)
    results = np.array(results, dtype=np.float32)
    # From the side to move.
    sign = np.where(stm == 0, 1.0, -1.0).astype(np.float32)
    scores *= sign
    results = np.where(stm == 0, results, 1.0 - results).astype(np.float32)
    ours = np.where(stm[:, None] == 0, white, black)
    theirs = np.where(stm[:, None] == 0, black, white)
    pieces = np.sum(ours < 768, axis=1)
    buckets = np.minimum(np.maximum(pieces - 2, 0) // 4, BUCKETS - 1).astype(np.int32)
    return ours, theirs, scores, results, buckets


def sparse(idx):
    """A CSR matrix (N, 769) with a one at each index (768 is padding, dropped after)."""
    n = idx.shape[0]
    rows = np.repeat(np.arange(n), idx.shape[1])
    data = np.ones(rows.shape[0], dtype=np.float32)
    m = sp.csr_matrix((data, (rows, idx.ravel())), shape=(n, 769))
    return m[:, :768].tocsr()


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("data", nargs="+")
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=0.002)
    ap.add_argument("--lam", type=float, default=1.0, help="weight of the search score in the target")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    t0 = time.time()
    ours, theirs, scores, results, buckets = load(args.data)
    n = len(scores)
    target = args.lam * sigmoid(scores / SCALE) + (1 - args.lam) * results
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(n)
    valid = order[: n // 20]
    train = order[n // 20 :]
    print(f"{n} positions ({len(train)} training, {len(valid)} held out), read in {time.time() - t0:.0f} s",
          file=sys.stderr)

    h = args.hidden
    w1 = (rng.standard_normal((768, h)) * 0.1).astype(np.float32)
    b1 = np.full(h, 0.1, dtype=np.float32)
    w2 = (rng.standard_normal((BUCKETS, 2 * h)) * 0.1).astype(np.float32)
    b2 = np.zeros(BUCKETS, dtype=np.float32)
    params = [w1, b1, w2, b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0

    def forward(idx):
        xo = sparse(ours[idx])
        xt = sparse(theirs[idx])
        ao = xo @ w1 + b1
        at = xt @ w1 + b1
        ho = np.clip(ao, 0.0, 1.0) ** 2
        ht = np.clip(at, 0.0, 1.0) ** 2
        k = buckets[idx]
        out = np.sum(ho * w2[k, :h], axis=1) + np.sum(ht * w2[k, h:], axis=1) + b2[k]
        return xo, xt, ao, at, ho, ht, out

    def loss_on(idx):
        total = 0.0
        for s in range(0, len(idx), args.batch):
            b = idx[s : s + args.batch]
            out = forward(b)[-1]
            total += float(np.sum((sigmoid(out) - target[b]) ** 2))
        return total / len(idx)

    lr = args.lr
    for epoch in range(args.epochs):
        if epoch in (args.epochs * 2 // 3, args.epochs * 8 // 9):
            lr *= 0.3
        rng.shuffle(train)
        t1 = time.time()
        for s in range(0, len(train), args.batch):
            b = train[s : s + args.batch]
            xo, xt, ao, at, ho, ht, out = forward(b)
            p = sigmoid(out)
            d_out = 2.0 * (p - target[b]) * p * (1.0 - p) / len(b)
            k = buckets[b]
            g_w2 = np.zeros_like(w2)
            g_b2 = np.zeros_like(b2)
            for j in range(BUCKETS):
                sel = k == j
                if sel.any():
                    g_w2[j] = np.concatenate([ho[sel].T @ d_out[sel], ht[sel].T @ d_out[sel]])
                    g_b2[j] = d_out[sel].sum()
            # d(clip(a)^2)/da = 2 clip(a) inside 0..1.
            d_ao = d_out[:, None] * w2[k, :h] * (2.0 * np.clip(ao, 0.0, 1.0) * (ao < 1.0))
            d_at = d_out[:, None] * w2[k, h:] * (2.0 * np.clip(at, 0.0, 1.0) * (at < 1.0))
            g_w1 = xo.T @ d_ao + xt.T @ d_at
            g_b1 = d_ao.sum(axis=0) + d_at.sum(axis=0)
            step += 1
            for i, g in enumerate([g_w1, g_b1, g_w2, g_b2]):
                m[i] = 0.9 * m[i] + 0.1 * g
                v[i] = 0.999 * v[i] + 0.001 * g * g
                mh = m[i] / (1 - 0.9**step)
                vh = v[i] / (1 - 0.999**step)
                params[i] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
            # Keep the quantised sums of up to 32 inputs within 16 bits.
            np.clip(w1, -1.98, 1.98, out=w1)
            np.clip(w2, -8.0, 8.0, out=w2)
        print(f"epoch {epoch + 1}: held-out loss {loss_on(valid):.6f} ({time.time() - t1:.0f} s)", file=sys.stderr)

    with open(args.out, "wb") as f:
        f.write(struct.pack("<II", h, BUCKETS))
        f.write(np.round(w1 * QA).astype("<i2").tobytes())
        f.write(np.round(b1 * QA).astype("<i2").tobytes())
        f.write(np.round(w2 * QB).astype("<i2").tobytes())
        f.write(np.round(b2 * QA * QB).astype("<i4").tobytes())
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
