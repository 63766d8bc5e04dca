"""Duplicate match of the committed ``expert`` against ``expert`` as it was before issue 16's
play around a call (commit fc84436: its call coefficients and play values, the new play knobs
at their neutral values), on paired deals (results/expert/README.md).

    NUMBA_NUM_THREADS=1 python scripts/expert_vs_before.py [--deals 100000] [--seed 7]
"""
import argparse

from tichusim.analysis.duplicate import duplicate
from tichusim.strategies.tichu import CALL_FEATURES

TICHU = (-2.3001, 0.7635, 0.3830, 1.4948, 1.0654, 0.7329, 0.0232, 0.4748, 0.0512, -0.0715)
GT = (-1.5016, 0.5460, 0.2874, 0.9867, 0.7661, 0.5562, -0.0205, 0.2109, 0.0234, -0.0217)
PLAY = {"attack_bonus": 0.8941, "bomb_points": 6.556, "bomb_threat": 1, "control_cost": 1.516,
        "dog_partner_cards": 14, "follow_margin": 8, "partner_lead": 3, "point_weight": 0.01146,
        "short_opp": 1.705, "sure_cost": 2.158, "sure_keep": 0.9147,
        # the knobs added since, at the values that play as before them
        "caller_overtake": -100, "hold_margin": 0, "retake_lead": 0, "caller_gift": 13}
BEFORE = {"base": "expert", "name": "expert-before", "params": {
    **PLAY, **{f"tichu_value_{f}": c for f, c in zip(CALL_FEATURES, TICHU, strict=True)},
    **{f"gt_value_{f}": c for f, c in zip(CALL_FEATURES, GT, strict=True)}}}

if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    r = duplicate("expert", BEFORE, a.deals, seed=a.seed)
    print(f"expert - expert-before, {a.deals:,} deals, seed {a.seed}: {r.diff.pts()}")
    print(r.per_strategy.to_string())
