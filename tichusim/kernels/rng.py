"""Counter-based randomness: every round's draws derive from (run seed, round index, stream).

SplitMix64 (Steele, Lea & Flood 2014): the state is a counter advanced by the golden gamma and
each output is a bijective mix of it. A stream is seeded by mixing the run seed, the round's
index and a stream number, so a round replays alone and results do not depend on batching,
threads or processes; separate streams for the deal and for each seat's decisions keep deals
identical when only strategies change (paired comparisons, RULES.md-independent).
"""

import numpy as np
from numba import types

from .jit import njit

U64 = np.uint64
GOLDEN = U64(0x9E3779B97F4A7C15)
_M1 = U64(0xBF58476D1CE4E5B9)
_M2 = U64(0x94D049BB133111EB)

# bit index of each of the 56 cards (layout: tichusim.cards)
CARD_BITS = np.array(
    [0, 1, 15, 16] + [16 * s + r for r in range(2, 15) for s in range(4)], dtype=np.int64
)


@njit(cache=True, inline="always")
def mix64(z):
    z = (z ^ (z >> U64(30))) * _M1
    z = (z ^ (z >> U64(27))) * _M2
    return z ^ (z >> U64(31))


@njit(types.uint64(types.uint64, types.uint64, types.uint64), cache=True)
def seed_stream(seed, index, stream):
    """Initial state of stream ``stream`` of round ``index`` in the run seeded ``seed``."""
    return mix64(mix64(seed + GOLDEN) ^ mix64(index * GOLDEN + U64(1)) ^ mix64(stream + _M2))


@njit(cache=True, inline="always")
def next_u64(state):
    state = state + GOLDEN
    return state, mix64(state)


@njit(
    types.Tuple((types.uint64, types.int64))(types.uint64, types.int64), cache=True, inline="always"
)
def rand_below(state, n):
    """A uniform integer in ``[0, n)`` (``n`` < 2**32; bias below n / 2**32)."""
    state, x = next_u64(state)
    return state, np.int64(((x >> U64(32)) * U64(n)) >> U64(32))


@njit(cache=True, inline="always")
def rand_float(state):
    """A uniform float in ``[0, 1)`` with 53 random bits."""
    state, x = next_u64(state)
    return state, np.float64(x >> U64(11)) * (1.0 / 9007199254740992.0)


@njit(types.uint64(types.int64[:], types.uint64), cache=True)
def shuffle_deck(deck, state):
    """Fill ``deck`` (length 56) with the card bit indices in uniformly random order."""
    for i in range(56):
        deck[i] = CARD_BITS[i]
    for i in range(55, 0, -1):
        state, j = rand_below(state, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    return state


@njit(types.uint64(types.int64[:], types.int64, types.uint64), cache=True)
def shuffle_prefix(deck, n, state):
    """Shuffle ``deck[:n]`` in place, uniformly (Fisher-Yates)."""
    for i in range(n - 1, 0, -1):
        state, j = rand_below(state, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    return state
