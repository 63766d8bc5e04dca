"""Combination classification, the beat relation and whole-enumeration counts.

RULES.md §2.5–§2.7.
"""

import numpy as np
import pytest

from tichusim import beats, cards, classify, readings
from tichusim.cards.combos import Combo
from tichusim.kernels import combos, moves

DECK = np.uint64(cards.DECK)


def count_answers(top_code):
    """Number of distinct card sets of the whole deck that beat ``top_code``."""
    buf_m = np.empty(1, np.uint64)
    buf_c = np.empty(1, np.int64)
    return moves.candidate_moves(DECK, top_code, buf_m, buf_c)


BOMBS = 13 + 4 * sum(14 - length for length in range(5, 14))  # fours + straight flushes = 193


@pytest.mark.parametrize(
    "kind, length, expected",
    [
        # singles answering a rank-0 single: 52 normal cards, Phoenix, Dragon (§2.6; the Mah Jong
        # only leads, the Dog is no single)
        (combos.SINGLE, 1, 54),
        # 13 ranks x C(4,2) = 78, plus 52 cards x Phoenix = 130 (§2.5)
        (combos.PAIR, 2, 130),
        # 13 x C(4,3) = 52, plus 13 x C(4,2) with the Phoenix = 78
        (combos.TRIPLE, 3, 130),
        # 12 windows x (6^2 real + 2 ranks x 4 cards x 6 with the Phoenix) = 12 x 84
        (combos.STAIRS, 4, 1008),
        # 11 windows x (6^3 + 3 x 4 x 6^2) = 11 x 648
        (combos.STAIRS, 6, 7128),
        # real: 13x4 triples x 12x6 pairs = 3744; Phoenix in the pair: 52 x 12x4 = 2496;
        # two pairs + Phoenix, one set per rank pair: C(13,2) x 6 x 6 = 2808
        (combos.FULL_HOUSE, 5, 9048),
        # no Phoenix: 9 windows 2..A x (4^5 - 4 straight flushes) + Mah Jong window 4^4 = 9436;
        # Phoenix: real ranks a..a+3 (11 runs: a=1 gives 4^3, a=2..11 give 4^4) = 2624,
        # real ranks a..a+4 less one inside rank (a=1: 3 x 4^3; a=2..10: 27 x 4^4) = 7104
        (combos.STRAIGHT, 5, 9436 + 2624 + 7104),
    ],
)
def test_whole_deck_enumeration_counts(kind, length, expected):
    got = count_answers(combos.make_code(kind, length, 0))
    assert got - BOMBS == expected


def test_bomb_count_and_only_bombs_beat_the_highest_four():
    assert count_answers(combos.make_code(combos.STRAIGHT, 13, 30)) == BOMBS
    # four aces: only the 180 straight flushes beat it (§2.7: every SF beats every four)
    assert count_answers(combos.make_code(combos.BOMB_FOUR, 4, 28)) == 180


def test_readings_of_phoenix_sets():
    # §2.5: two pairs + Phoenix is a full house of either rank; the highest reading comes first
    assert readings("5j 5s 6j 6s Ph") == [Combo("full house", 5, 6), Combo("full house", 5, 5)]
    assert readings("Tj Jj Qs Ks Ph") == [Combo("straight", 5, 14), Combo("straight", 5, 13)]
    # Phoenix never stands for the Mah Jong: 2345+Ph only extends at the top
    assert readings("2j 3s 4p 5t Ph") == [Combo("straight", 5, 6)]
    assert readings("Ma 2j 3s 4p Ph") == [Combo("straight", 5, 5)]


@pytest.mark.parametrize(
    "text",
    [
        "5j 5s 5p 5t Ph",  # §2.5 Decision: four of a rank + Phoenix is not a full house
        "Ma 2j",
        "Ma 2j 2s",
        "Ma 2j 3j 4j",  # Mah Jong only single or in a straight
        "Dr Ph",
        "Dog 2j",
        "Dr 2j 3j 4j 5j",  # Dragon and Dog only alone
        "Ph 5j 5s 5p",  # triple + Phoenix: no combination (the Phoenix is never in a bomb)
        "Jj Qj Kj Aj 2s",  # no wrap-around (§2.5)
        "2j 3j 4j 5j 7j 8j",
        "5j 5s 7j 7s",  # not consecutive
        "2j 3s 4p Ph",  # four cards are no straight
        "5j 6j 8j 9j Ph Ks",  # two gaps, one Phoenix
    ],
)
def test_not_combinations(text):
    assert classify(cards.parse(text)) is None, text


