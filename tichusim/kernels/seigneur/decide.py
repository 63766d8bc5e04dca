"""One decision of a scripted Grand Seigneur strategy, asked from Python (issue 15), jitted.

As ``kernels/tichu/decide.py``: the policy the engine would have called, on the same two
records, the player's stream in ``privs[0].rng`` left where the engine would have left it.
"""

import numpy as np
from numba import njit

from . import policies
from ..bits import ONE, U64, ZERO, lowest_bit_index
from ..outside import D_BOMB, D_GIVE_BACK, D_PLAY, D_WISH
from .moves import MAX_MOVES

UNKNOWN_DECISION = -(1 << 61)


@njit(cache=True)
def decide(params, pub, privs, decision, detail, legal_a, legal_b, legal_c, n):
    """The answer of the strategy row ``params`` to ``decision`` for the seat of ``privs[0]``;
    ``legal_a/b/c[:n]``: the plays or bombs offered (a play not among them answers ``n``)."""
    p = pub[0]
    me = privs[0]
    if decision == D_GIVE_BACK:
        ga, gb = policies.give_back(params, p, me, detail)
        packed = 0
        i = 0
        for half in (gb, ga):  # second copies first: ``add_card`` reads a repeat as one
            x = half
            while x != ZERO:
                c = lowest_bit_index(x)
                x &= x - ONE
                packed |= (c + 1) << (6 * i)
                i += 1
        return packed
    if decision == D_PLAY:
        own_a = np.zeros(MAX_MOVES, np.uint64)
        own_b = np.zeros(MAX_MOVES, np.uint64)
        own_c = np.zeros(MAX_MOVES, np.int64)
        j = policies.play(params, p, me, own_a, own_b, own_c)
        if j < 0:
            return -1
        for i in range(n):
            if legal_a[i] == own_a[j] and legal_b[i] == own_b[j] and legal_c[i] == own_c[j]:
                return i
        return n
    if decision == D_BOMB:
        return policies.bomb(params, p, me, legal_a, legal_c, n)
    if decision == D_WISH:
        return policies.wish(params, p, me)
    return UNKNOWN_DECISION
