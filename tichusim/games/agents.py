"""Strategies written in Python (``Agent``): the class, how a table or a command line names one,
and how it is loaded and rebuilt in a worker.

An ``Agent`` subclass defines a method for each decision it takes; the engine leaves exactly
those to it (``kernels/outside.py``) and plays every other decision with the named ``base``
strategy's policies, at full speed. Each method gets the seat's ``View`` (RULES.md §6: the
table's public record, the round's public history and the seat's own record;
``docs/view.md`` lists every field) and the decision's legal choices (``TeamSteps`` and
``SeigneurSteps`` in ``games/team_steps.py`` and ``games/seigneur_steps.py`` list their forms)
and returns one of them::

    class DogToPartner(tichusim.Agent):
        base = "expert"
        def pass_cards(self, view, legal):      # the passing: one card per receiver
            ...
            return choice                       # a tuple from ``legal``

Methods: ``grand_tichu``, ``tichu``, ``pass_cards``, ``play``, ``bomb``, ``wish``, ``dragon``,
``dog`` (the team games); ``give_back``, ``play``, ``bomb``, ``wish`` (Grand Seigneur); and
``round_over(view, scores)``, which hears each round's outcome (the team games). An agent's
own randomness comes from ``view.random``, a NumPy generator seeded by (seed, round key,
player), so a run stays reproducible. In a config or a strategy table an agent is ``{agent =
"package.module:Class", params = {...}}`` (``params`` go to its constructor); a file path
works for the module (``"examples/dog_passer.py:DogPasser"``).

Agents shipped with tichusim also have a name, as scripted strategies do (``NAMED``): the text
``search`` or ``search:samples=64,candidates=8`` stands for the agent table of
``tichusim.search.agent.Search`` with those parameters, wherever a strategy is named.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..strategies.book import split_items, split_strategies

if TYPE_CHECKING:
    from .view import View

__all__ = [
    "NAMED",
    "Agent",
    "AgentError",
    "AgentLoadError",
    "as_agent",
    "from_text",
    "is_agent",
    "load_agent",
    "named_agent",
    "param_value",
    "spec_of",
    "strategies_text",
]

# agents named like scripted strategies: name -> "module:Class"
NAMED = {"search": "tichusim.search.agent:Search"}

# modules that held shipped agents before, by where they are now: a table or config naming
# the old place (``{agent = "tichusim.strategies.search:Search"}``) still loads
MOVED = {
    "tichusim.strategies.search": "tichusim.search.agent",
    "tichusim.strategies.agents": "tichusim.games.agents",
}

PREFIX = "agent:"  # on a command line: ``agent:package.module:Class`` or ``agent:file.py:Class``
_FILES: dict[str, str] = {}  # module name -> the ``file.py`` it was loaded from (``spec_of``)

# decision name (view.DECISIONS) -> the Agent method that takes it
METHODS = {
    "grand_tichu": "grand_tichu",
    "tichu": "tichu",
    "pass": "pass_cards",
    "play": "play",
    "bomb": "bomb",
    "wish": "wish",
    "dragon": "dragon",
    "dog": "dog",
    "give_back": "give_back",
}


class AgentError(RuntimeError):
    """An agent that cannot be loaded, raised, or answered outside the legal choices: one line
    naming the agent, the decision and the round (its round key in ``key`` once known)."""

    key: int | None = None


class AgentLoadError(AgentError, ValueError):
    """An agent that cannot be imported or built: bad input (a ``ValueError`` too), found
    before anything is played."""


class Agent:
    """A strategy written in Python: define the decision methods it takes (``METHODS``), the
    others come from ``base``. ``name`` (default: the class name) appears in the tables;
    ``params`` are the keyword arguments it was built with.

    When each decision is asked, and how often in a round (team games, RULES.md §2):

    * ``grand_tichu(view, legal)``: once per seat, on its first 8 cards (Tientsin 6), §2.2;
    * ``tichu``: at most once per moment while the seat has played no card and not called:
      ``view.detail`` 0 before the passing, 1 right after it, 2 before each of its own turns,
      3 right before a bomb out of turn that is its first card (asked once it chose to bomb)
      (§2.3);
    * ``pass_cards``: once per seat, one card for each receiver (§2.4);
    * ``play``: at each of its turns, leading or following (§2.8); ``None`` in ``legal`` when
      it may pass;
    * ``bomb``: out of turn, after every play and pass (never after the Dog) while the seat
      holds a bomb that beats the top (§2.9); ``view.next_turn`` and ``view.trick_over`` say
      what comes if nobody bombs;
    * ``wish``: after its Mah Jong is played (§2.11); ``dragon``: after it wins a trick with
      the Dragon (§2.12); ``dog``: after its Dog, in Tientsin (§3).

    Grand Seigneur (§5) asks ``give_back`` in the exchange (``view.detail`` cards), ``play``,
    ``bomb`` and ``wish``. ``docs/view.md`` lists the view's fields and these decisions.

    ``round_over(view, scores)``, if defined, is called once per round at its end with the
    seat's final view (its ``history`` complete) and the round's scores (the team games: team
    0's and team 1's); a table with no agent defining it never replays a round for it. In
    whole games (``simulate_games``) it hears each game's last round."""

    base: str = "heuristic"
    name: str | None = None

    def __init__(self, **params: Any):
        self.params = params
        if self.name is None:
            self.name = type(self).__name__

    @property
    def decisions(self) -> tuple[str, ...]:
        """The decisions this agent takes itself: those whose method its class defines."""
        return tuple(
            d for d, m in METHODS.items() if getattr(type(self), m) is not getattr(Agent, m, None)
        )

    @property
    def hears_outcome(self) -> bool:
        """Whether its class defines ``round_over``."""
        return type(self).round_over is not Agent.round_over

    def decide(self, decision: str, view: View, legal: Any) -> Any:
        """The answer of the method taking ``decision``."""
        return getattr(self, METHODS[decision])(view, legal)

    def round_over(self, view: View, scores: tuple[int, ...]) -> None:
        """A round ended: ``view`` is the seat's final view (``view.decision`` is
        ``"round_over"``), ``scores`` the round's scores. Define it to learn from outcomes."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.params.items())})"


# the decision methods of the base class exist only to be overridden (``decisions`` reads them)
for _method in set(METHODS.values()):
    setattr(Agent, _method, None)


def param_value(text: str) -> Any:
    """An agent parameter's value as a command line writes it (``search:samples=64``,
    ``agent:bot.py:Bot:greedy=true``): a boolean, an integer, a decimal number, or else the
    text itself."""
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def named_agent(spec: Any) -> dict | None:
    """The agent table that the text ``name`` or ``name:key=value,...`` of a named agent
    (``NAMED``) stands for (a comma inside brackets separates nothing:
    ``search:base=expert[tichu=never,grand_tichu=never]``, ``book.split_items``); ``None``
    for any other ``spec``. ``AgentLoadError`` for a
    parameter that is not ``key=value``."""
    if not isinstance(spec, str):
        return None
    name, _, rest = spec.strip().partition(":")
    if name.strip() not in NAMED:
        return None
    params = {}
    for item in filter(None, split_items(rest)):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise AgentLoadError(f"strategy {spec!r}: {item!r} is not key=value")
        params[key.strip()] = param_value(value.strip())
    table: dict = {"agent": NAMED[name.strip()]}
    if params:
        table["params"] = params
    return table


def is_agent(spec: Any) -> bool:
    """Whether ``spec`` names a Python strategy: an Agent, an Agent class, a table with an
    ``agent`` key, or a named agent's text (``named_agent``)."""
    return (
        isinstance(spec, Agent)
        or (inspect.isclass(spec) and issubclass(spec, Agent))
        or (isinstance(spec, dict) and "agent" in spec)
        or (isinstance(spec, str) and spec.strip().partition(":")[0].strip() in NAMED)
    )


