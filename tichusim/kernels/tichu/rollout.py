"""Rounds played on from a decision, with the unseen cards dealt anew: a search's rollouts, jitted.

A seat's view at a decision (RULES.md §6) leaves the other seats' hands unknown; each rollout
deals them anew among the deals that agree with the view (``resample.py``). ``play_on`` plays
a round on from such a state to its end with the strategies loaded in the work record
(``tricks.tricks_from``), the first answer given in advance (``forced``), and
``scoring.round_score`` scores it as the engine's round end does (§2.13, §2.14, §3).
``evaluate_*`` does both for a search of a play, a bomb out of turn or a Tichu call (after
the passing or before a turn: the call set, the play goes on from the question,
``after_passing``), or plays whole rounds from the deal for a Grand Tichu call (``_grand``):
for each of ``samples`` deals (deal ``k`` drawn from the stream ``seed_stream(seed, k, 0)``,
``resample.search_deal``), every candidate answer is played out from the same deal with the
same decision streams for every seat (``seed_stream(seed, k, 1 + seat)``), so the
candidates' results are paired; ``margin[c, k]`` is the deciding seat's team score minus the
other team's and ``first[c, k]`` whether its team had the first player out. The search's
settings come in one ``SEARCH`` record, as a batch's come in ``batch.RUN``; one entry per
table (``EVALUATE``), each with its variant a constant, as the batch entries are
(``batch.py``). Serial: the result is the same bytes whatever the threads.
"""

import numpy as np

from ..bits import U64, ZERO
from ..errors import ERR_MOVES, ERR_NONE, ERR_STRATEGY
from ..jit import njit
from ..moves import MAX_MOVES, gen_bombs, legal_moves
from ..outside import D_BOMB, D_GRAND_TICHU, D_PLAY, D_TICHU
from ..refs import borrow
from . import learned, policies
from .engine import play_round
from .records import MAX_BOMBS, ROUND, SEAT, WORK
from .resample import DEALT, NO_DEAL, UNTOLD, search_deal
from .scoring import close_play, round_score
from .slots import P_GRAND_TICHU
from .tricks import NOT_FORCED, TICHU_ANSWERED, armed_seats, trick_start, tricks_from
from .variants import MAX_SEATS, NANJING, TIENTSIN, WUWANG, n_seats
from .view import PRIVATE, PUBLIC

ERR_CANDIDATE = -1  # ``evaluate_*``: a candidate that is not among the seat's legal answers
ERR_NO_DEAL = -2  # ``evaluate_*``: no consistent deal found in any sample
CALL = 1  # ``evaluate_*`` at a Tichu question: the candidate that calls (0: does not)


def scratch():
    """The buffers of one ``evaluate_*`` caller, allocated once and reused: the work record,
    the table and seats a rollout plays on, the state every candidate starts from, the dealt
    hands, the unseen cards, the candidates' answers."""
    return (
        learned.record(WORK),
        np.zeros(1, PUBLIC),
        np.zeros(MAX_SEATS, PRIVATE),
        np.zeros(1, ROUND),
        np.zeros(MAX_SEATS, SEAT),
        np.zeros(1, PUBLIC),
        np.zeros(MAX_SEATS, PRIVATE),
        np.zeros(MAX_SEATS, np.uint64),
        np.zeros(56, np.int64),
        np.zeros(MAX_MOVES + 1, np.int64),
    )


@njit(cache=True, inline="always")
def _resume(variant, work, models, pub, privs, rnd, seats, seat, forced, window):
    """Play on from the state at ``seat``'s decision (``tricks.tricks_from``: its play, or its
    answer in the bomb window opened by ``window``) to the round's end, without log, check or
    Python. Returns ``(error, team 0 score, team 1 score, first out)``."""
    privs = borrow(privs)
    seats = borrow(seats)
    work.logging = False
    work.fixed_seat = -1
    armed = armed_seats(n_seats(variant), privs)
    at = (seat, armed, forced, window)
    err, victory, _ = tricks_from(
        variant, work, models, pub, privs, rnd, seats, False, 0, False, at
    )
    if err == ERR_NONE:
        err = close_play(variant, work, pub, privs, rnd, seats, victory)
    if err != ERR_NONE:
        return err, 0, 0, -1
    _, _, t0, t1 = round_score(variant, pub, privs, victory)
    return ERR_NONE, t0, t1, pub.out_order[0]


