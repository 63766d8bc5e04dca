"""Legal plays (RULES.md §2.5–§2.11) against an independent engine's data and rule clauses."""

import json

import pytest
from conftest import SHARED

from tichusim import cards, classify, legal_plays

TESTDATA = SHARED / "testdata" / "legal_plays_5k.jsonl"


def fmt_all(masks):
    return sorted(cards.format(m) for m in masks)


@pytest.mark.skipif(not TESTDATA.exists(), reason="shared/testdata not beside the repository")
def test_agrees_with_independent_engine_on_5000_states():
    disagreements = []
    for number, line in enumerate(TESTDATA.read_text().splitlines(), start=1):
        state = json.loads(line)
        plays, can_pass = legal_plays(
            state["hand"], state["top"], wish=state["wish"], phoenix_on=state["phoenix_on"]
        )
        expected = {cards.parse(p) for p in state["plays"]}
        if set(plays) != expected or can_pass != state["can_pass"] or len(plays) != len(expected):
            disagreements.append(number)
    assert disagreements == []


def test_no_duplicates_and_every_play_is_a_combination():
    hand = "Ma 2j 3j 4s 5s 5p 6t 7t 7j 8j 9j Ph Dr Dog"
    plays, can_pass = legal_plays(hand)
    assert len(plays) == len(set(plays)) and not can_pass
    for p in plays:
        assert classify(p) is not None


def test_dog_only_as_a_lead():
    # §2.10: the Dog is played alone and only as a lead
    hand = "Dog 5j 5s"
    assert cards.DOG in legal_plays(hand)[0]
    assert cards.DOG not in legal_plays(hand, "4j")[0]
    # after the Dog the next player leads: the Dog's top means "lead", and bombs lead as usual
    plays, can_pass = legal_plays("2j 2s 2p 2t 9j", "Dog")
    assert not can_pass and cards.parse("2j 2s 2p 2t") in plays and cards.parse("9j") in plays


def test_nothing_beats_the_dog_as_a_top():
    # §2.9: the Dog is never bombed; in the kernel a Dog top answers nothing
    import numpy as np

    from tichusim.kernels import combos, moves

    m = np.empty(64, np.uint64)
    c = np.empty(64, np.int64)
    dog = combos.make_code(combos.DOG_LEAD, 1, 0)
    assert moves.candidate_moves(np.uint64(cards.parse("2j 2s 2p 2t")), dog, m, c) == 0


def test_wish_binds_a_regular_turn():
    # §2.11: holding the wished rank with a legal play containing it, the player must play it
    plays, can_pass = legal_plays("7j 9s Kp", "5t", wish=7)
    assert fmt_all(plays) == ["7j"] and not can_pass


def test_wish_not_binding_without_a_legal_play_of_that_rank():
    # §2.11: holding the rank but unable to play it on this trick: free to pass or play
    plays, can_pass = legal_plays("7j 9s Kp", "8t", wish=7)
    assert fmt_all(plays) == ["9s", "Kp"] and can_pass


def test_wish_with_phoenix_does_not_bind():
    # §2.11: not holding the rank: free, even with a Phoenix that could stand for it
    plays, can_pass = legal_plays("Ph 7j 9s", "6t 6s", wish=8)
    assert can_pass and set(fmt_all(plays)) == {"7j Ph", "9s Ph"}
    # holding it, the Phoenix may complete it: the pair of 9s is then compulsory
    plays, can_pass = legal_plays("Ph 9s 3j", "6t 6s", wish=9)
    assert fmt_all(plays) == ["9s Ph"] and not can_pass


def test_wish_reachable_only_through_a_bomb():
    # §2.11: "a bomb too, if a bomb is the only way"
    hand = "9j 9s 9p 9t 4j"
    plays, can_pass = legal_plays(hand, "Kt", wish=9)
    assert fmt_all(plays) == ["9j 9s 9p 9t"] and not can_pass


def test_bound_turn_admits_every_bomb_beating_the_top():
    # §2.11 last bullet: on a bound turn, plays with the wished rank plus every bomb that beats
    plays, can_pass = legal_plays("7j Kj Ks Kp Kt", "5t", wish=7)
    assert fmt_all(plays) == ["7j", "Kj Ks Kp Kt"] and not can_pass


def test_bound_lead_only_plays_with_the_wished_rank():
    # §2.11: leading while bound: only combinations containing the wished rank, so no Dog and
    # no bomb without that rank
    plays, can_pass = legal_plays("Dog 7j 8j Kj Ks Kp Kt", wish=7)
    assert not can_pass
    assert all(p & cards.parse("7j") for p in plays)
    assert cards.DOG not in plays and cards.parse("Kj Ks Kp Kt") not in plays


def test_mah_jong_cannot_be_played_on_a_led_phoenix():
    # §2.6: a led Phoenix is worth 1½; the Mah Jong (1) cannot beat it, a 2 can
    assert fmt_all(legal_plays("Ma 2j", "Ph")[0]) == ["2j"]


def test_phoenix_over_ace_never_over_dragon():
    assert fmt_all(legal_plays("Ph 3j", "At")[0]) == ["Ph"]
    assert legal_plays("Ph 3j", "Dr")[0] == []
    assert fmt_all(legal_plays("Dr", "Ph", phoenix_on=14)[0]) == ["Dr"]


def test_four_of_a_kind_plus_phoenix_is_no_full_house():
    plays, _ = legal_plays("5j 5s 5p 5t Ph", "2j 2s 2p 3j 3s")
    assert fmt_all(plays) == ["5j 5s 5p 5t"]  # only the bomb answers


def test_bombs_answer_any_non_dog_combination():
    plays, can_pass = legal_plays("3j 3s 3p 3t", "Dr")
    assert fmt_all(plays) == ["3j 3s 3p 3t"] and can_pass


def test_each_play_carries_its_combination():
    """``legal_plays`` names the combination of every play (its highest reading; a lone Phoenix
    valued on the trick, RULES.md §2.6), so callers never classify again; a play is still the
    card mask it was."""
    plays, _ = legal_plays("Ma 2j 3s 4p 5t Ph 7j 7s Dr")
    assert plays and all(p == p.cards and isinstance(p, int) for p in plays)
    for p in plays:
        if p == cards.PHOENIX:
            assert p.combo == (("single", 1, 1.5))  # led: 1½
        else:
            assert p.combo == classify(p)
    on_seven = {cards.format(p): p.combo for p in legal_plays("Ph Dr 8j", "7j")[0]}
    assert on_seven["Ph"].rank == 7.5 and on_seven["8j"].rank == 8
    led_half = legal_plays("Ph 2j", phoenix_led_half=True)[0]
    assert [p.combo.rank for p in led_half if p == cards.PHOENIX] == [0.5]
