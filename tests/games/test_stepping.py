"""Rounds stepped from Python, Python agents, one decision asked of a scripted strategy.

One engine: a round stepped from Python with every decision answered by
``tichusim.strategy(name).decide`` must give ``simulate``'s records byte for byte at every
table; agents' choices go through the same checks (RULES.md §7) as the engine's policies; a
seat sees only its own cards (§6).
"""

import pytest
from support import reference as ref

import tichusim
from tichusim import Agent, AgentError, IllegalChoice, Round
from tichusim.cards import notation as cards
from tichusim.cards.combos import Combo, Play

VARIANTS = [
    ("nanjing", None),
    ("tientsin", None),
    ("wuwang", None),
    ("grand-seigneur", 5),
    ("grand-seigneur", 12),
]


def _no_names(df):
    return df.drop(columns=[c for c in df.columns if c.startswith("strategy")])


def _stepped(variant, players, strategy, key, seed=3):
    """Round ``key`` with every decision taken from Python by ``strategy``'s ``decide``."""
    r = Round(seed=seed, key=key, strategies=None, variant=variant, players=players)
    kinds = set()
    while not r.done:
        r.advance()
        if r.done:
            break
        kinds.add(r.decision)
        r.act(tichusim.strategy(strategy).decide(r.view(), r.legal()))
    return r, kinds


@pytest.mark.parametrize("variant,players", VARIANTS)
@pytest.mark.parametrize("strategy", ["random", "lowest", "heuristic"])
def test_stepped_rounds_equal_simulate(variant, players, strategy):
    """Every decision from Python, answered as the engine would: the same records."""
    keys = range(12)
    expected = tichusim.simulate(
        len(keys), seed=3, strategies=strategy, variant=variant, players=players
    )
    kinds = set()
    for key in keys:
        r, seen = _stepped(variant, players, strategy, key)
        kinds |= seen
        rounds, seats = r.tables()
        want_r = expected[0].iloc[[key]].reset_index(drop=True)
        width = len(seats)
        want_s = expected[1].iloc[key * width : (key + 1) * width].reset_index(drop=True)
        assert _no_names(rounds).equals(_no_names(want_r)), (variant, strategy, key)
        assert _no_names(seats).equals(_no_names(want_s)), (variant, strategy, key)
    assert "play" in kinds
    if variant != "grand-seigneur":
        assert {"grand_tichu", "tichu", "pass", "play"} <= kinds or variant == "wuwang"


def test_expert_stepped_equals_simulate():
    expected = tichusim.simulate(6, seed=5, strategies="expert")
    for key in range(6):
        r, _ = _stepped("nanjing", None, "expert", key, seed=5)
        rounds, _ = r.tables()
        assert _no_names(rounds).equals(_no_names(expected[0].iloc[[key]].reset_index(drop=True)))


def test_scripted_seats_never_stop():
    """With no seat left to Python the round is over after one advance."""
    r = Round(seed=1, key=4, strategies="heuristic")
    r.advance()
    assert r.done and r.decisions == 0
    with pytest.raises(RuntimeError, match="over"):
        r.legal()


def test_illegal_choice_names_the_decision_and_the_legal_choices():
    r = Round(seed=2, key=0, strategies=[None, "lowest", "lowest", "lowest"])
    r.advance()
    assert r.decision == "grand_tichu" and r.legal() == [False, True]
    with pytest.raises(IllegalChoice, match=r"grand_tichu \(seat 0\).*legal: \[False, True\]"):
        r.act("yes")
    while r.decision != "play":
        r.act(tichusim.strategy("lowest").decide(r.view(), r.legal()))
        r.advance()
    legal = r.legal()
    hand = int(r.view().hand)
    outside = [c for c in range(56) if not hand >> c & 1][0]
    for bad in (1 << outside, None if None not in legal else "nothing", Play(int(legal[0]), None)):
        with pytest.raises(IllegalChoice, match="play"):
            r.act(bad)
    r.act(legal[0])  # a legal one still goes through
    r.advance()


class _Cheater(Agent):
    """Answers with cards it does not hold, or a pass where a lead is due."""

    def play(self, view, legal):
        if None not in legal:
            return None  # a leader may not pass (§2.8)
        elsewhere = int(cards.DECK) & ~int(view.hand)
        return Play(elsewhere & -elsewhere, Combo("single", 1, 2.0))  # another seat's card


def test_an_agent_cannot_play_outside_the_rules():
    with pytest.raises(AgentError, match=r"_Cheater.*at play.*seed 0 round key 0.*not a legal"):
        tichusim.simulate(3, seed=0, strategies=[_Cheater, "heuristic", "heuristic", "heuristic"])


