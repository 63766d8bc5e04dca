"""``simulate`` and ``simulate_games``: the Python entry points that notebooks and runners call.

They validate, resolve strategies, allocate the record arrays, call the parallel kernels and
return two pandas DataFrames, ``rounds`` (one row per round) and ``seats`` (one per seat per
round): the tables a batch run writes as Parquet (``tichusim.dataset``; columns in
docs/schema.md). Card sets are ``uint64`` masks in the layout of ``tichusim.cards``.

Variants (``VARIANTS``): ``"nanjing"`` (RULES.md §2, 4 seats, the default), ``"tientsin"``
(§3, 6 seats, teams {0, 2, 4} and {1, 3, 5}), ``"wuwang"`` (§4, three players 0..2 and the
Minister, seat 3 in the tables; team 0 is the King's side that round, team 1 the two
opponents) and ``"grand-seigneur"`` (§5, 5 to 12 players, its own engine:
``tichusim.seigneur``). A variant's switches come as ``options`` (``Variant.options``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import numba
import pandas as pd

from . import dataset
from ..kernels.tichu import batch
from ..kernels.tichu import variants as V
from ..kernels.errors import ERRORS
from ..kernels.tichu.records import ROUND, SEAT
from ..strategies.tichu import Strategy, resolve

__all__ = [
    "Records", "SEIGNEUR", "SimulationError", "VARIANTS", "Variant", "frames", "game_records",
    "records", "round_records", "simulate", "simulate_games", "variant_info", "variant_options",
]  # fmt: skip

SEIGNEUR = "grand-seigneur"


@dataclass(frozen=True)
class Variant:
    """A table: its kernel id (-1: Grand Seigneur's own engine), how many players bring a
    strategy and how many rows each round has in the seats table (``None``: the ``players``
    argument, Grand Seigneur), and its options (name -> default)."""

    name: str
    code: int
    players: int | None
    seats: int | None
    options: dict = field(default_factory=dict)
    rules: str = ""

    @property
    def team_game(self) -> bool:
        """Played to a target score by two teams (§2.15): Nanjing and Tientsin."""
        return self.code in (V.NANJING, V.TIENTSIN)


# phoenix_led_half: the Option of §2.6 (the French edition), a led Phoenix worth ½ instead of
# 1½, so that the Mah Jong may be played on it; every table of the team engine offers it
_VARIANTS = {
    "nanjing": Variant("nanjing", V.NANJING, 4, 4, {"phoenix_led_half": False},
                       rules="RULES.md §2"),
    "tientsin": Variant("tientsin", V.TIENTSIN, 6, 6, {"phoenix_led_half": False},
                        rules="RULES.md §3"),
    # game_rounds: a game's length (§4: 9, or another multiple of 3); rotating_king: the Option
    # of §4, the King role passing to the next player each round instead of the first out
    "wuwang": Variant("wuwang", V.WUWANG, 3, 4, {"rotating_king": False, "game_rounds": 9,
                                                 "phoenix_led_half": False},
                      rules="RULES.md §4"),
    # decks: 1 or 2 (None: one for 5-6 players, two for 7-12); the three Options of §5 (the
    # Russian edition; tichusim.seigneur.SeigneurOptions); game_rounds: a game's length, which
    # §5 leaves open (ranks, and so the exchange and the seating, carry over within a game)
    SEIGNEUR: Variant(SEIGNEUR, -1, None, None,
                      {"decks": None, "russian_deck": False, "distinct_triples": False,
                       "russian_seating": False, "game_rounds": 10}, rules="RULES.md §5"),
}  # fmt: skip
VARIANTS = tuple(_VARIANTS)
SEIGNEUR_RULES = ("russian_deck", "distinct_triples", "russian_seating")  # SeigneurOptions
GAME_OPTIONS = ("rotating_king", "game_rounds")  # they shape games, not independent rounds


def variant_info(variant: str) -> Variant:
    if not isinstance(variant, str) or variant not in _VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (available: {', '.join(VARIANTS)})")
    return _VARIANTS[variant]


def _game_rounds(variant: str, value) -> int:
    from ..kernels.seigneur.batch import GAME_KEY_STRIDE

    wuwang = variant == "wuwang"
    if (isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0
            or (wuwang and value % 3)):  # fmt: skip
        what = ("a positive multiple of 3 (RULES.md §4: each player is King as often)" if wuwang
                else "a positive whole number")  # fmt: skip
        raise ValueError(f"{variant} option game_rounds: expected {what}, got {value!r}")
    # Wu Wang games fill the team engine's game buffers; a round key holds 16 bits of round
    longest = batch.MAX_GAME_ROUNDS if wuwang else GAME_KEY_STRIDE - 1
    if value > longest:
        raise ValueError(f"{variant} option game_rounds: at most {longest}, got {value}")
    return int(value)


def variant_options(variant: str, options) -> dict:
    """The variant's options with ``options`` (a mapping, or None; Grand Seigneur also takes
    ``"russian"``, its three Options at once) applied and checked."""
    info = variant_info(variant)
    values = dict(info.options)
    if options is None:
        return values
    if variant == SEIGNEUR and options == "russian":
        options = dict.fromkeys(SEIGNEUR_RULES, True)
    if not isinstance(options, dict):
        also = " or 'russian'" if variant == SEIGNEUR else ""
        raise ValueError(f"options: expected a table of name = value{also}, got {options!r}")
    for key, value in options.items():
        if key not in info.options:
            known = ", ".join(info.options) or "none"
            raise ValueError(f"{variant} option {key!r}: unknown (known: {known})")
        if isinstance(info.options[key], bool) and not isinstance(value, bool):
            raise ValueError(f"{variant} option {key}: expected true or false, got {value!r}")
        if key == "game_rounds":
            value = _game_rounds(variant, value)
        if key == "decks" and value is not None and (isinstance(value, bool) or value not in (1, 2)):
            raise ValueError(f"{variant} option decks must be 1 or 2 (or none: one deck for 5-6 "
                             f"players, two for 7-12, RULES.md §5), not {value!r}")  # fmt: skip
        values[key] = value
    if variant == SEIGNEUR and values["russian_deck"] and values["decks"] == 1:
        raise ValueError("grand-seigneur options: the Russian deck (108 cards) is two sets of "
                         "ranked cards; decks = 1 contradicts it")  # fmt: skip
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
    if info.code < 0:
        raise ValueError(f"{variant}: played by tichusim.seigneur (or records(), simulate())")
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


class Records(NamedTuple):
    """Raw results of a batch of a team game: ``ROUND`` records, ``(n, seats)`` ``SEAT``
    records (Wu Wang: players 0..2 then the Minister), the players' strategies and, for games,
    each row's game id and round within the game (game-major) and the target score."""

    rounds: np.ndarray
    seats: np.ndarray
    strategies: list[Strategy]
    game: np.ndarray | None = None
    round_in_game: np.ndarray | None = None
    variant: str = "nanjing"
    target: int = 0


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
    opts = variant_options(variant, options)
    seed, seats, params = _prepare(strategies, variant, seed)
    keys = np.arange(first_round, first_round + rounds, dtype=np.int64)
    # seat 0 draws first; a Wu Wang King is drawn per round (-1), as in a first round (§4)
    firsts = np.full(rounds, -1 if info.code == V.WUWANG else 0, np.int64)
    r_out = np.zeros(rounds, ROUND)
    s_out = np.zeros((rounds, V.n_seats(info.code)), SEAT)
    if rounds:
        batch.play_table_rounds(info.code, seed, keys, firsts, params, r_out, s_out, check,
                                _chunks(rounds), opts["phoenix_led_half"])  # fmt: skip
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
    longest = batch.MAX_GAME_ROUNDS if info.team_game else game_rounds
    parts = []
    step = 128
    for start in range(0, games, step):
        ids = np.arange(first_game + start, first_game + min(games, start + step), dtype=np.int64)
        g = len(ids)
        r_out = np.zeros((g, longest), ROUND)
        s_out = np.zeros((g, longest, k), SEAT)
        n_rounds = np.zeros(g, np.int64)
        batch.play_table_games(info.code, seed, ids, target, game_rounds,
                               opts.get("rotating_king", False), opts["phoenix_led_half"], params,
                               r_out, s_out, n_rounds, check, _chunks(g))  # fmt: skip
        played = np.arange(longest) < n_rounds[:, None]
        parts.append((r_out[played], s_out[played], np.repeat(ids, n_rounds),
                      np.nonzero(played)[1]))  # fmt: skip
    if not parts:
        return Records(np.zeros(0, ROUND), np.zeros((0, info.seats), SEAT), seats,
                       np.zeros(0, np.int64), np.zeros(0, np.int64), variant, target)  # fmt: skip
    r_out, s_out, game, in_game = (np.concatenate(p) for p in zip(*parts))
    _raise_errors(r_out)
    r_out, s_out = _by_player(info, r_out, s_out)
    return Records(r_out, s_out, seats, game, in_game, variant, target)