def as_agent(spec: Any) -> Agent:
    """The Agent ``spec`` stands for (``is_agent``); ``AgentError`` when it cannot be built."""
    if isinstance(spec, Agent):
        return spec
    if isinstance(spec, str):
        table = named_agent(spec)
        if table is None:
            raise AgentLoadError(f"{spec!r} names no agent (named agents: {', '.join(NAMED)})")
        return as_agent(table)
    if inspect.isclass(spec):
        return cast(Agent, spec())
    unknown = set(spec) - {"agent", "params"}
    if unknown:
        raise AgentLoadError(
            f"agent {spec['agent']!r}: unknown key(s) "
            f"{', '.join(sorted(unknown))} (an agent table takes agent and "
            "params)"
        )
    cls = load_agent(spec["agent"])
    params = spec.get("params", {})
    if not isinstance(params, dict):
        raise AgentLoadError(f"agent {spec['agent']!r}: params must be a table, not {params!r}")
    try:
        agent = cls(**params)
    except Exception as exc:  # noqa: BLE001 - the user's constructor
        raise AgentLoadError(
            f"agent {spec['agent']!r}: cannot be built with params {params}: "
            f"{type(exc).__name__}: {exc}"
        ) from None
    if not isinstance(agent, Agent) or not hasattr(agent, "params"):
        raise AgentLoadError(f"agent {spec['agent']!r}: its __init__ must call super().__init__()")
    # how a worker rebuilds it (``spec_of``); an attribute Agent does not declare
    agent._spec = {"agent": spec["agent"], "params": dict(params)}  # type: ignore[attr-defined]
    return agent


