"""Rounds per second of the round engine, deal to score, in every variant.

Kernel throughput (``batch.play_rounds`` into preallocated records) for each strategy on one
thread and on all threads, then each variant with ``heuristic`` (the default before ``expert``,
kept so the figures compare; ``bench_expert.py`` times expert) and the others on
one thread, in rounds per CPU-second (``time.process_time``: other processes sharing the
machine do not count against the engine) and relative to the 4-player game per card dealt
(the target: every variant within a factor of 2), then end-to-end
``tichusim.simulate`` (with the DataFrames) beside the batch kernel's own rate (one thread, per
CPU-second, alternating; the ratio is simulate's over the kernel's), and the process's peak
memory.

    python benchmarks/bench_engine.py [--rounds 400000] [--variant-rounds 100000]
    python benchmarks/bench_engine.py --only simulate [--simulate-rounds 200000]
"""

import argparse
import resource
import time

import numba
import numpy as np

import tichusim
from tichusim.games import GAMES, game, game_type
from tichusim.kernels.tichu import batch, variants
from tichusim.kernels.tichu.records import ROUND, SEAT

CARDS_DEALT = {"nanjing": 56, "tientsin": 56, "wuwang": 56}  # the whole deck in every game


def kernel_rate(strategy, rounds, threads, check=False, variant="nanjing", cpu=False):
    """Rounds per second (wall clock), or per CPU-second with ``cpu``; best of 3 with ``cpu``."""
    played = game(variant)
    code = played.variant_code
    seed, params = 1, played.params(strategy)
    keys = np.arange(rounds, dtype=np.int64)
    firsts = np.full(rounds, -1 if code == variants.WUWANG else 0, np.int64)  # Wu Wang: random King
    r_out = np.ones(rounds, ROUND)  # ones, not zeros: touch the pages before the clock starts
    s_out = np.ones((rounds, variants.n_seats(code)), SEAT)
    numba.set_num_threads(threads)
    run = played.batch_settings(seed, check)
    batch.play_rounds(run, keys[:64], firsts[:64], params, r_out[:64], s_out[:64], 1)
    clock = time.process_time if cpu else time.perf_counter
    best = 0.0
    for _ in range(3 if cpu else 1):
        t0 = clock()
        batch.play_rounds(run, keys, firsts, params, r_out, s_out, threads * 8)
        best = max(best, rounds / (clock() - t0))
    return best


def simulate_rate(strategy, rounds, threads):
    """``tichusim.simulate`` with the DataFrames: rounds per CPU-second on one thread (best of
    3), per second of wall clock on more."""
    numba.set_num_threads(threads)
    tichusim.simulate(64, seed=1, strategies=strategy)  # kernels loaded
    clock = time.process_time if threads == 1 else time.perf_counter
    best = 0.0
    for _ in range(3 if threads == 1 else 1):
        t0 = clock()
        tichusim.simulate(rounds, seed=1, strategies=strategy)
        best = max(best, rounds / (clock() - t0))
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=400_000)
    ap.add_argument("--variant-rounds", type=int, default=100_000)
    ap.add_argument("--simulate-rounds", type=int, default=200_000)
    ap.add_argument(
        "--only", choices=("simulate",), help="only simulate() beside the kernel (the last part)"
    )
    args = ap.parse_args()
    cores = numba.config.NUMBA_NUM_THREADS
    print(f"machine: {cores} threads available; {args.rounds} rounds per figure")
    if args.only != "simulate":
        kernels(args, cores)
    ends(args, cores)


def kernels(args, cores):
    """The batch kernel alone: each strategy on one and all threads, then every variant."""
    for strategy in ("random", "lowest", "heuristic"):
        one = kernel_rate(strategy, args.rounds, 1)
        alln = kernel_rate(strategy, args.rounds, cores)
        chk = kernel_rate(strategy, args.rounds // 4, cores, check=True)
        print(
            f"{strategy:>9}: {one:>10,.0f} rounds/s on 1 core, {alln:>10,.0f} on {cores}; "
            f"with the invariant checker {chk:,.0f}"
        )
    print(
        f"\nvariants, one thread, rounds per CPU-second (best of 3 x {args.variant_rounds:,}); "
        "ratio to the 4-player game per card dealt"
    )
    base = {}
    for variant in (v for v in GAMES if not game_type(v).takes_players):  # Grand Seigneur:
        cells = []  # its own engine, benchmarks/bench_seigneur.py
        for strategy in ("heuristic", "random", "lowest"):  # heuristic first (see the docstring)
            rate = kernel_rate(strategy, args.variant_rounds, 1, variant=variant, cpu=True)
            base.setdefault(strategy, rate)
            ratio = rate * CARDS_DEALT[variant] / (base[strategy] * CARDS_DEALT["nanjing"])
            cells.append(f"{strategy} {rate:>9,.0f} ({ratio:.2f})")
        print(f"{variant:>9}: " + "   ".join(cells))


def ends(args, cores):
    """``simulate()`` end to end beside the kernel's own rate, and the peak memory."""
    print(
        f"\nsimulate() end to end (the DataFrames made) beside the batch kernel, one thread, "
        f"rounds per CPU-second (best of 3 x {args.simulate_rounds:,}, alternating)"
    )
    for strategy in ("random", "lowest"):
        kernel, end = 0.0, 0.0
        for _ in range(3):  # alternating, so that a neighbour's load falls on both
            kernel = max(kernel, kernel_rate(strategy, args.simulate_rounds, 1, cpu=True))
            end = max(end, simulate_rate(strategy, args.simulate_rounds, 1))
        print(
            f"{strategy:>9}: kernel {kernel:>9,.0f}   simulate() {end:>9,.0f}   "
            f"ratio {end / kernel:.2f}"
        )
    numba.set_num_threads(cores)
    rate = simulate_rate("random", args.rounds, cores)
    print(f"simulate() end to end, random, {cores} threads: {rate:,.0f} rounds/s (wall clock)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak:,.0f} MiB")


if __name__ == "__main__":
    main()
