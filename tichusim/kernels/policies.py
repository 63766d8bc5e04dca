"""Baseline decision policies: ``random`` and ``lowest`` (the engine's strategy interface).

Every decision function receives the table's public record, the deciding seat's private
record (RULES.md §6, see ``view.py``), the seat's parameters, and the choices the engine has
already worked out where there are some. Dispatch is on a small integer per seat.

Decisions and their answers:

* ``grand_tichu`` / ``tichu``: call or not (``point`` says which Tichu decision point);
* ``passes``: three distinct cards of the hand, for the left opponent, partner, right opponent;
* ``play``: the policy generates the plays it considers into the move buffers (all legal
  plays, or only those of one lead category: enumerating every lead of a 14-card hand costs
  microseconds) and answers an index into them, -1 to pass (only when passing is allowed), or
  ``MOVES_OVERFLOW`` when the buffers were too small;
* ``bomb``: index into the bombs offered out of turn, or -1 (the usual answer);
* ``wish``: a rank 2..14 after playing the Mah Jong, or 0 for none;
* ``dragon``: the opponent seat receiving a trick won with the Dragon.
"""

import numpy as np
from numba import njit

from .bits import ONE, U64, ZERO, lowest_bit_index, popcount, rank_cards
from .combos import DOG_LEAD, SINGLE
from .moves import LEAD_CATEGORIES, keep_wished, lead_moves, legal_moves
from .rng import rand_below

RANDOM = 0
LOWEST = 1
N_STRATEGIES = 2

TICHU_BEFORE_PASSING = 0
TICHU_AFTER_PASSING = 1
TICHU_BEFORE_TURN = 2

MOVES_OVERFLOW = -2  # ``play``'s answer when the move buffers were too small


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
def lowest_cards(hand, k):
    """The ``k`` lowest cards of ``hand`` by ``card_value`` (ties by suit), lowest first."""
    out = np.zeros(k, np.uint64)
    taken = ZERO
    for i in range(k):
        best = -1
        best_v = 99
        x = hand & ~taken
        while x != ZERO:
            b = lowest_bit_index(x)
            x &= x - ONE
            v = card_value(b) * 4 + (b >> 4)
            if v < best_v:
                best_v = v
                best = b
        out[i] = ONE << U64(best)
        taken |= out[i]
    return out


@njit(cache=True)
def random_card(me, exclude):
    """A uniformly random card of the seat's hand outside ``exclude``."""
    x = me.hand & ~exclude
    me.rng, j = rand_below(me.rng, popcount(x))
    for _ in range(j):
        x &= x - ONE
    return x & (~x + ONE)


@njit(cache=True)
def grand_tichu(kind, params, pub, me):
    if kind == RANDOM:
        me.rng, r = rand_below(me.rng, 2)
        return r == 1
    return False


@njit(cache=True)
def tichu(kind, params, pub, me, point):
    if kind == RANDOM:
        me.rng, r = rand_below(me.rng, 2)
        return r == 1
    return False


@njit(cache=True)
def passes(kind, params, pub, me, out):
    """Fill ``out[0..2]`` with single-card masks for left opponent, partner, right opponent."""
    if kind == RANDOM:
        used = ZERO
        for i in range(3):
            out[i] = random_card(me, used)
            used |= out[i]
        return
    low = lowest_cards(me.hand, 3)
    for i in range(3):
        out[i] = low[i]


@njit(cache=True)
def lowest_index(codes, n):
    """Index of the lowest play: non-bombs first, then by rank, then by fewer cards."""
    best = 0
    best_key = np.int64(1) << 62
    for i in range(n):
        c = codes[i]
        key = ((1 if (c >> 16) >= 8 else 0) << 40) | ((c & 0xFF) << 16) | ((c >> 8) & 0xFF)
        if key < best_key:
            best_key = key
            best = i
    return best


@njit(cache=True)
def random_lead(me, wish, moves_m, moves_c):
    """A random lead: a category drawn uniformly among those not yet found empty, then a play
    of it uniformly. Every legal lead keeps a positive probability; under a binding wish only
    plays with the wished rank count (§2.11; the wished single always exists then)."""
    wished = me.hand & rank_cards(wish) if wish != 0 else ZERO
    tried = 0
    n_cat = len(LEAD_CATEGORIES)
    while True:
        me.rng, j = rand_below(me.rng, n_cat - popcount(U64(tried)))
        c = 0
        while True:  # the j-th untried category
            if not tried & (1 << c):
                if j == 0:
                    break
                j -= 1
            c += 1
        n = lead_moves(me.hand, LEAD_CATEGORIES[c], moves_m, moves_c, 0)
        if n > moves_m.shape[0]:
            return MOVES_OVERFLOW
        if wished != ZERO:
            n = keep_wished(wished, False, moves_m, moves_c, n)
        if n > 0:
            me.rng, j = rand_below(me.rng, n)
            return j
        tried |= 1 << c


@njit(cache=True)
def play(kind, params, pub, me, moves_m, moves_c):
    """Choose a play on the seat's turn: an index into the plays written to ``moves_m`` /
    ``moves_c``, -1 to pass, or ``MOVES_OVERFLOW``."""
    top = pub.top_code
    if top == 0 and kind == RANDOM:
        return random_lead(me, pub.wish, moves_m, moves_c)
    if top == 0:
        # The lowest lead is always a single or the Dog: any other combination tops at or
        # above its lowest card and holds more cards. Under a binding wish the wished single.
        n = lead_moves(me.hand, SINGLE, moves_m, moves_c, 0)
        n = lead_moves(me.hand, DOG_LEAD, moves_m, moves_c, n)
        if pub.wish != 0 and me.hand & rank_cards(pub.wish):
            n = keep_wished(me.hand & rank_cards(pub.wish), False, moves_m, moves_c, n)
        return lowest_index(moves_c, n)
    n, can_pass = legal_moves(me.hand, top, pub.wish, moves_m, moves_c)
    if n > moves_m.shape[0]:
        return MOVES_OVERFLOW
    if kind == RANDOM:
        me.rng, j = rand_below(me.rng, n + can_pass)
        return j if j < n else -1
    if n == 0:
        return -1
    return lowest_index(moves_c, n)


@njit(cache=True)
def bomb(kind, params, pub, me, masks, codes, n):
    if kind == RANDOM:
        me.rng, j = rand_below(me.rng, n + 1)
        return j if j < n else -1
    return -1


@njit(cache=True)
def wish(kind, params, pub, me):
    if kind == RANDOM:
        me.rng, j = rand_below(me.rng, 14)
        return 0 if j == 0 else j + 1
    return 0


@njit(cache=True)
def dragon(kind, params, pub, me):
    n = pub.n_players
    if kind == RANDOM:
        me.rng, j = rand_below(me.rng, 2)
        return (me.seat + 1 + 2 * j) % n
    return (me.seat + 1) % n
