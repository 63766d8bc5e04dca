"""Fit the ``expert`` strategy's call-value coefficients by paired simulation.

For each call (Tichu on the 14 cards before passing, Grand Tichu on the first 8), every deal is
played twice with ``expert`` at every seat, seat 0 forced to call in one table and not to call
in the other (``analysis.gtodds.paired_rounds``: the same deal and the same random streams).
On 4/5 of the deals it fits

* a logistic regression of P(seat 0 out first | it called) on the hand's features
  (``analysis/handclass.py``: Aces, Kings, Dragon, Phoenix, Dog, Mah Jong, bomb, pairs, plays);
* the paired gain of calling in points of margin (our score minus theirs) against the call's
  bonus term ``2p - 1``: ``gain = A (2p - 1) + B``, whose zero is the probability of success
  ``p* = (1 - B / A) / 2`` above which calling pays.

The kernel's score is the logit less ``logit(p*)``: call when positive. The held-out 1/5 checks
it: how often it calls, how often those calls succeed, and the measured gain of the calls it
makes and of those it does not. Writes ``results/expert/calls.json`` and the coefficients into
``tichusim/strategies/expert_params.py``.

    .venv/bin/python scripts/fit_expert_calls.py --deals 150000 --seed 11
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import re
import time
from pathlib import Path

import numpy as np

from tichusim.analysis.gtodds import paired_rounds
from tichusim.analysis.handclass import features, fit_logistic
from tichusim.analysis.stats import mean_ci
from tichusim.strategies.tichu import CALL_FEATURES, resolve

ROOT = Path(__file__).resolve().parents[1]
PARAMS_PY = ROOT / "tichusim" / "strategies" / "expert_params.py"
BATCH = 50_000


def experiment(kind: str, deals: int, seed: int, base="expert"):
    me = resolve(base, 1)[0]
    field = "tichu" if kind == "tichu" else "grand_tichu"
    call = [dataclasses.replace(me, **{field: "always"}, name=f"{me.name}+{kind}")] + [me] * 3
    no_call = [dataclasses.replace(me, **{field: "never"}, name=f"{me.name}-{kind}")] + [me] * 3
    rows = {"hand": [], "success": [], "gain": [], "keep": []}
    for start in range(0, deals, BATCH):
        keys = np.arange(start, min(deals, start + BATCH), dtype=np.int64)
        pairs = paired_rounds(seed, keys, call, no_call)
        (rc, sc), (rn, sn) = pairs.call, pairs.no_call
        rows["hand"].append(sc[:, 0]["hand14" if kind == "tichu" else "hand8"])
        rows["success"].append(sc[:, 0]["finish"] == 1)
        margin_c = rc["score"][:, 0] - rc["score"][:, 1]
        margin_n = rn["score"][:, 0] - rn["score"][:, 1]
        rows["gain"].append((margin_c - margin_n).astype(np.float64))
        if kind == "tichu":  # a plain Tichu decision: no Grand Tichu of ours, no partner's call
            keep = ~sc[:, 0]["grand_tichu"] & ~sn[:, 2]["tichu"] & ~sn[:, 2]["grand_tichu"]
        else:
            keep = np.ones(len(keys), bool)
        rows["keep"].append(keep)
    out = {k: np.concatenate(v) for k, v in rows.items()}
    k = out.pop("keep")
    return {name: v[k] for name, v in out.items()}


def _frontier(score, success, gain, rate: float) -> dict:
    """Success and paired gain when calling the ``rate`` best-scored hands only."""
    top = score >= np.quantile(score, 1 - rate)
    return {"call_rate": float(top.mean()), "success": float(success[top].mean()),
            "gain": mean_ci(gain[top])._asdict()}


def fit(data, seed: int):
    f = features(data["hand"])[:, : len(CALL_FEATURES) - 1]
    x = np.column_stack([np.ones(len(f)), f])
    y = data["success"].astype(np.float64)
    gain = data["gain"]
    rng = np.random.default_rng(seed)
    test = rng.random(len(y)) < 0.2
    beta, _ = fit_logistic(x[~test], y[~test])
    p = 1 / (1 + np.exp(-(x @ beta)))
    z = np.column_stack([np.ones(len(p)), 2 * p - 1])
    (b, a), *_ = np.linalg.lstsq(z[~test], gain[~test], rcond=None)
    p_star = min(max((1 - b / a) / 2, 1e-3), 1 - 1e-3)
    coef = beta.copy()
    coef[0] -= math.log(p_star / (1 - p_star))
    score = x @ coef
    called = test & (score > 0)
    held = {
        "deals": int(test.sum()),
        "call_rate": float(called.sum() / test.sum()),
        "success_when_called": float(y[called].mean()) if called.any() else None,
        "gain_when_called": mean_ci(gain[called])._asdict() if called.sum() > 2 else None,
        "gain_when_not_called": mean_ci(gain[test & ~called])._asdict(),
        # the frontier: calling only the best-scored hands, for a few call rates
        "frontier": [_frontier(score[test], y[test], gain[test], rate)
                     for rate in (0.05, 0.10, 0.15, 0.20)],
    }
    return coef, {"p_star": p_star, "gain_slope": float(a), "gain_intercept": float(b),
                  "logit": beta.tolist(), "holdout": held}


def write_params(tichu, gt):
    text = PARAMS_PY.read_text()
    for name, coef in (("TICHU_VALUE", tichu), ("GT_VALUE", gt)):
        values = ", ".join(f"{c:.4f}" for c in coef)
        text = re.sub(rf"^{name} = \(.*\)$", f"{name} = ({values})", text, flags=re.M)
    PARAMS_PY.write_text(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=150_000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out", default=str(ROOT / "results" / "expert" / "calls.json"))
    ap.add_argument("--dry-run", action="store_true", help="do not write expert_params.py")
    args = ap.parse_args()
    report = {"deals": args.deals, "seed": args.seed, "features": list(CALL_FEATURES),
              "command": f"scripts/fit_expert_calls.py --deals {args.deals} --seed {args.seed}"}
    coefs = {}
    for kind in ("tichu", "grand_tichu"):
        t0 = time.perf_counter()
        data = experiment(kind, args.deals, args.seed)
        coefs[kind], report[kind] = fit(data, args.seed)
        report[kind]["coef"] = coefs[kind].tolist()
        report[kind]["rows"] = int(len(data["gain"]))
        report[kind]["seconds"] = round(time.perf_counter() - t0, 1)
        print(kind, json.dumps(report[kind]["holdout"]), f"p*={report[kind]['p_star']:.3f}",
              flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
    if not args.dry_run:
        write_params(coefs["tichu"], coefs["grand_tichu"])


if __name__ == "__main__":
    main()
