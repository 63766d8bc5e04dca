"""Labelled decisions: rounds played by a behaviour strategy, some of their plays and bomb
answers valued by rolling every answer out on the round's true cards, jitted.

The learned player's training data. Round ``key`` is played with a behaviour strategy row at
every seat, the team engine as the batch plays it, except that its plays (``outside.D_PLAY``)
and bomb answers (``D_BOMB``) are marked as taken outside (``outside.py``): the round stops at
each with its answers in the work record's buffers, the behaviour's answer is the engine's
(``decide.decide``, the seat's stream moved on as the engine moves it) and the round goes on
from the records it left (``tricks.resume_point``). So with nothing labelled and nothing
explored the round is the batch engine's round, byte for byte.

At a stop with two answers or more (the plays listed by the engine, then the pass when passing
is allowed; the bombs offered, then no bomb), a draw from the round's own stream (``seed_stream
(seed, key, LABEL_STREAM)``) labels it with probability ``label_rate``: from the round's true
state (every hand, every seat's stream), each candidate (all of them, or ``max_candidates``
drawn at random that always hold the behaviour's answer) is answered and the round played out
to its end with the rollout strategy rows (``rollout.play_candidate``: the search's rollouts, here
on the true deal), and scored by ``scoring.round_score`` (RULES.md §2.13, §2.14, §3, §4). A
candidate's label is the deciding seat's team score minus the other team's, over 100. All
candidates start from the same records, streams included: their differences are paired. Then
the round goes on with the behaviour's answer, or with probability ``explore`` (a draw from
the same stream) with a candidate drawn uniformly. The data are a function of (seed, round
key, strategies, settings) only, whatever the chunking.

A labelled decision is written as the seat saw it: the table's ``PUBLIC`` record and the
seat's ``PRIVATE`` record at the stop (RULES.md §6), the decision code, its candidates' masks
and codes (0 and 0 for a pass or no bomb), their values and the index of the behaviour's
answer among them. Rollouts play with the rollout ``WORK`` record of ``scratch()`` (the search's
``rollout.scratch``), the behaviour with its own; the learned models of both come as one
argument beside their rows (``strategies``, ``table_models.models_for``). One entry per table
(``LABEL``), each with its variant a constant, as the batch entries are (``batch.py``).
Serial, ``nogil``.
"""

import numpy as np

from ..bits import U64, ZERO
from ..errors import ERR_NONE, ERR_PENDING, ERR_STRATEGY
from ..jit import njit
from ..moves import MAX_MOVES
from ..outside import D_BOMB, D_PLAY, start_script
from ..rng import next_u64, rand_below, rand_float, seed_stream
from . import learned, rollout
from .batch import play_one
from .decide import decide
from .decide import scratch as decide_scratch
from .records import N_PARAMS, ROUND, SEAT, WORK
from .resample import NO_DEAL, search_deal
from .rollout import play_candidate
from .rules import RULES
from .slots import P_OUTSIDE
from .variants import KING_STREAM, MAX_SEATS, NANJING, TIENTSIN, WUWANG, n_seats
from .view import PRIVATE, PUBLIC

# the round's stream of labelling and exploring draws: above every seat's (1 + player) and the
# King's (``variants.KING_STREAM``)
LABEL_STREAM = KING_STREAM + 1
# the decisions a behaviour row leaves to the labelling loop (``outside.taken_outside``)
STOPS = (1 << D_PLAY) | (1 << D_BOMB)

# The settings of one labelling call (a one-element array), as a batch's come in ``batch.RUN``.
LABELS = np.dtype(
    [
        ("seed", np.uint64),  # the run's seed: round ``key``'s streams are (seed, key, ...)
        ("label_rate", np.float64),  # the share of decisions labelled
        ("max_candidates", np.int64),  # candidates rolled out per decision (0: every one)
        ("explore", np.float64),  # the share of decisions answered by a random candidate
        # deals a label averages: 0 the true deal alone; k the search's k deals that agree
        # with the seat's view (``resample.search_deal``), the label their mean
        ("samples", np.int64),
        ("rules", RULES),  # the table's rules Options (rules.py)
    ],
    align=True,
)


