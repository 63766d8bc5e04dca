"""Combinations of two-deck card multisets (RULES.md §2.5-§2.7 as changed by §5), jitted.

Codes are the one-deck codes of ``combos`` (``kind << 16 | length << 8 | rank2``), so
``combos.beats`` compares two-deck plays unchanged. One value is new: with two decks **a
second Dragon beats the first** (§5), so a Dragon played on a Dragon reads ``rank2 = 31``
(``RANK2_DRAGON2``), one above the led Dragon's 30. Nothing else reaches 31, so the second
Dragon is beaten only by a bomb; the Phoenix still never beats a Dragon (§2.6).

What changes with two decks (§5) and how the classifier reads it:

* a set without a doubled card (``b == 0``) holds at most one card per suit and rank, so its
  readings are exactly the one-deck readings of ``a`` (``combos.combo_readings``): a four of a
  kind is four different suits, a triple three, a straight flush one suit;
* a set with a doubled card can only be a pair, a triple, a full house or stairs (a straight
  needs different ranks; a four-of-a-kind bomb four different suits; a straight flush
  different ranks): ``_readings_doubled`` counts cards per rank.
* **Decision**: a combination holds at most one Phoenix (§2.5 allows one in a straight; two
  wildcards standing for one rank would make pairs of nothing). The second Phoenix is played
  on its own or in another combination.
* **Option** (Russian edition, ``distinct_triples``): the three cards of a triple, alone or in
  a full house, are of three different suits; with the Phoenix the two real cards differ.
"""

import numpy as np
from numba import from_dtype, types

from ..bits import DOG, DRAGON, MAH_JONG, PHOENIX, ZERO, popcount, rank_cards
from ..combos import (
    FULL_HOUSE,
    PAIR,
    RANK2_DRAGON,
    RANK2_PHOENIX_LED,
    SINGLE,
    STAIRS,
    TRIPLE,
    beats,
    combo_readings,
    make_code,
    phoenix_single,
)
from ..jit import njit
from .rules import GS_RULES

RANK2_DRAGON2 = RANK2_DRAGON + 1  # a Dragon played on a Dragon (§5)


@njit(types.int64(types.int64), cache=True, inline="always")
def dragon_single(top):
    """Code of a Dragon played as a single on ``top`` (0 = led): 30, or 31 on a Dragon (§5);
    0 when it cannot be played (on the second Dragon, or on anything but a single)."""
    if top == 0:
        return make_code(SINGLE, 1, RANK2_DRAGON)
    if (top >> 8) != ((SINGLE << 8) | 1):
        return 0
    if (top & 0xFF) == RANK2_DRAGON:
        return make_code(SINGLE, 1, RANK2_DRAGON2)
    if (top & 0xFF) > RANK2_DRAGON:
        return 0
    return make_code(SINGLE, 1, RANK2_DRAGON)


@njit(types.int64(types.int64), cache=True, inline="always")
def phoenix_single2(top):
    """Code of the Phoenix played as a single on ``top`` (0 = led, 1½), 0 if it cannot be.

    As §2.6, half a rank above the single it is played on; with two decks it may land on the
    other Phoenix, and **Decision**: not on a Phoenix worth A½, where it would reach the
    Dragon's value (§2.6: the Phoenix never beats the Dragon; the Dragon beats every single)."""
    code = phoenix_single(top, RANK2_PHOENIX_LED)
    if code != 0 and (code & 0xFF) >= RANK2_DRAGON:
        return 0
    return code


@njit(types.boolean(types.uint64, types.uint64, types.int64), cache=True, inline="always")
def _triple_ok(a, b, rank):
    """The real cards of rank ``rank`` forming a triple (or two of one and the Phoenix) are
    of different suits: none is doubled (the Russian Option)."""
    return b & rank_cards(rank) == ZERO


@njit(types.int64(types.int64[:], types.int64), cache=True, inline="always")
def _one(out, code):
    out[0] = code
    return 1


