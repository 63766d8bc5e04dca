"""``simulate`` and ``simulate_games``: the Python entry points that notebooks and runners call.

They validate, resolve strategies, allocate the record arrays, call the parallel kernels and
return two pandas DataFrames: ``rounds`` (one row per round) and ``seats`` (one per seat per
round). Card sets are ``uint64`` masks in the layout of ``tichusim.cards``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numba
import pandas as pd

from .kernels import batch
from .kernels.engine import ERRORS, N, ROUND, SEAT
from .strategies import Strategy, resolve

__all__ = [
    "Records", "SimulationError", "game_records", "round_records", "simulate", "simulate_games",
]  # fmt: skip

VARIANTS = ("nanjing",)


class SimulationError(RuntimeError):
    """A round broke an invariant of RULES.md §7 (only with ``check=True``) or a strategy
    answered outside its choices."""


def _count(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"{what} must be a non-negative whole number, not {value!r}")
    return int(value)


def _prepare(strategies, variant: str, seed):
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (available: {', '.join(VARIANTS)})")
    seed = _count(seed, "seed")
    if seed >= 2**64:
        raise ValueError("seed must be below 2**64")
    seats = resolve(strategies, N)
    params = np.stack([s.param_row() for s in seats])
    return seed, seats, params


def _chunks(n: int) -> int:
    return max(1, min(n, numba.get_num_threads() * 8))


def _raise_errors(rounds: np.ndarray, label: str = "round") -> None:
    bad = np.flatnonzero(rounds["error"])
    if bad.size:
        first = rounds[bad[0]]
        raise SimulationError(
            f"{bad.size} {label}(s) failed; first: {label} key {first['round']}: "
            f"{ERRORS[first['error']]}"
        )


def _frames(rounds: np.ndarray, seats: np.ndarray, strategies: list[Strategy]):
    r = pd.DataFrame(
        {
            "round": rounds["round"],
            "first_drawer": rounds["first_drawer"],
            "double_victory": rounds["double_victory"],
            "card_points_team0": rounds["card_points"][:, 0],
            "card_points_team1": rounds["card_points"][:, 1],
            "score_team0": rounds["score"][:, 0],
            "score_team1": rounds["score"][:, 1],
            "tricks": rounds["tricks"],
            "bombs": rounds["bombs"],
            "wish": rounds["wish"],
            "dragon_to": rounds["dragon_to"],
            "first_out": rounds["first_out"],
        }
    )
    n = len(rounds)
    flat = seats.reshape(n * N)
    seat = np.tile(np.arange(N), n)
    first_out = np.repeat(rounds["first_out"], N)
    called = flat["grand_tichu"] | flat["tichu"]
    s = pd.DataFrame(
        {
            "round": np.repeat(rounds["round"], N),
            "seat": seat,
            "team": seat % 2,
            "strategy": pd.Categorical([strategies[i].name for i in seat]),
            "hand8": flat["hand8"],
            "hand14": flat["hand14"],
            "hand_passed": flat["hand_passed"],
            "given_left": flat["given"][:, 0],
            "given_partner": flat["given"][:, 1],
            "given_right": flat["given"][:, 2],
            "received_left": flat["received"][:, 0],
            "received_partner": flat["received"][:, 1],
            "received_right": flat["received"][:, 2],
            "grand_tichu": flat["grand_tichu"],
            "tichu": flat["tichu"],
            "call_success": pd.arrays.BooleanArray(first_out == seat, ~called),
            "finish": flat["finish"],
            "card_points": flat["card_points"],
            "points": flat["points"],
        }
    )
    return r, s


class Records(NamedTuple):
    """Raw results of a batch: ``ROUND`` records, ``(n, 4)`` ``SEAT`` records, the seats'
    strategies and, for games, each row's game id and round within the game (game-major)."""

    rounds: np.ndarray
    seats: np.ndarray
    strategies: list[Strategy]
    game: np.ndarray | None = None
    round_in_game: np.ndarray | None = None


def round_records(rounds: int, *, seed: int = 0, strategies="random", variant: str = "nanjing",
                  first_round: int = 0, check: bool = False) -> Records:
    """The records behind ``simulate`` (no DataFrames: what batch runners encode directly)."""
    rounds = _count(rounds, "rounds")
    first_round = _count(first_round, "first_round")
    seed, seats, params = _prepare(strategies, variant, seed)
    keys = np.arange(first_round, first_round + rounds, dtype=np.int64)
    drawers = np.zeros(rounds, np.int64)
    r_out = np.zeros(rounds, ROUND)
    s_out = np.zeros((rounds, N), SEAT)
    if rounds:
        batch.play_rounds(seed, keys, drawers, params, r_out, s_out, check, _chunks(rounds))
    _raise_errors(r_out)
    return Records(r_out, s_out, seats)


