"""Parallel drivers: many independent rounds, or whole games (RULES.md §2.15), over ``prange``.

Work is cut into chunks; each chunk allocates its buffers once and plays its rounds in order.
A round's result depends only on (seed, round key, first drawer, strategies), never on the
chunking, so any thread count gives identical tables.
"""

import numpy as np
from numba import njit, prange

from .engine import ERR_NONE, LOG_ROWS, N, ROUND, SEAT, WORK, play_round
from .view import PRIVATE, PUBLIC

GAME_KEY_STRIDE = 1 << 16  # round key of round r of game g: g * stride + r
MAX_GAME_ROUNDS = 256  # a game still unfinished then is reported as such


@njit(cache=True)
def scratch(params, logging):
    """One worker's tables and buffers, the seats' strategies loaded (kept out of the
    ``prange`` bodies: parfors cannot allocate record arrays)."""
    work = np.zeros(1, WORK)
    for s in range(N):
        for j in range(params.shape[1]):
            work[0].params[s, j] = params[s, j]
    work[0].logging = logging
    work[0].fixed_seat = -1
    return work, np.zeros(1, PUBLIC), np.zeros(N, PRIVATE)


@njit(parallel=True, cache=True)
def play_rounds(seed, keys, first_drawers, params, rounds_out, seats_out, check, chunks):
    """Play round ``keys[i]`` with ``first_drawers[i]`` into ``rounds_out[i]``, ``seats_out[i]``."""
    n = keys.shape[0]
    for c in prange(chunks):
        work, pub, privs = scratch(params, False)
        for i in range(c * n // chunks, (c + 1) * n // chunks):
            play_round(seed, keys[i], first_drawers[i], work[0], pub[0], privs, rounds_out[i],
                       seats_out[i], check)  # fmt: skip


@njit(cache=True)
def _fix_deal(work, seat, cards, ranks):
    """(A function of its own: record fields assigned inside a ``prange`` body were lost.)"""
    work.fixed_seat = seat
    work.fixed_cards = cards
    for r in range(15):
        work.fixed_ranks[r] = ranks[r]


@njit(parallel=True, cache=True)
def play_rounds_fixed(seed, keys, first_drawers, params, fixed_seat, fixed_cards, fixed_ranks,
                      rounds_out, seats_out, check, chunks):  # fmt: skip
    """``play_rounds`` with seat ``fixed_seat`` dealt ``fixed_cards`` and ``fixed_ranks[r]``
    cards of each rank r (suits drawn per round) as its first 8 cards; the rest at random."""
    n = keys.shape[0]
    for c in prange(chunks):
        work, pub, privs = scratch(params, False)
        _fix_deal(work[0], fixed_seat, fixed_cards, fixed_ranks)
        for i in range(c * n // chunks, (c + 1) * n // chunks):
            play_round(seed, keys[i], first_drawers[i], work[0], pub[0], privs, rounds_out[i],
                       seats_out[i], check)  # fmt: skip


@njit(parallel=True, cache=True)
def play_games(seed, games, target, params, rounds_out, seats_out, n_rounds, check,
               chunks):  # fmt: skip
    """Play games ``games[g]`` to ``target`` points (§2.15): rounds of game g go to
    ``rounds_out[g, :n_rounds[g]]``; the first drawer of a round is the previous first out."""
    n = games.shape[0]
    for c in prange(chunks):
        work, pub, privs = scratch(params, False)
        for g in range(c * n // chunks, (c + 1) * n // chunks):
            total0 = 0
            total1 = 0
            drawer = 0
            r = 0
            while r < MAX_GAME_ROUNDS:
                key = games[g] * GAME_KEY_STRIDE + r
                err, _ = play_round(seed, key, drawer, work[0], pub[0], privs, rounds_out[g, r],
                                    seats_out[g, r], check)  # fmt: skip
                r += 1
                if err != ERR_NONE:
                    break
                total0 += rounds_out[g, r - 1].score[0]
                total1 += rounds_out[g, r - 1].score[1]
                drawer = rounds_out[g, r - 1].first_out
                if (total0 >= target or total1 >= target) and total0 != total1:
                    break
            n_rounds[g] = r


@njit(cache=True)
def play_logged(seed, key, first_drawer, params, check):
    """One round with its event log (for transcripts and replays)."""
    work, pub, privs = scratch(params, True)
    rnd = np.zeros(1, ROUND)
    seats = np.zeros(N, SEAT)
    err, n = play_round(seed, key, first_drawer, work[0], pub[0], privs, rnd[0], seats, check)
    return rnd, seats, work[0].log[: min(n, LOG_ROWS)].copy(), err
