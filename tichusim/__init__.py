"""tichusim: a fast Monte Carlo simulator for the card game Tichu.

Cards are ``uint64`` masks (layout in ``tichusim.cards``); combinations and legal plays come
from jitted kernels in ``tichusim.kernels``, reached through ``tichusim.cards.combos``. Which
table is played (RULES.md §2-§5) is a ``tichusim.games.game``.

Every public name loads on first use: ``import tichusim`` loads neither numba nor the kernels,
pandas or pydantic, so a process (a batch run's worker) holds only what it uses. Nor does
it change anything in the process: numba compiles, links and caches a user's own functions
as it would without tichusim (``docs/compile.md``).
"""

__version__ = "0.1.0"

_HOMES = {
    "Combo": "cards.combos",
    "beats": "cards.combos",
    "bombs": "cards.combos",
    "classify": "cards.combos",
    "legal_plays": "cards.combos",
    "readings": "cards.combos",
    "SimulationError": "games.errors",
    "simulate": "games.simulate",
    "simulate_games": "games.simulate",
    "run": "runs.runner",
    "resume": "runs.runner",
    "RunConfig": "runs.config",
    "load_config": "runs.config",
    "Round": "games.steps",
    "IllegalChoice": "games.steps",
    "IllegalAction": "games.steps",
    "Action": "games.record",
    "Deal": "games.record",
    "RoundRecord": "games.record",
    "GameRecord": "games.record",
    "score_round": "games.scoring",
    "read_game": "logs",
    "write_game": "logs",
    "import_games": "runs.imports",
    "Agent": "games.agents",
    "AgentError": "games.agents",
    "strategy": "games.scripted",
    "compile_notices": "_compile.notice",
}
_SUBPACKAGES = ("cards",)

__all__ = sorted([*_HOMES, *_SUBPACKAGES, "__version__"])


def __getattr__(name):
    import importlib

    if name in _SUBPACKAGES:
        return importlib.import_module(f".{name}", __name__)
    if name in _HOMES:
        return getattr(importlib.import_module(f".{_HOMES[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