@njit(cache=True)
def _resume_nanjing(work, models, pub, privs, rnd, seats, seat, forced, window):
    return _resume(NANJING, work, models, pub, privs, rnd, seats, seat, forced, window)


@njit(cache=True)
def _resume_tientsin(work, models, pub, privs, rnd, seats, seat, forced, window):
    return _resume(TIENTSIN, work, models, pub, privs, rnd, seats, seat, forced, window)


@njit(cache=True)
def _resume_wuwang(work, models, pub, privs, rnd, seats, seat, forced, window):
    return _resume(WUWANG, work, models, pub, privs, rnd, seats, seat, forced, window)


@njit(cache=True, inline="always")
def play_on(variant, work, models, pub, privs, rnd, seats, seat, forced, window):
    """Play on from the state at ``seat``'s decision to the round's end (``_resume``), compiled
    once per table: with ``variant`` a constant the other branches go. Returns ``(error,
    team 0 score, team 1 score, first out)``."""
    if variant == TIENTSIN:
        return _resume_tientsin(work, models, pub, privs, rnd, seats, seat, forced, window)
    if variant == WUWANG:
        return _resume_wuwang(work, models, pub, privs, rnd, seats, seat, forced, window)
    return _resume_nanjing(work, models, pub, privs, rnd, seats, seat, forced, window)


@njit(cache=True)
def last_actor(pub):
    """Whose play or pass opened the bomb window the table is in (§2.9): the top's player
    when nobody has passed since, else the last of the seats that passed after it in turn
    order (passes follow the top in turn order)."""
    n = pub.n_players
    actor = pub.top_seat
    q = pub.top_seat
    for _ in range(n - 1):
        q = q + 1 if q + 1 < n else 0
        if pub.passed >> q & 1:
            actor = q
    return actor


@njit(cache=True)
def _match(ms, cs, n, can_pass, cand_m, cand_c, out):
    """Each candidate's index among the ``n`` answers ``ms``/``cs`` (-1: pass or no bomb,
    when ``can_pass``); ``ERR_CANDIDATE`` for one that is not there."""
    for c in range(cand_m.shape[0]):
        out[c] = -2
        if cand_m[c] == ZERO:
            if can_pass:
                out[c] = -1
        else:
            for i in range(n):
                if ms[i] == cand_m[c] and cs[i] == cand_c[c]:
                    out[c] = i
                    break
        if out[c] == -2:
            return ERR_CANDIDATE
    return ERR_NONE


@njit(cache=True)
def _calls(detail, cand_m, out):
    """At a Tichu question (``detail``: its point, §2.3) each candidate's answer, ``CALL`` or
    0; ``ERR_CANDIDATE`` for any other. Only the questions after the passing and before a
    turn are searched: before the passing the rollouts would have to play the passing too."""
    if detail != policies.TICHU_AFTER_PASSING and detail != policies.TICHU_BEFORE_TURN:
        return ERR_STRATEGY
    for c in range(cand_m.shape[0]):
        if cand_m[c] != ZERO and cand_m[c] != U64(CALL):
            return ERR_CANDIDATE
        out[c] = np.int64(cand_m[c])
    return ERR_NONE


@njit(cache=True)
def after_passing(variant, params, pub, privs, seat):
    """From seat ``seat``'s Tichu question after the passing, answered: the seats after it in
    the order of calls (from the first drawer) answer theirs with their strategies (§2.3),
    then the play starts (``tricks.trick_start``). Returns the seat that leads."""
    n = n_seats(variant)
    asked = False
    for i in range(n):
        s = (pub.first_drawer + i) % n
        if asked and pub.grand_tichu[s] == 0 and pub.tichu[s] == 0:
            if policies.tichu(params[s], pub, privs[s], policies.TICHU_AFTER_PASSING):
                pub.tichu[s] = 1
        asked = asked or s == seat
    turn, _ = trick_start(variant, pub, privs)
    return turn


