"""Long soak: millions of rounds with the RULES.md §7 invariant checker on (not a unit test).

    python benchmarks/soak.py [--rounds 2000000] [--strategies random,lowest,heuristic]
                              [--variants nanjing,tientsin,wuwang]

In every variant, every strategy at every seat (and one mixed table: the strategies in turn
around the table) plays ``--rounds`` rounds in batches of a million; the
checker verifies card conservation, legality of every play and pass, card points, scores and
the finishing order after every action, and any broken round stops the soak with its key.
The summary line is appended to ``benchmarks/soak.md``.
"""

import argparse
import platform
import time
from datetime import datetime, timezone
from pathlib import Path

import numba

import tichusim
from tichusim.simulate import variant_info

BATCH = 1_000_000


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2_000_000, help="rounds per strategy")
    ap.add_argument("--strategies", default="random,lowest,heuristic")
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--variants", default="nanjing", help="comma-separated rules variants")
    args = ap.parse_args()
    names = args.strategies.split(",")
    total = 0
    t0 = time.perf_counter()
    for variant in args.variants.split(","):
        players = variant_info(variant).players
        tables = [[s] * players for s in names]
        tables.append([("heuristic", "random", "lowest")[i % 3] for i in range(players)])
        for seats in tables:
            label = seats[0] if len(set(seats)) == 1 else "/".join(seats)
            t1 = time.perf_counter()
            for start in range(0, args.rounds, BATCH):
                n = min(BATCH, args.rounds - start)
                rounds, _ = tichusim.simulate(n, seed=args.seed, strategies=seats, variant=variant,
                                              first_round=start, check=True)  # raises on a break
                total += len(rounds)
            rate = args.rounds / (time.perf_counter() - t1)
            print(f"{variant} {label}: {args.rounds:,} rounds checked, no invariant broken "
                  f"({rate:,.0f} rounds/s)", flush=True)  # fmt: skip
    elapsed = time.perf_counter() - t0
    line = (f"{datetime.now(timezone.utc):%Y-%m-%d} | {total:,} rounds | {args.variants}: "
            f"{args.strategies} + mixed "
            f"| {elapsed:,.0f} s | {numba.config.NUMBA_NUM_THREADS} threads, {platform.machine()} "
            f"| 0 broken |")  # fmt: skip
    print(line)
    log = Path(__file__).with_name("soak.md")
    if not log.exists():
        log.write_text("# Soak runs (benchmarks/soak.py)\n\n| date | rounds | strategies | "
                       "time | machine | invariants broken |\n|---|---|---|---|---|---|\n")  # fmt: skip
    with log.open("a") as f:
        f.write(f"| {line}\n")


if __name__ == "__main__":
    main()
