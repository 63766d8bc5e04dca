"""Decision policies: the engine's strategy interface (RULES.md §6), jitted.

A seat's strategy is one row of floats (layout in ``slots.py``): one slot per decision picks a
policy (the ids below), the other slots hold numeric parameters (``tichusim.strategies`` names
them and gives their defaults). Every decision function receives
that row, the table's public record and the deciding seat's private record only (``view.py``),
plus the choices the engine has worked out where there are some:

* ``grand_tichu`` / ``tichu``: call or not (``point`` says which Tichu decision point);
* ``passes``: one distinct card of the hand for each seat the variant's passing reaches
  (``variants.pass_offsets``): in the 4-player game the right opponent (the next seat, as the
  rule books say: play passes to the right), partner, left opponent;
* ``play``: the policy generates the plays it considers into the move buffers (all legal
  plays, or only those of one lead category: enumerating every lead of a 14-card hand costs
  microseconds) and answers an index into them, -1 to pass (only when passing is allowed), or
  ``MOVES_OVERFLOW`` when the buffers were too small;
* ``bomb``: index into the bombs offered out of turn, or -1 (the usual answer);
* ``wish``: a rank 2..14 after playing the Mah Jong, or 0 for none;
* ``dragon``: the opponent seat receiving a trick won with the Dragon;
* ``dog_target``: which of two partners still holding cards the Dog leads to (Tientsin, §3).

Seats are positions (``variants.py``): the sides alternate in every variant, so a seat's
partners are the other seats of its parity and its opponents the rest, whatever the number of
seats. In Wu Wang the King's strategy also decides for the Minister: it is then called with the
Minister's private record (§4). The scripted play policy lives in ``heuristic.py``, the
``expert`` strategy's play and call scores in ``expert.py``, the ``learned`` play's network in
``learned.py`` (its model and scratch come in the work record: ``play`` and ``bomb`` take
them).
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
    U64,
    ZERO,
    lowest_bit_index,
    popcount,
    rank_cards,
    rank_multiplicity,
)
from ..choices import MOVES_OVERFLOW, draw_lead_category, lowest_index, lowest_single_valued
from ..combos import (
    RANK2_DRAGON,
    RANK2_PHOENIX_LED,
    RANK2_PHOENIX_LED_HALF,
    SINGLE,
    make_code,
    phoenix_single,
)
from ..hand import highest_card, loose_cards, lowest_card, plan_size
from ..jit import njit
from ..moves import LEAD_CATEGORIES, keep_wished, lead_moves, legal_moves
from ..outside import D_BOMB, D_PLAY
from ..rng import rand_below
from . import expert, heuristic, learned, passnet
from .slots import (
    CALLER_GIFT,
    GT_THRESHOLD,
    GT_VALUE,
    P_DOG,
    P_DRAGON,
    P_GRAND_TICHU,
    P_MODEL,
    P_PASS,
    P_PASS_MODEL,
    P_PLAY,
    P_TICHU,
    P_WISH,
    TICHU_AFTER_EXTRA,
    TICHU_AFTER_VALUE,
    TICHU_EXTRA,
    TICHU_OVER_PARTNER,
    TICHU_THRESHOLD,
    TICHU_VALUE,
    W_ACE,
    W_BOMB,
    W_DOG,
    W_DRAGON,
    W_KING,
    W_MAH_JONG,
    W_PHOENIX,
    W_PLAY,
)
from .variants import WUWANG, pass_offsets

# play policies
PLAY_RANDOM, PLAY_LOWEST, PLAY_HEURISTIC, PLAY_EXPERT, PLAY_LEARNED = 0, 1, 2, 3, 4
# Grand Tichu and Tichu policies
CALL_NEVER, CALL_ALWAYS, CALL_RANDOM, CALL_THRESHOLD, CALL_VALUE = 0, 1, 2, 3, 4
# passing policies
(
    PASS_RANDOM,
    PASS_LOWEST,
    PASS_PARTNER_BEST,
    PASS_KEEP_COMBOS,
    PASS_ODD_EVEN,
    PASS_DOG_PARTNER,
    PASS_DOG_OPPONENT,
    PASS_SUPPORT_CALL,
    PASS_EXPERT,
    PASS_LEARNED,
) = range(10)
# wish policies
WISH_NONE, WISH_RANDOM, WISH_PASSED_RIGHT, WISH_HIGHEST_MISSING, WISH_EXPERT = 0, 1, 2, 3, 4
# Dragon's gift policies
DRAGON_RIGHT, DRAGON_MORE_CARDS, DRAGON_NEXT, DRAGON_RANDOM, DRAGON_EXPERT = 0, 1, 2, 3, 4
# the Dog's target between two partners (§3)
DOG_NEXT, DOG_FEWER_CARDS, DOG_SUPPORT_CALL, DOG_RANDOM = 0, 1, 2, 3

# a Tichu's decision points (§2.3); the scripted strategies are asked at the first three,
# a seat decided from Python also right before a bomb out of turn that is its first card
TICHU_BEFORE_PASSING = 0
TICHU_AFTER_PASSING = 1
TICHU_BEFORE_TURN = 2
TICHU_BEFORE_BOMB = 3


@njit(cache=True)
def _policy(params, slot):
    return np.int64(params[slot])


@njit(cache=True)
def random_card(me, cards):
    """A uniformly random card of ``cards`` (non-empty)."""
    me.rng, j = rand_below(me.rng, popcount(cards))
    x = cards
    for _ in range(j):
        x &= x - ONE
    return x & (~x + ONE)


# ---- partners (the sides alternate around the table in every variant) ----


@njit(cache=True, inline="always")
def _at(seat, d, n):
    """The seat ``d`` places after ``seat`` (0 <= d < n), without a division: the number of
    seats is only known at run time, and a modulo by it costs more than these policies."""
    q = seat + d
    return q - n if q >= n else q


@njit(cache=True)
def called(pub, seat):
    return pub.tichu[seat] != 0 or pub.grand_tichu[seat] != 0


@njit(cache=True)
def partner_called(pub, seat):
    """Whether a partner of ``seat`` called Tichu or Grand Tichu."""
    for q in range(seat & 1, pub.n_players, 2):  # the seats of our parity (no division)
        if q != seat and called(pub, q):
            return True
    return False


@njit(cache=True)
def support_partner(pub, seat, candidates):
    """The partner to support among the seats in the bitmask ``candidates``: one who called
    (Grand) Tichu, else the one holding the fewest cards (nearest to going out), ties to the
    first in turn order after ``seat``; -1 when ``candidates`` holds no partner."""
    n = pub.n_players
    best = -1
    for d in range(2, n, 2):
        q = _at(seat, d, n)
        if not candidates >> q & 1:
            continue
        if best < 0:
            best = q
        elif called(pub, q) != called(pub, best):
            if called(pub, q):
                best = q
        elif pub.counts[q] < pub.counts[best]:
            best = q
    return best


# ---- calls ----


@njit(cache=True)
def strength(params, hand):
    """Hand-strength score of the threshold call policies: weighted features of the hand,
    less a weight per play the hand needs (``hand.plan_size``)."""
    ge4 = rank_multiplicity(hand)[3]
    s = params[W_PLAY] * -plan_size(hand)
    s += params[W_DRAGON] * (1 if hand & DRAGON else 0)
    s += params[W_PHOENIX] * (1 if hand & PHOENIX else 0)
    s += params[W_ACE] * popcount(hand & ACES)
    s += params[W_KING] * popcount(hand & KINGS)
    s += params[W_BOMB] * popcount(ge4)
    s += params[W_DOG] * (1 if hand & DOG else 0)
    s += params[W_MAH_JONG] * (1 if hand & MAH_JONG else 0)
    return s


@njit(cache=True)
def _call(policy, params, me, threshold):
    if policy == CALL_ALWAYS:
        return True
    if policy == CALL_RANDOM:
        me.rng, r = rand_below(me.rng, 2)
        return r == 1
    if policy == CALL_THRESHOLD:
        return strength(params, me.hand) >= threshold
    return False


@njit(cache=True)
def grand_tichu(params, pub, me):
    policy = _policy(params, P_GRAND_TICHU)
    if policy == CALL_VALUE:
        return expert.call_value(params, GT_VALUE, me.hand) > 0.0
    return _call(policy, params, me, params[GT_THRESHOLD])


@njit(cache=True)
def tichu(params, pub, me, point):
    """Tichu at ``point``; a threshold policy never calls when its partner already did (one
    call per team is the norm: two calls cannot both succeed)."""
    policy = _policy(params, P_TICHU)
    if policy == CALL_VALUE:
        # before passing, on the 14 cards, so the partner can support it (§2.3, §2.4); after
        # passing on the hand then held, when the first score did not call
        if point == TICHU_BEFORE_PASSING:
            v = expert.tichu_value(params, TICHU_VALUE, TICHU_EXTRA, pub, me)
        elif point == TICHU_AFTER_PASSING:
            v = expert.tichu_value(params, TICHU_AFTER_VALUE, TICHU_AFTER_EXTRA, pub, me)
        else:
            return False
        if partner_called(pub, me.seat):
            v -= params[TICHU_OVER_PARTNER]
        return v > 0.0
    if policy == CALL_THRESHOLD and partner_called(pub, me.seat):
        return False
    return _call(policy, params, me, params[TICHU_THRESHOLD])


@njit(cache=True)
def call_told(params, hand):
    """Whether ``hand`` (a caller's cards after the passing: those it holds and those it has
    played) is one the Tichu policy of ``params`` calls on by the hand alone: the value
    policy's score after the passing, without the context of the calls (§2.3); True for the
    other policies, whose calls tell nothing this way. A search deals only hands that agree
    with the calls made (``resample.search_deal``)."""
    if _policy(params, P_TICHU) != CALL_VALUE:
        return True
    v = expert.call_value(params, TICHU_AFTER_VALUE, hand)
    low, straights = expert.plan_shape(hand)
    return v + params[TICHU_AFTER_EXTRA] * low + params[TICHU_AFTER_EXTRA + 1] * straights > 0.0


# ---- passing (§2.4; §3 and §4 pass to fewer seats) ----


@njit(cache=True)
def _best_card(hand):
    """The partner's card: the Dragon, the Phoenix, then the highest card outside a bomb."""
    ge4 = rank_multiplicity(hand)[3]
    free = hand & ~DOG
    while ge4 != ZERO:
        free &= ~rank_cards(lowest_bit_index(ge4))
        ge4 &= ge4 - ONE
    return highest_card(free if free != ZERO else hand)