@njit(types.int64(types.uint64, types.uint64, types.boolean, types.int64[:]), cache=True)
def _readings_doubled(a, b, distinct_triples, out):
    """Readings of a multiset holding some card twice (``b != 0``), at most one Phoenix."""
    ph = 1 if a & PHOENIX else 0
    ra = a & ~PHOENIX
    rb = b
    n = popcount(ra) + popcount(rb)  # real cards
    nheld = 0
    lo = 99
    hi = -1
    ones = 0
    twos = 0
    threes = 0
    more = 0  # ranks held four times or more: in no combination with a doubled card
    r3 = -1
    r2_hi = -1
    r2_lo = -1
    for r in range(2, 15):
        c = popcount(ra & rank_cards(r)) + popcount(rb & rank_cards(r))
        if c == 0:
            continue
        nheld += 1
        lo = min(lo, r)
        hi = max(hi, r)
        if c == 1:
            ones += 1
        elif c == 2:
            twos += 1
            if r2_lo < 0:
                r2_lo = r
            r2_hi = r
        elif c == 3:
            threes += 1
            r3 = r
        else:
            more += 1
    total = n + ph
    if nheld == 1:
        if total == 2 and n == 2:
            out[0] = make_code(PAIR, 2, 2 * lo)
            return 1
        if total == 3 and (distinct_triples is False or _triple_ok(ra, rb, lo)):
            out[0] = make_code(TRIPLE, 3, 2 * lo)  # three real, or two and the Phoenix
            return 1
        return 0
    if total == 5 and nheld == 2:
        if ph == 0 and threes == 1 and twos == 1:
            if distinct_triples and not _triple_ok(ra, rb, r3):
                return 0
            out[0] = make_code(FULL_HOUSE, 5, 2 * r3)
            return 1
        if ph == 1 and threes == 1 and ones == 1:  # the Phoenix completes the pair
            if distinct_triples and not _triple_ok(ra, rb, r3):
                return 0
            out[0] = make_code(FULL_HOUSE, 5, 2 * r3)
            return 1
        if ph == 1 and twos == 2:  # the Phoenix makes either pair the triple
            k = 0
            for r in (r2_hi, r2_lo):
                if distinct_triples is False or _triple_ok(ra, rb, r):
                    out[k] = make_code(FULL_HOUSE, 5, 2 * r)
                    k += 1
            return k
        return 0
    if total >= 4 and total % 2 == 0 and threes == 0 and more == 0 and nheld == total // 2:
        if hi - lo + 1 == nheld and ones == ph:  # consecutive ranks, the Phoenix pairs a single
            return _one(out, make_code(STAIRS, total, 2 * hi))
    return 0


@njit(types.int64(types.uint64, types.uint64, types.boolean, types.int64[:]), cache=True)
def readings(a, b, distinct_triples, out):
    """Every reading of the multiset ``(a, b)`` into ``out`` (at most 2), highest first; returns
    how many (0: no combination). Singles read as led: the Phoenix 1½, the Dragon 30."""
    if b == ZERO:
        return combo_readings(a, out)  # no doubled card: every triple is of three suits
    if b & (PHOENIX | DRAGON | DOG | MAH_JONG):
        return 0  # two Phoenixes (Decision above), two Dragons (only alone, §2.5)
    if a & (DRAGON | DOG | MAH_JONG):
        return 0  # only alone (§2.5), or in a straight of different ranks
    return _readings_doubled(a, b, distinct_triples, out)


@njit(types.int64(types.uint64, types.uint64, types.boolean), cache=True)
def classify(a, b, distinct_triples):
    """The highest reading of ``(a, b)`` as a code (a lone card read as led), 0 if none."""
    buf = np.zeros(2, np.int64)
    if readings(a, b, distinct_triples, buf) == 0:
        return 0
    return buf[0]


@njit(types.int64(types.uint64, types.uint64, types.int64, from_dtype(GS_RULES)), cache=True)
def play_code(a, b, top, rules):
    """The code of playing ``(a, b)`` on ``top`` (0 = leading) under the table's ``rules`` (a
    ``rules.GS_RULES`` record): its highest reading that beats ``top``, the Phoenix and the
    Dragon singles valued against the top (§2.6, §5); 0 if the set is no combination or does
    not beat ``top``. Beating uses ``combos.beats``."""
    if b == ZERO and a == PHOENIX:
        code = phoenix_single2(top)
        return code if code != 0 and (top == 0 or beats(code, top)) else 0
    if b == ZERO and a == DRAGON:
        code = dragon_single(top)
        return code if code != 0 and (top == 0 or beats(code, top)) else 0
    buf = np.zeros(2, np.int64)
    k = readings(a, b, rules.distinct_triples, buf)
    for i in range(k):
        if top == 0 or beats(buf[i], top):
            return buf[i]
    return 0


__all__ = ["RANK2_DRAGON2", "classify", "dragon_single", "phoenix_single2", "play_code", "readings"]
