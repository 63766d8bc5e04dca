"""Engine speed of two trees side by side: the honest way to claim a speed change on a noisy
machine. Each round of the comparison runs every cell once per tree, in a fresh process of
that tree (``PYTHONPATH``), alternating; a cell's figure is its best rate in rounds per
CPU-second on one thread, and the ratio is after / before.

    git worktree add /work/base HEAD~1
    python benchmarks/bench_trees.py /work/base . [--rounds 30000] [--repeats 4]

The same tree twice with another setting on one side (``--env-before``/``--env-after``,
``NAME=VALUE``, repeatable) compares two builds of the same kernels: the kernel pack's
x86-64-v3 code against kernels compiled for this CPU, each side in a cache folder of its own
(the folders must exist; a side with ``TICHUSIM_CACHE_DIR`` keeps it):

    python benchmarks/bench_trees.py . . --cells nanjing:expert,nanjing:learned \
        --env-before TICHUSIM_CACHE_DIR=/tmp/host --env-before TICHUSIM_KERNEL_PACK=0 \
        --env-after TICHUSIM_CACHE_DIR=/tmp/v3 --env-after TICHUSIM_KERNEL_PACK=x86-64-v3

The table goes to results/performance.md too (section ``bench_trees.py``, with both trees'
commits; ``--no-results``: printed only).
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from results_page import Recorder, add_arguments

CELLS = [
    (v, s) for v in ("nanjing", "tientsin", "wuwang") for s in ("heuristic", "random", "lowest")
]

_CHILD = """
import json, sys
sys.path.insert(0, "benchmarks")
from bench_engine import kernel_rate
rounds, cells = json.loads(sys.argv[1])
print(json.dumps([kernel_rate(s, rounds, 1, variant=v, cpu=True) for v, s in cells]))
"""


def rates(tree: Path, rounds: int, cells, settings=()) -> list[float]:
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_NUM_THREADS="1")
    for name in ("NUMBA_CACHE_DIR", "TICHUSIM_CACHE_DIR"):  # each tree its own cache (keyed
        env.pop(name, None)  # by its kernel sources)
    env.update(setting.split("=", 1) for setting in settings)
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps([rounds, cells])],
        cwd=tree,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--rounds", type=int, default=30_000)
    ap.add_argument("--repeats", type=int, default=4)
    ap.add_argument("--cells", default="", help="comma-separated variant:strategy (default all)")
    for side in ("before", "after"):
        ap.add_argument(
            f"--env-{side}",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help=f"an environment setting of the {side} side's processes",
        )
    add_arguments(ap)
    args = ap.parse_args()
    rec = Recorder(
        "bench_trees.py", args.results, trees=(args.before.resolve(), args.after.resolve())
    )
    cells = [tuple(c.split(":")) for c in args.cells.split(",")] if args.cells else CELLS
    best = {t: [0.0] * len(cells) for t in ("before", "after")}
    for _ in range(args.repeats):
        for name in ("before", "after"):
            settings = getattr(args, f"env_{name}")
            got = rates(getattr(args, name).resolve(), args.rounds, cells, settings)
            best[name] = [max(a, b) for a, b in zip(best[name], got, strict=False)]
    rec.print(
        f"{'cell':<22}{'before':>10}{'after':>10}{'ratio':>8}   (rounds per CPU-second, best "
        f"of {args.repeats} x {args.rounds:,})"
    )
    for i, (v, s) in enumerate(cells):
        b, a = best["before"][i], best["after"][i]
        rec.print(f"{v + ' ' + s:<22}{b:>10,.0f}{a:>10,.0f}{a / b:>8.3f}")
    rec.save()


if __name__ == "__main__":
    main()
