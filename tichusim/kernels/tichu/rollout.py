"""Rounds played on from a decision, with the unseen cards dealt anew: a search's rollouts, jitted.

A seat's view at a decision (RULES.md §6) leaves the other seats' hands unknown; each rollout
deals them anew among the deals that agree with the view (``resample.py``). ``answered`` plays
a round on from such a state to its end with the strategies loaded in the work record, the
decision's answer given in advance: a play or a bomb out of turn (``play_on``:
``tricks.tricks_from`` with the answer forced), a Tichu call at any of its points (§2.3:
before the passing the seats after it call, then the passing and the play; after it, the
play; before a turn or a bomb, that turn or bomb), the passed cards (§2.4: the other seats'
chosen, the hands changed, ``passing.exchange``), the Mah Jong's wish (§2.11), the Dragon's
gift (§2.12) and the Dog's lead (§3); ``scoring.round_score`` scores it as the engine's round
end does (§2.13, §2.14, §3). ``evaluate_*`` does both for a search of any of these decisions,
or plays whole rounds from the deal for a Grand Tichu call (``_grand``): for each of
``samples`` deals (deal ``k`` drawn from the stream ``seed_stream(seed, k, 0)``,
``resample.search_deal``), every candidate answer is played out from the same deal with the
same decision streams for every seat (``seed_stream(seed, k, 1 + seat)``), so the
candidates' results are paired; ``margin[c, k]`` is the deciding seat's team score minus the
other team's and ``first[c, k]`` who went out first (``OWN_FIRST``: the seat, ``TEAM_FIRST``:
its partner, 0: an opponent). The search's settings come in one ``SEARCH`` record, as a
batch's come in ``batch.RUN``; one entry per table (``EVALUATE``), each with its variant a
constant, as the batch entries are (``batch.py``). Serial: the result is the same bytes
whatever the threads.
"""

import numpy as np

