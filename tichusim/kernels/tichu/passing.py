"""The Tichu calls around the passing and the passing itself (RULES.md §2.3, §2.4, §3, §4),
jitted: Tichu before the passing, the simultaneous passing (checked: one card to each seat the
passing reaches, §3's and §4's reach), the Minister's hand laid face up (§4), Tichu after the
passing (``exchange``: all but the first calls, where a search's rollouts go on from a pass);
and a seat's Tichu answer at any point (``tichu_decision``), asked before each own turn too
(``tricks.py``).
"""

from ..bits import ONE, U64, ZERO, popcount
from ..errors import ERR_NONE, ERR_PENDING, ERR_STRATEGY
from ..eventlog import log_cards
from ..jit import njit
from ..outside import D_PASS, D_TICHU, PENDING, packed_card
from . import policies
from .deal import left_to_python
from .recorded import ask
from .records import (
    EV_GIVE,
    EV_SHOW,
    EV_TICHU,
    FIX_AFTER_PASSING,
    FIX_BEFORE_PASSING,
    FIX_CALL_AFTER_PASSING,
    FIX_CALL_AT_PLAYED,
    FIX_CALL_NEVER,
    FIX_MODE,
    FIX_RECEIVED,
)
from .variants import KING, MINISTER, WUWANG, n_seats, pass_offsets


@njit(cache=True)
def show_minister(pub, privs):
    """Wu Wang (§4): the Minister's hand lies face up, and the King's strategy, which plays
    both hands, holds each in the other's private record. Redone after either plays."""
    pub.exposed = privs[MINISTER].hand
    privs[KING].ally_hand = privs[MINISTER].hand
    privs[MINISTER].ally_hand = privs[KING].hand


@njit(cache=True, inline="always")
def _fixed_passes(variant, work, s, gifts_s):
    """``tichu-odds`` deals (``_deal_after_passing``): seat ``s``'s passes to and from the
    fixed seat are the dealt ones; a card its strategy meant for another seat that is now the
    fixed seat's goes to that seat instead of what it meant for the fixed seat."""
    n = n_seats(variant)
    f = work.fixed_seat
    if s == f:
        for d in range(1, n):
            gifts_s[d - 1] = work.fixed_give[(f + d) % n]
        return
    want = work.fixed_take[s]
    if want == ZERO:
        return
    d0 = (f - s) % n
    for d in range(1, n):
        if d != d0 and gifts_s[d - 1] == want:
            gifts_s[d - 1] = gifts_s[d0 - 1]
    gifts_s[d0 - 1] = want


@njit(cache=True, inline="always")
def _forced_passes(work, n, gifts_s):
    """``pass-advice`` deals (``FIX_BEFORE_PASSING``): the fixed seat gives the cards that
    ``work.fixed_ranks[FIX_RECEIVED]`` names, 6 bits per seat after it (card index + 1), in
    place of its strategy's; 0 leaves its strategy's passes (RULES.md §2.4)."""
    spec = work.fixed_ranks[FIX_RECEIVED]
    if spec == 0:
        return
    for d in range(1, n):
        c = (spec >> (6 * (d - 1))) & 63
        gifts_s[d - 1] = ZERO if c == 0 else ONE << U64(c - 1)


@njit(cache=True, inline="always")
def tichu_decision(work, pub, me, s, point, outside):
    """Seat ``s``'s Tichu answer at ``point`` (§2.3), 1 to call, 0 not, ``PENDING`` while
    awaited from Python: its strategy's, except for the fixed seat of a ``tichu-odds`` deal,
    whose call is set (never, right after the passing, or before its first own turn once the
    table has played a given number of cards)."""
    if s == work.fixed_seat and work.fixed_ranks[FIX_MODE] & 0xFF == FIX_AFTER_PASSING:
        call = work.fixed_ranks[FIX_MODE] >> 8
        if call == FIX_CALL_NEVER:
            return 0
        if call == FIX_CALL_AFTER_PASSING:
            return 1 if point == policies.TICHU_AFTER_PASSING else 0
        return (
            1
            if (
                point == policies.TICHU_BEFORE_TURN
                and popcount(pub.played) >= call - FIX_CALL_AT_PLAYED
            )
            else 0
        )
    if outside and left_to_python(work, s, D_TICHU):
        return ask(work, pub, me, s, D_TICHU, point, 2)
    return 1 if policies.tichu(work.params[s], pub, me, point) else 0


@njit(cache=True, inline="always")
def tichu_called(work, pub, seats, s, point, nlog):
    """Seat ``s`` calls Tichu at decision ``point`` (§2.3): public at once, logged, and what
    ``tichu_when`` records of it (the point, the cards it held, the tricks completed).
    Returns the log rows."""
    pub.tichu[s] = 1
    seat = seats[s]
    seat.tichu_when = point
    seat.tichu_cards = pub.counts[s]
    seat.tichu_trick = pub.tricks
    return log_cards(work, nlog, EV_TICHU, s, ZERO, point, 0)


@njit(cache=True, inline="always")
def _tichu_calls(n, first_drawer, work, pub, privs, seats, point, nlog, outside):
    """Each seat without a call may call Tichu at decision ``point``, in turn order from the
    first drawer (§2.3); stops at a call awaited from Python."""
    for i in range(n):
        s = (first_drawer + i) % n
        if pub.grand_tichu[s] == 0 and pub.tichu[s] == 0:
            call = tichu_decision(work, pub, privs[s], s, point, outside)
            if call == PENDING:
                return nlog  # ``work.asked`` says the round waits
            if call == 1:
                nlog = tichu_called(work, pub, seats, s, point, nlog)
    return nlog


