"""Rounds per second of Grand Seigneur (RULES.md §5) per player count, against the 4-player game
per card dealt (the target: each variant within a factor of 2 of the 4-player game per card).

Kernel throughput on one thread (independent rounds, ``gs_batch.play_games`` into preallocated
records), for each strategy. The 4-player engine is measured in the same process before and
after (its mean is the reference), because a shared machine's speed drifts: compare the ratio,
not the raw rates across runs.

    python benchmarks/bench_seigneur.py [--rounds 40000] [--strategies random,lowest,heuristic]
"""

import argparse
import time

import numba
import numpy as np

from tichusim.games import game
from tichusim.kernels.seigneur import batch as gs_batch
from tichusim.kernels.seigneur import cards as gs_cards
from tichusim.kernels.seigneur import records
from tichusim.kernels.seigneur.engine import RUSSIAN_HAND
from tichusim.kernels.tichu import batch
from tichusim.kernels.tichu.records import ROUND, SEAT


def nanjing_rate(strategy: str, rounds: int) -> float:
    """Rounds/s of the 4-player engine on one thread."""
    seed, params = 1, game("nanjing").params(strategy)
    keys = np.arange(rounds, dtype=np.int64)
    drawers = np.zeros(rounds, np.int64)
    r = np.ones(rounds, ROUND)  # ones: touch the pages before the clock starts
    s = np.ones((rounds, 4), SEAT)
    run = batch.Run(batch.NANJING, seed)
    batch.play_rounds(run, keys[:64], drawers[:64], params, r[:64], s[:64], 1)
    t0 = time.perf_counter()
    batch.play_rounds(run, keys, drawers, params, r, s, 1)
    return rounds / (time.perf_counter() - t0)


def seigneur_rate(players: int, strategy: str, rounds: int, options=None) -> tuple[float, int]:
    """(rounds/s, cards dealt) of Grand Seigneur on one thread, independent rounds."""
    played = game("grand-seigneur", players, options)
    r = np.ones(rounds, records.GS_ROUND)
    s = np.ones((rounds, players), records.GS_SEAT)
    args = (played.params(strategy), played.kernel_options())
    gs_batch.play_games(1, np.arange(64), 1, *args, r[:64], s[:64], False, 1)
    t0 = time.perf_counter()
    gs_batch.play_games(1, np.arange(rounds), 1, *args, r, s, False, 1)
    elapsed = time.perf_counter() - t0
    assert (r["error"] == 0).all()
    cards = int(gs_cards.DECK_SIZES[played.deck])
    if played.deck == gs_cards.DECK_RUSSIAN:
        cards = min(cards, RUSSIAN_HAND * players)  # 12 each, the rest out of play
    return rounds / elapsed, cards


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=40_000)
    ap.add_argument("--strategies", default="random,lowest,heuristic")
    ap.add_argument("--players", default="5,6,7,8,9,10,11,12")
    args = ap.parse_args()
    numba.set_num_threads(1)
    counts = [int(p) for p in args.players.split(",")]
    for strategy in args.strategies.split(","):
        before = nanjing_rate(strategy, args.rounds * 2)
        rows = [(n, *seigneur_rate(n, strategy, args.rounds)) for n in counts]
        rows.append(("8 russian", *seigneur_rate(8, strategy, args.rounds, "russian")))
        after = nanjing_rate(strategy, args.rounds * 2)
        ref = (before + after) / 2
        print(
            f"\n{strategy}: 4-player game {ref:,.0f} rounds/s on 1 thread "
            f"({before:,.0f} before, {after:,.0f} after), {ref * 56 / 1e6:.2f} M cards/s"
        )
        print(f"{'players':>10} {'rounds/s':>10} {'M cards/s':>10} {'4p / this, per card':>20}")
        for n, rate, cards in rows:
            per_card = rate * cards
            print(f"{n!s:>10} {rate:>10,.0f} {per_card / 1e6:>10.2f} {ref * 56 / per_card:>20.2f}")


if __name__ == "__main__":
    main()
