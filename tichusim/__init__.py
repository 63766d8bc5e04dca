"""tichusim: a fast Monte Carlo simulator for the card game Tichu.

Cards are ``uint64`` masks (layout in ``tichusim.cards``); combinations and legal plays come
from jitted kernels in ``tichusim.kernels``, reached through ``tichusim.cards.combos``. Which
table is played (RULES.md §2-§5) is a ``tichusim.games.game``.
"""

from ._numba_cache import configure as _configure_cache

_configure_cache()  # before any kernel module compiles or loads

from . import cards  # noqa: E402
from .cards.combos import Combo, beats, classify, legal_plays, readings  # noqa: E402
from .games.errors import SimulationError  # noqa: E402
from .games.simulate import simulate, simulate_games  # noqa: E402

__version__ = "0.1.0"

__all__ = [
    "Combo", "RunConfig", "SimulationError", "beats", "cards", "classify", "legal_plays",
    "load_config", "readings", "resume", "run", "simulate", "simulate_games", "__version__",
]  # fmt: skip

_BATCH = {"run": "runs.runner", "resume": "runs.runner", "RunConfig": "runs.config",
          "load_config": "runs.config"}


def __getattr__(name):  # batch runs need pydantic: imported on first use, not with tichusim
    if name in _BATCH:
        import importlib

        return getattr(importlib.import_module(f".{_BATCH[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
