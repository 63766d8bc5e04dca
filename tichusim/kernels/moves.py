"""Legal-play enumeration on card masks (RULES.md §2.5–§2.11).

``legal_moves`` writes every distinct playable card set and its combination code into
preallocated ``out_masks`` / ``out_codes`` arrays. As in DouZero's move generator, only
answers of the led kind and length are generated when a trick is running, then the bombs; a
lead generates every kind. A card set with several readings is written once, with its highest
reading (two pairs and the Phoenix as the higher full house; a run and the Phoenix as the
straight with the Phoenix on top when that is possible, §2.5).

Cards of one rank are ``hand & rank_cards(r)`` (four bits 16 apart); a "selection" odometer over
consecutive ranks picks ``k`` of them per rank without any scratch arrays, so the kernels
allocate nothing.
"""

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from .bits import (
    DOG,
    DRAGON,
    LANE,
    MAH_JONG,
    NORMAL,
    ONE,
    PHOENIX,
    RANK_COLUMN,
    RANK_LANE,
    U64,
    ZERO,
    lane,
    lowest_bit_index,
    popcount,
    rank_cards,
    rank_multiplicity,
    ranks_held,
    runs_ending,
)
from .combos import (
    BOMB_FOUR,
    BOMB_SF,
    DOG_LEAD,
    FULL_HOUSE,
    PAIR,
    RANK2_DRAGON,
    RANK2_MAH_JONG,
    RANK2_PHOENIX_LED,
    RANK2_PHOENIX_LED_HALF,
    SINGLE,
    STAIRS,
    STRAIGHT,
    TRIPLE,
    make_code,
    phoenix_single,
)
from .jit import njit

MAX_MOVES = 16384  # more than any 14-card hand has


@intrinsic
def _emit(typingctx, out_masks, out_codes, n, mask, code):
    """``out_masks[n], out_codes[n] = mask, code`` when ``n`` is inside the buffers; returns
    ``n + 1``. An intrinsic, not a jitted helper: passing the arrays to a function costs
    reference counting at every call, which made the generators several times slower."""
    sig = types.int64(out_masks, out_codes, n, mask, code)

    def codegen(context, builder, signature, args):
        m_ty, c_ty, n_ty, mask_ty, code_ty = signature.args
        m_arr = context.make_array(m_ty)(context, builder, args[0])
        c_arr = context.make_array(c_ty)(context, builder, args[1])
        idx = args[2]
        size = builder.extract_value(m_arr.shape, 0)
        with builder.if_then(builder.icmp_signed("<", idx, size), likely=True):
            for ty, arr, val, val_ty in (
                (m_ty, m_arr, args[3], mask_ty),
                (c_ty, c_arr, args[4], code_ty),
            ):
                ptr = cgutils.get_item_pointer(context, builder, ty, arr, [idx], wraparound=False)
                value = context.cast(builder, val, val_ty, ty.dtype)
                context.pack_value(builder, ty.dtype, value, ptr)
        return builder.add(idx, context.get_constant(types.int64, 1))

    return sig, codegen


@njit(cache=True, inline="always")
def _cards_at(hand, rank):
    """Cards of ``rank`` in ``hand``; rank 1 is the Mah Jong (it joins straights only)."""
    if rank == 1:
        return hand & MAH_JONG
    return hand & rank_cards(rank)


@njit(cache=True, inline="always")
def next_subset(avail, cur, k):
    """The next ``k``-card subset of ``avail`` after ``cur`` (descending submask order); 0 at
    the end.

    Start with ``cur = 0`` to get the first one (``avail`` itself is tried first).
    """
    if k == 1:  # single cards: lowest first, then upwards
        rest = avail if cur == ZERO else avail & ~((cur << ONE) - ONE)
        return rest & (~rest + ONE)
    sub = avail if cur == ZERO else (cur - ONE) & avail
    while sub != ZERO:
        if popcount(sub) == k:
            return sub
        sub = (sub - ONE) & avail
    return ZERO