EVEN_OFFSETS = (1 << 2) | (1 << 4)  # the partners' offsets (the sides alternate)


@njit(cache=True)
def _receivers(pub, seat, offsets):
    """Bitmask of the seats receiving a card from ``seat`` (bit q for seat q)."""
    n = pub.n_players
    seats = 0
    for d in range(1, n):
        if offsets >> d & 1:
            seats |= 1 << _at(seat, d, n)
    return seats


@njit(cache=True)
def _partner_gifts(pub, me, offsets, policy, loose, out):
    """Give each partner the passing reaches its card, the partner to support first (only one
    partner in the 4-player game): ``partner-best`` the best card (``_best_card``), the others
    the best loose card that is no Dog (``dog-partner``: the Dog first). Returns the cards."""
    n = pub.n_players
    hand = me.hand
    left_over = _receivers(pub, me.seat, offsets & EVEN_OFFSETS)
    gifts = ZERO
    while left_over:
        q = support_partner(pub, me.seat, left_over)
        left_over &= ~(1 << q)
        rest = hand & ~gifts
        if policy == PASS_PARTNER_BEST:
            gift = _best_card(rest)
        elif policy == PASS_DOG_PARTNER and rest & DOG:
            gift = DOG
        else:
            keep = loose & rest & ~DOG
            gift = highest_card(keep) if keep != ZERO else _best_card(rest)
        d = q - me.seat  # q is d places after the seat
        out[(d + n if d < 0 else d) - 1] = gift
        gifts |= gift
    return gifts


