"""The games by name: ``game("nanjing")`` is the configured game every front end asks.

Names (``GAMES``): ``"nanjing"`` (RULES.md §2, 4 seats, the default), ``"tientsin"`` (§3,
6 seats), ``"wuwang"`` (§4, three players and the Minister) and ``"grand-seigneur"`` (§5,
5 to 12 players).

A game's module (and with it its kernels) is imported when the game is first asked for, so a
process playing Nanjing never loads Grand Seigneur's engine.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

from .base import Game

__all__ = ["DEFAULT_GAME", "GAMES", "TEAM_GAMES", "game", "game_type"]

# name -> (module, class); the class's ``name`` is the key (checked on import)
_HOMES = {
    "nanjing": ("team", "Nanjing"),
    "tientsin": ("team", "Tientsin"),
    "wuwang": ("team", "WuWang"),
    "grand-seigneur": ("seigneur", "SeigneurGame"),
}
GAMES = tuple(_HOMES)
TEAM_GAMES = tuple(name for name, home in _HOMES.items() if home[0] == "team")  # team engine
DEFAULT_GAME = "nanjing"


def game_type(name: str) -> type[Game]:
    """The class of the game ``name``: what a game is before it is configured (``Game``'s
    class attributes: ``takes_players``, ``team_game``, ``option_defaults``, ...)."""
    if not isinstance(name, str) or name not in _HOMES:
        raise ValueError(f"unknown variant {name!r} (available: {', '.join(GAMES)})")
    module, cls = _HOMES[name]
    if f"{__package__}.{module}" not in sys.modules:
        importlib.import_module(f".{module}", __package__)
    kind = getattr(sys.modules[f"{__package__}.{module}"], cls)
    assert kind.name == name, (kind.name, name)
    return kind


def game(name: str = DEFAULT_GAME, players: int | None = None, options: Any = None) -> Game:
    """The game ``name`` for ``players`` (Grand Seigneur's choice, 5..12; the team games have
    theirs) with ``options`` (a table, or None for the defaults) applied and checked."""
    return game_type(name)(players, options)
