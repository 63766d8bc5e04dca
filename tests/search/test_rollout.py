"""Rounds resumed from a decision, deals consistent with a view, and the ``search`` strategy.

A round resumed from the state at any decision, with the real hands and the real answer
forced, ends exactly as the round played through (RULES.md §2.13, §2.14 scores, the first
player out); every deal ``deal_unseen`` makes agrees with what the deciding seat knows
(§2.4 passes, §2.8 the Mah Jong's holder leads, §2.11 a bound seat plays the wished rank,
§4 Wu Wang's open hands) and the true deal always does; the deals are uniform over the
consistent ones; ``search`` plays legal answers, reproducibly, wherever a strategy plays.
"""

import itertools

import numpy as np
import pytest
from support import kernel_entries

import tichusim
from tichusim import Round
from tichusim.kernels.bits import PHOENIX
from tichusim.kernels.errors import ERR_NONE
from tichusim.kernels.rng import seed_stream
from tichusim.kernels.tichu import policies, resample, rollout
from tichusim.kernels.tichu.engine import NOT_FORCED, TICHU_ANSWERED
from tichusim.kernels.tichu.records import ROUND, SEAT
from tichusim.kernels.tichu.variants import MAX_SEATS
from tichusim.kernels.tichu.view import PRIVATE, PUBLIC
from tichusim.search.evaluate import TICHU_POINTS

ALL = (1 << 64) - 1


def _window(pub) -> int:
    """Whose play or pass opened the bomb window (a plain reference for ``last_actor``)."""
    n, top, passed = int(pub["n_players"]), int(pub["top_seat"]), int(pub["passed"])
    actor, q = top, top
    for _ in range(n - 1):
        q = (q + 1) % n
        if passed >> q & 1:
            actor = q
    return actor


def _play_through(variant, seed, key, strategy, stop=None):
    """Round ``key`` stepped from Python, every decision answered by ``strategy`` as the
    engine would; at each play or bomb decision ``stop(state)`` sees the full state (every
    seat's real hand) with the answer about to be given. Returns the round's records."""
    r = Round(seed=seed, key=key, strategies=None, variant=variant)
    s = tichusim.strategy(strategy)
    while not r.done:
        r.advance()
        if r.done:
            break
        view, legal = r.view(), r.legal()
        choice = s.decide(view, legal)
        searched = r.decision in ("play", "bomb") or (
            r.decision == "tichu" and view.detail in TICHU_POINTS  # the search's Tichu questions
        )
        if stop is not None and searched:
            work, pub, privs = (a.copy() for a in r._kept)
            privs[r.to_act]["rng"] = view.private[0]["rng"]  # the stream as the answer left it
            if r.decision == "tichu":  # the call, as a search's rollouts set it
                forced = int(choice)
            else:
                forced = (
                    -1 if choice is None else next(i for i, p in enumerate(legal) if p is choice)
                )
            stop(
                {
                    "work": work,
                    "pub": pub,
                    "privs": privs,
                    "seat": r.to_act,
                    "decision": r.decision,
                    "forced": forced,
                    "view": view,
                }
            )
        r.act(choice)
    return r.rounds[0, 0]


def _resume(variant, state, strategy):
    work = state["work"]
    game = kernel_entries.one_strategy_everywhere(work, variant, strategy)
    window = _window(state["pub"][0]) if state["decision"] == "bomb" else -1
    turn, forced = state["seat"], state["forced"]
    if state["decision"] == "tichu":  # the call set, the play goes on from the question
        state["pub"][0]["tichu"][turn] = forced
        forced = TICHU_ANSWERED
        if state["view"].detail == policies.TICHU_AFTER_PASSING:
            turn = rollout.after_passing(
                game.variant_code, work[0]["params"], state["pub"][0], state["privs"], turn
            )
            forced = NOT_FORCED
    rnd = np.zeros(1, ROUND)
    seats = np.zeros(MAX_SEATS, SEAT)
    return kernel_entries.RESUME[game.variant_code](
        work, state["pub"], state["privs"], rnd, seats, turn, forced, window
    )


