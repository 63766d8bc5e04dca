"""The learned play: a small network scores each answer of a play or a bomb window, jitted.

A value network ``Q(view, candidate)`` (an MLP on ``encoding.py``'s features, trained
elsewhere) scores every legal answer of a play decision (the plays the engine lists, and the
pass when passing is allowed) and of an out-of-turn bomb window (the bombs offered, and no
bomb), and the seat answers the highest; on a tie the first in that order (the plays, then the
pass or no bomb), so the answer is deterministic. Every other decision stays another policy's.
A decision with one possible answer skips the model.

**The network in integers.** ``q = relu(relu(x @ w1 + b1) @ w2 + b2) @ w3 + b3``. Almost every
feature is 0 or 1 (all but ``encoding.SCALED_SLOTS``' counts and points), so ``x @ w1`` is
mostly a sum of rows of w1. Those rows are kept as integers, ``w1q = rint(w1 * 2**s)``
(``int32``), with the one shift ``s`` per model (``quantise``) that keeps every sum of rows
inside ``int32``: a sum of integer rows is exact, the same whatever its order, so a sum
updated by the features that changed equals the sum made afresh, bit for bit. The first
layer's pre-activation of a candidate is

    ``float32(sum of w1q over its 0/1 features) * 2**-s + (b1 + its scaled features * w1)``

the bracket in ``float32``, the scaled features' rows (``float32``, as trained) in index
order, the state's before the candidate's. It differs from ``x @ w1 + b1`` by at most
``2**-(s+1)`` per feature set, besides ``float32`` rounding (the shipped weights: ``s`` = 22,
``1.2e-7`` per feature; ``tests/learn/test_kernel_forward.py`` holds the scores to the
trained network within ``1e-4``). The second and third layers run in ``float32``, the
second layer's sums in index order as trained, the output's in the order
``lanes.relu_dot`` gives (products summed in lanes, then by halves), which differs from a sum
in index order by ``float32`` rounding only.

**What is kept, and why it never matters.** Each seat keeps, in the scratch, the 0/1
features of its last pass (or no bomb: mask 0, code 0; the state part and the pass's
candidate part, the hand it keeps) as bits, and their integer sum (the accumulator). Its next
decision makes the bits of the state and the pass straight from the records, as
``encoding.encode_state`` and ``encode_candidate`` would set them but never as ``float32``
(``state_bits``), compares them with the kept ones and adds or takes away only the rows of
the features that changed (the cards played since, the counts, the trick): a few
dozen rows instead of every live feature's. Because the sums are exact, what a seat kept
(from this round, another round, another unit or nothing) changes no bit of its scores: a
kept sum is used only under the tag of the model that made it (the weights' identity, in the
model's header), and a scratch with any other tag (fresh memory, another model) starts the
seat from no feature. So the same seed plays the same bytes on any number of threads,
stepped or not, and ``decide`` from Python answers as the engine.

A candidate's part differs from the pass's in a few features only (its cards, its
combination, the hand it leaves), so each candidate starts from the pass's sum and adds or
takes away those rows: listed straight from its cards and combination code, as
``encoding.encode_candidate`` would set them (``_candidate_rows``; the candidate is never
encoded), then summed and made the first layer's pre-activation in one step
(``lanes.int_first_layer``: a block of 16 units of the sum kept in a register while every
row's block is added, then scaled there, never stored). The second layer starts from b2 and
adds the rows of w2 of the units relu leaves alive, in order (``lanes.live_rows``), two
answers side by side (``lanes.live_rows2``), and the output is ``lanes.relu_dot``.

**Blocks of 16 units.** Those sums run 16 units at a time, so each hidden layer's size in the
kernels' row is a multiple of ``lanes.LANES`` (16): ``tichusim.strategies.learned.pack`` pads a
network of another size with units of zero weights, 0 before and after relu, which add exactly
0 to what follows (the header holds the padded sizes).

The model travels flat, as ``float32``: the kernels take a table's models as an argument of
their own beside the strategy rows, one row per model (``table_models.py`` makes it, the one
place they are loaded; at most ``MAX_MODELS`` different models at one table, each at most
``MODEL_FLOATS`` long), and a seat's strategy row names its model's index
(``slots.P_MODEL``). One row, with ``F = N_FEATURES``, ``S`` the scaled features
(``encoding.SCALED_FEATURES``)::

    [0, HEADER)                 H1, H2 (the hidden sizes, padded), 2**-s, the identity's tag (four
                                16-bit pieces, each plus one), then zeros (one line)
    [W1, W1 + F*H1)             w1q, int32 (seen through a view), feature-major: feature k's
                                H1 integers at W1 + k*H1 (the scaled features' rows zero)
    [b1, b1 + H1)               b1
    [w2, w2 + H1*H2)            w2, unit-major: hidden unit i's H2 weights at w2 + i*H2
    [b2, b2 + H2)               b2
    [w3, w3 + H2)               w3
    [b3]                        b3
    [wf, wf + len(S)*H1)        the rows of w1 of the scaled features, float32, in order
    (the rest of the row unused; ``offsets`` gives each start)

The ``learn`` scratch, ``float32`` (the integers and bits seen through views, bits as
pairs of ``uint32``), each part on a cache line: the state's scaled features ``[X, XB)``
(``state_bits`` writes them); each seat's kept part at
``SEATS + seat * SEAT_FLOATS`` (its tag, its state bits ``SEAT_BITS``, its pass's candidate
bits ``SEAT_PASS``, its accumulator ``SEAT_ACC``); the decision's ``BASE`` (b1 and the
state's scaled rows); the bits just made ``NEW_BITS``; an answer's first and second
hidden layers ``H1B``, ``H2B``; the rows to add and to take away ``ADDS``, ``SUBS``; the
second answer's layers ``H1B2``, ``H2B2``. Nothing is allocated per decision; every
entry read is written first, but the seats' kept parts, which only their tag lets be read.

The sums run a row of weights at a time into a row of the scratch, so both are kept on 64-byte
cache lines: a record made by ``record`` holds ``learn`` on a line, an array made by
``on_lines`` every model row, every part of the scratch starts a line (``LINE_FLOATS``), and
so does every row of w1 and w2 (the hidden sizes are multiples of 16).

The Python functions at the end keep the models a process has loaded (``register``, by the
identity of their weights file, which ``tichusim.strategies.learned`` reads and checks);
``table_models.py`` hands a table's to the kernels.
"""

