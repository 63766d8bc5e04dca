"""Rounds played on from a decision, with the unseen cards dealt anew: a search's rollouts, jitted.

A seat's view at a decision (the table's ``PUBLIC`` record and its own ``PRIVATE`` record,
RULES.md §6) leaves the other seats' hands unknown. ``deal_unseen`` deals them: a uniformly
random assignment of the cards the seat has not seen to the other seats, among those that
agree with everything the seat knows: its own hand, the cards played (``PUBLIC.played``),
every seat's card count, the cards it passed that their receivers have not played yet (they
are still in those hands, §2.4), the ranks a seat is known to lack (``PUBLIC.lacks``: the
Mah Jong once its holder led, a wished rank a seat did not play when bound, §2.8, §2.11),
and in Wu Wang the other hand the King plays or the Minister's hand laid face up (§4). It
shuffles the unseen cards and deals them by the counts, and deals again while a seat receives
a rank it lacks: every consistent assignment comes from the same number of shuffles, so the
accepted ones are uniform. After ``REJECTIONS`` failed shuffles (or at once, when the counts
cannot add up) it reports no deal. A search's deals (``_dealt``) also agree with the calls
made: a seat that called Tichu or Grand Tichu gets a hand its strategy would call on
(``calls_agree``), as far as ``CALL_TRIES`` deals find one.

``resume_*`` plays a round on from such a state to its end with the strategies loaded in the
work record (``engine.tricks_from``), the first answer given in advance (``forced``), and
``scoring.round_score`` scores it as the engine's round end does (§2.13, §2.14, §3). ``evaluate_*``
does both for a search of a play, a bomb out of turn or a Tichu call (after the passing or
before a turn: the call set, the play goes on from the question, ``after_passing``): for
each of ``samples`` deals (deal ``k`` drawn from the stream
``seed_stream(seed, k, 0)``), every candidate answer is played out from the same deal with the
same decision streams for every seat (``seed_stream(seed, k, 1 + seat)``), so the candidates'
results are paired; ``margin[c, k]`` is the deciding seat's team score minus the other team's
and ``first[c, k]`` whether its team had the first player out. One entry per table
(``EVALUATE``, ``RESUME``), each with its table a constant, as the batch entries are
(``batch.py``). Serial: the result is the same bytes whatever the threads.
"""

import numpy as np

from ..bits import NORMAL, ONE, SPECIALS, U64, ZERO, popcount
from ..errors import ERR_MOVES, ERR_NONE, ERR_STRATEGY
from ..jit import njit
from ..moves import MAX_MOVES, gen_bombs, legal_moves
from ..outside import D_BOMB, D_GRAND_TICHU, D_PLAY, D_TICHU
from ..refs import borrow
from ..rng import CARD_BITS, seed_stream, shuffle_prefix
from . import policies
from .engine import (
    NOT_FORCED,
    TICHU_ANSWERED,
    armed_seats,
    close_play,
    play_round,
    trick_start,
    tricks_from,
)
from .records import MAX_BOMBS, ROUND, SEAT, WORK
from .scoring import round_score
from .slots import P_GRAND_TICHU
from .variants import (
    KING,
    MAX_SEATS,
    MINISTER,
    NANJING,
    TIENTSIN,
    WUWANG,
    n_seats,
)
from .view import PRIVATE, PUBLIC

ALL_CARDS = NORMAL | SPECIALS
REJECTIONS = 1000  # shuffles tried for one consistent deal before giving up
ERR_CANDIDATE = -1  # ``evaluate_*``: a candidate that is not among the seat's legal answers
ERR_NO_DEAL = -2  # ``evaluate_*``: no consistent deal found in any sample
CALL = 1  # ``evaluate_*`` at a Tichu question: the candidate that calls (0: does not)