@njit(cache=True)
def _opponent_gifts(pub, me, offsets, pool, gifts, out):
    """The lowest card of ``pool`` to each opponent the passing reaches, in turn order; when
    ``pool`` runs short, the lowest other card but the Phoenix and the Dragon (no policy gives
    those to an opponent while it has anything else)."""
    rest = me.hand & ~gifts
    for d in range(1, pub.n_players, 2):
        if offsets >> d & 1:
            choice = pool & rest
            if choice == ZERO:
                choice = rest & ~(DRAGON | PHOENIX)
            if choice == ZERO:
                choice = rest
            out[d - 1] = lowest_card(choice)
            rest &= ~out[d - 1]


@njit(cache=True)
def _odd_even(pub, me, offsets, gifts, loose, out):
    """The signal: an even rank to the first opponent in turn order the passing reaches (the
    right one, §2.1), an odd rank to the next (loose cards if it can be). Returns False when the
    parity pools left two opponents the same card (the plain choice is then kept)."""
    rest = me.hand & ~gifts
    parity = 0
    for d in range(1, pub.n_players, 2):
        if not offsets >> d & 1:
            continue
        pool = ZERO
        for r in range(2 + parity, 15, 2):
            pool |= rest & rank_cards(r)
        pick = lowest_card(pool & loose) if pool & loose else lowest_card(pool) if pool else ZERO
        if pick != ZERO:
            out[d - 1] = pick
            rest &= ~pick
        parity = 1
    seen = ZERO
    for d in range(1, pub.n_players, 2):
        if offsets >> d & 1:
            if out[d - 1] & seen:
                return False
            seen |= out[d - 1]
    return True


