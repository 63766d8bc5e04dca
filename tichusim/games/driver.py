"""The one driver: allocate a game's records, call its batch kernel block by block, check.

Every front end (``simulate``, ``simulate_games``, a run's shards, the Grand Tichu odds' paired
rounds) plays through ``play``. A game describes its kernel as a ``Batch``: the record types,
how many round rows a unit (a round key, or a game) needs at most, how many units one call
takes (which bounds memory), and the call itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numba
import numpy as np

from .errors import SimulationError

__all__ = ["Batch", "Played", "play"]


class Batch(NamedTuple):
    """How a game's batch kernel is driven.

    ``call(units, rounds, seats, played, chunks)`` plays ``units`` (round keys or game ids)
    into ``rounds`` (``(units, rounds_per_unit)`` records of ``round_type``) and ``seats``
    (``(units, rounds_per_unit, seats)`` of ``seat_type``); a unit that plays fewer rounds
    (a team game ending at its target) says how many in ``played``, which starts full."""

    round_type: np.dtype
    seat_type: np.dtype
    seats: int
    rounds_per_unit: int
    block: int
    call: Callable
    errors: Sequence[str]  # the engine's error texts by code
    where: Callable[[np.void], str]  # names a failed round: "round key 7", "game 3 round 2"


class Played(NamedTuple):
    """Round and seat records of the rounds played, unit by unit, with each row's unit and
    round within it (``None`` when every unit is one round)."""

    rounds: np.ndarray
    seats: np.ndarray
    unit: np.ndarray | None
    round_in_unit: np.ndarray | None


def _chunks(n: int) -> int:
    return max(1, min(n, numba.get_num_threads() * 8))


def _joined(parts: list[np.ndarray | None]) -> np.ndarray | None:
    """The parts' ids joined, or None when there are none (every unit one round)."""
    present = [p for p in parts if p is not None]
    return np.concatenate(present) if present else None


def play(batch: Batch, units: np.ndarray, check: bool) -> Played:
    """Play every unit; a failed round raises ``SimulationError`` (one line, the first)."""
    per = batch.rounds_per_unit
    parts: list[Played] = []
    for start in range(0, len(units), batch.block):
        block = units[start : start + batch.block]
        g = len(block)
        rounds = np.zeros((g, per), batch.round_type)
        seats = np.zeros((g, per, batch.seats), batch.seat_type)
        played = np.full(g, per, np.int64)
        batch.call(block, rounds, seats, played, _chunks(g))
        rows = np.arange(per) < played[:, None]
        if rows.all():  # every row: views, no copy
            kept = rounds.reshape(g * per), seats.reshape(g * per, batch.seats)
        else:
            kept = rounds[rows], seats[rows]
        ids = (np.repeat(block, played), np.nonzero(rows)[1]) if per > 1 else (None, None)
        parts.append(Played(*kept, *ids))
    if not parts:
        empty = np.zeros(0, np.int64) if per > 1 else None
        return Played(
            np.zeros(0, batch.round_type), np.zeros((0, batch.seats), batch.seat_type), empty, empty
        )
    if len(parts) == 1:
        out = parts[0]
    else:
        out = Played(
            np.concatenate([p.rounds for p in parts]),
            np.concatenate([p.seats for p in parts]),
            _joined([p.unit for p in parts]),
            _joined([p.round_in_unit for p in parts]),
        )
    bad = np.flatnonzero(out.rounds["error"])
    if bad.size:
        first = out.rounds[bad[0]]
        raise SimulationError(
            f"{bad.size} round(s) failed; first: {batch.where(first)}: "
            f"{batch.errors[first['error']]}"
        )
    return out
