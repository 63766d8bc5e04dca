"""What would choosing the pass by simulation gain over a strategy's own passing? An upper
bound on what learning the passing could bring, with that strategy at every seat.

    python scripts/pass_by_simulation.py [--strategy learned] [--hands 40] [--seed 1000]
                                         [--deals 4000] [--check-deals 20000]

For each of ``--hands`` random 14-card hands (hand ``h`` dealt from ``--seed + h``),
``pass-advice`` (``analysis.passadvice``, seed 0, ``--deals`` for its best candidates) picks
the best pass; the best and the strategy's own pass (the candidate its passing policy makes)
are then played again on fresh deals (seed 1, ``--check-deals`` each, paired), so the choice's
luck on its own deals does not count (the winner's curse). The gain is the hand's team points
per round of the best over the own pass (0 where they are the same pass); its mean over the
hands carries a 95% interval from the hands' spread. A learned passing could at most reach
this: it would imitate the simulation's choice. Writes ``results/<strategy>/passing.json``.
"""

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np

from tichusim import cards
from tichusim.analysis.passadvice import pass_advice
from tichusim.cards.notation import cards_of
from tichusim.kernels.tichu.encoding import DECK

ROOT = Path(__file__).resolve().parent.parent


def random_hand(seed: int) -> str:
    """14 cards of the deck drawn by ``seed``, as text."""
    deck = cards_of(DECK)
    picked = np.random.default_rng(seed).choice(len(deck), 14, replace=False)
    return cards.format(sum(int(deck[i]) for i in picked))


def hand_gain(hand: str, strategy: str, deals: int, check_deals: int) -> dict:
    """The best pass of ``hand`` by simulation, the strategy's own, and the best's gain over
    the own on fresh deals (points per round, its standard error)."""
    advice = pass_advice(hand, deals=deals, seed=0, strategy=strategy, others=strategy)
    own = next(c for c in advice.candidates if strategy in c.sources)
    best = advice.best
    gain, se = 0.0, 0.0
    if best.cards != own.cards:
        check = pass_advice(
            hand,
            deals=check_deals,
            seed=1,
            strategy=strategy,
            others=strategy,
            candidates=[best.cards, own.cards],
            generated=False,
        )
        # the candidate behind on the fresh deals carries the paired difference to the other
        behind = check.candidates[1]
        sign = -1.0 if behind.cards == own.cards else 1.0
        gain = sign * behind.diff.value
        se = (behind.diff.high - behind.diff.low) / (2 * 1.96)
    return {"hand": hand, "own": own.cards, "best": best.cards, "gain": gain, "se": se}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strategy", default="learned")
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--deals", type=int, default=4000)
    ap.add_argument("--check-deals", type=int, default=20000)
    args = ap.parse_args()
    start = time.perf_counter()
    rows = []
    for h in range(args.hands):
        rows.append(
            hand_gain(random_hand(args.seed + h), args.strategy, args.deals, args.check_deals)
        )
        r = rows[-1]
        print(
            f"{r['hand']:<48} own {r['own']:<14} best {r['best']:<14} {r['gain']:+7.1f}", flush=True
        )
    gains = np.array([r["gain"] for r in rows])
    mean = float(gains.mean())
    half = 1.96 * float(gains.std(ddof=1)) / math.sqrt(len(gains)) if len(gains) > 1 else math.nan
    changed = sum(r["best"] != r["own"] for r in rows)
    summary = (
        f"best pass by simulation - {args.strategy}'s own pass: {mean:+.1f} "
        f"[{mean - half:+.1f}, {mean + half:+.1f}] points per round over {len(rows)} hands "
        f"(another pass best on {changed}); {time.perf_counter() - start:.0f} s"
    )
    print(summary)
    out = ROOT / "results" / args.strategy / "passing.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    command = (
        f"scripts/pass_by_simulation.py --strategy {args.strategy} --hands {args.hands} "
        f"--seed {args.seed} --deals {args.deals} --check-deals {args.check_deals}"
    )
    report = {"command": command, "summary": summary, "hands": rows}
    out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
