"""Parallel drivers: many independent rounds, or whole games, in any variant.

Work is cut into chunks run on threads (``parallel.in_chunks``); each chunk allocates its
buffers once and plays its rounds in order.
A round's result depends only on (seed, round key, first drawer or King, strategies), never
on the chunking, so any thread count gives identical tables.

Strategies come as one row per *player*: 4 (Nanjing), 6 (Tientsin) or 3 (Wu Wang). In Wu Wang
the engine plays positions (``variants.py``): before each round the players' rows are laid
out by position, the King's row at the Minister's position too (§4), and the round record
keeps the King so that callers can map positions back to players (``variants.wuwang_player``).

A call's settings are one ``Run``: the variant, the seed, the table's rules Options (one
``rules.RULES`` record, which ``_configure`` copies whole into the work record), a game's
length and a fixed deal. The Python functions below take it and the arrays, nothing else.
"""

from typing import NamedTuple

import numpy as np

from ..errors import ERR_NONE
from ..eventlog import copy_log
from ..jit import njit
from ..outside import start_script
from ..parallel import in_chunks
from ..rng import rand_below, seed_stream
from . import learned, table_models
from .engine import play_round
from .recorded import start_record
from .records import LOG_ROWS, LOG_WIDTH, ROUND, SEAT, WORK
from .rules import RULES
from .tricks import resumable
from .variants import (
    KING,
    KING_STREAM,
    MAX_SEATS,
    NANJING,
    TIENTSIN,
    WUWANG,
    n_seats,
    wuwang_player,
)
from .view import PRIVATE, PUBLIC

GAME_KEY_STRIDE = 1 << 16  # round key of round r of game g: g * stride + r
MAX_GAME_ROUNDS = 256  # a game still unfinished then is reported as such


# The settings every chunk of a run shares, one record (a one-element array, ``settings``):
# the scalars and the fixed deal. The variant and ``outside`` are not among them: each entry
# point passes them as constants, so the compiler prunes the other variants' rounds and the
# branches that read decisions from Python.
RUN = np.dtype(
    [
        ("seed", np.uint64),
        ("check", np.bool_),  # verify the RULES.md §7 invariants after every action
        ("logging", np.bool_),  # a call of one unit: log its last round
        ("chained", np.bool_),  # a unit is a game, not one round
        ("rules", RULES),  # the table's rules Options (rules.py)
        ("target", np.int64),  # team games: points that end a game
        ("game_rounds", np.int64),  # Wu Wang games: rounds in a game
        ("fixed_seat", np.int64),  # the seat dealt a fixed hand (-1: none)
        ("fixed_cards", np.uint64),  # its exact cards
        ("fixed_ranks", np.int64, (15,)),  # and how many more of each rank, suits drawn
    ],
    align=True,
)


@njit(cache=True)
def _configure(work, variant, run, params):
    """Load the players' strategies, the table's rules Options and the fixed deal (seat
    ``run.fixed_seat``, -1: none, is dealt ``fixed_cards`` and ``fixed_ranks[r]`` cards of
    each rank r, suits drawn per round, as its first 8) into a work record."""
    work.variant = variant
    work.rules = run.rules
    for s in range(params.shape[0]):
        for j in range(params.shape[1]):
            work.params[s, j] = params[s, j]
    work.logging = run.logging
    work.fixed_seat = run.fixed_seat
    work.fixed_cards = run.fixed_cards
    for r in range(15):
        work.fixed_ranks[r] = run.fixed_ranks[r]


@njit(cache=True)
def first_king(seed, key):
    """The King of a first round (§4: chosen at random), from a stream of its own."""
    _, k = rand_below(seed_stream(np.uint64(seed), np.uint64(key), np.uint64(KING_STREAM)), 3)
    return k


@njit(cache=True)
def _seat_wuwang(work, params, king):
    """Lay the players' strategy rows out by position: the King decides for the Minister."""
    for pos in range(4):
        player = wuwang_player(king, pos)
        row = king if player == 3 else player
        for j in range(params.shape[1]):
            work.params[pos, j] = params[row, j]