def records(variant: str = "nanjing", count: int = 0, *, games: bool = False, first: int = 0,
            seed: int = 0, strategies="random", players: int | None = None, options=None,
            target: int = 1000, check: bool = False):  # fmt: skip
    """The records of ``count`` independent rounds (``games=False``) or whole games of any
    variant, numbered from ``first``: ``Records``, or ``seigneur.SeigneurRecords`` for Grand
    Seigneur. What ``simulate``, ``simulate_games`` and a batch run's shards call."""
    info = variant_info(variant)
    if info.code < 0:
        from .seigneur import SeigneurOptions, seigneur_records

        opts = variant_options(variant, options)
        return seigneur_records(
            count, players=players, seed=seed, strategies=strategies, decks=opts["decks"],
            rounds_per_game=opts["game_rounds"] if games else 1, first_game=first, check=check,
            options=SeigneurOptions(**{k: opts[k] for k in SEIGNEUR_RULES}),
        )  # fmt: skip
    if players is not None and players != info.players:
        raise ValueError(f"players: {variant} is played by {info.players}; only grand-seigneur "
                         "takes a number of players")  # fmt: skip
    if games:
        return game_records(count, seed=seed, strategies=strategies, target=target,
                            variant=variant, first_game=first, check=check, options=options)
    return round_records(count, seed=seed, strategies=strategies, variant=variant,
                         first_round=first, check=check, options=options)  # fmt: skip


def frames(rec) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ``(rounds, seats)`` DataFrames of records: the tables of ``tichusim.dataset``."""
    rounds, seats = dataset.tables(rec)
    return rounds.to_pandas(), seats.to_pandas()


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
    the Minister; Grand Seigneur ``players``). ``options``: the variant's switches
    (``Variant.options``). ``check=True`` verifies RULES.md §7 after every action.
    ``variant="grand-seigneur"`` with ``players=5..12`` plays independent first rounds of §5
    (random seating, no exchange), round ``i`` keyed ``(first_round + i) * 65536``.
    """
    rec = records(variant, rounds, first=first_round, seed=seed, strategies=strategies,
                  players=players, options=options, check=check)  # fmt: skip
    return frames(rec)


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
    if not variant_info(variant).team_game and target is not None:
        raise ValueError(f"target: a {variant} game lasts a number of rounds (option "
                         "game_rounds), not to a target score")  # fmt: skip
    rec = records(variant, games, games=True, first=first_game, seed=seed,
                  target=1000 if target is None else target,
                  strategies=strategies, players=players, options=options, check=check)
    return frames(rec)
