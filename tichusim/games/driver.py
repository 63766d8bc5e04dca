"""The one driver: allocate a game's records, call its batch kernel block by block, check.

Every front end (``simulate``, ``simulate_games``, a run's shards, the Grand Tichu odds' paired
rounds) plays through ``play``, or ``play_parts``, which hands each block's records on as it is
played (``simulate``'s rounds become columns a block at a time). A game describes its kernel
as a ``Batch``: the record types, how many round rows a unit (a round key, or a game) needs at
most, how many units one call takes (which bounds memory), and the call itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

import numba
import numpy as np

from .errors import SimulationError

__all__ = ["Batch", "Played", "play", "play_parts"]


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
    # the fewest units a chunk of the call takes (each chunk's call costs about 0.1 ms)
    least: int = 1


class Played(NamedTuple):
    """Round and seat records of the rounds played, unit by unit, with each row's unit and
    round within it (``None`` when every unit is one round)."""

    rounds: np.ndarray
    seats: np.ndarray
    unit: np.ndarray | None
    round_in_unit: np.ndarray | None


def _chunks(n: int, least: int = 1) -> int:
    """Chunks of a call of ``n`` units: 8 a thread (they balance the threads' load), of at
    least ``least`` units; one on one thread (nothing to balance, and each chunk allocates
    its scratch records)."""
    threads = numba.get_num_threads()
    return 1 if threads == 1 else max(1, min(n // least, threads * 8))


def _joined(parts: list[np.ndarray | None]) -> np.ndarray | None:
    """The parts' ids joined, or None when there are none (every unit one round)."""
    present = [p for p in parts if p is not None]
    return np.concatenate(present) if present else None


def play(batch: Batch, units: np.ndarray, check: bool) -> Played:
    """Play every unit; a failed round raises ``SimulationError`` (one line, the first)."""
    parts = list(play_parts(batch, units, check))
    if len(parts) == 1:
        return parts[0]
    return Played(
        np.concatenate([p.rounds for p in parts]),
        np.concatenate([p.seats for p in parts]),
        _joined([p.unit for p in parts]),
        _joined([p.round_in_unit for p in parts]),
    )


def play_parts(
    batch: Batch, units: np.ndarray, check: bool, *, reuse: bool = False
) -> Iterator[Played]:
    """Play the units block by block, yielding each block's records as it is played (one
    empty part when there are no units). A failed round raises ``SimulationError`` (one line,
    the first) once every block is played; no part is yielded from its block on.

    ``reuse``: every block is played into the same records, zeroed again, so a part holds
    only until the next is asked for (a consumer that uses each part before the next, as
    ``simulate``'s columns do). Fresh records for each block cost the kernel a page fault
    every 4 KiB it writes, a measurable share of a round with cheap strategies."""
    per = batch.rounds_per_unit
    failed, first = 0, None
    buffers: tuple[np.ndarray, np.ndarray] | None = None
    for start in range(0, len(units), batch.block):
        block = units[start : start + batch.block]
        g = len(block)
        if buffers is None:
            rounds = np.zeros((g, per), batch.round_type)
            seats = np.zeros((g, per, batch.seats), batch.seat_type)
            if reuse:  # the first block is the largest
                buffers = rounds, seats
        else:
            rounds, seats = buffers[0][:g], buffers[1][:g]
            rounds.view(np.uint8).fill(0)  # as np.zeros: padding bytes too
            seats.view(np.uint8).fill(0)
        played = np.full(g, per, np.int64)
        batch.call(block, rounds, seats, played, _chunks(g, batch.least))
        rows = np.arange(per) < played[:, None]
        if rows.all():  # every row: views, no copy
            kept = rounds.reshape(g * per), seats.reshape(g * per, batch.seats)
        else:
            kept = rounds[rows], seats[rows]
        bad = np.flatnonzero(kept[0]["error"])
        if bad.size:
            if first is None:  # a copy: with ``reuse`` the next block writes over this one
                first = kept[0][bad[0] : bad[0] + 1].copy()[0]
            failed += bad.size
        if failed:
            continue
        ids = (np.repeat(block, played), np.nonzero(rows)[1]) if per > 1 else (None, None)
        yield Played(*kept, *ids)
    if first is not None:
        raise SimulationError(
            f"{failed} round(s) failed; first: {batch.where(first)}: {batch.errors[first['error']]}"
        )
    if not len(units):
        empty = np.zeros(0, np.int64) if per > 1 else None
        yield Played(
            np.zeros(0, batch.round_type), np.zeros((0, batch.seats), batch.seat_type), empty, empty
        )
