"""The scripted play policy ``heuristic``: plan the hand, lead the weakest, keep control.

Every candidate play is priced by what it does to the rest of the hand: the change in
``hand.plan_size`` (how many plays the hand still needs), its rank (low first), and
``CONTROL_COST`` per control card it spends (Dragon, Phoenix, Aces; Kings too once the Dragon
and the Phoenix are gone: cards already played are counted). Then:

* **leading**: going out at once if one play does it; the Dog to a partner who called or holds
  few cards (``DOG_PARTNER_CARDS``), or when the hand is nearly played out; otherwise the
  cheapest non-bomb lead;
* **following a partner**: pass (never overtake the partner) unless the play goes out;
* **following an opponent**: the cheapest play if its price is at most ``FOLLOW_MARGIN``,
  raised by the trick's points (``POINT_WEIGHT`` per point), by ``ATTACK_BONUS`` when that
  opponent called or the partner's call needs support, and by one when the opponent is about
  to go out; otherwise a bomb when ``bomb_worth`` says so; otherwise pass;
* **bombs** (on its turn or out of turn): only on an opponent's trick, when that opponent is
  about to go out (``BOMB_THREAT`` cards or fewer), the trick holds ``BOMB_POINTS`` or more, an
  opponent who called is getting close, or the seat's own call is one play from success.

Partners are the seats of the player's parity (two of them in Tientsin, the King and his
Minister in Wu Wang: ``variants.py``). Parameter slots are defined in ``slots.py`` and named
in ``tichusim.strategies``.
"""

import numpy as np

from ..bits import ACES, DOG, DRAGON, KINGS, PHOENIX, popcount
from ..combos import BOMB_FOUR, DOG_LEAD
from ..hand import card_points, plan_size
from ..jit import njit
from .slots import (
    ATTACK_BONUS,
    BOMB_POINTS,
    BOMB_THREAT,
    CONTROL_COST,
    DOG_PARTNER_CARDS,
    FOLLOW_MARGIN,
    POINT_WEIGHT,
)

# a play's rank term in its price, ``(code & 0xFF) / 30.0`` for every half-rank, looked up:
# the same doubles (a division is rounded alike in numpy and in a kernel), without a
# division per candidate play
RANK_PRICE = np.arange(256) / 30.0


@njit(cache=True)
def _controls(pub, hand, mask):
    """Control cards among ``mask``: Dragon, Phoenix, Aces, and Kings once the Dragon and the
    Phoenix are both played or in this hand."""
    strong = DRAGON | PHOENIX | ACES
    if (pub.played | hand) & (DRAGON | PHOENIX) == DRAGON | PHOENIX:
        strong |= KINGS
    return popcount(mask & strong)


@njit(cache=True)
def _price(params, pub, hand, base, mask, code):
    """What a play costs the hand: plays still needed after it (relative to now), rank, and
    the control cards it spends (free when it empties the hand)."""
    return price_after(params, pub, hand, base, plan_size(hand & ~mask), mask, code)


@njit(cache=True)
def price_after(params, pub, hand, base, after, mask, code):
    """``_price`` of a play after which the hand needs ``after`` plays (``plan_size`` of the
    rest, for a caller that needs it too)."""
    if after == 0:
        return -100.0
    return (
        (after - base) + RANK_PRICE[code & 0xFF] + params[CONTROL_COST] * _controls(pub, hand, mask)
    )


@njit(cache=True)
def _lowest_bomb(codes, idx_from, n):
    best = -1
    for i in range(idx_from, n):
        if (codes[i] >> 16) >= BOMB_FOUR and (best < 0 or codes[i] < codes[best]):
            best = i
    return best


@njit(cache=True)
def bomb_worth(params, pub, me):
    """Whether bombing the trick in play pays (see the module docstring)."""
    ts = pub.top_seat
    if ts < 0 or (ts - me.seat) % 2 == 0:
        return False  # no trick, the partner's, or our own
    if pub.counts[ts] <= params[BOMB_THREAT]:
        return True
    if card_points(pub.trick_cards) >= params[BOMB_POINTS]:
        return True
    if (pub.tichu[ts] or pub.grand_tichu[ts]) and pub.counts[ts] <= 2 * params[BOMB_THREAT]:
        return True
    called = pub.tichu[me.seat] or pub.grand_tichu[me.seat]
    if called and pub.n_out == 0:
        return plan_size(me.hand) <= 2  # win the lead back to finish first
    return False