@pytest.mark.parametrize("variant", ["nanjing", "tientsin", "wuwang"])
@pytest.mark.parametrize("strategy", [pytest.param("expert", marks=pytest.mark.slow), "heuristic"])
def test_resumed_round_ends_as_played(variant, strategy):
    """From every play and bomb decision, and every Tichu question after the passing and
    before a turn (RULES.md §2.3), of several rounds: the same scores and first out."""
    checked = {"play": 0, "bomb": 0, "tichu": 0}
    for key in range(4):
        states = []
        end = _play_through(variant, 11, key, strategy, states.append)
        for state in states:
            err, t0, t1, first = _resume(variant, state, strategy)
            assert err == ERR_NONE
            assert (t0, t1) == tuple(end["score"]), (key, state["decision"])
            assert first == end["first_out"]
            checked[state["decision"]] += 1
    assert checked["play"] > 40
    assert checked["tichu"] > 8


def _constraints_hold(pub, me, hands) -> list[str]:
    """What a deal breaks of what seat ``me`` knows (empty: consistent)."""
    broken = []
    n = int(pub["n_players"])
    seat = int(me["seat"])
    union = 0
    for s in range(n):
        h = int(hands[s])
        if h & union:
            broken.append("a card in two hands")
        union |= h
        if bin(h).count("1") != int(pub["counts"][s]):
            broken.append(f"seat {s}: count")
        if h & int(pub["played"]):
            broken.append(f"seat {s}: a played card")
        for b in range(64):
            if h >> b & 1 and int(pub["lacks"][s]) >> (b & 15) & 1:
                broken.append(f"seat {s}: a rank it lacks")
        if s != seat and int(me["given"][s]) & ~int(pub["played"]) & ALL & ~h:
            broken.append(f"seat {s}: a card passed to it, unplayed, elsewhere")
    if int(hands[seat]) != int(me["hand"]):
        broken.append("the seat's own hand")
    if union | int(pub["played"]) != int(resample.ALL_CARDS):
        broken.append("cards missing")
    if int(pub["variant"]) == 2 and seat % 2 == 0:
        if int(hands[2 - seat]) != int(me["ally_hand"]):
            broken.append("Wu Wang: the other hand the King plays")
    if int(pub["variant"]) == 2 and seat % 2 == 1 and int(hands[2]) != int(pub["exposed"]):
        broken.append("Wu Wang: the Minister's open hand")
    return broken


@pytest.mark.parametrize("variant", ["nanjing", "tientsin", "wuwang"])
def test_true_and_sampled_deals_agree_with_the_view(variant):
    """The real hands always satisfy the view's constraints (the inferences are sound), and
    every sampled deal does too; a wished rank is inferred missing somewhere."""
    hands = np.zeros(MAX_SEATS, np.uint64)
    pool = np.zeros(56, np.int64)
    seen = {"states": 0, "wish_lacks": 0}

    def check(state):
        pub, privs, seat = state["pub"], state["privs"], state["seat"]
        n = int(pub[0]["n_players"])
        truth = [int(privs[s]["hand"]) for s in range(n)]
        assert _constraints_hold(pub[0], privs[seat], truth) == []
        view_pub, view_me = state["view"].public, state["view"].private
        for k in range(5):
            _, ok = kernel_entries.sample_deal(
                view_pub, view_me, hands, pool, np.uint64(seed_stream(7, k, 0))
            )
            assert ok
            assert _constraints_hold(view_pub[0], view_me[0], hands[:n]) == []
        mah_jong_lacks = sum(int(pub[0]["lacks"][s]) >> 1 & 1 for s in range(n))
        after_passing = state["decision"] == "tichu" and state["view"].detail == 1
        assert mah_jong_lacks == (0 if after_passing else n - 1)  # from the first lead (§2.8)
        seen["states"] += 1
        seen["wish_lacks"] += any(int(pub[0]["lacks"][s]) & ~0b11 for s in range(n))

    for key in range(8):
        _play_through(variant, 5, key, "expert", check)
    assert seen["states"] > 100
    if variant != "wuwang":
        assert seen["wish_lacks"] > 0