def scratch():
    """The buffers of one caller, allocated once and reused: the behaviour's records (work
    record, table, seats, round, the decide scratch, the candidates drawn) and the rollouts'
    (``rollout.scratch``)."""
    work = learned.record(WORK)
    work["resume_seat"] = -1
    own = (
        work,
        np.zeros(1, PUBLIC),
        np.zeros(MAX_SEATS, PRIVATE),
        np.zeros(1, ROUND),
        np.zeros(MAX_SEATS, SEAT),
        decide_scratch(),
        np.zeros(MAX_MOVES + 1, np.int64),
        np.zeros(1, PRIVATE),  # the deciding seat's record, when deals are drawn for it
    )
    return own, rollout.scratch()


def rows(behaviour, rollout_row):
    """The entries' strategy rows from one row each: ``behaviour`` at every seat with the plays
    and bomb answers left to the labelling loop (``STOPS``), ``rollout_row`` at every seat."""
    b = np.ascontiguousarray(np.tile(np.asarray(behaviour, np.float64), (MAX_SEATS, 1)))
    if b[0, P_OUTSIDE] != 0:
        raise ValueError("the behaviour strategy takes decisions from Python: not a kernel row")
    b[:, P_OUTSIDE] = STOPS
    r = np.ascontiguousarray(np.tile(np.asarray(rollout_row, np.float64), (MAX_SEATS, 1)))
    if r[0, P_OUTSIDE] != 0:
        raise ValueError("the rollout strategy takes decisions from Python: not a kernel row")
    return b, r


def outputs(decisions, candidates):
    """Empty output buffers for up to ``decisions`` labelled decisions and ``candidates``
    candidates: ``(round, seat, decision, public, private, start, masks, codes, values,
    chosen)``, ``start[d]`` the first candidate of decision ``d``."""
    return (
        np.zeros(decisions, np.int64),
        np.zeros(decisions, np.int8),
        np.zeros(decisions, np.int8),
        np.zeros(decisions, PUBLIC),
        np.zeros(decisions, PRIVATE),
        np.zeros(decisions + 1, np.int64),
        np.zeros(candidates, np.uint64),
        np.zeros(candidates, np.int64),
        np.zeros(candidates, np.float32),
        np.zeros(decisions, np.int16),
    )


@njit(cache=True, inline="always")
def _load(variant, settings, behaviour, rollout_rows, w, roll):
    """The strategies and the rules Options into both work records, no log, no fixed deal."""
    w.variant = variant
    w.rules = settings.rules
    w.logging = False
    w.fixed_seat = -1
    roll.variant = variant
    roll.rules = settings.rules
    roll.logging = False
    roll.fixed_seat = -1
    for s in range(MAX_SEATS):
        for j in range(N_PARAMS):
            w.params[s, j] = behaviour[s, j]
            roll.params[s, j] = rollout_rows[s, j]


@njit(cache=True, inline="always")
def _draw(state, count, b, k, pick):
    """``k`` of the ``count`` candidates, ``b`` among them, into ``pick[:k]`` in increasing
    order: the others drawn uniformly (a partial Fisher-Yates). Returns the stream."""
    if k >= count:
        for i in range(count):
            pick[i] = i
        return state
    m = 0
    for i in range(count):
        if i != b:
            pick[m] = i
            m += 1
    for i in range(k - 1):
        state, j = rand_below(state, m - i)
        t = pick[i]
        pick[i] = pick[i + j]
        pick[i + j] = t
    pick[k - 1] = b
    pick[:k].sort()
    return state


