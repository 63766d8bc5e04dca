"""Tune the ``expert`` strategy's play parameters by CMA-ES on duplicate matches.

Every candidate plays duplicate matches (``analysis.duplicate``: each deal twice, the teams'
seats swapped) against a field of opponents on the same tuning deals (common random numbers:
the seed is fixed, so candidates differ only by their play); the objective is the mean margin
in points per round over the field. CMA-ES (``cma``, the ``tune`` extra) searches the
parameters scaled to their boxes. Every few generations the distribution's mean is measured
against ``heuristic`` on deals never used for tuning (another seed); the best mean so measured
is the result, written to ``tichusim/strategies/expert_params.py`` (``PLAY``), with the
learning curve (``results/expert/learning_curve.png``) and the log (``tuning.json``).

    .venv/bin/pip install -e '.[tune]'
    NUMBA_NUM_THREADS=1 .venv/bin/python scripts/tune_expert.py --generations 12 --deals 3000
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from tichusim.analysis.duplicate import duplicate
from tichusim.strategies.tichu import STRATEGIES

ROOT = Path(__file__).resolve().parents[1]
PARAMS_PY = ROOT / "tichusim" / "strategies" / "expert_params.py"
OUT = ROOT / "results" / "expert"

# the search box of each tuned parameter (inside its documented range)
SPACE = {
    "follow_margin": (-2.0, 8.0),
    "point_weight": (0.0, 0.2),
    "control_cost": (0.0, 2.0),
    "attack_bonus": (0.0, 3.0),
    "bomb_threat": (1.0, 8.0),
    "bomb_points": (5.0, 40.0),
    "sure_keep": (-2.0, 4.0),
    "sure_cost": (-2.0, 4.0),
    "short_opp": (-1.0, 6.0),
    "partner_lead": (-2.0, 3.0),
    "dog_partner_cards": (0.0, 14.0),
}
FIELD = ("heuristic", {"base": "heuristic", "pass": "partner-best", "wish": "none"}, "expert")


def candidate(x) -> dict:
    params = dict(STRATEGIES["expert"].param_values())
    for (name, (lo, hi)), u in zip(SPACE.items(), np.clip(x, 0, 1), strict=False):
        params[name] = float(lo + u * (hi - lo))
    keep = {k: v for k, v in params.items() if k in SPACE}
    return {"base": "expert", "name": "expert-candidate", "params": keep}


def start_point() -> np.ndarray:
    values = STRATEGIES["expert"].param_values()
    return np.array([(values[n] - lo) / (hi - lo) for n, (lo, hi) in SPACE.items()])


def objective(x, deals: int, seed: int) -> float:
    spec = candidate(x)
    return float(np.mean([duplicate(spec, opp, deals, seed=seed).diff.value for opp in FIELD]))


def holdout(x, deals: int, seed: int):
    r = duplicate(candidate(x), "heuristic", deals, seed=seed).diff
    return r.value, r.low, r.high


def write_params(spec: dict) -> None:
    text = PARAMS_PY.read_text()
    head = text[: text.index("PLAY:")]
    body = "".join(f'    "{k}": {v:.4g},\n' for k, v in sorted(spec["params"].items()))
    PARAMS_PY.write_text(head + "PLAY: dict[str, float] = {\n" + body + "}\n")


def plot(log: list[dict], held: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ev = [r["evaluations"] for r in log]
    ax.plot(
        ev,
        [r["best"] for r in log],
        label="best candidate of the generation, mean over the field (tuning deals)",
    )
    ax.plot(ev, [r["mean"] for r in log], label="mean candidate of the generation (same)")
    if held:
        ax.errorbar(
            [h["evaluations"] for h in held],
            [h["margin"] for h in held],
            yerr=[[h["margin"] - h["low"] for h in held], [h["high"] - h["margin"] for h in held]],
            fmt="o",
            label="CMA mean vs heuristic, held-out deals (95% CI)",
        )
    ax.set_xlabel("candidates evaluated")
    ax.set_ylabel("duplicate margin, points per round")
    ax.set_title("expert: CMA-ES tuning of the play parameters")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generations", type=int, default=12)
    ap.add_argument("--popsize", type=int, default=8)
    ap.add_argument("--deals", type=int, default=3000, help="tuning deals per match")
    ap.add_argument("--holdout-deals", type=int, default=10000)
    ap.add_argument("--holdout-every", type=int, default=4)
    ap.add_argument("--seed", type=int, default=101, help="tuning deals' seed")
    ap.add_argument("--holdout-seed", type=int, default=202)
    ap.add_argument("--sigma", type=float, default=0.2)
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--replot", action="store_true", help="redraw the plot from tuning.json")
    args = ap.parse_args()
    if args.replot:
        saved = json.loads((OUT / "tuning.json").read_text())
        plot(saved["log"], saved["holdout"], OUT / "learning_curve.png")
        return
    import cma

    t0 = time.perf_counter()
    x0 = start_point()
    es = cma.CMAEvolutionStrategy(
        x0,
        args.sigma,
        {"bounds": [0, 1], "popsize": args.popsize, "seed": args.seed, "verbose": -9},
    )
    log, held = [], []
    m0, lo0, hi0 = holdout(x0, args.holdout_deals, args.holdout_seed)
    held.append(
        {
            "generation": 0,
            "evaluations": 0,
            "margin": m0,
            "low": lo0,
            "high": hi0,
            "params": candidate(x0)["params"],
        }
    )
    print(f"start: held-out {m0:.1f} [{lo0:.1f}, {hi0:.1f}]", flush=True)
    for g in range(1, args.generations + 1):
        xs = es.ask()
        ys = [objective(x, args.deals, args.seed) for x in xs]
        es.tell(xs, [-y for y in ys])
        log.append(
            {
                "generation": g,
                "evaluations": es.countevals,
                "best": max(ys),
                "mean": float(np.mean(ys)),
                "seconds": round(time.perf_counter() - t0, 1),
            }
        )
        print(json.dumps(log[-1]), flush=True)
        if g % args.holdout_every == 0 or g == args.generations:
            xm = es.mean
            m, lo, hi = holdout(xm, args.holdout_deals, args.holdout_seed)
            held.append(
                {
                    "generation": g,
                    "evaluations": es.countevals,
                    "margin": m,
                    "low": lo,
                    "high": hi,
                    "params": candidate(xm)["params"],
                }
            )
            print(f"generation {g}: held-out {m:.1f} [{lo:.1f}, {hi:.1f}]", flush=True)
    best = max(held, key=lambda h: h["margin"])
    OUT.mkdir(parents=True, exist_ok=True)
    command = (
        f"NUMBA_NUM_THREADS=1 .venv/bin/python scripts/tune_expert.py --generations "
        f"{args.generations} --popsize {args.popsize} --deals {args.deals} "
        f"--holdout-deals {args.holdout_deals} --holdout-every {args.holdout_every} "
        f"--seed {args.seed} --holdout-seed {args.holdout_seed} --sigma {args.sigma}"
    )
    (OUT / "tuning.json").write_text(
        json.dumps(
            {
                "command": command,
                "space": SPACE,
                "field": [str(f) for f in FIELD],
                "log": log,
                "holdout": held,
                "chosen": best,
                "seconds": round(time.perf_counter() - t0, 1),
            },
            indent=1,
        )
        + "\n"
    )
    plot(log, held, OUT / "learning_curve.png")
    print(
        f"chosen (generation {best['generation']}): held-out {best['margin']:.1f} "
        f"[{best['low']:.1f}, {best['high']:.1f}]",
        flush=True,
    )
    if not args.dry_run and best["generation"] > 0:
        write_params({"params": best["params"]})


if __name__ == "__main__":
    main()
