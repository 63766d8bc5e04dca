"""``simulate`` and ``simulate_games``: the Python entry points that notebooks and runners call.

They validate, resolve strategies, allocate the record arrays, call the parallel kernels and
return two pandas DataFrames: ``rounds`` (one row per round) and ``seats`` (one per seat per
round). Card sets are ``uint64`` masks in the layout of ``tichusim.cards``.

Variants (``VARIANTS``): ``"nanjing"`` (RULES.md §2, 4 seats, the default), ``"tientsin"``
(§3, 6 seats, teams {0, 2, 4} and {1, 3, 5}) and ``"wuwang"`` (§4, three players 0..2 and the
Minister, seat 3 in the tables; team 0 is the King's side that round, team 1 the two
opponents). A variant's rules switches come as ``options`` (``Variant.options``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import numba
import pandas as pd

from .kernels import batch
from .kernels import variants as V
from .kernels.engine import ERRORS, ROUND, SEAT
from .strategies import Strategy, resolve

__all__ = [
    "Records", "SimulationError", "VARIANTS", "Variant", "game_records", "round_records",
    "simulate", "simulate_games", "variant_info",
]  # fmt: skip


@dataclass(frozen=True)
class Variant:
    """A table the engine plays: its kernel id, how many players bring a strategy, how many
    rows each round has in the seats table, and its options (name -> default)."""

    name: str
    code: int
    players: int
    seats: int
    options: dict = field(default_factory=dict)
    rules: str = ""


_VARIANTS = {
    "nanjing": Variant("nanjing", V.NANJING, 4, 4, rules="RULES.md §2"),
    "tientsin": Variant("tientsin", V.TIENTSIN, 6, 6, rules="RULES.md §3"),
    # game_rounds: a game's length (§4: 9, or another multiple of 3); rotating_king: the Option
    # of §4, the King role passing to the next player each round instead of the first out
    "wuwang": Variant("wuwang", V.WUWANG, 3, 4, {"rotating_king": False, "game_rounds": 9},
                      rules="RULES.md §4"),
}  # fmt: skip
VARIANTS = tuple(_VARIANTS)


def variant_info(variant: str) -> Variant:
    if not isinstance(variant, str) or variant not in _VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (available: {', '.join(VARIANTS)})")
    return _VARIANTS[variant]


def variant_options(variant: str, options) -> dict:
    """The variant's options with ``options`` (a mapping, or None) applied and checked."""
    info = variant_info(variant)
    values = dict(info.options)
    if options is None:
        return values
    if not isinstance(options, dict):
        raise ValueError(f"options: expected a table of name = value, got {options!r}")
    for key, value in options.items():
        if key not in info.options:
            known = ", ".join(info.options) or "none"
            raise ValueError(f"{variant} option {key!r}: unknown (known: {known})")
        if key == "rotating_king" and not isinstance(value, bool):
            raise ValueError(f"{variant} option rotating_king: expected true or false, got {value!r}")
        if key == "game_rounds" and (isinstance(value, bool) or not isinstance(value, int)
                                     or value <= 0 or value % 3):  # fmt: skip
            raise ValueError(f"{variant} option game_rounds: expected a positive multiple of 3 "
                             f"(RULES.md §4), got {value!r}")  # fmt: skip
        values[key] = value
    return values


class SimulationError(RuntimeError):
    """A round broke an invariant of RULES.md §7 (only with ``check=True``) or a strategy
    answered outside its choices."""


def _count(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"{what} must be a non-negative whole number, not {value!r}")
    return int(value)


def _prepare(strategies, variant: str, seed):
    """``(seed, strategies, params)``: one strategy and one parameter row per player."""
    info = variant_info(variant)
    seed = _count(seed, "seed")
    if seed >= 2**64:
        raise ValueError("seed must be below 2**64")
    seats = resolve(strategies, info.players, variant=variant)
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


# Wu Wang: the position (0 King, 1, 2 Minister, 3) of each player 0..2 and the Minister (3),
# by King, and the player at each position; the engine plays positions (kernels/variants.py)
_WW_PLAYER = np.array([[V.wuwang_player(k, pos) for pos in range(4)] for k in range(3)])
_WW_POSITION = np.argsort(_WW_PLAYER, axis=1)


