"""Hand helpers for strategies and the engine, jitted: rank counts, card points, the play
order of cards, and the hand analysis the scripted strategies share (how many plays a hand
needs, loose cards). The Grand Seigneur policies (``seigneur.policies``) use them too.

Bombs in a hand: ``moves.has_bomb`` and ``moves.gen_bombs``.
"""

from numba import types

from .bits import (
    DOG,
    DRAGON,
    LANE,
    MAH_JONG,
    ONE,
    PHOENIX,
    RANK_COLUMN,
    RANK_LANE,
    U64,
    ZERO,
    highest_bit_index,
    lowest_bit_index,
    popcount,
    rank_cards,
    rank_multiplicity,
    ranks_held,
    runs_ending,
)
from .jit import njit

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


@njit(cache=True)
def card_value(bit):
    """Play order of a card bit: Dog 0, Mah Jong 1, ranks 2..14, Phoenix 15, Dragon 16."""
    if bit == 0:
        return 0
    if bit == 1:
        return 1
    if bit == 16:
        return 15
    if bit == 15:
        return 16
    return bit & 15


@njit(cache=True)
def lowest_card(cards):
    """The lowest card of a non-empty set by ``card_value`` (ties: the lowest suit)."""
    best = ZERO
    best_v = 99
    x = cards
    while x != ZERO:
        b = lowest_bit_index(x)
        x &= x - ONE
        v = card_value(b) * 4 + (b >> 4)
        if v < best_v:
            best_v = v
            best = ONE << U64(b)
    return best


@njit(cache=True)
def highest_card(cards):
    """The highest card of a non-empty set by ``card_value`` (ties: the highest suit)."""
    best = ZERO
    best_v = -1
    x = cards
    while x != ZERO:
        b = lowest_bit_index(x)
        x &= x - ONE
        v = card_value(b) * 4 + (b >> 4)
        if v > best_v:
            best_v = v
            best = ONE << U64(b)
    return best


@njit(cache=True, inline="always")
def _longest_run(ranks):
    """``(length, tops)`` of the longest runs of at least 5 ranks in a 16-bit rank set: the
    top bits of every run of that length; ``(4, 0)`` when there is none. Grown a rank at a
    time from the runs of 5 (a run of ``k + 1`` ends at a run of ``k`` whose rank ``k`` below
    is held), so a hand without a run of 5, the usual case, costs one test."""
    tops = runs_ending(ranks, 5)
    if tops == ZERO:
        return 4, ZERO
    length = 5
    while length < 14:  # a straight spans 14 ranks at most (the Mah Jong to the Ace)
        longer = tops & (ranks << U64(length))
        if longer == ZERO:
            break
        tops = longer
        length += 1
    return length, tops


@njit(types.int64(types.uint64), cache=True)
def longest_run_top(ranks):
    """(length << 8) | top rank of the longest run of at least 5 ranks in a 16-bit rank set
    (bit 1 = Mah Jong), the highest such run on ties; 0 if there is none."""
    length, tops = _longest_run(ranks)
    if tops == ZERO:
        return 0
    return (length << 8) | highest_bit_index(tops)


@njit(cache=True, inline="always")
def _plan_parts(hand):
    """``plan_bombs_straights`` with the rank sets of the rest held at least once, twice and
    three times: ``(rest, bombs, straights, ge1, ge2, ge3)``. Without a straight (the usual
    case) the rank sets are the hand's less its four-of-a-kinds, counted once."""
    ge1, ge2, ge3, fours = rank_multiplicity(hand)
    bombs = popcount(fours)
    h = hand & ~(fours * RANK_COLUMN)  # the four cards of each such rank
    ge1 &= ~fours
    ge2 &= ~fours
    ge3 &= ~fours
    ranks = ge1 | (h & MAH_JONG)  # ranks_held(h)
    straights = 0
    for _ in range(2):  # at most two straights out of what is left
        length, tops = _longest_run(ranks)
        if tops == ZERO:
            break
        top = highest_bit_index(tops)
        run = ((ONE << U64(length)) - ONE) << U64(top - length + 1)
        # one card of each rank of the run, the lowest suit: in lane 0 (the Mah Jong for
        # rank 1), else in the first lane above that holds the rank
        a = h & LANE
        b = (h >> U64(16)) & RANK_LANE
        c = (h >> U64(32)) & RANK_LANE
        d = (h >> U64(48)) & RANK_LANE
        taken = run & a
        taken |= (run & b & ~a) << U64(16)
        taken |= (run & c & ~(a | b)) << U64(32)
        taken |= (run & d & ~(a | b | c)) << U64(48)
        h &= ~taken
        straights += 1
        ranks = ranks_held(h)
    if straights:
        ge1, ge2, ge3, _ = rank_multiplicity(h)
    return h, bombs, straights, ge1, ge2, ge3


