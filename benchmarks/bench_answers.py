"""The answers' time as a user waits for them, with the default players (``learned`` at the
table) beside ``expert``: each command run as its own process (``tichusim ... --json``), once
compiled, the two players alternately, ``--repeat`` times each; the median wall seconds of
the process (start-up, import, candidates and play), the seconds of play the answer reports,
its rounds, and the load average before and after.

* ``pass-advice --hand H`` with its default deals (target: 10 s with learned at the table);
* ``gt-odds --hand H --rounds 2000`` and ``tichu-odds --hand H --rounds 2000``, the server's
  default deals.

``--before PATH/tichusim`` also runs another tree's command with its own defaults, in turn
with the others: on a shared machine the ratio to it is the figure that holds (the starting
tree's ``pass-advice`` took 3.0 s with expert on a quiet machine).

    python benchmarks/bench_answers.py [--repeat 3] [--only pass-advice gt-odds tichu-odds]
        [--before /path/to/other/.venv/bin/tichusim]

Prints a Markdown table and records it in results/performance.md (``--no-results``: print only).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from results_page import Recorder, add_arguments

TICHUSIM = str(Path(sys.executable).with_name("tichusim"))
HAND14 = "Dog Ma 2j 3s 5p 7t 8j 9s Jp Qt Kj Ks Ph Dr"
COMMANDS = {
    "pass-advice": ["pass-advice", "--hand", HAND14],
    "gt-odds": ["gt-odds", "--hand", "Dr Ph A A K 9 5 3", "--rounds", "2000"],
    "tichu-odds": ["tichu-odds", "--hand", "Dr Ph Aj As K K Q J T 9 7 5 3 2", "--rounds", "2000"],
}
PLAYERS = {
    "default (learned)": [],
    "expert": ["--seat-strategy", "expert", "--others", "expert"],
}


def run(args: list[str], exe: str = TICHUSIM) -> tuple[float, dict]:
    t0 = time.perf_counter()
    out = subprocess.run(
        [exe, *args, "--json", "--quiet"], capture_output=True, text=True, check=True
    )
    return time.perf_counter() - t0, json.loads(out.stdout)


def load() -> str:
    return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", nargs="+", choices=list(COMMANDS), default=list(COMMANDS))
    parser.add_argument("--before", default=None, help="another tree's tichusim executable")
    add_arguments(parser)
    args = parser.parse_args()
    players = {name: (TICHUSIM, extra) for name, extra in PLAYERS.items()}
    if args.before:
        players["before: its defaults"] = (args.before, [])
    rec = Recorder("bench_answers.py", results=args.results)
    rec.print(f"load average before: {load()}")
    rec.print("")
    rec.print(
        "| command | players | wall s (median) | wall s (each) | play s (median) | rounds "
        "| strategies |"
    )
    rec.print("|---|---|---|---|---|---|---|")
    for name in args.only:
        for exe, extra in players.values():  # compiled (or read from the cache) before the clock
            run([*COMMANDS[name], *extra], exe)
        walls: dict[str, list[float]] = {p: [] for p in players}
        plays: dict[str, list[float]] = {p: [] for p in players}
        answers: dict[str, dict] = {}
        for _ in range(args.repeat):  # in turn, so the load falls on each alike
            for player, (exe, extra) in players.items():
                wall, answer = run([*COMMANDS[name], *extra], exe)
                walls[player].append(wall)
                plays[player].append(float(answer["seconds"]))
                answers[player] = answer
        for player in players:
            a = answers[player]
            rounds = a.get("rounds", 2 * a.get("deals", 0))
            each = ", ".join(f"{w:.2f}" for w in walls[player])
            rec.print(
                f"| `{name}` | {player} | {statistics.median(walls[player]):.2f} | {each} "
                f"| {statistics.median(plays[player]):.2f} | {rounds:,} "
                f"| {', '.join(dict.fromkeys(a['strategies']))} |"
            )
    rec.print("")
    rec.print(f"load average after: {load()} (2 cores; other work on the machine shares them)")
    rec.save()


if __name__ == "__main__":
    main()
