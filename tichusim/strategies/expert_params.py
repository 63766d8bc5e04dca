"""The ``expert`` strategy's fitted and tuned numbers (written by the scripts that make them).

``TICHU_VALUE`` / ``GT_VALUE``: the value call policy's coefficients over
``tichu.CALL_FEATURES`` (intercept first), fitted by ``scripts/fit_expert_calls.py``;
``PLAY``: play parameters tuned by ``scripts/tune_expert.py`` (CMA-ES on duplicate matches).
"""

TICHU_VALUE = (-1.5, 1.25, 0.25, 3.0, 2.5, -0.5, 0.0, 3.0, 0.0, -1.0)
GT_VALUE = (-1.0, 1.25, 0.25, 3.0, 2.5, -0.5, 0.0, 3.0, 0.0, -1.0)
PLAY: dict[str, float] = {}
