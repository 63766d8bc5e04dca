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

from .._compile.cache import cached
from ..progress import Compiling
from .base import Game

__all__ = [
    "DEFAULT_GAME",
    "FAMILIES",
    "GAMES",
    "TEAM_TABLES",
    "compiling",
    "game",
    "game_type",
    "notice",
]


class Family(NamedTuple):
    """The kernels one engine compiles: what to call them, an estimate of the seconds a cold
    compile takes on two cores, and the cache entries each use needs ("kernels/...py:function",
    ``_compile.cache.cached``). A family that reuses kernels another one caches (``reuses``)
    compiles in an estimated ``seconds_after`` once that one is cached. ``shares``: the entries
    of the kernels a family compiles for others to reuse (the strategies'), in the cache an
    estimated ``shares_after`` seconds into its cold compile.

    The estimates are weights, not promises: the compile notice says them ("about N s") and
    ``warmup`` orders its schedule by them; their proportions matter more than their size.
    ``tichusim warmup`` prints each family's real time on the machine at hand."""

    title: str
    seconds: int
    entries: dict[str, tuple[str, ...]]
    reuses: str | None = None
    seconds_after: int = 0
    shares: tuple[str, ...] = ()
    shares_after: int = 0

    def cold_seconds(self) -> int:
        """About how long this family's cold compile takes with the cache as it is now."""
        if self.reuses and all(cached(*use) for use in FAMILIES[self.reuses].entries.values()):
            return self.seconds_after
        return self.seconds


_TEAM = "kernels/tichu/batch.py"
_GS = "kernels/seigneur/batch.py"


def _team(table: str, title: str, seconds: int, **more) -> Family:
    """A team table's engine: its own entry point (``batch.BATCH``) for every use but rounds
    stepped from Python (``batch.STEP``)."""
    entry = (f"{_TEAM}:play_batch_{table}",)
    return Family(
        title,
        seconds,
        {
            "rounds": entry,
            "games": entry,
            "transcript": entry,
            "steps": (f"{_TEAM}:step_batch_{table}",),
        },
        **more,
    )


FAMILIES = {
    "cards": Family(
        "the card-combination kernels (the rules core every game shares)",
        9,
        {"import": ("kernels/moves.py:candidate_moves", "kernels/combos.py:classify")},
    ),
    # the strategies' kernels, compiled by the first team table, are cached for the others
    # (the policies its engine calls, most of its compile; its engine's own functions compile
    # last, so the policies are in the cache about two thirds into it: shares_after)
    "nanjing": _team(
        "nanjing",
        "the 4-player game's engine (Nanjing)",
        21,
        shares=tuple(
            f"kernels/tichu/policies.py:{policy}"
            for policy in (
                "grand_tichu",
                "passes",
                "tichu",
                "play",
                "wish",
                "dog_target",
                "dragon",
                "bomb",
                "led_phoenix",
                "value_led_phoenix",
                "binding_wish",
            )
        ),
        shares_after=14,
    ),
    "tientsin": _team(
        "tientsin", "Tientsin's engine (6 players)", 40, reuses="nanjing", seconds_after=11
    ),
    "wuwang": _team(
        "wuwang",
        "Wu Wang's engine (3 players and the Minister)",
        40,
        reuses="nanjing",
        seconds_after=11,
    ),
    "seigneur": Family(
        "Grand Seigneur's engine",
        24,
        {
            "rounds": (f"{_GS}:_play_games",),
            "games": (f"{_GS}:_play_games",),
            "transcript": (f"{_GS}:_play_games",),
            "steps": (f"{_GS}:_step_games",),
        },
    ),
    # rounds stepped from Python: the engines compiled with the branches that read
    # decisions from Python (Nanjing's and Grand Seigneur's here; the other tables' at first
    # use), and strategy(name).decide, the policies without an engine
    "stepping": Family(
        "the engines that take decisions from Python (Round, Agent) and strategy(...).decide",
        40,
        {
            "team": ("kernels/tichu/decide.py:decide",),
            "grand-seigneur": ("kernels/seigneur/decide.py:decide",),
            "engines": (f"{_TEAM}:step_batch_nanjing", f"{_GS}:_step_games"),
        },
        reuses="nanjing",
        seconds_after=15,
    ),
    # the search's rollouts (the search strategy, advise): Nanjing's here, the other tables'
    # at first use
    "search": Family(
        "the search's rollout kernels (search, advise)",
        30,
        {"nanjing": ("kernels/tichu/rollout.py:evaluate_nanjing",)},
        reuses="nanjing",
        seconds_after=15,
    ),
    "analysis": Family(
        "the analyses' kernels (gt-odds, compare, gt-table)",
        2,
        {"answers": (f"{_TEAM}:play_batch_nanjing", "kernels/tichu/handfeatures.py:hand_features")},
    ),
}
# name -> (module, class, kernel family); the class's ``name`` is the key (checked on import)
_HOMES = {
    "nanjing": ("team", "Nanjing", "nanjing"),
    "tientsin": ("team", "Tientsin", "tientsin"),
    "wuwang": ("team", "WuWang", "wuwang"),
    "grand-seigneur": ("seigneur", "SeigneurGame", "seigneur"),
}
GAMES = tuple(_HOMES)
TEAM_TABLES = tuple(name for name, home in _HOMES.items() if home[0] == "team")  # team engine
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


def compiling(
    name: str, use: str = "rounds", *, enabled: bool = True, strategies=None
) -> Compiling:
    """A context that says on stderr that the kernels of game ``name`` for ``use`` ("rounds",
    "games", "transcript", "steps") compile in it, when the cache does not hold them yet; with
    an Agent among ``strategies`` the stepping engine is what compiles. Validate the input
    before it (``game``, ``resolve``), and make the first kernel call inside it."""
    from ..strategies.agents import is_agent

    game_type(name)
    listed = strategies if isinstance(strategies, (list, tuple)) else [strategies]
    if any(is_agent(s) for s in listed):
        use = "steps"
    return notice(_HOMES[name][2], use, enabled=enabled)


def notice(family: str, use: str, *, enabled: bool = True) -> Compiling:
    """``compiling`` for a family of ``FAMILIES`` and one of its uses."""
    kernels = FAMILIES[family]
    return Compiling(
        kernels.title,
        kernels.cold_seconds(),
        cold=not cached(*kernels.entries[use]),
        enabled=enabled,
    )