@njit(cache=True)
def _expert_caller_passes(params, pub, me, offsets, loose, out):
    """``expert`` after its own call: keep the control cards (Dragon, Phoenix, Aces, the Mah
    Jong); each partner gets the Dog if held, else the highest loose card of rank
    ``CALLER_GIFT`` or lower; the opponents the lowest loose cards."""
    n = pub.n_players
    hand = me.hand
    keep = DRAGON | PHOENIX | ACES | MAH_JONG
    high = ZERO  # the ranks above the cap, kept from the partner's gift when it can be
    for r in range(np.int64(params[CALLER_GIFT]) + 1, 14):
        high |= rank_cards(r)
    left_over = _receivers(pub, me.seat, offsets & EVEN_OFFSETS)
    gifts = ZERO
    while left_over:
        q = support_partner(pub, me.seat, left_over)
        left_over &= ~(1 << q)
        rest = hand & ~gifts
        if rest & DOG:
            gift = DOG
        else:
            pool = loose & rest & ~keep & ~high
            if pool == ZERO:
                pool = loose & rest & ~keep
            if pool == ZERO:
                pool = rest & ~keep
            gift = highest_card(pool) if pool != ZERO else lowest_card(rest)
        d = q - me.seat
        out[(d + n if d < 0 else d) - 1] = gift
        gifts |= gift
    _opponent_gifts(pub, me, offsets, loose & ~gifts & ~keep, gifts, out)


@njit(cache=True)
def passes(params, pub, me, out, models):
    """Fill ``out[d - 1]`` with a single-card mask for each offset ``d`` of
    ``variants.pass_offsets``: in the 4-player game ``out[0..2]`` are the right opponent, the
    partner, the left opponent (§2.1). Slots of seats the passing does not reach are not
    written. ``models``: the table's (``table_models.py``), read by the learned passing only."""
    policy = _policy(params, P_PASS)
    if policy == PASS_LEARNED:
        _learned_pass(params, models, pub, me, out)
        return
    scripted_passes(policy, params, pub, me, out)


# the scripted policies whose passes are the learned passing's first candidates, in order
LEARNED_PROBES = (
    PASS_EXPERT,
    PASS_PARTNER_BEST,
    PASS_KEEP_COMBOS,
    PASS_ODD_EVEN,
    PASS_DOG_PARTNER,
    PASS_DOG_OPPONENT,
    PASS_LOWEST,
)


