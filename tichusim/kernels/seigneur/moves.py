"""Legal plays of two-deck hands (RULES.md §2.5-§2.11 as changed by §5), jitted.

A hand is a multiset ``(ha, hb)`` (layout: ``cards``). Plays are written as three parallel
buffers ``out_a``, ``out_b``, ``out_c`` (the play's multiset and its combination code), each
distinct multiset once, with its highest reading, as ``moves.candidate_moves`` does for one
deck.

What the one-deck generators of ``moves`` already get right when run on ``ha`` alone (the
cards held at least once), because the combination holds one card per rank or per suit:

* singles (the Mah Jong, the ranks, a card held twice is still one single);
* straights (one card per rank; a straight flush is a bomb, never a straight, §2.5);
* bombs: four of a kind in **four different suits** and straight flushes in **one suit** (§5).

Their output is copied into ``out_a`` and ``out_c`` and ``out_b`` is zeroed. Pairs, triples,
full houses and stairs may hold both copies of a card and are generated here: at each rank a
``k``-card choice is a sub-multiset ``(sa, sb)`` of that rank's cards, enumerated by
``next_choice``; consecutive ranks (stairs) advance like an odometer, lowest rank fastest.
The Phoenix joins at most one combination card (Decision in ``combos``), and its single
never reaches the Dragon's value (``combos.phoenix_single2``).
"""

from numba import from_dtype, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..bits import (
    DOG,
    DRAGON,
    NORMAL,
    ONE,
    PHOENIX,
    RANK_COLUMN,
    U64,
    ZERO,
    lowest_bit_index,
    popcount,
    rank_cards,
    rank_multiplicity,
    ranks_held,
)
from ..combos import (
    BOMB_FOUR,
    DOG_LEAD,
    FULL_HOUSE,
    PAIR,
    SINGLE,
    STAIRS,
    STRAIGHT,
    TRIPLE,
    make_code,
)
from ..jit import njit
from ..moves import (
    LEAD_CATEGORIES,
    gen_bombs,
    gen_runs,
    has_bomb,
    has_run,
    next_subset,
    run_possible,
    wish_binds,
)
from ..moves import gen_singles as gen_one_deck_singles
from .cards import rank_sets
from .combos import dragon_single, phoenix_single2
from .rules import GS_RULES

RULES_T = from_dtype(GS_RULES)  # the table's rules Options, as the entry points below take them

MAX_MOVES = 65536  # two-deck hands of 16 cards stay far below (tests search the worst deals)


@intrinsic
def _emit3(typingctx, out_a, out_b, out_c, n, a, b, code):
    """``out_a[n], out_b[n], out_c[n] = a, b, code`` when ``n`` is inside the buffers; returns
    ``n + 1``. An intrinsic for the reason given at ``moves._emit``: a jitted helper taking
    the arrays would pay reference counting at every call."""
    sig = types.int64(out_a, out_b, out_c, n, a, b, code)

    def codegen(context, builder, signature, args):
        arr_tys = signature.args[:3]
        val_tys = signature.args[4:]
        arrs = [context.make_array(t)(context, builder, v) for t, v in zip(arr_tys, args[:3])]
        idx = args[3]
        size = builder.extract_value(arrs[0].shape, 0)
        with builder.if_then(builder.icmp_signed("<", idx, size), likely=True):
            for ty, arr, val, val_ty in zip(arr_tys, arrs, args[4:], val_tys):
                ptr = cgutils.get_item_pointer(context, builder, ty, arr, [idx], wraparound=False)
                value = context.cast(builder, val, val_ty, ty.dtype)
                context.pack_value(builder, ty.dtype, value, ptr)
        return builder.add(idx, context.get_constant(types.int64, 1))

    return sig, codegen


@njit(types.void(types.uint64[:], types.int64, types.int64), cache=True)
def _zero_b(out_b, start, stop):
    """``out_b[start:stop] = 0`` inside the buffer: plays from the one-deck generators."""
    for i in range(start, min(stop, out_b.shape[0])):
        out_b[i] = ZERO


