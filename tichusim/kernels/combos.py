"""Combination codes, classification and the beat relation (RULES.md §2.5–§2.7).

A combination is described by one ``int64`` *code* (the closed-form id idea of OpenSpiel's
Dou Dizhu utilities)::

    code = kind << 16 | length << 8 | rank2          (0 = no combination: a pass / an empty trick)

* ``kind``: ``SINGLE`` … ``BOMB_SF`` below; the two bomb kinds are numbered last and highest.
* ``length``: number of cards (stairs: cards, not pairs).
* ``rank2``: the comparing rank in **half ranks**, so the Phoenix single fits: Mah Jong 2,
  ranks 2..A are 4..28, Dragon 30; a Phoenix single is one above the single it was played on
  (``top + 1``) and 3 (= 1½) when led (RULES.md §2.6), or 1 (= ½) under the French edition's
  Option, where the Mah Jong (2) beats it (``RANK2_PHOENIX_LED_HALF``; the engine gives a led
  lone Phoenix that code, ``engine.py``).

Because kind, then length, then rank sit from the high bits down, bombs compare as plain
integers: a straight flush (kind 9) beats any four of a kind (kind 8), a longer straight flush a
shorter one, and equal lengths compare by top rank (§2.7).
"""

import numpy as np
from numba import types

from .bits import (
    DOG,
    DRAGON,
    MAH_JONG,
    PHOENIX,
    U64,
    ZERO,
    highest_bit_index,
    lane,
    lowest_bit_index,
    popcount,
    rank_multiplicity,
    ranks_held,
)
from .jit import njit

SINGLE = 1
PAIR = 2
TRIPLE = 3
STAIRS = 4
FULL_HOUSE = 5
STRAIGHT = 6
DOG_LEAD = 7
BOMB_FOUR = 8
BOMB_SF = 9

KIND_NAMES = (
    "pass",
    "single",
    "pair",
    "triple",
    "stairs",
    "full house",
    "straight",
    "dog",
    "four-of-a-kind bomb",
    "straight-flush bomb",
)

RANK2_MAH_JONG = 2
RANK2_PHOENIX_LED = 3
RANK2_PHOENIX_LED_HALF = 1  # §2.6 Option (French edition): a led Phoenix is worth ½
RANK2_DRAGON = 30


@njit(types.int64(types.int64, types.int64, types.int64), cache=True, inline="always")
def make_code(kind, length, rank2):
    return (kind << 16) | (length << 8) | rank2


@njit(cache=True, inline="always")
def code_kind(code):
    return code >> 16


@njit(cache=True, inline="always")
def code_length(code):
    return (code >> 8) & 0xFF


@njit(cache=True, inline="always")
def code_rank2(code):
    return code & 0xFF


@njit(types.boolean(types.int64), cache=True, inline="always")
def is_bomb(code):
    return (code >> 16) >= BOMB_FOUR


@njit(types.boolean(types.int64, types.int64), cache=True)
def beats(play, top):
    """Whether combination ``play`` may be played on ``top`` (0 = leading; §2.7, §2.9, §2.10).

    Nothing beats the Dog: it hands the lead on, and the engine leads afresh after it.
    """
    if play == 0:
        return False
    if top == 0:
        return True
    if (top >> 16) == DOG_LEAD or (play >> 16) == DOG_LEAD:
        return False
    if (play >> 16) >= BOMB_FOUR:
        return (top >> 16) < BOMB_FOUR or play > top
    return (play >> 8) == (top >> 8) and (play & 0xFF) > (top & 0xFF)


@njit(types.boolean(types.uint64), cache=True, inline="always")
def _is_run(x):
    """Whether the set bits of non-zero ``x`` are contiguous."""
    y = x >> U64(lowest_bit_index(x))
    return (y & (y + U64(1))) == ZERO


@njit(types.int64(types.int64[:], types.int64), cache=True, inline="always")
def _one(out, code):
    out[0] = code
    return 1


