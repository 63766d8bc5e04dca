"""One decision of a scripted Grand Seigneur strategy, asked from Python, jitted.

As ``kernels/tichu/decide.py``: the policy the engine would have called, on the same two
records, the player's stream in ``privs[0].rng`` left where the engine would have left it.
"""

import numpy as np

from ..bits import ONE, ZERO, lowest_bit_index
from ..jit import njit
from ..outside import D_BOMB, D_GIVE_BACK, D_PLAY, D_WISH
from . import policies
from .moves import MAX_MOVES
from .records import MAX_BOMBS

UNKNOWN_DECISION = -(1 << 61)

# decide's scratch (``scratch()``, one per caller), as ``kernels/tichu/decide.py``'s: arrays of
# the types the engine's WORK record hands the policies, so their compile serves both
SCRATCH = np.dtype(
    [
        ("own_a", np.uint64, (MAX_MOVES,)),
        ("own_b", np.uint64, (MAX_MOVES,)),
        ("own_c", np.int64, (MAX_MOVES,)),
        ("bombs_a", np.uint64, (MAX_BOMBS,)),
        ("bombs_c", np.int64, (MAX_BOMBS,)),
    ],
    align=True,
)


def scratch():
    return np.zeros(1, SCRATCH)


@njit(cache=True)
def decide(params, pub, privs, decision, detail, legal_a, legal_b, legal_c, n, scratch):
    """The answer of the strategy row ``params`` to ``decision`` for the seat of ``privs[0]``;
    ``legal_a/b/c[:n]``: the plays or bombs offered (a play not among them answers ``n``);
    ``scratch``: ``scratch()``'s, kept alive by the caller."""
    p = pub[0]
    me = privs[0]
    work = scratch[0]
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
        own_a = work.own_a
        own_b = work.own_b
        own_c = work.own_c
        j = policies.play(params, p, me, own_a, own_b, own_c)
        if j < 0:
            return -1
        for i in range(n):
            if legal_a[i] == own_a[j] and legal_b[i] == own_b[j] and legal_c[i] == own_c[j]:
                return i
        return n
    if decision == D_BOMB:
        bombs_a = work.bombs_a
        bombs_c = work.bombs_c
        n = min(n, MAX_BOMBS)  # the engine offers no more
        for i in range(n):
            bombs_a[i] = legal_a[i]
            bombs_c[i] = legal_c[i]
        return policies.bomb(params, p, me, bombs_a, bombs_c, n)
    if decision == D_WISH:
        return policies.wish(params, p, me)
    return UNKNOWN_DECISION
