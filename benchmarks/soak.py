"""Long soak: millions of rounds with the RULES.md §7 invariant checker on (not a unit test).

    python benchmarks/soak.py [--rounds 2000000] [--strategies random,lowest,heuristic]
                              [--variants nanjing,tientsin,wuwang,grand-seigneur]

In every variant, every strategy at every seat (and one mixed table: the strategies in turn
around the table) plays ``--rounds`` rounds in batches of a million; the
checker verifies card conservation, legality of every play and pass, card points, scores and
the finishing order after every action, and any broken round stops the soak with its key.
The summary line is appended to ``benchmarks/soak.md``.
"""

import argparse
import platform
import time
from datetime import UTC, datetime
from pathlib import Path

import numba

import tichusim
from tichusim.games import game_type
from tichusim.games.seigneur import simulate_seigneur

BATCH = 1_000_000
SEIGNEUR_PLAYERS = (5, 8, 12)  # one deck; two decks (7-12 players), middle and largest table
SEIGNEUR_ROUNDS = 4  # rounds per game: all but the first are seated by rank, with the exchange


def tables_of(variant: str, names: list[str], seed: int):
    """``(label, play)`` per table: ``play(n, start)`` plays ``n`` checked rounds from key
    ``start`` and returns how many it played (raising on any broken invariant)."""
    if variant == "grand-seigneur":
        for players in SEIGNEUR_PLAYERS:
            for seats in [[s] * players for s in names] + [_mixed(players)]:

                def play(n, start, seats=seats, players=players):
                    games = n // SEIGNEUR_ROUNDS
                    rounds, _ = simulate_seigneur(
                        games,
                        players=players,
                        strategies=seats,
                        rounds_per_game=SEIGNEUR_ROUNDS,
                        first_game=start // SEIGNEUR_ROUNDS,
                        seed=seed,
                        check=True,
                    )
                    return len(rounds)

                yield f"{players} players {_label(seats)}", play
        return
    players = game_type(variant).players
    for seats in [[s] * players for s in names] + [_mixed(players)]:

        def play(n, start, seats=seats):
            rounds, _ = tichusim.simulate(
                n, seed=seed, strategies=seats, variant=variant, first_round=start, check=True
            )
            return len(rounds)

        yield _label(seats), play


def _mixed(players: int) -> list[str]:
    return [("heuristic", "random", "lowest")[i % 3] for i in range(players)]


def _label(seats: list[str]) -> str:
    return seats[0] if len(set(seats)) == 1 else "/".join(seats)


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
        for label, play in tables_of(variant, names, args.seed):
            t1 = time.perf_counter()
            played = sum(
                play(min(BATCH, args.rounds - start), start)
                for start in range(0, args.rounds, BATCH)
            )
            total += played
            rate = played / (time.perf_counter() - t1)
            print(
                f"{variant} {label}: {played:,} rounds checked, no invariant broken "
                f"({rate:,.0f} rounds/s)",
                flush=True,
            )
    elapsed = time.perf_counter() - t0
    line = (
        f"{datetime.now(UTC):%Y-%m-%d} | {total:,} rounds | {args.variants}: "
        f"{args.strategies} + mixed "
        f"| {elapsed:,.0f} s | {numba.config.NUMBA_NUM_THREADS} threads, {platform.machine()} "
        f"| 0 broken |"
    )
    print(line)
    log = Path(__file__).with_name("soak.md")
    if not log.exists():
        log.write_text(
            "# Soak runs (benchmarks/soak.py)\n\n| date | rounds | strategies | "
            "time | machine | invariants broken |\n|---|---|---|---|---|---|\n"
        )
    with log.open("a") as f:
        f.write(f"| {line}\n")


if __name__ == "__main__":
    main()