@njit(cache=True, inline="always")
def _label(
    variant, key, seat, decision, listed, b, window, state, k, samples, out, at, own, sc, models
):
    """Label ``seat``'s ``decision`` whose true state is in ``sc``'s base records: ``listed =
    (masks, codes, n, count)``, the ``n`` answers the engine listed then, up to ``count``, the
    pass or no bomb; ``b`` the behaviour's answer among them; ``k`` candidates drawn
    (``_draw``), each rolled out (``rollout.play_candidate``, ``window`` the bomb window's opener
    or -1) on the true deal, or on each of ``samples`` deals that agree with the seat's view
    (the mean), and written at ``at = (decisions, candidates)`` written so far. Returns ``(error,
    full, stream)``: ``full`` when the output has no room left for it."""
    o_round, o_seat, o_decision, o_public, o_private, o_start, o_m, o_c, o_v, o_chosen = out
    ms, cs, n, count = listed
    pick = own[6]
    base_pub, base_privs = sc[5], sc[6]
    nd, nc = at
    k = min(k, count)
    if nd + 1 > o_round.shape[0] or nc + k > o_m.shape[0]:
        return ERR_NONE, True, state
    state = _draw(state, count, b, k, pick)
    o_round[nd] = key
    o_seat[nd] = seat
    o_decision[nd] = decision
    o_public[nd] = base_pub[0]
    o_private[nd] = base_privs[seat]
    o_start[nd] = nc
    for i in range(k):
        c = pick[i]
        o_m[nc + i] = ms[c] if c < n else ZERO
        o_c[nc + i] = cs[c] if c < n else 0
        o_v[nc + i] = 0.0
        if c == b:
            o_chosen[nd] = i
    if samples == 0:  # the true deal
        err = _roll_all(variant, sc, models, seat, n, window, pick, k, o_v[nc : nc + k])
        if err != ERR_NONE:
            return err, False, state
    else:  # the search's deals, drawn for this decision from the round's label stream
        me = own[7]
        me[0] = base_privs[seat]
        params = sc[0][0].params  # the calls are inferred with the rollouts' strategies
        state, search_seed = next_u64(state)
        dealt = 0
        for d in range(samples):
            status = search_deal(
                variant, base_pub[0], me[0], base_privs, sc[7], sc[8], search_seed, d, params, True
            )
            if status != NO_DEAL:
                dealt += 1
                err = _roll_all(variant, sc, models, seat, n, window, pick, k, o_v[nc : nc + k])
                if err != ERR_NONE:
                    return err, False, state
        if dealt == 0:  # never: the true deal agrees with the view
            return ERR_STRATEGY, False, state
        for i in range(k):
            o_v[nc + i] /= dealt
    o_start[nd + 1] = nc + k
    return ERR_NONE, False, state


@njit(cache=True, inline="always")
def _roll_all(variant, sc, models, seat, n, window, pick, k, values):
    """Add each of the ``k`` picked candidates' rollout on the deal in ``sc``'s base records
    to ``values``: the deciding seat's team score minus the other team's, over 100."""
    for i in range(k):
        c = pick[i]
        answer = c if c < n else -1
        err, t0, t1, _ = play_candidate(variant, sc, models, seat, answer, window)
        if err != ERR_NONE:
            return err
        margin = (t0 - t1) if seat % 2 == 0 else (t1 - t0)
        values[i] += np.float32(margin / 100.0)
    return ERR_NONE


@njit(cache=True, inline="always")
def _stop(variant, settings, key, asked, listed, window, state, at, out, own, sc, models):
    """The stop at ``asked = (decision, seat, detail)`` with ``listed = (masks, codes, n,
    count)``: the true state kept in ``sc``'s base records, the behaviour's answer, the label
    (drawn), the exploration (drawn). Returns ``(error, full, answer, stream, decisions,
    candidates)``."""
    decision, seat, detail = asked
    ms, cs, n, count = listed
    privs = own[2]
    base_pub, base_privs = sc[5], sc[6]
    nd, nc = at
    # the table as the seat sees it, before its strategy moves its stream on
    base_pub[0] = own[1][0]
    for s in range(n_seats(variant)):
        base_privs[s] = privs[s]
    w = own[0][0]
    answer = decide(
        w.params[seat], models, own[1], privs[seat : seat + 1], decision, detail, ms, cs, n, own[5]
    )
    if answer < -1 or answer >= n or (answer == -1 and count == n):
        return ERR_STRATEGY, False, answer, state, nd, nc
    if count < 2:
        return ERR_NONE, False, answer, state, nd, nc
    state, u = rand_float(state)
    if u < settings.label_rate:
        k = settings.max_candidates
        b = answer if answer >= 0 else n
        err, full, state = _label(
            variant,
            key,
            seat,
            decision,
            listed,
            b,
            window,
            state,
            k if k > 0 else count,
            settings.samples,
            out,
            at,
            own,
            sc,
            models,
        )
        if err != ERR_NONE or full:
            return err, full, answer, state, nd, nc
        nd += 1
        nc = out[5][nd]
    state, u = rand_float(state)
    if u < settings.explore:
        state, j = rand_below(state, count)
        answer = j if j < n else -1
    return ERR_NONE, False, answer, state, nd, nc