import numpy as np

from ..bits import (
    DOG,
    DRAGON,
    MAH_JONG,
    ONE,
    PHOENIX,
    U64,
    ZERO,
    lowest_bit_index,
    popcount,
    rank_cards,
    rank_multiplicity,
)
from ..hand import card_points
from ..jit import njit
from ..lanes import (
    add_row,
    first_layer,
    int_first_layer,
    int_rows,
    live_rows,
    live_rows2,
    relu_dot,
)
from ..outside import D_BOMB, D_PLAY
from .encoding import (
    AFTER,
    AFTER_COUNT,
    AFTER_RANKS,
    ALL_CARDS,
    ALLY_HAND,
    BOMBS,
    BOMBS_SCALE,
    CAND_CARDS,
    CAND_HALF,
    CAND_KIND,
    CAND_LENGTH,
    CAND_POINTS,
    CAND_RANK,
    CAND_WISH,
    CANDIDATE_SIZE,
    CARD_CLASSES,
    CARD_INDEX,
    CARDS,
    COUNT_CLASSES,
    COUNTS,
    DECISION,
    DECISION_CLASSES,
    ELSEWHERE,
    ELSEWHERE_RANKS,
    EXPOSED,
    FIRST_OUT,
    GIVEN,
    GIVEN_HELD,
    GRAND_TICHU,
    HAND,
    HAND_RANKS,
    HAS_PLAYED,
    LACK_CLASSES,
    LACKS,
    LEADER,
    LENGTH_SCALE,
    N_FEATURES,
    OUT,
    PASSED,
    PHOENIX_LED_HALF,
    PLAYED_BY,
    POINTS_SCALE,
    POINTS_TAKEN,
    RECEIVED,
    ROLE,
    SCALED_FEATURES,
    STATE_SIZE,
    TICHU,
    TOP_CARDS,
    TOP_HALF,
    TOP_KIND,
    TOP_LENGTH,
    TOP_RANK,
    TOP_SEAT,
    TRICK_POINTS,
    TRICKS,
    TRICKS_SCALE,
    VARIANT,
    WISH,
    WISH_FREE,
    _card_class,
    _led_half,
    _relative,
)
from .slots import P_WEIGHTS
from .variants import KING, MAX_SEATS, MINISTER, WUWANG

