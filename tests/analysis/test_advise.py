"""tichusim advise: a position as a seat knows it (RULES.md §6) becomes the same view the engine
gives at that turn, impossible positions are refused in one line, and the advice ranks the
plays by paired rollouts, reproducibly."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

import tichusim
from tichusim import Agent, Round
from tichusim.analysis.advise import Position, advise
from tichusim.cards import notation as cards
from tichusim.cli import main


class Keeper(Agent):
    """Plays as ``heuristic`` and keeps its play views with their legal choices."""

    base = "heuristic"

    def __init__(self, **params):
        super().__init__(**params)
        self.kept = []

    def play(self, view, legal):
        self.kept.append((view, legal))
        return tichusim.strategy("heuristic").decide(view, legal)


def _position_of(view) -> dict:
    """What the seat knows at this view, written as a position file would write it."""
    trick = []
    for e in view.trick:
        if e.kind in ("play", "bomb"):
            trick.append(f"{e.seat}: {cards.format(e.cards)}")
        else:
            trick.append(f"{e.seat}: pass")
    in_trick = int(view.trick_cards)
    played = {
        str(s): cards.format(int(view.played_by[s]) & ~in_trick)
        for s in range(4)
        if int(view.played_by[s]) & ~in_trick
    }
    return {
        "seat": view.seat,
        "hand": cards.format(int(view.hand)),
        "played": played,
        "trick": trick,
        "tichu": [s for s in range(4) if view.tichu[s]],
        "grand_tichu": [s for s in range(4) if view.grand_tichu[s]],
        "wish": cards.RANK_CHARS[view.wish - 2] if view.wish else None,
        "out": [int(s) for s in view.out_order[: view.n_out]],
        "taken": {str(s): int(view.points_taken[s]) for s in range(4)},
        "gave": {str(s): cards.format(int(c)) for s, c in enumerate(view.given) if c},
        "received": {str(s): cards.format(int(c)) for s, c in enumerate(view.received) if c},
    }


FIELDS = (
    "counts",
    "tichu",
    "grand_tichu",
    "has_played",
    "played",
    "played_by",
    "out_order",
    "n_out",
    "wish",
    "top_code",
    "top_mask",
    "top_seat",
    "trick_cards",
    "leader",
    "passed",
    "points_taken",
)


def test_a_position_is_the_view_the_engine_gives():
    """At every play decision of seat 0 over several rounds, the position written from what
    the seat saw rebuilds the engine's public record field by field, its private record, and
    the same legal plays."""
    checked = 0
    for key in range(6):
        k = Keeper()
        Round(seed=4, key=key, strategies=[k, "heuristic", "heuristic", "heuristic"]).advance()
        for view, legal in k.kept:
            if any(e.kind == "dog" for e in view.trick) or view.top_mask == cards.DOG:
                continue
            data = {k2: v for k2, v in _position_of(view).items() if v not in (None, [], {})}
            position = Position.parse(data)
            pub, priv = position.records()
            for name in FIELDS:
                np.testing.assert_array_equal(pub[0][name], view.public[0][name], err_msg=name)
            for name in ("hand", "given", "received"):
                np.testing.assert_array_equal(priv[0][name], view.private[0][name])
            plays, can_pass = position.legal()
            assert [int(p) for p in plays] + [None] * can_pass == [
                None if p is None else int(p) for p in legal
            ]
            checked += 1
    assert checked > 20


# seat 0 has played 13 cards and holds the Ace of Jade; seat 3's King is on top
LAST_CARD = {
    "hand": "Aj",
    "played": {"0": "Ma 2j 3j 4j 5j 6j 7j 8j 9j Tj Jj Qj Kj", "1": "9s"},
    "trick": "1: 9p; 2: pass; 3: Ks",
    "taken": {"0": 25},
}


def test_going_out_first_is_advised_with_its_interval_above_passing():
    """With expert's rollouts, where passing costs some 7 points (with learned's the partner
    recovers more of it: about 4 points, which 400 deals do not separate from 0)."""
    advice = advise(Position.parse(LAST_CARD), 400, rollout="expert", seed=1)
    best, *others = advice.ranked
    assert best.play is not None and cards.format(int(best.play)) == "Aj"
    assert best.first_out.value == 1.0  # out first, whatever the other hands
    passing = next(r for r in others if r.play is None)
    assert passing.vs_best.high < 0 and passing.first_out.value < 1.0


def test_the_same_seed_gives_the_same_advice():
    runner = CliRunner()
    args = ["advise", "--hand", "Aj", "--played", "0=Ma 2j 3j 4j 5j 6j 7j 8j 9j Tj Jj Qj Kj"]
    args += ["--played", "1=9s", "--trick", "1: 9p; 2: pass; 3: Ks", "--taken", "0=25"]
    args += ["--samples", "200", "--json"]
    first = runner.invoke(main, args)
    assert first.exit_code == 0, first.output
    # stdout alone: a cold kernel cache adds compile notices to stderr on the first call
    assert first.stdout == runner.invoke(main, args).stdout
    plays = json.loads(first.stdout)["plays"]
    assert plays[0]["play"] == "Aj" and {p["play"] for p in plays} == {"Aj", None}
    for p in plays:  # the one JSON shape of an estimate (stats.Estimate.to_json)
        for name in ("margin", "vs_best", "first_out"):
            assert set(p[name]) == {"value", "low", "high", "n"} and p[name]["n"] == 200
    assert plays[0]["vs_best"] == {"value": 0.0, "low": 0.0, "high": 0.0, "n": 200}
    other = runner.invoke(main, [*args[:-3], "--samples", "200", "--seed", "5", "--json"])
    assert json.loads(other.output)["plays"] != plays  # another seed, other deals


def test_a_position_file_and_flags(tmp_path):
    path = tmp_path / "position.toml"
    path.write_text(
        'hand = "Aj"\ntrick = ["1: 9p", "2: pass", "3: Ks"]\ntaken = { 0 = 25 }\n'
        '[played]\n0 = "Ma 2j 3j 4j 5j 6j 7j 8j 9j Tj Jj Qj Kj"\n1 = "9s"\n'
    )
    out = CliRunner().invoke(main, ["advise", str(path), "--samples", "100"])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0].startswith("Seat 0, hand Aj: 2 plays")


BAD = [
    ({"hand": "Aj Aj"}, "card 'Aj' given twice"),
    ({**LAST_CARD, "played": {**LAST_CARD["played"], "2": "Aj"}}, "appears twice"),
    ({**LAST_CARD, "hand": "Aj As"}, "make 15, not the 14"),
    ({**LAST_CARD, "trick": "1: 9p; 3: Ks"}, "seat 2 was next"),
    ({**LAST_CARD, "trick": "1: 9p; 2: pass; 3: 5t"}, "does not beat"),
    ({**LAST_CARD, "trick": "1: 9p 3t; 2: pass; 3: Ks"}, "not a combination"),
    ({**LAST_CARD, "trick": "1: 9p; 2: pass"}, "seat 3's turn, not seat 0's"),
    (
        {
            **LAST_CARD,
            "wish": "5",
            "played": {"0": "2p 2j 3j 4j 5j 6j 7j 8j 9j Tj Jj Qj Kj", "1": "9s"},
        },
        "Mah Jong",
    ),
    ({**LAST_CARD, "taken": {"0": 20}}, "hold 25"),
    ({**LAST_CARD, "taken": None}, "say who took them"),
    ({**LAST_CARD, "gave": {"1": "Aj"}}, "in the hand"),
    ({**LAST_CARD, "received": {"1": "Kt"}}, "neither in the hand"),
    ({**LAST_CARD, "counts": {"1": 11}}, "holds 12 cards after playing 2"),
    ({**LAST_CARD, "tichu": [1], "grand_tichu": [1]}, "both Tichu and Grand Tichu"),
    ({**LAST_CARD, "colour": "red"}, "unknown key 'colour'"),
    ({"seat": 5, "hand": "Aj"}, "a seat 0..3"),
]


@pytest.mark.parametrize(("data", "message"), BAD, ids=[m for _, m in BAD])
def test_impossible_positions_are_refused(data, message):
    data = {k: v for k, v in data.items() if v is not None}
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        Position.parse(data)


def test_the_command_refuses_in_one_line_with_exit_2():
    out = CliRunner().invoke(main, ["advise", "--hand", "Aj Aj"])
    assert out.exit_code == 2
    assert out.output.strip().count("\n") == 0 and "given twice" in out.output
    assert "Traceback" not in out.output


def test_the_candidates_share_their_deals_unless_unpaired():
    """Paired (the default), one play listed twice gets the same result deal by deal; unpaired
    (``paired=False``, for measuring what pairing adds) each is played on deals of its own."""
    from tichusim.search.evaluate import evaluate_plays

    position = Position.parse(LAST_CARD)
    (ace,), _ = position.legal()
    paired = evaluate_plays(position.view(), [None, None], 300, seed=3)
    np.testing.assert_array_equal(paired.margin[0], paired.margin[1])
    unpaired = evaluate_plays(position.view(), [None, None], 300, seed=3, paired=False)
    assert (unpaired.margin[0] != unpaired.margin[1]).any()
    assert unpaired.margin[0].mean() == pytest.approx(paired.margin[0].mean(), abs=25)
    assert int(ace) == cards.parse("Aj")
