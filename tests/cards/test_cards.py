"""Card model and notation (RULES.md §1)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tichusim import cards

ALL = cards.cards_of(cards.DECK)


def test_deck_has_56_distinct_cards_and_100_points():
    # RULES.md §1: 4 suits x 13 ranks + 4 specials; the deck holds exactly 100 points.
    assert len(ALL) == 56 == bin(cards.DECK).count("1")
    assert cards.points(cards.DECK) == 100


def test_every_card_has_one_token_that_round_trips():
    tokens = [cards.format(b) for b in ALL]
    assert len(set(tokens)) == 56
    for bit, token in zip(ALL, tokens, strict=False):
        assert cards.parse(token) == bit


def test_card_points_rules_section_1():
    assert cards.points(cards.parse("5j 5s 5p 5t")) == 20
    assert cards.points(cards.parse("Tj Kj")) == 20
    assert cards.points(cards.parse("Dr")) == 25
    assert cards.points(cards.parse("Ph")) == -25
    assert cards.points(cards.parse("Ma Dog 2j Aj Qt Jp 9s")) == 0


def test_aliases_and_case():
    assert cards.parse("10s") == cards.parse("Ts") == cards.parse("ts") == cards.parse("TS")
    assert cards.parse("1") == cards.parse("Ma") == cards.parse("MA") == cards.MAH_JONG
    assert cards.parse("dog, PH,dr") == cards.DOG | cards.PHOENIX | cards.DRAGON
    assert cards.parse("Aj,Kj  Qj") == cards.parse("Aj Kj Qj")


def test_layout_puts_rank_r_suit_s_at_bit_16s_plus_r():
    assert cards.parse("2j") == 1 << 2
    assert cards.parse("Aj") == 1 << 14
    assert cards.parse("2s") == 1 << 18
    assert cards.parse("At") == 1 << 62
    assert cards.MAH_JONG == 1 << 1 and cards.DRAGON == 1 << 15


@pytest.mark.parametrize(
    "text, bad",
    [
        ("Aj Aj", "'Aj'"),
        ("Aj Xx", "'Xx'"),
        ("", "no cards"),
        ("   ", "no cards"),
        ("1j", "'1j'"),
        ("Ma 1", "'1'"),
        ("Aq", "'Aq'"),
        ("11s", "'11s'"),
    ],
)
def test_bad_notation_names_the_token(text, bad):
    with pytest.raises(ValueError, match=bad):
        cards.parse(text)


def test_masks_outside_the_deck_are_refused():
    with pytest.raises(ValueError):
        cards.format(1 << 17)  # lane 1, bit 1: no card
    with pytest.raises(ValueError):
        cards.as_mask(-1)


@given(st.sets(st.sampled_from(ALL), min_size=1))
def test_parse_format_round_trip(bits):
    mask = sum(bits)
    assert cards.parse(cards.format(mask)) == mask
    assert len(cards.format(mask).split()) == len(bits)


def test_pattern_exact_cards_and_suitless_ranks():
    exact, ranks = cards.parse_pattern("Dr Ph A A K 9 5 3")
    assert exact == cards.DRAGON | cards.PHOENIX
    assert {r: int(ranks[r]) for r in range(15) if ranks[r]} == {14: 2, 13: 1, 9: 1, 5: 1, 3: 1}
    exact, ranks = cards.parse_pattern("Aj A 10 T 9t J j 1")  # 'j' alone is a Jack, '1' Mah Jong
    assert exact == cards.parse("Aj Ma") | cards.parse("9t")
    assert ranks[14] == 1 and ranks[10] == 2 and ranks[11] == 2
    assert cards.format_pattern(*cards.parse_pattern("3 Dr Aj A 2 2 4 5")) == "Aj Dr 2 2 3 4 5 A"


@pytest.mark.parametrize(
    "text, message",
    [
        ("Dr Ph A A K 9 5", "8 cards is needed, 7 given"),
        ("Dr Ph A A K 9 5 3 2", "8 cards is needed, 9 given"),
        ("Aj Aj A K 9 5 3 2", "'Aj' given twice"),
        ("A A A A A K 9 5", "5 cards of rank A"),
        ("Aj As Ap At A K 9 5", "5 cards of rank A"),
        ("Dr Ph Xx A K 9 5 3", "unknown card 'Xx'"),
        ("Dr Ph Ph A K 9 5 3", "'Ph' given twice"),
        ("", "no cards"),
    ],
)
def test_pattern_errors_say_what_is_wrong(text, message):
    with pytest.raises(ValueError, match=message):
        cards.parse_pattern(text)
