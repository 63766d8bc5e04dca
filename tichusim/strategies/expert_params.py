"""The ``expert`` strategy's fitted and tuned numbers (written by the scripts that make them).

``TICHU_VALUE`` / ``GT_VALUE``: the value call policy's coefficients over
``tichu.CALL_FEATURES`` (intercept first), one row per team table (the games' names): a call's
worth depends on the table (hand sizes, Tientsin's 6-card Grand Tichu, Wu Wang's King playing
two hands), so each table's are fitted there by ``scripts/fit_expert_calls.py --variant``, and
a strategy's parameter row is built for the table it plays (``tichu.TABLE_PARAMS``);
``PLAY``: play parameters tuned by ``scripts/tune_expert.py`` (CMA-ES on duplicate matches,
Nanjing).
"""

TICHU_VALUE: dict[str, tuple[float, ...]] = {
    "nanjing": (-2.5255, 0.7849, 0.3782, 1.5434, 1.0837, 0.4968, -0.0531, 0.4521, 0.0279, -0.0255),
    "tientsin": (0.4318, 0.8982, 0.4043, 1.8737, 0.7082, 0.3722, 0.5995, 1.0740, -0.0088, -0.4207),
    "wuwang": (-2.2366, 0.6970, 0.3825, 1.2631, 0.8149, 0.6122, 0.1559, 0.5208, 0.0720, -0.1242),
}
GT_VALUE: dict[str, tuple[float, ...]] = {
    "nanjing": (-1.6213, 0.5642, 0.2867, 1.0874, 0.7367, 0.3817, -0.0509, 0.3822, 0.0315, -0.0055),
    "tientsin": (-0.4251, 0.6618, 0.2909, 1.2038, 0.5006, 0.2206, 0.3476, 0.8025, -0.0550, -0.2569),
    "wuwang": (-1.4297, 0.5278, 0.2930, 0.9084, 0.6774, 0.5866, -0.0136, 0.2741, 0.0156, -0.0313),
}
PLAY: dict[str, float] = {
    "attack_bonus": 0.8941,
    "bomb_points": 15,
    "bomb_threat": 1,
    "caller_gift": 7,
    "caller_overtake": 1,
    "control_cost": 1.516,
    "dog_partner_cards": 14,
    "follow_margin": 8,
    "hold_margin": 14,
    "partner_lead": 3,
    "point_weight": 0.01146,
    "retake_lead": -0.75,
    "short_opp": 1.705,
    "sure_cost": 2.158,
    "sure_keep": 0.9147,
}
