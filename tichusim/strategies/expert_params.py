"""The ``expert`` strategy's fitted and tuned numbers (written by the scripts that make them).

``TICHU_VALUE`` / ``GT_VALUE``: the value call policy's coefficients over
``tichu.CALL_FEATURES`` (intercept first), fitted by ``scripts/fit_expert_calls.py``;
``PLAY``: play parameters tuned by ``scripts/tune_expert.py`` (CMA-ES on duplicate matches).
"""

TICHU_VALUE = (-2.3439, 0.7508, 0.3636, 1.5129, 1.0658, 0.7512, 0.0357, 0.5324, 0.0442, -0.0627)
GT_VALUE = (-1.5499, 0.5299, 0.2643, 1.0070, 0.7833, 0.6048, -0.0376, 0.3535, 0.0266, -0.0167)
PLAY: dict[str, float] = {
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
}
