"""The review of a played game (``tichusim review``, docs/review.md): its speed, and whether
it ranks known players right.

* ``speed``: a real Brettspielwelt game (``tests/data/bsw/2417500.tch``: 10 rounds, 950
  decisions) reviewed at each effort of ``--efforts``, once compiled: the game's seconds,
  each round's (the slowest and the median), and how its decisions were weighed (forced,
  agreed, best, measured). Targets: the game at the default effort in 3 minutes on this
  2-core machine (60 s the moonshot), one round in 20 s.
* ``ranking``: ``--games`` games of tichusim's own players, ``random``, ``heuristic``,
  ``expert`` and ``learned`` at one table (the seats rotated through six seatings, so that
  each partners each and sits everywhere), played with ``Round``, written as logs (the JSON
  game records, ``write_game``) and read back, reviewed at ``--effort``: each player's mean
  loss per decision with its 95% interval, and the difference of each neighbour in the order
  the review should find (random > heuristic > expert > learned), with Welch's interval.

    python benchmarks/bench_review.py [--only speed ranking] [--efforts quick normal]
        [--games 24] [--effort normal] [--seed 0]

Prints Markdown and records it in results/performance.md (``--no-results``: print only).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np
from results_page import Recorder, add_arguments

import tichusim
from tichusim import GameRecord, Round
from tichusim.review import review_game, settings_of
from tichusim.stats import Z95, Estimate, mean_ci

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "tests" / "data" / "bsw" / "2417500.tch"
PLAYERS = ("random", "heuristic", "expert", "learned")  # the order the review should find
KIND_ORDER = [
    "grand_tichu",
    "tichu 0",
    "tichu 1",
    "tichu 2",
    "tichu 3",
    "pass",
    "play",
    "bomb",
    "wish",
    "dragon",
    "dog",
]
# the seatings (player index per seat): each player partners each other twice and sits at
# every seat
SEATINGS = ((0, 1, 2, 3), (1, 2, 3, 0), (0, 2, 1, 3), (2, 0, 3, 1), (0, 3, 2, 1), (3, 1, 0, 2))


def load() -> str:
    return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def speed(rec: Recorder, efforts: list[str], seed: int) -> None:
    game = tichusim.read_game(GAME).game
    review_game(game, settings_of("quick", seed=seed), rounds=[0])  # compiled before the clock
    rec.print(f"`{GAME.relative_to(ROOT)}`: {len(game.rounds)} rounds; load before: {load()}")
    rec.print("")
    rec.print(
        "| effort | game s | round s (slowest) | round s (median) | decisions | weighed "
        "| forced | agreed | best | measured | deals played |"
    )
    rec.print("|---|---|---|---|---|---|---|---|---|---|---|")
    for effort in efforts:
        result = review_game(game, settings_of(effort, seed=seed))
        rounds = [r.seconds for r in result.rounds]
        kinds = Counter(w.status for w in result.decisions)
        weighed = sum(w.weighed for w in result.decisions)
        deals = sum(w.deals for w in result.decisions)
        rec.print(
            f"| {effort} | {result.seconds:.1f} | {max(rounds):.1f} | "
            f"{statistics.median(rounds):.1f} | {len(result.decisions)} | {weighed} | "
            f"{kinds['forced']} | {kinds['agreed']} | {kinds['best']} | {kinds['measured']} "
            f"| {deals:,} |"
        )
    rec.print("")
    rec.print(f"load after: {load()}")


def own_game(index: int, rounds: int, seed: int) -> GameRecord:
    """Game ``index``: ``rounds`` rounds of the four players in seating ``index % 6``."""
    names = tuple(PLAYERS[p] for p in SEATINGS[index % len(SEATINGS)])
    records = []
    for key in range(rounds):
        r = Round(seed=seed + index, key=key, strategies=list(names))
        r.advance()
        records.append(r.record())
    return GameRecord(tuple(records), names)


def difference(a: Estimate, b: Estimate) -> Estimate:
    """``a - b`` for means of independent samples, with Welch's normal interval."""
    se = math.hypot((a.high - a.low) / (2 * Z95), (b.high - b.low) / (2 * Z95))
    d = a.value - b.value
    return Estimate(d, d - Z95 * se, d + Z95 * se, min(a.n, b.n))


