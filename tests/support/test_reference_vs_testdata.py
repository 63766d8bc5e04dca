"""The brute-force reference (tests/support/reference.py) against RULES.md and the cross-check data.

1. Every line of ``shared/testdata/legal_plays_5k.jsonl`` (legal plays computed by another
   engine, see its README.md) is recomputed by ``reference.legal_plays``; the disagreements
   must be exactly ``KNOWN_DATA_DISAGREEMENTS`` (lines where the data contradicts RULES.md).
2. Small direct rule tests of the reference, each citing RULES.md.
"""

import json
from pathlib import Path

import pytest

from support.reference import (
    ALL_CARDS,
    Combo,
    beats,
    classify,
    format_cards,
    legal_plays,
    parse_cards,
    top_reading,
)

DATA = Path(__file__).resolve().parents[3] / "shared" / "testdata" / "legal_plays_5k.jsonl"

# 1-based line number -> why the data disagrees with RULES.md (RULES.md wins).
# Empty: on the last check, the reference and the data agreed on all 5,000 states.
KNOWN_DATA_DISAGREEMENTS: dict[int, str] = {}


def P(text):
    return parse_cards(text)


def plays_of(hand, top=None, wish=None, phoenix_on=None):
    return legal_plays(P(hand), None if top is None else P(top), wish, phoenix_on)


# ---------------------------------------------------------------------------------------------
# 1. Cross-check against the data
# ---------------------------------------------------------------------------------------------


@pytest.mark.skipif(not DATA.exists(), reason=f"cross-check data not found at {DATA}")
@pytest.mark.parametrize(
    "every", [pytest.param(1, marks=pytest.mark.slow, id="all"), pytest.param(10, id="tenth")]
)
def test_reference_matches_testdata(every):
    """Every line (the slow tier), or every tenth (the fast one)."""
    disagreements = {}
    n_lines = 0
    checked = set()
    with DATA.open() as f:
        for line_no, line in enumerate(f, start=1):
            if not line.strip():
                continue
            n_lines += 1
            if (line_no - 1) % every:
                continue
            checked.add(line_no)
            state = json.loads(line)
            top = P(state["top"]) if state["top"] else None
            plays, can_pass = legal_plays(P(state["hand"]), top, state["wish"], state["phoenix_on"])
            expected = {P(p) for p in state["plays"]}
            if plays != expected or can_pass != state["can_pass"]:
                disagreements[line_no] = (
                    f"hand={state['hand']!r} top={state['top']!r} wish={state['wish']} "
                    f"phoenix_on={state['phoenix_on']}: "
                    f"only reference={sorted(format_cards(p) for p in plays - expected)} "
                    f"only data={sorted(format_cards(p) for p in expected - plays)} "
                    f"can_pass reference={can_pass} data={state['can_pass']}"
                )
    assert n_lines == 5000
    unexpected = {k: v for k, v in disagreements.items() if k not in KNOWN_DATA_DISAGREEMENTS}
    vanished = sorted(set(KNOWN_DATA_DISAGREEMENTS) & checked - set(disagreements))
    assert not unexpected, "new disagreements:\n" + "\n".join(
        f"line {k}: {v}" for k, v in sorted(unexpected.items())
    )
    assert not vanished, f"listed disagreements no longer occur: {vanished}"


# ---------------------------------------------------------------------------------------------
# 2. Direct rule tests
# ---------------------------------------------------------------------------------------------


def test_deck():
    # RULES.md §1: 56 cards, 4 suits x 13 ranks + 4 specials
    assert len(ALL_CARDS) == len(set(ALL_CARDS)) == 56
    with pytest.raises(ValueError):
        parse_cards("10j")
    with pytest.raises(ValueError):
        parse_cards("2j 2j")


def test_basic_kinds():
    # RULES.md §2.5 table
    assert classify(P("7j")) == [Combo("single", 1, 7)]
    assert classify(P("Ma")) == [Combo("single", 1, 1)]
    assert classify(P("Dr")) == [Combo("single", 1, 15)]
    assert classify(P("Dog")) == [Combo("dog", 1, 0)]
    assert classify(P("7j 7s")) == [Combo("pair", 2, 7)]
    assert classify(P("7j 7s 7p")) == [Combo("triple", 3, 7)]
    assert classify(P("5j 5s 6p 6t")) == [Combo("stairs", 4, 6)]
    assert classify(P("Jj Js Qp Qt Kj Ks")) == [Combo("stairs", 6, 13)]
    assert classify(P("7j 7s 7p 3j 3t")) == [Combo("fullhouse", 5, 7)]
    assert classify(P("3j 4s 5p 6t 7j")) == [Combo("straight", 5, 7)]
    assert classify(P("9j 9s 9p 9t")) == [Combo("bomb4", 4, 9)]
    assert classify(P("3j 4j 5j 6j 7j 8j")) == [Combo("bombsf", 6, (6, 8))]
    # not combinations
    for text in ("5j 5s 7p 7t", "5j 6s", "5j 5s 6p", "3j 4s 5p 6t", "5j 5s 5p 6t 6s 6j"):
        assert classify(P(text)) == [], text


