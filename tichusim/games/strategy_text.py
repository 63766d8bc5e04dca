"""Strategies written as text: one parser for every place that takes a strategy (``compare``,
``--strategies``, ``--seat-strategy``, ``--others``, a run config's ``strategies``).

* ``heuristic`` — a named strategy (``tichusim strategies`` lists them);
* ``heuristic:pass=lowest,bomb_points=20`` — a base with changes: a decision name
  (``play``, ``grand_tichu``, ``tichu``, ``pass``, ``wish``, ``dragon``) takes a policy, any
  other key is a numeric parameter, ``name=...`` names the result; without a base
  (``pass=lowest``) the base is ``heuristic`` (``BOOK.plain``: a table without a base means
  the same here and in a config, where a saved table names no base);
* ``heuristic[pass=lowest,bomb_points=20]`` — the same strategy written as the tables print
  its name (``StrategyBook.split_text``); inside a named agent's parameters the brackets
  keep its commas: ``search:samples=4,base=expert[grand_tichu=never,tichu=never]``;
* ``agent:mypackage.mymodule:MyPasser`` or ``agent:examples/dog_passer.py:DogPasser`` — a
  strategy written in Python (``tichusim.Agent``), returned as its table ``{"agent": ...}``;
  its constructor's parameters follow as ``key=value,...`` after one more colon
  (``agent:bot.py:Bot:depth=3,greedy=true``: ``true``/``false``, integers and decimal numbers
  are read as such, any other value as text), or come from a TOML file holding
  ``agent = "..."`` and ``[params]``;
* ``search`` or ``search:samples=64,candidates=8`` — an agent shipped with a name
  (``agents.named_agent``);
* ``mine.toml`` — a file holding the same table as ``tichusim.strategies.tichu.build`` takes
  (``base = "heuristic"``, ``pass = "lowest"``, ``[params]``), at top level or under
  ``[strategy]``; without a ``name`` the strategy is named by the path as written, so the
  name the tables print reads back.

A list (one strategy per seat, ``--others``) separates strategies by commas; a comma followed
by ``key=value`` continues the previous strategy, and a comma inside brackets separates
nothing (``book.split_strategies``): ``heuristic:pass=lowest,bomb_points=20,random`` is two
strategies. Every name printed for a strategy reads back as the same strategy: a composed
one's ``base[changes]``, a named agent's ``search:key=value,...``, a file's path.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from ..strategies.book import StrategyBook, split_items, split_strategies
from ..strategies.tichu import BOOK, Strategy, resolve
from .agents import AgentError, as_agent, from_text, param_value

__all__ = [
    "parse_strategy",
    "parse_strategy_count",
    "parse_strategy_list",
    "strategy_spec",
    "strategy_specs",
]


def _from_file(path: Path, book: StrategyBook) -> dict:
    """The table a strategy file holds: an agent's (checked: importable, buildable) or a
    scripted strategy's, complete (``StrategyBook.to_dict``) and named by the path unless
    it names itself."""
    try:
        data = tomllib.loads(path.read_text())
    except OSError as exc:
        raise ValueError(f"strategy file {path}: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"strategy file {path}: {exc}") from None
    table = data.get("strategy", data)
    if not isinstance(table, dict):
        raise ValueError(f"strategy file {path}: [strategy] must be a table")
    spec = dict(table)
    if "agent" in spec:  # a Python agent with its params
        try:
            as_agent(spec)
        except AgentError as exc:
            raise ValueError(f"strategy file {path}: {exc}") from None
        return spec
    spec.setdefault("name", str(path))
    try:
        return book.to_dict(book.build(spec))
    except ValueError as exc:
        raise ValueError(f"strategy file {path}: {exc}") from None


def _agent_params(text: str, agent: dict) -> dict:
    """``{"agent": "where:Class:key=value,..."}`` split into the agent and its ``params``."""
    where, _, changes = agent["agent"].partition(":")
    name, colon, changes = changes.partition(":")
    if not colon:
        return agent
    params: dict = {}
    for item in split_items(changes):
        key, eq, value = (part.strip() for part in item.partition("="))
        if not eq or not key.isidentifier() or not value:
            raise ValueError(
                f"strategy {text!r}: an agent's parameters are key=value,... after its "
                f"class (agent:file.py:Class:depth=3,greedy=true), not {item!r}"
            )
        if key in params:
            raise ValueError(f"strategy {text!r}: parameter {key!r} given twice")
        params[key] = param_value(value)
    return {"agent": f"{where}:{name}", "params": params}


def strategy_spec(text: str, book: StrategyBook = BOOK) -> str | dict:
    """One strategy's text (see the module docstring) as the plain data a game resolves and a
    run config keeps: an agent's table (checked: importable, buildable), a file's table
    (checked against ``book``, the game's: the team games' unless given), or else the text
    itself, a scripted strategy's name or composed form, which the game's ``resolve`` reads."""
    text = text.strip()
    if not text:
        raise ValueError("empty strategy")
    agent = from_text(text)
    if agent is not None:
        agent = _agent_params(text, agent)
        try:
            as_agent(agent)
        except AgentError as exc:
            raise ValueError(str(exc)) from None
        return agent
    if text.lower().endswith(".toml"):
        return _from_file(Path(text), book)
    return text


def strategy_specs(text: str, book: StrategyBook = BOOK) -> str | dict | list[str | dict]:
    """What the command line's ``--strategies`` text stands for in a game whose strategies are
    ``book`` (its ``Game.strategy_book``): one strategy, or one per player separated by commas
    (``book.split_strategies``), each read by ``strategy_spec``. ``ValueError`` (one line) for
    a bad file or agent."""
    parts = [strategy_spec(item, book) for item in split_strategies(text)]
    return parts[0] if len(parts) == 1 else parts


def parse_strategy(text: str) -> Strategy | dict:
    """One team-game strategy from its text (see the module docstring); an agent is its
    table, checked (importable, buildable), which workers and saved configs can carry."""
    spec = strategy_spec(text)
    if isinstance(spec, dict) and "agent" in spec:
        return spec
    return resolve(spec, 1, variant=None)[0]  # checked against its table when seated


def parse_strategy_list(text: str) -> list[Strategy | dict]:
    """Comma-separated strategies (``split_strategies``)."""
    return [parse_strategy(item) for item in split_strategies(text)]


def parse_strategy_count(text: str, count: tuple[int, ...], what: str) -> Any:
    """``text`` as one of ``count`` numbers of strategies (``parse_strategy_list``), the
    strategy itself when one, else the list; ``ValueError`` naming ``what`` for another
    number."""
    found = parse_strategy_list(text)
    if len(found) not in count:
        raise ValueError(
            f"{what}: give {' or '.join(map(str, count))} strategies, not {len(found)}"
        )
    return found[0] if len(found) == 1 else found
