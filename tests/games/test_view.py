"""The View a seat decides from (docs/view.md): the round's public record as a sequence, equal
to what the transcript (``tichusim show``) prints for the same round in every team game; the
seat's own passing and no other (RULES.md §6); fields sized to the table; who acts next at a
bomb offer (§2.9); and the round's outcome heard by the agents that ask for it."""

import itertools
import re

import numpy as np
import pytest

import tichusim
from tichusim import Agent, Round
from tichusim.cards import notation as cards
from tichusim.cards.notation import RANK_CHARS
from tichusim.games import game
from tichusim.games.base import Steps
from tichusim.games.narrate import combo_name
from tichusim.games.steps import Unit
from tichusim.games.view import Event, View, next_holder
from tichusim.kernels.tichu import tricks, variants
from tichusim.kernels.tichu.view import PUBLIC


class Watcher(Agent):
    """Plays as ``random`` would and keeps every view it is given, and each round's end."""

    base = "random"

    def __init__(self, **params):
        super().__init__(**params)
        self.views: list[View] = []
        self.ends: list[tuple[View, tuple]] = []

    def _keep(self, view, legal):
        self.views.append(view)
        _ = view.history  # read now: the replay of the round so far
        return tichusim.strategy("random").decide(view, legal)

    grand_tichu = tichu = pass_cards = play = bomb = wish = dragon = dog = _keep

    def round_over(self, view, scores):
        self.ends.append((view, scores))


def _labels(variant: str, king: int) -> list[str]:
    """How the transcript names each position (``show``)."""
    g = game(variant)
    if variant != "wuwang":
        return [f"seat {s}" for s in range(g.seats)]
    names = []
    for pos in range(g.seats):
        player = variants.wuwang_player(king, pos)
        names.append(
            "the Minister" if player == 3 else f"player {player}{' (King)' if pos == 0 else ''}"
        )
    return names


def _line(e: Event, who: list[str]) -> str:
    """An event worded as the transcript words it (the start of the line where the transcript
    adds what the history leaves to other fields)."""
    name, to = who[e.seat], who[e.to] if e.to >= 0 else ""
    shown = cards.format(e.cards)
    combo = f"[{combo_name(e.combo.code)}]" if e.combo is not None else ""
    rank = RANK_CHARS[e.value - 2] if 2 <= e.value <= 14 else "nothing"
    words = {
        "grand_tichu": f"{name} calls GRAND TICHU",
        "tichu": f"{name} calls TICHU (",
        "give": f"{name} gives {shown} to {to}",
        "shown": f"{name}'s hand is laid face up: {shown}",
        "play": f"  {name} plays {shown}  {combo}",
        "bomb": f"  {name} BOMBS out of turn with {shown}  {combo}",
        "pass": f"  {name} passes",
        "wish": f"  {name} wishes {rank}",
        "wish_fulfilled": f"  (the wish for {rank} is fulfilled)",
        "dog": f"  the Dog passes the lead to {to}",
        "dragon": f"  {name} gives the Dragon's trick to {to}",
        "trick": f"  {name} wins the trick ({e.value} points) -> pile of {to}",
        "out": f"  {name} is out (",
        "hand_to": f"{name} is last: hand ",
        "tricks_to": f"{name} gives its tricks ({e.value} points) to {to}",
    }
    return words[e.kind]


def _transcript_events(text: str, seat_label: str, who) -> list[str]:
    """The transcript's event lines a seat may know: no deal, no other seat's passing, no
    header, trick numbers or scoring lines."""
    out = []
    for line in text.splitlines()[2:]:
        if line.startswith(("-- trick", "End:", "Scores:", "Rules:")) or re.search(
            r" (first|holds) \d+: ", line
        ):
            continue
        if " gives " in line and "Dragon" not in line and "tricks" not in line:
            giver, receiver = line.split(" gives ")[0], line.rsplit(" to ", 1)[1]
            if seat_label not in (giver, receiver):
                continue
        out.append(line)
    return out


VARIANTS = [("nanjing", [3, 8, 21]), ("tientsin", [1, 5]), ("wuwang", [2, 6])]