def test_straight_flush_is_always_a_bomb():
    # §2.5 (Japanese FAQ): a straight flush may not be played as an ordinary straight
    assert classify("3p 4p 5p 6p 7p") == Combo("straight-flush bomb", 5, 7)
    assert beats("3p 4p 5p 6p 7p", "2j 3s 4j 5t 6j")  # as a bomb
    # ... and never as a straight: against a bomb it is one of two answers, both bombs
    from tichusim import legal_plays

    plays, _ = legal_plays("3p 4p 5p 6p 7p 8p", "2j 3j 4j 5j 6j")
    assert sorted(classify(p).kind for p in plays) == ["straight-flush bomb"] * 3
    # ... but with the Mah Jong or the Phoenix it is an ordinary straight
    assert classify("Ma 2p 3p 4p 5p") == Combo("straight", 5, 5)
    assert classify("3p 4p 5p 6p Ph") == Combo("straight", 5, 7)


def test_phoenix_single_values():
    # §2.6: ½ above the single it is played on; beats an Ace, never the Dragon
    assert beats("Ph", "At")
    assert not beats("Ph", "Dr")
    assert beats("Dr", "Ph", phoenix_on=14)
    assert beats("Dr", "Ph")
    # led Phoenix is 1½: a 2 beats it, the Mah Jong does not
    assert beats("2j", "Ph")
    assert not beats("Ma", "Ph")
    # played on a 9 it is 9½: a 9 does not beat it, a 10 does
    assert not beats("9s", "Ph", phoenix_on=9)
    assert beats("Ts", "Ph", phoenix_on=9)


def test_bomb_order():
    # §2.7: SF > four of a kind; longer SF > shorter; equal length by top; fours by rank
    assert beats("2j 3j 4j 5j 6j", "Aj As Ap At")
    assert not beats("Aj As Ap At", "2j 3j 4j 5j 6j")
    assert beats("2j 3j 4j 5j 6j 7j", "9s Ts Js Qs Ks")
    assert beats("3s 4s 5s 6s 7s", "2j 3j 4j 5j 6j")
    assert not beats("2s 3s 4s 5s 6s", "2j 3j 4j 5j 6j")
    assert beats("3j 3s 3p 3t", "2j 2s 2p 2t")
    assert beats("2j 2s 2p 2t", "Dr")  # a bomb beats the Dragon
    assert beats("2j 2s 2p 2t", "Aj As Ap Kt Ks")


def test_same_kind_and_length_needed():
    assert not beats("9j 9s", "2j 3s 4p 5t 6j")
    assert not beats("3j 4s 5p 6t 7j 8s", "2j 3s 4p 5t 6j")  # straights compare at equal length
    assert not beats("3j 3s 4j 4s 5j 5s", "2j 2s 3p 3t")  # stairs likewise
    assert beats("4j 4s 5j 5s", "2j 2s 3p 3t")
    assert beats("6j 6s 6p 2j 2s", "5j 5s 5p Aj As")  # full house by the triple


def test_invalid_top_is_refused():
    from tichusim import legal_plays

    with pytest.raises(ValueError, match="not a combination"):
        legal_plays("2j", "3j 4s")
    with pytest.raises(ValueError, match="share cards"):
        legal_plays("2j 3j", "3j")
    with pytest.raises(ValueError, match="phoenix_on"):
        legal_plays("2j", "3j", phoenix_on=2)


def test_nothing_beats_the_dog_not_even_a_bomb():
    """§2.7, §2.10: the Dog hands the lead on; nothing is played on it."""
    from tichusim import beats

    assert not beats("Aj", "Dog")
    assert not beats("7j 7s 7p 7t", "Dog")
    assert not beats("Dr", "Dog")


def test_a_trick_gives_the_top_and_the_phoenixs_value():
    """§2.6: a lone Phoenix on top is worth ½ more than the single under it, 1½ when led:
    ``trick`` gives both (``trick_top``), so a caller need not track them."""
    from tichusim import beats, legal_plays
    from tichusim.cards.combos import trick_top

    assert trick_top(["8s", None, "Ph"]) == (cards.PHOENIX, 8)
    assert trick_top(["Ph"]) == (cards.PHOENIX, None)
    assert trick_top([None, "pass"]) == (None, None)
    assert [cards.format(p) for p in legal_plays("8j 9j", trick=["8s", "Ph"])[0]] == ["9j"]
    assert not beats("8j", trick=["8s", "Ph"]) and beats("8j", trick=["7s", "Ph"])
    with pytest.raises(ValueError, match="not both"):
        legal_plays("9j", "8s", trick=["8s"])


def test_the_bombs_a_hand_may_play_out_of_turn():
    """§2.9: every bomb that beats the top, lowest first; none before a lead, none on the
    Dog; a bomb beats a lower one only (§2.7)."""
    from tichusim import bombs

    hand = "7j 7s 7p 7t 2j 3j 4j 5j 6j Ks"
    listed = [cards.format(p) for p in bombs(hand, "Aj")]
    assert listed == ["7j 7s 7p 7t", "2j 3j 4j 5j 6j", "3j 4j 5j 6j 7j", "2j 3j 4j 5j 6j 7j"]
    assert bombs(hand, None) == [] and bombs(hand, "Dog") == []
    assert [cards.format(p) for p in bombs(hand, "8j 8s 8p 8t")] == listed[1:]
    assert bombs("2j 3s", "Aj") == []