@njit(cache=True)
def _answers(pub, me, decision, cand_m, cand_c, out, work):
    """The engine's answer for each candidate (``cand_m[c]`` 0: pass or no bomb): its index
    among the seat's legal plays (``legal_moves``, a led Phoenix at the table's value) or the
    bombs offered it (``gen_bombs``), as ``tricks_from`` takes a forced answer. Returns an
    error: ``ERR_CANDIDATE`` for a candidate not among them."""
    if decision == D_PLAY:
        n, can_pass = legal_moves(
            me.hand, pub.top_code, policies.binding_wish(pub, me.seat), work.moves_m, work.moves_c
        )
        if n > work.moves_m.shape[0]:
            return ERR_MOVES
        if pub.top_code == 0:
            policies.value_led_phoenix(pub, work.moves_m, work.moves_c, n)
        return _match(work.moves_m, work.moves_c, n, can_pass, cand_m, cand_c, out)
    if decision == D_BOMB:
        n = min(gen_bombs(me.hand, pub.top_code, work.bombs_m, work.bombs_c, 0), MAX_BOMBS)
        return _match(work.bombs_m, work.bombs_c, n, 1, cand_m, cand_c, out)
    return ERR_STRATEGY


GRAND_TRIES = 50  # deals tried for one where the seats before agree with their Grand Tichu


@njit(cache=True, inline="always")
def _fix_first_cards(variant, w, vp, me):
    """Deal ``me`` its first cards in every round the work record ``w`` plays (the engine's
    fixed deal), the table's rules Options and no log. Returns the bitmask of the seats that
    answer the Grand Tichu question before ``me`` (§2.2: in turn order from the first drawer)."""
    seat = me.seat
    n = n_seats(variant)
    w.variant = variant
    w.rules = vp.rules
    w.logging = False
    w.fixed_seat = seat
    w.fixed_cards = me.hand
    for r in range(15):
        w.fixed_ranks[r] = 0
    before = 0
    for i in range(n):
        s = (vp.first_drawer + i) % n
        if s == seat:
            break
        before |= 1 << s
    return before


@njit(cache=True, inline="always")
def _agreeing_round(variant, sc, models, vp, seed, key, k, before):
    """Play the round of key ``key`` (a deal found for an earlier candidate) or, with ``key``
    -1, the rounds of keys ``k * GRAND_TRIES + t`` until every seat in ``before`` answered the
    Grand Tichu question as the view says it did. Returns ``(error, the key played, -1 when
    it disagreed)``."""
    work, pub, privs, rnd, seats, _, _, _, _, _ = sc
    n = n_seats(variant)
    tries = 1 if key >= 0 else GRAND_TRIES
    for t in range(tries):
        kk = key if key >= 0 else k * GRAND_TRIES + t
        err, _ = play_round(
            variant,
            seed,
            kk,
            vp.first_drawer,
            work[0],
            models,
            pub[0],
            privs,
            rnd[0],
            seats,
            False,
            False,
        )
        if err != ERR_NONE:
            return err, -1
        agreed = True
        for s in range(n):
            if before >> s & 1 and seats[s].grand_tichu != (vp.grand_tichu[s] == 1):
                agreed = False
        if agreed:
            return ERR_NONE, kk
    return ERR_NONE, -1


