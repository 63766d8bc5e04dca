"""Features of dealt hands for the Grand Tichu model (``analysis/handclass.py``), jitted.

One row per hand, in the column order of ``handclass.FEATURES``: aces, kings, the four special
cards, a bomb, pairs, the plays a plan needs and the heuristic's strength score (RULES.md §2.2:
the 8 cards seen before a Grand Tichu call, or a whole hand); ``plan_shapes``, the plan's shape
the expert's Tichu scores add (``expert.plan_shape``).
"""

from ..bits import ACES, DOG, DRAGON, KINGS, MAH_JONG, PHOENIX, popcount, rank_multiplicity
from ..hand import plan_size
from ..jit import njit
from ..moves import has_bomb
from .expert import plan_shape
from .policies import strength


@njit(cache=True)
def hand_features(hands, params, out):
    """Fill ``out[i]`` with the features of ``hands[i]`` (``uint64`` masks); ``params`` is the
    strategy row whose strength score is the last column."""
    for i in range(hands.shape[0]):
        h = hands[i]
        out[i, 0] = popcount(h & ACES)
        out[i, 1] = popcount(h & KINGS)
        out[i, 2] = 1.0 if h & DRAGON else 0.0
        out[i, 3] = 1.0 if h & PHOENIX else 0.0
        out[i, 4] = 1.0 if h & DOG else 0.0
        out[i, 5] = 1.0 if h & MAH_JONG else 0.0
        out[i, 6] = 1.0 if has_bomb(h) else 0.0
        out[i, 7] = popcount(rank_multiplicity(h)[1])
        out[i, 8] = plan_size(h)
        out[i, 9] = strength(params, h)


@njit(cache=True)
def plan_shapes(hands, out):
    """Fill ``out[i]`` with ``expert.plan_shape`` of ``hands[i]``: the low singles and the
    straights of its plan (features of the expert's Tichu scores)."""
    for i in range(hands.shape[0]):
        out[i, 0], out[i, 1] = plan_shape(hands[i])


__all__ = ["hand_features", "plan_shapes"]
