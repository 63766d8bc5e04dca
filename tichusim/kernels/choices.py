"""Choices both families' policies make alike (RULES.md §2.5-§2.11; two decks, §5).

The lowest play of a list, the lowest single worked out from the bits, and the kind of play a
random lead draws: ``kernels/tichu/policies.py`` and ``kernels/seigneur/policies.py`` call
these, so the two games' ``lowest`` and ``random`` strategies choose by one definition.
"""

import numpy as np

from .bits import (
    DOG,
    DRAGON,
    MAH_JONG,
    NORMAL,
    ONE,
    PHOENIX,
    RANK_COLUMN,
    U64,
    ZERO,
    lowest_bit_index,
    popcount,
    rank_cards,
    ranks_held,
)
from .combos import (
    BOMB_FOUR,
    DOG_LEAD,
    RANK2_MAH_JONG,
    RANK2_PHOENIX_LED,
    RANK2_PHOENIX_LED_HALF,
    SINGLE,
    make_code,
)
from .jit import njit
from .moves import LEAD_CATEGORIES
from .rng import rand_below

MOVES_OVERFLOW = -2  # a play policy's answer when the move buffers were too small


@njit(cache=True, inline="always")  # inlined: as fast as the copies it replaces
def draw_lead_category(me, tried):
    """Index into ``LEAD_CATEGORIES`` of a category drawn uniformly, from the seat's stream,
    among those not in the bitmask ``tried`` (the categories a random lead found empty)."""
    me.rng, j = rand_below(me.rng, len(LEAD_CATEGORIES) - popcount(U64(tried)))
    c = 0
    while True:  # the j-th untried category
        if not tried & (1 << c):
            if j == 0:
                return c
            j -= 1
        c += 1


@njit(cache=True)
def lowest_index(codes, n):
    """Index of the lowest play: non-bombs first, then by rank, then by fewer cards."""
    best = 0
    best_key = np.int64(1) << 62
    for i in range(n):
        c = codes[i]
        key = ((1 if (c >> 16) >= BOMB_FOUR else 0) << 40) | ((c & 0xFF) << 16) | ((c >> 8) & 0xFF)
        if key < best_key:
            best_key = key
            best = i
    return best


@njit(cache=True, inline="always")  # one call per play, as before the games shared it
def lowest_single_valued(hand, top, wish, phoenix_code, dragon_code):
    """``lowest_single`` with the codes of the Phoenix and the Dragon played as singles on
    ``top`` given (0: they cannot be played on it): the one thing the games value their own
    way (§2.6; two decks, §5). Picks what ``lowest_index`` picks from the generated list (ties:
    the lowest suit, a card before the Phoenix)."""
    if wish != 0 and hand & rank_cards(wish):
        return ZERO, 0  # a binding wish: the lowest play with the rank may be a full house
    if top == 0:
        if hand & DOG:
            return DOG, make_code(DOG_LEAD, 1, 0)
        if hand & PHOENIX and (phoenix_code & 0xFF) < RANK2_MAH_JONG:
            return PHOENIX, phoenix_code  # led as ½ (§2.6 Option): below the Mah Jong
        if hand & MAH_JONG:
            return MAH_JONG, make_code(SINGLE, 1, RANK2_MAH_JONG)
        if hand & PHOENIX:
            return PHOENIX, make_code(SINGLE, 1, RANK2_PHOENIX_LED)
    elif (top >> 8) != (SINGLE << 8) | 1:
        return ZERO, 0
    r2 = top & 0xFF
    if r2 == RANK2_PHOENIX_LED_HALF and hand & MAH_JONG:
        return MAH_JONG, make_code(SINGLE, 1, RANK2_MAH_JONG)  # on a Phoenix led as ½ (§2.6)
    above = hand & NORMAL & ~(RANK_COLUMN * ((ONE << U64(r2 // 2 + 1)) - ONE))
    best = ZERO
    best_r2 = 99
    if above != ZERO:
        r = lowest_bit_index(ranks_held(above))
        c = above & rank_cards(r)
        best = c & (~c + ONE)
        best_r2 = 2 * r
    if top != 0 and hand & PHOENIX and phoenix_code != 0 and (phoenix_code & 0xFF) < best_r2:
        best = PHOENIX  # half a rank above the top (§2.6)
        best_r2 = phoenix_code & 0xFF
    if best == ZERO and hand & DRAGON and dragon_code != 0:
        return DRAGON, dragon_code
    if best == ZERO:
        return ZERO, 0  # nothing but bombs, or nothing: the full list decides
    return best, make_code(SINGLE, 1, best_r2)
