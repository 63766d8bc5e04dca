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
    "nanjing": (-2.3001, 0.7635, 0.3830, 1.4948, 1.0654, 0.7329, 0.0232, 0.4748, 0.0512, -0.0715),
    "tientsin": (-2.3001, 0.7635, 0.3830, 1.4948, 1.0654, 0.7329, 0.0232, 0.4748, 0.0512, -0.0715),
    "wuwang": (-2.3001, 0.7635, 0.3830, 1.4948, 1.0654, 0.7329, 0.0232, 0.4748, 0.0512, -0.0715),
}
GT_VALUE: dict[str, tuple[float, ...]] = {
    "nanjing": (-1.5016, 0.5460, 0.2874, 0.9867, 0.7661, 0.5562, -0.0205, 0.2109, 0.0234, -0.0217),
    "tientsin": (-1.5016, 0.5460, 0.2874, 0.9867, 0.7661, 0.5562, -0.0205, 0.2109, 0.0234, -0.0217),
    "wuwang": (-1.5016, 0.5460, 0.2874, 0.9867, 0.7661, 0.5562, -0.0205, 0.2109, 0.0234, -0.0217),
}
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
