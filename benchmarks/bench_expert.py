"""Rounds per CPU-second of ``expert`` beside ``heuristic``, and what each of its parts costs.

One thread, the 4-player game, best of 3 (``bench_engine.kernel_rate`` with ``cpu=True``):
``heuristic``; ``expert``; ``expert`` with one decision put back to heuristic's policy (its
play, its calls, its passing/wish/Dragon), so the difference says what that part costs; and
``expert`` with the play around a call (``caller_overtake``, ``hold_margin``, ``retake_lead``,
``caller_gift``, ``bomb_points``) set back to its values before them.

    NUMBA_NUM_THREADS=1 python benchmarks/bench_expert.py [--rounds 100000]
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_engine import kernel_rate  # noqa: E402

CASES = [
    ("heuristic", "heuristic"),
    ("expert", "expert"),
    ("expert, heuristic's play", {"base": "expert", "play": "heuristic"}),
    (
        "expert, threshold calls",
        {"base": "expert", "tichu": "threshold", "grand_tichu": "threshold"},
    ),
    (
        "expert, heuristic's pass/wish/Dragon",
        {
            "base": "expert",
            "pass": "support-call",
            "wish": "highest-missing",
            "dragon": "more-cards",
        },
    ),
    (
        "expert, the play-around-a-call knobs off",
        {
            "base": "expert",
            "params": {
                "caller_overtake": -100,
                "hold_margin": 0,
                "retake_lead": 0,
                "caller_gift": 13,
                "bomb_points": 6.556,
            },
        },
    ),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=100_000)
    args = ap.parse_args()
    for label, strategy in CASES:
        rate = kernel_rate(strategy, args.rounds, 1, cpu=True)
        print(
            f"{label:>40}: {rate:>9,.0f} rounds per CPU-second ({1e6 / rate:.1f} us/round)",
            flush=True,
        )


if __name__ == "__main__":
    main()
