"""The default strategy: `expert` in every team game (Nanjing, Tientsin, Wu Wang), wherever no
strategy is named (a table without a base still means heuristic's: see below); Grand Seigneur
keeps its own `heuristic`. Expert beats heuristic in duplicate at
Nanjing (results/ladder.md) and at Tientsin, and gains taking one heuristic player's place at
Wu Wang (scripts/wuwang_swap.py). Reverting any default to `heuristic` fails here."""

import inspect

import pytest

from tichusim.analysis import gtodds, gttable, tichuodds
from tichusim.cli import main
from tichusim.games.strategy_text import parse_strategy
from tichusim.strategies import DEFAULT_STRATEGY
from tichusim.strategies import seigneur as seigneur_strategies
from tichusim.strategies import tichu as tichu_strategies


def test_the_team_tables_default_is_expert():
    assert DEFAULT_STRATEGY == "expert"
    assert tichu_strategies.BOOK.default == "expert"
    assert tichu_strategies.STRATEGIES[DEFAULT_STRATEGY].description.startswith("the default")


@pytest.mark.parametrize("command", ["gt-odds", "tichu-odds", "gt-table"])
def test_command_line_answers_default_to_expert(command):
    params = {p.name: p.default for p in main.commands[command].params}
    assert params["seat_strategy"] == params["others"] == "expert"


@pytest.mark.parametrize(
    "function",
    [
        gtodds.seat_strategies,
        gtodds.gt_odds,
        tichuodds.tichu_odds,
        gttable.experiment,
        gttable.run_experiment,
    ],
)
def test_analysis_functions_default_to_expert(function):
    params = inspect.signature(function).parameters
    assert params["seat_strategy"].default == params["others"].default == "expert"


def test_the_odds_tables_seat_expert_by_default():
    """At every team game the hand's seat and the others play expert unless told otherwise
    (only the hand's Grand Tichu policy is set by the experiment)."""
    for variant in ("nanjing", "tientsin", "wuwang"):
        call, no_call = gtodds.seat_strategies(variant=variant)
        assert {s.play for s in call + no_call} == {"expert"}
        assert {s.pass_ for s in call + no_call} == {"expert"}


def test_strategies_command_names_each_familys_default():
    from click.testing import CliRunner

    out = CliRunner().invoke(main, ["strategies"]).output
    assert "Named strategies (the default: expert;" in out.split("== Grand Seigneur")[0]
    assert "Named strategies (the default: heuristic;" in out.split("== Grand Seigneur")[1]


def test_a_table_without_a_base_stays_heuristic_so_saved_tables_rebuild():
    """Not the default, deliberately: a saved strategy (``to_dict``, as in a run's
    config.json) names every policy and override but no base, so the base must carry no tuned
    parameters of its own, or expert's would be added to it on the way back."""
    assert tichu_strategies.BOOK.plain == "heuristic"
    assert tichu_strategies.build({"pass": "lowest"}).play == "heuristic"
    assert parse_strategy("pass=lowest").name == "heuristic[pass=lowest]"
    for spec in (
        {"base": "heuristic", "wish": "none", "params": {"bomb_points": 30}},
        {"base": "expert", "pass": "lowest"},
        "expert",
        "heuristic",
    ):
        s = tichu_strategies.resolve(spec, 1)[0]
        again = tichu_strategies.build(s.to_dict())
        assert again.params == s.params and (again.param_row() == s.param_row()).all()


def test_grand_seigneur_keeps_its_own_default():
    """Grand Seigneur has no expert (RULES.md §5: its own strategies); its default stays."""
    assert seigneur_strategies.DEFAULT == seigneur_strategies.BOOK.default == "heuristic"
    assert seigneur_strategies.build({"give_back": "lowest"}).play == "heuristic"
