"""Left and right as the rule books say (RULES.md §2.1): play goes to the right, so the next
seat (i + 1) is a seat's right-hand opponent. Checked on the cards that really changed hands
in the engine's records, not on labels; the policies' old, mirrored names still play, with a
one-line notice, for one release."""

import warnings
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import tichusim
from tichusim.cards import DOG, NORMAL
from tichusim.cli import main
from tichusim.strategies.book import RenamedPolicyWarning
from tichusim.strategies.tichu import Strategy, build

ROOT = Path(__file__).resolve().parents[2]


def _moved(seats, giver: int, receiver: int) -> np.ndarray:
    """Per round, the card that left ``giver``'s hand and arrived in ``receiver``'s in the
    passing (§2.4): read from the hands, before and after."""
    by = seats.pivot(index="round", columns="seat")
    gave = by["hand14"][giver].to_numpy() & ~by["hand_passed"][giver].to_numpy()
    got = by["hand_passed"][receiver].to_numpy() & ~by["hand14"][receiver].to_numpy()
    return gave & got


def _rank(card: np.ndarray) -> np.ndarray:
    """The rank (2..14) of one-card masks; 0 for a special card."""
    normal = card & np.uint64(NORMAL)
    index = np.array([int(c).bit_length() - 1 for c in normal])
    return np.where(normal != 0, index & 15, 0)


def test_the_right_opponent_is_the_next_seat():
    """The seat table's ``given_right`` is the card that reached seat + 1, ``given_left`` the
    one that reached seat + 3, at every seat (RULES.md §2.1, §2.4)."""
    _, seats = tichusim.simulate(300, seed=4, strategies="heuristic")
    by = seats.pivot(index="round", columns="seat")
    for s in range(4):
        right, left = _moved(seats, s, (s + 1) % 4), _moved(seats, s, (s + 3) % 4)
        assert (by["given_right"][s].to_numpy() == right).all()
        assert (by["given_left"][s].to_numpy() == left).all()
        assert (by["received_left"][(s + 1) % 4].to_numpy() == right).all()


def test_odd_even_gives_the_even_rank_to_the_next_seat():
    """``odd-even``: an even rank to the right opponent (seat + 1), an odd rank to the left
    (seat + 3), the convention as people say it; it gives way to keep-combos only when the
    two parities cannot both be given (§2.1, §2.4)."""
    _, seats = tichusim.simulate(400, seed=2, strategies={"base": "heuristic", "pass": "odd-even"})
    for s in range(4):
        right = _rank(_moved(seats, s, (s + 1) % 4))
        left = _rank(_moved(seats, s, (s + 3) % 4))
        both = (right > 0) & (left > 0)
        assert ((right[both] % 2 == 0) & (left[both] % 2 == 1)).mean() > 0.9


def test_an_agent_passing_to_the_right_reaches_the_next_seat():
    """An agent's gifts follow ``legal.receivers``: right opponent, partner, left opponent;
    ``DogPasser`` gives the Dog to its right opponent, and the Dog arrives at seat + 1."""
    dog_passer = {"agent": f"{ROOT}/examples/dog_passer.py:DogPasser"}
    _, seats = tichusim.simulate(200, seed=1, strategies=[dog_passer, "heuristic"] * 2)
    for s in (0, 2):
        to_right = _moved(seats, s, s + 1)
        elsewhere = _moved(seats, s, (s + 2) % 4) | _moved(seats, s, (s + 3) % 4)
        assert (to_right == DOG).sum() > 5
        assert not (elsewhere == DOG).any()


def test_dragon_right_gives_the_trick_to_the_next_seat():
    """Dragon policy ``right``: the next seat, as ``next`` does while it holds cards (§2.12)."""
    from test_policies import _ask, _strategy  # the policy asked alone

    counts = np.array([1, 3, 9, 8])
    hand, none = np.uint64(1 << 15), np.uint64(0)
    assert _ask(_strategy(dragon="right"), hand, none, counts, none, 1) == 1


@pytest.mark.parametrize(
    ("decision", "old", "new"),
    [("dragon", "left", "right"), ("wish", "passed-left", "passed-right")],
)
def test_old_policy_names_still_play_with_a_notice(decision, old, new):
    with pytest.warns(RenamedPolicyWarning, match=f"'{old}' is now called '{new}'.*next release"):
        renamed = build({"base": "heuristic", decision: old})
    assert renamed.policy(decision) == new
    assert (renamed.param_row() == build({"base": "heuristic", decision: new}).param_row()).all()
    with pytest.warns(RenamedPolicyWarning):
        direct = Strategy("mine", "heuristic", **{decision: old})
    assert direct.policy(decision) == new
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new name says nothing
        build({"base": "heuristic", decision: new})


def test_old_names_on_the_command_line_play_the_same_rounds():
    """The command says it in one line on stderr and plays what the new name plays."""

    def compare(spec):
        res = CliRunner().invoke(main, ["compare", spec, "heuristic", "--deals", "30", "--quiet"])
        assert res.exit_code == 0, res.output
        kept = [
            line
            for line in res.stdout.splitlines()
            if not line.startswith("Regenerate") and not line.endswith("s of play)")
        ]
        return kept, res.stderr

    old, said = compare("heuristic:dragon=left")
    new, quiet = compare("heuristic:dragon=right")
    notice = [line for line in said.splitlines() if "warning" in line]
    assert notice == [
        "tichusim: warning: dragon policy 'left' is now called 'right' (RULES.md §2.1: the "
        "next player is the right-hand opponent, as the rule books say); the old name goes in "
        "the next release"
    ]
    assert "warning" not in quiet
    assert old == new and "heuristic[dragon=right]" in "\n".join(new)
