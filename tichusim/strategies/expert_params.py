"""The ``expert`` strategy's fitted and tuned numbers (written by the scripts that make them).

``TICHU_VALUE`` / ``TICHU_AFTER`` / ``GT_VALUE``: the value call policy's coefficients over
``tichu.TICHU_FEATURES`` (Tichu before and after passing: the hand's features, then the call's
public context) and ``tichu.CALL_FEATURES`` (Grand Tichu), intercept first, one row per team
table (the games' names): a call's
worth depends on the table (hand sizes, Tientsin's 6-card Grand Tichu, Wu Wang's King playing
two hands), so each table's are fitted there by ``scripts/fit_expert_calls.py --variant``, and
a strategy's parameter row is built for the table it plays (``tichu.TABLE_PARAMS``);
``PLAY``: play parameters tuned by ``scripts/tune_expert.py`` (CMA-ES on duplicate matches,
Nanjing).
"""

TICHU_VALUE: dict[str, tuple[float, ...]] = {
    "nanjing": (-2.1048, 0.6591, 0.3345, 1.1603, 0.8416, 0.5180, -0.0198, 0.3915, 0.0242, -0.0226, -7.9171, -0.5590, -0.2047),
    "tientsin": (0.1040, 0.8808, 0.4258, 1.8387, 0.8474, 0.0979, 0.4583, 1.0050, 0.0290, -0.3162, -3.0000, 0.0000, 0.0000),
    "wuwang": (-2.2787, 0.7155, 0.3769, 1.2201, 0.8402, 0.4805, 0.1319, 0.4264, 0.0703, -0.0983, -3.0000, 0.0000, 0.0000),
}
TICHU_AFTER: dict[str, tuple[float, ...]] = {
    "nanjing": (-1.2665, 0.6388, 0.3603, 1.3480, 0.6209, -0.7553, 0.3053, 0.6422, 0.0896, -0.2261, -1.9355, -1.0731, -0.8803),
    "tientsin": (-50.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000),
    "wuwang": (-50.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000),
}
GT_VALUE: dict[str, tuple[float, ...]] = {
    "nanjing": (-1.5094, 0.5583, 0.2818, 1.0667, 0.7193, 0.3994, -0.0441, 0.2615, 0.0283, -0.0143),
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
