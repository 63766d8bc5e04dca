"""Deals of the unseen cards that agree with a seat's view, jitted: the game's own knowledge of
which deals a seat cannot tell apart (OpenSpiel's ``ResampleFromInfostate``).

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
cannot add up) it reports no deal. A search's deals (``search_deal``) also agree with the
calls made: a seat that called Tichu or Grand Tichu gets a hand its strategy would call on
(``calls_agree``), as far as ``CALL_TRIES`` deals find one.
"""

import numpy as np

from ..bits import NORMAL, ONE, SPECIALS, U64, ZERO, popcount
from ..jit import njit
from ..rng import CARD_BITS, seed_stream, shuffle_prefix
from . import policies
from .variants import KING, MAX_SEATS, MINISTER, WUWANG, n_seats

ALL_CARDS = NORMAL | SPECIALS
REJECTIONS = 1000  # shuffles tried for one consistent deal before giving up
NO_DEAL, DEALT, UNTOLD = 0, 1, 2  # ``told_deal``'s outcomes
CALL_TRIES = 200  # deals tried for one whose callers' hands agree with their calls


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
def calls_agree(pub, seat, params, hands):
    """Whether every seat but ``seat`` that called Tichu or Grand Tichu holds, with the cards
    it has played, a hand its strategy in ``params`` calls on (``policies.call_told``)."""
    for s in range(pub.n_players):
        if s != seat and (pub.tichu[s] or pub.grand_tichu[s]):
            if not policies.call_told(params[s], hands[s] | pub.played_by[s]):
                return False
    return True


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
def search_deal(variant, bp, me, base_privs, hands, pool, seed, index, params, told):
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


__all__ = [
    "ALL_CARDS",
    "CALL_TRIES",
    "DEALT",
    "NO_DEAL",
    "REJECTIONS",
    "UNTOLD",
    "calls_agree",
    "deal_unseen",
    "known_hands",
    "search_deal",
    "told_deal",
]
