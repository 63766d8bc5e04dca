"""Which passing policy is best? A duplicate round robin of every shipped pass policy ->
results/passing.md.

    python scripts/passing.py [--deals 100000] [--seed 2026] [--base heuristic --out FILE.md]

Each contestant is the default strategy (`expert`; `--base` another) with only its pass policy
changed (`{"base": base, "pass": X}` for every X in `POLICIES["pass"]`), so the league isolates
the passing. Every pair plays the same deals, each twice with the teams swapped
(`tichusim.analysis.duplicate.league`).
"""

import argparse
import time
from pathlib import Path

from tichusim.analysis.duplicate import league, markdown_report
from tichusim.strategies import DEFAULT_STRATEGY
from tichusim.strategies.tichu import POLICIES

RESULTS = Path(__file__).resolve().parent.parent / "results"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--base", default=DEFAULT_STRATEGY, help="the strategy whose passing varies")
    ap.add_argument("--out", default=None, help="default results/passing.md")
    args = ap.parse_args()
    t0 = time.perf_counter()
    specs = [{"base": args.base, "pass": p, "name": f"pass={p}"} for p in POLICIES["pass"]]
    result = league(
        specs,
        args.deals,
        seed=args.seed,
        progress=lambda done, total: print(f"match {done}/{total}", flush=True),
    )
    command = f"python scripts/passing.py --deals {args.deals} --seed {args.seed}"
    if args.base != DEFAULT_STRATEGY:
        command += f" --base {args.base}"
    if args.out:
        command += f" --out {args.out}"
    doc = markdown_report(result, command)
    policies = "\n".join(f"- `{name}`: {doc_}" for name, (_, doc_) in POLICIES["pass"].items())
    seconds = time.perf_counter() - t0
    doc += (
        f"\nEvery contestant is `{args.base}` with only its pass policy changed. The "
        f"policies (`tichusim strategies`; `heuristic` passes with `support-call`, `expert` "
        f"with `expert`):\n\n{policies}\n"
    )
    out = Path(args.out) if args.out else RESULTS / "passing.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(doc)
    print(f"wrote {out} in {seconds:.0f} s")


if __name__ == "__main__":
    main()
