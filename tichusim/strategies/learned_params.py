"""The learned play's own call coefficients, by table (written by
``scripts/fit_expert_calls.py --base learned --ship``).

``expert``'s value calls are fitted with ``expert`` playing every seat. A stronger player goes
out first more often, so its calls pay on weaker hands; where the value policy's coefficients
are fitted with ``learned`` at every seat, they are here, by parameter name (the names of
``tichu.PARAMS``: ``tichu_value_*``, ``gt_value_*``), and a strategy that plays the learned
policy calls by them at that table (``tichu.PLAY_PARAMS``), a strategy's own override still
winning. A table without an entry keeps expert's (``expert_params``).
"""

CALLS: dict[str, dict[str, float]] = {
    "wuwang": {
        "tichu_value_intercept": -0.1386,
        "tichu_value_aces": 0.4653,
        "tichu_value_kings": 0.185,
        "tichu_value_dragon": 0.9867,
        "tichu_value_phoenix": 0.7857,
        "tichu_value_dog": 0.2378,
        "tichu_value_mah_jong": 0.107,
        "tichu_value_bomb": 0.5034,
        "tichu_value_pairs": 0.0139,
        "tichu_value_plays": -0.1944,
        "tichu_value_low_singles": -0.0722,
        "tichu_value_straights": -0.3339,
        "tichu_value_partner": -2.2533,
        "tichu_value_opp_grand": -0.8816,
        "tichu_value_opp_tichu": -0.7048,
        "gt_value_intercept": -0.8975,
        "gt_value_aces": 0.4301,
        "gt_value_kings": 0.1657,
        "gt_value_dragon": 0.9126,
        "gt_value_phoenix": 0.9313,
        "gt_value_dog": 0.302,
        "gt_value_mah_jong": -0.0403,
        "gt_value_bomb": 0.3839,
        "gt_value_pairs": 0.0373,
        "gt_value_plays": -0.0499,
    },
}