@njit(cache=True)
def bomb_out_of_turn(params, pub, me, masks, codes, n):
    if n == 0 or not bomb_worth(params, pub, me):
        return -1
    return _lowest_bomb(codes, 0, n)


@njit(cache=True)
def _partner_to_help(params, pub, seat, near):
    """Whether a partner still holding cards called (Grand) Tichu or, with ``near``, holds
    ``DOG_PARTNER_CARDS`` cards or fewer (the reasons to lead the Dog to them)."""
    for q in range(seat & 1, pub.n_players, 2):  # the seats of our parity (no division)
        if q != seat and pub.counts[q] > 0:
            if pub.tichu[q] or pub.grand_tichu[q]:
                return True
            if near and pub.counts[q] <= params[DOG_PARTNER_CARDS]:
                return True
    return False


@njit(cache=True)
def choose(params, pub, me, moves_m, moves_c, n, can_pass):
    """Index of the play to make among the ``n`` legal plays, or -1 to pass."""
    if n == 0:
        return -1
    hand = me.hand
    seat = me.seat
    for i in range(n):
        if moves_m[i] == hand:
            return i  # out at once
    base = plan_size(hand)
    top = pub.top_code

    if top == 0:
        if hand & DOG and (base <= 2 or _partner_to_help(params, pub, seat, True)):
            for i in range(n):
                if (moves_c[i] >> 16) == DOG_LEAD:
                    return i
        best = -1
        best_cost = np.inf
        for i in range(n):
            kind = moves_c[i] >> 16
            if kind >= BOMB_FOUR or kind == DOG_LEAD:
                continue
            cost = _price(params, pub, hand, base, moves_m[i], moves_c[i])
            cost -= 0.01 * popcount(moves_m[i])  # ties: the longer combination
            if cost < best_cost:
                best_cost = cost
                best = i
        if best >= 0:
            return best
        return 0  # only bombs or the Dog left: play the first

    ts = pub.top_seat
    partners_trick = (ts - seat) % 2 == 0
    if partners_trick and can_pass:
        return -1
    best = -1
    best_cost = np.inf
    for i in range(n):
        if (moves_c[i] >> 16) >= BOMB_FOUR:
            continue
        cost = _price(params, pub, hand, base, moves_m[i], moves_c[i])
        if cost < best_cost:
            best_cost = cost
            best = i
    return settle(
        params,
        pub,
        me,
        moves_m,
        moves_c,
        n,
        can_pass,
        best,
        best_cost,
        partners_trick,
        _partner_to_help(params, pub, seat, False),
    )


@njit(cache=True)
def follow_margin(params, pub, moves_m, best, attack):
    """The most the play ``best`` on an opponent's trick may cost and still be made (``heuristic``
    and ``expert`` alike): ``FOLLOW_MARGIN`` raised by the trick's points (none when ``best`` is
    the Dragon, whose trick is given away, §2.12), by ``ATTACK_BONUS`` when that opponent called
    or ``attack``, and by one when that opponent is about to go out (``BOMB_THREAT``)."""
    ts = pub.top_seat
    margin = params[FOLLOW_MARGIN]
    pts = card_points(pub.trick_cards)
    if best >= 0 and moves_m[best] == DRAGON:
        pts = 0
    margin += pts * params[POINT_WEIGHT]
    if pub.tichu[ts] or pub.grand_tichu[ts] or attack:
        margin += params[ATTACK_BONUS]
    if pub.counts[ts] <= params[BOMB_THREAT]:
        margin += 1.0
    return margin


@njit(cache=True)
def settle(params, pub, me, moves_m, moves_c, n, can_pass, best, best_cost, partners_trick, attack):
    """On a trick: play ``best`` (the cheapest non-bomb, -1 when none) when its cost is within
    the margin of taking the trick (``follow_margin``; the bare ``FOLLOW_MARGIN`` on a
    partner's), else a bomb when one is worth it, else pass (or the first play when passing is
    not allowed)."""
    if partners_trick:
        margin = params[FOLLOW_MARGIN]
    else:
        margin = follow_margin(params, pub, moves_m, best, attack)
    if best >= 0 and (best_cost <= margin or not can_pass):
        return best
    if bomb_worth(params, pub, me) or (best < 0 and not can_pass):
        b = _lowest_bomb(moves_c, 0, n)
        if b >= 0:
            return b
    return -1 if can_pass else 0
