"""The round engines' event log, jitted: one row of integers per event, for transcripts.

Each engine's scratch record (``tichu/records.WORK``, ``seigneur/records.GS_WORK``) holds
``logging`` and a ``log`` array of rows as wide as that engine's events (``games/transcript.py``
and ``games/seigneur.py`` read them): ``(event, seat, cards, code, extra)`` in the team games,
``(event, seat, a, b, code, extra)`` with Grand Seigneur's two-deck multisets. A row is written
only while ``logging``; the count goes on past the last row that fits, so that the engine
reports the overflow (``ERR_LOG``) rather than a transcript that silently stops.
"""

import numpy as np

from .errors import ERR_LOG, ERR_NONE
from .jit import njit


@njit(cache=True, inline="always")  # every event of every round comes here, logged or not
def append_row(work, nlog, row):
    """Write ``row`` (a tuple of ``int64``, as wide as ``work.log``) as log row ``nlog`` when
    logging; returns the new number of rows."""
    if not work.logging:
        return nlog
    if nlog < work.log.shape[0]:
        for j in range(len(row)):
            work.log[nlog, j] = row[j]
    return nlog + 1


@njit(cache=True)
def log_cards(work, nlog, event, seat, cards, code, extra):
    """Log row ``(event, seat, cards, code, extra)``: one deck, a card set as one mask."""
    row = (np.int64(event), np.int64(seat), np.int64(cards), np.int64(code), np.int64(extra))
    return append_row(work, nlog, row)


@njit(cache=True)
def log_multiset(work, nlog, event, seat, a, b, code, extra):
    """Log row ``(event, seat, a, b, code, extra)``: two decks, a card set as a multiset."""
    row = (
        np.int64(event),
        np.int64(seat),
        np.int64(a),
        np.int64(b),
        np.int64(code),
        np.int64(extra),
    )
    return append_row(work, nlog, row)


@njit(cache=True, inline="always")
def close_round(work, rnd, err, nlog):
    """A round's outcome ``(error, log rows)``, the error recorded in ``rnd``: ``err``, or
    ``ERR_LOG`` when a round that went well logged more rows than ``work.log`` holds."""
    if err == ERR_NONE and nlog > work.log.shape[0]:
        err = ERR_LOG
    rnd.error = err
    return err, nlog


@njit(cache=True)
def copy_log(work, n, log_out):
    """The ``n`` rows logged in ``work[0]`` (those that fit) into ``log_out``. ``work`` is the
    one-record array, not the record: a record view does not keep its array alive, and
    numba frees an array after its last use, so ``f(work[0])`` as a function's last use of
    ``work`` would read freed memory (a segfault seen once malloc returned it). (Loops, not a
    slice copy: that compiles numpy's shape-error messages, seconds of a cold compile.)"""
    log = work[0].log
    for i in range(min(n, log.shape[0])):
        for j in range(log.shape[1]):
            log_out[i, j] = log[i, j]


__all__ = ["append_row", "close_round", "copy_log", "log_cards", "log_multiset"]
