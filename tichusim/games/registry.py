"""The games by name: ``game("nanjing")`` is the configured game every front end asks.

Names (``GAMES``): ``"nanjing"`` (RULES.md §2, 4 seats, the default), ``"tientsin"`` (§3,
6 seats), ``"wuwang"`` (§4, three players and the Minister) and ``"grand-seigneur"`` (§5,
5 to 12 players).

A game's module (and with it its kernels) is imported when the game is first asked for, so a
process playing Nanjing never loads Grand Seigneur's engine; ``compiling`` says on stderr when
a game's kernels are about to compile (a cold numba cache).
"""

from __future__ import annotations

import importlib
import sys
from typing import NamedTuple

from .._numba_cache import cached
from ..progress import Compiling
from .base import Game

__all__ = ["DEFAULT_GAME", "FAMILIES", "GAMES", "TEAM_TABLES", "compiling", "game", "game_type",
           "notice"]


class Family(NamedTuple):
    """The kernels one engine compiles: what to call them, about how long a cold compile
    takes on this 2-core machine (``tichusim warmup`` prints the real figure), and the
    cache entries each use needs ("kernels/...py:function", ``_numba_cache.cached``)."""

    title: str
    seconds: int
    entries: dict[str, tuple[str, ...]]


_TEAM = "kernels/tichu/batch.py"
_GS = "kernels/seigneur/batch.py"
FAMILIES = {
    "cards": Family("the card-combination kernels (the rules core every game shares)", 15,
                    {"import": ("kernels/moves.py:candidate_moves", "kernels/combos.py:classify")}),
    "tichu": Family("the team games' engine (nanjing, tientsin, wuwang)", 145,
                    {"rounds": (f"{_TEAM}:play_batch",), "games": (f"{_TEAM}:play_batch",),
                     "transcript": (f"{_TEAM}:play_batch",)}),
    "seigneur": Family("Grand Seigneur's engine", 40,
                       {"rounds": (f"{_GS}:_play_games",), "games": (f"{_GS}:_play_games",),
                        "transcript": (f"{_GS}:_play_games",)}),
    "analysis": Family("the analyses' kernels (gt-odds, compare, gt-table)", 2,
                       {"answers": (f"{_TEAM}:play_batch", "kernels/moves.py:has_bomb_each",
                                    "kernels/tichu/handfeatures.py:hand_features")}),
}  # fmt: skip
# name -> (module, class, kernel family); the class's ``name`` is the key (checked on import)
_HOMES = {"nanjing": ("team", "Nanjing", "tichu"), "tientsin": ("team", "Tientsin", "tichu"),
          "wuwang": ("team", "WuWang", "tichu"),
          "grand-seigneur": ("seigneur", "SeigneurGame", "seigneur")}  # fmt: skip
GAMES = tuple(_HOMES)
TEAM_TABLES = tuple(name for name, home in _HOMES.items() if home[2] == "tichu")  # team engine
DEFAULT_GAME = "nanjing"


def game_type(name: str) -> type[Game]:
    """The class of the game ``name``: what a game is before it is configured (``Game``'s
    class attributes: ``takes_players``, ``team_game``, ``option_defaults``, ...)."""
    if not isinstance(name, str) or name not in _HOMES:
        raise ValueError(f"unknown variant {name!r} (available: {', '.join(GAMES)})")
    module, cls, _ = _HOMES[name]
    if f"{__package__}.{module}" not in sys.modules:  # its kernels' import compiles the core
        with notice("cards", "import"):
            importlib.import_module(f".{module}", __package__)
    kind = getattr(sys.modules[f"{__package__}.{module}"], cls)
    assert kind.name == name, (kind.name, name)
    return kind


def game(name: str = DEFAULT_GAME, players: int | None = None, options=None) -> Game:
    """The game ``name`` for ``players`` (Grand Seigneur's choice, 5..12; the team games have
    theirs) with ``options`` (a table, or None for the defaults) applied and checked."""
    return game_type(name)(players, options)


def compiling(name: str, use: str = "rounds", *, enabled: bool = True) -> Compiling:
    """A context that says on stderr that the kernels of game ``name`` for ``use`` ("rounds",
    "games", "transcript") compile in it, when the cache does not hold them yet. Validate the
    input before it (``game``, ``resolve``), and make the first kernel call inside it."""
    game_type(name)
    return notice(_HOMES[name][2], use, enabled=enabled)


def notice(family: str, use: str, *, enabled: bool = True) -> Compiling:
    """``compiling`` for a family of ``FAMILIES`` and one of its uses."""
    kernels = FAMILIES[family]
    return Compiling(kernels.title, kernels.seconds, cold=not cached(*kernels.entries[use]),
                     enabled=enabled)  # fmt: skip
