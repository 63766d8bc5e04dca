"""The defaults: the answers (gt-odds, tichu-odds, pass-advice, gt-table, advise's rollouts,
the server's answers) seat `learned`, the strongest fast player, at every team table
(Nanjing, Tientsin, Wu Wang), each table playing its own shipped network; the scripted
default (the strategy book's, a Python agent's base, the batch scripts' self-play) stays
`expert`, and a table without a base still means heuristic's (see below); Grand Seigneur
keeps its own `heuristic`. Putting any answer back to `expert`, or any default to
`heuristic`, fails here."""

import inspect

import pytest

from tichusim.analysis import advise, gtodds, gttable, passadvice, tichuodds
from tichusim.cli import main
from tichusim.games.strategy_text import parse_strategy
from tichusim.strategies import ANSWER_STRATEGY, DEFAULT_STRATEGY, learned
from tichusim.strategies import seigneur as seigneur_strategies
from tichusim.strategies import tichu as tichu_strategies
from tichusim.web import table as web_table


def test_the_answers_seat_learned_and_the_scripted_default_is_expert():
    assert ANSWER_STRATEGY == "learned"
    assert DEFAULT_STRATEGY == "expert"
    assert tichu_strategies.BOOK.default == "expert"
    assert tichu_strategies.STRATEGIES[DEFAULT_STRATEGY].description.startswith("the default")


@pytest.mark.parametrize("command", ["gt-odds", "tichu-odds", "gt-table", "pass-advice"])
def test_command_line_answers_default_to_learned(command):
    params = {p.name: p.default for p in main.commands[command].params}
    assert params["seat_strategy"] == params["others"] == "learned"


def test_advise_rolls_out_with_learned_by_default():
    params = {p.name: p.default for p in main.commands["advise"].params}
    assert params["rollout"] == "learned"
    assert inspect.signature(advise.advise).parameters["rollout"].default == "learned"


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
def test_analysis_functions_default_to_learned(function):
    params = inspect.signature(function).parameters
    assert params["seat_strategy"].default == params["others"].default == "learned"


@pytest.mark.parametrize("function", [passadvice.pass_advice, passadvice.pass_candidates])
def test_pass_advice_defaults_to_learned(function):
    params = inspect.signature(function).parameters
    assert params["strategy"].default == params["others"].default == "learned"


def test_the_servers_gt_table_seats_learned_and_says_so():
    assert web_table.PLAYERS == ("learned", "learned")
    t = web_table.Table(0)
    assert t.status()["seat_strategy"] == t.status()["others"] == "learned"
    assert "--seat-strategy learned --others learned" in t.command


@pytest.mark.parametrize("variant", ["nanjing", "tientsin", "wuwang"])
def test_each_team_table_seats_its_own_network_by_default(variant, recwarn):
    """Every player of the odds' tables plays ``learned`` with the table's own shipped
    network, with no warning that a network plays at another table. Only the hand's Grand
    Tichu policy is set by the experiment; the passing is learned's own, whatever it is."""
    call, no_call = gtodds.seat_strategies(variant=variant)
    assert {s.play for s in call + no_call} == {"learned"}
    own = learned.load(learned.shipped(variant)).identity
    for s in call + no_call:
        assert s.learned_weights_at(variant).identity == own
    base = tichu_strategies.STRATEGIES["learned"]
    assert {s.pass_ for s in call + no_call} == {base.pass_}
    assert not [w for w in recwarn if issubclass(w.category, learned.OtherTableWarning)]


def test_tientsin_and_wuwang_have_networks_of_their_own():
    nanjing = learned.shipped("nanjing")
    for variant in ("tientsin", "wuwang"):
        assert learned.shipped(variant) != nanjing
        assert learned.load(learned.shipped(variant)).variant == variant


def test_strategies_command_names_each_familys_default():
    from click.testing import CliRunner

    out = CliRunner().invoke(main, ["strategies"]).output
    assert "Named strategies (the default: expert;" in out.split("== Grand Seigneur")[0]
    assert "Named strategies (the default: heuristic;" in out.split("== Grand Seigneur")[1]
    assert "seat learned by default" in out.split("== Grand Seigneur")[0]
    assert "seat learned by default" not in out.split("== Grand Seigneur")[1]


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
