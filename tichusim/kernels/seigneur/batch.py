"""Parallel drivers for Grand Seigneur: games of chained rounds on threads (RULES.md §5).

A game's rounds are played in order (each round's ranks seat the next and drive its exchange);
games are independent, cut into chunks (``parallel.in_chunks``) that each allocate their
buffers once. A round's result depends only on (seed, round key, the ranks before it,
strategies, options), never on the chunking, so any thread count gives identical tables.
Independent rounds are games of one round: a first round, random seating and no exchange.
"""

import numpy as np

from ..errors import ERR_NONE
from ..eventlog import copy_log
from ..jit import njit
from ..outside import start_script
from ..parallel import in_chunks
from .engine import play_round
from .records import GS_ROUND, GS_SEAT, GS_WORK, LOG_ROWS, LOG_WIDTH
from .rules import GS_RULES
from .view import GS_PRIVATE, GS_PUBLIC, MAX_PLAYERS

GAME_KEY_STRIDE = 1 << 16  # round key of round r of game g: g * stride + r (as batch.py)


# The settings every chunk of a run shares, one record (a one-element array, ``settings``).
# ``outside`` is not among them: each entry point passes it as a constant, so the batch path's
# engine is compiled without the branches that read decisions from Python.
GS_RUN = np.dtype(
    [
        ("seed", np.uint64),
        ("rounds", np.int64),  # rounds per game
        ("n_players", np.int64),
        ("deck_kind", np.int64),
        ("rules", GS_RULES),  # the table's rules Options (rules.py)
        ("logged", np.bool_),  # a call of one game: log its last round
        ("check", np.bool_),  # verify the rules' invariants after every action
    ],
    align=True,
)


@njit(cache=True)
def _configure(work, run, params):
    """Load strategies and the run's options into a work record. A record holds no reference
    to its array and numba frees an array after its last use, so a function that indexes
    ``work[0]`` must use ``work`` again after the record's last use, or pass the array on
    (``eventlog.copy_log``): else it works on freed memory (crashes seen in ``play_logged``
    with numba 0.68)."""
    for p in range(run.n_players):
        for j in range(params.shape[1]):
            work.params[p, j] = params[p, j]
    work.n_players = run.n_players
    work.deck_kind = run.deck_kind
    work.rules = run.rules
    work.logging = False


@njit(cache=True, inline="always")
def _play_game(run, game, work, pub, privs, rounds_out, seats_out, first, ranks, outside):
    """Rounds ``0..run.rounds-1`` of ``game`` into rows ``first ..`` of the outputs, the last
    one logged when ``run.logged``; returns its log rows. (One call of ``play_round``: each
    call site costs a copy of the engine at compile time.)"""
    seed, rounds, logged, check = run.seed, run.rounds, run.logged, run.check
    n = work.n_players
    for p in range(n):
        ranks[p] = 0
    nlog = 0
    if outside:
        start_script(work)  # one script per game: its rounds replay together (outside.py)
    for r in range(rounds):
        i = first + r
        work.logging = logged and r == rounds - 1
        err, nlog = play_round(
            seed,
            game * GAME_KEY_STRIDE + r,
            game,
            r,
            work,
            pub,
            privs,
            rounds_out[i],
            seats_out[i],
            ranks,
            check,
            outside,
        )
        if err != ERR_NONE:
            for j in range(i + 1, first + rounds):  # the game cannot go on: mark its rest
                rounds_out[j].error = err
                rounds_out[j].game = game
                rounds_out[j].round_in_game = j - first
            return 0 if r < rounds - 1 else nlog
        for p in range(n):
            ranks[p] = seats_out[i, p].rank_after
    return nlog


@njit(cache=True, inline="always")
def _games_loop(settings, games, params, out, kept, lo, hi, outside):
    """Games ``lo..hi`` of ``games`` with the run's ``settings`` (``GS_RUN``). ``out =
    (rounds_out, seats_out, n_log, log_out)``: game g into rows ``g * rounds ..`` of
    ``rounds_out`` and ``seats_out``; ``logged`` (a call of one game): the event log of its
    last round into ``log_out``, its row count in ``n_log[lo]``; ``kept``: the chunk's (work,
    pub, privs) (``kept_records``): a game stepped from Python keeps its script there."""
    rounds_out, seats_out, n_log, log_out = out
    work, pub, privs = kept
    run = settings[0]  # a view: ``settings`` is read again below, which keeps it alive
    _configure(work[0], run, params)
    ranks = np.zeros(MAX_PLAYERS, np.int64)
    for g in range(lo, hi):
        n_log[g] = _play_game(
            run,
            games[g],
            work[0],
            pub[0],
            privs,
            rounds_out,
            seats_out,
            g * run.rounds,
            ranks,
            outside,
        )
    if settings[0].logged and lo < hi:
        copy_log(work, n_log[lo], log_out)


