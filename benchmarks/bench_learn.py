"""Training throughput of the learned player's value network: decisions and candidates per
second of ``tichusim.learn.train``'s steps (the batch encoded on the fly by the kernel, the
forward and backward passes, Adam), for a few hidden sizes, and of the encoding alone.

The decisions are real: the play and bomb decisions with two candidates or more of rounds
stepped from Python with every seat playing at random (``Round``), tiled to a data set of
``--decisions``; the labels are random (the time does not depend on them). A warm kernel
cache; the first steps of each size are left out of the clock.

    python benchmarks/bench_learn.py [--decisions 20000] [--threads 2] [--batch 256]
"""

import argparse
import time

import numpy as np
import torch

import tichusim
from tichusim import Round
from tichusim.kernels import outside
from tichusim.kernels.tichu.view import PRIVATE, PUBLIC
from tichusim.learn import train as training
from tichusim.learn.decisions import Decisions
from tichusim.learn.model import ValueNet

CODES = {"play": outside.D_PLAY, "bomb": outside.D_BOMB}


def stepped(rounds: int) -> Decisions:
    pick = tichusim.strategy("random")
    pubs, privs, codes, lists, chosen = [], [], [], [], []
    for key in range(rounds):
        r = Round(seed=1, key=key, strategies=None)
        r.advance()
        while not r.done:
            view, legal = r.view(), r.legal()
            answer = pick.decide(view, legal)
            if view.decision in CODES and len(legal) >= 2:
                pubs.append(view.public[0])
                privs.append(view.private[0])
                codes.append(CODES[view.decision])
                lists.append([(0, 0) if c is None else (int(c), c.combo.code) for c in legal])
                chosen.append(0)
            r.act(answer)
            r.advance()
    start = np.zeros(len(lists) + 1, np.int64)
    np.cumsum([len(c) for c in lists], out=start[1:])
    flat = [p for c in lists for p in c]
    n = len(lists)
    return Decisions(
        public=np.array(pubs, PUBLIC),
        private=np.array(privs, PRIVATE),
        decision=np.array(codes, np.int64),
        start=start,
        masks=np.array([m for m, _ in flat], np.uint64),
        codes=np.array([c for _, c in flat], np.int64),
        values=np.random.default_rng(0).normal(0, 1, len(flat)).astype(np.float32),
        chosen=np.array(chosen, np.int64),
        round=np.arange(n, dtype=np.int64),
        seat=np.zeros(n, np.int64),
    )


def tiled(d: Decisions, n: int) -> Decisions:
    """``n`` decisions, ``d``'s over and over."""
    rows = np.arange(n) % len(d.decision)
    index, first = training.candidate_index(d, rows)
    return Decisions(
        public=d.public[rows],
        private=d.private[rows],
        decision=d.decision[rows],
        start=first,
        masks=d.masks[index],
        codes=d.codes[index],
        values=d.values[index],
        chosen=d.chosen[rows],
        round=np.arange(n, dtype=np.int64),
        seat=d.seat[rows],
    )


def step(d: Decisions, model: ValueNet, opt, rows: np.ndarray) -> int:
    """One training step on decisions ``rows``; the number of their candidates."""
    b = training.encode_batch(d, rows)
    q = model(b.state, b.cand, b.owner)
    diff, value = training.losses(q, b.values, b.owner, len(rows))
    loss = diff + 0.1 * value
    opt.zero_grad()
    loss.backward()
    opt.step()
    return len(b.values)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--decisions", type=int, default=20_000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--sizes", default="32/16,64/32,128/64")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    d = tiled(stepped(60), args.decisions)
    per = len(d.masks) / len(d.decision)
    print(
        f"{len(d.decision):,} decisions, {per:.1f} candidates each; batch {args.batch} "
        f"decisions; torch {torch.__version__}, {args.threads} threads"
    )
    order = np.random.default_rng(0).permutation(len(d.decision))
    batches = [order[i : i + args.batch] for i in range(0, len(order), args.batch)]
    training.encode_batch(d, batches[0])  # compile or load
    t0 = time.perf_counter()
    cands = 0
    for rows in batches[: args.steps]:
        cands += len(training.encode_batch(d, rows).values)
    seconds = time.perf_counter() - t0
    steps = min(args.steps, len(batches))
    print(
        f"encoding only: {steps * args.batch / seconds:,.0f} decisions/s, "
        f"{cands / seconds:,.0f} candidates/s"
    )
    for size in args.sizes.split(","):
        h1, h2 = (int(x) for x in size.split("/"))
        torch.manual_seed(0)
        model = ValueNet(h1, h2)
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)

        for rows in batches[:5]:
            step(d, model, opt, rows)
        t0 = time.perf_counter()
        cands = sum(step(d, model, opt, rows) for rows in batches[5 : 5 + args.steps])
        seconds = time.perf_counter() - t0
        n = min(args.steps, len(batches) - 5)
        print(
            f"H1/H2 {h1}/{h2}: {n * args.batch / seconds:,.0f} decisions/s, "
            f"{cands / seconds:,.0f} candidates/s ({seconds / n * 1000:.1f} ms a step)"
        )


if __name__ == "__main__":
    main()