@njit(
    types.UniTuple(types.uint64, 2)(
        types.uint64, types.uint64, types.int64, types.int64, types.uint64, types.uint64
    ),
    cache=True,
)
def next_choice(avail_a, avail_b, k, max_doubled, sa, sb):
    """The next ``k``-card sub-multiset ``(sa, sb)`` of one rank's cards ``(avail_a, avail_b)``
    with at most ``max_doubled`` cards taken twice; ``(0, 0)`` at the end. Start from ``(0, 0)``.

    Order: no doubled card first (``k`` suits), then one doubled card, ...; ``sb`` fastest."""
    if sa != ZERO:
        j = popcount(sb)
        if j > 0:
            nb = next_subset(sa & avail_b, sb, j)
            if nb != ZERO:
                return sa, nb
        na = sa
    else:
        j = 0
        na = ZERO
    while 2 * j <= k and j <= max_doubled:
        na = next_subset(avail_a, na, k - j)
        while na != ZERO:
            if j == 0:
                return na, ZERO
            if popcount(na & avail_b) >= j:
                return na, next_subset(na & avail_b, ZERO, j)
            na = next_subset(avail_a, na, k - j)
        j += 1
    return ZERO, ZERO


@njit(
    types.int64(
        types.uint64,
        types.uint64,
        types.int64,
        types.int64,
        types.boolean,
        types.uint64[:],
        types.uint64[:],
        types.int64[:],
        types.int64,
    ),
    cache=True,
)
def gen_same_rank(ha, hb, k, min_rank2, distinct_triples, out_a, out_b, out_c, n):
    """Pairs (``k`` = 2) or triples (3) above ``min_rank2``: ``k`` cards of a rank, or ``k - 1``
    and the Phoenix; a triple's cards in three suits under the Russian Option."""
    kind = PAIR if k == 2 else TRIPLE
    has_ph = (ha & PHOENIX) != ZERO
    ge1, ge2, ge3, d3, _ = rank_sets(ha, hb)
    strict = k == 3 and distinct_triples
    if k == 2:
        full = ge2
        part = ge1
    elif strict:
        full = d3
        part = rank_multiplicity(ha)[1]
    else:
        full = ge3
        part = ge2
    eligible = (full | part) if has_ph else full
    eligible &= ~((ONE << U64(min_rank2 // 2 + 1)) - ONE)
    dbl = 0 if strict else 1
    while eligible != ZERO:
        r = lowest_bit_index(eligible)
        eligible &= eligible - ONE
        av_a = ha & rank_cards(r)
        av_b = hb & rank_cards(r)
        code = make_code(kind, k, 2 * r)
        sa, sb = next_choice(av_a, av_b, k, dbl, ZERO, ZERO)
        while sa != ZERO:
            n = _emit3(out_a, out_b, out_c, n, sa, sb, code)
            sa, sb = next_choice(av_a, av_b, k, dbl, sa, sb)
        if has_ph:
            sa, sb = next_choice(av_a, av_b, k - 1, dbl, ZERO, ZERO)
            while sa != ZERO:
                n = _emit3(out_a, out_b, out_c, n, sa | PHOENIX, sb, code)
                sa, sb = next_choice(av_a, av_b, k - 1, dbl, sa, sb)
    return n


@njit(
    types.int64(
        types.uint64,
        types.uint64,
        types.int64,
        types.boolean,
        types.uint64[:],
        types.uint64[:],
        types.int64[:],
        types.int64,
    ),
    cache=True,
)
def gen_full_houses(ha, hb, min_rank2, distinct_triples, out_a, out_b, out_c, n):
    """A triple of rank t and a pair of another rank p; the Phoenix may complete either. Two
    pairs and the Phoenix are one set, written once with its highest valid reading (§2.5)."""
    has_ph = (ha & PHOENIX) != ZERO
    ge1, ge2, ge3, d3, _ = rank_sets(ha, hb)
    if distinct_triples:
        t_full = d3
        t_part = rank_multiplicity(ha)[1]
        tdbl = 0
    else:
        t_full = ge3
        t_part = ge2
        tdbl = 1
    triples = ((t_full | t_part) if has_ph else t_full) & ~((ONE << U64(min_rank2 // 2 + 1)) - ONE)
    pairs = ge1 if has_ph else ge2
    while triples != ZERO:
        t = lowest_bit_index(triples)
        triples &= triples - ONE
        ta = ha & rank_cards(t)
        tb = hb & rank_cards(t)
        code = make_code(FULL_HOUSE, 5, 2 * t)
        others = pairs & ~(ONE << U64(t))
        while others != ZERO:
            p = lowest_bit_index(others)
            others &= others - ONE
            pa = ha & rank_cards(p)
            pb = hb & rank_cards(p)
            p_real = (ge2 >> U64(p)) & ONE != ZERO
            if (t_full >> U64(t)) & ONE:  # a real triple with a real pair, or 1 + the Phoenix
                sa, sb = next_choice(ta, tb, 3, tdbl, ZERO, ZERO)
                while sa != ZERO:
                    if p_real:
                        qa, qb = next_choice(pa, pb, 2, 1, ZERO, ZERO)
                        while qa != ZERO:
                            n = _emit3(out_a, out_b, out_c, n, sa | qa, sb | qb, code)
                            qa, qb = next_choice(pa, pb, 2, 1, qa, qb)
                    if has_ph:
                        qa, qb = next_choice(pa, pb, 1, 0, ZERO, ZERO)
                        while qa != ZERO:
                            n = _emit3(out_a, out_b, out_c, n, sa | qa | PHOENIX, sb, code)
                            qa, qb = next_choice(pa, pb, 1, 0, qa, qb)
                    sa, sb = next_choice(ta, tb, 3, tdbl, sa, sb)
            if has_ph and p_real and (t_part >> U64(t)) & ONE:
                # the Phoenix completes the triple: written here when t is the set's highest
                # valid reading (p below t, or p's two cards cannot make a triple: Option)
                sa, sb = next_choice(ta, tb, 2, tdbl, ZERO, ZERO)
                while sa != ZERO:
                    qa, qb = next_choice(pa, pb, 2, 1, ZERO, ZERO)
                    while qa != ZERO:
                        if p < t or (distinct_triples and qb != ZERO):
                            n = _emit3(out_a, out_b, out_c, n, sa | qa | PHOENIX, sb | qb, code)
                        qa, qb = next_choice(pa, pb, 2, 1, qa, qb)
                    sa, sb = next_choice(ta, tb, 2, tdbl, sa, sb)
    return n


@njit(
    types.int64(
        types.uint64,
        types.uint64,
        types.int64,
        types.int64,
        types.int64,
        types.int64,
        types.uint64[:],
        types.uint64[:],
        types.int64[:],
        types.int64,
    ),
    cache=True,
)
def _emit_stairs(ha, hb, lo, hi, ph_rank, code, out_a, out_b, out_c, n):
    """Every choice of two cards at each rank ``lo..hi`` (one and the Phoenix at ``ph_rank``,
    -1 for none), as one combination ``code``; an odometer, the lowest rank fastest."""
    sel_a = ZERO
    sel_b = ZERO
    for r in range(lo, hi + 1):
        k = 1 if r == ph_rank else 2
        cards = rank_cards(r)
        sa, sb = next_choice(ha & cards, hb & cards, k, k // 2, ZERO, ZERO)
        if sa == ZERO:
            return n
        sel_a |= sa
        sel_b |= sb
    extra = PHOENIX if ph_rank >= 0 else ZERO
    while True:
        n = _emit3(out_a, out_b, out_c, n, sel_a | extra, sel_b, code)
        r = lo
        while r <= hi:
            k = 1 if r == ph_rank else 2
            cards = rank_cards(r)
            sa, sb = next_choice(ha & cards, hb & cards, k, k // 2, sel_a & cards, sel_b & cards)
            sel_a &= ~cards
            sel_b &= ~cards
            if sa != ZERO:
                sel_a |= sa
                sel_b |= sb
                break
            sa, sb = next_choice(ha & cards, hb & cards, k, k // 2, ZERO, ZERO)
            sel_a |= sa
            sel_b |= sb
            r += 1
        if r > hi:
            return n


@njit(
    types.int64(
        types.uint64,
        types.uint64,
        types.int64,
        types.int64,
        types.uint64[:],
        types.uint64[:],
        types.int64[:],
        types.int64,
    ),
    cache=True,
)
def gen_stairs(ha, hb, pairs, min_rank2, out_a, out_b, out_c, n):
    """Stairs of ``pairs`` consecutive pairs topping above ``min_rank2``; the Phoenix may
    complete one pair."""
    has_ph = (ha & PHOENIX) != ZERO
    ge1, ge2, _, _, _ = rank_sets(ha, hb)
    if popcount(ge1) < pairs:
        return n
    window = (ONE << U64(pairs)) - ONE
    for hi in range(max(pairs + 1, min_rank2 // 2 + 1), 15):
        lo = hi - pairs + 1
        w = window << U64(lo)
        if w & ~ge1:
            continue  # a rank with no card: even the Phoenix cannot make a pair of it
        short = w & ~ge2
        code = make_code(STAIRS, 2 * pairs, 2 * hi)
        if short == ZERO:
            n = _emit_stairs(ha, hb, lo, hi, -1, code, out_a, out_b, out_c, n)
        if not has_ph or short & (short - ONE):
            continue
        for r in range(lo, hi + 1):
            if short == ZERO or short == ONE << U64(r):
                n = _emit_stairs(ha, hb, lo, hi, r, code, out_a, out_b, out_c, n)
    return n


@njit(types.boolean(types.uint64, types.uint64, types.int64), cache=True)
def _stairs_possible(ha, hb, pairs):
    """Whether the hand holds stairs of ``pairs`` pairs, a card held twice being a pair and the
    Phoenix completing one (``moves.run_possible``)."""
    ge1, ge2, _, _, _ = rank_sets(ha, hb)
    return run_possible(ge2, ge1 & ~ge2, ha & PHOENIX != ZERO, pairs)


@njit(
    types.int64(
        types.uint64, types.int64, types.uint64[:], types.uint64[:], types.int64[:], types.int64
    ),
    cache=True,
)
def gen_singles(ha, top, out_a, out_b, out_c, n):
    """Singles beating ``top`` (0 = lead): the one-deck singles of the normal cards and the Mah
    Jong, then the Phoenix and the Dragon valued for two decks (``combos``)."""
    start = n
    n = gen_one_deck_singles(ha & ~(PHOENIX | DRAGON), top, out_a, out_c, n)
    _zero_b(out_b, start, n)
    if ha & PHOENIX:
        code = phoenix_single2(top)
        if code != 0:
            n = _emit3(out_a, out_b, out_c, n, PHOENIX, ZERO, code)
    if ha & DRAGON:
        code = dragon_single(top)
        if code != 0:
            n = _emit3(out_a, out_b, out_c, n, DRAGON, ZERO, code)
    return n


@njit(
    types.int64(
        types.uint64, types.int64, types.uint64[:], types.uint64[:], types.int64[:], types.int64
    ),
    cache=True,
)
def gen_bombs2(ha, top, out_a, out_b, out_c, n):
    """Bombs beating ``top`` (all when 0): four suits of a rank, straight flushes (§5)."""
    start = n
    n = gen_bombs(ha, top, out_a, out_c, n)
    _zero_b(out_b, start, n)
    return n


@njit(
    types.int64(
        types.uint64,
        types.uint64,
        types.int64,
        RULES_T,
        types.uint64[:],
        types.uint64[:],
        types.int64[:],
        types.int64,
    ),
    cache=True,
)
def lead_moves(ha, hb, category, rules, out_a, out_b, out_c, n):
    """Every lead of ``(ha, hb)`` in one of ``moves.LEAD_CATEGORIES``, appended after ``n``,
    under the table's ``rules`` (a ``rules.GS_RULES`` record)."""
    distinct_triples = rules.distinct_triples
    if category == SINGLE:
        return gen_singles(ha, 0, out_a, out_b, out_c, n)
    if category == PAIR or category == TRIPLE:
        k = 2 if category == PAIR else 3
        return gen_same_rank(ha, hb, k, 0, distinct_triples, out_a, out_b, out_c, n)
    if category == STAIRS:
        for pairs in range(2, 14):
            if not _stairs_possible(ha, hb, pairs):
                break
            n = gen_stairs(ha, hb, pairs, 0, out_a, out_b, out_c, n)
        return n
    if category == FULL_HOUSE:
        return gen_full_houses(ha, hb, 0, distinct_triples, out_a, out_b, out_c, n)
    if category == STRAIGHT:
        start = n
        for length in range(5, 15):
            if not has_run(ha, 1, length):
                break
            n = gen_runs(ha, STRAIGHT, 1, length, 0, out_a, out_c, n)
        _zero_b(out_b, start, n)
        return n
    if category == DOG_LEAD:
        if ha & DOG:
            n = _emit3(out_a, out_b, out_c, n, DOG, ZERO, make_code(DOG_LEAD, 1, 0))
        return n
    return gen_bombs2(ha, 0, out_a, out_b, out_c, n)


@njit(
    types.int64(
        types.uint64,
        types.uint64,
        types.int64,
        RULES_T,
        types.uint64[:],
        types.uint64[:],
        types.int64[:],
    ),
    cache=True,
)
def candidate_moves(ha, hb, top, rules, out_a, out_b, out_c):
    """Every play of ``(ha, hb)`` beating ``top`` (0 = lead) under the table's ``rules``, the
    wish ignored; returns the count (above the buffers' length when they were too small)."""
    n = 0
    if top == 0:
        for category in LEAD_CATEGORIES:
            n = lead_moves(ha, hb, category, rules, out_a, out_b, out_c, n)
        return n
    distinct_triples = rules.distinct_triples
    kind = top >> 16
    length = (top >> 8) & 0xFF
    rank2 = top & 0xFF
    if kind == SINGLE:
        n = gen_singles(ha, top, out_a, out_b, out_c, n)
    elif kind == PAIR or kind == TRIPLE:
        k = 2 if kind == PAIR else 3
        n = gen_same_rank(ha, hb, k, rank2, distinct_triples, out_a, out_b, out_c, n)
    elif kind == STAIRS:
        n = gen_stairs(ha, hb, length // 2, rank2, out_a, out_b, out_c, n)
    elif kind == FULL_HOUSE:
        n = gen_full_houses(ha, hb, rank2, distinct_triples, out_a, out_b, out_c, n)
    elif kind == STRAIGHT:
        n = gen_runs(ha, STRAIGHT, 1, length, rank2, out_a, out_c, n)
        _zero_b(out_b, 0, n)
    elif kind == DOG_LEAD:
        return 0  # §2.10: nothing is played on the Dog
    return gen_bombs2(ha, top, out_a, out_b, out_c, n)


@njit(types.boolean(types.uint64, types.uint64, types.int64, RULES_T), cache=True)
def may_beat(ha, hb, top, rules):
    """False only when ``(ha, hb)`` certainly has no play on ``top`` (a running trick) under the
    table's ``rules``: a cheap bit test that lets the engine record a forced pass without
    generating anything. True means "maybe": straights, stairs and full houses are only
    tested for enough ranks."""
    if has_bomb(ha):
        return True
    kind = top >> 16
    length = (top >> 8) & 0xFF
    rank2 = top & 0xFF
    ph = (ha & PHOENIX) != ZERO
    upto = (ONE << U64(rank2 // 2 + 1)) - ONE  # ranks up to the top's rank
    above = ~upto
    if kind == SINGLE:
        if ha & NORMAL & ~(RANK_COLUMN * upto) != ZERO:
            return True
        if ph and phoenix_single2(top) != 0:
            return True
        return (ha & DRAGON) != ZERO and dragon_single(top) != 0
    ge1, ge2, ge3, d3, _ = rank_sets(ha, hb)
    if kind == PAIR:
        return ((ge1 if ph else ge2) & above) != ZERO
    if kind == TRIPLE or kind == FULL_HOUSE:
        full = d3 if rules.distinct_triples else ge3
        part = rank_multiplicity(ha)[1] if rules.distinct_triples else ge2
        return (((full | part) if ph else full) & above) != ZERO
    if kind == STRAIGHT:
        return popcount(ranks_held(ha)) + (1 if ph else 0) >= length
    if kind == STAIRS:
        return popcount(ge2) + (1 if ph else 0) >= length // 2
    return False  # on a bomb only a bomb, and there is none


@njit(
    types.int64(
        types.uint64, types.boolean, types.uint64[:], types.uint64[:], types.int64[:], types.int64
    ),
    cache=True,
)
def keep_wished(wished, keep_bombs, out_a, out_b, out_c, n):
    """Compact the first ``n`` plays to those holding a ``wished`` card (and the bombs when
    ``keep_bombs``, §2.11); returns the new count."""
    kept = 0
    for i in range(n):
        if out_a[i] & wished or (keep_bombs and (out_c[i] >> 16) >= BOMB_FOUR):
            out_a[kept] = out_a[i]
            out_b[kept] = out_b[i]
            out_c[kept] = out_c[i]
            kept += 1
    return kept


@njit(
    types.UniTuple(types.int64, 2)(
        types.uint64,
        types.uint64,
        types.int64,
        types.int64,
        RULES_T,
        types.uint64[:],
        types.uint64[:],
        types.int64[:],
    ),
    cache=True,
)
def legal_moves(ha, hb, top, wish, rules, out_a, out_b, out_c):
    """Legal plays on a regular turn under the table's ``rules``, ``(count, can_pass)``, as
    ``moves.legal_moves`` (§2.11: a binding wish keeps the plays with the wished rank, and on
    a trick the bombs)."""
    n = candidate_moves(ha, hb, top, rules, out_a, out_b, out_c)
    can_pass = 1 if top != 0 else 0
    if wish == 0 or n > out_a.shape[0] or not wish_binds(ha, wish, out_a, n):
        return n, can_pass
    return keep_wished(rank_cards(wish), top != 0, out_a, out_b, out_c, n), 0


__all__ = [
    "MAX_MOVES",
    "candidate_moves",
    "gen_bombs2",
    "gen_full_houses",
    "gen_same_rank",
    "gen_singles",
    "gen_stairs",
    "keep_wished",
    "lead_moves",
    "legal_moves",
    "may_beat",
    "next_choice",
]