@njit(cache=True, inline="always")
def _round(variant, settings, key, first, behaviour, models, out, at, own, sc):
    """Round ``key`` (first drawer, Wu Wang King, ``first``) played by the behaviour rows with
    its decisions labelled into ``out`` from ``at = (decisions, candidates)`` on. Returns
    ``(error, full, decisions, candidates)``; the round's records are left in ``own``."""
    work, pub, privs, rnd, seats = own[0], own[1], own[2], own[3], own[4]
    w = work[0]
    seed = settings.seed
    nd, nc = at
    start_script(w)
    w.script_len = 0
    w.resume_seat = -1  # from the deal
    state = seed_stream(U64(seed), U64(key), U64(LABEL_STREAM))
    while True:
        err, _ = play_one(
            variant,
            seed,
            key,
            first,
            behaviour,
            models,
            w,
            pub[0],
            privs,
            rnd[0],
            seats,
            False,
            True,
        )
        if err != ERR_PENDING:
            return err, False, nd, nc
        decision, seat, detail, n = w.asked[0], w.asked[1], w.asked[2], w.asked[3]
        asked = (decision, seat, detail)
        if decision == D_PLAY:  # the plays listed, then the pass when allowed
            listed = (w.moves_m, w.moves_c, n, n + 1 if detail != 0 else n)
            err, full, answer, state, nd, nc = _stop(
                variant, settings, key, asked, listed, -1, state, (nd, nc), out, own, sc, models
            )
        elif decision == D_BOMB:  # the bombs offered, then none
            listed_b = (w.bombs_m, w.bombs_c, n, n + 1)
            window = w.resume_window
            err, full, answer, state, nd, nc = _stop(
                variant,
                settings,
                key,
                asked,
                listed_b,
                window,
                state,
                (nd, nc),
                out,
                own,
                sc,
                models,
            )
        else:
            return ERR_STRATEGY, False, nd, nc
        if err != ERR_NONE or full:
            return err, full, nd, nc
        # the answer the engine goes on with (``tricks.resume_point``), the seat's stream as
        # its strategy left it
        w.script_pos = 0
        w.script[0] = answer
        w.script_rng[0] = privs[seat].rng
        w.script_len = 1


@njit(cache=True, inline="always")
def _label_rounds(variant, settings, keys, firsts, strategies, out, scores, own, sc, lo, hi):
    """Rounds ``keys[lo:hi]`` (first drawers ``firsts``) labelled into ``out`` from its start,
    each round's two team scores into ``scores[i]``; ``strategies = (behaviour, rollout,
    models)``: the rows (``rows``) and the learned models both name (``table_models.py``, or
    ``None``). Stops before a round whose decisions the output has no room for. Returns
    ``(rounds done, decisions, candidates, error)``: an error stops at its round."""
    behaviour, rollout_rows, models = strategies
    run = settings[0]
    _load(variant, run, behaviour, rollout_rows, own[0][0], sc[0][0])
    nd = 0
    nc = 0
    out[5][0] = 0
    for i in range(lo, hi):
        err, full, d, c = _round(
            variant, run, keys[i], firsts[i], behaviour, models, out, (nd, nc), own, sc
        )
        if err != ERR_NONE or full:
            return i - lo, nd, nc, err
        scores[i, 0] = own[3][0].score[0]
        scores[i, 1] = own[3][0].score[1]
        nd = d
        nc = c
    return hi - lo, nd, nc, ERR_NONE


# The entries, one per variant (``LABEL``), each with its variant a constant as the batch
# entries are: ``settings`` a ``LABELS`` record, ``strategies = (*rows(...), models)``, ``out =
# outputs(...)``, ``scores`` (rounds, 2), ``own, sc = scratch()``.


@njit(cache=True, nogil=True)
def label_nanjing(settings, keys, firsts, strategies, out, scores, own, sc, lo, hi):
    """``_label_rounds`` for Nanjing."""
    return _label_rounds(NANJING, settings, keys, firsts, strategies, out, scores, own, sc, lo, hi)


@njit(cache=True, nogil=True)
def label_tientsin(settings, keys, firsts, strategies, out, scores, own, sc, lo, hi):
    """``_label_rounds`` for Tientsin."""
    return _label_rounds(TIENTSIN, settings, keys, firsts, strategies, out, scores, own, sc, lo, hi)


@njit(cache=True, nogil=True)
def label_wuwang(settings, keys, firsts, strategies, out, scores, own, sc, lo, hi):
    """``_label_rounds`` for Wu Wang."""
    return _label_rounds(WUWANG, settings, keys, firsts, strategies, out, scores, own, sc, lo, hi)


LABEL = {NANJING: label_nanjing, TIENTSIN: label_tientsin, WUWANG: label_wuwang}

__all__ = ["LABEL", "LABELS", "LABEL_STREAM", "STOPS", "outputs", "rows", "scratch"]
