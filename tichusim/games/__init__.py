"""The games: which table is played, by whom, with which options, and how its kernels' records
become the ``rounds`` and ``seats`` tables (``simulate``, ``simulate_games``, transcripts).

``game(name, players, options)`` is a configured ``Game`` (``base``): the team games of
RULES.md §2-§4 (``team``) or Grand Seigneur §5 (``seigneur``), imported when first asked for
(``registry``). Each plays through the one driver (``driver``), words its transcripts for the
one loop (``narrate``) and names its table columns, which ``arrow`` turns into Arrow.
"""

from .errors import SimulationError
from .registry import DEFAULT_GAME, GAMES, TEAM_TABLES, game, game_type

__all__ = ["DEFAULT_GAME", "GAMES", "TEAM_TABLES", "SimulationError", "game", "game_type"]
