"""The games by name: ``game("nanjing")`` is the configured game every front end asks.

Names (``GAMES``): ``"nanjing"`` (RULES.md §2, 4 seats, the default), ``"tientsin"`` (§3,
6 seats), ``"wuwang"`` (§4, three players and the Minister) and ``"grand-seigneur"`` (§5,
5 to 12 players).
"""

from __future__ import annotations

from .base import Game
from .seigneur import SeigneurGame
from .team import Nanjing, Tientsin, WuWang

__all__ = ["DEFAULT_GAME", "GAMES", "game", "game_type"]

_TYPES: dict[str, type[Game]] = {g.name: g for g in (Nanjing, Tientsin, WuWang, SeigneurGame)}
GAMES = tuple(_TYPES)
DEFAULT_GAME = "nanjing"


def game_type(name: str) -> type[Game]:
    """The class of the game ``name``: what a game is before it is configured (``Game``'s
    class attributes: ``takes_players``, ``team_game``, ``option_defaults``, ...)."""
    if not isinstance(name, str) or name not in _TYPES:
        raise ValueError(f"unknown variant {name!r} (available: {', '.join(GAMES)})")
    return _TYPES[name]


def game(name: str = DEFAULT_GAME, players: int | None = None, options=None) -> Game:
    """The game ``name`` for ``players`` (Grand Seigneur's choice, 5..12; the team games have
    theirs) with ``options`` (a table, or None for the defaults) applied and checked."""
    return game_type(name)(players, options)
