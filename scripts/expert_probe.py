"""Probe variants of expert: self-play Tichu success, call rate and Grand Tichu rate, why the
failed calls fail (the partner or an opponent out first), and the duplicate margin against
expert on paired deals (optionally against heuristic). Each argument is one variant, its
parameter changes separated by commas (measurements in results/expert/README.md).

    NUMBA_NUM_THREADS=1 python scripts/expert_probe.py [--rounds 200000] [--deals 30000] \\
        [--heuristic] call_press=1,support_take=2 support_threat=3 ...
"""

import argparse
import time

import numpy as np

import tichusim
from tichusim.analysis.duplicate import duplicate
from tichusim.stats import wilson


def probe(params: dict, rounds: int, deals: int, seed: int, vs_heuristic: bool, base: str):
    spec = {"base": base, "name": "probe", "params": params} if params else base
    t = time.time()
    r, s = tichusim.simulate(rounds, seed=seed, strategies=spec)
    c = s[s.tichu]
    ok = (c.finish == 1).values
    first = r.set_index("round").first_out.loc[c["round"].values].values
    team_first = (first % 2) == (c.seat.values % 2)
    g = s[s.grand_tichu]
    print(
        f"{params}: tichu calls {wilson(len(c), len(s)).pct()}, success "
        f"{wilson(int(ok.sum()), len(c)).pct()}; failed with the partner first "
        f"{np.mean(team_first[~ok]):.3f}; GT calls {wilson(len(g), len(s)).pct()}, success "
        f"{wilson(int((g.finish == 1).sum()), len(g)).pct()}; bombs/round {r.bombs.mean():.3f}; "
        f"{time.time() - t:.0f}s",
        flush=True,
    )
    if deals and params:
        print(
            f"    vs {base} ({deals} deals, seed 7): "
            f"{duplicate(spec, base, deals, seed=7).diff.pts()}",
            flush=True,
        )
    if vs_heuristic:
        print(
            f"    vs heuristic ({deals} deals, seed 3): "
            f"{duplicate(spec, 'heuristic', deals, seed=3).diff.pts()}",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("variants", nargs="*")
    ap.add_argument("--rounds", type=int, default=200_000)
    ap.add_argument("--deals", type=int, default=30_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--heuristic", action="store_true")
    ap.add_argument("--base", default="expert")
    a = ap.parse_args()
    for v in a.variants or [""]:
        params = {k: float(x) for k, x in (c.split("=") for c in v.split(",") if c)}
        probe(params, a.rounds, a.deals, a.seed, a.heuristic, a.base)


if __name__ == "__main__":
    main()
