"""The learned passing's network and its candidate passes, jitted (RULES.md §2.4).

The 4-player game's pass is three cards of the 14 held after the Grand Tichu step, one to
each other seat: the right opponent (the next seat), the partner, the left opponent (§2.1,
§2.4). Scoring all 2,184 ordered triples is neither needed nor cheap, so the learned passing
scores a small fixed set of candidates (``MAX_CANDIDATES`` at most), the same function of the
hand and the strategy row in the labelling (``tichusim.learn.passdata``) and in play
(``policies.passes``):

* the passes the scripted policies make with the hand (``policies.learned_candidates``
  writes them first: ``expert``, ``partner-best``, ``keep-combos``, ``odd-even``,
  ``dog-partner``, ``dog-opponent``, ``lowest``), which include the partner-support pass
  (``partner-best``: the best card to the partner);
* a structured set (``structured``, as ``pass-advice`` builds its own): the partner gets one
  of the hand's ``TOP`` best cards (the Dragon, the Phoenix, then the highest ranks, one per
  rank, a loose card of the rank when there is one), each opponent one of the ``LOW``
  lowest loose cards (the Dog first, then ranked cards alone of their rank outside every run
  of five and every bomb, ``hand.loose_cards``), topped up with the lowest ranked cards when
  fewer are loose, both ways round;

duplicates dropped, first come first kept.

The network scores a candidate from ``features`` (``N_FEATURES``): the hand's count of each
card value (Dog 0, Mah Jong 1, ranks 2..14 as a quarter per card, Phoenix 15, Dragon 16; 17
numbers), the same counts of the 11 cards it keeps, the value of each card given as a one-hot
of 17 (right opponent, partner, left opponent), and whether each given card is loose (3).
``q = relu(relu(x @ w1 + b1) @ w2 + b2) @ w3 + b3``: the team's expected point margin of the
round over 100 with that pass, up to a constant per hand. ``choose`` plays the best.

Wu Wang (§4) has a network of its own (``KIND_WUWANG``, ``N_FEATURES_WUWANG``): each of the
three real players gives one card to each of the other two, so a pass is two cards, in the
engine's slots of the seat's offsets (``variants.pass_offsets``; the third slot zero). Its
candidates (``wuwang_structured`` after the same scripted probes): the King (who gives to two
opponents) every ordered pair of his ``WW_LOW`` lowest loose cards (the Dog first, topped up
with the lowest ranked ones); an opponent the other opponent (its partner) one of its
``WW_TOP`` best cards (``_top_cards``) and the King one of its ``WW_LOW`` lowest loose cards,
then the low pairs the other way round (the partner a low card, the King another) as many
as fit. Its
features (``wuwang_features``) start with those every candidate of the hand shares
(``WW_FIXED``): the hand's counts (17), the Minister's (17; the King sees them from the deal
on, §4; zero for an opponent), the role one-hot (3: King, the opponent after the King, the
opponent before him); then the counts of the 12 cards kept (17), the card to receiver A and
to receiver B as one-hots of 17 (the King: A the opponent after him, B the one before him; an
opponent: A the King, B the other opponent), and whether each is loose (2).

A model is one flat ``float32`` row (``offsets``): a header line (``H1``, ``H2``,
``N_FEATURES``, ``KIND``, the screen's bound ``SCREEN``: ``choose``), then ``w1``
(row-major), ``b1``, ``w2``, ``b2``, ``w3``, ``b3``, then a ``float64`` part (seen through a
view): ``w2`` again, then the rows a candidate's first layer adds, each as the plain forward
pass adds it (``WIDE_ROWS``: the kept count ``k`` of value ``v``'s row times its feature,
``float32(value * w1[N_VALUES + v])``, at ``v * COUNTS_MAX + k - 1``; then the rows of the
features from ``GIVEN`` on, whose values are 1), widened exactly. So the candidates' sums add
rows without multiplying or widening them, and the bits are the plain pass's (``value``).
``tichusim.strategies.passnet`` packs it from a weights file, each hidden layer padded to
whole blocks of ``lanes.LANES`` units (``padded``) with units of zero weights: such a unit is
0 before and after relu, so it adds no term to any sum and the values are the file's
network's, bit for bit; ``H1`` and ``H2`` are the padded sizes. Wu Wang's model is the plain
row alone (``offsets_for``: no ``float64`` part, its layers as the file has them), summed by
``wuwang_values`` in the plain pass's order.
"""

