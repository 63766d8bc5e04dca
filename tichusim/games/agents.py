"""Strategies written in Python (``Agent``), and any scripted strategy asked for one decision
(``strategy(name).decide``), issue 15.

An ``Agent`` subclass defines a method for each decision it takes; the engine leaves exactly
those to it (``kernels/outside.py``) and plays every other decision with the named ``base``
strategy's policies, at full speed. Each method gets the seat's ``View`` (RULES.md §6: the
table's public record and the seat's own) and the decision's legal choices
(``team_steps``/``seigneur_steps`` list their forms) and returns one of them::

    class DogToTheLeft(tichusim.Agent):
        base = "expert"
        def pass_cards(self, view, legal):      # the passing: one card per receiver
            ...
            return choice                       # a tuple from ``legal``

Methods: ``grand_tichu``, ``tichu``, ``pass_cards``, ``play``, ``bomb``, ``wish``, ``dragon``,
``dog`` (the team games); ``give_back``, ``play``, ``bomb``, ``wish`` (Grand Seigneur). An
agent's own randomness comes from ``view.random``, a NumPy generator seeded by (seed, round
key, player), so a run stays reproducible. In a config or a strategy table an agent is
``{agent = "package.module:Class", params = {...}}`` (``params`` go to its constructor); a
file path works for the module (``"examples/dog_passer.py:DogPasser"``).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from pathlib import Path

__all__ = ["Agent", "AgentError", "Scripted", "as_agent", "is_agent", "load_agent", "strategy"]

# decision name (steps.DECISIONS) -> the Agent method that takes it
METHODS = {"grand_tichu": "grand_tichu", "tichu": "tichu", "pass": "pass_cards", "play": "play",
           "bomb": "bomb", "wish": "wish", "dragon": "dragon", "dog": "dog",
           "give_back": "give_back"}  # fmt: skip


class AgentError(RuntimeError):
    """An agent that cannot be loaded, raised, or answered outside the legal choices: one line
    naming the agent, the decision and the round."""


class Agent:
    """A strategy written in Python: define the decision methods it takes (``METHODS``), the
    others come from ``base``. ``name`` (default: the class name) appears in the tables;
    ``params`` are the keyword arguments it was built with."""

    base: str = "heuristic"
    name: str | None = None

    def __init__(self, **params):
        self.params = params
        if self.name is None:
            self.name = type(self).__name__

    @property
    def decisions(self) -> tuple[str, ...]:
        """The decisions this agent takes itself: those whose method its class defines."""
        return tuple(d for d, m in METHODS.items() if getattr(type(self), m) is not getattr(
            Agent, m, None))  # fmt: skip

    def decide(self, decision: str, view, legal):
        """The answer of the method taking ``decision``."""
        return getattr(self, METHODS[decision])(view, legal)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.params.items())})"


# the decision methods of the base class exist only to be overridden (``decisions`` reads them)
for _method in set(METHODS.values()):
    setattr(Agent, _method, None)


def is_agent(spec) -> bool:
    """Whether ``spec`` names a Python strategy: an Agent, an Agent class, or a table with an
    ``agent`` key."""
    return (isinstance(spec, Agent) or (inspect.isclass(spec) and issubclass(spec, Agent))
            or (isinstance(spec, dict) and "agent" in spec))  # fmt: skip


def as_agent(spec) -> Agent:
    """The Agent ``spec`` stands for (``is_agent``); ``AgentError`` when it cannot be built."""
    if isinstance(spec, Agent):
        return spec
    if inspect.isclass(spec):
        return spec()
    unknown = set(spec) - {"agent", "params"}
    if unknown:
        raise AgentError(f"agent {spec['agent']!r}: unknown key(s) {', '.join(sorted(unknown))} "
                         "(an agent table takes agent and params)")  # fmt: skip
    cls = load_agent(spec["agent"])
    params = spec.get("params", {})
    if not isinstance(params, dict):
        raise AgentError(f"agent {spec['agent']!r}: params must be a table, not {params!r}")
    try:
        return cls(**params)
    except Exception as exc:  # noqa: BLE001 - the user's constructor
        raise AgentError(f"agent {spec['agent']!r}: cannot be built with params {params}: "
                         f"{type(exc).__name__}: {exc}") from exc


def load_agent(path: str) -> type[Agent]:
    """The Agent class at ``"package.module:Class"`` or ``"path/to/file.py:Class"``."""
    if not isinstance(path, str) or path.count(":") != 1:
        raise AgentError(f"agent {path!r}: expected 'package.module:Class' or 'file.py:Class'")
    where, name = path.split(":")
    try:
        if where.endswith(".py"):
            file = Path(where)
            if not file.is_file():
                raise FileNotFoundError(f"no file {where}")
            module_name = f"_tichusim_agent_{file.stem}"
            module = sys.modules.get(module_name)
            if module is None or getattr(module, "__file__", None) != str(file.resolve()):
                spec = importlib.util.spec_from_file_location(module_name, file.resolve())
                module = importlib.util.module_from_spec(spec)
                sys.modules[module_name] = module
                spec.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
        cls = getattr(module, name)
    except Exception as exc:  # noqa: BLE001 - whatever the import raised, in one line
        raise AgentError(f"agent {path!r} cannot be imported: {type(exc).__name__}: {exc}") from None
    if not (inspect.isclass(cls) and issubclass(cls, Agent)):
        raise AgentError(f"agent {path!r} is not a subclass of tichusim.Agent")
    return cls


class Scripted:
    """A scripted strategy (a name, a table or a strategy object) asked for one decision."""

    def __init__(self, spec):
        self.spec = spec

    def decide(self, view, legal):
        """The choice the engine would make with this strategy at ``view``'s decision, among
        ``legal``; the view's random stream moves on exactly as the engine's would."""
        from .registry import notice

        game = view.game
        row = game.param_rows(game.resolve(self.spec, 1))[0]
        with notice("stepping", game.steps.decide_use):
            return game.steps.decide(game, row, view, legal)

    def __repr__(self) -> str:
        return f"strategy({self.spec!r})"


def strategy(spec) -> Scripted:
    """``strategy("heuristic").decide(view, legal)``: the engine's choice for that strategy."""
    return Scripted(spec)