# The entry point, and the same taking decisions from Python (``outside.py``), compiled only
# when a game is stepped or an Agent plays. Numba links and optimises the whole engine again
# into every jitted function that calls it, so each entry point costs a cold compile.


@njit(cache=True, nogil=True)
def _play_games(settings, games, params, out, kept, lo, hi):
    _games_loop(settings, games, params, out, kept, lo, hi, False)


@njit(cache=True, nogil=True)
def _step_games(settings, games, params, out, kept, lo, hi):
    _games_loop(settings, games, params, out, kept, lo, hi, True)


def kept_records():
    """A chunk's (work, pub, privs); a game stepped from Python keeps its own across calls
    (``play_kept``)."""
    return np.zeros(1, GS_WORK), np.zeros(1, GS_PUBLIC), np.zeros(MAX_PLAYERS, GS_PRIVATE)


def _run(
    seed,
    games,
    rounds,
    params,
    options,
    rounds_out,
    seats_out,
    check,
    chunks,
    log_out=None,
    kept=None,
    stepper=None,
):
    """Call ``_play_games`` with its one signature's types, the scalars in one ``GS_RUN``
    record; returns ``n_log``. With ``stepper`` (strategies taking decisions from Python) game
    ``g`` is played by ``stepper(g, play)``, ``play(kept)`` calling the entry point for that
    game alone with the caller's records ``kept`` (``kept_records``) and returning the error
    code of the round it stopped in."""
    n_log = np.zeros(len(games), np.int64)
    settings = np.zeros(1, GS_RUN)
    settings["seed"] = seed
    settings["rounds"] = rounds
    settings["n_players"], settings["deck_kind"], settings["rules"] = options
    settings["logged"] = log_out is not None
    settings["check"] = check
    log_out = np.zeros((0, LOG_WIDTH), np.int64) if log_out is None else log_out
    args = (
        settings,
        np.asarray(games, np.int64),
        np.ascontiguousarray(params, np.float64),
        (rounds_out, seats_out, n_log, log_out),
    )
    if stepper is None:
        kernel = _play_games if kept is None else _step_games
        in_chunks(kernel, len(games), chunks, *args, scratch=lambda: (kept or kept_records(),))
        return n_log
    for g in range(len(games)):

        def play(kept, g=g):
            _step_games(*args, kept, g, g + 1)
            errors = rounds_out[g * rounds : (g + 1) * rounds]["error"]
            return int(errors[errors != 0][0]) if (errors != 0).any() else 0

        stepper(g, play)
    return n_log


def play_games(
    seed, games, rounds, params, options, rounds_out, seats_out, check, chunks, stepper=None
):
    """Play ``rounds`` rounds of each game ``games[g]`` into rows ``g * rounds ..`` of
    ``rounds_out`` (``GS_ROUND``) and ``seats_out`` (``GS_SEAT``, one column per player);
    ``options = (n_players, deck_kind, rules)``, ``rules`` a ``rules.GS_RULES`` record."""
    _run(
        seed, games, rounds, params, options, rounds_out, seats_out, check, chunks, stepper=stepper
    )


def play_logged(seed, game, round_in_game, params, options, check):
    """Round ``round_in_game`` of game ``game`` with its event log (``options`` as
    ``play_games``): the game's earlier rounds are played first (silently) for the ranks.
    Returns ``(round, seats, log, error)``."""
    rounds = round_in_game + 1
    rnd = np.zeros(rounds, GS_ROUND)
    seats = np.zeros((rounds, options[0]), GS_SEAT)
    log = np.zeros((LOG_ROWS, LOG_WIDTH), np.int64)
    n_log = _run(seed, [game], rounds, params, options, rnd, seats, check, 1, log_out=log)
    return rnd[-1:], seats[-1], log[: min(n_log[0], LOG_ROWS)].copy(), int(rnd[-1]["error"])


def play_kept(seed, game, rounds, params, options, kept, rnd, seats, check):
    """Rounds ``0..rounds-1`` of ``game`` into ``rnd`` (``rounds`` records) and ``seats``
    (``(rounds, n_players)``) with the caller's ``kept = kept_records()``: its script is read
    (``outside.py``) and the records are left where the game stopped (``kept[0][0].asked``).
    Returns the error code of the round it stopped in (0 when all were played)."""
    _run(seed, [game], rounds, params, options, rnd, seats, check, 1, kept=kept)
    errors = rnd["error"]
    return int(errors[errors != 0][0]) if (errors != 0).any() else 0
