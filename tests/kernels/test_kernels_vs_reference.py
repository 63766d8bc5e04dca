"""The jitted kernels against the slow reference (tests/support/reference.py), on random states
(Hypothesis) and exhaustively where the space is small (RULES.md §2.5–§2.11)."""

from itertools import combinations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from support import reference as ref
from support.states import trick_states

from tichusim import cards, legal_plays, readings
from tichusim.kernels.hand import card_points, rank_counts

TOKENS = list(ref.ALL_CARDS)


def mask_of(tokens):
    return cards.parse(" ".join(tokens)) if tokens else 0


def tokens_of(mask):
    return frozenset(cards.format(mask).split())


def ref_best(tokens):
    found = ref.classify(frozenset(tokens))
    return None if not found else max(found, key=lambda r: r.rank)


def same_reading(mine, theirs):
    if mine is None or theirs is None:
        return mine is None and theirs is None
    kind = {
        "full house": "fullhouse",
        "four-of-a-kind bomb": "bomb4",
        "straight-flush bomb": "bombsf",
    }.get(mine.kind, mine.kind)
    rank = (mine.length, mine.rank) if kind == "bombsf" else mine.rank
    return (kind, mine.length, rank) == (theirs.kind, theirs.length, theirs.rank)


def test_every_set_of_up_to_three_cards_classifies_like_the_reference():
    # exhaustive: C(56,1) + C(56,2) + C(56,3) = 56 + 1540 + 27720 sets
    for size in (1, 2, 3):
        for combo in combinations(TOKENS, size):
            r = readings(mask_of(combo))
            assert same_reading(r[0] if r else None, ref_best(combo)), combo


def test_every_subset_of_some_rich_hands_classifies_like_the_reference():
    # exhaustive over all 2^11 subsets of hands full of Phoenix, runs, pairs and specials
    for hand in (
        "Ma 2j 3j 4j 5j 6s 6p 7j Ph Dr Dog",
        "5j 5s 5p 5t 6j 6s 7j 7s 8j Ph 9j",
        "9s Ts Js Qs Ks As Ph Tj Jj Jp Qt",
    ):
        toks = hand.split()
        for size in range(1, len(toks) + 1):
            for combo in combinations(toks, size):
                r = readings(mask_of(combo))
                assert same_reading(r[0] if r else None, ref_best(combo)), combo


@settings(max_examples=150)
@given(trick_states())
def test_legal_plays_match_the_reference_on_random_states(state):
    hand, top, wish, on = state
    mine, mine_pass = legal_plays(
        mask_of(hand), mask_of(top) if top else None, wish=wish, phoenix_on=on
    )
    theirs, their_pass = ref.legal_plays(hand, top, wish, on)
    assert {tokens_of(m) for m in mine} == theirs
    assert len(mine) == len(theirs) and mine_pass == their_pass


@given(st.sets(st.sampled_from(TOKENS)))
def test_hand_helpers(tokens):
    mask = np.uint64(mask_of(sorted(tokens)))
    assert card_points(mask) == sum(
        {"5": 5, "T": 10, "K": 10}.get(t[0], 0) for t in tokens if t not in ref.SPECIALS
    ) + 25 * ("Dr" in tokens) - 25 * ("Ph" in tokens)
    out = np.zeros(15, np.int64)
    rank_counts(mask, out)
    for r in range(2, 15):
        assert out[r] == sum(
            1 for t in tokens if t not in ref.SPECIALS and ref.RANK_VALUE[t[0]] == r
        )
