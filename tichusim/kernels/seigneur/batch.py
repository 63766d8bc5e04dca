"""Parallel drivers for Grand Seigneur: games of chained rounds over ``prange`` (RULES.md §5).

A game's rounds are played in order (each round's ranks seat the next and drive its exchange);
games are independent, cut into chunks that each allocate their buffers once. A round's result
depends only on (seed, round key, the ranks before it, strategies, options), never on the
chunking, so any thread count gives identical tables. Independent rounds are games of one
round: a first round, random seating and no exchange.
"""

import numpy as np
from numba import njit, prange

from ..errors import ERR_NONE
from ..eventlog import log_rows
from .engine import play_round
from .records import GS_ROUND, GS_SEAT, GS_WORK
from .view import GS_PRIVATE, GS_PUBLIC, MAX_PLAYERS

GAME_KEY_STRIDE = 1 << 16  # round key of round r of game g: g * stride + r (as batch.py)


@njit(cache=True)
def _configure(work, params, n_players, deck_kind, distinct_triples, russian_seating, logging):
    """Load strategies and options into a work record. A record holds no reference to its
    array and numba frees an array after its last use, so a function that indexes ``work[0]``
    must use ``work`` again after the record's last use, or pass the array on
    (``eventlog.log_rows``, ``_play_logged_round``): else it works on freed memory (crashes seen
    in ``play_logged`` with numba 0.68)."""
    for p in range(n_players):
        for j in range(params.shape[1]):
            work.params[p, j] = params[p, j]
    work.n_players = n_players
    work.deck_kind = deck_kind
    work.distinct_triples = distinct_triples
    work.russian_seating = russian_seating
    work.logging = logging


@njit(cache=True)
def scratch(params, n_players, deck_kind, distinct_triples, russian_seating, logging):
    """One worker's records and buffers with the players' strategies and the options loaded
    (outside the ``prange`` bodies: parfors cannot allocate record arrays)."""
    work = np.zeros(1, GS_WORK)
    _configure(work[0], params, n_players, deck_kind, distinct_triples, russian_seating, logging)
    return work, np.zeros(1, GS_PUBLIC), np.zeros(MAX_PLAYERS, GS_PRIVATE)


@njit(cache=True)
def _play_game(seed, game, rounds, work, pub, privs, rounds_out, seats_out, first, ranks, check):
    """Rounds ``0..rounds-1`` of ``game`` into rows ``first ..`` of the outputs."""
    n = work.n_players
    for p in range(n):
        ranks[p] = 0
    for r in range(rounds):
        i = first + r
        err, _ = play_round(seed, game * GAME_KEY_STRIDE + r, game, r, work, pub, privs,
                            rounds_out[i], seats_out[i], ranks, check)  # fmt: skip
        if err != ERR_NONE:
            for j in range(i + 1, first + rounds):  # the game cannot go on: mark its rest
                rounds_out[j].error = err
                rounds_out[j].game = game
                rounds_out[j].round_in_game = j - first
            return
        for p in range(n):
            ranks[p] = seats_out[i, p].rank_after


@njit(parallel=True, cache=True)
def play_games(seed, games, rounds, params, n_players, deck_kind, distinct_triples,
               russian_seating, rounds_out, seats_out, check, chunks):  # fmt: skip
    """Play ``rounds`` rounds of each game ``games[g]`` into rows ``g * rounds ..`` of
    ``rounds_out`` (``GS_ROUND``) and ``seats_out`` (``GS_SEAT``, one column per player)."""
    n = games.shape[0]
    for c in prange(chunks):
        work, pub, privs = scratch(params, n_players, deck_kind, distinct_triples,
                                   russian_seating, False)  # fmt: skip
        ranks = np.zeros(MAX_PLAYERS, np.int64)
        for g in range(c * n // chunks, (c + 1) * n // chunks):
            _play_game(seed, games[g], rounds, work[0], pub[0], privs, rounds_out, seats_out,
                       g * rounds, ranks, check)  # fmt: skip


@njit(cache=True)
def play_logged(seed, game, round_in_game, params, n_players, deck_kind, distinct_triples,
                russian_seating, check):  # fmt: skip
    """Round ``round_in_game`` of ``game`` with its event log: the game's earlier rounds are
    played first (silently) for the ranks. Returns ``(round, seats, log, error)``."""
    work, pub, privs = scratch(params, n_players, deck_kind, distinct_triples, russian_seating,
                               False)  # fmt: skip
    rnd = np.zeros(round_in_game + 1, GS_ROUND)
    seats = np.zeros((round_in_game + 1, n_players), GS_SEAT)
    ranks = np.zeros(MAX_PLAYERS, np.int64)
    _play_game(seed, game, round_in_game, work[0], pub[0], privs, rnd, seats, 0, ranks, check)
    if round_in_game > 0 and rnd[round_in_game - 1].error != ERR_NONE:
        return rnd[-1:], seats[-1], log_rows(work, 0), rnd[round_in_game - 1].error
    for p in range(n_players):
        ranks[p] = seats[round_in_game - 1, p].rank_after if round_in_game > 0 else 0
    _configure(work[0], params, n_players, deck_kind, distinct_triples, russian_seating, True)
    err, nlog = _play_logged_round(seed, game, round_in_game, work, pub, privs, rnd, seats,
                                   ranks, check)  # fmt: skip
    return rnd[-1:], seats[-1], log_rows(work, nlog), err


@njit(cache=True)
def _play_logged_round(seed, game, round_in_game, work, pub, privs, rnd, seats, ranks, check):
    """``play_round`` on the first records of ``work`` and ``pub`` (arrays passed whole:
    see ``_configure``)."""
    return play_round(seed, game * GAME_KEY_STRIDE + round_in_game, game, round_in_game,
                      work[0], pub[0], privs, rnd[round_in_game], seats[round_in_game], ranks,
                      check)  # fmt: skip
