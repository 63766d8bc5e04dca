"""The games: which game is played, by whom, with which options, and how its kernels' records
become the ``rounds`` and ``seats`` tables (``simulate``, ``simulate_games``, transcripts).

``game(name, players, options)`` is a configured ``Game`` (``base``): the team games of
RULES.md §2-§4 (``team``) or Grand Seigneur §5 (``seigneur``), imported when first asked for
(``registry``). Each plays through the one driver (``driver``), words its transcripts for the
one loop (``narrate``) and names its table columns, which ``arrow`` turns into Arrow.
"""

import warnings
from typing import Any

from .errors import SimulationError
from .registry import DEFAULT_GAME, GAMES, TEAM_GAMES, game, game_type

__all__ = ["DEFAULT_GAME", "GAMES", "TEAM_GAMES", "SimulationError", "game", "game_type"]


def __getattr__(name: str) -> Any:
    """``TEAM_TABLES``, the old name of ``TEAM_GAMES``, until the next release."""
    if name == "TEAM_TABLES":
        warnings.warn(
            "tichusim.games.TEAM_TABLES is now TEAM_GAMES; the old name goes in the next release",
            FutureWarning,
            stacklevel=2,
        )
        return TEAM_GAMES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