def scratch():
    """The buffers of one ``evaluate_*`` caller, allocated once and reused: the work record,
    the table and seats a rollout plays on, the state every candidate starts from, the dealt
    hands, the unseen cards, the candidates' answers."""
    return (
        np.zeros(1, WORK),
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


@njit(cache=True)
def known_hands(pub, me, hands):
    """Fill ``hands[s]`` with the cards the seat ``me`` knows seat ``s`` holds: its own hand,
    the cards it passed that have not been played (§2.4), in Wu Wang the other hand the King
    plays or the Minister's face-up hand (§4). Returns their union; the hands overlap only in
    an impossible view."""
    n = pub.n_players
    seat = me.seat
    for s in range(MAX_SEATS):
        hands[s] = ZERO
    hands[seat] = me.hand
    if pub.variant == WUWANG:
        if seat % 2 == KING % 2:  # the King and the Minister each see the other hand
            hands[MINISTER if seat == KING else KING] = me.ally_hand
        else:
            hands[MINISTER] = pub.exposed
    for t in range(n):
        if t != seat:
            hands[t] |= me.given[t] & ~pub.played
    known = ZERO
    for s in range(n):
        known |= hands[s]
    return known


@njit(cache=True)
def _lacked(hand, lacks):
    """Whether ``hand`` holds a card of a rank in the bitmask ``lacks`` (bit 1: the Mah Jong;
    the Dog, the Phoenix and the Dragon fall on bits 0 and 15, never set)."""
    x = hand
    while x != ZERO:
        b = np.int64(popcount((x & (~x + ONE)) - ONE))
        if lacks >> (b & 15) & 1:
            return True
        x &= x - ONE
    return False


@njit(cache=True)
def deal_unseen(pub, me, hands, pool, state):
    """Deal the cards seat ``me`` has not seen to the other seats, uniformly among the deals
    consistent with its view (the module docstring), into ``hands[s]`` (``me``'s own included);
    ``pool`` is scratch for 56 cards. Returns ``(state, ok)``; ``ok`` False when no consistent
    deal was found (an impossible view, or ``REJECTIONS`` shuffles rejected)."""
    n = pub.n_players
    known = known_hands(pub, me, hands)
    total = 0
    for s in range(n):
        total += popcount(hands[s])
    if total != popcount(known) or known & pub.played:
        return state, False
    unseen = ALL_CARDS & ~pub.played & ~known
    m = 0
    for i in range(56):
        b = CARD_BITS[i]
        if unseen >> U64(b) & ONE:
            pool[m] = b
            m += 1
    need_total = 0
    for s in range(n):
        need = pub.counts[s] - popcount(hands[s])
        if need < 0 or _lacked(hands[s], pub.lacks[s]):
            return state, False
        need_total += need
    if need_total != m:
        return state, False
    for _ in range(REJECTIONS):
        state = shuffle_prefix(pool, m, state)
        i = 0
        ok = True
        for s in range(n):
            need = pub.counts[s] - popcount(hands[s])
            lacks = pub.lacks[s]
            for _ in range(need):
                b = pool[i]
                i += 1
                if lacks >> (b & 15) & 1:
                    ok = False
                    break
                hands[s] |= ONE << U64(b)
            if not ok:
                break
        if ok:
            return state, True
        known_hands(pub, me, hands)
    return state, False


@njit(cache=True)
def sample_deal(pubs, mes, hands, pool, state):
    """``deal_unseen`` for one view given as arrays (``pubs[0]``, ``mes[0]``), for callers
    outside the kernels: ``(state, ok)``."""
    return deal_unseen(pubs[0], mes[0], hands, pool, state)


@njit(cache=True, inline="always")
def _resume(variant, work, pub, privs, rnd, seats, seat, forced, window):
    """Play on from the state at ``seat``'s decision (``engine.tricks_from``: its play, or its
    answer in the bomb window opened by ``window``) to the round's end, without log, check or
    Python. Returns ``(error, team 0 score, team 1 score, first out)``."""
    privs = borrow(privs)
    seats = borrow(seats)
    work.logging = False
    work.fixed_seat = -1
    armed = armed_seats(n_seats(variant), privs)
    err, victory, _ = tricks_from(
        variant, work, pub, privs, rnd, seats, False, 0, False, seat, armed, forced, window
    )
    if err == ERR_NONE:
        err = close_play(variant, work, pub, privs, rnd, seats, victory)
    if err != ERR_NONE:
        return err, 0, 0, -1
    _, _, t0, t1 = round_score(variant, pub, privs, victory)
    return ERR_NONE, t0, t1, pub.out_order[0]


@njit(cache=True)
def _resume_nanjing(work, pub, privs, rnd, seats, seat, forced, window):
    return _resume(NANJING, work, pub, privs, rnd, seats, seat, forced, window)


@njit(cache=True)
def _resume_tientsin(work, pub, privs, rnd, seats, seat, forced, window):
    return _resume(TIENTSIN, work, pub, privs, rnd, seats, seat, forced, window)


@njit(cache=True)
def _resume_wuwang(work, pub, privs, rnd, seats, seat, forced, window):
    return _resume(WUWANG, work, pub, privs, rnd, seats, seat, forced, window)


@njit(cache=True, inline="always")
def _resume_at(variant, work, pub, privs, rnd, seats, seat, forced, window):
    """``_resume`` compiled once per table: with ``variant`` a constant the other branches go."""
    if variant == TIENTSIN:
        return _resume_tientsin(work, pub, privs, rnd, seats, seat, forced, window)
    if variant == WUWANG:
        return _resume_wuwang(work, pub, privs, rnd, seats, seat, forced, window)
    return _resume_nanjing(work, pub, privs, rnd, seats, seat, forced, window)


# Public entries: the caller's arrays (``scratch()``'s or ``batch.kept_tables()``'s, and one
# ``ROUND`` record), every seat's hand filled in, the strategies in ``work[0].params``.


@njit(cache=True)
def resume_nanjing(work, pubs, privs, rnds, seats, seat, forced, window):
    """Play a Nanjing round on from a state (``_resume``): ``(error, t0, t1, first out)``."""
    return _resume_nanjing(work[0], pubs[0], privs, rnds[0], seats, seat, forced, window)


@njit(cache=True)
def resume_tientsin(work, pubs, privs, rnds, seats, seat, forced, window):
    """Play a Tientsin round on from a state (``_resume``): ``(error, t0, t1, first out)``."""
    return _resume_tientsin(work[0], pubs[0], privs, rnds[0], seats, seat, forced, window)


@njit(cache=True)
def resume_wuwang(work, pubs, privs, rnds, seats, seat, forced, window):
    """Play a Wu Wang round on from a state (``_resume``): ``(error, t0, t1, first out)``."""
    return _resume_wuwang(work[0], pubs[0], privs, rnds[0], seats, seat, forced, window)


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
    then the play starts (``engine.trick_start``). Returns the seat that leads."""
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
def _grand(variant, params, view_pub, view_me, cand_m, samples, seed, margin, first, sc):
    """A search of seat ``me``'s Grand Tichu call (§2.2) on the first cards it holds: deal
    ``k`` gives the other seats the rest of the deck (the round ``seed_stream(seed, key, 0)``
    deals, ``me``'s first cards fixed: the engine's fixed deal), and the round is played
    from the deal to its end once per candidate (``CALL`` or 0: ``me``'s Grand Tichu policy
    set to always or never), every other decision the strategies' ``params``. A deal counts
    only when every seat that answered before ``me`` answered as it did (up to
    ``GRAND_TRIES`` keys per deal: uniform among the deals that agree, those calls being
    their strategies'). Returns ``(deals played, error)``."""
    work, pub, privs, rnd, seats, _, _, _, _, answers = sc
    w = work[0]
    vp = view_pub[0]
    me = view_me[0]
    seat = me.seat
    n = n_seats(variant)
    err = _calls(policies.TICHU_BEFORE_TURN, cand_m, answers)  # a call or none
    if err != ERR_NONE:
        return 0, err
    w.variant = variant
    w.phoenix_led_half = vp.phoenix_led_half
    w.logging = False
    w.fixed_seat = seat
    w.fixed_cards = me.hand
    for r in range(15):
        w.fixed_ranks[r] = 0
    before = 0  # the seats that answered before ``me``
    for i in range(n):
        s = (vp.first_drawer + i) % n
        if s == seat:
            break
        before |= 1 << s
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
            tries = 1 if key >= 0 else GRAND_TRIES
            agreed = False
            for t in range(tries):
                kk = key if key >= 0 else k * GRAND_TRIES + t
                err, _ = play_round(
                    variant,
                    seed,
                    kk,
                    vp.first_drawer,
                    w,
                    pub[0],
                    privs,
                    rnd[0],
                    seats,
                    False,
                    False,
                )
                if err != ERR_NONE:
                    return dealt, err
                agreed = True
                for s in range(n):
                    if before >> s & 1 and seats[s].grand_tichu != (vp.grand_tichu[s] == 1):
                        agreed = False
                if agreed:
                    key = kk
                    break
            if not agreed:
                margin[c, k] = np.nan
                first[c, k] = -1
                continue
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


@njit(cache=True)
def calls_agree(pub, seat, params, hands):
    """Whether every seat but ``seat`` that called Tichu or Grand Tichu holds, with the cards
    it has played, a hand its strategy in ``params`` calls on (``policies.call_told``)."""
    for s in range(pub.n_players):
        if s != seat and (pub.tichu[s] or pub.grand_tichu[s]):
            if not policies.call_told(params[s], hands[s] | pub.played_by[s]):
                return False
    return True


NO_DEAL, DEALT, UNTOLD = 0, 1, 2  # ``_dealt``'s outcomes
CALL_TRIES = 200  # deals tried for one whose callers' hands agree with their calls


@njit(cache=True)
def told_deal(pub, me, hands, pool, state, params, told):
    """``deal_unseen``, and with ``told`` made again (the same stream going on) until the
    callers' hands agree with their calls (``calls_agree``, their strategies ``params``): the
    deals stay uniform among those that agree. Returns ``(state, outcome)``: ``NO_DEAL``,
    ``DEALT``, or ``UNTOLD`` when ``CALL_TRIES`` deals all disagreed and the last is kept (the
    calls are not the value policy's, or tell of a hand the cards played rule out)."""
    for _ in range(CALL_TRIES):
        state, ok = deal_unseen(pub, me, hands, pool, state)
        if not ok:
            return state, NO_DEAL
        if not told or calls_agree(pub, me.seat, params, hands):
            return state, DEALT
    return state, UNTOLD


@njit(cache=True)
def sample_told_deal(pubs, mes, hands, pool, state, params):
    """``told_deal`` for one view given as arrays (``pubs[0]``, ``mes[0]``), for callers
    outside the kernels: ``(state, outcome)``."""
    return told_deal(pubs[0], mes[0], hands, pool, state, params, True)


@njit(cache=True)
def _dealt(variant, bp, me, base_privs, hands, pool, seed, index, params, told):
    """Deal ``index`` of a search (``told_deal`` from ``seed_stream(seed, index, 0)``) into
    the seats' records ``base_privs``, each seat's decision stream ``seed_stream(seed, index,
    1 + seat)``. Returns ``told_deal``'s outcome."""
    _, status = told_deal(
        bp, me, hands, pool, seed_stream(U64(seed), U64(index), U64(0)), params, told
    )
    if status == NO_DEAL:
        return status
    seat = me.seat
    for s in range(n_seats(variant)):
        if s == seat:
            base_privs[s] = me
        else:
            other = base_privs[s]
            other.seat = s
            for t in range(MAX_SEATS):
                other.given[t] = ZERO
                other.received[t] = ZERO
            other.given[seat] = me.received[s]  # what ``me`` knows of the passing
            other.received[seat] = me.given[s]
            other.ally_hand = ZERO
        base_privs[s].hand = hands[s]
        base_privs[s].rng = seed_stream(U64(seed), U64(index), U64(1 + s))
    if variant == WUWANG:  # §4: the King plays both hands, the Minister's face up
        base_privs[KING].ally_hand = hands[MINISTER]
        base_privs[MINISTER].ally_hand = hands[KING]
        bp.exposed = hands[MINISTER]
    return status


@njit(cache=True, inline="always")
def _evaluate(
    variant,
    params,
    view_pub,
    view_me,
    decision,
    detail,
    cand_m,
    cand_c,
    samples,
    seed,
    margin,
    first,
    sc,
    ablate,
):
    """A search's rollouts (the module docstring). Returns ``(deals played, error)``. The
    ``ablate`` bits switch an ingredient off, to measure what it adds: ``UNPAIRED`` plays
    each candidate on a deal of its own (deal ``k * candidates + c``), ``NO_INFERENCE``
    deals without the ranks the seats are known to lack."""
    if decision == D_GRAND_TICHU:
        return _grand(variant, params, view_pub, view_me, cand_m, samples, seed, margin, first, sc)
    work, pub, privs, rnd, seats, base_pub, base_privs, hands, pool, answers = sc
    w = work[0]
    n = n_seats(variant)
    w.variant = variant
    w.phoenix_led_half = view_pub[0].phoenix_led_half
    for s in range(n):
        for j in range(params.shape[1]):
            w.params[s, j] = params[s, j]
    base_pub[0] = view_pub[0]
    bp = base_pub[0]
    if ablate & NO_INFERENCE:
        for s in range(MAX_SEATS):
            bp.lacks[s] = 0
    me = view_me[0]
    seat = me.seat
    calls = decision == D_TICHU
    if calls:
        err = _calls(detail, cand_m, answers)
    else:
        err = _answers(bp, me, decision, cand_m, cand_c, answers, w)
    if err != ERR_NONE:
        return 0, err
    window = last_actor(bp) if decision == D_BOMB else -1
    paired = (ablate & UNPAIRED) == 0
    told = (ablate & NO_INFERENCE) == 0  # deal hands that agree with the calls made
    count = cand_m.shape[0]
    dealt = 0
    for k in range(samples):
        status = DEALT
        if paired:
            status = _dealt(variant, bp, me, base_privs, hands, pool, seed, k, w.params, told)
        if status != NO_DEAL:
            dealt += 1
        for c in range(count):
            if not paired:
                index = k * count + c
                status = _dealt(
                    variant, bp, me, base_privs, hands, pool, seed, index, w.params, told
                )
            if status == UNTOLD:
                told = False  # no use trying again for the other deals of this decision
            if status == NO_DEAL:
                margin[c, k] = np.nan
                first[c, k] = -1
                continue
            pub[0] = base_pub[0]
            for s in range(n):
                privs[s] = base_privs[s]
            turn = seat
            forced = answers[c]
            if calls:  # the call set, the play goes on from the question
                pub[0].tichu[seat] = answers[c]
                forced = TICHU_ANSWERED
                if detail == policies.TICHU_AFTER_PASSING:
                    turn = after_passing(variant, w.params, pub[0], privs, seat)
                    forced = NOT_FORCED
            err, t0, t1, out = _resume_at(
                variant, w, pub[0], privs, rnd[0], seats, turn, forced, window
            )
            if err != ERR_NONE:
                return dealt, err
            margin[c, k] = (t0 - t1) if seat % 2 == 0 else (t1 - t0)
            first[c, k] = 1 if out % 2 == seat % 2 else 0
    if dealt == 0 and samples > 0:
        return 0, ERR_NO_DEAL
    return dealt, ERR_NONE


@njit(cache=True)
def evaluate_nanjing(
    params,
    view_pub,
    view_me,
    decision,
    detail,
    cand_m,
    cand_c,
    samples,
    seed,
    margin,
    first,
    sc,
    ablate,
):
    """``_evaluate`` at the Nanjing table."""
    return _evaluate(
        NANJING,
        params,
        view_pub,
        view_me,
        decision,
        detail,
        cand_m,
        cand_c,
        samples,
        seed,
        margin,
        first,
        sc,
        ablate,
    )


@njit(cache=True)
def evaluate_tientsin(
    params,
    view_pub,
    view_me,
    decision,
    detail,
    cand_m,
    cand_c,
    samples,
    seed,
    margin,
    first,
    sc,
    ablate,
):
    """``_evaluate`` at the Tientsin table."""
    return _evaluate(
        TIENTSIN,
        params,
        view_pub,
        view_me,
        decision,
        detail,
        cand_m,
        cand_c,
        samples,
        seed,
        margin,
        first,
        sc,
        ablate,
    )


@njit(cache=True)
def evaluate_wuwang(
    params,
    view_pub,
    view_me,
    decision,
    detail,
    cand_m,
    cand_c,
    samples,
    seed,
    margin,
    first,
    sc,
    ablate,
):
    """``_evaluate`` at the Wu Wang table."""
    return _evaluate(
        WUWANG,
        params,
        view_pub,
        view_me,
        decision,
        detail,
        cand_m,
        cand_c,
        samples,
        seed,
        margin,
        first,
        sc,
        ablate,
    )


EVALUATE = {NANJING: evaluate_nanjing, TIENTSIN: evaluate_tientsin, WUWANG: evaluate_wuwang}
RESUME = {NANJING: resume_nanjing, TIENTSIN: resume_tientsin, WUWANG: resume_wuwang}

__all__ = [
    "ALL_CARDS",
    "ERR_CANDIDATE",
    "ERR_NO_DEAL",
    "EVALUATE",
    "REJECTIONS",
    "RESUME",
    "deal_unseen",
    "known_hands",
    "last_actor",
    "sample_deal",
    "scratch",
]