def test_phoenix_wildcard_readings():
    # RULES.md §2.5: the Phoenix stands for any rank 2-A in pair/triple/FH/stairs/straight
    assert classify(P("Kj Ph")) == [Combo("pair", 2, 13)]
    assert classify(P("Kj Ks Ph")) == [Combo("triple", 3, 13)]
    assert classify(P("Kj Ks Qp Ph")) == [Combo("stairs", 4, 13)]
    assert classify(P("7j 7s 8p 8t Ph")) == [Combo("fullhouse", 5, 7), Combo("fullhouse", 5, 8)]
    assert classify(P("Tj Js Qp Kt Ph")) == [Combo("straight", 5, 13), Combo("straight", 5, 14)]
    assert classify(P("Jj Qs Kp At Ph")) == [Combo("straight", 5, 14)]  # Ph = 10, no wrap
    assert top_reading(P("7j 7s 8p 8t Ph")) == Combo("fullhouse", 5, 8)
    # RULES.md §2.5: never for the Mah Jong, Dog or Dragon
    assert classify(P("Ma Ph")) == []
    assert classify(P("Dr Ph")) == []
    assert classify(P("Dog Ph")) == []
    assert classify(P("Ph 2j 3s 4p 5t")) == [Combo("straight", 5, 6)]  # not 1-5
    assert classify(P("Ma Ph 3s 4p 5t")) == [Combo("straight", 5, 5)]  # Ph = 2
    # RULES.md §2.5: the Phoenix is never part of a bomb
    assert classify(P("9j 9s 9p Ph")) == []
    assert classify(P("3j 4j 5j 6j Ph")) == [Combo("straight", 5, 6), Combo("straight", 5, 7)]


def test_four_of_a_kind_plus_phoenix_is_not_a_full_house():
    # RULES.md §2.5 Decision (Japanese FAQ)
    assert classify(P("9j 9s 9p 9t Ph")) == []
    # (whereas a triple + Phoenix + another card is one: Phoenix pairs the other card)
    assert classify(P("9j 9s 9p Ph 4t")) == [Combo("fullhouse", 5, 9)]
    # and four of a kind + Phoenix cannot beat a full house either
    assert plays_of("9j 9s 9p 9t Ph", top="3j 3s 3p 2j 2s")[0] == {P("9j 9s 9p 9t")}


def test_straight_flush_is_never_an_ordinary_straight():
    # RULES.md §2.5: a straight flush is always a bomb
    assert classify(P("3p 4p 5p 6p 7p")) == [Combo("bombsf", 5, (5, 7))]
    plays, _ = plays_of("3p 4p 5p 6p 7p", top="2j 3s 4p 5t 6j")
    assert plays == {P("3p 4p 5p 6p 7p")}  # playable, but only as a bomb
    assert plays_of("3p 4p 5p 6p 7p", top="3j 4s 5s 6t 7j 8s")[0] == {P("3p 4p 5p 6p 7p")}
    # ... but the Mah Jong or the Phoenix make it an ordinary straight (no suit)
    assert classify(P("Ma 2p 3p 4p 5p")) == [Combo("straight", 5, 5)]
    assert classify(P("Ma 2p 3p 4p 5p 6p")) == [Combo("straight", 6, 6)]


def test_mahjong_and_dog_and_dragon_restrictions():
    # RULES.md §2.5: Mah Jong only single or bottom of a straight; Dog and Dragon only alone
    assert classify(P("Ma 2j")) == []
    assert classify(P("Ma 2j 3j 4s 5p")) == [Combo("straight", 5, 5)]
    assert classify(P("Ma 3j 4j 5s 6p")) == []
    assert classify(P("Dr Aj Ks")) == []
    assert classify(P("Dr Ph")) == []
    assert classify(P("Dog 2j")) == []
    # RULES.md §2.5: A is high only, no wrap-around
    assert classify(P("Qj Ks Ap 2t 3j")) == []
    assert classify(P("Aj 2s 3p 4t 5j")) == []