def from_text(text: Any) -> Any:
    """The agent table a command line's ``agent:package.module:Class`` (or
    ``agent:path/file.py:Class``, or a named agent: ``named_agent``) stands for; ``None`` for
    any other text."""
    if not isinstance(text, str):
        return None
    named = named_agent(text)
    if named is not None:
        return named
    if not text.strip().startswith(PREFIX):
        return None
    return {"agent": text.strip()[len(PREFIX) :].strip()}


def spec_of(spec: Any) -> dict:
    """The plain-data table (``{"agent": ..., "params": {...}}``) that rebuilds agent ``spec``
    in another process or a resumed run: a run's config holds this, never a pickled instance.
    ``AgentError`` for an agent no other process could import (defined in ``__main__`` or a
    function) or whose params are not plain data."""
    if isinstance(spec, str) and named_agent(spec) is not None:
        spec = named_agent(spec)
    if isinstance(spec, dict):
        as_agent(spec)  # importable and buildable, or one line saying why not
        out = {"agent": spec["agent"], "params": dict(spec.get("params", {}))}
    else:
        agent = as_agent(spec)
        kept: dict[str, Any] | None = getattr(agent, "_spec", None)
        if kept is not None:
            out = kept
        else:
            cls = type(agent)
            module = _FILES.get(cls.__module__, cls.__module__)
            if module == "__main__" or "<locals>" in cls.__qualname__:
                where = "__main__" if module == "__main__" else "a function"
                raise AgentLoadError(
                    f"agent {agent.name!r}: defined in {where}, so no worker or "
                    "resumed run can import it; put it in a module or file and "
                    "name it {agent = 'module:Class'}"
                )
            out = {"agent": f"{module}:{cls.__qualname__}", "params": dict(agent.params)}
    try:
        json.dumps(out["params"])
    except (TypeError, ValueError):
        raise AgentLoadError(
            f"agent {out['agent']!r}: params must be plain data (numbers, text, "
            f"lists, tables), not {out['params']!r}"
        ) from None
    return out if out["params"] else {"agent": out["agent"]}


def agent_name(spec: Any) -> str:
    """The name agent ``spec`` has in the tables' strategy columns."""
    return str(as_agent(spec).name)  # set by Agent.__init__


class Without(Agent):
    """``agent`` leaving the decisions ``dropped`` to ``base`` (a strategy object): the odds
    experiments set the call they measure themselves."""

    def __init__(self, agent: Agent, base: Any, dropped: tuple[str, ...], name: str) -> None:
        self.agent, self.base, self.name, self.params = agent, base, name, agent.params
        self._dropped = dropped

    @property
    def decisions(self) -> tuple[str, ...]:
        return tuple(d for d in self.agent.decisions if d not in self._dropped)

    @property
    def hears_outcome(self) -> bool:
        return self.agent.hears_outcome

    def decide(self, decision: str, view: View, legal: Any) -> Any:
        return self.agent.decide(decision, view, legal)

    def round_over(self, view: View, scores: tuple[int, ...]) -> None:
        self.agent.round_over(view, scores)