@njit(cache=True, inline="always")
def _grand(variant, params, models, view_pub, view_me, cand_m, samples, seed, results, sc):
    """A search of seat ``me``'s Grand Tichu call (§2.2) on the first cards it holds: deal
    ``k`` gives the other seats the rest of the deck (the round ``seed_stream(seed, key, 0)``
    deals, ``me``'s first cards fixed: the engine's fixed deal), and the round is played
    from the deal to its end once per candidate (``CALL`` or 0: ``me``'s Grand Tichu policy
    set to always or never), every other decision the strategies' ``params``. A deal counts
    only when every seat that answered before ``me`` answered as it did (up to
    ``GRAND_TRIES`` keys per deal: uniform among the deals that agree, those calls being
    their strategies'). Returns ``(deals played, error)``."""
    work, _, _, rnd, _, _, _, _, _, answers = sc
    margin, first = results
    w = work[0]
    vp = view_pub[0]
    seat = view_me[0].seat
    n = n_seats(variant)
    err = _calls(policies.TICHU_BEFORE_TURN, cand_m, answers)  # a call or none
    if err != ERR_NONE:
        return 0, err
    before = _fix_first_cards(variant, w, vp, view_me[0])
    dealt = 0
    for k in range(samples):
        key = -1
        for c in range(cand_m.shape[0]):
            for s in range(n):
                for j in range(params.shape[1]):
                    w.params[s, j] = params[s, j]
            w.params[seat, P_GRAND_TICHU] = (
                policies.CALL_ALWAYS if answers[c] == CALL else policies.CALL_NEVER
            )
            err, found = _agreeing_round(variant, sc, models, vp, seed, key, k, before)
            if err != ERR_NONE:
                return dealt, err
            if found < 0:
                margin[c, k] = np.nan
                first[c, k] = -1
                continue
            key = found
            t0 = rnd[0].score[0]
            t1 = rnd[0].score[1]
            margin[c, k] = (t0 - t1) if seat % 2 == 0 else (t1 - t0)
            first[c, k] = 1 if rnd[0].first_out % 2 == seat % 2 else 0
        if key >= 0:
            dealt += 1
    w.fixed_seat = -1
    if dealt == 0 and samples > 0:
        return 0, ERR_NO_DEAL
    return dealt, ERR_NONE


UNPAIRED = 1  # ``ablate`` bit: every candidate on deals of its own (to measure the pairing)
NO_INFERENCE = 2  # ``ablate`` bit: deals ignore ``lacks`` (to measure what inference adds)

# The settings of one search (a one-element array), as the batch entries take theirs (``RUN``).
SEARCH = np.dtype(
    [
        ("decision", np.int64),  # the decision searched (``outside.D_*``)
        ("detail", np.int64),  # at a Tichu question, its point (§2.3)
        ("samples", np.int64),  # deals to play
        ("seed", np.uint64),  # deal k and the seats' streams: ``seed_stream(seed, k, ...)``
        ("ablate", np.int64),  # ``UNPAIRED`` | ``NO_INFERENCE``: an ingredient switched off
    ],
    align=True,
)


@njit(cache=True, inline="always")
def _start(variant, params, view_pub, view_me, decision, detail, candidates, sc, ablate):
    """Load the strategies and the table's rules Options into the work record, copy the view's
    table into the base every deal starts from (without the ranks the seats are known to lack
    under ``NO_INFERENCE``) and find each candidate's answer. Returns the error code."""
    work, _, _, _, _, base_pub, _, _, _, answers = sc
    cand_m, cand_c = candidates
    w = work[0]
    w.variant = variant
    w.rules = view_pub[0].rules
    for s in range(n_seats(variant)):
        for j in range(params.shape[1]):
            w.params[s, j] = params[s, j]
    base_pub[0] = view_pub[0]
    bp = base_pub[0]
    if ablate & NO_INFERENCE:
        for s in range(MAX_SEATS):
            bp.lacks[s] = 0
    if decision == D_TICHU:
        return _calls(detail, cand_m, answers)
    return _answers(bp, view_me[0], decision, cand_m, cand_c, answers, w)


@njit(cache=True, inline="always")
def _candidate(variant, sc, models, seat, answer, calls, detail, window):
    """One candidate's rollout on the deal in the base records: the table copied, ``seat``'s
    ``answer`` given (at a Tichu question the call set, the play going on from the question),
    the round played on to its end. Returns ``(error, team 0 score, team 1 score, first
    out)``."""
    work, pub, privs, rnd, seats, base_pub, base_privs, _, _, _ = sc
    w = work[0]
    pub[0] = base_pub[0]
    for s in range(n_seats(variant)):
        privs[s] = base_privs[s]
    turn = seat
    forced = answer
    if calls:
        pub[0].tichu[seat] = answer
        forced = TICHU_ANSWERED
        if detail == policies.TICHU_AFTER_PASSING:
            turn = after_passing(variant, w.params, pub[0], privs, seat)
            forced = NOT_FORCED
    return play_on(variant, w, models, pub[0], privs, rnd[0], seats, turn, forced, window)