@njit(cache=True, inline="always")
def _seat_passes(variant, work, models, pub, privs, s, outside):
    """Seat ``s``'s cards for the seats its passing reaches (§2.4, §3, §4) into
    ``work.gifts[s]``: Python's or its strategy's, as a fixed deal sets them
    (``_fixed_passes``, ``_forced_passes``). Returns the error code: ``ERR_PENDING`` while
    awaited from Python, ``ERR_STRATEGY`` unless it gives one card of its hand to each seat
    the passing reaches and none to another."""
    n = n_seats(variant)
    gifts = work.gifts
    offsets = pass_offsets(variant, s)
    if outside and left_to_python(work, s, D_PASS):
        packed = ask(work, pub, privs[s], s, D_PASS, offsets, 0)
        if packed == PENDING:
            return ERR_PENDING
        for d in range(1, n):
            c = packed_card(packed, d - 1)
            gifts[s, d - 1] = ZERO if c < 0 else ONE << U64(c)
    else:
        policies.passes(work.params[s], pub, privs[s], gifts[s], models)
    if work.fixed_seat >= 0:
        if work.fixed_ranks[FIX_MODE] & 0xFF == FIX_AFTER_PASSING:
            _fixed_passes(variant, work, s, gifts[s])
        elif s == work.fixed_seat and work.fixed_ranks[FIX_MODE] & 0xFF == FIX_BEFORE_PASSING:
            _forced_passes(work, n, gifts[s])
    err = ERR_NONE
    used = ZERO
    for d in range(1, n):
        if offsets >> d & 1:
            g = gifts[s, d - 1]
            if g == ZERO or g & (g - ONE) or g & ~privs[s].hand or g & used:
                err = ERR_STRATEGY
            used |= g
        elif gifts[s, d - 1] != ZERO:
            err = ERR_STRATEGY  # a card for a seat the passing does not reach
    return err


@njit(cache=True, inline="always")
def _hand_passes(variant, work, privs, seats, nlog):
    """Every seat's cards in ``work.gifts`` leave its hand and reach their receivers at once
    (§2.4), noted in both seats' records. Returns the log rows."""
    n = n_seats(variant)
    gifts = work.gifts
    for s in range(n):
        for d in range(n - 1):
            privs[s].hand &= ~gifts[s, d]
    for s in range(n):
        offsets = pass_offsets(variant, s)
        for d in range(1, n):
            if offsets >> d & 1:
                g = gifts[s, d - 1]
                t = (s + d) % n
                privs[t].hand |= g
                privs[s].given[t] = g
                privs[t].received[s] = g
                seats[s].given[d - 1] = g
                seats[t].received[n - d - 1] = g  # t sees s as its (n - d)-th neighbour
                nlog = log_cards(work, nlog, EV_GIVE, s, g, 0, t)
    for s in range(n):
        seats[s].hand_passed = privs[s].hand
    return nlog


@njit(cache=True, inline="always")
def passing(variant, first_drawer, work, models, pub, privs, seats, nlog, outside):
    """Tichu before passing (§2.3), the simultaneous passing (§2.4, §3, §4), the Minister's hand
    laid face up (§4), Tichu after passing. Returns ``(error, log rows)``. ``models``: the
    table's learned models (``table_models.py``, or ``None``), which a learned passing reads."""
    n = n_seats(variant)
    nlog = _tichu_calls(
        n, first_drawer, work, pub, privs, seats, policies.TICHU_BEFORE_PASSING, nlog, outside
    )
    if outside and work.asked[0] != 0:
        return ERR_PENDING, nlog
    return exchange(variant, first_drawer, work, models, pub, privs, seats, nlog, outside, 0, -1)


@njit(cache=True, inline="always")
def exchange(variant, first_drawer, work, models, pub, privs, seats, nlog, outside, first, given):
    """The passing once the Tichu calls before it are made (§2.4, §3, §4): each seat from
    ``first`` on (in seat order; the seats before it have their cards in ``work.gifts``
    already) but ``given`` (-1: none; a seat whose cards are there already) chooses its cards,
    they change hands at once, the Minister's hand is laid face up (§4), then the Tichu calls
    after the passing (§2.3). Returns ``(error, log rows)``. A search's rollouts go on with it
    from a seat's pass or its Tichu before the passing (``rollout.py``)."""
    n = n_seats(variant)
    err = ERR_NONE
    for s in range(first, n):
        if pass_offsets(variant, s) == 0 or s == given:
            continue  # the Minister neither gives nor receives (§4)
        seat_err = _seat_passes(variant, work, models, pub, privs, s, outside)
        if seat_err == ERR_PENDING:
            return ERR_PENDING, nlog
        if seat_err != ERR_NONE:
            err = seat_err
    if err != ERR_NONE:
        return err, nlog
    nlog = _hand_passes(variant, work, privs, seats, nlog)
    if variant == WUWANG:
        show_minister(pub, privs)  # §4: face up once the passing is over
        nlog = log_cards(work, nlog, EV_SHOW, MINISTER, pub.exposed, 0, 0)
    nlog = _tichu_calls(
        n, first_drawer, work, pub, privs, seats, policies.TICHU_AFTER_PASSING, nlog, outside
    )
    if outside and work.asked[0] != 0:
        return ERR_PENDING, nlog
    return ERR_NONE, nlog
