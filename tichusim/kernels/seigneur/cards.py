"""Card multisets for Grand Seigneur with one or two decks (RULES.md §5), jitted.

A hand may hold both copies of a card when two decks are in play, so a card set is a
*multiset*, written as two ``uint64`` masks in the one-deck layout of ``tichusim.cards``::

    a  (copy A): bit set  <=>  the set holds at least one copy of the card
    b  (copy B): bit set  <=>  the set holds both copies
    invariant:   b & ~a == 0          (count of a card = a bit + b bit, 0..2)

    each mask, as in tichusim.cards (bit = 16 * suit + rank):

    bit   63 .......... 48 47 .......... 32 31 .......... 16 15 .......... 0
          lane 3: Star (t) lane 2: Pagoda  lane 1: Sword (s) lane 0: Jade (j)
          15  14 13 12 11 10  9  8  7  6  5  4  3  2   1    0      (inside a lane)
          --  A  K  Q  J  T   9  8  7  6  5  4  3  2   --   --
    specials: bit 1 Mah Jong, bit 15 Dragon, bit 0 Dog, bit 16 Phoenix

    example: 7j 7j 7s Dr Dr Ph   ->  a = 7j | 7s | Dr | Ph,  b = 7j | Dr

Why two masks in the old layout rather than a new one: every question that does not care
about duplicates is asked of ``a`` alone with the one-deck kernels, unchanged:

* ranks held, straights (one card per rank), the Mah Jong's place in them: ``ranks_held(a)``;
* four-of-a-kind bombs, which with two decks need **four different suits** (§5): the one-deck
  test ``a_lane0 & a_lane1 & a_lane2 & a_lane3`` is exactly "all four suits present";
* straight flushes, which need **one suit** (§5): runs inside one lane of ``a``.

Only pairs, triples, full houses and stairs may hold both copies of a card; their generators
and the classifier look at ``b`` as well (``moves``, ``combos``). The count of rank
``r`` is ``popcount(a & rank_cards(r)) + popcount(b & rank_cards(r))`` (0..8), and the
bit-sliced rank sets of ``rank_sets`` answer "which ranks are held at least 1, 2, 3 times".

Decks (§5): one Tichu deck for 5-6 players, two for 7-12; the Dogs are removed and, with two
decks, the second Mah Jong (55 or 109 cards). Option (Russian edition): 108 cards, two sets
of the 52 ranked cards and one set of specials with the Dog.
"""

import numpy as np
from numba import types

from ..bits import (
    DOG,
    DRAGON,
    NORMAL,
    ONE,
    PHOENIX,
    SPECIALS,
    U64,
    ZERO,
    lowest_bit_index,
    popcount,
    rank_cards,
    rank_multiplicity,
)
from ..jit import njit

DECK_ONE = 0  # one deck, no Dog: 55 cards
DECK_TWO = 1  # two decks, no Dogs, one Mah Jong: 109 cards
DECK_RUSSIAN = 2  # Option (Russian edition): 2 x 52 + Mah Jong, Dog, Phoenix, Dragon: 108

DECK_NAMES = ("one deck (55 cards)", "two decks (109 cards)", "Russian edition (108 cards)")
MAX_CARDS = 112  # room for any deck's card list

_FULL = NORMAL | SPECIALS
DECK_A = np.array([_FULL & ~DOG, _FULL & ~DOG, _FULL], dtype=np.uint64)
DECK_B = np.array([0, NORMAL | PHOENIX | DRAGON, NORMAL], dtype=np.uint64)


def _card_list(a, b):
    """Bit indices of a deck's cards, a card held twice listed twice (the order to shuffle)."""
    out = [i for i in range(64) if int(a) >> i & 1]
    out += [i for i in range(64) if int(b) >> i & 1]
    return np.array(out, dtype=np.int64)


CARD_LISTS = np.zeros((3, MAX_CARDS), dtype=np.int64)
DECK_SIZES = np.zeros(3, dtype=np.int64)
for _k in range(3):
    _cards = _card_list(DECK_A[_k], DECK_B[_k])
    CARD_LISTS[_k, : len(_cards)] = _cards
    DECK_SIZES[_k] = len(_cards)
del _k, _cards

# "Best" order of the forced exchange (§5): Dragon, Phoenix, Mah Jong, (the Dog, Russian
# edition's order), A, K, ..., 2. Values above the ranks 2..14:
BEST_DRAGON, BEST_PHOENIX, BEST_MAH_JONG, BEST_DOG = 18, 17, 16, 15


@njit(
    types.UniTuple(types.uint64, 2)(types.uint64, types.uint64, types.uint64),
    cache=True,
    inline="always",
)
def add_card(a, b, bit):
    """Add one copy of the card ``bit`` (a single-bit mask) to the multiset ``(a, b)``."""
    if a & bit:
        return a, b | bit
    return a | bit, b


@njit(
    types.UniTuple(types.uint64, 2)(types.uint64, types.uint64, types.uint64, types.uint64),
    cache=True,
    inline="always",
)
def ms_add(a, b, xa, xb):
    """The multiset sum ``(a, b) + (xa, xb)``; no card may exceed two copies."""
    single = xa & ~xb  # cards added once: a second copy where one is held
    return a | xa, b | xb | (single & a)