from ..bits import ONE, U64, ZERO
from ..errors import ERR_MOVES, ERR_NONE, ERR_STRATEGY
from ..jit import njit
from ..moves import MAX_MOVES, gen_bombs, legal_moves
from ..outside import D_BOMB, D_DOG, D_DRAGON, D_GRAND_TICHU, D_PASS, D_PLAY, D_TICHU, D_WISH
from ..refs import borrow
from ..turns import PLAYED, VICTORY, make_wish
from . import learned, policies
from .engine import play_round
from .passing import exchange
from .records import MAX_BOMBS, ROUND, SEAT, WORK
from .resample import DEALT, NO_DEAL, UNTOLD, search_deal
from .scoring import close_play, round_score
from .slots import P_GRAND_TICHU
from .tricks import (
    NOT_FORCED,
    TICHU_ANSWERED,
    armed_seats,
    clear_trick,
    next_active,
    take_trick,
    trick_start,
    tricks_from,
    went_out,
)
from .variants import MAX_SEATS, NANJING, TIENTSIN, WUWANG, n_seats, pass_offsets
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
    once per table: with ``variant`` a constant the other branches go. ``seat`` -1 with
    ``window`` a seat: from the bomb windows that seat's play opened, nobody asked yet
    (``tricks_from``). Returns ``(error, team 0 score, team 1 score, first out)``."""
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
def _calls(cand_m, out):
    """At a call (a Tichu question at any point, §2.3, or Grand Tichu, §2.2) each candidate's
    answer, ``CALL`` or 0; ``ERR_CANDIDATE`` for any other."""
    for c in range(cand_m.shape[0]):
        if cand_m[c] != ZERO and cand_m[c] != U64(CALL):
            return ERR_CANDIDATE
        out[c] = np.int64(cand_m[c])
    return ERR_NONE


@njit(cache=True)
def calls_after(variant, params, pub, privs, seat, point):
    """From seat ``seat``'s Tichu question at ``point`` (before or after the passing), answered:
    the seats after it in the order of calls (from the first drawer) answer theirs with their
    strategies (§2.3)."""
    n = n_seats(variant)
    asked = False
    for i in range(n):
        s = (pub.first_drawer + i) % n
        if asked and pub.grand_tichu[s] == 0 and pub.tichu[s] == 0:
            if policies.tichu(params[s], pub, privs[s], point):
                pub.tichu[s] = 1
        asked = asked or s == seat


@njit(cache=True)
def after_passing(variant, params, pub, privs, seat):
    """From seat ``seat``'s Tichu question after the passing, answered: the seats after it in
    the order of calls (from the first drawer) answer theirs with their strategies (§2.3),
    then the play starts (``tricks.trick_start``). Returns the seat that leads."""
    calls_after(variant, params, pub, privs, seat, policies.TICHU_AFTER_PASSING)
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
    err = _calls(cand_m, answers)  # a call or none
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
            first[c, k] = _first(seat, rnd[0].first_out)
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
        # at a Tichu question right before a bomb out of turn (§2.3, §2.9): that bomb
        ("bomb_m", np.uint64),
        ("bomb_c", np.int64),
    ],
    align=True,
)


TEAM_FIRST, OWN_FIRST = 1, 2  # ``first[c, k]``: the seat's team went out first; the seat did


@njit(cache=True, inline="always")
def _first(seat, out):
    """What ``first[c, k]`` holds of the first player out ``out``: ``OWN_FIRST`` for ``seat``
    itself (a call of its made, §2.14), ``TEAM_FIRST`` for its partner, 0 for an opponent."""
    if out == seat:
        return OWN_FIRST
    return TEAM_FIRST if out % 2 == seat % 2 else 0


@njit(cache=True)
def _pass_ok(variant, me, spec):
    """Whether ``spec`` (``outside.D_PASS``'s answer: card index + 1 in bits ``6 * (d - 1)``
    for the seat ``d`` places on) gives one distinct card of ``me``'s hand to each seat its
    passing reaches and none to another (§2.4, §3, §4)."""
    n = n_seats(variant)
    offsets = pass_offsets(variant, me.seat)
    used = ZERO
    for d in range(1, n):
        c = (spec >> (6 * (d - 1))) & 63
        if offsets >> d & 1:
            if c == 0:
                return False
            bit = ONE << U64(c - 1)
            if bit & ~me.hand or bit & used:
                return False
            used |= bit
        elif c != 0:
            return False
    return True


@njit(cache=True)
def _chosen(variant, pub, me, decision, cand_c, out):
    """At a pass, a wish, a Dragon's gift or a Dog's lead each candidate's answer (``cand_c``,
    as the script holds it, ``outside.py``), checked: a legal passing (``_pass_ok``), a rank
    2..14 or 0 (§2.11), an opponent (§2.12), a partner holding cards (§3).
    ``ERR_CANDIDATE`` for any other."""
    n = n_seats(variant)
    seat = me.seat
    for c in range(cand_c.shape[0]):
        a = cand_c[c]
        if decision == D_PASS:
            ok = _pass_ok(variant, me, a)
        elif decision == D_WISH:
            ok = a == 0 or (a >= 2 and a <= 14)
        elif decision == D_DRAGON:
            ok = a >= 0 and a < n and (a - seat) % 2 == 1
        elif decision == D_DOG:
            ok = a >= 0 and a < n and a != seat and (a - seat) % 2 == 0 and pub.counts[a] > 0
        else:
            ok = False
        if not ok:
            return ERR_CANDIDATE
        out[c] = a
    return ERR_NONE


@njit(cache=True)
def _bomb_index(pub, me, mask, code, work):
    """The index of the bomb ``mask``, ``code`` among those ``me`` may play out of turn on the
    table's top (``gen_bombs``), -1 when it is none of them."""
    n = min(gen_bombs(me.hand, pub.top_code, work.bombs_m, work.bombs_c, 0), MAX_BOMBS)
    for i in range(n):
        if work.bombs_m[i] == mask and work.bombs_c[i] == code:
            return i
    return -1


@njit(cache=True, inline="always")
def _start(variant, settings, params, view_pub, view_me, candidates, sc):
    """Load the strategies and the table's rules Options into the work record, copy the view's
    table into the base every deal starts from (without the ranks the seats are known to lack
    under ``NO_INFERENCE``) and find each candidate's answer. Returns ``(error, the index of
    the bomb a Tichu question before a bomb precedes, else -1)``."""
    work, _, _, _, _, base_pub, _, _, _, answers = sc
    cand_m, cand_c = candidates
    decision = settings.decision
    w = work[0]
    w.variant = variant
    w.rules = view_pub[0].rules
    for s in range(n_seats(variant)):
        for j in range(params.shape[1]):
            w.params[s, j] = params[s, j]
    base_pub[0] = view_pub[0]
    bp = base_pub[0]
    me = view_me[0]
    if settings.ablate & NO_INFERENCE:
        for s in range(MAX_SEATS):
            bp.lacks[s] = 0
    if decision == D_TICHU:
        err = _calls(cand_m, answers)
        if err != ERR_NONE or settings.detail != policies.TICHU_BEFORE_BOMB:
            return err, -1
        j = _bomb_index(bp, me, settings.bomb_m, settings.bomb_c, w)
        return (ERR_CANDIDATE if j < 0 else ERR_NONE), j
    if decision == D_PLAY or decision == D_BOMB:
        return _answers(bp, me, decision, cand_m, cand_c, answers, w), -1
    return _chosen(variant, bp, me, decision, cand_c, answers), -1


