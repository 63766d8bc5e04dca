"""Rounds played on from the decisions a search could not weigh before the review needed them:
a Tichu called before the passing (RULES.md §2.3), the passed cards (§2.4, §3, §4), the Mah
Jong's wish (§2.11), the Dragon's gift (§2.12) and the Dog's lead at Tientsin (§3).

From the state at each such decision with the real hands and the real answer given
(``rollout.answered``), the round ends exactly as the round played through (the scores and
the first player out), as ``test_rollout.py`` holds the plays, bombs and later Tichu calls to;
and a search weighs each kind from the seat's view alone, reproducibly, refusing an answer
that is not legal.
"""

import numpy as np
import pytest
from support import kernel_entries

import tichusim
from tichusim import Round
from tichusim.games import registry
from tichusim.games.view import CODES
from tichusim.kernels.errors import ERR_NONE
from tichusim.kernels.tichu.records import ROUND, SEAT
from tichusim.kernels.tichu.variants import MAX_SEATS
from tichusim.search.evaluate import evaluate_plays

KINDS = ("pass", "wish", "dragon", "dog")


def _script_answer(r, decision, choice, legal) -> int:
    """The answer as the engine's script holds it (``kernels/outside.py``)."""
    return r.game.steps.answer_of(choice, legal)


def _play_through(variant, seed, key, strategy, stop):
    """Round ``key`` stepped from Python, every decision answered by ``strategy`` as the
    engine would; ``stop(state)`` sees the full state at each Tichu before the passing, pass,
    wish, Dragon's gift and Dog's lead with the answer about to be given. Returns the round's
    records."""
    r = Round(seed=seed, key=key, strategies=None, variant=variant)
    s = tichusim.strategy(strategy)
    while not r.done:
        r.advance()
        if r.done:
            break
        view, legal = r.view(), r.legal()
        choice = s.decide(view, legal)
        kind = r.decision
        if kind in KINDS or (kind == "tichu" and view.detail == 0):
            work, pub, privs = (a.copy() for a in r._kept)
            privs[r.to_act]["rng"] = view.private[0]["rng"]  # the stream as the answer left it
            stop(
                {
                    "work": work,
                    "pub": pub,
                    "privs": privs,
                    "seat": r.to_act,
                    "decision": kind,
                    "detail": int(view.detail),
                    "answer": _script_answer(r, kind, choice, legal),
                    "view": view,
                    "legal": legal,
                    "choice": choice,
                }
            )
        r.act(choice)
    return r.rounds[0, 0]


def _answered(variant, state, strategy):
    work = state["work"]
    game = kernel_entries.one_strategy_everywhere(work, variant, strategy)
    at = (state["seat"], CODES[state["decision"]], state["detail"], -1, -1)
    rnd = np.zeros(1, ROUND)
    seats = np.zeros(MAX_SEATS, SEAT)
    return kernel_entries.ANSWER[game.variant_code](
        work, state["pub"], state["privs"], rnd, seats, at, state["answer"]
    )


@pytest.mark.parametrize("variant", ["nanjing", "tientsin", "wuwang"])
@pytest.mark.parametrize("strategy", [pytest.param("expert", marks=pytest.mark.slow), "heuristic"])
def test_answered_round_ends_as_played(variant, strategy):
    """From every pass, wish, Dragon's gift, Dog's lead and Tichu question before the passing
    of several rounds: the same scores and first out as the round played through."""
    checked = dict.fromkeys((*KINDS, "tichu"), 0)
    for key in range(8):
        states = []
        end = _play_through(variant, 13, key, strategy, states.append)
        for state in states:
            err, t0, t1, first = _answered(variant, state, strategy)
            assert err == ERR_NONE
            assert (t0, t1) == tuple(end["score"]), (key, state["decision"])
            assert first == end["first_out"]
            checked[state["decision"]] += 1
    passers = 2 if variant == "wuwang" else registry.game(variant).seats  # §4: no Minister
    assert checked["pass"] >= 8 * passers - 8
    assert checked["tichu"] >= 8
    assert checked["wish"] >= 4 and checked["dragon"] >= 2
    if variant == "tientsin":
        assert checked["dog"] >= 1


def _views(variant="nanjing", seed=21, keys=range(6)):
    """The first view of each kind (and of a Tichu before the passing), with its legal
    choices and the answer given."""
    got = {}

    def grab(state):
        kind = state["decision"]
        got.setdefault(kind, (state["view"], state["legal"], state["choice"]))

    for key in keys:
        _play_through(variant, seed, key, "expert", grab)
    return got


def test_every_kind_is_weighed_from_the_view():
    """Each kind weighed on the same deals: the same seed, the same margins; a call before the
    passing changes the margins (its 100 points, §2.14) and its own first-out share counts the
    caller alone; a candidate that is not legal is refused in one line."""
    got = _views()
    assert set(got) == {"pass", "wish", "dragon", "tichu"}
    for kind, (view, legal, choice) in got.items():
        if kind == "tichu":
            candidates = [False, True]
        elif kind == "pass":
            others = iter(legal)
            candidates = [choice, next(p for p in others if list(p) != list(choice))]
        else:
            candidates = [choice, next(a for a in legal if a != choice)]
        res = evaluate_plays(view, candidates, samples=12, seed=4)
        again = evaluate_plays(view, candidates, samples=12, seed=4)
        np.testing.assert_array_equal(res.margin, again.margin)
        assert res.margin.shape == (2, 12)
        assert (res.own_first <= res.first).all()  # the seat out first: its team is
        if kind == "tichu":
            assert np.mean(res.margin[0] != res.margin[1]) > 0.9
    view, legal, _ = got["wish"]
    with pytest.raises(ValueError, match="legal"):
        evaluate_plays(view, [1], samples=2, seed=1)
    view, legal, _ = got["dragon"]
    with pytest.raises(ValueError, match="legal"):
        evaluate_plays(view, [view.seat], samples=2, seed=1)  # the Dragon to itself
    view, legal, choice = got["pass"]
    with pytest.raises(ValueError, match="legal"):
        evaluate_plays(view, [(choice[0], choice[0], choice[1])], samples=2, seed=1)


def test_the_dog_is_weighed_at_tientsin():
    """§3: the Dog's lead to either partner, weighed on the same deals."""
    got = _views("tientsin", seed=3, keys=range(12))
    view, legal, choice = got["dog"]
    res = evaluate_plays(view, list(legal), samples=8, seed=2)
    assert res.margin.shape == (2, 8)