@njit(cache=True)
def learned_candidates(params, pub, me, cands):
    """The learned passing's candidates for the seat ``me`` into ``cands`` (at least
    ``passnet.MAX_CANDIDATES`` rows of the ``passes`` slots: in the 4-player game right
    opponent, partner, left opponent): the probed policies' passes (``LEARNED_PROBES``), then
    ``passnet.structured``'s (Wu Wang: ``passnet.wuwang_structured``'s, two cards each, §4).
    Returns how many."""
    gifts = np.zeros(3, np.uint64)
    n = 0
    # where neither the seat nor a partner called (where the learned passing asks), expert's
    # pass is keep-combos' (the same partner and opponent gifts, ``scripted_passes``), and so
    # are dog-partner's and dog-opponent's without the Dog: those are not made again (``add``
    # would drop them)
    plain = not called(pub, me.seat) and not partner_called(pub, me.seat)
    for policy in LEARNED_PROBES:
        if plain and (
            policy == PASS_KEEP_COMBOS
            or (policy == PASS_DOG_PARTNER or policy == PASS_DOG_OPPONENT)
            and not me.hand & DOG
        ):
            continue
        scripted_passes(policy, params, pub, me, gifts)
        n = passnet.add(cands, n, gifts[0], gifts[1], gifts[2])
    if pub.variant == WUWANG:
        return passnet.wuwang_structured(me.hand, me.seat, cands, n)
    return passnet.structured(me.hand, cands, n)


@njit(cache=True)
def _learned_pass(params, models, pub, me, out):
    """The learned passing (``passnet.py``): the best of its candidates by the seat's pass
    model (the row ``slots.P_PASS_MODEL`` of ``models``): the 4-player game's network
    (``passnet.KIND``) at Nanjing, Wu Wang's (``passnet.KIND_WUWANG``, which reads the
    Minister's hand the King sees, §4) at Wu Wang. ``expert``'s pass instead where the
    network was not trained: another table, or a model of another table's kind; the seat or
    its partner (Wu Wang: the other opponent, or the King's Minister) having called before the
    passing (§2.3: its labels hold no call of the seat, and the partner's only averaged in, so
    expert's support of a call, or its caller's pass, is kept); no model (a table without
    one: pruned when ``models`` is ``None``, as ``_learned`` is). An opponent's call does not
    stop it: the labels play the opponents' calls."""
    if models is None or called(pub, me.seat) or partner_called(pub, me.seat):
        scripted_passes(PASS_EXPERT, params, pub, me, out)
        return
    k = np.int64(params[P_PASS_MODEL])
    if k < 0 or k >= models.shape[0]:
        scripted_passes(PASS_EXPERT, params, pub, me, out)
        return
    if pub.variant == WUWANG:
        kind = passnet.KIND_WUWANG
    elif pub.n_players == 4:
        kind = passnet.KIND
    else:
        kind = -1.0
    if models[k, 3] != kind:
        scripted_passes(PASS_EXPERT, params, pub, me, out)
        return
    cands = np.zeros((passnet.MAX_CANDIDATES, 3), np.uint64)
    n = learned_candidates(params, pub, me, cands)
    if pub.variant == WUWANG:
        best = passnet.wuwang_choose(models[k], me.hand, me.ally_hand, me.seat, cands, n)
    else:
        best = passnet.choose(models[k], me.hand, cands, n)
    for d in range(3):
        out[d] = cands[best, d]


@njit(cache=True)
def scripted_passes(policy, params, pub, me, out):
    """``passes`` for the scripted passing ``policy`` (any but ``PASS_LEARNED``)."""
    hand = me.hand
    n = pub.n_players
    offsets = pass_offsets(pub.variant, me.seat)
    if policy == PASS_RANDOM or policy == PASS_LOWEST:
        used = ZERO
        for d in range(1, n):
            if offsets >> d & 1:
                if policy == PASS_RANDOM:
                    out[d - 1] = random_card(me, hand & ~used)
                else:
                    out[d - 1] = lowest_card(hand & ~used)
                used |= out[d - 1]
        return
    loose = loose_cards(hand)
    if policy == PASS_EXPERT and called(pub, me.seat):
        _expert_caller_passes(params, pub, me, offsets, loose, out)
        return
    if policy == PASS_PARTNER_BEST or (
        (policy == PASS_SUPPORT_CALL or policy == PASS_EXPERT) and partner_called(pub, me.seat)
    ):
        gifts = _partner_gifts(pub, me, offsets, PASS_PARTNER_BEST, loose, out)
        _opponent_gifts(pub, me, offsets, hand & ~(DRAGON | PHOENIX | MAH_JONG), gifts, out)
        return
    # keep combinations: give loose cards; partners the best loose cards that are no Dog
    gifts = _partner_gifts(pub, me, offsets, policy, loose, out)
    _opponent_gifts(pub, me, offsets, loose & ~gifts, gifts, out)
    if policy == PASS_DOG_OPPONENT and hand & DOG and not gifts & DOG:
        last = -1  # the Dog to the last opponent in turn order (the left one) unless given
        given = ZERO
        for d in range(1, n, 2):
            if offsets >> d & 1:
                last = d
                given |= out[d - 1]
        if last > 0 and not given & DOG:
            out[last - 1] = DOG
    if policy == PASS_ODD_EVEN and not _odd_even(pub, me, offsets, gifts, loose, out):
        _opponent_gifts(pub, me, offsets, loose & ~gifts, gifts, out)


