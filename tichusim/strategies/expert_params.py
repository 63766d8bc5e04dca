"""The ``expert`` strategy's fitted and tuned numbers (written by the scripts that make them).

``TICHU_VALUE`` / ``TICHU_AFTER`` / ``GT_VALUE``: the value call policy's coefficients over
``tichu.TICHU_FEATURES`` (Tichu before and after passing: the hand's features, its plan's shape,
the call's public context) and ``tichu.CALL_FEATURES`` (Grand Tichu), intercept first, one row
per team table (the games' names): a call's worth depends on the table (hand sizes,
Tientsin's 6-card Grand Tichu, Wu Wang's King playing two hands), so each table's are fitted
there by ``scripts/fit_expert_calls.py --variant``, and
a strategy's parameter row is built for the table it plays (``tichu.TABLE_PARAMS``);
``PLAY``: play parameters tuned by ``scripts/tune_expert.py`` (CMA-ES on duplicate matches,
Nanjing).
"""

TICHU_VALUE: dict[str, tuple[float, ...]] = {
    "nanjing": (
        -1.2759, 0.6581, 0.3248, 1.1889, 0.7520, 0.5134, -0.0427, 0.3408, -0.0235, -0.1073, 0.0550,
        -0.3023, -7.9144, -0.6028, -0.2254),
    "tientsin": (
        0.1040, 0.8808, 0.4258, 1.8387, 0.8474, 0.0979, 0.4583, 1.0050, 0.0290, -0.3162, 0.0000,
        0.0000, -3.0000, 0.0000, 0.0000),
    "wuwang": (
        -2.2787, 0.7155, 0.3769, 1.2201, 0.8402, 0.4805, 0.1319, 0.4264, 0.0703, -0.0983, 0.0000,
        0.0000, -3.0000, 0.0000, 0.0000),
}
TICHU_AFTER: dict[str, tuple[float, ...]] = {
    "nanjing": (
        -1.0595, 0.6357, 0.3503, 1.2263, 0.5106, -0.8627, 0.3553, 0.5788, 0.0228, -0.1258, -0.2025,
        -0.1242, -1.9625, -1.0117, -0.9135),
    "tientsin": (
        -50.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000,
        0.0000, 0.0000, 0.0000, 0.0000),
    "wuwang": (
        -50.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000,
        0.0000, 0.0000, 0.0000, 0.0000),
}
GT_VALUE: dict[str, tuple[float, ...]] = {
    "nanjing": (-1.5443, 0.5564, 0.2788, 1.0904, 0.7152, 0.3738, -0.0501, 0.2587, 0.0303, -0.0107),
    "tientsin": (-0.8484, 0.6595, 0.3245, 1.2424, 0.6265, 0.0534, 0.2569, 1.0165, -0.0048, -0.1688),
    "wuwang": (-1.3990, 0.5565, 0.2808, 0.9589, 0.7276, 0.4344, -0.0065, 0.2303, 0.0347, -0.0259),
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