@njit(
    types.int64(
        types.uint64,
        types.int64,
        types.int64,
        types.int64,
        types.int64,
        types.int64,
        types.uint64[:],
        types.int64[:],
        types.int64,
    ),
    cache=True,
)
def _emit_runs(hand, lo, hi, k, ph_rank, code, out_masks, out_codes, n):
    """Every choice of ``k`` cards at each rank ``lo..hi`` (``k - 1`` and the Phoenix at
    ``ph_rank``, -1 for none), as one combination ``code``. Straight flushes are skipped: with no
    Phoenix and no Mah Jong, five suited cards in a row are a bomb, never a straight (§2.5).
    """
    sel = ZERO
    for r in range(lo, hi + 1):
        kk = k - 1 if r == ph_rank else k
        if kk > 0:
            s = next_subset(_cards_at(hand, r), ZERO, kk)
            if s == ZERO:
                return n
            sel |= s
    extra = PHOENIX if ph_rank >= 0 else ZERO
    check_flush = k == 1 and ph_rank < 0 and lo > 1
    while True:
        flush = False
        if check_flush:  # all in the lane of the lowest card?
            flush = sel & ~(LANE << U64(lowest_bit_index(sel) & 48)) == ZERO
        if not flush:
            n = _emit(out_masks, out_codes, n, sel | extra, code)
        r = lo
        while r <= hi:  # advance the odometer, lowest rank fastest
            kk = k - 1 if r == ph_rank else k
            if kk > 0:
                avail = _cards_at(hand, r)
                nxt = next_subset(avail, sel & avail, kk)
                sel &= ~avail
                if nxt != ZERO:
                    sel |= nxt
                    break
                sel |= next_subset(avail, ZERO, kk)
            r += 1
        if r > hi:
            return n


