"""Hand helpers for strategies and the engine: rank counts and card points, jitted.

Bombs in a hand: ``moves.has_bomb`` and ``moves.gen_bombs``.
"""

from numba import njit, types

from .bits import DRAGON, PHOENIX, popcount, rank_cards

_POINT_RANKS = ((5, 5), (10, 10), (13, 10))


@njit(types.void(types.uint64, types.int64[:]), cache=True)
def rank_counts(mask, out):
    """``out[r]`` = number of cards of rank ``r`` (2..14) in ``mask``; ``out`` has length 15."""
    for r in range(15):
        out[r] = 0
    for r in range(2, 15):
        out[r] = popcount(mask & rank_cards(r))


@njit(types.int64(types.uint64), cache=True)
def card_points(mask):
    """Card points of a set (RULES.md §1): 5s 5, 10s and Kings 10, Dragon 25, Phoenix -25."""
    p = 0
    for r, v in _POINT_RANKS:
        p += v * popcount(mask & rank_cards(r))
    if mask & DRAGON:
        p += 25
    if mask & PHOENIX:
        p -= 25
    return p


__all__ = ["card_points", "rank_counts"]