@njit(cache=True, inline="always")  # in plan_size's own code: a call was measurably slower
def plan_bombs_straights(hand):
    """The first steps of ``plan_size``'s partition: ``(rest, bombs, straights)``, ``hand``
    less its four-of-a-kinds (``bombs`` of them) and then less up to two straights, longest
    first (``straights`` of them)."""
    h, bombs, straights, _, _, _ = _plan_parts(hand)
    return h, bombs, straights


@njit(types.int64(types.uint64), cache=True)
def plan_size(hand):
    """How many plays a hand needs to be played out: a greedy partition into bombs, straights
    (longest first), stairs, full houses, triples, pairs and singles; the Phoenix completes a
    single, the Dog and the Dragon are a play each. Strategies compare it before and after a
    candidate play, so an estimate that is cheap and consistent matters more than exactness."""
    h, bombs, straights, ge1, ge2, ge3 = _plan_parts(hand)
    plays = bombs + straights
    if h & DOG:
        plays += 1
    if h & DRAGON:
        plays += 1
    triples = popcount(ge3)
    pairs = ge2 & ~ge3
    in_stairs = pairs & ((pairs << ONE) | (pairs >> ONE))  # pairs with a paired neighbour
    stairs = popcount(pairs & (pairs >> ONE) & ~(pairs << ONE))  # starts of such runs
    loose_pairs = popcount(pairs & ~in_stairs)
    full_houses = min(triples, loose_pairs)
    plays += triples + stairs + loose_pairs - full_houses
    singles = popcount(ge1 & ~ge2) + (1 if h & MAH_JONG else 0)
    if h & PHOENIX and singles > 0:
        singles -= 1  # the Phoenix pairs one single
    return plays + singles


@njit(types.uint64(types.uint64, types.uint64, types.uint64), cache=True)
def loose_cards_counted(hand, ge1, ge2):
    """The loose cards of ``hand`` (see ``loose_cards``) from its rank sets held at least once
    (``ge1``) and at least twice (``ge2``): one deck counts them with ``rank_multiplicity``, two
    decks with ``seigneur.cards.rank_sets`` (where a card held twice is a pair)."""
    in_runs = ZERO
    tops = runs_ending(ranks_held(hand), 5)
    while tops != ZERO:
        t = lowest_bit_index(tops)
        tops &= tops - ONE
        in_runs |= ((ONE << U64(5)) - ONE) << U64(t - 4)
    alone = ge1 & ~ge2 & ~in_runs
    out = hand & DOG
    while alone != ZERO:
        r = lowest_bit_index(alone)
        alone &= alone - ONE
        out |= hand & rank_cards(r)
    return out


@njit(types.uint64(types.uint64), cache=True)
def loose_cards(hand):
    """Normal cards and the Dog that break no combination if given away: alone of their rank,
    outside every run of five ranks and every bomb (the Mah Jong, Phoenix and Dragon are never
    loose: they are worth keeping or giving to a partner)."""
    ge1, ge2, _, _ = rank_multiplicity(hand)
    return loose_cards_counted(hand, ge1, ge2)


__all__ = [
    "card_points",
    "card_value",
    "highest_card",
    "longest_run_top",
    "loose_cards",
    "loose_cards_counted",
    "lowest_card",
    "plan_bombs_straights",
    "plan_size",
    "rank_counts",
]