@njit(cache=True, inline="always")
def _scored(variant, work, pub, privs, rnd, seats, victory):
    """The play over (``victory``: one team's first players out): closed as the engine's round
    end does and scored (``close_play``, ``round_score``). Returns ``(error, team 0 score,
    team 1 score, first out)``."""
    err = close_play(variant, work, pub, privs, rnd, seats, victory)
    if err != ERR_NONE:
        return err, 0, 0, -1
    _, _, t0, t1 = round_score(variant, pub, privs, victory)
    return ERR_NONE, t0, t1, pub.out_order[0]


@njit(cache=True, inline="always")
def _passing_on(variant, work, models, pub, privs, rnd, seats, seat, spec, first):
    """The passing (``passing.exchange``) from seat ``first`` on, ``seat``'s cards the answer
    ``spec`` (-1: no seat's given), the Tichu calls after it, then the play to the round's
    end. Returns as ``_scored``."""
    n = n_seats(variant)
    if seat >= 0:
        for d in range(1, n):
            c = (spec >> (6 * (d - 1))) & 63
            work.gifts[seat, d - 1] = ZERO if c == 0 else ONE << U64(c - 1)
    fd = pub.first_drawer
    err, _ = exchange(variant, fd, work, models, pub, privs, seats, 0, False, first, seat)
    if err != ERR_NONE:
        return err, 0, 0, -1
    turn, _ = trick_start(variant, pub, privs)
    return play_on(variant, work, models, pub, privs, rnd, seats, turn, NOT_FORCED, -1)


@njit(cache=True, inline="always")
def _wished(variant, work, models, pub, privs, rnd, seats, seat, wish):
    """Seat ``seat`` played the Mah Jong and wishes ``wish`` (§2.11): the play goes on as the
    engine's after the wish (``tricks._played``): the seat out if it was its last card (§2.13,
    which may end the round), then the bomb window its play opened (§2.9)."""
    if not make_wish(pub, rnd, wish):
        return ERR_STRATEGY, 0, 0, -1
    if privs[seat].hand == ZERO:
        outcome, _ = went_out(variant, work, pub, seat, 0)
        if outcome != PLAYED:
            return _scored(variant, work, pub, privs, rnd, seats, outcome == VICTORY)
    return play_on(variant, work, models, pub, privs, rnd, seats, -1, NOT_FORCED, seat)


@njit(cache=True, inline="always")
def _given(variant, work, models, pub, privs, rnd, seats, seat, taker):
    """Seat ``seat`` won the trick with the Dragon and gives it to ``taker`` (§2.12): in the
    play, the seat (or the next holder of cards) leads next, as after any trick; at the round's
    end (its last trick) the round is scored (§2.13)."""
    take_trick(pub, work, seats, seat, taker, 0)
    clear_trick(pub)
    if pub.n_out >= n_seats(variant) - 1:
        return _scored(variant, work, pub, privs, rnd, seats, False)
    lead = seat if pub.counts[seat] > 0 else next_active(pub, seat)
    return play_on(variant, work, models, pub, privs, rnd, seats, lead, NOT_FORCED, -1)