import numpy as np

from ..bits import (
    DOG,
    DRAGON,
    MAH_JONG,
    NORMAL,
    ONE,
    PHOENIX,
    U64,
    ZERO,
    lowest_bit_index,
    rank_cards,
)
from ..hand import card_value, highest_card, loose_cards, lowest_card
from ..jit import njit
from ..lanes import LANES, live_rows, live_rows2, relu_dot, sum_rows, wide_live_rows, wide_rows
from .variants import KING

N_VALUES = 17  # card values: Dog 0, Mah Jong 1, ranks 2..14, Phoenix 15, Dragon 16
N_FEATURES = 2 * N_VALUES + 3 * N_VALUES + 3
MAX_CANDIDATES = 32
TOP = 3  # the partner's structured cards: the hand's best few
LOW = 3  # the opponents' structured cards: the lowest loose few
HEADER = 16  # floats before w1: H1, H2, N_FEATURES, KIND, SCREEN, the rest zero
SCREEN = 4  # the header's bound on the screen's error (``choose``), 0 when there is none
KIND = 2.0  # the header's mark of a pass model (a play model's header starts otherwise)
MAX_HIDDEN = 256
COUNTS_MAX = 4  # cards of one value a hand holds at most
GIVEN = 2 * N_VALUES  # the first feature of the cards given (a candidate's one-hots)
# the float64 part's rows of w1 after w2: each kept count's row times its feature's value
# (``COUNTS_MAX`` per card value), then the given cards' and their looseness's rows
WIDE_ROWS = COUNTS_MAX * N_VALUES + N_FEATURES - GIVEN


