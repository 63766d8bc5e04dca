"""The play and call policies of the strategy ``expert``: card tracking, planning, calls by value.

**Card tracking** (RULES.md §6: the public record and the seat's own hand only). The cards an
opponent may hold are every card not yet played (``PUBLIC.played``), not in this hand, not in
the other hand this strategy plays nor the Minister's exposed hand (Wu Wang, §4), and not the
cards this seat gave its partners that have not been played yet (``PRIVATE.given``: their
place is known). From that pool, ``combo_top`` gives the highest combination of a kind and
length an opponent could still play (pooled over the opponents: an upper bound for any one of
them; the Phoenix counts as a wild card, §2.6), ``bomb_possible`` whether a bomb can still be
among them (four of a kind or a straight flush of 5, §2.7), ``bomb_beatable`` whether one of
them could beat a bomb of ours, and ``is_sure`` whether a play of
ours can no longer be beaten but by a bomb (a *sure winner*). ``PUBLIC.counts`` gives every
seat's cards left.

**Play** (``choose``). Candidate plays are priced as ``heuristic`` prices them (plays the hand
still needs after it, rank, control cards), then:

* **leading**: out at once if one play does it; a sure winner whose rest is one play (it wins
  the lead back and the rest goes out) first; otherwise sure winners are kept for last
  (``SURE_KEEP`` added to their price) and losers played off while a sure winner can retake,
  a loser of a kind and length the hand keeps a sure winner of priced ``RETAKE_LEAD`` lower
  (negative: the kinds nothing of ours could retake are led first, the others can still go
  under our sure winner's trick); a combination as long as an opponent's cards left is
  avoided unless sure (``SHORT_OPP``); singles are cheaper (``PARTNER_LEAD``) when a partner
  called, for them to take the lead; the Dog goes to a partner who called, or who holds fewer
  cards than this hand needs plays (``DOG_PARTNER_CARDS`` or fewer), or when the hand is
  nearly out;
* **partner's trick**: pass (never overtake a partner) unless the play goes out, or, while
  this seat's own call is open, a play priced ``CALLER_OVERTAKE`` or less takes the trick to
  lead (the partner's low lead handed to the caller);
* **going out**: at once when one play does it, except while a partner who called is still in
  and nobody is out and that partner holds fewer cards than every opponent plus
  ``HOLD_MARGIN`` (``hold_back``: going out first would fail their call);
* **opponent's trick**: the cheapest play when its price is within ``FOLLOW_MARGIN``, raised
  by the trick's points (``POINT_WEIGHT``), by ``ATTACK_BONUS`` when that opponent or a
  partner called and by one when that opponent is about to go out; a sure winner after which
  one play goes out is always taken, and spending a sure winner that leaves more costs
  ``SURE_COST`` unless an opponent is about to go out (``BOMB_THREAT``, or ``SUPPORT_THREAT``
  cards while a partner's call is open), plus ``CALLER_SURE`` while this seat's own call is
  open, ``SUPPORT_SURE`` while a partner's is, and, on a calling opponent's trick (the attack
  split by position), less ``ATTACK_SPLIT`` for the last of our side who can still beat it
  (its partners passed) or more for one whose partner plays after it; while a partner's call
  is open and that partner still plays on the trick after this seat, the price is capped at
  ``SUPPORT_DEFER`` (the trick left to the caller);
* **bombs** (``bomb_worth``, on a turn and out of turn): only on an opponent's trick, when that
  opponent is about to go out (``BOMB_THREAT``) or called and is getting close, holds
  ``SUPPORT_THREAT`` cards or fewer while a partner's call is open, while this seat's own call
  is open and at most ``CALLER_BOMB`` plays would be left after the bomb, or when the trick
  holds ``BOMB_POINTS`` unless ``BOMB_KEEP`` keeps the bomb (1: an opponent may still hold a
  higher bomb, ``bomb_beatable``; 2: a call is still open at the table).

**Passing after its own call** (``policies._expert_caller_passes``): control cards kept, the
Dog or the highest loose card of rank ``CALLER_GIFT`` or lower to the partner, the lowest loose
cards to the opponents.

**Calls by value** (``call_value``, ``tichu_value``): a linear score of the hand's features
(the features of ``analysis/handclass.py``: Aces, Kings, Dragon, Phoenix, Dog, Mah Jong, a
bomb, pairs, plays a plan needs, after an intercept) whose coefficients
``scripts/fit_expert_calls.py`` fits by paired simulation of ``expert`` players (the log-odds of
going out first when calling, shifted by the measured value of a call besides its bonus): call
when it is positive. Grand Tichu is called on the first 8 cards. Tichu's score adds the plan's
shape (``plan_shape``: low singles, straights) and the public context of the call
(``call_context``: a partner's call, else an opponent's Grand Tichu, else an opponent's Tichu,
each context with its own fitted break-even): it is called before passing on the 14 cards (so
the partner can support it; the fit weighs that call against waiting), or else after passing on
the hand then held, with a second row of coefficients (``TICHU_AFTER_VALUE``); over a
partner's call only when the score also beats ``TICHU_OVER_PARTNER``.
"""

