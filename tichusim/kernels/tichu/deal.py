"""The deal (RULES.md §2.2, §3, §4), jitted: the shuffled deck cut into hands, the first cards
seen before Grand Tichu, the fixed deals the analyses ask for (a seat dealt given cards,
or given a hand after the passing: ``work.fixed_*``, ``records.FIX_*``) and a recorded round's
deck as it was dealt (``FIX_DECK``). ``left_to_python`` says whether a seat's strategy leaves
a decision to Python, as every phase asks.
"""

from ..bits import NORMAL, ONE, SPECIALS, U64, ZERO, lowest_bit_index, popcount, rank_cards
from ..eventlog import log_cards
from ..jit import njit
from ..outside import D_GRAND_TICHU, PENDING, taken_outside
from ..rng import CARD_BITS, rand_below, seed_stream, shuffle_deck, shuffle_prefix
from . import policies
from .recorded import ask
from .records import (
    EV_DEAL8,
    EV_DEAL14,
    EV_GRAND_TICHU,
    FIX_AFTER_PASSING,
    FIX_BEFORE_PASSING,
    FIX_DECK,
    FIX_MODE,
    FIX_RECEIVED,
)
from .slots import P_OUTSIDE
from .variants import (
    KING,
    MINISTER,
    WUWANG,
    gt_cards,
    hand_size,
    may_call_grand,
    n_seats,
    pass_offsets,
)


@njit(cache=True, inline="always")
def left_to_python(work, s, decision):
    """Whether seat ``s``'s strategy leaves ``decision`` to Python (``outside.py``)."""
    return taken_outside(work.params[s, P_OUTSIDE], decision)


@njit(cache=True)
def _pick_card(state, avail):
    """One card of the mask ``avail`` drawn uniformly: ``(state, card bit)``."""
    state, j = rand_below(state, popcount(avail))
    for _ in range(j):
        avail &= avail - ONE
    return state, avail & (~avail + ONE)


@njit(cache=True)
def _slot(variant, first_drawer, seat):
    """``(first place, size)`` of ``seat``'s cards in the dealt deck (``deal``)."""
    n = n_seats(variant)
    base = 0
    for s in range(seat):
        base += hand_size(variant, (s - first_drawer) % n)
    return base, hand_size(variant, (seat - first_drawer) % n)


@njit(cache=True)
def _shuffled_rest(deck, reserved, state):
    """The cards not in ``reserved`` at the front of ``deck``, shuffled: ``(their count,
    state)``."""
    n = 0
    for i in range(56):
        if not reserved & (ONE << U64(CARD_BITS[i])):
            deck[n] = CARD_BITS[i]
            n += 1
    return n, shuffle_prefix(deck, n, state)


@njit(cache=True)
def _deal_fixed(variant, first_drawer, work, state):
    """Fill ``work.deck`` so that seat ``work.fixed_seat`` sees ``work.fixed_cards`` plus, for
    each rank r, ``work.fixed_ranks[r]`` cards of that rank drawn uniformly among the free
    ones as its first 8 (Tientsin 6); every other card is dealt uniformly at random. With
    ``FIX_AFTER_PASSING`` the cards are the seat's whole hand *after* the passing instead
    (``_deal_after_passing``); with ``FIX_BEFORE_PASSING`` its whole dealt hand (§2.4), in a
    random order (its first 8 a random 8 of them). The other seats' cards come from the same
    draws whatever ``FIX_RECEIVED`` says, so plays that differ only in the fixed seat's passes
    deal the other seats the same cards. With ``FIX_DECK`` the deck lies as given."""
    mode = work.fixed_ranks[FIX_MODE] & 0xFF
    if mode == FIX_DECK:
        return
    chosen = work.fixed_cards
    for r in range(2, 15):
        for _ in range(work.fixed_ranks[r]):
            state, bit = _pick_card(state, rank_cards(r) & ~chosen)
            chosen |= bit
    if mode == FIX_AFTER_PASSING:
        _deal_after_passing(variant, first_drawer, work, state, chosen)
        return
    deck = work.deck
    n, state = _shuffled_rest(deck, chosen, state)
    # open a gap at the fixed seat's first places (moving backwards is safe: every card
    # moves up or stays), then put the fixed seat's cards in it
    base, size = _slot(variant, first_drawer, work.fixed_seat)
    seen = size if mode == FIX_BEFORE_PASSING else gt_cards(variant)
    src = n - 1
    for i in range(55, -1, -1):
        if base <= i < base + seen:
            continue
        deck[i] = deck[src]
        src -= 1
    x = chosen
    for k in range(seen):
        deck[base + k] = lowest_bit_index(x)
        x &= x - ONE
    if mode == FIX_BEFORE_PASSING:
        for i in range(seen - 1, 0, -1):  # which 8 the seat sees first: drawn per round
            state, j = rand_below(state, i + 1)
            tmp = deck[base + i]
            deck[base + i] = deck[base + j]
            deck[base + j] = tmp