@njit(cache=True, inline="always")
def play_one(
    variant, seed, key, first, params, models, work, pub, privs, rnd, seats, check, outside
):
    """One round in the variant ``variant``. ``first`` is the first drawer; in Wu Wang it is the
    King (-1: drawn at random, as in a first round), who sits at position 0 and draws first.
    ``models``: the table's learned models (``table_models.py``), or ``None``.
    (One call of ``play_round``: each call site costs a copy of the engine at compile time.)"""
    king = -1
    if variant == WUWANG:
        king = first if first >= 0 else first_king(seed, key)
        work.king = king
        _seat_wuwang(work, params, king)
        first = KING
    err, nlog = play_round(
        variant, seed, key, first, work, models, pub, privs, rnd, seats, check, outside
    )
    if variant == WUWANG:
        rnd.king = king
    return err, nlog


# A record view (``work[0]``) does not keep its array alive, and numba frees an array right
# after its last use: a function that indexes ``pub[0]`` or ``work[0]`` and never uses the
# array again goes on with freed memory (a segfault once malloc hands it back to the system,
# seen with MALLOC_TRIM_THRESHOLD_ set). Such last uses go through helpers that take the
# arrays as arguments, which live through the call, and index them inside
# (``eventlog.copy_log``).
#
# One entry point per table for every use (independent rounds, fixed deals, whole games, a
# logged round), and one compiled layer between it and the engine (``_play_batch``, ``_unit``
# and ``play_one`` are inlined, the variant a constant in each): numba links and optimises the
# engine again into every jitted function that calls it, so each entry point or wrapper layer
# costs seconds of a cold compile, and an entry point per variant compiles only that variant's
# round. The Python functions below shape the arguments; their scalar types are
# fixed here so that every call finds the one compiled signature.


@njit(cache=True, inline="always")
def _unit(
    variant, run, start, first, params, models, work, pub, privs, rounds_out, seats_out, outside
):
    """One unit of work with the run's settings ``run`` (a ``RUN`` record); returns ``(rounds
    played, log rows of the last round)``. Unchained: the round ``start`` with first drawer
    (Wu Wang: King) ``first``. Chained, a game: team games (§2.15; Tientsin the same, §3) run
    to ``run.target`` points, the first drawer of a round being the previous first out; a Wu
    Wang game (§4) lasts ``run.game_rounds`` rounds: a random first King, then the first
    player out becomes King (the King stays when he or the Minister went out first), or under
    the Option ``rotating_king`` the role passes to the next player each round. Round r has
    key ``start + r``. (One call of ``play_one``: each call site costs a copy of the engine at
    compile time.)"""
    wuwang = variant == WUWANG
    seed, check, chained, target = run.seed, run.check, run.chained, run.target
    limit = 1
    if chained:
        limit = run.game_rounds if wuwang else MAX_GAME_ROUNDS
    total0 = 0
    total1 = 0
    r = 0
    nlog = 0
    if outside and (chained or run.logging or not resumable(work)):
        start_script(work)  # one script per unit: a game's rounds replay together (outside.py)
        work.resume_seat = -1  # replayed from the deal; else on from the kept records
        if work.rec_len > 0:  # a round played from its record writes its script anew
            start_record(work, n_seats(variant))
    while r < limit:
        err, nlog = play_one(
            variant,
            seed,
            start + r,
            first,
            params,
            models,
            work,
            pub,
            privs,
            rounds_out[r],
            seats_out[r],
            check,
            outside,
        )
        r += 1
        if err != ERR_NONE or not chained:
            break
        last = rounds_out[r - 1]
        if wuwang:
            first = last.king
            if run.rules.rotating_king:
                first = (first + 1) % 3
            elif last.first_out % 2 == 1:  # an opponent went out first
                first = wuwang_player(first, last.first_out)
            continue
        total0 += last.score[0]
        total1 += last.score[1]
        first = last.first_out
        if (total0 >= target or total1 >= target) and total0 != total1:
            break
    return r, nlog