@pytest.mark.parametrize(("variant", "keys"), VARIANTS)
def test_history_is_the_transcript(variant, keys):
    """At every decision the history is the round so far; at the end it is what ``show``
    prints for the same round, event for event, the seat's own passing only (§6)."""
    g = game(variant)
    for key in keys:
        w = Watcher()
        strategies = [w] + ["random"] * (g.players - 1)
        r = Round(seed=11, key=key, strategies=strategies, variant=variant)
        r.advance()
        assert r.done and len(w.ends) == 1
        final, scores = w.ends[0]
        history = final.history
        for view in w.views:
            assert history[: len(view.history)] == view.history
        rnd, _, _ = g.play_with_log(11, key, strategies=strategies)
        who = _labels(variant, int(rnd["king"]))
        want = _transcript_events(
            g.transcript(11, key, strategies=strategies), who[final.seat], who
        )
        got = [_line(e, who) for e in history]
        assert len(got) == len(want)
        for mine, line in zip(got, want, strict=True):
            assert line.startswith(mine), (mine, line)
        rounds = r.tables()[0]
        assert scores == (int(rounds["score_team0"][0]), int(rounds["score_team1"][0]))


def test_a_seat_knows_only_its_own_passing():
    """RULES.md §6: the cards a seat gave and received, never the other seats' passing."""
    w = Watcher()
    Round(seed=2, key=4, strategies=[w, "heuristic", "heuristic", "heuristic"]).advance()
    view = w.ends[0][0]
    gives = [e for e in view.history if e.kind == "give"]
    assert len(gives) == 6 and all(0 in (e.seat, e.to) for e in gives)
    assert {e.cards for e in gives if e.seat == 0} == set(view.given[1:].tolist())
    assert {e.cards for e in gives if e.to == 0} == set(view.received[1:].tolist())


@pytest.mark.parametrize(("variant", "seats"), [("nanjing", 4), ("tientsin", 6), ("wuwang", 4)])
def test_per_seat_fields_are_sized_to_the_table(variant, seats):
    g = game(variant)
    w = Watcher()
    Round(
        seed=1, key=0, strategies=[w] + ["heuristic"] * (g.players - 1), variant=variant
    ).advance()
    for view in (w.views[0], w.ends[0][0]):
        for name in ("counts", "tichu", "grand_tichu", "out_order", "points_taken", "given"):
            assert len(getattr(view, name)) == seats, name
        assert set(view.fields()["counts"].shape) == {seats}
    assert (w.views[0].out_order == -1).all()  # one padding: -1, nobody out yet
    end = w.ends[0][0]
    out, n_out = end.out_order, end.n_out
    assert (out[:n_out] >= 0).all()
    if n_out == seats - 1:  # §2.13: the last seat closes the finishing order at the end
        assert sorted(out.tolist()) == list(range(seats))
    else:  # a double victory (§2.14) leaves the rest unplaced
        assert (out[n_out:] == -1).all()


def test_next_turn_at_bomb_offers():
    """§2.9: a bomb offer says whose turn comes if nobody bombs, or that the trick is collected
    first; checked against what happened next when nobody bombed."""
    checked = 0
    for key in range(120):
        watchers = [Watcher() for _ in range(4)]  # every seat's offers, not one seat's
        Round(seed=9, key=key, strategies=watchers).advance()
        history = watchers[0].ends[0][0].history
        for view in (v for w in watchers for v in w.views):
            if view.decision != "bomb":
                continue
            after = [e for e in history[len(view.history) :] if e.kind != "wish_fulfilled"]
            if not after or after[0].kind == "bomb":
                continue
            if view.trick_over:
                assert after[0].kind in ("trick", "dragon") and after[0].seat == view.top_seat
            turn = next((e for e in after if e.kind in ("play", "pass")), None)
            if turn is not None and after[0].kind != "out":
                assert turn.seat == view.next_turn, (key, view.history[-3:], after[:3])
                checked += 1
    assert checked > 5