def _wuwang_players(rounds: np.ndarray, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Wu Wang records from positions to players: seat rows ordered players 0, 1, 2, then the
    Minister; ``first_drawer`` (the King), ``first_out`` and ``dragon_to`` as players."""
    king = rounds["king"]
    rounds = rounds.copy()
    rounds["first_drawer"] = king
    rounds["first_out"] = _WW_PLAYER[king, rounds["first_out"]]
    given = rounds["dragon_to"] >= 0
    rounds["dragon_to"][given] = _WW_PLAYER[king[given], rounds["dragon_to"][given]]
    seats = np.take_along_axis(seats, _WW_POSITION[king], axis=1)
    return rounds, seats


def _seat_numbers(info: Variant, rounds: np.ndarray):
    """Per seat row: the seat number and its team (Wu Wang: 0 the King's side, 1 opponents)."""
    n = len(rounds)
    seat = np.tile(np.arange(info.seats), n)
    if info.code != V.WUWANG:
        return seat, seat % 2
    king = np.repeat(rounds["king"], info.seats)
    return seat, np.where((seat == king) | (seat == 3), 0, 1)


def _frames(rounds: np.ndarray, seats: np.ndarray, strategies: list[Strategy],
            variant: str = "nanjing"):  # fmt: skip
    info = variant_info(variant)
    n = len(rounds)
    k = info.seats
    cat = pd.Categorical([variant] * n, categories=VARIANTS)
    victory = "triple_victory" if info.code == V.TIENTSIN else "double_victory"
    r = pd.DataFrame(
        {
            "variant": cat,
            "round": rounds["round"],
            "first_drawer": rounds["first_drawer"],
            victory: rounds["double_victory"],
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
    flat = seats.reshape(n * k)
    seat, team = _seat_numbers(info, rounds)
    first_out = np.repeat(rounds["first_out"], k)
    called = flat["grand_tichu"] | flat["tichu"]
    if info.code == V.WUWANG:
        # §4: per player scores; the Minister's column is the King's side's total
        r.insert(2, "king", rounds["king"])
        score = rounds["score"][np.arange(n)[:, None], team.reshape(n, k)]
        for j, name in enumerate(("score_player0", "score_player1", "score_player2",
                                  "score_minister")):  # fmt: skip
            r[name] = score[:, j]
        king = np.repeat(rounds["king"], k)
        role = np.where(seat == 3, "minister", np.where(seat == king, "king", "opponent"))
        names = [strategies[int(q)].name for q in np.where(seat == 3, king, seat)]
        sides = ("left", "partner", "right")
    else:
        role = None
        names = [strategies[i].name for i in seat]
        sides = ("left", "partner", "right") if info.code == V.NANJING else None
    columns = {
        "variant": pd.Categorical([variant] * (n * k), categories=VARIANTS),
        "round": np.repeat(rounds["round"], k),
        "seat": seat,
        "team": team,
    }
    if role is not None:
        columns["role"] = pd.Categorical(role, categories=["king", "opponent", "minister"])
    columns |= {
        "strategy": pd.Categorical(names),
        "hand8": flat["hand8"],
        "hand14": flat["hand14"],
        "hand_passed": flat["hand_passed"],
    }
    if sides is not None:
        for j, side in enumerate(sides):
            columns[f"given_{side}"] = flat["given"][:, j]
        for j, side in enumerate(sides):
            columns[f"received_{side}"] = flat["received"][:, j]
    else:  # Tientsin: to and from the partners two and four places on (§3)
        for j, side in ((1, "partner1"), (3, "partner2")):
            columns[f"given_{side}"] = flat["given"][:, j]
        for j, side in ((1, "partner1"), (3, "partner2")):
            columns[f"received_{side}"] = flat["received"][:, j]
    columns |= {
        "grand_tichu": flat["grand_tichu"],
        "tichu": flat["tichu"],
        "call_success": pd.arrays.BooleanArray(first_out == seat, ~called),
        "finish": flat["finish"],
        "card_points": flat["card_points"],
        "points": flat["points"],
    }
    return r, pd.DataFrame(columns)


class Records(NamedTuple):
    """Raw results of a batch: ``ROUND`` records, ``(n, seats)`` ``SEAT`` records (Wu Wang:
    players 0..2 then the Minister), the players' strategies and, for games, each row's game
    id and round within the game (game-major)."""

    rounds: np.ndarray
    seats: np.ndarray
    strategies: list[Strategy]
    game: np.ndarray | None = None
    round_in_game: np.ndarray | None = None
    variant: str = "nanjing"


def _by_player(info: Variant, r_out: np.ndarray, s_out: np.ndarray):
    if info.code == V.WUWANG:
        return _wuwang_players(r_out, s_out)
    return r_out, s_out


def round_records(rounds: int, *, seed: int = 0, strategies="random", variant: str = "nanjing",
                  first_round: int = 0, check: bool = False, options=None) -> Records:
    """The records behind ``simulate`` (no DataFrames: what batch runners encode directly)."""
    rounds = _count(rounds, "rounds")
    first_round = _count(first_round, "first_round")
    info = variant_info(variant)
    variant_options(variant, options)
    seed, seats, params = _prepare(strategies, variant, seed)
    keys = np.arange(first_round, first_round + rounds, dtype=np.int64)
    # seat 0 draws first; a Wu Wang King is drawn per round (-1), as in a first round (§4)
    firsts = np.full(rounds, -1 if info.code == V.WUWANG else 0, np.int64)
    r_out = np.zeros(rounds, ROUND)
    s_out = np.zeros((rounds, V.n_seats(info.code)), SEAT)
    if rounds:
        batch.play_table_rounds(info.code, seed, keys, firsts, params, r_out, s_out, check,
                                _chunks(rounds))  # fmt: skip
    _raise_errors(r_out)
    r_out, s_out = _by_player(info, r_out, s_out)
    return Records(r_out, s_out, seats, variant=variant)


def game_records(games: int, *, seed: int = 0, strategies="random", target: int = 1000,
                 variant: str = "nanjing", first_game: int = 0, check: bool = False,
                 options=None) -> Records:  # fmt: skip
    """The records behind ``simulate_games``: every round of games ``first_game ..``, game by
    game. Games are played 128 at a time, which bounds the scratch arrays. Team games run to
    ``target``; Wu Wang games last the ``game_rounds`` option (``target`` does not apply)."""
    games = _count(games, "games")
    first_game = _count(first_game, "first_game")
    target = _count(target, "target")
    info = variant_info(variant)
    opts = variant_options(variant, options)
    seed, seats, params = _prepare(strategies, variant, seed)
    k = V.n_seats(info.code)
    game_rounds = opts.get("game_rounds", 0)
    longest = game_rounds if info.code == V.WUWANG else batch.MAX_GAME_ROUNDS
    if longest > batch.MAX_GAME_ROUNDS:
        raise ValueError(f"{variant} option game_rounds: at most {batch.MAX_GAME_ROUNDS}")
    parts = []
    step = 128
    for start in range(0, games, step):
        ids = np.arange(first_game + start, first_game + min(games, start + step), dtype=np.int64)
        g = len(ids)
        r_out = np.zeros((g, longest), ROUND)
        s_out = np.zeros((g, longest, k), SEAT)
        n_rounds = np.zeros(g, np.int64)
        batch.play_table_games(info.code, seed, ids, target, game_rounds,
                               opts.get("rotating_king", False), params, r_out, s_out, n_rounds,
                               check, _chunks(g))  # fmt: skip
        played = np.arange(longest) < n_rounds[:, None]
        parts.append((r_out[played], s_out[played], np.repeat(ids, n_rounds),
                      np.nonzero(played)[1]))  # fmt: skip
    if not parts:
        return Records(np.zeros(0, ROUND), np.zeros((0, info.seats), SEAT), seats,
                       np.zeros(0, np.int64), np.zeros(0, np.int64), variant)  # fmt: skip
    r_out, s_out, game, in_game = (np.concatenate(p) for p in zip(*parts))
    _raise_errors(r_out)
    r_out, s_out = _by_player(info, r_out, s_out)
    return Records(r_out, s_out, seats, game, in_game, variant)


def simulate(
    rounds: int,
    *,
    seed: int = 0,
    strategies: str | Strategy | list = "random",
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
    the Minister). ``options``: the variant's switches (``Variant.options``).
    ``check=True`` verifies RULES.md §7 after every action.
    ``variant="grand-seigneur"`` with ``players=5..12`` plays independent first rounds of RULES.md
    §5 and returns its own tables (``tichusim.seigneur.simulate_seigneur``).
    """
    if variant == "grand-seigneur":
        from .seigneur import simulate_seigneur

        return simulate_seigneur(rounds, players=players, seed=seed, strategies=strategies,
                                 first_game=first_round, check=check, options=options)  # fmt: skip
    variant_info(variant)
    rec = round_records(rounds, seed=seed, strategies=strategies, variant=variant,
                        first_round=first_round, check=check, options=options)  # fmt: skip
    return _frames(rec.rounds, rec.seats, rec.strategies, variant)


def simulate_games(
    games: int,
    *,
    seed: int = 0,
    strategies: str | Strategy | list = "random",
    target: int | None = None,
    variant: str = "nanjing",
    first_game: int = 0,
    check: bool = False,
    options: dict | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play ``games`` whole games: to ``target`` points (default 1000, RULES.md §2.15, the
    same in Tientsin), or in Wu Wang the ``game_rounds`` option's rounds (§4: 9).

    Returns the same two tables with ``game`` and ``round_in_game`` columns, plus in
    ``rounds`` the running totals: ``total_team0``/``total_team1``, or in Wu Wang per player
    ``total_player0..2`` and ``total_minister`` and, on a game's last round, ``winner`` (the
    player with the highest total, 3 the Minister, -1 for a tie or before the last round).
    A team game not decided after ``MAX_GAME_ROUNDS`` rounds is cut there (``game_over`` is
    False on its last round).
    """
    info = variant_info(variant)
    if info.code == V.WUWANG and target is not None:
        raise ValueError("target: a Wu Wang game lasts a number of rounds (option game_rounds, "
                         "RULES.md §4), not to a target score")  # fmt: skip
    target = 1000 if target is None else target
    rec = game_records(games, seed=seed, strategies=strategies, target=target, variant=variant,
                       first_game=first_game, check=check, options=options)  # fmt: skip
    r, s = _frames(rec.rounds, rec.seats, rec.strategies, variant)
    r.insert(0, "game", rec.game)
    r.insert(1, "round_in_game", rec.round_in_game)
    last = np.r_[rec.game[1:] != rec.game[:-1], True] if len(r) else np.zeros(0, bool)
    if info.code == V.WUWANG:
        names = ["score_player0", "score_player1", "score_player2", "score_minister"]
        totals = r.groupby("game", sort=False)[names].cumsum().to_numpy()
        for j, name in enumerate(names):
            r[name.replace("score", "total")] = totals[:, j]
        top = totals.max(axis=1) if len(r) else np.zeros(0, np.int64)
        alone = (totals == top[:, None]).sum(axis=1) == 1
        r["game_over"] = last
        r["winner"] = np.where(last & alone, totals.argmax(axis=1) if len(r) else 0, -1)
    else:
        totals = r.groupby("game", sort=False)[["score_team0", "score_team1"]].cumsum()
        r["total_team0"] = totals["score_team0"]
        r["total_team1"] = totals["score_team1"]
        t0, t1 = r["total_team0"].to_numpy(), r["total_team1"].to_numpy()
        r["game_over"] = last & (np.maximum(t0, t1) >= target) & (t0 != t1)
    s.insert(0, "game", np.repeat(rec.game, info.seats))
    s.insert(1, "round_in_game", np.repeat(rec.round_in_game, info.seats))
    return r, s
