"""Grand Seigneur decision policies (RULES.md §5, §6), jitted.

A player's strategy is a row of floats (``N_GS_PARAMS`` long): one slot per decision picks a
policy, the others hold the heuristic's numbers (``tichusim.strategies.seigneur`` names them).
Every decision function receives that row, the table's public record and the deciding seat's
private record only (``view``), plus the choices the engine worked out:

* ``play``: writes the plays it considers into the move buffers and answers an index, -1 to
  pass (only when passing is allowed) or ``MOVES_OVERFLOW``;
* ``bomb``: an index into the bombs offered out of turn (§2.9), or -1;
* ``give_back``: ``k`` cards of the hand for the player who had to give their best (§5);
* ``wish``: a rank 2..14 after playing the Mah Jong, or 0 (the wish of §2.11 is part of the
  "same play rules" §5 keeps).

There are no calls, no passing to partners and no Dragon's gift in Grand Seigneur (§5): those
decisions do not exist here. What does not depend on the second deck is the 4-player game's:
the order of cards and loose cards (``hand``), the lowest play, the random lead's draw of a
category and the answer ``MOVES_OVERFLOW`` (``policies``).
"""

import numpy as np

from ..bits import (
    DOG,
    DRAGON,
    MAH_JONG,
    NORMAL,
    ONE,
    PHOENIX,
    RANK_LANE,
    U64,
    ZERO,
    lane,
    lowest_bit_index,
    popcount,
    rank_cards,
    ranks_held,
    runs_ending,
)
from ..choices import MOVES_OVERFLOW, draw_lead_category, lowest_index, lowest_single_valued
from ..combos import BOMB_FOUR, SINGLE, TRIPLE
from ..hand import loose_cards_counted, lowest_card
from ..jit import njit
from ..moves import LEAD_CATEGORIES
from ..rng import rand_below
from .cards import DECK_ONE, add_card, ms_remove, ms_size, rank_count, rank_sets
from .combos import dragon_single, phoenix_single2
from .moves import keep_wished, lead_moves, legal_moves

# slots of the strategy row
G_PLAY, G_GIVE, G_WISH, G_BOMB_CARDS, G_ENDGAME = range(5)
G_OUTSIDE = 5  # the decisions taken from Python: a bit per ``outside.D_*`` (0: none)
N_GS_PARAMS = 8
# play policies
PLAY_RANDOM, PLAY_LOWEST, PLAY_HEURISTIC = 0, 1, 2
# give-back policies
GIVE_RANDOM, GIVE_LOWEST, GIVE_LOOSE = 0, 1, 2
# wish policies
WISH_NONE, WISH_RANDOM, WISH_HIGHEST_MISSING = 0, 1, 2


@njit(cache=True)
def random_card(me, a, b):
    """A card of the multiset ``(a, b)``, each copy equally likely (non-empty)."""
    me.rng, j = rand_below(me.rng, ms_size(a, b))
    x = a if j < popcount(a) else b
    if j >= popcount(a):
        j -= popcount(a)
    for _ in range(j):
        x &= x - ONE
    return x & (~x + ONE)


@njit(cache=True)
def bomb_cards(a):
    """Cards of the bombs in a hand: ranks held in four suits, and every card of a run of five
    or more in one suit (a straight flush)."""
    out = ZERO
    fours = rank_sets(a, ZERO)[4]
    while fours != ZERO:
        out |= rank_cards(lowest_bit_index(fours))
        fours &= fours - ONE
    for s in range(4):
        row = lane(a, s) & RANK_LANE
        tops = runs_ending(row, 5)
        while tops != ZERO:
            t = lowest_bit_index(tops)
            tops &= tops - ONE
            out |= ((ONE << U64(5)) - ONE) << U64(t - 4 + 16 * s)
    return out


# ---- the exchange (§5) ----


@njit(cache=True)
def loose_cards(a, b):
    """Cards that break no combination if given away (``hand.loose_cards``), a card held twice
    counting as a pair: never Mah Jong, Phoenix or Dragon."""
    ge1, ge2, _, _, _ = rank_sets(a, b)
    return loose_cards_counted(a, ge1, ge2)


@njit(cache=True)
def give_back(params, pub, me, k):
    """``k`` cards of the hand for the player whose best cards this seat received (§5)."""
    policy = np.int64(params[G_GIVE])
    a = me.hand_a
    b = me.hand_b
    ga = ZERO
    gb = ZERO
    for _ in range(k):
        if policy == GIVE_RANDOM:
            c = random_card(me, a, b)
        elif policy == GIVE_LOOSE:
            pool = loose_cards(a, b)
            if pool == ZERO:
                pool = a & NORMAL
            if pool == ZERO:
                pool = a
            c = lowest_card(pool)
        else:
            c = lowest_card(a)
        a, b = ms_remove(a, b, c, ZERO)
        ga, gb = add_card(ga, gb, c)
    return ga, gb


# ---- the wish (§2.11) ----


@njit(cache=True)
def wish(params, pub, me):
    policy = np.int64(params[G_WISH])
    if policy == WISH_RANDOM:
        me.rng, j = rand_below(me.rng, 14)
        return 0 if j == 0 else j + 1
    if policy == WISH_HIGHEST_MISSING:
        copies = 4 if pub.deck == DECK_ONE else 8
        for r in range(14, 1, -1):
            if rank_count(me.hand_a, me.hand_b, r) > 0:
                continue
            gone = rank_count(pub.played_a, pub.played_b, r)
            gone += rank_count(pub.leftover_a, pub.leftover_b, r)
            if gone < copies:
                return r
    return 0