@njit(
    types.UniTuple(types.uint64, 2)(types.uint64, types.uint64, types.uint64, types.uint64),
    cache=True,
    inline="always",
)
def ms_remove(a, b, xa, xb):
    """The multiset difference ``(a, b) - (xa, xb)``, ``(xa, xb)`` contained in ``(a, b)``."""
    single = xa & ~xb  # cards removed once: the last copy goes where only one is held
    return a & ~xb & ~(single & ~b), b & ~xb & ~single


@njit(
    types.boolean(types.uint64, types.uint64, types.uint64, types.uint64),
    cache=True,
    inline="always",
)
def ms_contains(a, b, xa, xb):
    """Whether the multiset ``(xa, xb)`` is contained in ``(a, b)`` (both canonical)."""
    return xa & ~a == ZERO and xb & ~b == ZERO


@njit(types.int64(types.uint64, types.uint64), cache=True, inline="always")
def ms_size(a, b):
    return popcount(a) + popcount(b)


@njit(types.int64(types.uint64, types.uint64, types.int64), cache=True, inline="always")
def rank_count(a, b, rank):
    """Cards of normal rank ``rank`` (2..14) in the multiset, 0..8."""
    return popcount(a & rank_cards(rank)) + popcount(b & rank_cards(rank))


@njit(types.UniTuple(types.uint64, 5)(types.uint64, types.uint64), cache=True, inline="always")
def rank_sets(a, b):
    """16-bit rank sets (ranks 2..A) of the multiset: held at least once, twice, three times;
    held in three different suits; held in all four suits (a four-of-a-kind bomb, §5).

    With ``b`` a subset of ``a``: count >= 2 iff two suits or a doubled card; count >= 3 iff
    three suits, or two suits one of them doubled."""
    ge1, ge2a, ge3a, ge4a = rank_multiplicity(a)
    dup = rank_multiplicity(b)[0]
    return ge1, ge2a | dup, ge3a | (ge2a & dup), ge3a, ge4a


@njit(types.int64(types.int64), cache=True, inline="always")
def best_value(bit):
    """Order of the forced exchange (§5): higher is better; ties of one rank by suit."""
    if bit == 15:
        return 4 * BEST_DRAGON
    if bit == 16:
        return 4 * BEST_PHOENIX
    if bit == 1:
        return 4 * BEST_MAH_JONG
    if bit == 0:
        return 4 * BEST_DOG
    return 4 * (bit & 15) + (bit >> 4)


@njit(types.uint64(types.uint64), cache=True)
def best_card(a):
    """The best card of a non-empty card set by ``best_value`` (a single-bit mask).

    Decision: among cards of one rank the Star is given first, then Pagoda, Sword, Jade (the
    rules name no suit order; a fixed one keeps the forced gift a rule, not a choice)."""
    best = -1
    out = ZERO
    x = a
    while x != ZERO:
        i = lowest_bit_index(x)
        x &= x - ONE
        v = best_value(i)
        if v > best:
            best = v
            out = ONE << U64(i)
    return out


@njit(types.UniTuple(types.uint64, 2)(types.uint64, types.uint64, types.int64), cache=True)
def best_cards(a, b, k):
    """The ``k`` best cards of the multiset ``(a, b)`` as a multiset: the forced gift (§5)."""
    ga = ZERO
    gb = ZERO
    for _ in range(k):
        c = best_card(a)
        if c == ZERO:
            break
        a, b = ms_remove(a, b, c, ZERO)
        ga, gb = add_card(ga, gb, c)
    return ga, gb


@njit(
    types.UniTuple(types.uint64, 3)(
        types.uint64, types.uint64, types.uint64, types.uint64, types.uint64
    ),
    cache=True,
    inline="always",
)
def tally(c0, c1, over, a, b):
    """Add the multiset ``(a, b)`` to a per-card counter kept as bit slices ``c0 + 2 * c1``;
    ``over`` collects cards counted more than three times. The invariant checker tallies every
    place a card can be and compares the counter with the deck."""
    for x in (a, b):
        carry = c0 & x
        c0 ^= x
        over |= c1 & carry
        c1 |= carry
    return c0, c1, over


@njit(types.boolean(types.uint64, types.uint64, types.uint64, types.int64), cache=True)
def tally_is_deck(c0, c1, over, deck):
    """Whether a tally counts every card of deck ``deck`` exactly as often as the deck has it."""
    da = DECK_A[deck]
    db = DECK_B[deck]
    return over == ZERO and c1 == db and c0 == da & ~db


__all__ = [
    "BEST_DOG",
    "BEST_DRAGON",
    "BEST_MAH_JONG",
    "BEST_PHOENIX",
    "CARD_LISTS",
    "DECK_A",
    "DECK_B",
    "DECK_NAMES",
    "DECK_ONE",
    "DECK_RUSSIAN",
    "DECK_SIZES",
    "DECK_TWO",
    "MAX_CARDS",
    "add_card",
    "best_card",
    "best_cards",
    "best_value",
    "ms_add",
    "ms_contains",
    "ms_remove",
    "ms_size",
    "rank_count",
    "rank_sets",
    "tally",
    "tally_is_deck",
]
