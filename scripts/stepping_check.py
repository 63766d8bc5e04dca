"""One engine, checked at scale: rounds stepped from Python, every decision answered
by ``tichusim.strategy(name).decide``, must give ``simulate``'s records byte for byte.

For each game (Nanjing, Tientsin, Wu Wang, Grand Seigneur at 5 and 12 players) and each of
``random``, ``lowest``, ``heuristic``, ``--rounds`` rounds are stepped with every seat decided
from Python and compared with ``simulate``'s rows for the same seed and keys. Prints one line
per cell (rounds, decisions, mismatching rounds, seconds) and exits 1 on any mismatch.

    python scripts/stepping_check.py --rounds 1000
"""

import argparse
import sys
import time

import tichusim

VARIANTS = [
    ("nanjing", None),
    ("tientsin", None),
    ("wuwang", None),
    ("grand-seigneur", 5),
    ("grand-seigneur", 12),
]


def _plain(df):
    return df.drop(columns=[c for c in df.columns if c.startswith("strategy")])


def check(variant: str, players: int | None, strategy: str, rounds: int, seed: int):
    """``(decisions answered, rounds whose records differ)``."""
    want_r, want_s = tichusim.simulate(
        rounds, seed=seed, strategies=strategy, variant=variant, players=players
    )
    decide = tichusim.strategy(strategy).decide
    decisions = bad = 0
    for key in range(rounds):
        r = tichusim.Round(seed=seed, key=key, variant=variant, players=players)
        while True:
            r.advance()
            if r.done:
                break
            r.act(decide(r.view(), r.legal()))
        decisions += r.decisions
        got_r, got_s = r.tables()
        width = len(got_s)
        same = _plain(got_r).equals(_plain(want_r.iloc[[key]].reset_index(drop=True))) and (
            _plain(got_s).equals(
                _plain(want_s.iloc[key * width : (key + 1) * width].reset_index(drop=True))
            )
        )
        bad += not same
    return decisions, bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    failed = 0
    print("| table | strategy | rounds | decisions from Python | mismatches | seconds |")
    print("|---|---|---|---|---|---|")
    for variant, players in VARIANTS:
        for strategy in ("random", "lowest", "heuristic"):
            t0 = time.perf_counter()
            decisions, bad = check(variant, players, strategy, args.rounds, args.seed)
            name = variant + (f" {players}" if players else "")
            print(
                f"| {name} | {strategy} | {args.rounds} | {decisions} | {bad} | "
                f"{time.perf_counter() - t0:.0f} |",
                flush=True,
            )
            failed += bad
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