@njit(cache=True, inline="always")
def _evaluate(variant, settings, params, models, view_pub, view_me, candidates, results, sc):
    """A search's rollouts (the module docstring) with the settings of the ``SEARCH`` record
    ``settings``, the rollouts' strategy rows ``params`` and their learned models ``models``
    (``table_models.py``, or ``None``), the candidates ``(cand_m, cand_c)`` and ``results =
    (margin, first)``.
    Returns ``(deals played, error)``. The ``ablate`` bits switch an ingredient off, to
    measure what it adds: ``UNPAIRED`` plays each candidate on a deal of its own (deal
    ``k * candidates + c``), ``NO_INFERENCE`` deals without the ranks the seats are known to
    lack and the hands their calls tell of."""
    decision = settings[0].decision
    detail = settings[0].detail
    samples = settings[0].samples
    seed = settings[0].seed
    ablate = settings[0].ablate
    cand_m = candidates[0]
    margin, first = results
    if decision == D_GRAND_TICHU:
        return _grand(
            variant, params, models, view_pub, view_me, cand_m, samples, seed, results, sc
        )
    err = _start(variant, params, view_pub, view_me, decision, detail, candidates, sc, ablate)
    if err != ERR_NONE:
        return 0, err
    work, _, _, _, _, base_pub, base_privs, hands, pool, answers = sc
    w = work[0]
    bp = base_pub[0]
    me = view_me[0]
    seat = me.seat
    calls = decision == D_TICHU
    window = last_actor(bp) if decision == D_BOMB else -1
    paired = (ablate & UNPAIRED) == 0
    told = (ablate & NO_INFERENCE) == 0  # deal hands that agree with the calls made
    count = cand_m.shape[0]
    dealt = 0
    for k in range(samples):
        status = DEALT
        if paired:
            status = search_deal(variant, bp, me, base_privs, hands, pool, seed, k, w.params, told)
        if status != NO_DEAL:
            dealt += 1
        for c in range(count):
            if not paired:
                index = k * count + c
                status = search_deal(
                    variant, bp, me, base_privs, hands, pool, seed, index, w.params, told
                )
            if status == UNTOLD:
                told = False  # no use trying again for the other deals of this decision
            if status == NO_DEAL:
                margin[c, k] = np.nan
                first[c, k] = -1
                continue
            err, t0, t1, out = _candidate(
                variant, sc, models, seat, answers[c], calls, detail, window
            )
            if err != ERR_NONE:
                return dealt, err
            margin[c, k] = (t0 - t1) if seat % 2 == 0 else (t1 - t0)
            first[c, k] = 1 if out % 2 == seat % 2 else 0
    if dealt == 0 and samples > 0:
        return 0, ERR_NO_DEAL
    return dealt, ERR_NONE


# The entries, one per variant (``EVALUATE``), each with its variant a constant as the batch
# entries are (``batch.py``): ``settings`` a ``SEARCH`` record, ``params, models`` the
# rollouts' rows and models (``table_models.table``), ``candidates = (cand_m,
# cand_c)``, ``results = (margin, first)``, ``sc`` the caller's ``scratch()``.


@njit(cache=True)
def evaluate_nanjing(settings, params, models, view_pub, view_me, candidates, results, sc):
    """``_evaluate`` for Nanjing."""
    return _evaluate(NANJING, settings, params, models, view_pub, view_me, candidates, results, sc)


@njit(cache=True)
def evaluate_tientsin(settings, params, models, view_pub, view_me, candidates, results, sc):
    """``_evaluate`` for Tientsin."""
    return _evaluate(TIENTSIN, settings, params, models, view_pub, view_me, candidates, results, sc)


@njit(cache=True)
def evaluate_wuwang(settings, params, models, view_pub, view_me, candidates, results, sc):
    """``_evaluate`` for Wu Wang."""
    return _evaluate(WUWANG, settings, params, models, view_pub, view_me, candidates, results, sc)


EVALUATE = {NANJING: evaluate_nanjing, TIENTSIN: evaluate_tientsin, WUWANG: evaluate_wuwang}

__all__ = [
    "ERR_CANDIDATE",
    "ERR_NO_DEAL",
    "EVALUATE",
    "SEARCH",
    "after_passing",
    "last_actor",
    "play_on",
    "scratch",
]