@njit(cache=True, inline="always")
def _play_batch(variant, settings, starts, firsts, params, models, out, kept, lo, hi, outside):
    """Play units ``lo..hi`` (``_unit``: round key ``starts[i]``, first drawer ``firsts[i]``)
    in the variant ``variant`` with the run's ``settings`` (``RUN``), the strategy rows
    ``params`` and the table's learned models ``models`` (``table_models.py``: ``None`` when
    no seat plays one, and the entry point then compiles without the network). ``out = (rounds_out,
    seats_out, n_rounds, n_log, log_out)``: unit i into ``rounds_out[i]``, ``seats_out[i]``
    (one record per seat, by position), its count in ``n_rounds[i]``; ``logging`` (a call of
    one unit): the event log of the unit's last round in ``log_out``, its row count in
    ``n_log[lo]``; ``kept``: the chunk's (work, pub, privs) (``kept_records``): a round stepped
    from Python keeps its script there and reads the records where it stopped."""
    rounds_out, seats_out, n_rounds, n_log, log_out = out
    work, pub, privs = kept
    run = settings[0]  # a view: ``settings`` is read again below, which keeps it alive
    _configure(work[0], variant, run, params)
    for i in range(lo, hi):
        n_rounds[i], n_log[i] = _unit(
            variant,
            run,
            starts[i],
            firsts[i],
            params,
            models,
            work[0],
            pub[0],
            privs,
            rounds_out[i],
            seats_out[i],
            outside,
        )
    if settings[0].logging and lo < hi:
        copy_log(work, n_log[lo], log_out)


# The entry points, one per variant (``BATCH``): the same body with the variant a constant.


@njit(cache=True, nogil=True)
def play_batch_nanjing(settings, starts, firsts, params, models, out, kept, lo, hi):
    _play_batch(NANJING, settings, starts, firsts, params, models, out, kept, lo, hi, False)


@njit(cache=True, nogil=True)
def play_batch_tientsin(settings, starts, firsts, params, models, out, kept, lo, hi):
    _play_batch(TIENTSIN, settings, starts, firsts, params, models, out, kept, lo, hi, False)


@njit(cache=True, nogil=True)
def play_batch_wuwang(settings, starts, firsts, params, models, out, kept, lo, hi):
    _play_batch(WUWANG, settings, starts, firsts, params, models, out, kept, lo, hi, False)


# The same entries taking decisions from Python (``outside.py``): compiled only when a round is
# stepped or an Agent plays, so the batch path above keeps the engine without those branches.


@njit(cache=True, nogil=True)
def step_batch_nanjing(settings, starts, firsts, params, models, out, kept, lo, hi):
    _play_batch(NANJING, settings, starts, firsts, params, models, out, kept, lo, hi, True)


@njit(cache=True, nogil=True)
def step_batch_tientsin(settings, starts, firsts, params, models, out, kept, lo, hi):
    _play_batch(TIENTSIN, settings, starts, firsts, params, models, out, kept, lo, hi, True)


@njit(cache=True, nogil=True)
def step_batch_wuwang(settings, starts, firsts, params, models, out, kept, lo, hi):
    _play_batch(WUWANG, settings, starts, firsts, params, models, out, kept, lo, hi, True)


BATCH = {NANJING: play_batch_nanjing, TIENTSIN: play_batch_tientsin, WUWANG: play_batch_wuwang}
STEP = {NANJING: step_batch_nanjing, TIENTSIN: step_batch_tientsin, WUWANG: step_batch_wuwang}


_NO_RANKS = np.zeros(15, np.int64)
NO_RULES = np.zeros(1, RULES)  # every Option off