@njit(types.int64(types.uint64, types.int64[:]), cache=True)
def combo_readings(mask, out):
    """Write every reading of the card set ``mask`` into ``out`` (at most 2), highest first.

    Returns how many readings there are (0: not a combination). Several readings arise only
    from the Phoenix: two pairs plus the Phoenix (a full house of either rank) and a run plus the
    Phoenix at either end of a straight (RULES.md §2.5). A lone Phoenix reads as led (1½).
    """
    n = popcount(mask)
    if n == 0:
        return 0
    if n == 1:
        if mask == DOG:
            out[0] = make_code(DOG_LEAD, 1, 0)
        elif mask == DRAGON:
            out[0] = make_code(SINGLE, 1, RANK2_DRAGON)
        elif mask == PHOENIX:
            out[0] = make_code(SINGLE, 1, RANK2_PHOENIX_LED)
        elif mask == MAH_JONG:
            out[0] = make_code(SINGLE, 1, RANK2_MAH_JONG)
        else:
            out[0] = make_code(SINGLE, 1, 2 * (lowest_bit_index(mask) & 15))
        return 1
    if mask & (DOG | DRAGON):
        return 0  # §2.5: Dog and Dragon only alone
    ph = 1 if mask & PHOENIX else 0
    real = mask & ~PHOENIX
    held = ranks_held(real)  # includes the Mah Jong as rank 1
    nheld = popcount(held)
    ge1, ge2, ge3, ge4 = rank_multiplicity(real)
    has_mj = (real & MAH_JONG) != ZERO
    lo = lowest_bit_index(held)
    hi = highest_bit_index(held)
    span = hi - lo + 1

    # Straights (§2.5): distinct ranks, at most one Phoenix; the Mah Jong counts as rank 1.
    if n >= 5 and ge2 == ZERO and nheld == n - ph:
        if ph == 0:
            if span == n:
                suited = False
                if not has_mj:
                    for s in range(4):
                        if lane(real, s) == held:
                            suited = True
                if suited:  # §2.5: a straight flush is always a bomb
                    out[0] = make_code(BOMB_SF, n, 2 * hi)
                else:
                    out[0] = make_code(STRAIGHT, n, 2 * hi)
                return 1
            return 0
        if span == n:  # the Phoenix fills the one gap
            out[0] = make_code(STRAIGHT, n, 2 * hi)
            return 1
        if span == n - 1:  # the Phoenix extends the run at the top or the bottom
            k = 0
            if hi < 14:
                out[k] = make_code(STRAIGHT, n, 2 * (hi + 1))
                k += 1
            if lo > 2:  # never stands for the Mah Jong (rank 1)
                out[k] = make_code(STRAIGHT, n, 2 * hi)
                k += 1
            return k
        return 0
    if has_mj:
        return 0  # §2.5: the Mah Jong is a single or part of a straight, nothing else

    if ph == 0:
        if n == 2 and ge2 != ZERO:
            return _one(out, make_code(PAIR, 2, 2 * lowest_bit_index(ge2)))
        if n == 3 and ge3 != ZERO:
            return _one(out, make_code(TRIPLE, 3, 2 * lowest_bit_index(ge3)))
        if n == 4 and ge4 != ZERO:
            return _one(out, make_code(BOMB_FOUR, 4, 2 * lowest_bit_index(ge4)))
        if n == 5 and nheld == 2 and popcount(ge3) == 1 and ge2 == held and ge4 == ZERO:
            return _one(out, make_code(FULL_HOUSE, 5, 2 * lowest_bit_index(ge3)))
        if n >= 4 and n % 2 == 0 and ge2 == held and ge3 == ZERO and nheld == n // 2:
            if _is_run(held):
                return _one(out, make_code(STAIRS, n, 2 * hi))
        return 0

    # With the Phoenix standing for a rank 2..A (§2.5)
    if n == 2:
        return _one(out, make_code(PAIR, 2, 2 * hi))
    if n == 3 and nheld == 1:
        return _one(out, make_code(TRIPLE, 3, 2 * hi))
    if n == 5 and nheld == 2 and ge4 == ZERO:
        if ge3 != ZERO:  # 3 + 1: the Phoenix completes the pair
            return _one(out, make_code(FULL_HOUSE, 5, 2 * lowest_bit_index(ge3)))
        if ge2 == held:  # 2 + 2: the Phoenix makes either pair the triple
            out[0] = make_code(FULL_HOUSE, 5, 2 * hi)
            out[1] = make_code(FULL_HOUSE, 5, 2 * lo)
            return 2
        return 0
    if n >= 4 and n % 2 == 0 and ge3 == ZERO and nheld == n // 2 and popcount(ge2) == nheld - 1:
        if _is_run(held):
            return _one(out, make_code(STAIRS, n, 2 * hi))
    return 0


@njit(types.int64(types.uint64), cache=True)
def classify(mask):
    """The highest reading of ``mask`` as a code, or 0 if it is no combination."""
    buf = np.zeros(2, np.int64)
    if combo_readings(mask, buf) == 0:
        return 0
    return buf[0]


@njit(types.int64(types.int64, types.int64), cache=True, inline="always")
def phoenix_single(top, leading_value):
    """Code of the Phoenix played as a single on ``top`` (§2.6), 0 if it cannot be."""
    if top == 0:
        return make_code(SINGLE, 1, leading_value)
    if (top >> 8) != ((SINGLE << 8) | 1) or (top & 0xFF) >= RANK2_DRAGON:
        return 0
    return make_code(SINGLE, 1, (top & 0xFF) + 1)


__all__ = [
    "BOMB_FOUR",
    "BOMB_SF",
    "DOG_LEAD",
    "FULL_HOUSE",
    "KIND_NAMES",
    "PAIR",
    "SINGLE",
    "STAIRS",
    "STRAIGHT",
    "TRIPLE",
    "beats",
    "classify",
    "code_kind",
    "code_length",
    "code_rank2",
    "combo_readings",
    "is_bomb",
    "make_code",
    "phoenix_single",
]
