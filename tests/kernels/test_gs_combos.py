"""The two-deck card model, classifier and move generator of Grand Seigneur against the slow
reference (tests/support/gs_reference.py): exhaustively on small sets, by Hypothesis on random ones
(RULES.md §2.5-§2.11 with the two-deck changes of §5)."""

from collections import Counter
from itertools import combinations_with_replacement

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import gs_reference as ref

from tichusim.cards import seigneur as seigneur_cards
from tichusim.cards.combos import Combo
from tichusim.kernels.combos import make_code
from tichusim.kernels.seigneur import cards as gs_cards
from tichusim.kernels.seigneur import combos as gs_combos

# every card of the three decks of §5 (two Dragons and Phoenixes, one Mah Jong, the Dog)
UNION = ref.deck("two") + Counter({"Dog": 1})
TOKENS = sorted(UNION)
KIND_CODE = {
    "single": 1,
    "pair": 2,
    "triple": 3,
    "stairs": 4,
    "fullhouse": 5,
    "straight": 6,
    "dog": 7,
    "bomb4": 8,
    "bombsf": 9,
}


def pair_of(tokens):
    return seigneur_cards.parse(" ".join(tokens)) if tokens else (0, 0)


def tokens_of(a, b):
    text = seigneur_cards.format(a, b)
    return tuple(sorted(text.split())) if text else ()


def to_ref(code):
    c = Combo.from_code(code)
    kind = {
        "full house": "fullhouse",
        "four-of-a-kind bomb": "bomb4",
        "straight-flush bomb": "bombsf",
    }.get(c.kind, c.kind)
    return ref.Combo(kind, c.length, (c.length, c.rank) if kind == "bombsf" else c.rank)


def to_code(reading):
    rank = reading.rank[1] if reading.kind == "bombsf" else reading.rank
    return make_code(KIND_CODE[reading.kind], reading.length, int(rank * 2))


def kernel_readings(tokens, distinct):
    """Every reading the kernel gives a multiset (at most two)."""
    a, b = pair_of(tokens)
    out = np.zeros(2, np.int64)
    n = gs_combos.readings(np.uint64(a), np.uint64(b), distinct, out)
    return [to_ref(int(c)) for c in out[:n]]


def same_readings(tokens, distinct):
    mine = kernel_readings(tokens, distinct)
    theirs = ref.readings(tokens, None, distinct)
    return sorted(mine, key=str) == sorted(theirs, key=str), mine, theirs


@pytest.mark.parametrize("distinct", [False, True])
def test_every_multiset_of_up_to_three_cards_reads_like_the_reference(distinct):
    # exhaustive: every multiset of 1..3 cards of the union deck (a card at most twice)
    count = 0
    for size in (1, 2, 3):
        for combo in combinations_with_replacement(TOKENS, size):
            if any(combo.count(t) > UNION[t] for t in combo):
                continue
            ok, mine, theirs = same_readings(combo, distinct)
            assert ok, (combo, mine, theirs)
            count += 1
    # the enumeration is complete: sizes 1..3 of the generating function prod(1 + x + .. x^cap)
    poly = [1]
    for cap in UNION.values():
        poly = [
            sum(poly[i - j] for j in range(cap + 1) if 0 <= i - j < len(poly))
            for i in range(len(poly) + cap)
        ]
    assert count == poly[1] + poly[2] + poly[3] == 56 + 1_594 + 30_690


RICH_HANDS = (
    "5j 5j 5s 6j 6s 6s 7j 7p 8j Ph",  # doubled cards in pairs, stairs and full houses
    "7j 7j 7s 7p 7t 8j 8j Ph Dr Dr",  # five of a rank, fours of four suits, two Dragons
    "Ma 2j 3j 3j 4j 5j 6j 6s Ph",  # the Mah Jong, a straight flush with a doubled card
    "9s 9s Ts Js Js Qs Ks As Ph",  # long runs in one suit around doubled cards
)


@pytest.mark.parametrize("hand", RICH_HANDS)
@pytest.mark.parametrize("distinct", [False, True])
def test_every_sub_multiset_of_rich_hands_reads_like_the_reference(hand, distinct):
    for sub in ref.sub_multisets(hand.split()):
        ok, mine, theirs = same_readings(sub, distinct)
        assert ok, (sub, mine, theirs)


@pytest.mark.parametrize("hand", RICH_HANDS)
@pytest.mark.parametrize("distinct", [False, True])
def test_leads_of_rich_hands_match_the_reference(hand, distinct):
    for wish in (None, 5, 7, 9):
        mine, can_pass = seigneur_cards.legal_plays(hand, wish=wish or 0, distinct_triples=distinct)
        theirs, their_pass = ref.legal_plays(hand.split(), None, wish, distinct)
        assert {tokens_of(a, b) for a, b, _ in mine} == theirs
        assert len(mine) == len(theirs) and can_pass == their_pass
        for a, b, code in mine:  # each set with its highest reading
            assert to_ref(code) == ref.best_reading(tokens_of(a, b), None, distinct)