MAX_MODELS = 2  # different models at one table
MODEL_FLOATS = 1 << 18  # a model's flat row, header included: at most
MAX_HIDDEN = 256  # at most H1 and H2 units
LINE = 64  # bytes in a cache line
LINE_FLOATS = LINE // 4
HEADER = LINE_FLOATS
W1 = HEADER
WORD = 64  # features per word of bits (kept as two uint32: the scratch is float32)
SCALE = 2  # the header's 2**-s
TAG = 3  # the header's tag: four numbers
TAG_SIZE = 4
MAX_SHIFT = 40  # the finest integer step of w1q: 2**-40
N_SCALED = SCALED_FEATURES.size
N_SCALED_STATE = int((SCALED_FEATURES < STATE_SIZE).sum())
STATE_WORDS = -(-STATE_SIZE // WORD)
CAND_WORDS = -(-CANDIDATE_SIZE // WORD)


def _lines(floats: int) -> int:
    """``floats`` rounded up to whole cache lines."""
    return -(-floats // LINE_FLOATS) * LINE_FLOATS


def _binary_words(lo: int, hi: int) -> np.ndarray:
    """The bits of the 0/1 features of ``[lo, hi)``, ``WORD`` features a word from ``lo``."""
    words = np.zeros(-(-(hi - lo) // WORD), np.uint64)
    scaled = set(SCALED_FEATURES.tolist())
    for k in range(lo, hi):
        if k not in scaled:
            words[(k - lo) // WORD] |= np.uint64(1 << ((k - lo) % WORD))
    return words


LOW = U64(0xFFFFFFFF)
HALF = U64(32)
STATE_BINARY = _binary_words(0, STATE_SIZE)
# the state's scaled features are the seats' points, the top's length, the trick's points, the
# tricks and the bombs, in that order (``state_bits`` writes them so); a candidate's are its
# length and its points
assert SCALED_FEATURES[:N_SCALED_STATE].tolist() == [
    *range(POINTS_TAKEN, POINTS_TAKEN + MAX_SEATS),
    TOP_LENGTH,
    TRICK_POINTS,
    TRICKS,
    BOMBS,
]
assert SCALED_FEATURES[N_SCALED_STATE:].tolist() == [CAND_LENGTH, CAND_POINTS]


def _card_runs() -> list[tuple[int, int]]:
    """The deck's bits as runs kept in order by the ``cards`` form (``encoding.CARD_INDEX``):
    ``(shift, mask)`` pairs, the form being the OR of ``(m >> shift) & mask``."""
    runs: dict[int, int] = {}
    for bit, index in enumerate(CARD_INDEX.tolist()):
        if index >= 0:
            runs[bit - index] = runs.get(bit - index, 0) | 1 << index
    assert len(runs) <= 4
    pairs = sorted(runs.items())
    return pairs + [(0, 0)] * (4 - len(pairs))


(S0, M0), (S1, M1), (S2, M2), (S3, M3) = ((U64(a), U64(b)) for a, b in _card_runs())
CAND_BINARY = _binary_words(STATE_SIZE, N_FEATURES)

# the ``learn`` scratch (the module docstring)
X = 0
XB = _lines(N_SCALED_STATE)  # the state's scaled features' room
SEAT_BITS = LINE_FLOATS  # in a seat's part, after its tag's line
SEAT_PASS = SEAT_BITS + _lines(2 * STATE_WORDS)
SEAT_ACC = SEAT_PASS + _lines(2 * CAND_WORDS)
SEAT_FLOATS = SEAT_ACC + MAX_HIDDEN
SEATS = XB
BASE = SEATS + MAX_SEATS * SEAT_FLOATS
NEW_BITS = BASE + MAX_HIDDEN
H1B = NEW_BITS + _lines(2 * (STATE_WORDS + 1))  # an answer's first hidden layer
H2B = H1B + MAX_HIDDEN  # its second
ADDS = H2B + MAX_HIDDEN  # the rows to add (int32)
SUBS = ADDS + _lines(N_FEATURES)  # the rows to take away (int32)
H1B2 = SUBS + _lines(N_FEATURES)  # the second answer's first hidden layer (``_decide``)
H2B2 = H1B2 + MAX_HIDDEN  # its second
LEARN_FLOATS = H2B2 + MAX_HIDDEN
# a list of changed rows holds a part's features at most, and ``_list_changes`` writes up to
# four entries past its count
assert max(STATE_SIZE, CANDIDATE_SIZE) + 4 <= _lines(N_FEATURES)


def offsets(h1: int, h2: int) -> tuple[int, int, int, int, int, int, int]:
    """``(b1, w2, b2, w3, b3, wf, size)``: where each part starts in a model's flat row of
    hidden sizes ``h1``, ``h2``, and the floats it takes in all."""
    b1 = W1 + N_FEATURES * h1
    w2 = b1 + h1
    b2 = w2 + h1 * h2
    w3 = b2 + h2
    b3 = w3 + h2
    wf = _lines(b3 + 1)
    return b1, w2, b2, w3, b3, wf, wf + N_SCALED * h1


def model_size(model: np.ndarray) -> int:
    """The floats a model's flat row takes (its header read)."""
    return offsets(int(model[0]), int(model[1]))[-1]


def quantise(w1: np.ndarray) -> tuple[int, np.ndarray]:
    """``(s, w1q)``: the shift and the integer rows of ``w1`` (``N_FEATURES`` x H1) the
    kernel sums (the module docstring). ``s`` is the largest (at most ``MAX_SHIFT``) with
    which every hidden unit's sum of ``|w1q|`` over the 0/1 features stays inside ``int32``,
    so no sum of rows can overflow; the scaled features' rows are zero."""
    w = np.asarray(w1, np.float64).copy()
    w[SCALED_FEATURES] = 0.0
    total = float(np.abs(w).sum(axis=0).max()) if w.size else 0.0
    room = float(2**31 - 1) - N_FEATURES  # each entry's rounding adds at most a half
    shift = MAX_SHIFT
    if total > 0.0:
        shift = min(MAX_SHIFT, int(np.floor(np.log2(room / total))))
    return shift, np.rint(w * 2.0**shift).astype(np.int32)


def tag(identity: str) -> np.ndarray:
    """The header's tag of a weights identity (16 hex digits): four 16-bit pieces, each plus
    one (never zero, as fresh memory is)."""
    number = int(identity, 16)
    return np.array([(number >> (16 * i) & 0xFFFF) + 1 for i in range(TAG_SIZE)], np.float32)


@njit(cache=True, inline="always")
def _sizes(model):
    h1 = np.int64(model[0])
    h2 = np.int64(model[1])
    b1 = W1 + N_FEATURES * h1
    w2 = b1 + h1
    b2 = w2 + h1 * h2
    w3 = b2 + h2
    b3 = w3 + h2
    wf = (b3 + LINE_FLOATS) // LINE_FLOATS * LINE_FLOATS
    return h1, h2, b1, w2, b2, w3, b3, wf


@njit(cache=True, inline="always")
def _word(bits, w):
    """Word ``w`` of bits kept as two ``uint32``."""
    return U64(bits[2 * w]) | U64(bits[2 * w + 1]) << HALF


@njit(cache=True, inline="always")
def _list_bits(word, first, idx, n):
    """Append ``first + i`` for each set bit ``i`` of ``word``, lowest first, to ``idx[:n]``;
    the new length."""
    m = word
    while m != ZERO:
        idx[n] = first + lowest_bit_index(m)
        n += 1
        m &= m - ONE
    return n


@njit(cache=True, inline="always")
def _list_changes(word, first, idx, n):
    """``_list_bits`` for the kept sums' changes, where a word holds a few set bits and how
    many varies: the first four entries are written whatever the count (those past it are
    not counted, and the list has room for them: entry 64 of a word is ``first + 64``), the
    rest in a loop that mostly does not run, so no loop's exit is mispredicted per word."""
    m = word
    count = popcount(m)
    for j in range(4):
        idx[n + j] = first + lowest_bit_index(m)
        m &= m - ONE
    k = n + 4
    while m != ZERO:
        idx[k] = first + lowest_bit_index(m)
        k += 1
        m &= m - ONE
    return n + count


@njit(cache=True, inline="always")
def _update(w1q, h1, acc, old, new, first, learn):
    """``acc``, the sum of the rows of the bits ``old`` (words kept as ``uint32`` pairs,
    features from ``first``), made the sum of the rows of the bits ``new``: the rows of the
    features set in one and not the other listed (``ADDS``, ``SUBS``), then added or taken
    away."""
    adds = learn[ADDS : ADDS + N_FEATURES].view(np.int32)
    subs = learn[SUBS : SUBS + N_FEATURES].view(np.int32)
    na = 0
    ns = 0
    for w in range(new.size // 2):
        a = _word(old, w)
        b = _word(new, w)
        if a != b:
            na = _list_changes(b & ~a, first + WORD * w, adds, na)
            ns = _list_changes(a & ~b, first + WORD * w, subs, ns)
    int_rows(acc, acc, w1q, adds, na, subs, ns, h1)


@njit(cache=True, inline="always")
def _first_layer(model, learn, acc, length, points, out):
    """A first hidden layer's pre-activation into ``out`` (the module docstring): the integer
    sum ``acc`` scaled, plus ``BASE`` (b1 and the state's scaled rows), plus the candidate's
    scaled features (its ``length`` and ``points`` entries) weighing their rows, in order
    (``lanes.first_layer``, a block of 16 units at a time)."""
    h1, _, _, _, _, _, _, wf = _sizes(model)
    first_layer(
        out,
        acc,
        model[SCALE],
        learn[BASE : BASE + h1],
        model,
        wf + N_SCALED_STATE * h1,
        length,
        wf + (N_SCALED_STATE + 1) * h1,
        points,
        h1,
    )


@njit(cache=True, inline="always")
def _cards_form(mask):
    """The ``cards`` entries of ``mask`` as the bits of one number (``encoding.CARD_INDEX``)."""
    return (mask >> S0) & M0 | (mask >> S1) & M1 | (mask >> S2) & M2 | (mask >> S3) & M3


@njit(cache=True, inline="always")
def _list_levels(ranks, level, first, idx, n):
    """Append entry ``first + 4 (r - 2) + level`` for each rank ``r`` of the 16-bit rank set
    ``ranks`` (``encoding``'s ``ranks`` form), to ``idx[:n]``; the new length."""
    m = ranks
    while m != ZERO:
        idx[n] = first + 4 * (lowest_bit_index(m) - 2) + level
        n += 1
        m &= m - ONE
    return n


@njit(cache=True, inline="always")
def _candidate_rows(pub, me, mask, code, adds, subs):
    """The 0/1 features where the candidate part of (``mask``, ``code``) differs from the
    pass's (as ``encoding.encode_candidate`` writes both), without encoding either: those
    set in the candidate's only into ``adds``, in the pass's only into ``subs``; their
    counts."""
    na = _list_bits(_cards_form(mask), CAND_CARDS, adds, 0)
    ns = 0
    kind = code >> 16
    if kind != 0:  # the pass's kind is 0
        adds[na] = CAND_KIND + kind
        subs[ns] = CAND_KIND
        na += 1
        ns += 1
    if code != 0:
        rank2 = code & 0xFF
        adds[na] = CAND_RANK + (rank2 >> 1)
        na += 1
        if rank2 & 1:
            adds[na] = CAND_HALF
            na += 1
    if 2 <= pub.wish <= 14 and mask & rank_cards(pub.wish):
        adds[na] = CAND_WISH
        na += 1
    hand = me.hand
    after = hand & ~mask  # a subset of the hand the pass keeps: entries only go
    ns = _list_bits(_cards_form(hand & mask), AFTER, subs, ns)
    h1, h2, h3, h4 = rank_multiplicity(hand)
    a1, a2, a3, a4 = rank_multiplicity(after)
    ns = _list_levels(h1 & ~a1, 0, AFTER_RANKS, subs, ns)
    ns = _list_levels(h2 & ~a2, 1, AFTER_RANKS, subs, ns)
    ns = _list_levels(h3 & ~a3, 2, AFTER_RANKS, subs, ns)
    ns = _list_levels(h4 & ~a4, 3, AFTER_RANKS, subs, ns)
    gone = hand & mask
    if gone & MAH_JONG:
        subs[ns] = AFTER_RANKS + 52
        ns += 1
    if gone & DOG:
        subs[ns] = AFTER_RANKS + 53
        ns += 1
    if gone & PHOENIX:
        subs[ns] = AFTER_RANKS + 54
        ns += 1
    if gone & DRAGON:
        subs[ns] = AFTER_RANKS + 55
        ns += 1
    before = min(popcount(hand), COUNT_CLASSES - 1)
    left = min(popcount(after), COUNT_CLASSES - 1)
    if left != before:
        subs[ns] = AFTER_COUNT + before
        adds[na] = AFTER_COUNT + left
        ns += 1
        na += 1
    return na, ns


@njit(cache=True, inline="always")
def _spread4(x):
    """Bit ``i`` of ``x`` (``i`` < 16) moved to bit ``4 i``."""
    x = (x | x << U64(24)) & U64(0x000000FF000000FF)
    x = (x | x << U64(12)) & U64(0x000F000F000F000F)
    x = (x | x << U64(6)) & U64(0x0303030303030303)
    return (x | x << U64(3)) & U64(0x1111111111111111)


@njit(cache=True, inline="always")
def _ranks_form(mask):
    """The ``ranks`` entries of ``mask`` (``encoding``'s ``_put_ranks``) as the bits of one
    number: entry ``4 (r - 2) + k`` when it holds more than ``k`` cards of rank ``r``, then the
    Mah Jong, the Dog, the Phoenix and the Dragon at 52..55."""
    ge1, ge2, ge3, ge4 = rank_multiplicity(mask)
    form = _spread4(ge1 >> U64(2)) | _spread4(ge2 >> U64(2)) << U64(1)
    form |= _spread4(ge3 >> U64(2)) << U64(2) | _spread4(ge4 >> U64(2)) << U64(3)
    form |= (mask >> U64(1) & ONE) << U64(52) | (mask & ONE) << U64(53)
    return form | (mask >> U64(16) & ONE) << U64(54) | (mask >> U64(15) & ONE) << U64(55)


@njit(cache=True, inline="always")
def _put(words, at, form):
    """OR the bits of ``form`` into ``words`` from bit ``at`` (the next word takes what
    passes the end of the first, so ``words`` has one word of room after the last entry)."""
    w = at >> 6
    s = at & 63
    words[w] |= form << U64(s)
    if s != 0:
        words[w + 1] |= form >> U64(64 - s)


@njit(cache=True, inline="always")
def _set(words, at):
    """Set bit ``at`` of ``words``."""
    words[at >> 6] |= ONE << U64(at & 63)


@njit(cache=True)
def state_bits(p, me, decision, words, scaled):
    """The state part of seat ``me``'s view at ``decision`` (arguments as
    ``encoding.encode_state``'s) straight from the records, without its ``float32`` form:
    its 0/1 features as bits into ``words`` (``uint64``, ``STATE_WORDS`` and one of room;
    feature ``k`` is bit ``k % 64`` of word ``k // 64``) and its scaled features, in index
    order, into ``scaled[:N_SCALED_STATE]``; each set or valued exactly as ``encode_state``
    writes it (``tests/kernels/test_learned_sums.py`` holds the two the same)."""
    for w in range(STATE_WORDS + 1):
        words[w] = ZERO
    n = p.n_players
    seat = me.seat
    hand = me.hand
    _put(words, HAND, _cards_form(hand))
    _put(words, HAND_RANKS, _ranks_form(hand))
    elsewhere = ALL_CARDS & ~(hand | p.played | me.ally_hand | p.exposed)
    _put(words, ELSEWHERE, _cards_form(elsewhere))
    _put(words, ELSEWHERE_RANKS, _ranks_form(elsewhere))
    _put(words, ALLY_HAND, _cards_form(me.ally_hand))
    _put(words, EXPOSED, _cards_form(p.exposed))

    for j in range(MAX_SEATS):
        scaled[j] = np.float32(0.0)
    for j in range(n):
        s = seat + j
        if s >= n:
            s -= n
        _put(words, PLAYED_BY + CARDS * j, _cards_form(p.played_by[s]))
        _set(words, COUNTS + COUNT_CLASSES * j + min(max(p.counts[s], 0), COUNT_CLASSES - 1))
        if p.grand_tichu[s] != 0:
            _set(words, GRAND_TICHU + j)
        if p.tichu[s] != 0:
            _set(words, TICHU + j)
        if p.has_played[s] != 0:
            _set(words, HAS_PLAYED + j)
        scaled[j] = np.float32(p.points_taken[s] / POINTS_SCALE)
        lacks = U64(p.lacks[s] >> 1) & U64((1 << LACK_CLASSES) - 1)  # ranks 1..14
        _put(words, LACKS + LACK_CLASSES * j, lacks)
        if p.passed >> s & 1:
            _set(words, PASSED + j)
        if p.wish_free >> s & 1:
            _set(words, WISH_FREE + j)
    for k in range(min(p.n_out, n)):
        _set(words, OUT + _relative(p.out_order[k], seat, n))
    if p.n_out > 0:
        _set(words, FIRST_OUT + _relative(p.out_order[0], seat, n))

    # the trick in play (§2.8)
    top = p.top_code
    _set(words, TOP_KIND + (top >> 16))
    length = np.float32(0.0)
    if top != 0:
        length = np.float32(((top >> 8) & 0xFF) / LENGTH_SCALE)
        rank2 = top & 0xFF
        _set(words, TOP_RANK + (rank2 >> 1))
        if rank2 & 1:
            _set(words, TOP_HALF)
        _set(words, TOP_SEAT + _relative(p.top_seat, seat, n))
        _set(words, LEADER + _relative(p.leader, seat, n))
        _put(words, TOP_CARDS, _cards_form(p.top_mask))
    scaled[MAX_SEATS] = length
    scaled[MAX_SEATS + 1] = np.float32(card_points(p.trick_cards) / POINTS_SCALE)
    if 2 <= p.wish <= 14:  # §2.11
        _set(words, WISH + p.wish - 2)
    scaled[MAX_SEATS + 2] = np.float32(p.tricks / TRICKS_SCALE)
    scaled[MAX_SEATS + 3] = np.float32(p.bombs / BOMBS_SCALE)

    # the seat's own passing (§2.4)
    for j in range(1, n):
        s = seat + j
        if s >= n:
            s -= n
        given = me.given[s]
        if given != ZERO:
            _set(words, GIVEN + CARD_CLASSES * (j - 1) + _card_class(given))
            if given & ~p.played:
                _set(words, GIVEN_HELD + j - 1)
        received = me.received[s]
        if received != ZERO:
            _set(words, RECEIVED + CARD_CLASSES * (j - 1) + _card_class(received))

    _set(words, VARIANT + p.variant)
    if p.variant == WUWANG:  # §4
        _set(words, ROLE + (0 if seat == KING else 1 if seat == MINISTER else 2))
    if _led_half(p):
        _set(words, PHOENIX_LED_HALF)
    if 1 <= decision <= DECISION_CLASSES:
        _set(words, DECISION + decision - 1)


@njit(cache=True, inline="always")
def _pass_bits(me, words):
    """The 0/1 features of the pass's (or no bomb's) candidate part as bits into ``words``
    (``CAND_WORDS`` and one of room; feature ``STATE_SIZE + k`` is bit ``k % 64`` of word
    ``k // 64``), as ``encoding.encode_candidate`` sets them for mask 0, code 0: kind 0, the
    whole hand kept and its count."""
    for w in range(CAND_WORDS + 1):
        words[w] = ZERO
    hand = me.hand
    _set(words, CAND_KIND - STATE_SIZE)
    _put(words, AFTER - STATE_SIZE, _cards_form(hand))
    _put(words, AFTER_RANKS - STATE_SIZE, _ranks_form(hand))
    _set(words, AFTER_COUNT - STATE_SIZE + min(popcount(hand), COUNT_CLASSES - 1))


@njit(cache=True, inline="always")
def _seat(me):
    """Where seat ``me``'s kept part of the scratch starts."""
    return SEATS + me.seat * SEAT_FLOATS


@njit(cache=True)
def state_term(model, learn, pub, me, decision):
    """Seat ``me``'s kept sum brought to the pass (or no bomb) of ``decision``: the rows of
    the 0/1 features of the state and of the pass's candidate part (the hand it keeps) that
    changed since it was kept added or taken away; and ``BASE``, b1 and the state's scaled
    rows. The features are made as bits straight from the records (``state_bits``,
    ``_pass_bits``), never as ``float32``; the state's scaled ones stay at ``X``."""
    h1, _, b1, _, _, _, _, wf = _sizes(model)
    w1q = model[W1 : W1 + N_FEATURES * h1].view(np.int32)
    at = _seat(me)
    kept = learn[at : at + TAG_SIZE]
    bits = learn[at + SEAT_BITS : at + SEAT_PASS].view(np.uint32)
    pass_bits = learn[at + SEAT_PASS : at + SEAT_ACC].view(np.uint32)
    acc = learn[at + SEAT_ACC : at + SEAT_ACC + h1].view(np.int32)
    same = True
    for i in range(TAG_SIZE):
        same &= kept[i] == model[TAG + i]
    if not same:  # kept under another model, or never: from no feature
        for w in range(bits.size):
            bits[w] = 0
        for w in range(pass_bits.size):
            pass_bits[w] = 0
        for j in range(h1):
            acc[j] = 0
        for i in range(TAG_SIZE):
            kept[i] = model[TAG + i]
    words = learn[NEW_BITS : NEW_BITS + 2 * (STATE_WORDS + 1)].view(np.uint64)
    scaled = learn[X : X + N_SCALED_STATE]
    state_bits(pub, me, decision, words, scaled)
    new = learn[NEW_BITS : NEW_BITS + 2 * STATE_WORDS].view(np.uint32)
    _update(w1q, h1, acc, bits[: 2 * STATE_WORDS], new, 0, learn)
    for w in range(2 * STATE_WORDS):
        bits[w] = new[w]
    _pass_bits(me, words)
    new = learn[NEW_BITS : NEW_BITS + 2 * CAND_WORDS].view(np.uint32)
    _update(w1q, h1, acc, pass_bits[: 2 * CAND_WORDS], new, STATE_SIZE, learn)
    for w in range(2 * CAND_WORDS):
        pass_bits[w] = new[w]
    base = learn[BASE : BASE + h1]
    for j in range(h1):
        base[j] = model[b1 + j]
    for r in range(N_SCALED_STATE):
        v = scaled[r]
        if v != 0.0:
            add_row(base, v, model, wf + r * h1, h1)


@njit(cache=True, inline="always")
def _pass_layer(model, learn, me, out):
    """The pass's (or no bomb's) first layer, after ``state_term``, into ``out`` (its
    scaled candidate features are zero: no cards, no combination)."""
    at = _seat(me) + SEAT_ACC
    zero = np.float32(0.0)
    _first_layer(model, learn, learn[at : at + MAX_HIDDEN].view(np.int32), zero, zero, out)


@njit(cache=True, inline="always")
def _candidate_layer(model, learn, pub, me, mask, code, out):
    """The first layer of the candidate (``mask``, ``code``) after ``state_term``, into
    ``out``: the pass's sum, with the rows of the features where their candidate parts
    differ added or taken away (``_candidate_rows``), and the candidate's scaled features
    (as ``encoding.encode_candidate`` writes them)."""
    h1 = np.int64(model[0])
    w1q = model[W1 : W1 + N_FEATURES * h1].view(np.int32)
    adds = learn[ADDS : ADDS + N_FEATURES].view(np.int32)
    subs = learn[SUBS : SUBS + N_FEATURES].view(np.int32)
    na, ns = _candidate_rows(pub, me, mask, code, adds, subs)
    at = _seat(me) + SEAT_ACC
    pass_acc = learn[at : at + h1].view(np.int32)
    length = np.float32(0.0)
    if code != 0:
        length = np.float32(((code >> 8) & 0xFF) / LENGTH_SCALE)
    points = np.float32(card_points(mask) / POINTS_SCALE)
    wf = _sizes(model)[7]
    int_first_layer(
        out,
        pass_acc,
        w1q,
        adds,
        na,
        subs,
        ns,
        model[SCALE],
        learn[BASE : BASE + h1],
        model,
        wf + N_SCALED_STATE * h1,
        length,
        wf + (N_SCALED_STATE + 1) * h1,
        points,
        h1,
    )


@njit(cache=True, inline="always")
def _output(model, learn):
    """The score from the first layer at ``learn[H1B:]``: relu, the second layer (b2, then the
    rows of w2 of the units relu leaves alive, in order, ``lanes.live_rows``), relu and the output
    (``lanes.relu_dot``), then b3."""
    h1, h2, _, w2, b2, w3, b3, _ = _sizes(model)
    hidden2 = learn[H2B : H2B + h2]
    live_rows(hidden2, model, b2, learn[H1B : H1B + h1], h1, model, w2, h2)
    return relu_dot(hidden2, model, w3, h2) + model[b3]


@njit(cache=True, inline="always")
def _answer_layer(model, learn, pub, me, masks, codes, n, i, out):
    """The first layer of answer ``i`` (a play below ``n``, else the pass or no bomb) into
    ``out``."""
    if i < n:
        _candidate_layer(model, learn, pub, me, masks[i], codes[i], out)
    else:
        _pass_layer(model, learn, me, out)


@njit(cache=True)
def _decide(model, learn, pub, me, decision, masks, codes, n, with_none, out):
    """Every answer's score in ``choose``'s order (the plays, then the pass or no bomb when
    ``with_none``), written to ``out`` when it is that long (``scores``); the index of the
    highest, the first on a tie (-1 for the pass or no bomb). The answers go two at a time
    through the second layer (``lanes.live_rows2``: each its own sum, the two side by
    side), the last alone when they are odd (``_output``)."""
    state_term(model, learn, pub, me, decision)
    h1, h2, _, w2, b2, w3, b3, _ = _sizes(model)
    total = n + with_none
    keep = out.size >= total
    row = learn[H1B : H1B + h1]
    row_b = learn[H1B2 : H1B2 + h1]
    hidden2 = learn[H2B : H2B + h2]
    hidden2_b = learn[H2B2 : H2B2 + h2]
    best = -1
    best_q = np.float32(0.0)
    i = 0
    while i < total:
        _answer_layer(model, learn, pub, me, masks, codes, n, i, row)
        if i + 1 < total:
            _answer_layer(model, learn, pub, me, masks, codes, n, i + 1, row_b)
            live_rows2(hidden2, hidden2_b, model, b2, row, row_b, h1, model, w2, h2)
            q = relu_dot(hidden2, model, w3, h2) + model[b3]
            q_b = relu_dot(hidden2_b, model, w3, h2) + model[b3]
        else:
            q = _output(model, learn)
            q_b = q
        for j in range(min(2, total - i)):
            a = i + j
            qa = q if j == 0 else q_b
            if keep:
                out[a] = qa
            if a == 0 or qa > best_q:
                best_q = qa
                best = a if a < n else -1
        i += 2
    return best


@njit(cache=True)
def choose(model, learn, pub, me, decision, masks, codes, n, with_none):
    """The answer the model scores highest at ``decision`` (``D_PLAY`` or ``D_BOMB``) among
    ``masks[:n]``/``codes[:n]`` and, when ``with_none``, the pass or no bomb: an index, -1
    for the pass or no bomb. Ties go to the first in that order; with one answer possible the
    model is not asked."""
    if n + with_none <= 1:
        return 0 if n == 1 else -1
    return _decide(model, learn, pub, me, decision, masks, codes, n, with_none, learn[:0])


@njit(cache=True)
def scores(models, learn, pub, privs, decision, masks, codes, n, with_none, out):
    """Every candidate's score, as ``choose`` weighs them, into ``out`` (the plays, then the
    pass or no bomb): ``models[0]`` the model, ``pub`` and ``privs[0]`` one-record arrays of
    the table's ``PUBLIC`` and the seat's ``PRIVATE`` records (tests and tools)."""
    if n + with_none > 0:
        _decide(models[0], learn, pub[0], privs[0], decision, masks, codes, n, with_none, out)


@njit(cache=True)
def choice(models, learn, pub, privs, decision, masks, codes, n, with_none):
    """``choose`` from Python (tests and tools): arguments as ``scores``'."""
    return choose(models[0], learn, pub[0], privs[0], decision, masks, codes, n, with_none)


# ---- records on cache lines, the models a process has loaded ----


def record(dtype: np.dtype, zeroed: bool = True) -> np.ndarray:
    """One record of ``dtype`` (a work record, or any with a ``learn`` field) whose ``learn``
    starts on a cache line (the module docstring); zeroed, or left as the memory was
    (``zeroed=False``). A record made otherwise plays the same, only slower."""
    at = dtype.fields["learn"][1]
    raw = (np.zeros if zeroed else np.empty)(dtype.itemsize + LINE, np.uint8)
    skip = -(raw.ctypes.data + at) % LINE
    return raw[skip : skip + dtype.itemsize].view(dtype)


def on_lines(n_models: int, floats: int) -> np.ndarray:
    """A zeroed ``float32`` array of ``n_models`` rows of ``floats`` (a multiple of
    ``LINE_FLOATS``), its first row on a cache line and so every row."""
    raw = np.zeros(n_models * floats + LINE_FLOATS, np.float32)
    skip = (-raw.ctypes.data % LINE) // 4
    return raw[skip : skip + n_models * floats].reshape(n_models, floats)


_LOADED: dict[int, np.ndarray] = {}  # identity -> the model's flat row (as long as it needs)


def identity_number(identity: str) -> int:
    """A weights file's identity (16 hex digits) as the 64-bit number the rows hold."""
    return int(identity, 16)


def register(identity: str, model: np.ndarray) -> None:
    """Keep ``model`` (a flat row as laid out above, only as long as it needs) for the weights
    of ``identity``: rows naming it (``mark_row``) play with it in this process."""
    _LOADED[identity_number(identity)] = np.ascontiguousarray(model, np.float32)


def registered(number: int) -> np.ndarray | None:
    """The model registered for the identity ``number`` (``identity_number``), or ``None``."""
    return _LOADED.get(number)


def mark_row(row: np.ndarray, identity: str) -> None:
    """Name the weights of ``identity`` in a strategy row (``slots.P_WEIGHTS``)."""
    number = identity_number(identity)
    row[P_WEIGHTS] = float(number >> 32)
    row[P_WEIGHTS + 1] = float(number & 0xFFFFFFFF)


def row_identity(row: np.ndarray) -> int:
    """The identity a strategy row names (0: none)."""
    return (int(row[P_WEIGHTS]) << 32) | int(row[P_WEIGHTS + 1])


__all__ = [
    "D_BOMB",
    "D_PLAY",
    "HEADER",
    "LEARN_FLOATS",
    "LINE",
    "LINE_FLOATS",
    "MAX_HIDDEN",
    "MAX_MODELS",
    "MODEL_FLOATS",
    "W1",
    "choice",
    "choose",
    "mark_row",
    "model_size",
    "offsets",
    "on_lines",
    "quantise",
    "record",
    "register",
    "registered",
    "row_identity",
    "scores",
    "state_term",
    "tag",
]
