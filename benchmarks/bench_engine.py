"""Rounds per second of the 4-player engine, deal to score (issues: round engine, strategies).

Kernel throughput (``play_rounds`` into preallocated records) for each strategy on one thread
and on all threads, then end-to-end ``tichusim.simulate`` (with the DataFrames), and the
process's peak memory.

    python benchmarks/bench_engine.py [--rounds 400000]
"""

import argparse
import resource
import time

import numba
import numpy as np

import tichusim
from tichusim.kernels import batch
from tichusim.kernels.engine import N, ROUND, SEAT
from tichusim.simulate import _prepare


def kernel_rate(strategy, rounds, threads, check=False):
    seed, _, params = _prepare(strategy, "nanjing", 1)
    keys = np.arange(rounds, dtype=np.int64)
    drawers = np.zeros(rounds, np.int64)
    r_out = np.ones(rounds, ROUND)  # ones, not zeros: touch the pages before the clock starts
    s_out = np.ones((rounds, N), SEAT)
    numba.set_num_threads(threads)
    batch.play_rounds(seed, keys[:64], drawers[:64], params, r_out[:64], s_out[:64],
                      check, 1)  # fmt: skip
    t0 = time.perf_counter()
    batch.play_rounds(seed, keys, drawers, params, r_out, s_out, check, threads * 8)
    return rounds / (time.perf_counter() - t0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=400_000)
    args = ap.parse_args()
    cores = numba.config.NUMBA_NUM_THREADS
    print(f"machine: {cores} threads available; {args.rounds} rounds per figure")
    for strategy in ("random", "lowest", "heuristic"):
        one = kernel_rate(strategy, args.rounds, 1)
        alln = kernel_rate(strategy, args.rounds, cores)
        chk = kernel_rate(strategy, args.rounds // 4, cores, check=True)
        print(f"{strategy:>9}: {one:>10,.0f} rounds/s on 1 core, {alln:>10,.0f} on {cores}; "
              f"with the invariant checker {chk:,.0f}")
    numba.set_num_threads(cores)
    t0 = time.perf_counter()
    tichusim.simulate(args.rounds, seed=1, strategies="random")
    print(f"simulate() end to end, random: {args.rounds / (time.perf_counter() - t0):,.0f} rounds/s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak:,.0f} MiB")


if __name__ == "__main__":
    main()