class _RandomLegal(Agent):
    """Any legal choice, drawn from the generator tichusim hands it."""

    def _pick(self, view, legal):
        options = list(legal) if not hasattr(legal, "receivers") else None
        if options is None:
            cards_ = list(legal.cards)
            view.random.shuffle(cards_)
            return tuple(cards_[: len(legal.receivers)])
        return options[view.random.integers(len(options))]

    grand_tichu = tichu = pass_cards = play = bomb = wish = dragon = dog = _pick


@pytest.mark.parametrize("variant", ["nanjing", "tientsin", "wuwang"])
def test_random_agents_pass_the_checker_and_are_reproducible(variant):
    """Agents answering at random through the engine's checker (``check``: RULES.md §7 after
    every action); the same seed gives the same tables."""
    n = {"nanjing": 4, "tientsin": 6, "wuwang": 3}[variant]
    strategies = [_RandomLegal() if p % 2 == 0 else "heuristic" for p in range(n)]
    a = tichusim.simulate(40, seed=9, strategies=strategies, variant=variant, check=True)
    b = tichusim.simulate(40, seed=9, strategies=strategies, variant=variant, check=True)
    assert a[0].equals(b[0]) and a[1].equals(b[1])
    assert (a[0]["strategy0"] == "_RandomLegal").all()


def test_legal_plays_are_the_rules_core_ones():
    """At play decisions with small hands, the legal list equals the slow reference's (no
    Phoenix on top: its value depends on the card below)."""
    checked = 0
    for key in range(30):
        r = Round(seed=11, key=key, strategies=[None, "heuristic", "heuristic", "heuristic"])
        while True:
            r.advance()
            if r.done:
                break
            view, legal = r.view(), r.legal()
            if (
                r.decision == "play"
                and int(view.counts[0]) <= 7
                and int(view.top_mask) != int(cards.PHOENIX)
            ):
                hand = ref.parse_cards(cards.format(int(view.hand)))
                top = (
                    None
                    if view.top_code == 0
                    else ref.parse_cards(cards.format(int(view.top_mask)))
                )
                plays, can_pass = ref.legal_plays(hand, top, wish=view.wish or None)
                got = {frozenset(ref.parse_cards(cards.format(int(p)))) for p in legal if p}
                assert got == {frozenset(p) for p in plays}
                assert (None in legal) == can_pass
                checked += 1
            r.act(tichusim.strategy("random").decide(view, legal))
    assert checked > 50


def test_a_seat_sees_only_its_own_cards():
    """RULES.md §6: a view is given to the seat that decides, and holds no other hand."""
    r = Round(seed=4, key=1, strategies=[None, "heuristic", "heuristic", "heuristic"])
    r.advance()
    with pytest.raises(ValueError, match="not to act"):
        r.view(1)
    view = r.view()
    assert "hand" not in view.public.dtype.names
    assert set(view.fields()) == set(view.public.dtype.names) | set(view.private.dtype.names)
    while not r.done:
        view = r.view()
        assert int(view.seat) == 0
        hidden = int(view.hand) | int(view.ally_hand)
        seen_elsewhere = int(view.played) | int(view.exposed)
        assert hidden & seen_elsewhere == 0
        r.act(tichusim.strategy("heuristic").decide(view, r.legal()))
        r.advance()
    dealt = r.tables()[1]["hand14"].to_numpy()
    assert int(dealt[0]) & int(dealt[1]) == 0


class _MimicPasser(Agent):
    """Passes as heuristic would, from Python: the games must not change."""

    def pass_cards(self, view, legal):
        return tichusim.strategy("heuristic").decide(view, legal)


class _MimicGiver(Agent):
    """Grand Seigneur's exchange (§5) answered from Python as heuristic would."""

    def give_back(self, view, legal):
        return tichusim.strategy("heuristic").decide(view, legal)

    def play(self, view, legal):
        return tichusim.strategy("heuristic").decide(view, legal)


def test_agent_games_equal_scripted_games():
    """Whole games with a Python decision each round: the game's rounds replay together."""
    want = tichusim.simulate_games(3, seed=2, strategies="heuristic")
    got = tichusim.simulate_games(
        3, seed=2, strategies=[_MimicPasser, "heuristic", _MimicPasser(), "heuristic"]
    )
    assert _no_names(got[0]).equals(_no_names(want[0]))
    want = tichusim.simulate_games(
        2, seed=2, variant="grand-seigneur", players=6, strategies="heuristic"
    )
    got = tichusim.simulate_games(
        2, seed=2, variant="grand-seigneur", players=6, strategies=_MimicGiver
    )
    assert _no_names(got[0]).equals(_no_names(want[0]))
    assert _no_names(got[1]).equals(_no_names(want[1]))
    assert (got[1]["strategy"] == "_MimicGiver").all()