@njit(cache=True)
def _deal_after_passing(variant, first_drawer, work, state, hand):
    """A deal after which seat ``f = work.fixed_seat`` holds ``hand`` once the passing is over
    (``tichu-odds``): each seat ``t`` that passes to ``f`` gives it a card of ``hand``, the one
    ``work.fixed_ranks[FIX_RECEIVED]`` names for t's place after f (6 bits each: card index +
    1, 0 for one drawn at random); ``f`` gives each seat it passes to a card drawn among the
    other cards. ``f`` is dealt ``hand`` less what it receives plus what it gives, each giver
    its card plus random ones; ``passing`` then makes these the passes to and from ``f``
    (``work.fixed_take``, ``work.fixed_give``)."""
    n = n_seats(variant)
    f = work.fixed_seat
    spec = work.fixed_ranks[FIX_RECEIVED]
    named = ZERO
    for j in range(n - 1):
        c = (spec >> (6 * j)) & 63
        if c > 0:
            named |= ONE << U64(c - 1)
    received = ZERO
    for j in range(n - 1):
        t = (f + j + 1) % n
        work.fixed_take[t] = ZERO
        if pass_offsets(variant, t) >> ((f - t) % n) & 1:
            c = (spec >> (6 * j)) & 63
            if c > 0:
                bit = ONE << U64(c - 1)
            else:
                state, bit = _pick_card(state, hand & ~received & ~named)
            work.fixed_take[t] = bit
            received |= bit
    given = ZERO
    outside = (NORMAL | SPECIALS) & ~hand
    for j in range(n - 1):
        t = (f + j + 1) % n
        work.fixed_give[t] = ZERO
        if pass_offsets(variant, f) >> (j + 1) & 1:
            state, bit = _pick_card(state, outside & ~given)
            work.fixed_give[t] = bit
            given |= bit
    dealt = (hand & ~received) | given
    reserved = dealt | received
    deck = work.deck
    n_free, state = _shuffled_rest(deck, reserved, state)
    # fill the seats' slots from the last place down (every free card moves up or stays)
    src = n_free - 1
    for s in range(n - 1, -1, -1):
        base, size = _slot(variant, first_drawer, s)
        own = dealt if s == f else work.fixed_take[s]
        k = base + size - 1
        x = own
        while x != ZERO:
            deck[k] = lowest_bit_index(x)
            x &= x - ONE
            k -= 1
        while k >= base:
            deck[k] = deck[src]
            src -= 1
            k -= 1
        for i in range(size - 1, 0, -1):  # the slot in random order (the first cards matter)
            state, j = rand_below(state, i + 1)
            tmp = deck[base + i]
            deck[base + i] = deck[base + j]
            deck[base + j] = tmp


@njit(cache=True, inline="always")
def deal(variant, seed, key, first_drawer, work, pub, privs, seats, nlog, outside):
    """The deal (§2.2, §3): each seat draws the next slice of the deck, its size set by its
    place in draw order (14 each; Tientsin 10 for the first two drawers, 9 after); the first 8
    (Tientsin 6) are seen before Grand Tichu, called in turn order from the first drawer, never
    by the King or the Minister (§4). Returns the log rows; stops at a Grand Tichu decision
    awaited from Python (``work.asked``)."""
    n = n_seats(variant)
    deck = work.deck
    if work.fixed_seat < 0:
        shuffle_deck(deck, seed_stream(U64(seed), U64(key), U64(0)))
    else:
        _deal_fixed(variant, first_drawer, work, seed_stream(U64(seed), U64(key), U64(0)))
    seen = gt_cards(variant)
    start = 0
    for s in range(n):
        h8 = ZERO
        h14 = ZERO
        size = hand_size(variant, (s - first_drawer) % n)
        for k in range(size):
            b = ONE << U64(deck[start + k])
            h14 |= b
            if k < seen:
                h8 |= b
        start += size
        seats[s].hand8 = h8
        seats[s].hand14 = h14
        seats[s].grand_tichu = False
        seats[s].tichu = False
        nlog = log_cards(work, nlog, EV_DEAL8, s, h8, 0, 0)
    for i in range(n):
        s = (first_drawer + i) % n
        privs[s].hand = seats[s].hand8
        pub.counts[s] = seen
        if not may_call_grand(variant, s):
            continue
        if outside and left_to_python(work, s, D_GRAND_TICHU):
            call = ask(work, pub, privs[s], s, D_GRAND_TICHU, 0, 2)
            if call == PENDING:
                return nlog  # the table as seat s sees it: 8 cards each (``_play`` stops)
        else:
            call = 1 if policies.grand_tichu(work.params[s], pub, privs[s]) else 0
        if call == 1:
            pub.grand_tichu[s] = 1
            nlog = log_cards(work, nlog, EV_GRAND_TICHU, s, ZERO, 0, 0)
    for s in range(n):
        privs[s].hand = seats[s].hand14
        pub.counts[s] = popcount(seats[s].hand14)
        nlog = log_cards(work, nlog, EV_DEAL14, s, seats[s].hand14, 0, 0)
    if variant == WUWANG:  # §4: the King draws, and sees, the Minister's cards
        privs[KING].ally_hand = privs[MINISTER].hand
        privs[MINISTER].ally_hand = privs[KING].hand
    return nlog