def test_play_views_name_their_own_turn_and_the_trick():
    w = Watcher()
    Round(seed=5, key=2, strategies=[w, "heuristic", "heuristic", "heuristic"]).advance()
    plays = [v for v in w.views if v.decision == "play"]
    assert plays and all(v.next_turn == v.seat == 0 for v in plays)
    for v in plays:
        assert all(e.kind in ("play", "pass", "bomb") for e in v.trick)
        if v.top_code:
            assert [e for e in v.trick if e.kind != "pass"][-1].cards == int(v.top_mask)
        else:
            assert v.trick == ()


def test_a_view_prints_for_a_person():
    w = Watcher()
    Round(seed=5, key=2, strategies=[w, "heuristic", "heuristic", "heuristic"]).advance()
    view = next(v for v in w.views if v.decision == "play")
    text = str(view)
    assert text.startswith("Seat 0 of 4 (nanjing), play") and "hand:" in text
    assert "next turn: seat 0" in text and "trick:" in text
    assert repr(view).startswith("View(seat 0, play")
    assert str(Event("play", 1, int(cards.parse("9j")), None)).startswith("seat 1 play 9j")


class Quiet(Agent):
    """Takes a decision but does not listen to round ends."""

    def wish(self, view, legal):
        return 0


class Counter(Agent):
    """Counts round ends and keeps their scores."""

    def __init__(self, **params):
        super().__init__(**params)
        self.scores: list[tuple] = []

    def round_over(self, view, scores):
        assert view.decision == "round_over" and view.history[-1].kind in (
            "trick",
            "hand_to",
            "tricks_to",
            "out",
        )
        self.scores.append(scores)


def test_round_over_hears_every_round_of_simulate():
    c = Counter()
    rounds, _ = tichusim.simulate(30, seed=4, strategies=[c, "heuristic"] * 2)
    assert c.hears_outcome and not Quiet().hears_outcome and c.decisions == ()
    want = list(zip(rounds["score_team0"], rounds["score_team1"], strict=True))
    assert len(c.scores) == 60  # one agent at two seats: heard by each
    assert c.scores[::2] == want and c.scores[1::2] == want


def test_an_agent_that_does_not_listen_costs_no_replay(monkeypatch):
    def refuse(self, script):
        raise AssertionError("a replay nobody asked for")

    monkeypatch.setattr(Unit, "_replayed_log", refuse)
    tichusim.simulate(20, seed=4, strategies=[Quiet, "heuristic"] * 2)


def test_every_game_has_a_steps_object():
    for name, players in (
        ("nanjing", None),
        ("tientsin", None),
        ("wuwang", None),
        ("grand-seigneur", 6),
    ):
        steps = game(name, players).steps
        assert isinstance(steps, Steps) and steps.game.name == name


def test_every_view_field_is_documented():
    """docs/view.md lists every field of the team games' records and every event kind."""
    from pathlib import Path

    from tichusim.games.team_steps import _KINDS
    from tichusim.kernels.tichu.view import PRIVATE, PUBLIC

    page = (Path(__file__).resolve().parents[2] / "docs" / "view.md").read_text()
    missing = [f for dt in (PUBLIC, PRIVATE) for f in dt.names if f"`{f}`" not in page]
    missing += [k for k in (*_KINDS.values(), "give") if f"| `{k}` |" not in page]
    assert not missing, f"docs/view.md does not list {missing}"


@pytest.mark.parametrize("seats", [4, 6])
def test_the_next_holder_is_the_engines(seats):
    """``next_holder`` (the Python face's one: the view's next turn, a position's checks)
    names the seat the engine's ``next_active`` does (RULES.md §2.8), for every set of seats
    still holding cards and every seat."""
    pub = np.zeros(1, PUBLIC)
    pub["n_players"] = seats
    for holding in itertools.product((0, 3), repeat=seats):
        pub[0]["counts"][:seats] = holding
        for seat in range(seats):
            want = int(tricks.next_active(pub[0], seat))
            assert next_holder(list(holding), seat) == want, (holding, seat)
            assert next_holder(np.array(holding), seat) == want, (holding, seat)
