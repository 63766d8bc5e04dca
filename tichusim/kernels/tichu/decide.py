"""One decision of a scripted strategy, asked from Python, jitted.

``decide`` answers the decision a stopped round waits for (``outside.py``) with the policy the
engine would have called, on the same two records (the table's public record and the deciding
seat's private record, RULES.md §6): the answer is the engine's, and the seat's stream in
``privs[0].rng`` is left where the engine would have left it. Answers are those of the
script (``outside.py``); a play is answered as an index into the legal plays it is given.
"""

import numpy as np

from ..bits import ZERO, lowest_bit_index
from ..jit import njit
from ..moves import MAX_MOVES
from ..outside import D_BOMB, D_DOG, D_DRAGON, D_GRAND_TICHU, D_PASS, D_PLAY, D_TICHU, D_WISH
from . import learned, policies
from .learned import LEARN_FLOATS
from .records import MAX_BOMBS
from .variants import MAX_SEATS

UNKNOWN_DECISION = -(1 << 61)

# decide's scratch (``scratch()``, one per caller): the strategy's own plays and the bombs
# offered, the learned play's scratch, in arrays of the types the engine's WORK record hands
# the policies, so the policies compiled for the engine serve here too (plain arrays made
# numba type and compile every strategy kernel a second time)
SCRATCH = np.dtype(
    [
        ("own_m", np.uint64, (MAX_MOVES,)),
        ("own_c", np.int64, (MAX_MOVES,)),
        ("bombs_m", np.uint64, (MAX_BOMBS,)),
        ("bombs_c", np.int64, (MAX_BOMBS,)),
        ("learn", np.float32, (LEARN_FLOATS,)),
    ],
    align=True,
)


def scratch():
    return learned.record(SCRATCH)


@njit(cache=True)
def decide(params, models, pub, privs, decision, detail, legal_m, legal_c, n, scratch):
    """The answer of the strategy row ``params`` to ``decision`` (``detail`` as the engine
    asked it) for the seat of ``privs[0]``; ``models``: the learned models the row's
    ``slots.P_MODEL`` counts (``table_models.table``), or ``None``; ``legal_m[:n]``/
    ``legal_c[:n]``: the plays or the bombs offered (at most ``MAX_BOMBS`` bombs); ``scratch``:
    ``scratch()``'s, kept alive by the caller. A play the policy picks that is not among them
    answers ``n`` (never the case for the engine's policies: a test holds them to it), a
    learned row without its model ``policies.NO_MODEL``."""
    p = pub[0]
    me = privs[0]
    work = scratch[0]
    if decision == D_GRAND_TICHU:
        return 1 if policies.grand_tichu(params, p, me) else 0
    if decision == D_TICHU:
        return 1 if policies.tichu(params, p, me, detail) else 0
    if decision == D_PASS:
        gifts = np.zeros(MAX_SEATS - 1, np.uint64)
        policies.passes(params, p, me, gifts, models)
        packed = 0
        for d in range(1, p.n_players):
            if detail >> d & 1 and gifts[d - 1] != ZERO:
                packed |= (lowest_bit_index(gifts[d - 1]) + 1) << (6 * (d - 1))
        return packed
    if decision == D_PLAY:
        own_m = work.own_m
        own_c = work.own_c
        j = policies.play(params, p, me, own_m, own_c, models, work.learn)
        if j == policies.NO_MODEL:
            return j
        if j < 0:
            return -1
        for i in range(n):
            if legal_m[i] == own_m[j] and legal_c[i] == own_c[j]:
                return i
        return n
    if decision == D_BOMB:
        bombs_m = work.bombs_m
        bombs_c = work.bombs_c
        n = min(n, MAX_BOMBS)  # the engine offers no more
        for i in range(n):
            bombs_m[i] = legal_m[i]
            bombs_c[i] = legal_c[i]
        return policies.bomb(params, p, me, bombs_m, bombs_c, n, models, work.learn)
    if decision == D_WISH:
        return policies.wish(params, p, me)
    if decision == D_DRAGON:
        return policies.dragon(params, p, me)
    if decision == D_DOG:
        return policies.dog_target(params, p, me)
    return UNKNOWN_DECISION