class Run(NamedTuple):
    """The settings of one batch call: the variant, and the scalars, the table's rules Options
    and the fixed deal that ``settings`` packs into the entry points' ``RUN`` record. The
    Python functions below take one with the arrays."""

    variant: int
    seed: int
    check: bool = False  # verify the RULES.md §7 invariants after every action
    rules: np.ndarray = NO_RULES  # the table's rules Options: a ``rules.RULES`` record
    chained: bool = False  # a unit is a game, not one round (``play_games`` sets it)
    target: int = 0  # team games: points that end a game
    game_rounds: int = 0  # Wu Wang games: rounds in a game
    # a fixed deal: the seat (-1: none) dealt ``fixed_cards`` and ``fixed_ranks[r]`` more
    # cards of each rank r, suits drawn per round, as its first 8 (Tientsin 6), or its hand
    # after or before the passing (``records.FIX_MODE``); the rest at random
    fixed_seat: int = -1
    fixed_cards: int | np.uint64 = 0
    fixed_ranks: np.ndarray = _NO_RANKS

    def settings(self, logging: bool = False) -> np.ndarray:
        """The ``RUN`` record (a one-element array) of these settings; ``logging``: a call of
        one unit that logs its last round."""
        settings = np.zeros(1, RUN)
        for name in RUN.names:
            if name != "logging":
                settings[name] = getattr(self, name)
        settings["logging"] = logging
        return settings


def kept_records():
    """A chunk's (work, pub, privs); a round stepped from Python keeps its own across calls
    (``play_kept``)."""
    work = learned.record(WORK)
    work["resume_seat"] = -1  # no stop kept yet: a stepped round starts from the deal
    return work, np.zeros(1, PUBLIC), np.zeros(MAX_SEATS, PRIVATE)


def copy_kept(kept):
    """A copy of ``kept_records``' records."""
    work, pub, privs = kept
    out = learned.record(WORK, zeroed=False)
    out[...] = work
    return out, pub.copy(), privs.copy()


def _units(array, n: int, *shape):
    """``array`` seen as ``n`` units of ``shape`` (a view: the kernel writes through it)."""
    view = array.view()
    view.shape = (n, *shape)  # raises rather than copy
    return view


def _run(
    run: Run,
    starts,
    firsts,
    params,
    rounds_out,
    seats_out,
    chunks,
    *,
    n_rounds=None,
    log_out=None,
    kept=None,
    stepper=None,
):
    """Call the variant's entry point (``BATCH``) with its one signature's types, the settings
    ``run`` in one ``RUN`` record; returns ``n_log``. With ``stepper`` (strategies taking
    decisions from Python) each unit ``i`` is played by ``stepper(i, play)``, ``play(kept)``
    calling the entry point for that unit alone with the caller's records ``kept``
    (``kept_records``) and returning its error code."""
    n = len(starts)
    n_rounds = np.zeros(n, np.int64) if n_rounds is None else n_rounds
    n_log = np.zeros(n, np.int64)
    params, models = table_models.table(params)  # refuses a learned seat without its model
    settings = run.settings(logging=log_out is not None)
    log_out = np.zeros((0, LOG_WIDTH), np.int64) if log_out is None else log_out
    args = _arguments(
        settings, starts, firsts, params, models, (rounds_out, seats_out, n_rounds, n_log, log_out)
    )
    if stepper is None:
        kernel = BATCH[run.variant] if kept is None else STEP[run.variant]
        in_chunks(kernel, n, chunks, *args, scratch=lambda: (kept or kept_records(),))
        return n_log
    kernel, errors = STEP[run.variant], rounds_out["error"]
    logging = run.settings(logging=True)
    for i in range(n):

        def play(kept, log_out=None, i=i):
            if log_out is None:
                kernel(*args, kept, i, i + 1)
                return int(errors[i, n_rounds[i] - 1])
            # a replay with its event log on (a View's history), on records of its own
            one = (rounds_out[i : i + 1].copy(), seats_out[i : i + 1].copy())
            counts = (np.zeros(1, np.int64), np.zeros(1, np.int64))
            unit = (args[1][i : i + 1], args[2][i : i + 1], args[3], args[4])
            kernel(logging, *unit, (*one, *counts, log_out), kept, 0, 1)
            return int(one[0]["error"][0, counts[0][0] - 1])

        stepper(i, play)
    return n_log