def _endgame():
    """A hand-made Nanjing endgame seen by seat 0: six unseen cards (two 7s, two 9s, an Ace,
    a King) for seats 1, 2 and 3 (two each); seat 3 is known to lack 7s and seat 1 9s.
    Returns ``(pub, me, unseen cards)``."""
    from tichusim.cards import notation

    pub = np.zeros(1, PUBLIC)
    me = np.zeros(1, PRIVATE)
    mine = notation.parse("2j 3s")
    unseen = notation.parse("7j 7s 9p 9t At Ks")
    p = pub[0]
    p["n_players"] = 4
    p["variant"] = 0
    p["played"] = int(resample.ALL_CARDS) & ~(mine | unseen)
    p["counts"][:4] = [2, 2, 2, 2]
    p["lacks"][1] = 1 << 9
    p["lacks"][3] = 1 << 7
    me[0]["seat"] = 0
    me[0]["hand"] = mine
    return pub, me, unseen


def _consistent(unseen: int, counts, lacks) -> list[tuple]:
    """Every consistent assignment of ``unseen`` to seats 1..3, enumerated."""
    cards = [1 << b for b in range(64) if unseen >> b & 1]
    out = []
    for owners in itertools.product((1, 2, 3), repeat=len(cards)):
        if any(owners.count(s) != counts[s] for s in (1, 2, 3)):
            continue
        if any(
            lacks[s] >> ((c.bit_length() - 1) & 15) & 1 for c, s in zip(cards, owners, strict=True)
        ):
            continue
        out.append(owners)
    return out


def test_deals_are_uniform_over_the_consistent_ones():
    """Against exact enumeration (19 consistent deals): a chi-square bound, every deal
    seen, and none that breaks a constraint."""
    pub, me, unseen = _endgame()
    exact = _consistent(unseen, [2, 2, 2, 2], [0, 1 << 9, 0, 1 << 7])
    assert len(exact) == 19
    cards = [1 << b for b in range(64) if unseen >> b & 1]
    index = {owners: i for i, owners in enumerate(exact)}
    counts = np.zeros(len(exact), np.int64)
    hands = np.zeros(MAX_SEATS, np.uint64)
    pool = np.zeros(56, np.int64)
    draws = 19_000
    state = np.uint64(seed_stream(3, 0, 0))
    for _ in range(draws):
        state, ok = kernel_entries.sample_deal(pub, me, hands, pool, state)
        assert ok
        owners = tuple(next(s for s in (1, 2, 3) if int(hands[s]) & c) for c in cards)
        counts[index[owners]] += 1  # a KeyError is an inconsistent deal
    expected = draws / len(exact)
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 45.0  # 18 degrees of freedom: p < 0.001 above 42.3
    assert counts.min() > 0


def test_impossible_views_are_refused():
    """Counts that do not add up, or a rank no seat may hold: no deal."""
    hands = np.zeros(MAX_SEATS, np.uint64)
    pool = np.zeros(56, np.int64)
    pub, me, _ = _endgame()
    pub[0]["counts"][2] = 3  # seven cards for six unseen
    assert not kernel_entries.sample_deal(pub, me, hands, pool, np.uint64(seed_stream(1, 0, 0)))[1]
    pub, me, _ = _endgame()
    pub[0]["lacks"][1] = 1 << 7  # the two 7s fit nowhere: every other seat lacks them
    pub[0]["lacks"][2] = 1 << 7
    assert not kernel_entries.sample_deal(pub, me, hands, pool, np.uint64(seed_stream(1, 0, 0)))[1]
    pub, me, _ = _endgame()
    me[0]["hand"] |= 1 << 5  # the 5 of Jade: in its hand and played
    assert not kernel_entries.sample_deal(pub, me, hands, pool, np.uint64(seed_stream(1, 0, 0)))[1]


def _search_round(key, strategies, seed=2):
    """Round ``key`` with ``strategies``; the answers the searching seats gave."""
    r = Round(seed=seed, key=key, strategies=strategies)
    while not r.done:
        r.advance()
    rounds, _ = r.tables()
    return rounds


