"""``simulate`` and ``simulate_games``: the Python entry points that notebooks and runners call.

They validate, resolve strategies, allocate the record arrays, call the parallel kernels and
return two pandas DataFrames: ``rounds`` (one row per round) and ``seats`` (one per seat per
round). Card sets are ``uint64`` masks in the layout of ``tichusim.cards``.
"""

from __future__ import annotations

import numpy as np
import numba
import pandas as pd

from .kernels import batch
from .kernels.engine import ERRORS, N, ROUND, SEAT
from .strategies import Strategy, resolve

__all__ = ["SimulationError", "simulate", "simulate_games"]

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


def simulate(
    rounds: int,
    *,
    seed: int = 0,
    strategies: str | Strategy | list = "random",
    variant: str = "nanjing",
    first_round: int = 0,
    check: bool = False,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play ``rounds`` independent rounds and return ``(rounds, seats)`` DataFrames.

    Round ``i`` is keyed ``first_round + i``: its deal and every decision derive from
    ``(seed, key)`` only, so any slice of a run can be replayed alone. Seat 0 draws first in
    every independent round. ``check=True`` verifies RULES.md §7 after every action.
    """
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
    return _frames(r_out, s_out, seats)


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
    games = _count(games, "games")
    first_game = _count(first_game, "first_game")
    target = _count(target, "target")
    seed, seats, params = _prepare(strategies, variant, seed)
    r_parts, s_parts = [], []
    step = 128
    for start in range(0, games, step):
        ids = np.arange(first_game + start, first_game + min(games, start + step), dtype=np.int64)
        g = len(ids)
        r_out = np.zeros((g, batch.MAX_GAME_ROUNDS), ROUND)
        s_out = np.zeros((g, batch.MAX_GAME_ROUNDS, N), SEAT)
        n_rounds = np.zeros(g, np.int64)
        batch.play_games(seed, ids, target, params, r_out, s_out, n_rounds, check, _chunks(g))
        for i in range(g):
            rr = r_out[i, : n_rounds[i]]
            _raise_errors(rr)
            r_df, s_df = _frames(rr, s_out[i, : n_rounds[i]], seats)
            r_df.insert(0, "game", ids[i])
            r_df.insert(1, "round_in_game", np.arange(n_rounds[i]))
            r_df["total_team0"] = r_df["score_team0"].cumsum()
            r_df["total_team1"] = r_df["score_team1"].cumsum()
            t0, t1 = r_df["total_team0"].iloc[-1], r_df["total_team1"].iloc[-1]
            r_df["game_over"] = False
            r_df.loc[r_df.index[-1], "game_over"] = bool(max(t0, t1) >= target and t0 != t1)
            s_df.insert(0, "game", ids[i])
            s_df.insert(1, "round_in_game", np.repeat(np.arange(n_rounds[i]), N))
            r_parts.append(r_df)
            s_parts.append(s_df)
    if not r_parts:
        return _frames(np.zeros(0, ROUND), np.zeros((0, N), SEAT), seats)
    return pd.concat(r_parts, ignore_index=True), pd.concat(s_parts, ignore_index=True)