def test_phoenix_single_beats_ace_not_dragon():
    # RULES.md §2.6: Phoenix is ½ above the single it is played on; never beats the Dragon
    ph_on_ace = classify(P("Ph"), phoenix_on=14)[0]
    assert ph_on_ace == Combo("single", 1, 14.5)
    assert beats(ph_on_ace, Combo("single", 1, 14))
    assert plays_of("Ph 3j", top="Aj")[0] == {P("Ph")}
    assert plays_of("Ph 3j", top="Dr")[0] == set()
    # RULES.md §2.6: the Dragon beats every single, the Phoenix included
    assert plays_of("Dr 3j", top="Ph", phoenix_on=14)[0] == {P("Dr")}
    # on an 8 the Phoenix is 8½: beaten by a 9, not by an 8
    assert plays_of("8s 9s", top="Ph", phoenix_on=8)[0] == {P("9s")}


def test_mahjong_cannot_go_on_led_phoenix():
    # RULES.md §2.6: a led Phoenix is worth 1½
    assert classify(P("Ph")) == [Combo("single", 1, 1.5)]
    plays, can_pass = plays_of("Ma 2j", top="Ph")
    assert plays == {P("2j")} and can_pass


def test_bombs():
    # RULES.md §2.7: a bomb beats every non-bomb, the Dragon included
    assert plays_of("3j 3s 3p 3t", top="Dr")[0] == {P("3j 3s 3p 3t")}
    four_aces = Combo("bomb4", 4, 14)
    sf5 = Combo("bombsf", 5, (5, 6))
    sf6 = Combo("bombsf", 6, (6, 7))
    # every straight flush beats every four of a kind; longer SF beats shorter; fours by rank
    assert beats(sf5, four_aces) and not beats(four_aces, sf5)
    assert beats(sf6, Combo("bombsf", 5, (5, 14)))
    assert beats(Combo("bombsf", 5, (5, 9)), Combo("bombsf", 5, (5, 8)))
    assert not beats(Combo("bombsf", 5, (5, 8)), Combo("bombsf", 5, (5, 8)))
    assert beats(four_aces, Combo("bomb4", 4, 13)) and not beats(Combo("bomb4", 4, 13), four_aces)
    # a non-bomb never beats a bomb
    assert plays_of("Dr Ph Aj", top="2j 2s 2p 2t")[0] == set()


def test_same_type_same_length():
    # RULES.md §2.7: straights/stairs only compare at equal length
    assert plays_of("4j 5s 6p 7t 8j 9s", top="2j 3s 4p 5t 6j")[0] == {
        P("4j 5s 6p 7t 8j"),
        P("5s 6p 7t 8j 9s"),
    }
    assert plays_of("5j 5s 6p 6t 7j 7s", top="2j 2s 3p 3t 4j 4s")[0] == {P("5j 5s 6p 6t 7j 7s")}


def test_dog_on_top_means_leading():
    # RULES.md §2.10: nothing is played on the Dog; the partner leads
    assert not beats(Combo("bomb4", 4, 14), Combo("dog", 1, 0))
    plays, can_pass = plays_of("3j 3s", top="Dog")
    assert plays == {P("3j"), P("3s"), P("3j 3s")} and not can_pass
    # RULES.md §2.8: the leader may lead the Dog
    assert P("Dog") in plays_of("Dog 3j")[0]


def test_wish_binds_on_own_turn():
    # RULES.md §2.11: must play the wished rank if possible; bombs beating the top too; no pass
    plays, can_pass = plays_of("7j 9s 2j 2s 2p 2t", top="5j", wish=7)
    assert plays == {P("7j"), P("2j 2s 2p 2t")} and not can_pass
    # holding the rank but no legal play with it: free
    plays, can_pass = plays_of("7j 9s", top="8j", wish=7)
    assert plays == {P("9s")} and can_pass
    # not holding it: free even with a Phoenix that could stand for it
    plays, can_pass = plays_of("Ph 9s", top="5j", wish=7)
    assert plays == {P("Ph"), P("9s")} and can_pass


def test_wish_binds_when_leading():
    # RULES.md §2.11: when leading, only combinations containing the wished rank (no Dog,
    # a bomb only if it contains the rank)
    plays, can_pass = plays_of("Dog 7j 3j 3s 3p 3t", wish=7)
    assert plays == {P("7j")} and not can_pass
    plays, _ = plays_of("7j 3j 4j 5j 6j Ph", wish=7)
    assert P("3j 4j 5j 6j 7j") in plays  # the straight-flush bomb contains a 7
    assert all(any(c.startswith("7") for c in p) for p in plays)
    # the Phoenix standing for a 7 does not fulfil the wish (it is not a card of that rank)
    assert P("3j 4j 5j 6j Ph") not in plays
