"""A finished round scored from plain data (``score_round``) by the engine's scoring:
RULES.md §2.13–§2.14, Tientsin §3; and equal to the engine's own score on played rounds."""

import pytest

import tichusim
from tichusim import Round, score_round


def test_transfers_at_the_end_of_a_round():
    """§2.13: the last seat's hand goes to its opponents, its tricks to the first out; §2.14:
    each call's bonus or penalty on top."""
    s = score_round([1, 0, 3], [20, 30, 25, 10], hand="5j Ks", tichu=[1], grand_tichu=[0])
    # team 0: seat 0's 20; team 1: 30 + 10 + seat 2's tricks 25 + its hand 15; calls +100, -200
    assert s.card_points == (20, 80) and s.score == (20 - 200, 80 + 100) and not s.victory


def test_a_double_victory_counts_no_card_points():
    s = score_round([2, 0], tichu=[2, 1])
    assert s.card_points == (200, 0)
    assert s.score == (300, -100) and s.victory


def test_tientsin_hands_the_fifth_tricks_to_the_first_out():
    """§3: the fifth seat's tricks go to the first out; the last's hand and tricks to its
    opponents."""
    s = score_round([0, 1, 2, 3, 4], [10, 20, 30, 5, 15, 15], hand="5j", variant="tientsin")
    # the fifth, seat 4, to the first out (team 0); the last, seat 5, its hand and tricks to
    # team 0
    assert s.card_points == (10 + 30 + 15 + 15 + 5, 20 + 5) and s.score == s.card_points
    assert score_round([1, 3, 5], variant="tientsin").card_points == (0, 300)


@pytest.mark.parametrize("variant", ["nanjing", "tientsin", "wuwang"])
def test_played_rounds_score_as_the_engine_scored_them(variant):
    """The seats' points before the hand-overs, the order out and the last hand read off
    rounds the engine played: ``score_round`` gives the engine's score."""
    for key in range(30):
        r = Round(seed=8, key=key, strategies="expert", variant=variant)
        r.advance()
        rounds, _ = r.tables()
        pub, privs, seats = r._kept[1][0], r._kept[2], r.seats[0, 0]
        n = int(pub["n_players"])
        out = [int(s) for s in pub["out_order"][: int(pub["n_out"])]]
        taken = [int(seats[s]["card_points_won"]) for s in range(n)]
        last = [s for s in range(n) if s not in out]
        hand = int(privs[last[0]]["hand"]) if len(last) == 1 else 0
        calls = {
            "tichu": [s for s in range(n) if pub["tichu"][s]],
            "grand_tichu": [s for s in range(n) if pub["grand_tichu"][s]],
        }
        s = score_round(out, taken, hand=hand, variant=variant, **calls)
        assert s.score == (int(rounds.score_team0[0]), int(rounds.score_team1[0])), key


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (([0, 1],), {}, "not over"),
        (([0, 1, 2], [10, 10, 10, 10]), {}, "make no 100"),
        (([0, 0, 1],), {}, "twice"),
        (([0, 1, 2], [25, 25, 25, 25]), {"tichu": [0], "grand_tichu": [0]}, "both"),
        (([0, 2],), {"variant": "grand-seigneur"}, "a team game"),
        (([0, 4],), {}, "seats 0..3"),
    ],
)
def test_bad_rounds_are_refused_in_one_line(args, kwargs, message):
    with pytest.raises(ValueError, match=message) as caught:
        score_round(*args, **kwargs)
    assert "\n" not in str(caught.value)


def test_the_public_names():
    assert tichusim.score_round is score_round
