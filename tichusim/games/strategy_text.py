"""Strategies written on a command line: a name, ``base:key=value,...``, or a TOML file.

* ``heuristic`` — a named strategy (``tichusim strategies`` lists them);
* ``heuristic:pass=lowest,bomb_points=20`` — a base with changes: a decision name
  (``play``, ``grand_tichu``, ``tichu``, ``pass``, ``wish``, ``dragon``) takes a policy, any
  other key is a numeric parameter, ``name=...`` names the result; without a base
  (``pass=lowest``) the base is ``heuristic`` (``TABLES.plain``: a table without a base means
  the same here and in a config, where a saved table names no base);
* ``agent:mypackage.mymodule:MyPasser`` or ``agent:examples/dog_passer.py:DogPasser`` — a
  strategy written in Python (``tichusim.Agent``), returned as its table ``{"agent": ...}``;
  its constructor's parameters follow as ``key=value,...`` after one more colon
  (``agent:bot.py:Bot:depth=3,greedy=true``: ``true``/``false``, integers and decimal numbers
  are read as such, any other value as text), or come from a TOML file holding
  ``agent = "..."`` and ``[params]``;
* ``mine.toml`` — a file holding the same table as ``tichusim.strategies.tichu.build`` takes
  (``base = "heuristic"``, ``pass = "lowest"``, ``[params]``), at top level or under
  ``[strategy]``.

A list (one strategy per seat, ``--others``) separates strategies by commas; a comma followed
by ``key=value`` continues the previous strategy, so ``heuristic:pass=lowest,bomb_points=20,
random`` is two strategies.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from ..strategies.tichu import STRATEGIES, TABLES, Strategy, build, resolve

__all__ = ["parse_strategy", "parse_strategy_list"]


def _from_file(path: Path) -> Strategy | dict:
    try:
        data = tomllib.loads(path.read_text())
    except OSError as exc:
        raise ValueError(f"strategy file {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"strategy file {path}: {exc}") from None
    table = data.get("strategy", data)
    if not isinstance(table, dict):
        raise ValueError(f"strategy file {path}: [strategy] must be a table")
    spec = dict(table)
    if "agent" in spec:  # a Python agent with its params
        from .agents import AgentError, as_agent

        try:
            as_agent(spec)
        except AgentError as exc:
            raise ValueError(f"strategy file {path}: {exc}") from None
        return spec
    spec.setdefault("name", path.stem)
    try:
        return build(spec)
    except ValueError as exc:
        raise ValueError(f"strategy file {path}: {exc}") from None


def _agent_params(text: str, agent: dict) -> dict:
    """``{"agent": "where:Class:key=value,..."}`` split into the agent and its ``params``."""
    where, _, changes = agent["agent"].partition(":")
    name, colon, changes = changes.partition(":")
    if not colon:
        return agent
    from .agents import param_value

    params: dict = {}
    for item in (c.strip() for c in changes.split(",")):
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


def parse_strategy(text: str) -> Strategy | dict:
    """One strategy from its command-line form (see the module docstring); an agent is its
    table, checked (importable, buildable), which workers and saved configs can carry."""
    from .agents import AgentError, as_agent, from_text

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
        return _from_file(Path(text))
    if ":" not in text and "=" not in text:
        return resolve(text, 1)[0]
    base, _, changes = text.partition(":") if ":" in text else (TABLES.plain, "", text)
    base = base.strip()
    if base not in STRATEGIES:
        raise ValueError(
            f"strategy {text!r}: unknown base {base!r} (known: {', '.join(STRATEGIES)})"
        )
    return TABLES.compose(text, base, changes)


def parse_strategy_list(text: str) -> list[Strategy | dict]:
    """Comma-separated strategies; ``key=value`` items after a comma belong to the previous."""
    groups: list[str] = []
    for item in (t.strip() for t in text.split(",")):
        if "=" in item and ":" not in item and groups:
            groups[-1] += "," + item
        else:
            groups.append(item)
    return [parse_strategy(g) for g in groups]