def _arguments(settings, starts, firsts, params, models, out):
    """The entry points' arguments before the chunk's records and bounds, with the types of
    their compiled signatures: the ``RUN`` record ``settings``, the units' round keys and
    first drawers, the strategies and their models (``table_models.table``: a 2-d ``float32``
    array, or ``None`` at a table without a learned seat, the one signature without the
    network), and ``out = (rounds_out, seats_out, n_rounds, n_log, log_out)``."""
    return (
        settings,
        np.asarray(starts, np.int64),
        np.asarray(firsts, np.int64),
        np.ascontiguousarray(params, np.float64),
        models,
        out,
    )


def play_rounds(run: Run, keys, firsts, params, rounds_out, seats_out, chunks, *, stepper=None):
    """Play round ``keys[i]`` with first drawer (Wu Wang: King, -1 drawn) ``firsts[i]`` into
    ``rounds_out[i]``, ``seats_out[i]`` (one record per seat, by position), with the settings
    ``run`` (its fixed deal, if any, in every round)."""
    n = len(keys)
    _run(
        run,
        keys,
        firsts,
        params,
        _units(rounds_out, n, 1),
        _units(seats_out, n, 1, seats_out.shape[-1]),
        chunks,
        stepper=stepper,
    )


def play_games(run: Run, games, params, rounds_out, seats_out, n_rounds, chunks, *, stepper=None):
    """Play games ``games[g]``: rounds of game g go to ``rounds_out[g, :n_rounds[g]]``. Team
    games run to ``run.target`` points; Wu Wang games last ``run.game_rounds`` rounds, the
    King's role moving on as the table's rules say (§4)."""
    games = np.asarray(games, np.int64)
    firsts = np.full(len(games), -1 if run.variant == WUWANG else 0, np.int64)  # Wu Wang: drawn
    _run(
        run._replace(chained=True),
        games * GAME_KEY_STRIDE,
        firsts,
        params,
        rounds_out,
        seats_out,
        chunks,
        n_rounds=n_rounds,
        stepper=stepper,
    )


def play_logged(run: Run, key, first, params, kept=None):
    """One round with its event log (for transcripts and replays); seat records by position;
    ``kept``: a round stepped from Python (``play_kept``), logged as far as its script goes."""
    rnd = np.zeros((1, 1), ROUND)
    seats = np.zeros((1, 1, n_seats(run.variant)), SEAT)
    log = np.zeros((LOG_ROWS, LOG_WIDTH), np.int64)
    n_log = _run(run, [key], [first], params, rnd, seats, 1, log_out=log, kept=kept)
    return rnd[0], seats[0, 0], log[: min(n_log[0], LOG_ROWS)].copy(), int(rnd[0, 0]["error"])


def play_kept(run: Run, key, first, params, kept, rnd, seats):
    """Round ``key`` into ``rnd`` (``(1, 1)`` records) and ``seats`` (``(1, 1, seats)``) with the
    caller's ``kept = kept_records()``: its script is read (``outside.py``) and the records are left
    where the round stopped, so a caller reads the decision awaited in ``kept[0][0].asked``.
    Returns the round's error code."""
    return kept_player(run, key, first, params, rnd, seats)(kept)


def kept_player(run: Run, key, first, params, rnd, seats):
    """``play(kept)``: ``play_kept`` for one round stepped from Python, its arguments built
    once and the variant's stepping entry called directly at every step. A round stepped
    from Python calls it once per decision, so what a batch call costs in Python around the
    kernel (building the settings, the chunks, the threads) would outweigh the round's own
    work; on a cold cache the first call compiles the entry on this thread, as ``in_chunks``
    does."""
    n_rounds, n_log = np.zeros(1, np.int64), np.zeros(1, np.int64)
    no_log = np.zeros((0, LOG_WIDTH), np.int64)
    params, models = table_models.table(params)
    out = (rnd, seats, n_rounds, n_log, no_log)
    args = _arguments(run.settings(), [key], [first], params, models, out)
    kernel, errors = STEP[run.variant], rnd["error"]

    def play(kept):
        kernel(*args, kept, 0, 1)
        return int(errors[0, 0])

    return play