# ---- plays (with the choices both families make alike, ``kernels/choices.py``) ----


@njit(cache=True)
def random_lead(me, wish, moves_m, moves_c):
    """A random lead: a category drawn uniformly among those not yet found empty, then a play
    of it uniformly. Every legal lead keeps a positive probability; under a binding wish only
    plays with the wished rank count (§2.11; the wished single always exists then)."""
    wished = me.hand & rank_cards(wish) if wish != 0 else ZERO
    tried = 0
    while True:
        c = draw_lead_category(me, tried)
        n = lead_moves(me.hand, LEAD_CATEGORIES[c], moves_m, moves_c, 0)
        if n > moves_m.shape[0]:
            return MOVES_OVERFLOW
        if wished != ZERO:
            n = keep_wished(wished, False, moves_m, moves_c, n)
        if n > 0:
            me.rng, j = rand_below(me.rng, n)
            return j
        tried |= 1 << c


@njit(cache=True)
def lowest_single(hand, top, wish, phoenix_led):
    """The lowest play when it is a single or the Dog, computed from the bits: on a lead (the
    Dog, then the Mah Jong and the Phoenix by value: the Phoenix led is worth ``phoenix_led``,
    1½ or ½ under the §2.6 Option, then the lowest card) or on a single (the Mah Jong on a
    Phoenix led as ½), unless the hand holds an open wished rank. Returns ``(mask, code)``, or
    ``(0, 0)`` when the full list is needed (other tricks, a wish that may bind, or no single
    beats)."""
    dragon = make_code(SINGLE, 1, RANK2_DRAGON) if (top & 0xFF) < RANK2_DRAGON else 0
    return lowest_single_valued(hand, top, wish, phoenix_single(top, phoenix_led), dragon)


@njit(cache=True)
def led_phoenix(pub):
    """Half rank of a lone Phoenix led in this variant (§2.6): 1½, or ½ under the Option."""
    return RANK2_PHOENIX_LED_HALF if pub.rules.phoenix_led_half else RANK2_PHOENIX_LED


@njit(cache=True)
def value_led_phoenix(pub, moves_m, moves_c, n):
    """The move generator gives a led lone Phoenix its usual 1½; in a game playing the §2.6
    Option it is worth ½, and the strategies price and compare it at that value (the engine
    scores it so whatever a strategy returns)."""
    if pub.rules.phoenix_led_half:
        for i in range(n):
            if moves_m[i] == PHOENIX:
                moves_c[i] = make_code(SINGLE, 1, RANK2_PHOENIX_LED_HALF)


@njit(cache=True)
def binding_wish(pub, seat):
    """The open wish as it binds ``seat``: none for the Minister (§4)."""
    return 0 if pub.wish_free >> seat & 1 else pub.wish


NO_MODEL = -3  # the learned play's answer without a model: outside every choice


@njit(cache=True)
def _learned(params, models, learn, pub, me, decision, masks, codes, n, with_none):
    """The learned play's answer (``learned.choose``) with the seat's model, the row
    ``slots.P_MODEL`` of the table's ``models``; ``NO_MODEL`` when the table has none for it.
    Compiled apart from its callers, so that with ``models`` ``None`` (a table where no seat
    plays a model) the branch that plays one is pruned before typing: such a table's kernels
    hold no network code."""
    if models is None:
        return NO_MODEL
    k = np.int64(params[P_MODEL])
    if k < 0 or k >= models.shape[0] or models[k, 0] == 0.0:  # no hidden units: never loaded
        return NO_MODEL
    return learned.choose(models[k], learn, pub, me, decision, masks, codes, n, with_none)