def load_agent(path: str) -> type[Agent]:
    """The Agent class at ``"package.module:Class"`` or ``"path/to/file.py:Class"``."""
    if not isinstance(path, str) or path.count(":") != 1:
        raise AgentLoadError(f"agent {path!r}: expected 'package.module:Class' or 'file.py:Class'")
    where, name = path.split(":")
    where = MOVED.get(where, where)
    try:
        if where.endswith(".py"):
            file = Path(where)
            if not file.is_file():
                raise FileNotFoundError(f"no file {where}")
            module_name = f"_tichusim_agent_{file.stem}"
            module = sys.modules.get(module_name)
            stamp = (str(file.resolve()), file.stat().st_mtime_ns)  # an edited file loads again
            if module is None or getattr(module, "_tichusim_stamp", None) != stamp:
                spec = importlib.util.spec_from_file_location(module_name, file.resolve())
                if spec is None or spec.loader is None:
                    raise ImportError(f"{where} is not a Python file")
                module = importlib.util.module_from_spec(spec)
                sys.modules[module_name] = module
                try:
                    spec.loader.exec_module(module)
                except BaseException:
                    del sys.modules[module_name]  # a fixed file loads again
                    raise
                module._tichusim_stamp = stamp  # type: ignore[attr-defined]
                _FILES[module_name] = where
        else:
            module = importlib.import_module(where)
        cls = getattr(module, name)
    except Exception as exc:  # noqa: BLE001 - whatever the import raised, in one line
        raise AgentLoadError(
            f"agent {path!r} cannot be imported: {type(exc).__name__}: {exc}"
        ) from None
    if not (inspect.isclass(cls) and issubclass(cls, Agent)):
        raise AgentLoadError(f"agent {path!r} is not a subclass of tichusim.Agent")
    return cls


def _param_text(value: Any) -> str | None:
    """A parameter's value as ``agent:...:Class:key=value`` writes it (``specs`` reads it
    back the same), ``None`` when it cannot be written so."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if not isinstance(value, str) or not value or " " in value:
        return None
    if "[" in value:  # a composed strategy's name: its commas inside brackets (``split_items``)
        try:
            return value if len(split_items(value)) == 1 else None
        except ValueError:
            return None
    if any(c in value for c in ",:="):
        return None
    if value.lower() in ("true", "false"):
        return None
    for kind in (int, float):
        try:
            kind(value)
            return None  # it would read back as a number
        except ValueError:
            pass
    return value


def _runnable(where_class: str) -> str:
    """``where:Class`` as a ``tichusim`` command started in this working directory finds it:
    a module that is one file of its own, not installed (found through a script's folder or
    the working directory, which the ``tichusim`` command does not search), becomes the path
    of that file, relative to the working directory when it lies under it."""
    where, _, name = where_class.partition(":")
    module = sys.modules.get(where)
    file = getattr(module, "__file__", None)
    if (
        where.endswith(".py")
        or "." in where
        or not file
        or hasattr(module, "__path__")  # a package
        or any(part in ("site-packages", "dist-packages") for part in Path(file).parts)
    ):
        return where_class
    path = os.path.relpath(file)
    return f"{path if not path.startswith('..') else file}:{name}"


def strategies_text(strategies: Any) -> str | None:
    """The command line's ``--strategies`` for ``strategies`` (names, and agents with any
    params as ``agent:...:Class:key=value,...``) that works from this working directory;
    ``None`` when one of them has no such text."""
    specs = strategies if isinstance(strategies, (list, tuple)) else [strategies]
    out = []
    for spec in specs:
        if is_agent(spec):
            try:
                spec = spec_of(spec)
            except AgentError:
                return None
            agent = _runnable(spec["agent"])
            if "," in agent or " " in agent:
                return None
            params = [(k, _param_text(v)) for k, v in spec.get("params", {}).items()]
            if any(v is None or not k.isidentifier() for k, v in params):
                return None
            out.append(
                PREFIX
                + agent
                + "".join(f"{',' if i else ':'}{k}={v}" for i, (k, v) in enumerate(params))
            )
        elif isinstance(spec, str) and " " not in spec and len(split_strategies(spec)) == 1:
            out.append(spec)  # reads back as one strategy in the list: ``split_strategies``
        else:
            return None
    return out[0] if len(set(out)) == 1 else ",".join(out)