def ranking(rec: Recorder, games: int, effort: str, seed: int) -> None:
    settings = settings_of(effort, seed=seed)
    losses: dict[str, list[float]] = {p: [] for p in PLAYERS}
    flags: dict[str, Counter] = {p: Counter() for p in PLAYERS}
    kinds: dict[tuple[str, str], list[float]] = {}
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for g in range(games):
            path = Path(folder) / f"game{g}.json"
            tichusim.write_game(own_game(g, 10, 1000 * (seed + 1)), path)
            game = tichusim.read_game(path).game  # written as a log, and read back
            result = review_game(game, settings)
            for w in result.decisions:
                if w.weighed:
                    name = game.players[w.seat]
                    losses[name].append(w.lost)
                    flags[name][w.flag] += 1
                    kind = f"tichu {w.detail}" if w.decision == "tichu" else w.decision
                    kinds.setdefault((name, kind), []).append(w.lost)
            summary = ", ".join(f"{p} {mean_ci(losses[p]).value:.2f}" for p in PLAYERS)
            print(f"game {g + 1}/{games}: {result.seconds:.0f} s; {summary}", flush=True)
    seconds = time.perf_counter() - t0
    rec.print(
        f"{games} games of 10 rounds (seed {seed}), reviewed at effort {effort} in "
        f"{seconds:.0f} s; load after: {load()}"
    )
    rec.print("")
    rec.print(
        "| player | decisions weighed | mean loss per decision | inaccuracies | mistakes "
        "| blunders | share flagged |"
    )
    rec.print("|---|---|---|---|---|---|---|")
    estimates = {p: mean_ci(np.array(losses[p])) for p in PLAYERS}
    for p in PLAYERS:
        n = len(losses[p])
        f = flags[p]
        flagged = (f["inaccuracy"] + f["mistake"] + f["blunder"]) / max(n, 1)
        rec.print(
            f"| {p} | {n:,} | {estimates[p].num(2)} | {f['inaccuracy']} | {f['mistake']} "
            f"| {f['blunder']} | {100 * flagged:.1f}% |"
        )
    rec.print("")
    rec.print("| difference | points per decision | ordered |")
    rec.print("|---|---|---|")
    for a, b in zip(PLAYERS, PLAYERS[1:], strict=False):
        d = difference(estimates[a], estimates[b])
        verdict = "yes" if d.low > 0 else "not shown" if d.high > 0 else "reversed"
        rec.print(f"| {a} - {b} | {d.num(2)} | {verdict} |")
    rec.print("")
    rec.print(f"learned's own loss: {estimates['learned'].num(2)} points per decision")
    rec.print("")
    rec.print("By decision: mean loss per decision (decisions weighed)")
    rec.print("")
    names = sorted({k for _, k in kinds}, key=KIND_ORDER.index)
    rec.print("| player | " + " | ".join(names) + " |")
    rec.print("|---|" + "---|" * len(names))
    for p in PLAYERS:
        cells = []
        for k in names:
            got = kinds.get((p, k), [])
            cells.append(f"{np.mean(got):.1f} ({len(got)})" if got else "")
        rec.print(f"| {p} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", choices=["speed", "ranking"], default=["speed"])
    parser.add_argument("--efforts", nargs="+", default=["quick", "normal", "deep"])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--effort", default="normal")
    parser.add_argument("--seed", type=int, default=0)
    add_arguments(parser)
    args = parser.parse_args()
    if "speed" in args.only:
        rec = Recorder("bench_review.py: speed", results=args.results)
        speed(rec, args.efforts, args.seed)
        rec.save()
    if "ranking" in args.only:
        title = f"bench_review.py: ranking known players, effort {args.effort}"
        rec = Recorder(title, results=args.results)
        ranking(rec, args.games, args.effort, args.seed)
        rec.save()


if __name__ == "__main__":
    main()