@njit(
    types.int64(
        types.uint64,
        types.int64,
        types.int64,
        types.int64,
        types.int64,
        types.uint64[:],
        types.int64[:],
        types.int64,
    ),
    cache=True,
)
def gen_runs(hand, kind, k, length, min_rank2, out_masks, out_codes, n):
    """Straights (``k`` = 1) or stairs (``k`` = 2) of ``length`` ranks topping above
    ``min_rank2``."""
    has_ph = (hand & PHOENIX) != ZERO
    ge1, ge2, _, _ = rank_multiplicity(hand)
    if k == 1:
        full = ranks_held(hand)  # ranks with a card, the Mah Jong as rank 1
        some = full
        first = 1
    else:
        full = ge2  # ranks with a pair
        some = ge1  # ranks where the Phoenix can complete a pair
        first = 2
    if popcount(some) + (1 if has_ph and k == 1 else 0) < length:
        return n
    window = (ONE << U64(length)) - ONE
    for hi in range(max(first + length - 1, min_rank2 // 2 + 1), 15):
        lo = hi - length + 1
        w = window << U64(lo)
        if w & ~some and k == 2:
            continue  # a rank with no card at all: even the Phoenix cannot make a pair of it
        short = w & ~full
        code = make_code(kind, length * k, 2 * hi)
        if short == ZERO:
            n = _emit_runs(hand, lo, hi, k, -1, code, out_masks, out_codes, n)
        elif not has_ph or short & (short - ONE) or short == MAH_JONG:
            continue  # the Phoenix fills one rank, never the Mah Jong
        if not has_ph:
            continue
        for r in range(max(lo, 2), hi + 1):
            if short != ZERO and short != ONE << U64(r):
                continue
            # Phoenix at the bottom of a straight whose run could extend at the top: that set
            # reads higher one window up, where it is generated (one card set, one entry).
            if k == 1 and r == lo and hi < 14:
                continue
            n = _emit_runs(hand, lo, hi, k, r, code, out_masks, out_codes, n)
    return n


@njit(
    types.int64(
        types.uint64, types.int64, types.int64, types.uint64[:], types.int64[:], types.int64
    ),
    cache=True,
)
def _gen_same_rank(hand, k, min_rank2, out_masks, out_codes, n):
    """Pairs (``k`` = 2) or triples (3): ``k`` cards of a rank, or ``k - 1`` and the Phoenix."""
    kind = PAIR if k == 2 else TRIPLE
    has_ph = (hand & PHOENIX) != ZERO
    ge1, ge2, ge3, _ = rank_multiplicity(hand)
    eligible = (ge1 if k == 2 else ge2) if has_ph else (ge2 if k == 2 else ge3)
    eligible &= ~((ONE << U64(min_rank2 // 2 + 1)) - ONE)
    while eligible != ZERO:
        r = lowest_bit_index(eligible)
        eligible &= eligible - ONE
        avail = hand & rank_cards(r)
        code = make_code(kind, k, 2 * r)
        sub = next_subset(avail, ZERO, k)
        while sub != ZERO:
            n = _emit(out_masks, out_codes, n, sub, code)
            sub = next_subset(avail, sub, k)
        if has_ph:
            sub = next_subset(avail, ZERO, k - 1)
            while sub != ZERO:
                n = _emit(out_masks, out_codes, n, sub | PHOENIX, code)
                sub = next_subset(avail, sub, k - 1)
    return n


@njit(
    types.int64(types.uint64, types.int64, types.uint64[:], types.int64[:], types.int64), cache=True
)
def _gen_full_houses(hand, min_rank2, out_masks, out_codes, n):
    """Triple of rank t and pair of another rank p; the Phoenix may complete either (§2.5)."""
    has_ph = (hand & PHOENIX) != ZERO
    ge1, ge2, ge3, _ = rank_multiplicity(hand)
    above = ~((ONE << U64(min_rank2 // 2 + 1)) - ONE)
    triples = (ge2 if has_ph else ge3) & above
    pairs = ge1 if has_ph else ge2
    while triples != ZERO:
        t = lowest_bit_index(triples)
        triples &= triples - ONE
        tav = hand & rank_cards(t)
        code = make_code(FULL_HOUSE, 5, 2 * t)
        others = pairs & ~(ONE << U64(t))
        while others != ZERO:
            p = lowest_bit_index(others)
            others &= others - ONE
            pav = hand & rank_cards(p)
            # real triple with a real pair, or the Phoenix completing the pair
            tsub = next_subset(tav, ZERO, 3)
            while tsub != ZERO:
                psub = next_subset(pav, ZERO, 2)
                while psub != ZERO:
                    n = _emit(out_masks, out_codes, n, tsub | psub, code)
                    psub = next_subset(pav, psub, 2)
                if has_ph:
                    psub = next_subset(pav, ZERO, 1)
                    while psub != ZERO:
                        n = _emit(out_masks, out_codes, n, tsub | psub | PHOENIX, code)
                        psub = next_subset(pav, psub, 1)
                tsub = next_subset(tav, tsub, 3)
            # the Phoenix completing the triple; two pairs and the Phoenix read as the higher
            # full house, so that set is made once, with t above p
            if has_ph and p < t:
                tsub = next_subset(tav, ZERO, 2)
                while tsub != ZERO:
                    psub = next_subset(pav, ZERO, 2)
                    while psub != ZERO:
                        n = _emit(out_masks, out_codes, n, tsub | psub | PHOENIX, code)
                        psub = next_subset(pav, psub, 2)
                    tsub = next_subset(tav, tsub, 2)
    return n


@njit(
    types.int64(types.uint64, types.int64, types.uint64[:], types.int64[:], types.int64), cache=True
)
def gen_singles(hand, top, out_masks, out_codes, n):
    """Singles of a one-deck ``hand`` beating ``top`` (0 = lead), §2.6: the Mah Jong, normal
    cards above the top, the Phoenix half a rank above it, the Dragon."""
    min_rank2 = top & 0xFF
    # the Mah Jong leads, and beats a Phoenix led as ½ (RULES.md §2.6 Option), nothing else
    if (top == 0 or min_rank2 == RANK2_PHOENIX_LED_HALF) and hand & MAH_JONG:
        n = _emit(out_masks, out_codes, n, MAH_JONG, make_code(SINGLE, 1, RANK2_MAH_JONG))
    # ranks above the top, as a mask repeated in the four lanes
    x = hand & NORMAL & ~(RANK_COLUMN * ((ONE << U64(min_rank2 // 2 + 1)) - ONE))
    while x != ZERO:
        i = lowest_bit_index(x)
        x &= x - ONE
        n = _emit(out_masks, out_codes, n, ONE << U64(i), make_code(SINGLE, 1, 2 * (i & 15)))
    if hand & PHOENIX:
        code = phoenix_single(top, RANK2_PHOENIX_LED)
        if code != 0:
            n = _emit(out_masks, out_codes, n, PHOENIX, code)
    if hand & DRAGON and min_rank2 < RANK2_DRAGON:
        n = _emit(out_masks, out_codes, n, DRAGON, make_code(SINGLE, 1, RANK2_DRAGON))
    return n


@njit(
    types.int64(types.uint64, types.int64, types.uint64[:], types.int64[:], types.int64), cache=True
)
def gen_bombs(hand, top, out_masks, out_codes, n):
    """Bombs in ``hand`` that may be played on ``top`` (every bomb when ``top`` is 0), §2.7."""
    top_is_bomb = (top >> 16) >= BOMB_FOUR
    fours = rank_multiplicity(hand)[3]
    while fours != ZERO:
        r = lowest_bit_index(fours)
        fours &= fours - ONE
        code = make_code(BOMB_FOUR, 4, 2 * r)
        if not top_is_bomb or code > top:
            n = _emit(out_masks, out_codes, n, rank_cards(r), code)
    for s in range(4):
        row = lane(hand, s) & RANK_LANE
        if popcount(row) < 5:
            continue
        for length in range(5, popcount(row) + 1):
            tops = runs_ending(row, length)
            while tops != ZERO:
                hi = lowest_bit_index(tops)
                tops &= tops - ONE
                code = make_code(BOMB_SF, length, 2 * hi)
                if not top_is_bomb or code > top:
                    run = ((ONE << U64(length)) - ONE) << U64(hi - length + 1 + 16 * s)
                    n = _emit(out_masks, out_codes, n, run, code)
    return n


@njit(types.boolean(types.uint64), cache=True)
def has_bomb(hand):
    """Whether ``hand`` holds any bomb (cheap test for the out-of-turn bomb windows, §2.9)."""
    if rank_multiplicity(hand)[3] != ZERO:
        return True
    for s in range(4):
        if runs_ending(lane(hand, s) & RANK_LANE, 5) != ZERO:
            return True
    return False


# inlined: as fast as the copies it replaces
@njit(cache=True, inline="always")
def run_possible(full, fills, has_phoenix, length):
    """Whether the rank set ``full`` (ranks held completely: a card for straights, a pair for
    stairs) holds a run of ``length`` ranks, or does once the Phoenix completes one rank of
    ``fills``. Leads try lengths upwards and stop at the first without a run: a longer run
    holds a shorter one (``seigneur.moves`` asks it of two-deck hands)."""
    if runs_ending(full, length) != ZERO:
        return True
    if not has_phoenix:
        return False
    while fills != ZERO:
        g = fills & (~fills + ONE)
        fills &= fills - ONE
        if runs_ending(full | g, length) != ZERO:
            return True
    return False


@njit(types.boolean(types.uint64, types.int64, types.int64), cache=True)
def has_run(hand, k, length):
    """Whether ``hand`` has a straight (``k`` = 1) or stairs (``k`` = 2) of ``length`` ranks,
    the Phoenix filling one card (``run_possible``)."""
    ge1, ge2, _, _ = rank_multiplicity(hand)
    if k == 1:
        full = ranks_held(hand)
        fills = RANK_LANE & ~full  # never the Mah Jong's rank 1
    else:
        full = ge2
        fills = ge1 & ~ge2
    return run_possible(full, fills, hand & PHOENIX != ZERO, length)


# Lead categories, in the order a lead generates them: the six combination kinds, the Dog and
# the bombs (both bomb kinds in one category). A strategy may draw a category, then a play.
LEAD_CATEGORIES = (SINGLE, PAIR, TRIPLE, STAIRS, FULL_HOUSE, STRAIGHT, DOG_LEAD, BOMB_FOUR)


@njit(
    types.int64(types.uint64, types.int64, types.uint64[:], types.int64[:], types.int64), cache=True
)
def lead_moves(hand, category, out_masks, out_codes, n):
    """Every lead of ``hand`` in one of ``LEAD_CATEGORIES``, appended after ``n`` entries."""
    if category == SINGLE:
        return gen_singles(hand, 0, out_masks, out_codes, n)
    if category == PAIR or category == TRIPLE:
        return _gen_same_rank(hand, 2 if category == PAIR else 3, 0, out_masks, out_codes, n)
    if category == STAIRS:
        for pairs in range(2, 8):
            if not has_run(hand, 2, pairs):
                break
            n = gen_runs(hand, STAIRS, 2, pairs, 0, out_masks, out_codes, n)
        return n
    if category == FULL_HOUSE:
        return _gen_full_houses(hand, 0, out_masks, out_codes, n)
    if category == STRAIGHT:
        for length in range(5, 15):
            if not has_run(hand, 1, length):
                break
            n = gen_runs(hand, STRAIGHT, 1, length, 0, out_masks, out_codes, n)
        return n
    if category == DOG_LEAD:
        if hand & DOG:
            n = _emit(out_masks, out_codes, n, DOG, make_code(DOG_LEAD, 1, 0))
        return n
    return gen_bombs(hand, 0, out_masks, out_codes, n)


@njit(cache=True, inline="always")
def _may_bomb(hand, fours):
    """Whether ``hand`` (its four-of-a-kinds ``fours``) may hold a bomb: a four of a kind, or
    five cards of a suit (a straight flush needs them, §2.7)."""
    if fours != ZERO:
        return True
    for s in range(4):
        if popcount(lane(hand, s) & RANK_LANE) >= 5:
            return True
    return False


@njit(types.int64(types.uint64, types.uint64[:], types.int64[:]), cache=True)
def _leads(hand, out_masks, out_codes):
    """Every lead of ``hand``, the categories in ``LEAD_CATEGORIES`` order; a category the
    hand's rank sets show empty is not generated (a hand rarely holds more than singles and
    pairs, and each generator costs a call)."""
    has_ph = (hand & PHOENIX) != ZERO
    ge1, ge2, ge3, ge4 = rank_multiplicity(hand)
    n = gen_singles(hand, 0, out_masks, out_codes, 0)
    if (ge1 if has_ph else ge2) != ZERO:
        n = _gen_same_rank(hand, 2, 0, out_masks, out_codes, n)
    triples = (ge2 if has_ph else ge3) != ZERO  # full houses need one too
    if triples:
        n = _gen_same_rank(hand, 3, 0, out_masks, out_codes, n)
    # two paired ranks in a row, or with the Phoenix two ranks in a row and a pair
    if (runs_ending(ge1, 2) != ZERO and ge2 != ZERO) if has_ph else runs_ending(ge2, 2) != ZERO:
        n = lead_moves(hand, STAIRS, out_masks, out_codes, n)
    if triples:
        n = _gen_full_houses(hand, 0, out_masks, out_codes, n)
    # five ranks in a row, or four ranks and the Phoenix
    ranks = ranks_held(hand)
    if runs_ending(ranks, 5) != ZERO or (has_ph and popcount(ranks) >= 4):
        n = lead_moves(hand, STRAIGHT, out_masks, out_codes, n)
    if hand & DOG:
        n = _emit(out_masks, out_codes, n, DOG, make_code(DOG_LEAD, 1, 0))
    if _may_bomb(hand, ge4):
        n = gen_bombs(hand, 0, out_masks, out_codes, n)
    return n


@njit(types.int64(types.uint64, types.int64, types.uint64[:], types.int64[:]), cache=True)
def candidate_moves(hand, top, out_masks, out_codes):
    """Every play of ``hand`` that beats ``top`` (0 = lead), ignoring the wish. Returns the count
    (which may exceed the buffers' length: then only the first ones were written)."""
    if top == 0:
        return _leads(hand, out_masks, out_codes)
    n = 0
    kind = top >> 16
    length = (top >> 8) & 0xFF
    rank2 = top & 0xFF
    if kind == SINGLE:
        n = gen_singles(hand, top, out_masks, out_codes, n)
    elif kind == PAIR:
        n = _gen_same_rank(hand, 2, rank2, out_masks, out_codes, n)
    elif kind == TRIPLE:
        n = _gen_same_rank(hand, 3, rank2, out_masks, out_codes, n)
    elif kind == STAIRS:
        n = gen_runs(hand, STAIRS, 2, length // 2, rank2, out_masks, out_codes, n)
    elif kind == FULL_HOUSE:
        n = _gen_full_houses(hand, rank2, out_masks, out_codes, n)
    elif kind == STRAIGHT:
        n = gen_runs(hand, STRAIGHT, 1, length, rank2, out_masks, out_codes, n)
    elif kind == DOG_LEAD:
        return 0  # §2.10: nothing is played on the Dog, not even a bomb
    if not _may_bomb(hand, rank_multiplicity(hand)[3]):
        return n
    return gen_bombs(hand, top, out_masks, out_codes, n)


@njit(
    types.int64(types.uint64, types.boolean, types.uint64[:], types.int64[:], types.int64),
    cache=True,
)
def keep_wished(wished, keep_bombs, out_masks, out_codes, n):
    """Compact the first ``n`` plays to those holding a ``wished`` card (and the bombs, when
    ``keep_bombs``: a bomb answers the wish out of a lead, §2.11); returns the new count."""
    kept = 0
    for i in range(n):
        if out_masks[i] & wished or (keep_bombs and (out_codes[i] >> 16) >= BOMB_FOUR):
            out_masks[kept] = out_masks[i]
            out_codes[kept] = out_codes[i]
            kept += 1
    return kept


# inlined: an array argument costs reference counting at every call (``_emit``)
@njit(cache=True, inline="always")
def wish_binds(hand, wish, out_masks, n):
    """Whether the open wish for rank ``wish`` binds a hand whose candidate plays are the first
    ``n`` of ``out_masks`` (§2.11): the hand holds the rank and some play contains it (two-deck
    hands ask it of the cards held at least once, ``seigneur.moves``)."""
    wished = rank_cards(wish)
    if hand & wished == ZERO:
        return False
    for i in range(n):
        if out_masks[i] & wished:
            return True
    return False


@njit(
    types.UniTuple(types.int64, 2)(
        types.uint64, types.int64, types.int64, types.uint64[:], types.int64[:]
    ),
    cache=True,
)
def legal_moves(hand, top, wish, out_masks, out_codes):
    """Legal plays of ``hand`` on a regular turn: returns ``(count, can_pass)``.

    ``top`` is the code of the trick's top combination (0 = this player leads, after the Dog
    too); ``wish`` the open wished rank 2..14 or 0. When the wish binds (the player holds the
    rank and some legal play contains it, §2.11) only plays with the wished rank remain, plus,
    when not leading, every bomb that beats the top; passing is then not allowed.
    A count above the buffers' length means they were too small and nothing was filtered.
    """
    n = candidate_moves(hand, top, out_masks, out_codes)
    can_pass = 1 if top != 0 else 0
    if wish == 0 or n > out_masks.shape[0] or not wish_binds(hand, wish, out_masks, n):
        return n, can_pass
    return keep_wished(rank_cards(wish), top != 0, out_masks, out_codes, n), 0


__all__ = [
    "LEAD_CATEGORIES",
    "MAX_MOVES",
    "candidate_moves",
    "gen_bombs",
    "gen_runs",
    "gen_singles",
    "has_bomb",
    "has_run",
    "keep_wished",
    "lead_moves",
    "legal_moves",
    "next_subset",
    "run_possible",
    "wish_binds",
]