# ---- plays ----


@njit(cache=True)
def random_lead(me, wish_rank, rules, ma, mb, mc):
    """A random lead: a lead category drawn uniformly among those not yet found empty, then a
    play of it uniformly; under a binding wish only plays with the wished rank (§2.11)."""
    wished = me.hand_a & rank_cards(wish_rank) if wish_rank != 0 else ZERO
    tried = 0
    while True:
        c = draw_lead_category(me, tried)
        n = lead_moves(me.hand_a, me.hand_b, LEAD_CATEGORIES[c], rules, ma, mb, mc, 0)
        if n > ma.shape[0]:
            return MOVES_OVERFLOW
        if wished != ZERO:
            n = keep_wished(wished, False, ma, mb, mc, n)
        if n > 0:
            me.rng, j = rand_below(me.rng, n)
            return j
        tried |= 1 << c


@njit(cache=True)
def _low_value(a):
    """The lowest card value of a play (the Mah Jong 1, a lone Phoenix 15, a lone Dragon 16)."""
    if a & DOG:
        return 0
    if a & MAH_JONG:
        return 1
    normal = a & NORMAL
    if normal != ZERO:
        return lowest_bit_index(ranks_held(normal))
    return 15 if a & PHOENIX else 16


@njit(cache=True)
def heuristic_choose(params, pub, me, ma, mb, mc, n, can_pass):
    """Shed low cards, keep control: a play that empties the hand at once; otherwise, leading,
    the play holding the lowest card with the most cards; following, the lowest play that
    breaks no pair or triple. Dragon, Phoenix and bomb cards are kept for the end game (a hand
    of ``endgame`` cards or fewer) and the player passes rather than spend them earlier."""
    ha = me.hand_a
    hb = me.hand_b
    size = ms_size(ha, hb)
    for i in range(n):
        if ms_size(ma[i], mb[i]) == size:
            return i
    control = (ha & (DRAGON | PHOENIX)) | bomb_cards(ha)
    endgame = size <= params[G_ENDGAME]
    leading = pub.top_code == 0
    best = -1
    best_key = np.int64(1) << 62
    for i in range(n):
        c = mc[i]
        cards = ms_size(ma[i], mb[i])
        uses = 1 if ((ma[i] & control) != ZERO or (c >> 16) >= BOMB_FOUR) else 0
        if uses and not endgame and can_pass:
            continue  # keep the control cards: pass instead
        if leading:
            key = (uses << 50) | (_low_value(ma[i]) << 20) | ((63 - cards) << 8)
        else:
            breaks = 0
            kind = c >> 16
            if SINGLE <= kind <= TRIPLE:
                r = (c & 0xFF) >> 1
                if 2 <= r <= 14 and rank_count(ma[i], mb[i], r) < rank_count(ha, hb, r):
                    breaks = 1
            key = (uses << 50) | (breaks << 40) | ((c & 0xFF) << 16) | cards
        if key < best_key:
            best_key = key
            best = i
    if best < 0:
        return -1
    return best


@njit(cache=True)
def lowest_single(ha, top, wish):
    """The lowest play when it is a single or the Dog, from the bits (``(0, 0)`` when the full
    list is needed): ``policies.lowest_single`` with the Phoenix and the Dragon valued for two
    decks (``combos``: a Dragon beats a Dragon, §5)."""
    return lowest_single_valued(ha, top, wish, phoenix_single2(top), dragon_single(top))


@njit(cache=True)
def play(params, pub, me, ma, mb, mc):
    """The seat's play on its regular turn: an index into the plays written to ``ma``/``mb``/
    ``mc``, -1 to pass, or ``MOVES_OVERFLOW``."""
    policy = np.int64(params[G_PLAY])
    top = pub.top_code
    if top == 0 and policy == PLAY_RANDOM:
        return random_lead(me, pub.wish, pub.rules, ma, mb, mc)
    if policy == PLAY_LOWEST:
        # Without a binding wish the lowest lead is the Dog or a single (every other combination
        # tops at or above its lowest card and holds more cards); on a single, the lowest single
        # that beats it, a bomb only when no single does.
        card, code = lowest_single(me.hand_a, top, pub.wish)
        if card != ZERO:
            ma[0] = card
            mb[0] = ZERO
            mc[0] = code
            return 0
    n, can_pass = legal_moves(me.hand_a, me.hand_b, top, pub.wish, pub.rules, ma, mb, mc)
    if n > ma.shape[0]:
        return MOVES_OVERFLOW
    if policy == PLAY_HEURISTIC:
        return heuristic_choose(params, pub, me, ma, mb, mc, n, can_pass == 1)
    if policy == PLAY_RANDOM:
        me.rng, j = rand_below(me.rng, n + can_pass)
        return j if j < n else -1
    if n == 0:
        return -1
    return lowest_index(mc, n)


@njit(cache=True)
def bomb(params, pub, me, bm, bc, n):
    """Out of turn (§2.9): an index into the ``n`` bombs offered, or -1."""
    policy = np.int64(params[G_PLAY])
    if policy == PLAY_RANDOM:
        me.rng, j = rand_below(me.rng, n + 1)
        return j if j < n else -1
    if policy == PLAY_HEURISTIC:
        size = ms_size(me.hand_a, me.hand_b)
        best = -1
        for i in range(n):
            left = size - popcount(bm[i])
            if left == 0:
                return i
            if left <= params[G_BOMB_CARDS] and (best < 0 or bc[i] < bc[best]):
                best = i
        return best
    return -1
