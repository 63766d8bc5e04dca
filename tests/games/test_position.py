"""A rules-checked position (``games.position.Position``) in every team game: built from what a
seat knows at its turn in a real round (RULES.md §6), it passes the checks, and its view is
the engine's own (the records' fields, the legal plays); the rules of each table refuse what
they forbid (§2.4, §3, §4)."""

import numpy as np
import pytest

import tichusim
from tichusim import Round
from tichusim.analysis.advise import advise
from tichusim.cards.notation import DOG
from tichusim.games.position import Position
from tichusim.kernels.tichu.variants import KING, MINISTER
from tichusim.kernels.tichu.view import PRIVATE, PUBLIC

# every field of the records but what a position does not hold: the table's counters of
# tricks and bombs, the ranks known lacking from a wish not followed (a position names none),
# who led a trick not begun, the seat's random stream
PUBLIC_FIELDS = [n for n in PUBLIC.names if n not in ("tricks", "bombs", "lacks", "leader")]
PRIVATE_FIELDS = [n for n in PRIVATE.names if n != "rng"]


def position_of(view) -> Position:
    """The position a seat's view describes (``Position.from_view``), checked as read back
    from its plain data."""
    position = Position.from_view(view)
    assert Position.parse(position.to_dict()) == position
    return position


def play_views(
    variant: str, seed: int, key: int, wanted: int, strategy: str = "expert", bombed=False
) -> list:
    """Views at play decisions of a round played by ``strategy`` at every seat that do not
    follow the Dog (a position lists it with the seat's played cards, §2.10); ``bombed``:
    only those whose trick holds a bomb out of turn (§2.9)."""
    r = Round(seed=seed, key=key, strategies=None, variant=variant)
    player = tichusim.strategy(strategy)
    out = []
    while True:
        r.advance()
        if r.done or len(out) == wanted:
            return out
        view, legal = r.view(), r.legal()
        dog = int(view.top_mask) == DOG
        bomb = any(e.kind == "bomb" for e in view.trick)
        if r.decision == "play" and not dog and (bomb or not bombed):
            out.append((view, legal))
        r.act(player.decide(view, legal))


def test_a_trick_with_a_bomb_out_of_turn_is_a_position():
    """A bomb out of turn (§2.9) stands in the trick where it came: the position is the
    engine's view, and the play goes on after the bomber."""
    found = 0
    for key in range(60):
        if found >= 5:
            break
        for view, legal in play_views("nanjing", 5, key, 99, "random", bombed=True):
            position = position_of(view)
            position.check()
            pub, _ = position.records()
            for name in PUBLIC_FIELDS:
                np.testing.assert_array_equal(pub[0][name], view.public[0][name], err_msg=name)
            assert [int(p) for p in position.legal()[0]] == [int(p) for p in legal if p]
            found += 1
    assert found >= 3
    hand = "Aj Qj 5t 2j 3j 4j 5j 6s 7s 8s 9s Ts Js Qs"
    p = Position.parse({"hand": hand, "seat": 2, "trick": "3: Tp; 1: Kj Ks Kp Kt"})
    assert p.next_turn() == 2 and p.top()[1] == 1
    with pytest.raises(ValueError, match="seat 0 was next"):  # only a bomb comes out of turn
        Position.parse({"hand": hand, "seat": 2, "trick": "3: Tp; 1: Kj"})


@pytest.mark.parametrize("variant", ["nanjing", "tientsin", "wuwang"])
def test_a_position_gives_the_engines_view(variant):
    views = play_views(variant, seed=3, key=2, wanted=40)
    assert len(views) >= 10
    seats = set()
    for view, legal in views:
        position = position_of(view)
        position.check()
        pub, priv = position.records()
        for name in PUBLIC_FIELDS:
            np.testing.assert_array_equal(pub[0][name], view.public[0][name], err_msg=name)
        if position.trick:
            assert pub[0]["leader"] == view.public[0]["leader"]
        for name in PRIVATE_FIELDS:
            np.testing.assert_array_equal(priv[0][name], view.private[0][name], err_msg=name)
        plays, can_pass = position.legal()
        assert [int(p) for p in plays] + [None] * can_pass == [
            None if p is None else int(p) for p in legal
        ]
        seats.add(view.seat)
    assert len(seats) > 1
    view, legal = views[-1]
    advice = advise(position_of(view), 2, candidates=2, seed=1)
    assert advice.ranked and advice.samples == 2


def test_each_table_refuses_what_its_rules_forbid():
    base = {"variant": "tientsin", "seat": 0, "hand": "2j 3j 4j 5j 6j 7j 8j 9j Tj Jj"}
    assert Position.parse(base).counts() == [10, 10, 9, 9, 9, 9]  # the first two drew 10 (§3)
    with pytest.raises(ValueError, match="seat 0 gives no card to seat 1"):
        Position.parse({**base, "gave": {"1": "Qj"}})  # to partners only (§3)
    with pytest.raises(ValueError, match="not the 9 it was dealt"):
        Position.parse({**base, "first_drawer": 2})
    with pytest.raises(ValueError, match="a seat 0..5"):
        Position.parse({**base, "seat": 6})
    wuwang = {
        "variant": "wuwang",
        "seat": 1,
        "hand": "2j 3j 4j 5j 6j 7j 8j 9j Tj Jj Qj Kj Aj 2s",
        "minister": "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2p 3p",
    }
    assert Position.parse(wuwang).view().public[0]["exposed"] != 0
    with pytest.raises(ValueError, match="may not call Grand Tichu"):
        Position.parse({**wuwang, "grand_tichu": [KING]})  # §4
    with pytest.raises(ValueError, match="face up"):
        Position.parse({k: v for k, v in wuwang.items() if k != "minister"})
    with pytest.raises(ValueError, match="gives no card"):
        Position.parse({**wuwang, "received": {str(MINISTER): "4p"}})  # §4
    with pytest.raises(ValueError, match="Wu Wang only"):
        Position.parse({"hand": wuwang["hand"], "minister": "3s"})
    with pytest.raises(ValueError, match="variant"):
        Position.parse({**wuwang, "variant": "grand-seigneur"})
