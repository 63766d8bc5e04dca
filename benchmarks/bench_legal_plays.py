"""Nanoseconds per call of the jitted legal-play enumeration.

States: a random 14-card hand; the top is, with probability 1/4, none (a lead), otherwise a
random combination led from a random 14-card hand of the other cards; no wish, or a random
wish with probability 1/4. Timed inside one jitted loop on one core, after a warm-up.

    python benchmarks/bench_legal_plays.py [--states 200000]
"""

import argparse
import time

import numpy as np
from numba import njit

from tichusim.kernels.moves import MAX_MOVES, legal_moves
from tichusim.kernels.rng import rand_below, seed_stream, shuffle_deck


@njit(cache=True)
def make_states(n, seed):
    hands = np.empty(n, np.uint64)
    tops = np.zeros(n, np.int64)
    wishes = np.zeros(n, np.int64)
    deck = np.empty(56, np.int64)
    om = np.empty(MAX_MOVES, np.uint64)
    oc = np.empty(MAX_MOVES, np.int64)
    state = seed_stream(np.uint64(seed), np.uint64(0), np.uint64(0))
    for i in range(n):
        state = shuffle_deck(deck, state)
        h = np.uint64(0)
        o = np.uint64(0)
        for k in range(14):
            h |= np.uint64(1) << np.uint64(deck[k])
            o |= np.uint64(1) << np.uint64(deck[14 + k])
        hands[i] = h
        state, r = rand_below(state, 4)
        if r != 0:
            cnt, _ = legal_moves(o, 0, 0, om, oc)
            state, j = rand_below(state, cnt)
            tops[i] = 0 if oc[j] >> 16 == 7 else oc[j]  # a Dog top means: lead
        state, r = rand_below(state, 4)
        if r == 0:
            state, w = rand_below(state, 13)
            wishes[i] = w + 2
    return hands, tops, wishes


@njit(cache=True)
def run(hands, tops, wishes, om, oc):
    total = 0
    for i in range(hands.shape[0]):
        n, p = legal_moves(hands[i], tops[i], wishes[i], om, oc)
        total += n + p
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, default=200_000)
    args = ap.parse_args()
    hands, tops, wishes = make_states(args.states, 12345)
    om = np.empty(MAX_MOVES, np.uint64)
    oc = np.empty(MAX_MOVES, np.int64)
    run(hands[:100], tops[:100], wishes[:100], om, oc)
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        total = run(hands, tops, wishes, om, oc)
        best = min(best, time.perf_counter() - t0)
    leads = tops == 0
    t0 = time.perf_counter()
    run(hands[leads], tops[leads], wishes[leads], om, oc)
    lead_ns = (time.perf_counter() - t0) / leads.sum() * 1e9
    print(f"states: {args.states} ({leads.mean():.0%} leads), plays listed: {total}")
    print(
        f"legal_moves: {best / args.states * 1e9:.0f} ns per call on average "
        f"(leads alone: {lead_ns:.0f} ns)"
    )


if __name__ == "__main__":
    main()
