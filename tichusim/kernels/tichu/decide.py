"""One decision of a scripted strategy, asked from Python (issue 15), jitted.

``decide`` answers the decision a stopped round waits for (``outside.py``) with the policy the
engine would have called, on the same two records (the table's public record and the deciding
seat's private record, RULES.md §6): the answer is the engine's, and the seat's stream in
``privs[0].rng`` is left where the engine would have left it. Answers are those of the
script (``outside.py``); a play is answered as an index into the legal plays it is given.
"""

import numpy as np
from numba import njit

from . import policies
from ..moves import MAX_MOVES
from ..outside import D_BOMB, D_DOG, D_DRAGON, D_GRAND_TICHU, D_PASS, D_PLAY, D_TICHU, D_WISH
from ..bits import ZERO, lowest_bit_index
from .variants import MAX_SEATS

UNKNOWN_DECISION = -(1 << 61)


@njit(cache=True)
def decide(params, pub, privs, decision, detail, legal_m, legal_c, n):
    """The answer of the strategy row ``params`` to ``decision`` (``detail`` as the engine
    asked it) for the seat of ``privs[0]``; ``legal_m[:n]``/``legal_c[:n]``: the plays or the
    bombs offered. A play the policy picks that is not among them answers ``n`` (never the
    case for the engine's policies: a test holds them to it)."""
    p = pub[0]
    me = privs[0]
    if decision == D_GRAND_TICHU:
        return 1 if policies.grand_tichu(params, p, me) else 0
    if decision == D_TICHU:
        return 1 if policies.tichu(params, p, me, detail) else 0
    if decision == D_PASS:
        gifts = np.zeros(MAX_SEATS - 1, np.uint64)
        policies.passes(params, p, me, gifts)
        packed = 0
        for d in range(1, p.n_players):
            if detail >> d & 1 and gifts[d - 1] != ZERO:
                packed |= (lowest_bit_index(gifts[d - 1]) + 1) << (6 * (d - 1))
        return packed
    if decision == D_PLAY:
        own_m = np.zeros(MAX_MOVES, np.uint64)
        own_c = np.zeros(MAX_MOVES, np.int64)
        j = policies.play(params, p, me, own_m, own_c)
        if j < 0:
            return -1
        for i in range(n):
            if legal_m[i] == own_m[j] and legal_c[i] == own_c[j]:
                return i
        return n
    if decision == D_BOMB:
        return policies.bomb(params, p, me, legal_m, legal_c, n)
    if decision == D_WISH:
        return policies.wish(params, p, me)
    if decision == D_DRAGON:
        return policies.dragon(params, p, me)
    if decision == D_DOG:
        return policies.dog_target(params, p, me)
    return UNKNOWN_DECISION