def game_records(games: int, *, seed: int = 0, strategies="random", target: int = 1000,
                 variant: str = "nanjing", first_game: int = 0, check: bool = False) -> Records:
    """The records behind ``simulate_games``: every round of games ``first_game ..``, game by
    game. Games are played 128 at a time, which bounds the scratch arrays."""
    games = _count(games, "games")
    first_game = _count(first_game, "first_game")
    target = _count(target, "target")
    seed, seats, params = _prepare(strategies, variant, seed)
    parts = []
    step = 128
    for start in range(0, games, step):
        ids = np.arange(first_game + start, first_game + min(games, start + step), dtype=np.int64)
        g = len(ids)
        r_out = np.zeros((g, batch.MAX_GAME_ROUNDS), ROUND)
        s_out = np.zeros((g, batch.MAX_GAME_ROUNDS, N), SEAT)
        n_rounds = np.zeros(g, np.int64)
        batch.play_games(seed, ids, target, params, r_out, s_out, n_rounds, check, _chunks(g))
        played = np.arange(batch.MAX_GAME_ROUNDS) < n_rounds[:, None]
        parts.append((r_out[played], s_out[played], np.repeat(ids, n_rounds),
                      np.nonzero(played)[1]))  # fmt: skip
    if not parts:
        return Records(np.zeros(0, ROUND), np.zeros((0, N), SEAT), seats,
                       np.zeros(0, np.int64), np.zeros(0, np.int64))  # fmt: skip
    r_out, s_out, game, in_game = (np.concatenate(p) for p in zip(*parts))
    _raise_errors(r_out)
    return Records(r_out, s_out, seats, game, in_game)


def simulate(
    rounds: int,
    *,
    seed: int = 0,
    strategies: str | Strategy | list = "random",
    variant: str = "nanjing",
    first_round: int = 0,
    check: bool = False,
    players: int | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play ``rounds`` independent rounds and return ``(rounds, seats)`` DataFrames.

    Round ``i`` is keyed ``first_round + i``: its deal and every decision derive from
    ``(seed, key)`` only, so any slice of a run can be replayed alone. Seat 0 draws first in
    every independent round. ``check=True`` verifies RULES.md §7 after every action.
    ``variant="grand-seigneur"`` with ``players=5..12`` plays independent first rounds of RULES.md
    §5 and returns its own tables (``tichusim.seigneur.simulate_seigneur``).
    """
    if variant == "grand-seigneur":
        from .seigneur import simulate_seigneur

        return simulate_seigneur(rounds, players=players, seed=seed, strategies=strategies,
                                 first_game=first_round, check=check)  # fmt: skip
    rec = round_records(rounds, seed=seed, strategies=strategies, variant=variant,
                        first_round=first_round, check=check)  # fmt: skip
    return _frames(rec.rounds, rec.seats, rec.strategies)


def simulate_games(
    games: int,
    *,
    seed: int = 0,
    strategies: str | Strategy | list = "random",
    target: int = 1000,
    variant: str = "nanjing",
    first_game: int = 0,
    check: bool = False,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play ``games`` whole games to ``target`` points (RULES.md §2.15).

    Returns the same two tables with ``game`` and ``round_in_game`` columns, plus in
    ``rounds`` the running totals ``total_team0``/``total_team1``. A game not decided after
    ``MAX_GAME_ROUNDS`` rounds is cut there (``game_over`` is False on its last round).
    """
    rec = game_records(games, seed=seed, strategies=strategies, target=target, variant=variant,
                       first_game=first_game, check=check)  # fmt: skip
    r, s = _frames(rec.rounds, rec.seats, rec.strategies)
    r.insert(0, "game", rec.game)
    r.insert(1, "round_in_game", rec.round_in_game)
    totals = r.groupby("game", sort=False)[["score_team0", "score_team1"]].cumsum()
    r["total_team0"] = totals["score_team0"]
    r["total_team1"] = totals["score_team1"]
    last = np.r_[rec.game[1:] != rec.game[:-1], True] if len(r) else np.zeros(0, bool)
    t0, t1 = r["total_team0"].to_numpy(), r["total_team1"].to_numpy()
    r["game_over"] = last & (np.maximum(t0, t1) >= target) & (t0 != t1)
    s.insert(0, "game", np.repeat(rec.game, N))
    s.insert(1, "round_in_game", np.repeat(rec.round_in_game, N))
    return r, s