def test_search_is_reproducible_and_legal():
    """Same seed, same round: the same records; every answer passed the engine's checks."""
    strategies = ["search:samples=6,candidates=4", "expert"] * 2
    first = [_search_round(k, strategies) for k in range(2)]
    again = [_search_round(k, strategies) for k in range(2)]
    for a, b in zip(first, again, strict=True):
        assert a.equals(b)


def test_search_plays_everywhere_a_strategy_does():
    """``simulate`` with the named strategy and its parameters, and the text forms."""
    from tichusim.games.agents import as_agent, from_text
    from tichusim.games.strategy_text import parse_strategy

    assert parse_strategy("search:samples=64") == {
        "agent": "tichusim.search.agent:Search",
        "params": {"samples": 64},
    }
    assert from_text("search") == {"agent": "tichusim.search.agent:Search"}
    old = as_agent({"agent": "tichusim.strategies.search:Search"})  # the module it moved from
    assert type(old).__module__ == "tichusim.search.agent"
    agent = as_agent("search:samples=8,searches=play")
    assert agent.decisions == ("play",) and agent.name == "search:samples=8,searches=play"
    switched = as_agent("search:paired=false,inference=false")  # booleans as the docs write
    assert switched.paired is False and switched.inference is False
    assert as_agent(switched.name).name == switched.name == "search:paired=false,inference=false"
    with pytest.raises(ValueError, match="searches"):
        as_agent({"agent": "tichusim.search.agent:Search", "params": {"searches": "x"}})
    rounds, seats = tichusim.simulate(
        2, seed=4, strategies=["search:samples=4", "expert", "search:samples=4", "expert"]
    )
    assert len(rounds) == 2
    assert set(seats["strategy"]) == {"search:samples=4", "expert"}


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["tientsin", "wuwang"])
def test_search_plays_at_the_other_team_tables(variant):
    """The same search serves Tientsin (§3) and Wu Wang (§4): its plays, bombs and Grand
    Tichu calls, reproducibly."""
    search = "search:samples=3,candidates=3"
    if variant == "tientsin":
        strategies = [search, "expert"] * 3
    else:  # three players: the King (playing the Minister's hand too) and two opponents
        strategies = [search, "expert", search]
    first = tichusim.simulate(3, seed=8, variant=variant, strategies=strategies)
    again = tichusim.simulate(3, seed=8, variant=variant, strategies=strategies)
    assert first[0].equals(again[0]) and first[1].equals(again[1])
    assert len(first[0]) == 3


def test_search_composes_with_a_base():
    """The decisions ``search`` does not search are its base's, named or composed: a base
    that never calls never calls, whatever the others do; a base that is not a strategy is
    refused with one line."""
    from tichusim.games.agents import as_agent
    from tichusim.search.agent import Search

    quiet = as_agent("search:samples=2,searches=play,base=lowest")
    assert quiet.base == "lowest" and quiet.name == "search:samples=2,searches=play,base=lowest"
    composed = Search(samples=2, searches="play", base={"base": "expert", "grand_tichu": "never"})
    assert composed.name == "search:samples=2,searches=play,base=expert[grand_tichu=never]"
    with pytest.raises(ValueError, match="nobody"):
        Search(base="nobody")
    _, seats = tichusim.simulate(12, seed=3, strategies=[quiet, "expert", composed, "random"])
    mine = seats[seats["seat"] == 0]
    assert not mine["grand_tichu"].any() and not mine["tichu"].any()
    assert not seats[seats["seat"] == 2]["grand_tichu"].any()
    assert seats[seats["seat"] == 3]["grand_tichu"].any()  # random calls: the test can see it