class _Raiser(Agent):
    def wish(self, view, legal):
        raise KeyError("boom")


def test_a_failing_agent_names_itself_the_decision_and_the_round():
    with pytest.raises(
        AgentError,
        match=r"agent '_Raiser' failed at wish \(seed 5 round key \d+, "
        r"seat \d\): KeyError",
    ):
        tichusim.simulate(50, seed=5, strategies=_Raiser)


def test_none_seats_only_step_a_round():
    with pytest.raises(ValueError, match="only steps a Round"):
        tichusim.simulate(2, strategies=[None, "heuristic", "heuristic", "heuristic"])


def test_agent_decisions_are_the_methods_it_defines():
    assert _MimicPasser().decisions == ("pass",)
    assert set(_RandomLegal().decisions) == {
        "grand_tichu",
        "tichu",
        "pass",
        "play",
        "bomb",
        "wish",
        "dragon",
        "dog",
    }
    assert _MimicPasser(k=2).params == {"k": 2} and _MimicPasser().name == "_MimicPasser"


class _Mixed(Agent):
    """Plays and bombs at random from the generator tichusim hands it, the rest as
    ``heuristic``: an agent's answers cross the resumed stops too."""

    def _pick(self, view, legal):
        return list(legal)[view.random.integers(len(legal))]

    def _heuristic(self, view, legal):
        return tichusim.strategy("heuristic").decide(view, legal)

    play = bomb = _pick
    wish = dragon = _heuristic


def _step_both(variant, seed, key, strategies, answerers):
    """Round ``key`` stepped twice, going on from the kept records (``resume``) and replayed
    from the deal at every decision, the ``None`` seats answered by ``answerers[player]``'s
    ``decide``: the views, legal choices and scripts agree at every decision. Returns both
    rounds and how many of the resumed round's calls went on from its kept records."""
    rounds = []
    went_on = 0
    for resume in (True, False):
        r = Round(seed=seed, key=key, strategies=strategies, variant=variant)
        r.resume = resume
        steps = []
        while True:
            kept = r._kept[0]
            stopped = int(kept["resume_seat"][0]) >= 0
            r.advance()
            went_on += resume and stopped and r.decisions > 0
            if r.done:
                break
            view, legal = r.view(), r.legal()
            steps.append((r.decision, view.public.tobytes(), view.private.tobytes(), repr(legal)))
            r.act(tichusim.strategy(answerers[r.player]).decide(view, legal))
        rounds.append((r, steps))
    (a, steps_a), (b, steps_b) = rounds
    assert steps_a == steps_b, (variant, key)
    assert a.decisions == b.decisions
    n = a.decisions
    assert (a._answers[:n] == b._answers[:n]).all() and (a._streams[:n] == b._streams[:n]).all()
    return a, b, went_on


@pytest.mark.parametrize("variant", ["nanjing", "tientsin", "wuwang"])
def test_resumed_rounds_equal_replayed_and_simulated_ones(variant):
    """A stepped round goes on from the records its last stop in the play left (a Tichu call
    before a turn, a play, a bomb) instead of replaying from the deal: for many rounds with
    a mix of seats decided from Python, agents and scripted strategies, every decision's
    view, the records and the event log are the replayed round's byte for byte, and the
    simulated one's where every seat answers as a scripted strategy would (RULES.md §7
    checked throughout)."""
    import numpy as np

    names = ["random", "lowest", "heuristic", "expert"]
    players = {"nanjing": 4, "tientsin": 6, "wuwang": 3}[variant]
    rng = np.random.default_rng(33)
    went_on = 0
    for key in range(24):
        answerers = [names[i] for i in rng.integers(len(names), size=players)]
        kinds = rng.integers(3, size=players)  # 0: from Python, 1: an agent, 2: scripted
        strategies = [
            None if k == 0 else _Mixed() if k == 1 else answerers[p] for p, k in enumerate(kinds)
        ]
        a, b, n = _step_both(variant, 7, key, strategies, answerers)
        went_on += n
        for got, want in zip(a.tables(), b.tables(), strict=True):
            assert got.equals(want), (variant, key)
        log = a._replayed_log(a.decisions)
        assert (log == b._replayed_log(b.decisions)).all()
        assert len(a.game.steps.scores(log)) == 2  # the whole round, to its scoring line
        if 1 not in kinds:  # every seat as its scripted strategy: simulate's round
            want = tichusim.simulate(
                1, seed=7, strategies=answerers, variant=variant, first_round=key
            )
            assert _no_names(a.tables()[0]).equals(_no_names(want[0])), (variant, key)
            assert _no_names(a.tables()[1]).equals(_no_names(want[1])), (variant, key)
    assert went_on > 100