@njit(cache=True, inline="always")
def answered(variant, work, models, pub, privs, rnd, seats, at, answer, fresh):
    """Play on from the state at a decision, its answer given, to the round's end, without log,
    check or Python: one candidate's rollout (the state a deal of the search's, or the round's
    own). ``at = (seat, decision, detail, window, bomb)``: the seat deciding, the decision
    (``outside.D_*``), its detail (a Tichu's point, §2.3), the seat whose play or pass opened
    the bomb window (a bomb answer, and a Tichu question right before a bomb; else -1) and
    there the index of that bomb (``gen_bombs``). ``answer`` as the script holds it
    (``outside.py``; a play's and a bomb's as ``tricks_from`` takes them). ``fresh``: at a
    pass, the seats before ``seat`` choose their cards too (a search's deal is new), else theirs
    are in ``work.gifts`` already (a round stopped there). Every later decision is the
    strategies'. Returns ``(error, team 0 score, team 1 score, first out)``.

    A Tichu called before the passing: the seats after it answer theirs (``calls_after``),
    then the passing and the play. A pass: the others' cards chosen, the hands changed, the
    calls after the passing, the play (``passing.exchange``). A wish: the play goes on after
    the Mah Jong (``_wished``); a Dragon's trick: given, then the next lead or the round's end
    (``_given``); a Dog's lead (Tientsin): the partner named leads."""
    seat, decision, detail, window, bomb = at
    work.logging = False
    work.fixed_seat = -1
    if decision == D_TICHU:
        pub.tichu[seat] = answer
        if detail == policies.TICHU_BEFORE_PASSING:
            calls_after(variant, work.params, pub, privs, seat, detail)
            return _passing_on(variant, work, models, pub, privs, rnd, seats, -1, 0, 0)
        if detail == policies.TICHU_AFTER_PASSING:
            turn = after_passing(variant, work.params, pub, privs, seat)
            return play_on(variant, work, models, pub, privs, rnd, seats, turn, NOT_FORCED, -1)
        if detail == policies.TICHU_BEFORE_BOMB:
            return play_on(variant, work, models, pub, privs, rnd, seats, seat, bomb, window)
        return play_on(variant, work, models, pub, privs, rnd, seats, seat, TICHU_ANSWERED, -1)
    if decision == D_PASS:
        first = 0 if fresh else seat
        return _passing_on(variant, work, models, pub, privs, rnd, seats, seat, answer, first)
    if decision == D_WISH:
        return _wished(variant, work, models, pub, privs, rnd, seats, seat, answer)
    if decision == D_DRAGON:
        return _given(variant, work, models, pub, privs, rnd, seats, seat, answer)
    if decision == D_DOG:
        return play_on(variant, work, models, pub, privs, rnd, seats, answer, NOT_FORCED, -1)
    return play_on(variant, work, models, pub, privs, rnd, seats, seat, answer, window)


@njit(cache=True, inline="always")
def _rollout(variant, sc, models, at, answer):
    """One candidate's rollout on the deal in the base records: the table copied, ``answer``
    given at ``at`` (``answered``), the round played on to its end. Returns ``(error, team 0
    score, team 1 score, first out)``."""
    work, pub, privs, rnd, seats, base_pub, base_privs, _, _, _ = sc
    pub[0] = base_pub[0]
    for s in range(n_seats(variant)):
        privs[s] = base_privs[s]
    return answered(variant, work[0], models, pub[0], privs, rnd[0], seats, at, answer, True)


@njit(cache=True, inline="always")
def play_candidate(variant, sc, models, seat, answer, window):
    """A play's or a bomb answer's rollout on the deal in the base records (``_rollout``,
    ``window`` the bomb window's opener or -1): the labelling's (``labels.py``), which plays
    nothing else."""
    work, pub, privs, rnd, seats, base_pub, base_privs, _, _, _ = sc
    pub[0] = base_pub[0]
    for s in range(n_seats(variant)):
        privs[s] = base_privs[s]
    return play_on(variant, work[0], models, pub[0], privs, rnd[0], seats, seat, answer, window)


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
    st = settings[0]
    decision = st.decision
    detail = st.detail
    samples = st.samples
    seed = st.seed
    ablate = st.ablate
    cand_m = candidates[0]
    margin, first = results
    if decision == D_GRAND_TICHU:
        return _grand(
            variant, params, models, view_pub, view_me, cand_m, samples, seed, results, sc
        )
    err, bomb = _start(variant, st, params, view_pub, view_me, candidates, sc)
    if err != ERR_NONE:
        return 0, err
    work, _, _, _, _, base_pub, base_privs, hands, pool, answers = sc
    w = work[0]
    bp = base_pub[0]
    me = view_me[0]
    seat = me.seat
    windowed = decision == D_BOMB or (decision == D_TICHU and detail == policies.TICHU_BEFORE_BOMB)
    window = last_actor(bp) if windowed else -1
    at = (seat, decision, detail, window, bomb)
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
            err, t0, t1, out = _rollout(variant, sc, models, at, answers[c])
            if err != ERR_NONE:
                return dealt, err
            margin[c, k] = (t0 - t1) if seat % 2 == 0 else (t1 - t0)
            first[c, k] = _first(seat, out)
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
    "OWN_FIRST",
    "SEARCH",
    "TEAM_FIRST",
    "after_passing",
    "answered",
    "calls_after",
    "last_actor",
    "play_candidate",
    "play_on",
    "scratch",
]