def test_evaluate_plays_pairs_candidates_and_refuses_bad_ones():
    """Margins per candidate and deal; the same seed gives the same result; a play that is
    not legal is refused."""
    from tichusim.search.evaluate import evaluate_plays

    view = _first_play_view()
    legal = _legal_at(view)[:3]
    res = evaluate_plays(view, legal, samples=16, seed=5)
    again = evaluate_plays(view, legal, samples=16, seed=5)
    assert res.margin.shape == (len(legal), 16) and res.first.shape == (len(legal), 16)
    np.testing.assert_array_equal(res.margin, again.margin)
    assert np.all(np.abs(res.margin) <= 800)
    other = int(resample.ALL_CARDS) & ~int(view.hand)
    bad = type(legal[0])(other & -other, legal[0].combo)  # a card the seat does not hold
    with pytest.raises(ValueError, match="legal"):
        evaluate_plays(view, [bad], samples=2, seed=1)


def test_searched_tichu_calls(monkeypatch):
    """At a Tichu question after the passing or before a turn, a search scores calling and not
    calling on the same deals (a call the seat's team makes good gains it 100 points, one it
    does not loses 100, §2.14); any answer but a call or none is refused; the searching
    strategy overturns its base's answer only on evidence, and never searches a call before
    the passing (``tests/search/test_answered.py`` weighs those)."""
    from tichusim.search import agent as search
    from tichusim.search.agent import Search
    from tichusim.search.evaluate import SearchResult, evaluate_plays

    got = {}

    def grab(state):
        if state["decision"] == "tichu":
            got.setdefault(state["view"].detail, state["view"])

    _play_through("nanjing", 9, 1, "expert", grab)
    assert set(got) == {1, 2}
    for view in got.values():
        res = evaluate_plays(view, [True, False], samples=24, seed=3)
        again = evaluate_plays(view, [True, False], samples=24, seed=3)
        np.testing.assert_array_equal(res.margin, again.margin)
        assert res.samples == 24
        # the call's 100 points, won or lost, and the play it changes: a call set but not
        # scored or not seen by the players would leave the margins equal
        diff = np.abs(res.margin[0] - res.margin[1])
        assert np.mean(diff > 0) > 0.9
    view = got[1]
    with pytest.raises(ValueError, match="legal"):
        evaluate_plays(view, [2], samples=2, seed=1)
    agent = Search(samples=8, searches="play+bomb+tichu")
    assert agent.decisions == ("play", "bomb", "tichu")
    view = got[2]
    keep = tichusim.strategy(agent.base).decide(view, [False, True])

    def margins(other_minus_keep):  # a search result: the base's answer, then the other
        d = np.asarray(other_minus_keep, np.float64)
        return lambda *a, **k: SearchResult([keep, not keep], np.stack([0 * d, d]), None, None)

    # the other answer ahead by less than CALL_EVIDENCE standard errors: the base's stands
    monkeypatch.setattr(search, "evaluate_plays", margins([100, -100, 100, -100, 100, 0]))
    assert agent.tichu(view, [False, True]) == keep
    monkeypatch.setattr(search, "evaluate_plays", margins([100, -100, 100, 100, 100, 100]))
    assert agent.tichu(view, [False, True]) == (not keep)
    view.detail = 0  # before the passing: never searched
    assert agent.tichu(view, [False, True]) == keep
    monkeypatch.undo()
    rounds, _ = tichusim.simulate(4, seed=2, strategies=[agent, "expert", agent, "expert"])
    assert len(rounds) == 4


