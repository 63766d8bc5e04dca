"""One strategy text everywhere: every form is taken wherever a strategy is (the command line's
``--strategies``, ``compare``, a run config), and every name printed for a strategy reads back
as the same strategy (``games.strategy_text``, ``StrategyBook.split_text``)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from click.testing import CliRunner

from tichusim.cli import main
from tichusim.games.agents import agent_name, as_agent, spec_of, strategies_text
from tichusim.games.strategy_text import parse_strategy, parse_strategy_list, strategy_spec
from tichusim.runs.config import ConfigError, validate
from tichusim.strategies import seigneur
from tichusim.strategies.book import split_items, split_strategies
from tichusim.strategies.tichu import BOOK, resolve

SEARCH = "tichusim.search.agent:Search"
FILE = 'base = "heuristic"\npass = "lowest"\n[params]\nbomb_points = 20\n'


def test_commas_inside_brackets_do_not_split():
    assert split_items(" a , b[c=1,d=2] ,e[f[g,h],i]") == ["a", "b[c=1,d=2]", "e[f[g,h],i]"]
    assert split_strategies(
        "search:samples=4,base=expert[grand_tichu=never,tichu=never],expert[tichu=never],"
        "heuristic:pass=lowest,bomb_points=20,random"
    ) == [
        "search:samples=4,base=expert[grand_tichu=never,tichu=never]",
        "expert[tichu=never]",
        "heuristic:pass=lowest,bomb_points=20",
        "random",
    ]
    for bad, says in (("expert[tichu=never", "'[' without its ']'"), ("a],b", "']' without")):
        with pytest.raises(ValueError, match=re.escape(says)):
            split_items(bad)
        with pytest.raises(ValueError, match=re.escape(says)):
            parse_strategy_list(bad)


def test_the_forms_of_a_composed_strategy_are_one_strategy():
    forms = [
        "expert:grand_tichu=never,tichu=never",
        "expert:tichu=never,grand_tichu=never",
        "expert[grand_tichu=never,tichu=never]",
    ]
    found = [parse_strategy(t) for t in forms] + [resolve(t, 1)[0] for t in forms]
    assert {s.name for s in found} == {"expert[grand_tichu=never,tichu=never]"}
    assert all(s == found[0] for s in found)
    assert parse_strategy("pass=lowest").name == "heuristic[pass=lowest]"  # the plain base
    # Grand Seigneur prints base:changes, and reads the brackets too
    gs = seigneur.resolve("heuristic[give_back=lowest,bomb_cards=2]", 5)[0]
    assert gs.name == "heuristic:give_back=lowest,bomb_cards=2"
    assert seigneur.resolve(gs.name, 5)[0] == gs


def _printed(strategy) -> str:
    """The name ``compare`` prints for a parsed strategy (and the tables' strategy column)."""
    return agent_name(strategy) if isinstance(strategy, dict) else strategy.name


def _row(strategy) -> np.ndarray:
    """The kernel row of a scripted strategy, or of an agent's base."""
    if isinstance(strategy, dict):
        return resolve(as_agent(strategy).base, 1)[0].param_row("nanjing")
    return strategy.param_row("nanjing")


@pytest.mark.parametrize(
    "given",
    [
        "expert",
        "heuristic:pass=lowest",
        "expert:tichu=never,grand_tichu=never",
        "heuristic:bomb_points=0.123456789",  # more digits than the short form keeps
        "search:samples=4,candidates=3,paired=false",
        "search:samples=4,searches=play+bomb,base=expert[grand_tichu=never,tichu=never]",
        # a composed base given as a table (Python, a config): printed in brackets
        {
            "agent": SEARCH,
            "params": {"samples": 4, "base": {"base": "expert", "grand_tichu": "never"}},
        },
        "FILE",
    ],
)
def test_every_printed_name_reads_back(given, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if given == "FILE":
        (tmp_path / "mine.toml").write_text(FILE)
        given = "mine.toml"
    strategy = parse_strategy(given) if isinstance(given, str) else given
    name = _printed(strategy)
    back = parse_strategy(name)
    assert _printed(back) == name
    assert np.array_equal(_row(back), _row(strategy))
    if isinstance(given, str) and isinstance(back, dict):  # the same agent, built the same
        assert spec_of(back) == spec_of(strategy)
    # the name reads back in a list of strategies too, next to others
    assert [_printed(s) for s in parse_strategy_list(f"random,{name},lowest")] == [
        "random",
        name,
        "lowest",
    ]


def test_the_replay_commands_strategies_read_back():
    """``strategies_text``, the ``--strategies`` of the replay command an agent's failure
    prints, reads back as the same strategies, composed ones with their commas too."""
    given = [
        "expert[grand_tichu=never,tichu=never]",
        "heuristic:pass=lowest,bomb_points=20",
        "search:samples=4,base=expert[grand_tichu=never,tichu=never]",
        "random",
    ]
    text = strategies_text(given)
    assert text is not None
    assert [_printed(s) for s in parse_strategy_list(text)] == [
        _printed(parse_strategy(g)) for g in given
    ]


def test_a_file_is_named_by_its_path_unless_it_names_itself(tmp_path):
    (tmp_path / "kc.toml").write_text('name = "kc20"\n' + FILE)
    assert parse_strategy(str(tmp_path / "kc.toml")).name == "kc20"
    # as data, a file is its complete table: what a run config keeps
    (tmp_path / "mine.toml").write_text(FILE)
    table = strategy_spec(str(tmp_path / "mine.toml"))
    assert isinstance(table, dict) and table["name"] == str(tmp_path / "mine.toml")
    assert BOOK.build(table) == parse_strategy(str(tmp_path / "mine.toml"))


def test_run_configs_take_the_command_lines_text(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a file is found as the command line finds it
    (tmp_path / "mine.toml").write_text(FILE)
    (tmp_path / "bot.py").write_text(
        "import tichusim\n\nclass Bot(tichusim.Agent):\n"
        "    def __init__(self, depth=1):\n        super().__init__(depth=depth)\n\n"
        "    def wish(self, view, legal):\n        return legal[0]\n"
    )

    def strategies(value):
        return validate({"rounds": 10, "strategies": value}).strategies

    assert strategies("expert") == ["expert"] * 4  # names stay names: a run's hash unchanged
    assert strategies("agent:bot.py:Bot") == [{"agent": "bot.py:Bot"}] * 4
    assert (
        strategies("agent:bot.py:Bot:depth=3")
        == [{"agent": "bot.py:Bot", "params": {"depth": 3}}] * 4
    )
    assert strategies("search:samples=4") == [{"agent": SEARCH, "params": {"samples": 4}}] * 4
    assert strategies("expert[tichu=never]") == ["expert[tichu=never]"] * 4
    file_table = BOOK.to_dict(parse_strategy("mine.toml"))
    assert strategies("mine.toml") == [file_table] * 4
    mixed = strategies(
        ["heuristic:pass=lowest", "search:base=expert[grand_tichu=never,tichu=never]"] * 2
    )
    assert mixed[1] == {
        "agent": SEARCH,
        "params": {"base": "expert[grand_tichu=never,tichu=never]"},
    }
    # a text may list one strategy per seat, as --strategies does
    assert strategies("expert,mine.toml,expert[tichu=never],agent:bot.py:Bot") == [
        "expert",
        file_table,
        "expert[tichu=never]",
        {"agent": "bot.py:Bot"},
    ]
    # the saved config reads back the same
    config = validate({"rounds": 10, "strategies": ["mine.toml", "search", "expert", "lowest"]})
    assert validate(config.to_json()).hash == config.hash


@pytest.mark.parametrize(
    "value, key, says",
    [
        ("nothing.toml", "strategies.0", "strategy file nothing.toml"),
        ("expert[tichu=nope]", "strategies.0", "unknown policy 'nope'"),
        (
            ["expert", "expert[tichu=never", "expert", "expert"],
            "strategies.1",
            "'[' without its ']'",
        ),
        ("agent:nowhere.py:Bot", "strategies.0", "cannot be imported"),
        ("nobase[tichu=never]", "strategies.0", "unknown base 'nobase'"),
        ("expert,random", "strategies", "give one strategy or a list of 4"),
    ],
)
def test_run_config_text_errors_are_one_line(value, key, says, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as err:
        validate({"rounds": 10, "strategies": value})
    assert err.value.key == key and says in err.value.problem and "\n" not in str(err.value)


def test_show_takes_a_file_and_composed_text(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.toml").write_text(FILE)
    runner = CliRunner()
    by_file = runner.invoke(main, ["show", "--round", "2", "--strategies", "mine.toml"])
    by_text = runner.invoke(
        main, ["show", "--round", "2", "--strategies", "heuristic[pass=lowest,bomb_points=20]"]
    )
    assert by_file.exit_code == 0 and by_text.exit_code == 0, by_file.output + by_text.output
    assert "seat 0 mine.toml" in by_file.output
    # the same strategy plays the same round: only the names differ
    assert by_file.output.splitlines()[2:] == by_text.output.splitlines()[2:]
    bad = runner.invoke(main, ["show", "--strategies", "nothing.toml"])
    assert bad.exit_code == 2 and "strategy file nothing.toml" in bad.output


def test_a_composed_base_with_two_changes_on_the_command_line(tmp_path):
    """The name compare prints for a search with a composed base is given back as it is."""
    composed = "expert[grand_tichu=never,tichu=never]"
    search = f"search:samples=2,candidates=2,searches=play,base={composed}"
    res = CliRunner().invoke(
        main,
        ["compare", search, composed, "--deals", "2", "--quiet", "--out", tmp_path / "m.md"],
    )
    assert res.exit_code == 0, res.output
    assert f"{search} - {composed}:" in res.output
    assert "compare 'search:samples=2" in (tmp_path / "m.md").read_text()  # its regenerate line
    # and in a list of strategies, one per seat
    show = CliRunner().invoke(
        main, ["show", "--round", "1", "--strategies", f"{composed},random,{composed},random"]
    )
    assert show.exit_code == 0, show.output
    assert f"seat 0 {composed}, seat 1 random" in show.output