@st.composite
def states(draw):
    deck = list(UNION.elements())
    cards = draw(st.permutations(deck))
    size = draw(st.integers(1, 12))
    hand = tuple(sorted(cards[:size]))
    distinct = draw(st.booleans())
    top = None
    if draw(st.booleans()):
        other = cards[size : size + draw(st.integers(1, 9))]
        options = sorted(
            p for p in ref.legal_plays(other, None, None, distinct)[0] if p != ("Dog",)
        )
        if options:
            played = draw(st.sampled_from(options))
            top = ref.best_reading(played, None, distinct)
            if played == ("Ph",):  # a Phoenix on a card: half a rank above it (§2.6)
                top = ref.Combo("single", 1, draw(st.sampled_from([1.5, 2.5, 9.5, 14.5])))
            if played == ("Dr",) and draw(st.booleans()):  # the second Dragon (§5)
                top = ref.Combo("single", 1, ref.DRAGON_ON_DRAGON)
    wish = draw(st.one_of(st.none(), st.integers(2, 14)))
    return hand, top, wish, distinct


@settings(max_examples=400)
@given(states())
def test_legal_plays_match_the_reference_on_random_two_deck_states(state):
    hand, top, wish, distinct = state
    code = 0 if top is None else to_code(top)
    mine, can_pass = seigneur_cards.legal_plays(
        " ".join(hand), top_code=code, wish=wish or 0, distinct_triples=distinct
    )
    theirs, their_pass = ref.legal_plays(hand, top, wish, distinct)
    assert {tokens_of(a, b) for a, b, _ in mine} == theirs
    assert len(mine) == len(theirs) and can_pass == their_pass
    for a, b, c in mine:
        assert to_ref(c) == ref.best_reading(tokens_of(a, b), top, distinct)


@given(
    st.lists(st.sampled_from(TOKENS), max_size=20), st.lists(st.sampled_from(TOKENS), max_size=8)
)
def test_multiset_arithmetic_matches_counters(xs, ys):
    hand = Counter(xs)
    hand = Counter({t: min(k, 2) for t, k in hand.items()})
    take = Counter(ys) & hand  # a sub-multiset of the hand
    a, b = pair_of(sorted(hand.elements()))
    ta, tb = pair_of(sorted(take.elements()))
    ra, rb = gs_cards.ms_remove(np.uint64(a), np.uint64(b), np.uint64(ta), np.uint64(tb))
    assert Counter(tokens_of(int(ra), int(rb))) == hand - take
    assert int(rb) & ~int(ra) == 0
    sa, sb = gs_cards.ms_add(ra, rb, np.uint64(ta), np.uint64(tb))
    assert (int(sa), int(sb)) == (a, b)
    assert gs_cards.ms_contains(np.uint64(a), np.uint64(b), np.uint64(ta), np.uint64(tb))
    assert gs_cards.ms_size(np.uint64(a), np.uint64(b)) == sum(hand.values())
    for r in range(2, 15):
        want = sum(k for t, k in hand.items() if t not in ref.SPECIALS and ref.VALUE[t[0]] == r)
        assert gs_cards.rank_count(np.uint64(a), np.uint64(b), r) == want


def test_decks_hold_the_cards_of_rules_section_5():
    # §5: one deck without the Dog (55), two without Dogs and the second Mah Jong (109);
    # Option (Russian edition): 2 x 52 ranked cards and one set of specials with the Dog (108)
    for name, size in (("one", 55), ("two", 109), ("russian", 108)):
        a, b = seigneur_cards.deck(name)
        assert Counter(tokens_of(a, b)) == ref.deck(name)
        assert (
            int(gs_cards.DECK_SIZES[seigneur_cards.DECKS[name]])
            == size
            == sum(ref.deck(name).values())
        )


@given(
    st.lists(st.sampled_from(list(ref.deck("russian").elements())), min_size=3, max_size=16),
    st.integers(1, 3),
)
def test_forced_gift_takes_the_best_cards(cards, k):
    hand = Counter(cards)
    hand = Counter({t: min(n, 2) for t, n in hand.items()})
    a, b = pair_of(sorted(hand.elements()))
    ga, gb = gs_cards.best_cards(np.uint64(a), np.uint64(b), k)
    gift = tokens_of(int(ga), int(gb))
    rank = {c: c if c in ref.SPECIALS else c[0] for c in gift}
    want = ref.best_cards(sorted(hand.elements()), k, russian=True)
    assert sorted(rank[c] for c in gift) == sorted(c if c in ref.SPECIALS else c[0] for c in want)
    assert Counter(gift) <= hand


@settings(max_examples=300)
@given(states())
def test_lowest_policy_fast_path_picks_what_the_full_list_picks(state):
    """``gs_policies.lowest_single`` answers leads and singles from the bits; whenever it
    answers, it is the play ``lowest_index`` picks from all legal plays."""
    from tichusim.kernels.seigneur import policies as gs_policies

    hand, top, wish, distinct = state
    code = 0 if top is None else to_code(top)
    a, b = pair_of(hand)
    card, got = gs_policies.lowest_single(np.uint64(a), code, wish or 0)
    if card == 0:
        return
    plays, _ = seigneur_cards.legal_plays(
        " ".join(hand), top_code=code, wish=wish or 0, distinct_triples=distinct
    )
    codes = np.array([c for _, _, c in plays], np.int64)
    i = gs_policies.lowest_index(codes, len(plays))
    assert (plays[i][0], plays[i][1], plays[i][2]) == (int(card), 0, int(got))