def test_searched_grand_tichu_calls():
    """At the Grand Tichu question (RULES.md §2.2) a search plays each deal from the start of
    the round, the seat's first cards fixed, calling and not; a deal counts only where the
    seats that answered before did as they did: with a strategy that never calls, an earlier
    call admits no deal."""
    from tichusim.search.agent import Search
    from tichusim.search.evaluate import evaluate_plays

    r = Round(seed=4, key=2, strategies=None)
    r.advance()
    while r.decision == "grand_tichu" and r.view().seat == int(r.view().public[0]["first_drawer"]):
        r.act(False)  # on to the second seat to answer, one seat before it
        r.advance()
    view = r.view()
    assert view.decision == "grand_tichu" and bin(int(view.hand)).count("1") == 8
    res = evaluate_plays(view, [True, False], samples=32, seed=1)
    again = evaluate_plays(view, [True, False], samples=32, seed=1)
    np.testing.assert_array_equal(res.margin, again.margin)
    assert res.samples == 32
    diff = np.abs(res.margin[0] - res.margin[1])
    assert np.mean(diff > 0) > 0.9  # a call's 200 points, won or lost (§2.14)
    assert evaluate_plays(view, [True, False], samples=8, seed=1, rollout="lowest").samples == 8
    before = int(view.public[0]["first_drawer"])
    view.public[0]["grand_tichu"][before] = 1  # told the seat before called
    with pytest.raises(ValueError, match="no deal"):
        evaluate_plays(view, [True, False], samples=4, seed=1, rollout="lowest")
    # the searching player then leaves the call to its base instead of failing the round
    lost = Search(samples=4, rollout="lowest")
    assert lost.grand_tichu(view, [False, True]) == tichusim.strategy(lost.base).decide(
        view, [False, True]
    )
    agent = Search(samples=8, searches="grand_tichu+play")
    assert agent.decisions == ("play", "grand_tichu")
    rounds, _ = tichusim.simulate(4, seed=2, strategies=[agent, "expert", agent, "expert"])
    assert len(rounds) == 4


def test_deals_agree_with_the_calls_made():
    """A search deals a seat that called Tichu or Grand Tichu a hand its strategy calls on
    (RULES.md §2.3: a call tells of a strong hand), uniformly among those: the plain deals
    often do not, the told ones always do, and they keep every other constraint."""
    from tichusim.search.evaluate import _rows

    views = []

    def grab(state):
        view = state["view"]
        if state["decision"] == "play" and len(views) < 6:
            pub = view.public[0]
            others = [s for s in range(4) if s != view.seat]
            if any(pub["tichu"][s] or pub["grand_tichu"][s] for s in others):
                views.append(view)

    for key in range(12):
        _play_through("nanjing", 3, key, "expert", grab)
        if len(views) == 6:
            break
    assert views
    hands = np.zeros(MAX_SEATS, np.uint64)
    pool = np.zeros(56, np.int64)
    plain_agree = told_agree = told = 0
    for view in views:
        params = _rows(view.game, "expert")
        pub, me = view.public, view.private
        for k in range(40):
            kernel_entries.sample_deal(pub, me, hands, pool, np.uint64(seed_stream(5, k, 0)))
            plain_agree += resample.calls_agree(pub[0], view.seat, params, hands)
            _, outcome = kernel_entries.sample_told_deal(
                pub, me, hands, pool, np.uint64(seed_stream(5, k, 0)), params
            )
            if outcome == resample.DEALT:
                told += 1
                told_agree += resample.calls_agree(pub[0], view.seat, params, hands)
                assert _constraints_hold(pub[0], me[0], hands[:4]) == []
    assert told > 0.8 * 40 * len(views) and told_agree == told
    assert plain_agree < 0.6 * 40 * len(views)


def _first_play_view(seed=9, key=1):
    """The view at the first play decision of a Nanjing round played by ``expert``."""
    got = {}

    def grab(state):
        if state["decision"] == "play" and "view" not in got:
            got["view"] = state["view"]

    _play_through("nanjing", seed, key, "expert", grab)
    return got["view"]


def _legal_at(view):
    """The legal plays at a play decision, as the engine lists them (the lone Phoenix, whose
    led value the engine sets by the table, left out)."""
    from tichusim.cards.combos import Combo, Play
    from tichusim.kernels.moves import legal_moves

    masks = np.zeros(4096, np.uint64)
    codes = np.zeros(4096, np.int64)
    wish = 0 if int(view.wish_free) >> int(view.seat) & 1 else int(view.wish)
    n, can_pass = legal_moves(np.uint64(view.hand), int(view.top_code), wish, masks, codes)
    out = [
        Play(int(m), Combo.from_code(int(c)))
        for m, c in zip(masks[:n], codes[:n], strict=True)
        if int(m) != int(PHOENIX)
    ]
    return out + ([None] if can_pass else [])
