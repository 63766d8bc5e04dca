"""Duplicate match of the committed ``expert`` against ``expert`` as it was before its
play around a call (commit fc84436: its call coefficients and play values, the new play knobs
at their neutral values), or with ``--calls`` against ``expert`` with the call rule it had
before the calls read their context and could wait for the passing (commit ade55d8: its
coefficients, Tichu before passing only, over a partner's call past 3; today's play), on paired
deals (results/expert/README.md).

    NUMBA_NUM_THREADS=1 python scripts/expert_vs_before.py [--calls] [--deals 100000] [--seed 7]
"""

import argparse

from tichusim.analysis.duplicate import duplicate
from tichusim.strategies.tichu import CALL_CONTEXT, CALL_FEATURES, TICHU_FEATURES, TICHU_SHAPE

TICHU = (-2.3001, 0.7635, 0.3830, 1.4948, 1.0654, 0.7329, 0.0232, 0.4748, 0.0512, -0.0715)
GT = (-1.5016, 0.5460, 0.2874, 0.9867, 0.7661, 0.5562, -0.0205, 0.2109, 0.0234, -0.0217)
PLAY = {
    "attack_bonus": 0.8941,
    "bomb_points": 6.556,
    "bomb_threat": 1,
    "control_cost": 1.516,
    "dog_partner_cards": 14,
    "follow_margin": 8,
    "partner_lead": 3,
    "point_weight": 0.01146,
    "short_opp": 1.705,
    "sure_cost": 2.158,
    "sure_keep": 0.9147,
    # the knobs added since, at the values that play as before them
    "caller_overtake": -100,
    "hold_margin": 0,
    "retake_lead": 0,
    "caller_gift": 13,
}
# ade55d8's Nanjing rows
TICHU_ADE = (-2.5255, 0.7849, 0.3782, 1.5434, 1.0837, 0.4968, -0.0531, 0.4521, 0.0279, -0.0255)
GT_ADE = (-1.6213, 0.5642, 0.2867, 1.0874, 0.7367, 0.3817, -0.0509, 0.3822, 0.0315, -0.0055)


def old_calls(tichu, gt) -> dict:
    """A call rule from before the context and the call after passing: the hand's features
    only, Tichu before passing only, over a partner's call only past 3 (``tichu_over_partner``
    then)."""
    params = {f"tichu_value_{f}": c for f, c in zip(CALL_FEATURES, tichu, strict=True)}
    params |= {f"tichu_value_{f}": 0.0 for f in TICHU_SHAPE + CALL_CONTEXT}
    params |= {"tichu_value_partner": -3.0, "tichu_over_partner": 0.0}
    params |= {f"tichu_after_{f}": 0.0 for f in TICHU_FEATURES}
    params["tichu_after_intercept"] = -50.0
    return params | {f"gt_value_{f}": c for f, c in zip(CALL_FEATURES, gt, strict=True)}


BEFORE = {"base": "expert", "name": "expert-before", "params": {**PLAY, **old_calls(TICHU, GT)}}
CALLS_BEFORE = {
    "base": "expert",
    "name": "expert-calls-before",
    "params": old_calls(TICHU_ADE, GT_ADE),
}

if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--calls", action="store_true", help="against ade55d8's call rule")
    a = ap.parse_args()
    other = CALLS_BEFORE if a.calls else BEFORE
    r = duplicate("expert", other, a.deals, seed=a.seed)
    print(f"expert - {other['name']}, {a.deals:,} deals, seed {a.seed}: {r.diff.pts()}")
    print(r.per_strategy.to_string())