def padded(h):
    """A hidden size ``h`` rounded up to whole blocks of ``lanes.LANES`` units: the sizes of
    a model's flat row (``values`` sums a block at a time)."""
    return -(-h // LANES) * LANES


# Wu Wang's pass model (the module docstring)
KIND_WUWANG = 3.0
WW_FIXED = 2 * N_VALUES + 3  # the features every candidate of a hand shares
N_FEATURES_WUWANG = WW_FIXED + 3 * N_VALUES + 2
WW_TOP = 4  # the partner's structured cards (an opponent's): the hand's best few
WW_LOW = 5  # the lowest loose cards the structured Wu Wang passes give an opponent or King

# ``values``' sort key of a candidate: the values it gives (``_kept_key``), its features (the
# three values and three loose bits, as one number below 17**3 * 8 < 2**16), its index
_INDEX_BITS = 5
_FEATURE_BITS = 16
_INDEX_MASK = np.uint64((1 << _INDEX_BITS) - 1)
_FEATURE_MASK = np.uint64((1 << _FEATURE_BITS) - 1)
assert MAX_CANDIDATES <= 1 << _INDEX_BITS
assert N_VALUES**3 * 8 <= 1 << _FEATURE_BITS
assert 2 * N_VALUES + _FEATURE_BITS + _INDEX_BITS <= 64


@njit(cache=True)
def offsets_for(h1, h2, n_features):
    """Where ``w1``, ``b1``, ``w2``, ``b2``, ``w3``, ``b3`` start in the flat row of a model
    reading ``n_features`` features, and where its ``float32`` part ends: the whole row of
    Wu Wang's model, which has no ``float64`` part (``wuwang_values``)."""
    w1 = HEADER
    b1 = w1 + n_features * h1
    w2 = b1 + h1
    b2 = w2 + h1 * h2
    w3 = b2 + h2
    b3 = w3 + h2
    return w1, b1, w2, b2, w3, b3, b3 + 1


@njit(cache=True)
def offsets(h1, h2):
    """Where ``w1``, ``b1``, ``w2``, ``b2``, ``w3``, ``b3`` and the ``float64`` part (``w2``,
    then the candidates' rows of w1) start in the 4-player model's flat row, and its length.
    (``offsets_for``'s sums written again: a kernel Python calls, as it does this one, must
    call no other, or a cold start compiles it twice; ``tests/compile/test_warmup.py``)"""
    w1 = HEADER
    b1 = w1 + N_FEATURES * h1
    w2 = b1 + h1
    b2 = w2 + h1 * h2
    w3 = b2 + h2
    b3 = w3 + h2
    wide = (b3 + HEADER) // HEADER * HEADER  # on a line of its own
    return w1, b1, w2, b2, w3, b3, wide, wide + 2 * (h1 * h2 + WIDE_ROWS * h1)


@njit(cache=True)
def _count(hand, out, at):
    """The card values' counts of ``hand`` into ``out[at:at + N_VALUES]``."""
    for v in range(N_VALUES):
        out[at + v] = 0.0
    x = hand
    while x != ZERO:
        b = lowest_bit_index(x)
        x &= x - ONE
        v = card_value(b)
        out[at + v] += 0.25 if 2 <= v <= 14 else 1.0


@njit(cache=True)
def features(hand, right, partner, left, out):
    """The features (``N_FEATURES``) of giving ``right``, ``partner``, ``left`` (one-card
    masks) from ``hand`` into ``out`` (``float32``)."""
    _count(hand, out, 0)
    _count(hand & ~(right | partner | left), out, N_VALUES)
    loose = loose_cards(hand)
    base = 2 * N_VALUES
    for i in range(3 * N_VALUES + 3):
        out[base + i] = 0.0
    j = 0
    for g in (right, partner, left):
        out[base + j * N_VALUES + card_value(lowest_bit_index(g))] = 1.0
        if g & loose:
            out[base + 3 * N_VALUES + j] = 1.0
        j += 1


@njit(cache=True)
def add(cands, n, right, partner, left):
    """Append the pass (``right``, ``partner``, ``left``) to ``cands[:n]`` unless it is there
    or the buffer is full; returns the new count."""
    for i in range(n):
        if cands[i, 0] == right and cands[i, 1] == partner and cands[i, 2] == left:
            return n
    if n >= cands.shape[0]:
        return n
    cands[n, 0] = right
    cands[n, 1] = partner
    cands[n, 2] = left
    return n + 1


@njit(cache=True)
def _top_cards(hand, loose, out):
    """The partner's structured cards: up to ``len(out)`` (``TOP``) of the hand's best, one per
    value (the Dragon, the Phoenix, then the highest ranks; of a rank a loose card when there
    is one). Returns how many."""
    k = 0
    want = out.shape[0]
    if hand & DRAGON:
        out[k] = DRAGON
        k += 1
    if hand & PHOENIX and k < want:
        out[k] = PHOENIX
        k += 1
    r = 14
    while r >= 2 and k < want:
        held = hand & rank_cards(r)
        if held != ZERO:
            out[k] = highest_card(held & loose) if held & loose else highest_card(held)
            k += 1
        r -= 1
    return k


@njit(cache=True)
def _low_cards(hand, loose, exclude, out):
    """The opponents' structured cards: up to ``len(out)`` (``LOW``) lowest loose cards but
    ``exclude``, topped up with the lowest other ranked cards. Returns how many."""
    k = 0
    pool = loose & ~exclude
    want = out.shape[0]
    while pool != ZERO and k < want:
        c = lowest_card(pool)
        out[k] = c
        pool &= ~c
        k += 1
    rest = hand & NORMAL & ~exclude & ~loose
    while rest != ZERO and k < want:
        c = lowest_card(rest)
        out[k] = c
        rest &= ~c
        k += 1
    return k


@njit(cache=True)
def structured(hand, cands, n):
    """Append the structured candidates of ``hand`` (the module docstring) to ``cands[:n]``;
    returns the new count."""
    loose = loose_cards(hand)
    top = np.zeros(TOP, np.uint64)
    low = np.zeros(LOW, np.uint64)
    k_top = _top_cards(hand & ~(DOG | MAH_JONG), loose, top)
    for i in range(k_top):
        p = top[i]
        k_low = _low_cards(hand, loose, p, low)
        for a in range(k_low):
            for b in range(k_low):
                if a != b:
                    n = add(cands, n, low[a], p, low[b])
    return n


@njit(cache=True)
def value(model, x, h1_out):
    """The network's value of the feature row ``x`` under the flat ``model`` (float64 sums;
    ``h1_out`` scratch of ``H1``). The first layer adds only the rows of nonzero features."""
    h1 = np.int64(model[0])
    h2 = np.int64(model[1])
    w1, b1, w2, b2, w3, b3, _, _ = offsets(h1, h2)
    for j in range(h1):
        h1_out[j] = model[b1 + j]
    for i in range(N_FEATURES):
        xi = x[i]
        if xi != 0.0:
            row = w1 + i * h1
            for j in range(h1):
                h1_out[j] += xi * model[row + j]
    q = np.float64(model[b3])
    for k in range(h2):
        acc = np.float64(model[b2 + k])
        for j in range(h1):
            a = h1_out[j]
            if a > 0.0:
                acc += a * model[w2 + j * h2 + k]
        if acc > 0.0:
            q += acc * model[w3 + k]
    return q


@njit(cache=True, inline="always")
def _count_scale(v, k):
    """The feature of ``k`` cards of value ``v`` (``_count``'s: a quarter per ranked card,
    one per special card), ``float32``."""
    return np.float32(0.25 * k) if 2 <= v <= 14 else np.float32(k)


@njit(cache=True, inline="always")
def _kept_key(vr, vp, vl):
    """The cards' values a candidate gives as one number, the same for every order of the
    three: a 2-bit count per value (at most 3 of one value given)."""
    return (ONE << U64(2 * vr)) + (ONE << U64(2 * vp)) + (ONE << U64(2 * vl))


@njit(cache=True)
def values(model, hand, cands, n, out):
    """The network's values of the candidates ``cands[:n]`` of ``hand`` into ``out[:n]``:
    ``value``'s bits (``_values``)."""
    _values(model, hand, cands, n, out, False)


@njit(cache=True)
def _values(model, hand, cands, n, out, screen):
    """The network's values of the candidates ``cands[:n]`` of ``hand`` into ``out[:n]``:
    ``value``'s bits, sooner. A candidate's features are its cards' values and whether each
    is loose, so the first layer's sum of each is a sum of rows in a fixed order: b1 and the
    hand's counts (the first ``N_VALUES`` features, the same for every candidate, summed
    once in ``value``'s order, ``lanes.wide_rows``); then the counts of the cards kept,
    which depend only on the three values given, whatever their order; then the cards
    given, one-hot, and their looseness. The candidates are taken grouped by the values
    they give (sorted by that key, then by their features), so each group's kept-count rows
    are summed once and every candidate of the group goes on from that sum; a candidate with
    the features of the one before it is given that one's value. Every row is read from the
    model's ``float64`` part, where each is already its feature's product (``lanes.sum_rows``),
    listed straight from the cards (never encoded); the second layer adds the rows of the live
    units only (``lanes.wide_live_rows``). The sums run a block of ``lanes.LANES`` units at a
    time in vector registers, each unit's sum adding ``value``'s terms in ``value``'s order, so
    the bits are ``value``'s. The hidden sizes are multiples of ``lanes.LANES``
    (``tichusim.strategies.passnet.pack`` pads them with units of zero weights, 0 before and
    after relu, which add no term).

    With ``screen``, the second layer and the output run in ``float32`` from the first
    layer rounded to ``float32`` (``lanes.live_rows``, ``lanes.relu_dot``, half the vector
    work): a value within the header's ``SCREEN`` of ``value``'s (``choose``)."""
    h1n = np.int64(model[0])
    h2n = np.int64(model[1])
    w1, b1, w2, b2, w3, b3, wide, end = offsets(h1n, h2n)
    w2_wide = model[wide:end].view(np.float64)
    table = h1n * h2n  # the candidates' rows in the float64 part
    given_rows = table + COUNTS_MAX * N_VALUES * h1n
    ints = np.empty(N_VALUES + N_FEATURES + 3 * n, np.int64)
    counts = ints[:N_VALUES]
    rows = ints[N_VALUES : N_VALUES + N_FEATURES]
    order = ints[N_VALUES + N_FEATURES : N_VALUES + N_FEATURES + n].view(np.uint64)
    same = ints[N_VALUES + N_FEATURES + n : N_VALUES + N_FEATURES + 2 * n]
    valued = ints[N_VALUES + N_FEATURES + 2 * n :]
    scales = np.empty(N_VALUES, np.float32)
    h1_size = max(h1n, 1)
    h2_size = max(h2n, 1)
    sums = np.empty(3 * h1_size + h2_size + h2_size * n, np.float64)
    base = sums[:h1_size]
    kept = sums[h1_size : 2 * h1_size]
    h1 = sums[2 * h1_size : 3 * h1_size]
    layer2 = sums[3 * h1_size + h2_size :]
    narrow = np.empty(2 * (h1_size + h2_size), np.float32)  # the screen's layers, two
    h1_narrow = narrow[:h1_size]
    h1_other = narrow[h1_size : 2 * h1_size]
    h2_narrow = narrow[2 * h1_size : 2 * h1_size + h2_size]
    h2_other = narrow[2 * h1_size + h2_size :]
    pending = -1  # the screen's candidate waiting for a second
    for v in range(N_VALUES):
        counts[v] = 0
    x = hand
    while x != ZERO:
        counts[card_value(lowest_bit_index(x))] += 1
        x &= x - ONE
    k = 0
    for v in range(N_VALUES):
        if counts[v] != 0:
            rows[k] = w1 + v * h1n
            scales[k] = _count_scale(v, counts[v])
            k += 1
    wide_rows(base, model, b1, model, rows, scales, k, h1n)
    loose = loose_cards(hand)
    # each candidate's key: the values it gives (any order), then its features, then its
    # index; sorted by insertion (a few dozen at most)
    for c in range(n):
        vr = card_value(lowest_bit_index(cands[c, 0]))
        vp = card_value(lowest_bit_index(cands[c, 1]))
        vl = card_value(lowest_bit_index(cands[c, 2]))
        bits = U64(
            ((cands[c, 0] & loose) != ZERO)
            | ((cands[c, 1] & loose) != ZERO) << 1
            | ((cands[c, 2] & loose) != ZERO) << 2
        )
        features = ((bits * U64(N_VALUES) + U64(vl)) * U64(N_VALUES) + U64(vp)) * U64(
            N_VALUES
        ) + U64(vr)
        key = (_kept_key(vr, vp, vl) << U64(_FEATURE_BITS) | features) << U64(_INDEX_BITS)
        key |= U64(c)
        i = c
        while i > 0 and order[i - 1] > key:
            order[i] = order[i - 1]
            i -= 1
        order[i] = key
    last = U64(0)  # the key (without the index) of the candidate valued last; never a key
    last_kept = U64(0)
    m = 0  # candidates valued
    for t in range(n):
        c = np.int64(order[t] & _INDEX_MASK)
        key = order[t] >> U64(_INDEX_BITS)
        same[t] = -1
        if key == last:  # the same features: the value of the one before
            same[t] = np.int64(order[t - 1] & _INDEX_MASK)
            continue
        last = key
        features = key & _FEATURE_MASK
        vr = np.int64(features % U64(N_VALUES))
        vp = np.int64(features // U64(N_VALUES) % U64(N_VALUES))
        vl = np.int64(features // U64(N_VALUES * N_VALUES) % U64(N_VALUES))
        bits = features // U64(N_VALUES * N_VALUES * N_VALUES)
        if key >> U64(_FEATURE_BITS) != last_kept:  # the counts of the cards kept, in order
            last_kept = key >> U64(_FEATURE_BITS)
            k = 0
            for v in range(N_VALUES):  # listed without a branch
                left = counts[v] - (v == vr) - (v == vp) - (v == vl)
                rows[k] = table + (v * COUNTS_MAX + left - 1) * h1n
                k += left != 0
            sum_rows(kept, base, w2_wide, rows, k, h1n)
        # the cards given, one-hot, then loose or not
        rows[0] = given_rows + vr * h1n
        rows[1] = given_rows + (N_VALUES + vp) * h1n
        rows[2] = given_rows + (2 * N_VALUES + vl) * h1n
        k = 3
        for j in range(3):
            rows[k] = given_rows + (3 * N_VALUES + j) * h1n
            k += (bits >> U64(j)) & ONE != ZERO
        sum_rows(h1, kept, w2_wide, rows, k, h1n)
        if screen:  # two candidates at a time through the second layer
            side = h1_narrow if pending < 0 else h1_other
            for j in range(h1n):
                side[j] = np.float32(h1[j])
            if pending < 0:
                pending = c
                continue
            live_rows2(h2_narrow, h2_other, model, b2, h1_narrow, h1_other, h1n, model, w2, h2n)
            out[pending] = np.float64(relu_dot(h2_narrow, model, w3, h2n) + model[b3])
            out[c] = np.float64(relu_dot(h2_other, model, w3, h2n) + model[b3])
            pending = -1
            continue
        at = m * h2n
        wide_live_rows(layer2[at : at + h2n], model, b2, h1, h1n, w2_wide, 0, h2n)
        valued[m] = c
        m += 1
    if pending >= 0:  # the screen's last candidate, alone
        live_rows(h2_narrow, model, b2, h1_narrow, h1n, model, w2, h2n)
        out[pending] = np.float64(relu_dot(h2_narrow, model, w3, h2n) + model[b3])
    # the outputs, four candidates at a time (each its own sum, in ``value``'s order: four
    # chains of adds side by side), a live unit's term taken without a branch
    bias = np.float64(model[b3])
    for s in range(0, m - 3, 4):
        q0 = bias
        q1 = bias
        q2 = bias
        q3 = bias
        a0 = s * h2n
        for u in range(h2n):
            weight = np.float64(model[w3 + u])
            x0 = layer2[a0 + u]
            x1 = layer2[a0 + h2n + u]
            x2 = layer2[a0 + 2 * h2n + u]
            x3 = layer2[a0 + 3 * h2n + u]
            t0 = q0 + x0 * weight
            t1 = q1 + x1 * weight
            t2 = q2 + x2 * weight
            t3 = q3 + x3 * weight
            q0 = t0 if x0 > 0.0 else q0
            q1 = t1 if x1 > 0.0 else q1
            q2 = t2 if x2 > 0.0 else q2
            q3 = t3 if x3 > 0.0 else q3
        out[valued[s]] = q0
        out[valued[s + 1]] = q1
        out[valued[s + 2]] = q2
        out[valued[s + 3]] = q3
    for s in range(m - m % 4, m):
        q0 = bias
        a0 = s * h2n
        for u in range(h2n):
            x0 = layer2[a0 + u]
            t0 = q0 + x0 * model[w3 + u]
            q0 = t0 if x0 > 0.0 else q0
        out[valued[s]] = q0
    for t in range(n):  # the candidates with the features of the one before them
        if same[t] >= 0:
            out[np.int64(order[t] & _INDEX_MASK)] = out[same[t]]


@njit(cache=True)
def choose(model, hand, cands, n):
    """The index of the best of the candidates ``cands[:n]`` of ``hand`` by ``values`` (``n``
    ≥ 1; ties: the first), found by a screen: every candidate's value in ``float32``
    (``_values``' ``screen``), which is within the header's ``SCREEN`` (``e``) of its exact
    value (``tichusim.strategies.passnet.screen_bound`` proves it for every input); a
    candidate screened more than ``2 e`` below the best screened is below that one's exact
    value, so it is neither the best nor tied with it, and only the others (most often the
    one) are valued exactly. The index is ``values``'s first best, always."""
    q = np.empty(n, np.float64)
    e = np.float64(model[SCREEN])
    if n == 1 or not e > 0.0:  # no bound: every candidate valued exactly
        values(model, hand, cands, n, q)
        return first_best(q, n)
    _values(model, hand, cands, n, q, True)
    floor = q[first_best(q, n)] - 2.0 * e
    near = np.empty(n, np.int64)
    m = 0
    for c in range(n):
        if q[c] >= floor:
            near[m] = c
            m += 1
    if m == 1:
        return near[0]
    kept = np.empty((m, 3), np.uint64)
    for i in range(m):
        for d in range(3):
            kept[i, d] = cands[near[i], d]
    values(model, hand, kept, m, q)
    return near[first_best(q, m)]


@njit(cache=True)
def first_best(q, n):
    """The index of the highest of ``q[:n]`` (``n`` ≥ 1; ties: the first)."""
    best = 0
    for i in range(1, n):
        if q[i] > q[best]:
            best = i
    return best


@njit(cache=True)
def wuwang_slots(seat):
    """The slots (``out[d - 1]``) of Wu Wang's receivers A and B of ``seat`` (a position, §4;
    the module docstring): the King's opponent after him and before him; an opponent's King
    and other opponent."""
    if seat == KING:
        return 0, 2
    if seat == 1:
        return 2, 1
    return 0, 1  # seat 3


@njit(cache=True)
def wuwang_features(hand, minister, seat, cand, out):
    """The Wu Wang features (``N_FEATURES_WUWANG``) of the seat at position ``seat`` giving
    ``cand`` (its three slots, one zero) from ``hand`` into ``out`` (``float32``);
    ``minister``: the Minister's hand the King sees (ignored for an opponent)."""
    _wuwang_shared(hand, minister, seat, out)
    _wuwang_pass(hand, loose_cards(hand), seat, cand, out)


@njit(cache=True)
def _wuwang_shared(hand, minister, seat, out):
    """The features every candidate of the hand shares (``out[:WW_FIXED]``)."""
    _count(hand, out, 0)
    _count(minister if seat == KING else ZERO, out, N_VALUES)
    base = 2 * N_VALUES
    out[base] = 1.0 if seat == KING else 0.0
    out[base + 1] = 1.0 if seat == 1 else 0.0
    out[base + 2] = 1.0 if seat == 3 else 0.0


@njit(cache=True)
def _wuwang_pass(hand, loose, seat, cand, out):
    """The features of the pass ``cand`` (``out[WW_FIXED:]``); ``loose``: the hand's loose
    cards."""
    a_slot, b_slot = wuwang_slots(seat)
    a = cand[a_slot]
    b = cand[b_slot]
    _count(hand & ~(a | b), out, WW_FIXED)
    base = WW_FIXED + N_VALUES
    for i in range(2 * N_VALUES + 2):
        out[base + i] = 0.0
    out[base + card_value(lowest_bit_index(a))] = 1.0
    out[base + N_VALUES + card_value(lowest_bit_index(b))] = 1.0
    if a & loose:
        out[base + 2 * N_VALUES] = 1.0
    if b & loose:
        out[base + 2 * N_VALUES + 1] = 1.0


@njit(cache=True)
def _add_ww(cands, n, seat, a, b):
    """``add`` the Wu Wang pass ``a`` to receiver A and ``b`` to B of ``seat``."""
    a_slot, b_slot = wuwang_slots(seat)
    g = np.zeros(3, np.uint64)
    g[a_slot] = a
    g[b_slot] = b
    return add(cands, n, g[0], g[1], g[2])


@njit(cache=True)
def wuwang_structured(hand, seat, cands, n):
    """Append the structured Wu Wang candidates of the seat at position ``seat`` holding
    ``hand`` (the module docstring) to ``cands[:n]``; returns the new count."""
    loose = loose_cards(hand)
    low = np.zeros(WW_LOW, np.uint64)
    if seat == KING:
        k_low = _low_cards(hand, loose, ZERO, low)
        for i in range(k_low):
            for j in range(k_low):
                if i != j:
                    n = _add_ww(cands, n, seat, low[i], low[j])
        return n
    top = np.zeros(WW_TOP, np.uint64)
    k_top = _top_cards(hand & ~(DOG | MAH_JONG), loose, top)
    for t in range(k_top):
        p = top[t]
        k_low = _low_cards(hand, loose, p, low)
        for i in range(k_low):
            n = _add_ww(cands, n, seat, low[i], p)  # the King a low card, the partner p
    k_low = _low_cards(hand, loose, ZERO, low)
    for i in range(k_low):
        for j in range(k_low):
            if i != j:
                n = _add_ww(cands, n, seat, low[i], low[j])
    return n


@njit(cache=True)
def wuwang_values(model, hand, minister, seat, cands, n, out):
    """The Wu Wang network's values of the candidates ``cands[:n]`` into ``out[:n]``: b1 and
    the shared features' rows (``WW_FIXED``) summed once, each candidate going on from that
    sum (``values``' order)."""
    h1n = np.int64(model[0])
    h2n = np.int64(model[1])
    w1, b1, w2, b2, w3, b3, _ = offsets_for(h1n, h2n, N_FEATURES_WUWANG)
    x = np.zeros(N_FEATURES_WUWANG, np.float32)
    base = np.empty(max(h1n, 1), np.float64)
    h1 = np.empty(max(h1n, 1), np.float64)
    h2 = np.empty(max(h2n, 1), np.float64)
    _wuwang_shared(hand, minister, seat, x)
    loose = loose_cards(hand)
    for j in range(h1n):
        base[j] = model[b1 + j]
    for i in range(WW_FIXED):
        xi = x[i]
        if xi != 0.0:
            row = w1 + i * h1n
            for j in range(h1n):
                base[j] += xi * model[row + j]
    for c in range(n):
        _wuwang_pass(hand, loose, seat, cands[c], x)
        for j in range(h1n):
            h1[j] = base[j]
        for i in range(WW_FIXED, N_FEATURES_WUWANG):
            xi = x[i]
            if xi != 0.0:
                row = w1 + i * h1n
                for j in range(h1n):
                    h1[j] += xi * model[row + j]
        for k in range(h2n):
            h2[k] = np.float64(model[b2 + k])
        for j in range(h1n):
            a = h1[j]
            if a > 0.0:
                row = w2 + j * h2n
                for k in range(h2n):
                    h2[k] += a * model[row + k]
        q = np.float64(model[b3])
        for k in range(h2n):
            if h2[k] > 0.0:
                q += h2[k] * model[w3 + k]
        out[c] = q


@njit(cache=True)
def wuwang_choose(model, hand, minister, seat, cands, n):
    """``choose`` for Wu Wang's network (``n`` ≥ 1; ties: the first)."""
    q = np.empty(n, np.float64)
    wuwang_values(model, hand, minister, seat, cands, n, q)
    return first_best(q, n)


@njit(cache=True)
def wuwang_features_of(hands, ministers, seats, cands, out):
    """``features_of`` for Wu Wang: ``ministers`` (m,) the Minister's hands (read for the
    King), ``seats`` (m,) the positions, ``out`` (m, ``N_FEATURES_WUWANG``)."""
    for i in range(hands.shape[0]):
        wuwang_features(hands[i], ministers[i], seats[i], cands[i], out[i])


@njit(cache=True)
def features_of(hands, cands, out):
    """The feature rows of a batch: ``hands`` (m,), ``cands`` (m, 3) one-card masks, ``out``
    (m, ``N_FEATURES``) ``float32``: the training's input, made by the same code as play's."""
    for i in range(hands.shape[0]):
        features(hands[i], cands[i, 0], cands[i, 1], cands[i, 2], out[i])


__all__ = [
    "HEADER",
    "KIND",
    "KIND_WUWANG",
    "LOW",
    "MAX_CANDIDATES",
    "MAX_HIDDEN",
    "N_FEATURES",
    "N_FEATURES_WUWANG",
    "N_VALUES",
    "SCREEN",
    "TOP",
    "COUNTS_MAX",
    "GIVEN",
    "WIDE_ROWS",
    "WW_FIXED",
    "WW_LOW",
    "WW_TOP",
    "add",
    "choose",
    "features",
    "features_of",
    "first_best",
    "offsets",
    "offsets_for",
    "padded",
    "structured",
    "value",
    "values",
    "wuwang_choose",
    "wuwang_features",
    "wuwang_features_of",
    "wuwang_slots",
    "wuwang_structured",
    "wuwang_values",
]
