"""``simulate`` and ``simulate_games``: the Python entry points that notebooks and runners call.

They ask the registry for the game (``tichusim.games.game``), which validates, resolves
strategies and plays its batch kernels through the one driver, and return two pandas
DataFrames, ``rounds`` (one row per round) and ``seats`` (one per seat per round): the tables
a batch run writes as Parquet (``tichusim.games.arrow``; columns in docs/schema.md). Card
sets are ``uint64`` masks in the layout of ``tichusim.cards``.

Variants (``VARIANTS``): ``"nanjing"`` (RULES.md §2, 4 seats, the default), ``"tientsin"``
(§3, 6 seats, teams {0, 2, 4} and {1, 3, 5}), ``"wuwang"`` (§4, three players 0..2 and the
Minister, seat 3 in the tables; team 0 is the King's side that round, team 1 the two
opponents) and ``"grand-seigneur"`` (§5, 5 to 12 players, its own engine). A variant's
switches come as ``options`` (``Game.option_defaults``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .arrow import frames, frames_of
from .base import Records, whole_number
from .errors import SimulationError
from .registry import GAMES, game, game_type

if TYPE_CHECKING:  # pandas loads only when a table becomes a DataFrame
    import pandas as pd

__all__ = [
    "Records",
    "SimulationError",
    "VARIANTS",
    "frames",
    "records",
    "simulate",
    "simulate_games",
]

VARIANTS = GAMES


def records(
    variant: str = "nanjing",
    count: int = 0,
    *,
    games: bool = False,
    first: int = 0,
    seed: int = 0,
    strategies: Any = "random",
    players: int | None = None,
    options: Any = None,
    target: int = 1000,
    check: bool = False,
) -> Records:
    """The records of ``count`` independent rounds (``games=False``) or whole games of any
    variant, numbered from ``first``. What ``simulate``, ``simulate_games`` and a batch run's
    shards call."""
    return game(variant, players, options).records(
        count,
        games=games,
        first=first,
        seed=seed,
        strategies=strategies,
        target=target,
        check=check,
    )


def simulate(
    rounds: int,
    *,
    seed: int = 0,
    strategies: Any = "random",
    variant: str = "nanjing",
    first_round: int = 0,
    check: bool = False,
    options: dict | None = None,
    players: int | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play ``rounds`` independent rounds and return ``(rounds, seats)`` DataFrames.

    Round ``i`` is keyed ``first_round + i``: its deal and every decision derive from
    ``(seed, key)`` only, so any slice of a run can be replayed alone. Seat 0 draws first in
    every independent round (Wu Wang: the King is drawn at random each round, §4).
    ``strategies``: one, or one per player (4; Tientsin 6; Wu Wang 3, the King's also playing
    the Minister; Grand Seigneur ``players``). ``options``: the variant's switches
    (``Game.option_defaults``). ``check=True`` verifies RULES.md §7 after every action.
    ``variant="grand-seigneur"`` with ``players=5..12`` plays independent first rounds of §5
    (random seating, no exchange), round ``i`` keyed ``(first_round + i) * 65536``.
    """
    count = whole_number(rounds, "rounds")
    parts = game(variant, players, options).record_parts(
        count, first=first_round, seed=seed, strategies=strategies, check=check
    )
    return frames_of(parts, count)


def simulate_games(
    games: int,
    *,
    seed: int = 0,
    strategies: Any = "random",
    target: int | None = None,
    variant: str = "nanjing",
    first_game: int = 0,
    check: bool = False,
    options: dict | None = None,
    players: int | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play ``games`` whole games: to ``target`` points (default 1000, RULES.md §2.15, the
    same in Tientsin), or the ``game_rounds`` option's rounds in Wu Wang (§4: 9) and Grand
    Seigneur (default 10, each round's finishing order seating the next).

    Returns the same two tables with ``game`` and ``round_in_game`` columns, plus in
    ``rounds`` the running totals: ``total_team0``/``total_team1``, or in Wu Wang per player
    ``total_player0..2`` and ``total_minister`` and, on a game's last round, ``winner`` (the
    player with the highest total, 3 the Minister, -1 for a tie or before the last round).
    A team game not decided after ``MAX_GAME_ROUNDS`` rounds is cut there (``game_over`` is
    False on its last round).
    """
    if not game_type(variant).team_game and target is not None:
        raise ValueError(
            f"target: a {variant} game lasts a number of rounds (option "
            "game_rounds), not to a target score"
        )
    rec = records(
        variant,
        games,
        games=True,
        first=first_game,
        seed=seed,
        target=1000 if target is None else target,
        strategies=strategies,
        players=players,
        options=options,
        check=check,
    )
    return frames(rec)
