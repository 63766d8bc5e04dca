"""The search sees only what its seat knows (RULES.md §6): two deals that agree on a seat's view
(its hand, the cards it passed and received, the public record) and differ in the other
seats' hidden cards give the same searched decision."""

import itertools

import numpy as np

import tichusim
from tichusim import Round
from tichusim.cards.notation import card_bit
from tichusim.search.evaluate import evaluate_plays
from tichusim.search.prune import prune


def _at_a_later_play(seed: int, key: int, plays: int) -> Round:
    """Round ``key`` stepped by ``expert`` at every seat, stopped at its ``plays``-th play
    decision: past the passing and some tricks, so the view holds a public history."""
    r = Round(seed=seed, key=key, strategies=None)
    expert = tichusim.strategy("expert")
    seen = 0
    while True:
        r.advance()
        assert not r.done
        if r.decision == "play":
            seen += 1
            if seen == plays:
                return r
        r.act(expert.decide(r.view(), r.legal()))


def _swap_hidden(privs: np.ndarray, seat: int, lacks) -> tuple[int, int]:
    """Swap two cards of one rank between two other seats' hands in the engine's private
    records: neither card passed nor received by anyone, so what ``seat`` knows (its hand, its
    passing, the ranks a seat lacks) holds in both deals. The two seats swapped."""
    known = 0
    for rec in privs:
        known |= int(np.bitwise_or.reduce(rec["given"])) | int(
            np.bitwise_or.reduce(rec["received"])
        )
    others = [s for s in range(4) if s != seat]
    for a, b in itertools.combinations(others, 2):
        for rank in range(2, 15):
            if (int(lacks[a]) | int(lacks[b])) >> rank & 1:
                continue
            mine = [1 << card_bit(rank, s) for s in range(4)]
            in_a = [c for c in mine if int(privs[a]["hand"]) & c and not known & c]
            in_b = [c for c in mine if int(privs[b]["hand"]) & c and not known & c]
            if in_a and in_b:
                privs[a]["hand"] = np.uint64(int(privs[a]["hand"]) ^ in_a[0] | in_b[0])
                privs[b]["hand"] = np.uint64(int(privs[b]["hand"]) ^ in_b[0] | in_a[0])
                return a, b
    raise AssertionError("no two other seats hold an unknown card of one rank each")


def test_the_search_sees_only_its_seats_view():
    r = _at_a_later_play(seed=9, key=1, plays=6)
    first = r.view()
    seat = first.seat
    legal = r.legal()
    hands = r._kept[2]["hand"].copy()
    a, b = _swap_hidden(r._kept[2], seat, first.lacks)
    assert r._kept[2]["hand"][a] != hands[a] and r._kept[2]["hand"][b] != hands[b]
    assert r._kept[2]["hand"][seat] == hands[seat]
    r._view = None  # the seat's view of the other deal, made again from the engine's records
    second = r.view()
    assert second is not first
    np.testing.assert_array_equal(second.public, first.public)
    np.testing.assert_array_equal(second.private, first.private)

    candidates = prune(legal, 4, tichusim.strategy("expert").decide(first, legal))
    assert len(candidates) > 1
    one = evaluate_plays(first, candidates, samples=12, seed=7)
    other = evaluate_plays(second, candidates, samples=12, seed=7)
    np.testing.assert_array_equal(one.margin, other.margin)
    np.testing.assert_array_equal(one.first, other.first)
    assert one.best() == other.best()