@njit(cache=True)
def play(params, pub, me, moves_m, moves_c, models, learn):
    """Choose a play on the seat's turn: an index into the plays written to ``moves_m`` /
    ``moves_c``, -1 to pass, or ``MOVES_OVERFLOW``. ``models`` (the table's, ``models.py``,
    or ``None``) and ``learn`` (the work record's scratch) are read by the learned play only
    (``learned.py``), which answers ``NO_MODEL`` without its model."""
    policy = _policy(params, P_PLAY)
    top = pub.top_code
    wish = binding_wish(pub, me.seat)
    if top == 0 and policy == PLAY_RANDOM:
        return random_lead(me, wish, moves_m, moves_c)
    if policy == PLAY_LOWEST:
        # Without a wish the lowest lead is a single or the Dog: any other combination tops at
        # or above its lowest card and holds more cards. On singles the lowest beating single
        # (a bomb only when none beats, from the full list below).
        mask, code = lowest_single(me.hand, top, wish, led_phoenix(pub))
        if mask != ZERO:
            moves_m[0] = mask
            moves_c[0] = code
            return 0
    if policy == PLAY_EXPERT and wish == 0 and expert.passes_unseen(params, pub, me):
        return -1  # a pass whatever the plays: no need to list them
    n, can_pass = legal_moves(me.hand, top, wish, moves_m, moves_c)
    if n > moves_m.shape[0]:
        return MOVES_OVERFLOW
    if top == 0:
        value_led_phoenix(pub, moves_m, moves_c, n)
    if policy == PLAY_HEURISTIC:
        return heuristic.choose(params, pub, me, moves_m, moves_c, n, can_pass == 1)
    if policy == PLAY_EXPERT:
        return expert.choose(params, pub, me, moves_m, moves_c, n, can_pass == 1)
    if policy == PLAY_LEARNED:
        return _learned(params, models, learn, pub, me, D_PLAY, moves_m, moves_c, n, can_pass)
    if policy == PLAY_RANDOM:
        me.rng, j = rand_below(me.rng, n + can_pass)
        return j if j < n else -1
    if n == 0:
        return -1
    return lowest_index(moves_c, n)


@njit(cache=True)
def bomb(params, pub, me, masks, codes, n, models, learn):
    """Bomb out of turn (§2.9): an index into the ``n`` bombs offered, or -1; ``models`` and
    ``learn`` as ``play``'s."""
    policy = _policy(params, P_PLAY)
    if policy == PLAY_RANDOM:
        me.rng, j = rand_below(me.rng, n + 1)
        return j if j < n else -1
    if policy == PLAY_HEURISTIC:
        return heuristic.bomb_out_of_turn(params, pub, me, masks, codes, n)
    if policy == PLAY_EXPERT:
        return expert.bomb_out_of_turn(params, pub, me, masks, codes, n)
    if policy == PLAY_LEARNED:
        return _learned(params, models, learn, pub, me, D_BOMB, masks, codes, n, 1)
    return -1


# ---- the wish (§2.11) and the Dragon's gift (§2.12) ----


@njit(cache=True)
def _expert_wish(pub, me):
    """``expert``'s wish (§2.11): never a rank it passed a partner (that card is still theirs
    unless played) nor one it holds; the rank of a card passed to an opponent (one who called
    first, then the higher), else the highest rank missing that is not all played."""
    n = pub.n_players
    seat = me.seat
    hand = me.hand
    avoid = ZERO  # ranks (bit r) the wish must not name
    for r in range(2, 15):
        if hand & rank_cards(r) or popcount(pub.played & rank_cards(r)) == 4:
            avoid |= ONE << U64(r)
    for d in range(2, n, 2):
        c = me.given[_at(seat, d, n)] & NORMAL & ~pub.played
        if c != ZERO:
            avoid |= ONE << U64(lowest_bit_index(c) & 15)
    best = 0
    best_score = -1
    for d in range(1, n, 2):
        q = _at(seat, d, n)
        c = me.given[q] & NORMAL & ~pub.played
        if c == ZERO or pub.counts[q] == 0:
            continue
        r = lowest_bit_index(c) & 15
        if avoid >> U64(r) & ONE:
            continue
        score = r + (100 if called(pub, q) else 0)
        if score > best_score:
            best_score = score
            best = r
    if best:
        return best
    for r in range(14, 1, -1):
        if not avoid >> U64(r) & ONE:
            return r
    return 0