import numpy as np

from ..bits import (
    ACES,
    DOG,
    DRAGON,
    KINGS,
    MAH_JONG,
    NORMAL,
    ONE,
    PHOENIX,
    RANK_LANE,
    SPECIALS,
    STRAIGHT_LANE,
    U64,
    ZERO,
    highest_bit_index,
    lane,
    popcount,
    rank_multiplicity,
    ranks_held,
    runs_ending,
)
from ..combos import (
    BOMB_FOUR,
    DOG_LEAD,
    FULL_HOUSE,
    PAIR,
    RANK2_DRAGON,
    SINGLE,
    STAIRS,
    STRAIGHT,
    TRIPLE,
)
from ..hand import card_points, plan_bombs_straights, plan_size
from ..jit import njit
from ..moves import has_bomb
from .heuristic import _lowest_bomb, follow_margin, price_after
from .slots import (
    ATTACK_SPLIT,
    BOMB_KEEP,
    BOMB_POINTS,
    BOMB_THREAT,
    CALLER_BOMB,
    CALLER_OVERTAKE,
    CALLER_SURE,
    DOG_PARTNER_CARDS,
    HOLD_MARGIN,
    PARTNER_LEAD,
    RETAKE_LEAD,
    SHORT_OPP,
    SUPPORT_DEFER,
    SUPPORT_SURE,
    SUPPORT_THREAT,
    SURE_COST,
    SURE_KEEP,
)

ALL_CARDS = NORMAL | SPECIALS
RANK2_PHOENIX_TOP = 29  # the Phoenix as a single: above any Ace, below the Dragon (§2.6)
N_CALL_FEATURES = 10  # intercept, aces, kings, dragon, phoenix, dog, mah_jong, bomb, pairs, plays
# the public context of a Tichu call (call_context): none, a partner's call, an opponent's Grand
# Tichu, an opponent's Tichu; a Tichu score has a coefficient for each but the first
CONTEXT_NONE, CONTEXT_PARTNER, CONTEXT_OPP_GRAND, CONTEXT_OPP_TICHU = 0, 1, 2, 3
N_CALL_CONTEXT = 3
N_CALL_SHAPE = 2  # a Tichu score's plan shape (plan_shape): low singles, straights
LOW_RANKS = U64(0x3FC)  # ranks 2..9 in a 16-bit rank set
NEVER_SURE = 1 << 8  # above every half-rank: no play of the kind is a sure winner


# ---- card tracking ----


@njit(cache=True)
def opponents_may_hold(pub, me):
    """The cards an opponent may hold: unplayed, not ours, not the ally's hand nor the exposed
    Minister's (Wu Wang, §4), not a card we gave a partner that is still unplayed (§6)."""
    out = ALL_CARDS & ~pub.played & ~me.hand & ~me.ally_hand & ~pub.exposed
    n = pub.n_players
    for q in range(me.seat & 1, n, 2):  # the seats of our parity: partners
        if q != me.seat:
            out &= ~me.given[q]
    return out


@njit(cache=True)
def single_top(out):
    """Half-rank (combos.py) of the highest single among the cards ``out``: 30 the Dragon, 29
    the Phoenix, 2r an Ace (r = 14) .. a 2, 2 the Mah Jong; 0 when none (the Dog is no single)."""
    if out & DRAGON:
        return RANK2_DRAGON
    if out & PHOENIX:
        return RANK2_PHOENIX_TOP
    r = ranks_held(out)
    if r == ZERO:
        return 0
    return 2 * highest_bit_index(r)


