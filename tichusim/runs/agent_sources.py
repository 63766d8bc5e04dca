"""The source of the Python agents a run seats, as the manifest records it.

A scripted strategy is fully described by its name and parameters, which the config (and so
the run's hash) already holds, and its code by the package digest (``manifest.code_digest``).
A Python agent is named by ``module:Class`` or ``file.py:Class``, and that name says nothing
about the code behind it: edit the file and the same name plays differently. So the manifest
keeps, for each agent, the sha256 of its source file, and a run continues only with the same
bytes (or with a change the user accepted, which the manifest then records).

Why the file of the module that defines the agent's class, neither less nor more: the
class's own source would miss what it reads around it in that file (helper functions,
constants, a module-level table); a whole package would refuse a resume for edits to modules
the agent never touches, and a ``file.py`` agent has no package. The module file is what
``file.py:Class`` names and what a user edits, and ``sha256sum`` checks it by hand. Other
modules the agent imports (its own helpers, an agent base class in another file) are not
covered, and neither is what a Dask cluster's workers import on other machines.

The hash is of the file on disk: what a worker process or a resumed run imports.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

from ..games.agents import as_agent, is_agent, load_agent
from .files import sha256_file

__all__ = ["agent_sources", "failing_agents", "source_file"]


def source_file(agent: str) -> Path | None:
    """The source file of the module defining agent ``agent`` (``module:Class`` or
    ``file.py:Class``); ``None`` when its module has none (built in memory)."""
    module = sys.modules.get(load_agent(agent).__module__)
    try:
        path = inspect.getsourcefile(module) if module is not None else None
    except TypeError:  # a built-in module
        path = None
    return Path(path).resolve() if path and Path(path).is_file() else None


def _agent_specs(config) -> list[tuple[int, dict]]:
    specs = config.strategies if isinstance(config.strategies, list) else [config.strategies]
    return [(seat, spec) for seat, spec in enumerate(specs) if is_agent(spec)]


def agent_sources(config) -> list[dict]:
    """One entry per agent the run seats (an agent at several seats, whatever its params, is
    one entry): ``{"agent": "module:Class", "seats": [...], "source": path, "sha256": hex}``,
    in seat order. Empty when only scripted strategies play."""
    entries: dict[str, dict] = {}
    for seat, spec in _agent_specs(config):
        name = spec["agent"]
        if name not in entries:
            path = source_file(name)
            entries[name] = {
                "agent": name,
                "seats": [],
                "source": None if path is None else str(path),
                "sha256": None if path is None else sha256_file(path),
            }
        entries[name]["seats"].append(seat)
    return list(entries.values())


def failing_agents(config, message: str) -> list[str]:
    """The agents (``module:Class``) an ``AgentError`` message is about: it starts with
    ``agent 'NAME'``, the agent's name in the tables or its ``module:Class`` when it could
    not be loaded."""
    found = []
    for _, spec in _agent_specs(config):
        try:
            names = {spec["agent"], as_agent(spec).name}
        except Exception:  # noqa: BLE001 - an agent that cannot be built now is named by spec
            names = {spec["agent"]}
        if any(message.startswith(f"agent {n!r} ") for n in names) and spec["agent"] not in found:
            found.append(spec["agent"])
    return found