@njit(cache=True)
def wish(params, pub, me):
    policy = _policy(params, P_WISH)
    if policy == WISH_RANDOM:
        me.rng, j = rand_below(me.rng, 14)
        return 0 if j == 0 else j + 1
    if policy == WISH_PASSED_RIGHT:
        # the card given to the first opponent in turn order who got one: the right opponent
        # (§2.4); Tientsin passes to partners only, and refuses this policy (strategies.py)
        n = pub.n_players
        offsets = pass_offsets(pub.variant, me.seat)
        for d in range(1, n, 2):
            if offsets >> d & 1:
                c = me.given[_at(me.seat, d, n)] & NORMAL
                return 0 if c == ZERO else lowest_bit_index(c) & 15
        return 0
    if policy == WISH_EXPERT:
        return _expert_wish(pub, me)
    if policy == WISH_HIGHEST_MISSING:
        for r in range(14, 1, -1):
            if me.hand & rank_cards(r) == ZERO and popcount(pub.played & rank_cards(r)) < 4:
                return r
    return 0


@njit(cache=True)
def dragon(params, pub, me):
    """The opponent who receives a trick won with the Dragon (§2.12). Opponents are the seats
    an odd number of places away: the right one (next in turn order, §2.1), the left one (and,
    in Tientsin, the one opposite)."""
    n = pub.n_players
    seat = me.seat
    right = _at(seat, 1, n)
    policy = _policy(params, P_DRAGON)
    if policy == DRAGON_RANDOM:
        me.rng, j = rand_below(me.rng, n // 2)
        return _at(seat, 1 + 2 * j, n)
    if policy == DRAGON_MORE_CARDS:
        # the opponent furthest from going out: their points may still change hands (§2.13);
        # ties to the first in turn order
        best = right
        for d in range(3, n, 2):
            q = _at(seat, d, n)
            if pub.counts[q] > pub.counts[best]:
                best = q
        return best
    if policy == DRAGON_EXPERT:
        # the opponent least likely to keep the trick: still holding the most cards (the last
        # player's tricks go to the first out, §2.13), ties against the one who did not call
        best = -1
        best_score = -1
        for d in range(1, n, 2):
            q = _at(seat, d, n)
            score = 2 * pub.counts[q] + (0 if called(pub, q) else 1)
            if score > best_score:
                best_score = score
                best = q
        return best
    if policy == DRAGON_NEXT:
        for d in range(1, n, 2):
            q = _at(seat, d, n)
            if pub.counts[q] > 0:
                return q
        return _at(seat, n - 1, n)
    return right


@njit(cache=True)
def dog_target(params, pub, me):
    """The partner the Dog leads to when two partners hold cards (Tientsin, §3)."""
    n = pub.n_players
    seat = me.seat
    holders = 0
    for d in range(2, n, 2):
        q = _at(seat, d, n)
        if pub.counts[q] > 0:
            holders |= 1 << q
    policy = _policy(params, P_DOG)
    if policy == DOG_RANDOM:
        me.rng, j = rand_below(me.rng, popcount(U64(holders)))
        for _ in range(j):
            holders &= holders - 1
        return lowest_bit_index(U64(holders))
    if policy == DOG_FEWER_CARDS:
        best = -1
        for d in range(2, n, 2):
            q = _at(seat, d, n)
            if holders >> q & 1 and (best < 0 or pub.counts[q] < pub.counts[best]):
                best = q
        return best
    if policy == DOG_SUPPORT_CALL:
        return support_partner(pub, seat, holders)
    for d in range(2, n, 2):  # DOG_NEXT: the first partner in turn order
        q = _at(seat, d, n)
        if holders >> q & 1:
            return q
    return -1
