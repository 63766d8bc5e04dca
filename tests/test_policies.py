"""Decision policies on constructed hands (the engine's strategy interface, RULES.md §6)."""

import numpy as np
import pytest
from numba import njit

from tichusim import cards, legal_plays
from tichusim.kernels import policies
from tichusim.kernels.moves import MAX_MOVES
from tichusim.kernels.view import PRIVATE, PUBLIC


@njit
def _draw_plays(kind, hand, top, wish, draws):
    """``draws`` answers of ``policies.play`` for one hand and trick state (-1 = pass)."""
    pub = np.zeros(1, PUBLIC)
    me = np.zeros(1, PRIVATE)
    me[0].hand = hand
    me[0].rng = np.uint64(12345)
    pub[0].top_code = top
    pub[0].wish = wish
    params = np.zeros(32)
    moves_m = np.empty(MAX_MOVES, np.uint64)
    moves_c = np.empty(MAX_MOVES, np.int64)
    out = np.zeros(draws, np.uint64)
    for i in range(draws):
        j = policies.play(kind, params, pub[0], me[0], moves_m, moves_c)
        out[i] = moves_m[j] if j >= 0 else np.uint64(0)
    return out


LEAD_HANDS = [
    ("Ma 2j 2s 3p 4t 5j 6j Ph Dog", 0),  # straights with and without the Phoenix, pairs, Dog
    ("2j 2s 2p 2t 3j 3s Kj Ks Kp Dr", 0),  # a bomb, full houses, stairs
    ("Ma 2j 2s 3p 4t 5j 6j Ph Dog", 5),  # the wish binds: only leads with a 5
]


@pytest.mark.parametrize("hand,wish", LEAD_HANDS)
def test_random_lead_reaches_every_legal_lead(hand, wish):
    """``random`` draws a lead category, then a play: every legal lead keeps a positive
    probability (engine issue, strategy interface), and nothing outside them is drawn."""
    legal, _ = legal_plays(hand, wish=wish or None)
    drawn = _draw_plays(policies.RANDOM, np.uint64(cards.parse(hand)), 0, wish, 40 * len(legal) + 2000)
    assert set(int(m) for m in drawn) == set(legal)


def test_random_follow_is_uniform_over_plays_and_pass():
    top = np.int64(0x10108)  # single 4
    legal, can_pass = legal_plays("3j 5j 9s Ph Dr", "4j")
    assert can_pass
    drawn = _draw_plays(policies.RANDOM, np.uint64(cards.parse("3j 5j 9s Ph Dr")), top, 0, 20000)
    counts = {m: int((drawn == m).sum()) for m in set(int(x) for x in drawn)}
    assert set(counts) == set(legal) | {0}
    expected = 20000 / (len(legal) + 1)
    assert all(abs(c - expected) < 5 * expected**0.5 for c in counts.values())


@pytest.mark.parametrize(
    "hand,wish,expected",
    [
        ("3j 3s 4p 5t 6j 7j Dog", 0, "Dog"),
        ("Ma 2j 3p 4t 5j", 0, "Ma"),
        ("2j 3p 4t 5j 6j Ph", 0, "Ph"),  # the Phoenix led counts 1½ (RULES.md §2.6)
        ("4p 4t 5j 6j 7s 8s", 0, "4p"),
        ("4p 4t 5j 6j 7s 8s Dog", 6, "6j"),  # §2.11: the wished rank, though the Dog is lower
    ],
)
def test_lowest_leads_its_lowest_single(hand, wish, expected):
    drawn = _draw_plays(policies.LOWEST, np.uint64(cards.parse(hand)), 0, wish, 1)
    assert cards.format(int(drawn[0])) == expected
