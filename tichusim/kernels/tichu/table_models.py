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
"""

import numpy as np

from . import learned
from .policies import PLAY_LEARNED
from .slots import P_MODEL, P_PLAY

_MADE: dict[tuple[int, ...], np.ndarray] = {}  # the models of identities, as made once


def learned_seats(params: np.ndarray) -> np.ndarray:
    """Which rows of ``params`` play the learned policy."""
    params = np.asarray(params)
    return params[:, P_PLAY] == PLAY_LEARNED


def models_for(*tables: np.ndarray) -> tuple[list[np.ndarray], np.ndarray | None]:
    """``(rows, models)``: each of ``tables`` (strategy rows, one per seat) with its learned
    rows' model index set, and the models those indexes count (``None`` when no row plays
    the learned policy; a table without one is returned as it came). ``ValueError`` (one
    line) for a learned row naming no weights or weights not read in this process, or more
    than ``learned.MAX_MODELS`` different weights at one table."""
    ids: list[int] = []
    marked = []
    for params in tables:
        seats = learned_seats(params)
        marked.append(seats)
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
    if not ids:
        return list(tables), None
    if len(ids) > learned.MAX_MODELS:
        raise ValueError(
            f"{len(ids)} different weight files at one table; at most {learned.MAX_MODELS} "
            "play together"
        )
    rows = []
    for params, seats in zip(tables, marked, strict=True):
        if not seats.any():
            rows.append(params)
            continue
        out = np.array(params, np.float64)
        for s in np.flatnonzero(seats):
            out[s, P_MODEL] = ids.index(learned.row_identity(out[s]))
        rows.append(out)
    return rows, _models(tuple(ids))


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


__all__ = ["learned_seats", "models_for", "table"]
