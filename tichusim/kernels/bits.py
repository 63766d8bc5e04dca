"""Bit-level helpers for card masks (layout: ``tichusim.cards``).

Small and inlined into their callers (masks are ``uint64``, indexes ``int64``): every kernel
module builds on these. ``popcount`` compiles to the
POPCNT instruction through LLVM's ``ctpop`` (numba has no builtin for it).
"""

import numpy as np
from numba import types
from numba.extending import intrinsic

from .jit import njit

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)
LANE = U64(0xFFFF)
RANK_LANE = U64(0x7FFC)  # ranks 2..A inside a lane
STRAIGHT_LANE = U64(0x7FFE)  # ranks 1 (Mah Jong, lane 0 only) .. A
MAH_JONG = U64(1 << 1)
DOG = U64(1 << 0)
PHOENIX = U64(1 << 16)
DRAGON = U64(1 << 15)
SPECIALS = MAH_JONG | DOG | PHOENIX | DRAGON
NORMAL = (RANK_LANE | (RANK_LANE << U64(16))) | ((RANK_LANE << U64(32)) | (RANK_LANE << U64(48)))
RANK_COLUMN = U64(0x0001000100010001)  # bit 0 of every lane; << r gives the four cards of rank r
KINGS = RANK_COLUMN << U64(13)
ACES = RANK_COLUMN << U64(14)


@intrinsic
def _ctpop(typingctx, x):
    if not isinstance(x, types.Integer):
        return None
    sig = x(x)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _ctlz(typingctx, x):
    if not isinstance(x, types.Integer):
        return None
    sig = x(x)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], context.get_constant(types.boolean, False))

    return sig, codegen


@njit(cache=True, inline="always")
def popcount(x):
    return np.int64(_ctpop(x))


@njit(cache=True, inline="always")
def lowest_bit_index(x):
    """Index of the lowest set bit of a non-zero ``x``."""
    return np.int64(_ctpop((x & (~x + ONE)) - ONE))


@njit(cache=True, inline="always")
def highest_bit_index(x):
    """Index of the highest set bit of a non-zero ``x``."""
    return 63 - np.int64(_ctlz(x))


@njit(types.uint64(types.uint64, types.int64), cache=True, inline="always")
def lane(mask, suit):
    return (mask >> U64(16 * suit)) & LANE


@njit(cache=True, inline="always")
def ranks_held(mask):
    """16-bit set of ranks present (bit 1 = Mah Jong, 2..14 normal; no Dog/Phoenix/Dragon)."""
    m = mask & (NORMAL | MAH_JONG)
    return (m | (m >> U64(16)) | (m >> U64(32)) | (m >> U64(48))) & STRAIGHT_LANE


@njit(cache=True, inline="always")
def rank_multiplicity(mask):
    """Rank sets (16-bit) held at least once, twice, three times, four times (ranks 2..A)."""
    m = mask & NORMAL
    a = m & LANE
    b = (m >> U64(16)) & LANE
    c = (m >> U64(32)) & LANE
    d = (m >> U64(48)) & LANE
    ge1 = a | b | c | d
    ge2 = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    ge3 = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)
    ge4 = a & b & c & d
    return ge1, ge2, ge3, ge4


@njit(cache=True, inline="always")
def runs_ending(x, length):
    """Bits ``r`` of ``x`` such that ranks ``r-length+1 .. r`` are all in ``x``."""
    out = x
    for k in range(1, length):
        out &= x << U64(k)
    return out


@njit(cache=True, inline="always")
def rank_cards(rank):
    """Mask of the four cards of a normal rank."""
    return RANK_COLUMN << U64(rank)
