"""A table's learned models, the argument the kernels take beside the strategy rows.

A strategy row that plays the learned policy (``policies.PLAY_LEARNED``) names the identity of
its weights file (``learned.mark_row``), whose model the process registered when it read the
file (``tichusim.strategies.learned.load``). ``models_for`` is the one place a table's models
are made: it takes the table's rows (one array, or several that play at one table: a
labelling run's behaviour and rollouts) and returns them with each learned row's model index
set (``slots.P_MODEL``), and the models, one row each in the order of their first seat, each
row on a cache line (``learned.on_lines``), as long as the longest needs. A table where no seat
plays the learned policy gets ``None``: its kernels are compiled with ``models`` of numba's
none type, which prunes the learned play (``policies._learned``), so they hold no network code.

A learned seat without its model is refused before any round is played: a row that names no
weights, or weights this process has not read, is one ``ValueError`` line; the kernels
answer ``policies.NO_MODEL`` (a strategy error) if one got through.

A row that passes with the learned passing (``policies.PASS_LEARNED``) names its pass
network's identity the same way (``slots.P_PASS_WEIGHTS``, ``pass_identity``); its model
(``passnet.py``'s flat row, registered under that identity) joins the table's models, its
index set in ``slots.P_PASS_MODEL``. ``MAX_MODELS`` play networks and ``MAX_PASS_MODELS``
pass networks at one table at most.
"""

import numpy as np

from . import learned
from .policies import PASS_LEARNED, PLAY_LEARNED
from .slots import P_MODEL, P_PASS, P_PASS_MODEL, P_PASS_WEIGHTS, P_PLAY

MAX_PASS_MODELS = 2  # different pass networks at one table

_MADE: dict[tuple[int, ...], np.ndarray] = {}  # the models of identities, as made once


def learned_seats(params: np.ndarray) -> np.ndarray:
    """Which rows of ``params`` play the learned policy."""
    params = np.asarray(params)
    return params[:, P_PLAY] == PLAY_LEARNED


def learned_pass_seats(params: np.ndarray) -> np.ndarray:
    """Which rows of ``params`` pass with the learned passing."""
    params = np.asarray(params)
    return params[:, P_PASS] == PASS_LEARNED


def pass_identity(row: np.ndarray) -> int:
    """The pass network's identity a strategy row names (0: none)."""
    return (int(row[P_PASS_WEIGHTS]) << 32) | int(row[P_PASS_WEIGHTS + 1])


def mark_pass_row(row: np.ndarray, identity: str) -> None:
    """Name the pass network of ``identity`` (16 hex digits) in a strategy row."""
    number = learned.identity_number(identity)
    row[P_PASS_WEIGHTS] = float(number >> 32)
    row[P_PASS_WEIGHTS + 1] = float(number & 0xFFFFFFFF)


def models_for(*tables: np.ndarray) -> tuple[list[np.ndarray], np.ndarray | None]:
    """``(rows, models)``: each of ``tables`` (strategy rows, one per seat) with its learned
    rows' model index set, and the models those indexes count (``None`` when no row plays
    the learned policy; a table without one is returned as it came). ``ValueError`` (one
    line) for a learned row naming no weights or weights not read in this process, or more
    than ``learned.MAX_MODELS`` different weights at one table."""
    ids: list[int] = []
    pass_ids: list[int] = []
    marked = []
    for params in tables:
        seats = learned_seats(params)
        passing = learned_pass_seats(params)
        marked.append((seats, passing))
        for s in np.flatnonzero(passing):
            number = pass_identity(params[s])
            if number == 0 or learned.registered(number) is None:
                raise ValueError(
                    f"seat {s} passes with the learned passing but its strategy row names no "
                    "pass network read in this process: make the rows with Strategy.param_row"
                )
            if number not in pass_ids:
                pass_ids.append(number)
        for s in np.flatnonzero(seats):
            number = learned.row_identity(params[s])
            if number == 0:
                raise ValueError(
                    f"seat {s} plays the learned policy but its strategy row names no weights "
                    "file: make the rows with Strategy.param_row, which reads it"
                )
            if learned.registered(number) is None:
                raise ValueError(
                    f"seat {s} plays weights {number:016x}, not loaded in this process: make "
                    "the rows with Strategy.param_row, which reads the weights file"
                )
            if number not in ids:
                ids.append(number)
    if not ids and not pass_ids:
        return list(tables), None
    if len(ids) > learned.MAX_MODELS:
        raise ValueError(
            f"{len(ids)} different weight files at one table; at most {learned.MAX_MODELS} "
            "play together"
        )
    if len(pass_ids) > MAX_PASS_MODELS:
        raise ValueError(
            f"{len(pass_ids)} different pass networks at one table; at most {MAX_PASS_MODELS} "
            "pass together"
        )
    every = ids + [number for number in pass_ids if number not in ids]
    rows = []
    for params, (seats, passing) in zip(tables, marked, strict=True):
        if not seats.any() and not passing.any():
            rows.append(params)
            continue
        out = np.array(params, np.float64)
        for s in np.flatnonzero(seats):
            out[s, P_MODEL] = every.index(learned.row_identity(out[s]))
        for s in np.flatnonzero(passing):
            out[s, P_PASS_MODEL] = every.index(pass_identity(out[s]))
        rows.append(out)
    return rows, _models(tuple(every))


def _models(ids: tuple[int, ...]) -> np.ndarray:
    """The models of identities ``ids`` (registered), one row each on cache lines, made once
    per process."""
    models = _MADE.get(ids)
    if models is None:
        flat = [learned.registered(number) for number in ids]
        longest = max(m.size for m in flat if m is not None)
        floats = -(-longest // learned.LINE_FLOATS) * learned.LINE_FLOATS
        models = learned.on_lines(len(ids), floats)
        for k, model in enumerate(flat):
            assert model is not None  # models_for checked it
            models[k, : model.size] = model
        _MADE[ids] = models
    return models


def table(params: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """``models_for`` of one table's rows: ``(rows, models)``."""
    (rows,), models = models_for(params)
    return rows, models


__all__ = [
    "MAX_PASS_MODELS",
    "learned_pass_seats",
    "learned_seats",
    "mark_pass_row",
    "models_for",
    "pass_identity",
    "table",
]