@njit(cache=True)
def _runs_with_phoenix(ranks, length, phoenix, fill):
    """Top bits of runs of ``length`` in the 16-bit rank set ``ranks``, one missing rank among
    ``fill`` completed by the Phoenix when ``phoenix``."""
    tops = runs_ending(ranks, length)
    if phoenix:
        gaps = fill & ~ranks
        while gaps != ZERO:
            g = gaps & (~gaps + ONE)
            gaps &= gaps - ONE
            tops |= runs_ending(ranks | g, length)
    return tops


@njit(cache=True)
def combo_top(out, kind, length):
    """Half-rank of the highest combination of ``kind`` and ``length`` the cards ``out`` could
    form (an upper bound: they may be split between several hands), 0 when none can."""
    if kind == SINGLE:
        return single_top(out)
    ph = (out & PHOENIX) != ZERO
    ge1, ge2, ge3, _ = rank_multiplicity(out)
    if kind == PAIR:
        s = ge2 | ge1 if ph else ge2
    elif kind == TRIPLE or kind == FULL_HOUSE:
        s = ge3 | ge2 if ph else ge3
    elif kind == STAIRS:
        s = _runs_with_phoenix(ge2, length // 2, ph, ge1)
    elif kind == STRAIGHT:
        s = _runs_with_phoenix(ranks_held(out), length, ph, RANK_LANE)
        s &= STRAIGHT_LANE
    else:
        return 0
    return 2 * highest_bit_index(s) if s != ZERO else 0


@njit(cache=True)
def bomb_possible(out):
    """Whether the cards ``out`` still hold a bomb (four of a kind or a straight flush, §2.7)."""
    return has_bomb(out & NORMAL)


@njit(cache=True)
def is_sure(out, code):
    """Whether a play of combination ``code`` can be beaten by no combination of the cards
    ``out`` but a bomb (bombs, kind ``BOMB_FOUR`` and up, count as sure; the Dog never)."""
    kind = code >> 16
    if kind >= BOMB_FOUR:
        return True
    if kind == DOG_LEAD:
        return False
    return combo_top(out, kind, (code >> 8) & 0xFF) < (code & 0xFF)


# ---- calls by value ----


@njit(cache=True)
def call_value(params, first, hand):
    """The linear call score of ``hand`` with the coefficients in ``params[first:first + 10]``
    (intercept first, then the features of ``analysis/handclass.py``); call when positive."""
    ge2 = rank_multiplicity(hand)[1]
    v = params[first]
    v += params[first + 1] * popcount(hand & ACES)
    v += params[first + 2] * popcount(hand & KINGS)
    v += params[first + 3] * (1.0 if hand & DRAGON else 0.0)
    v += params[first + 4] * (1.0 if hand & PHOENIX else 0.0)
    v += params[first + 5] * (1.0 if hand & DOG else 0.0)
    v += params[first + 6] * (1.0 if hand & MAH_JONG else 0.0)
    v += params[first + 7] * (1.0 if has_bomb(hand) else 0.0)
    v += params[first + 8] * popcount(ge2)
    v += params[first + 9] * plan_size(hand)
    return v


@njit(cache=True)
def call_context(pub, seat):
    """The public context of a Tichu call by ``seat`` (what the calls made so far say, §2.3):
    ``CONTEXT_PARTNER`` when a partner called (Grand) Tichu, else ``CONTEXT_OPP_GRAND`` when an
    opponent called Grand Tichu, else ``CONTEXT_OPP_TICHU`` when an opponent called Tichu, else
    ``CONTEXT_NONE``."""
    cat = CONTEXT_NONE
    for q in range(pub.n_players):
        if q == seat or not (pub.tichu[q] or pub.grand_tichu[q]):
            continue
        if (q & 1) == (seat & 1):
            return CONTEXT_PARTNER
        if pub.grand_tichu[q]:
            cat = CONTEXT_OPP_GRAND
        elif cat == CONTEXT_NONE:
            cat = CONTEXT_OPP_TICHU
    return cat


@njit(cache=True)
def plan_shape(hand):
    """``(low singles, straights)`` of the plan ``hand.plan_size`` makes of ``hand`` (bombs
    first, then up to two straights, longest first): its singles of rank 9 or lower, the Mah
    Jong included, less one the Phoenix pairs; and its straights (0 to 2)."""
    h, _, straights = plan_bombs_straights(hand)
    ge1, ge2, _, _ = rank_multiplicity(h)
    low = popcount(ge1 & ~ge2 & LOW_RANKS) + (1 if h & MAH_JONG else 0)
    if hand & PHOENIX and low > 0:
        low -= 1  # the Phoenix pairs the lowest single
    return low, straights


@njit(cache=True)
def tichu_value(params, first, extra, pub, me):
    """The Tichu score of ``me``'s hand: ``call_value`` with the coefficients at ``first``,
    plus at ``extra`` the coefficients of its ``plan_shape`` (low singles, straights) and of
    its ``call_context`` (the three contexts after ``CONTEXT_NONE``); call when positive."""
    v = call_value(params, first, me.hand)
    low, straights = plan_shape(me.hand)
    v += params[extra] * low + params[extra + 1] * straights
    cat = call_context(pub, me.seat)
    if cat != CONTEXT_NONE:
        v += params[extra + N_CALL_SHAPE + cat - 1]
    return v


# ---- play ----


@njit(cache=True)
def _partner_called(pub, seat):
    for q in range(seat & 1, pub.n_players, 2):
        if q != seat and pub.counts[q] > 0 and (pub.tichu[q] or pub.grand_tichu[q]):
            return True
    return False


@njit(cache=True)
def _fewest_partner_cards(pub, seat):
    """Cards left of the partner nearest to going out (99 when no partner holds cards)."""
    best = 99
    for q in range(seat & 1, pub.n_players, 2):
        if q != seat and 0 < pub.counts[q] < best:
            best = pub.counts[q]
    return best


@njit(cache=True)
def _short_opponents(pub, seat):
    """Bitmask of the card counts (1..14) of the opponents still holding cards."""
    m = 0
    for q in range(1 - (seat & 1), pub.n_players, 2):
        c = pub.counts[q]
        if 0 < c < 63:
            m |= 1 << c
    return m


@njit(cache=True)
def hold_back(pub, seat, margin=0.0):
    """Whether to keep from going out: a partner who called is still in, nobody is out yet, and
    that partner holds fewer cards than every opponent still in, or at most ``margin`` more
    (``HOLD_MARGIN``; going out first would make their call fail, §2.14)."""
    if pub.n_out != 0:
        return False
    caller = -1
    for q in range(seat & 1, pub.n_players, 2):
        if q != seat and pub.counts[q] > 0 and (pub.tichu[q] or pub.grand_tichu[q]):
            caller = q
    if caller < 0:
        return False
    for q in range(1 - (seat & 1), pub.n_players, 2):
        if 0 < pub.counts[q] and pub.counts[q] + margin <= pub.counts[caller]:
            return False
    return True


@njit(cache=True)
def _sure_span(moves_c, n, i, kl, top):
    """The first and last plays above ``top`` (sure winners) of the run of plays of kind and
    length ``kl`` that starts at ``i`` (the generator lists them together), -1 when none."""
    first = -1
    last = -1
    j = i
    while j < n and (moves_c[j] >> 8) == kl:
        if (moves_c[j] & 0xFF) > top:
            if first < 0:
                first = j
            last = j
        j += 1
    return first, last


@njit(cache=True, inline="always")
def _same_rank_key(moves_m, moves_c, i):
    """A bit for the single, pair or triple ``i`` by its rank and whether it holds the
    Phoenix. Two plays with the same bit differ only in suits: the hand left after either has
    the same ranks, so the same ``plan_size``, and the same control cards are spent
    (``heuristic._controls`` counts ranks), so ``_lead`` and ``_cheapest`` price them alike
    and keep the first (half-ranks reach 30: bits 0..61)."""
    return 1 << (2 * (moves_c[i] & 0xFF) + (1 if moves_m[i] & PHOENIX else 0))


@njit(cache=True)
def _lead(params, pub, me, moves_m, moves_c, n, out, base, hold):
    hand = me.hand
    seat = me.seat
    if hand & DOG:
        partner = _fewest_partner_cards(pub, seat)
        own_call = pub.tichu[seat] or pub.grand_tichu[seat]
        if (
            base <= 2
            or _partner_called(pub, seat)
            or (not own_call and partner <= params[DOG_PARTNER_CARDS] and partner < base)
        ):
            for i in range(n):
                if (moves_c[i] >> 16) == DOG_LEAD:
                    return i
    shorts = _short_opponents(pub, seat)
    support = _partner_called(pub, seat) and not (pub.tichu[seat] or pub.grand_tichu[seat])
    retake = params[RETAKE_LEAD]
    sure_a = -1
    sure_b = -1
    best = -1
    best_cost = np.inf
    last_kl = -1
    last_top = 0
    seen = 0  # _same_rank_key of the plays of kind and length ``last_kl`` priced so far
    for i in range(n):
        c = moves_c[i]
        kind = c >> 16
        if kind >= BOMB_FOUR or kind == DOG_LEAD:
            continue
        m = moves_m[i]
        if hold and m == hand:
            continue
        kl = c >> 8
        if kl != last_kl:
            last_kl = kl
            last_top = combo_top(out, kind, kl & 0xFF)
            if retake != 0.0:
                sure_a, sure_b = _sure_span(moves_c, n, i, kl, last_top)
            seen = 0
        if kind <= TRIPLE:
            # one of the same rank as a play priced before, with the Phoenix or without as
            # it: the same price, sure winners being of higher ranks (they share no card
            # with it but the Phoenix), so it cannot be cheaper
            key = _same_rank_key(moves_m, moves_c, i)
            if seen & key:
                continue
            seen |= key
        after = plan_size(hand & ~m)
        cost = price_after(params, pub, hand, base, after, m, c)
        length = popcount(m)
        if last_top < (c & 0xFF):  # a sure winner
            if after <= 1:
                cost -= 50.0  # win the lead back, then out
            else:
                cost += params[SURE_KEEP]
        else:
            if shorts >> min(length, 62) & 1:
                cost += params[SHORT_OPP]  # an opponent could go out on it
            if (
                retake != 0.0
                and sure_a >= 0
                and (moves_m[sure_a] & m == ZERO or moves_m[sure_b] & m == ZERO)
            ):
                cost -= retake  # a sure winner of its kind kept to win the lead back
        if support and kind == SINGLE:
            cost -= params[PARTNER_LEAD]
        cost -= 0.01 * length  # ties: the longer combination
        if cost < best_cost:
            best_cost = cost
            best = i
    if best >= 0:
        return best
    return 0  # only bombs or the Dog left: play the first


@njit(cache=True)
def _own_call(pub, seat):
    """Whether this seat called and its call is still open (nobody out yet)."""
    return pub.n_out == 0 and (pub.tichu[seat] != 0 or pub.grand_tichu[seat] != 0)


@njit(cache=True)
def calling_partner(pub, seat):
    """The partner whose call is still open (they called, nobody is out yet), -1 when none."""
    if pub.n_out != 0:
        return -1
    for q in range(seat & 1, pub.n_players, 2):
        if q != seat and pub.counts[q] > 0 and (pub.tichu[q] or pub.grand_tichu[q]):
            return q
    return -1


@njit(cache=True)
def _partners_passed(pub, seat):
    """Whether every partner still holding cards has passed on the trick's top play (none of
    them can still take it)."""
    for q in range(seat & 1, pub.n_players, 2):
        if q != seat and pub.counts[q] > 0 and not (pub.passed >> q & 1):
            return False
    return True


@njit(cache=True)
def bomb_beatable(out, code):
    """Whether the cards ``out`` could still form a bomb above the bomb ``code`` (a straight
    flush beats any four of a kind, a longer straight flush a shorter one, §2.7): pooled over
    the opponents, an upper bound."""
    normal = out & NORMAL
    if not has_bomb(normal):
        return False
    if (code >> 16) == BOMB_FOUR:
        ge4 = rank_multiplicity(normal)[3]
        if ge4 >> U64((code & 0xFF) // 2 + 1) != ZERO:  # a higher four of a kind
            return True
        for s in range(4):  # any straight flush beats a four of a kind
            if runs_ending(lane(normal, s) & RANK_LANE, 5) != ZERO:
                return True
        return False
    return True  # a straight flush: a longer or higher one may be out (an upper bound)


@njit(cache=True)
def bomb_worth(params, pub, me, out, code):
    """Whether bombing the opponent's trick in play with the bomb ``code`` pays: an opponent
    about to go out (``BOMB_THREAT``) or whose call is getting close; an opponent close to
    going out ahead of a partner who called (``SUPPORT_THREAT``); our own call a few plays
    from success (``CALLER_BOMB``); a trick worth ``BOMB_POINTS``, unless ``BOMB_KEEP`` keeps
    the bomb (1: an opponent could overbomb it; 2: for a call still open at the table)."""
    ts = pub.top_seat
    seat = me.seat
    if ts < 0 or (ts - seat) % 2 == 0:
        return False  # no trick, the partner's, or our own
    c = pub.counts[ts]
    if c <= params[BOMB_THREAT]:
        return True
    if (pub.tichu[ts] or pub.grand_tichu[ts]) and c <= 2 * params[BOMB_THREAT]:
        return True
    if calling_partner(pub, seat) >= 0 and c <= params[SUPPORT_THREAT]:
        return True
    if _own_call(pub, seat) and plan_size(me.hand) <= params[CALLER_BOMB] + 1:
        return True  # win the lead back to finish first
    if card_points(pub.trick_cards) >= params[BOMB_POINTS]:
        keep = np.int64(params[BOMB_KEEP])
        if keep & 1 and bomb_beatable(out, code):
            return False
        if keep & 2 and pub.n_out == 0:
            for q in range(pub.n_players):
                if pub.counts[q] > 0 and (pub.tichu[q] or pub.grand_tichu[q]):
                    return False  # kept to stop (or make) a call still open
        return True
    return False


@njit(cache=True)
def bomb_out_of_turn(params, pub, me, masks, codes, n):
    """The lowest bomb offered out of turn when ``bomb_worth`` says it pays, else -1."""
    if n == 0:
        return -1
    b = _lowest_bomb(codes, 0, n)
    if bomb_worth(params, pub, me, opponents_may_hold(pub, me), codes[b]):
        return b
    return -1


@njit(cache=True)
def _cheapest(params, pub, hand, base, moves_m, moves_c, n, hold, out, threat, sure_cost):
    """The cheapest non-bomb play on a trick and its price (-1, inf when none)."""
    best = -1
    best_cost = np.inf
    last_kl = -1
    last_top = 0
    seen = 0  # _same_rank_key of the plays of kind and length ``last_kl`` priced so far
    for i in range(n):
        c = moves_c[i]
        kind = c >> 16
        if kind >= BOMB_FOUR:
            continue
        m = moves_m[i]
        if hold and m == hand:
            continue
        kl = c >> 8
        if kl != last_kl:  # ``is_sure``: one ``combo_top`` per kind and length
            last_kl = kl
            last_top = NEVER_SURE if kind == DOG_LEAD else combo_top(out, kind, kl & 0xFF)
            seen = 0
        if kind <= TRIPLE:
            key = _same_rank_key(moves_m, moves_c, i)
            if seen & key:
                continue  # the same price as a play priced before: not cheaper
            seen |= key
        after = plan_size(hand & ~m)
        cost = price_after(params, pub, hand, base, after, m, c)
        if last_top < (c & 0xFF):
            if after <= 1:
                cost -= 50.0
            elif not threat:
                cost += sure_cost
        if cost < best_cost:
            best_cost = cost
            best = i
    return best, best_cost


@njit(cache=True)
def _overtakes(params, pub, seat):
    """Whether a play on a partner's trick is considered at all: this seat's own call is open
    and ``CALLER_OVERTAKE`` lets a caller take the trick to lead."""
    return _own_call(pub, seat) and pub.top_seat != seat and params[CALLER_OVERTAKE] > -50.0


@njit(cache=True)
def passes_unseen(params, pub, me):
    """Whether ``choose`` passes on the trick in play whatever plays it is given, so that they
    need not be generated, when passing is allowed (the caller checks that no wish binds,
    §2.11): a partner's trick (or its own), no overtaking (``_overtakes``), and no going out
    at once: held back, or the hand is no single play (not as many cards as the trick's top
    and no bomb, §2.7)."""
    top = pub.top_code
    seat = me.seat
    if top == 0 or (pub.top_seat - seat) % 2 != 0 or _overtakes(params, pub, seat):
        return False
    hand = me.hand
    if popcount(hand) != (top >> 8) & 0xFF and not has_bomb(hand):
        return True
    return hold_back(pub, seat, params[HOLD_MARGIN])


@njit(cache=True)
def choose(params, pub, me, moves_m, moves_c, n, can_pass):
    """Index of the play to make among the ``n`` legal plays, or -1 to pass."""
    if n == 0:
        return -1
    hand = me.hand
    seat = me.seat
    # out at once unless held back; ``hold`` only matters for a play of the whole hand
    hold = False
    for i in range(n):
        if moves_m[i] == hand:
            hold = hold_back(pub, seat, params[HOLD_MARGIN])
            if not hold:
                return i
            break
    if pub.top_code == 0:
        base = plan_size(hand)
        out = opponents_may_hold(pub, me)
        return _lead(params, pub, me, moves_m, moves_c, n, out, base, hold)

    ts = pub.top_seat
    own_call = _own_call(pub, seat)
    if (ts - seat) % 2 == 0 and can_pass:
        # never overtake a partner (going out was taken above unless held back), but a
        # caller takes a partner's trick cheaply to lead (``CALLER_OVERTAKE``)
        if _overtakes(params, pub, seat):
            best, best_cost = _cheapest(
                params,
                pub,
                hand,
                plan_size(hand),
                moves_m,
                moves_c,
                n,
                hold,
                opponents_may_hold(pub, me),
                False,
                params[SURE_COST] + params[CALLER_SURE],
            )
            if best >= 0 and best_cost <= params[CALLER_OVERTAKE]:
                return best
        return -1
    base = plan_size(hand)
    out = opponents_may_hold(pub, me)
    caller = calling_partner(pub, seat)
    cnt = pub.counts[ts]
    support_threat = caller >= 0 and cnt <= params[SUPPORT_THREAT]
    shorts = _short_opponents(pub, seat)
    threat = (shorts & ((2 << np.int64(params[BOMB_THREAT])) - 1)) != 0 or support_threat
    sure_cost = params[SURE_COST]
    if own_call:
        sure_cost += params[CALLER_SURE]
    elif caller >= 0:
        sure_cost += params[SUPPORT_SURE]
    opp_call = pub.tichu[ts] or pub.grand_tichu[ts]
    if opp_call and pub.n_out == 0:
        # the attack on a call split by position: the last of our side who can still beat
        # the caller's play spends sure winners more freely, one whose partner plays after it
        # leaves them the trick
        sure_cost += -params[ATTACK_SPLIT] if _partners_passed(pub, seat) else params[ATTACK_SPLIT]
    best, best_cost = _cheapest(
        params, pub, hand, base, moves_m, moves_c, n, hold, out, threat, sure_cost
    )

    # on an opponent's trick: play ``best`` within the margin of taking the trick, else a
    # bomb when one is worth it, else pass
    margin = follow_margin(params, pub, moves_m, best, _partner_called(pub, seat))
    if caller >= 0 and not support_threat and not (pub.passed >> caller & 1):
        margin = min(margin, params[SUPPORT_DEFER])  # the calling partner still plays on it
    if best >= 0 and (best_cost <= margin or not can_pass):
        return best
    b = _lowest_bomb(moves_c, 0, n)
    if b >= 0 and (bomb_worth(params, pub, me, out, moves_c[b]) or (best < 0 and not can_pass)):
        return b
    return -1 if can_pass else 0


__all__ = [
    "bomb_beatable",
    "bomb_out_of_turn",
    "bomb_possible",
    "bomb_worth",
    "call_context",
    "call_value",
    "calling_partner",
    "choose",
    "combo_top",
    "hold_back",
    "is_sure",
    "opponents_may_hold",
    "passes_unseen",
    "plan_shape",
    "single_top",
    "tichu_value",
]
