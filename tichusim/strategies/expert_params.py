"""The ``expert`` strategy's fitted and tuned numbers (written by the scripts that make them).

``TICHU_VALUE`` / ``GT_VALUE``: the value call policy's coefficients over
``tichu.CALL_FEATURES`` (intercept first), fitted by ``scripts/fit_expert_calls.py``;
``PLAY``: play parameters tuned by ``scripts/tune_expert.py`` (CMA-ES on duplicate matches).
"""

TICHU_VALUE = (-2.0151, 0.6668, 0.3003, 1.3642, 1.0772, 0.7821, 0.0240, 0.4543, 0.0553, -0.0873)
GT_VALUE = (-1.2851, 0.4821, 0.2257, 0.8849, 0.7627, 0.6023, -0.0533, 0.0221, 0.0108, -0.0299)
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
