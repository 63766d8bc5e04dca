"""The learned play: a small network scores each answer of a play or a bomb window, jitted.

A value network ``Q(view, candidate)`` (an MLP on ``encoding.py``'s features, trained
elsewhere) scores every legal answer of a play decision (the plays the engine lists, and the
pass when passing is allowed) and of an out-of-turn bomb window (the bombs offered, and no
bomb), and the seat answers the highest; on a tie the first in that order (the plays, then the
pass or no bomb), so the answer is deterministic. Every other decision stays another policy's.
A decision with one possible answer skips the model.

The model travels flat, as ``float32``: the kernels take a table's models as an argument of
their own beside the strategy rows, one row per model (``table_models.py`` makes it, the one
place they are loaded; at most ``MAX_MODELS`` different models at one table, each at most
``MODEL_FLOATS`` long), and a seat's strategy row names its model's index
(``slots.P_MODEL``). One row, with ``F = N_FEATURES``::

    [0, HEADER)                 H1, H2 (the hidden sizes, as floats), then zeros (one line)
    [W1, W1 + F*H1)             w1, feature-major: feature k's H1 weights at W1 + k*H1
    [b1, b1 + H1)               b1
    [w2, w2 + H1*H2)            w2, unit-major: hidden unit i's H2 weights at w2 + i*H2
    [b2, b2 + H2)               b2
    [w3, w3 + H2)               w3
    [b3]                        b3
    (the rest of the row unused; ``offsets`` gives each start)

The forward pass ``q = relu(relu(x @ w1 + b1) @ w2 + b2) @ w3 + b3`` splits its first layer:
``x @ w1`` is the sum of the rows of w1 whose feature is non-zero (the features are sparse).
Once per decision it sums them for the pass (or no bomb: mask 0, code 0), the state part
(the same for every candidate) and the pass's candidate part (the hand it keeps), plus b1
(``HS`` in the scratch). A candidate's part differs from the pass's in a few features only
(its cards, its combination, the cards it takes out of the hand it leaves), so each
candidate adds to that sum the rows of those features, weighted by the difference; the
rest of the network runs per candidate, skipping the hidden units relu zeroed. The
features are encoded (``encoding.encode_state``, ``encode_candidate``) into the work
record's ``learn`` scratch, laid out ``[X, XB, HS, H1B, H2B, IDX)``: the feature vector, the
pass's candidate part, the pass's first-layer sum, the candidate's first and second hidden
layers, a list of indexes (the non-zero features, the units relu leaves alive); nothing is
allocated per decision. A list is made 64 entries at a time: a mask of the entries kept, made
without a branch (the compiler compares a line at a time), then its bits in order; so the
sums add the same rows in the same order as a loop over every entry would.

The sums run a row of weights at a time into a row of the scratch, so both are kept on 64-byte
cache lines: a record made by ``record`` holds ``learn`` on a line, an array made by
``on_lines`` every model row, every part of the scratch starts a line (``LINE_FLOATS``), and
so does every row of w1 and w2 when the hidden sizes are multiples of 16 (a row that
straddles two lines is read twice over).

The Python functions at the end keep the models a process has loaded (``register``, by the
identity of their weights file, which ``tichusim.strategies.learned`` reads and checks);
``table_models.py`` hands a table's to the kernels.
"""

import numpy as np

from ..bits import ONE, U64, ZERO, lowest_bit_index
from ..jit import njit
from ..outside import D_BOMB, D_PLAY
from .encoding import CANDIDATE_SIZE, N_FEATURES, STATE_SIZE, encode_candidate, encode_state
from .slots import P_WEIGHTS

MAX_MODELS = 2  # different models at one table
MODEL_FLOATS = 1 << 18  # a model's flat row, header included: at most
MAX_HIDDEN = 256  # at most H1 and H2 units
LINE = 64  # bytes in a cache line
LINE_FLOATS = LINE // 4
HEADER = LINE_FLOATS
W1 = HEADER
BLOCK = 64  # entries a list is made from at a time (one bit each of a mask)


def _blocks(floats: int) -> int:
    """``floats`` rounded up to whole ``BLOCK``s (whole cache lines too)."""
    return -(-floats // BLOCK) * BLOCK


# the ``learn`` scratch: the features, the candidate part of the pass (or no bomb), three rows
# of hidden units, room for a list of indexes (``int32``, seen through a view). Each part
# starts a cache line; the features and the pass's part are followed by zeros up to whole
# blocks, so that a list is made from whole blocks
X = 0
# the features' room: all of them, and the candidate part read as whole blocks from its start
XB = _blocks(max(N_FEATURES, STATE_SIZE + _blocks(CANDIDATE_SIZE)))  # the pass's part
HS = XB + _blocks(CANDIDATE_SIZE)  # the pass's first-layer sum, b1 included
H1B = HS + MAX_HIDDEN  # a candidate's first hidden layer
H2B = H1B + MAX_HIDDEN  # its second
IDX = H2B + MAX_HIDDEN  # the non-zero features, or the live hidden units
LEARN_FLOATS = IDX + _blocks(N_FEATURES)


def offsets(h1: int, h2: int) -> tuple[int, int, int, int, int, int]:
    """``(b1, w2, b2, w3, b3, size)``: where each part starts in a model's flat row of hidden
    sizes ``h1``, ``h2``, and the floats it takes in all."""
    b1 = W1 + N_FEATURES * h1
    w2 = b1 + h1
    b2 = w2 + h1 * h2
    w3 = b2 + h2
    b3 = w3 + h2
    return b1, w2, b2, w3, b3, b3 + 1


def model_size(model: np.ndarray) -> int:
    """The floats a model's flat row takes (its header read)."""
    return offsets(int(model[0]), int(model[1]))[-1]


@njit(cache=True, inline="always")
def _sizes(model):
    h1 = np.int64(model[0])
    h2 = np.int64(model[1])
    b1 = W1 + N_FEATURES * h1
    w2 = b1 + h1
    b2 = w2 + h1 * h2
    w3 = b2 + h2
    return h1, h2, b1, w2, b2, w3, w3 + h2


@njit(cache=True, inline="always")
def _append_bits(mask, at, idx, n):
    """Append ``at + i`` for each set bit ``i`` of ``mask``, lowest first, to ``idx[:n]``;
    the new length."""
    while mask != ZERO:
        idx[n] = at + lowest_bit_index(mask)
        n += 1
        mask &= mask - ONE
    return n


@njit(cache=True, inline="always")
def _non_zero(x, idx):
    """The indexes of ``x``'s non-zero entries (``x`` whole blocks long), in order, into
    ``idx``; their count."""
    n = 0
    for at in range(0, x.size, BLOCK):
        block = x[at : at + BLOCK]
        mask = ZERO
        for i in range(BLOCK):
            mask |= U64(block[i] != 0.0) << U64(i)
        n = _append_bits(mask, at, idx, n)
    return n


@njit(cache=True, inline="always")
def _differing(x, base, idx):
    """The indexes where ``x`` and ``base`` (whole blocks long, as long) differ, in order,
    into ``idx``; their count."""
    n = 0
    for at in range(0, x.size, BLOCK):
        block = x[at : at + BLOCK]
        other = base[at : at + BLOCK]
        mask = ZERO
        for i in range(BLOCK):
            mask |= U64(block[i] != other[i]) << U64(i)
        n = _append_bits(mask, at, idx, n)
    return n


@njit(cache=True, inline="always")
def _positive(x, n_units, idx):
    """The indexes of ``x[:n_units]``'s positive entries, in order, into ``idx``; their
    count."""
    n = 0
    for at in range(0, n_units, BLOCK):
        block = x[at : at + min(BLOCK, n_units - at)]
        mask = ZERO
        for i in range(block.size):
            mask |= U64(block[i] > 0.0) << U64(i)
        n = _append_bits(mask, at, idx, n)
    return n


@njit(cache=True)
def state_term(model, learn, pub, me, decision):
    """The first layer's sum, b1 included, of the pass (or no bomb) at seat ``me``'s
    ``decision``, into ``learn[HS:HS + H1]``: the state part, the same for every candidate,
    and the pass's candidate part (the hand it keeps), which every candidate's differs from
    in a few features only (its cards, its combination, the hand it leaves); that part is
    kept at ``learn[XB:]``."""
    encode_state(pub, me, decision, learn)
    encode_candidate(pub, me, ZERO, 0, learn)
    for k in range(X + N_FEATURES, XB):  # the blocks' zeros (a scratch may come dirty)
        learn[k] = 0.0
    for k in range(XB + CANDIDATE_SIZE, HS):
        learn[k] = 0.0
    h1, _, b1, _, _, _, _ = _sizes(model)
    # the non-zero features listed first, then their rows summed
    idx = learn[IDX : IDX + N_FEATURES].view(np.int32)
    n = _non_zero(learn[X:XB], idx)
    acc = learn[HS : HS + h1]
    for j in range(h1):  # a loop: a slice assignment may copy its source first
        acc[j] = model[b1 + j]
    for i in range(n):
        k = idx[i]
        v = learn[X + k]
        at = W1 + k * h1
        row = model[at : at + h1]  # a slice: the compiler vectorises the sum
        for j in range(h1):
            acc[j] += v * row[j]
    for k in range(CANDIDATE_SIZE):
        learn[XB + k] = learn[X + STATE_SIZE + k]


@njit(cache=True)
def candidate_score(model, learn, pub, me, mask, code):
    """The model's score of the candidate (``mask``, ``code``; 0, 0 for a pass or no bomb)
    after ``state_term`` of the same decision: the pass's first layer plus the rows of the
    features where the candidate's part differs from the pass's."""
    encode_candidate(pub, me, mask, code, learn)
    h1 = np.int64(model[0])
    idx = learn[IDX : IDX + N_FEATURES].view(np.int32)
    part = X + STATE_SIZE
    n = _differing(learn[part : part + HS - XB], learn[XB:HS], idx)
    hidden1 = learn[H1B : H1B + h1]
    for j in range(h1):
        hidden1[j] = learn[HS + j]
    for i in range(n):
        k = STATE_SIZE + idx[i]
        d = learn[X + k] - learn[XB + k - STATE_SIZE]
        at = W1 + k * h1
        row = model[at : at + h1]
        for j in range(h1):
            hidden1[j] += d * row[j]
    return _output(model, learn)


@njit(cache=True)
def pass_score(model, learn):
    """The model's score of the pass (or no bomb) after ``state_term``: its first layer is
    the decision's sum itself."""
    h1 = np.int64(model[0])
    for j in range(h1):
        learn[H1B + j] = learn[HS + j]
    return _output(model, learn)


@njit(cache=True, inline="always")
def _output(model, learn):
    """The score from the first layer's sum at ``learn[H1B:]``: relu, the second layer, relu,
    the output."""
    h1, h2, _, w2, b2, w3, b3 = _sizes(model)
    hidden1 = learn[H1B : H1B + h1]
    idx = learn[IDX : IDX + N_FEATURES].view(np.int32)
    # the units relu leaves alive listed, then their rows of w2
    n = _positive(hidden1, h1, idx)
    hidden2 = learn[H2B : H2B + h2]
    for j in range(h2):
        hidden2[j] = model[b2 + j]
    for u in range(n):
        i = idx[u]
        a = hidden1[i]
        at = w2 + i * h2
        row = model[at : at + h2]
        for j in range(h2):
            hidden2[j] += a * row[j]
    q = model[b3]
    for j in range(h2):
        q += max(hidden2[j], np.float32(0.0)) * model[w3 + j]
    return q


@njit(cache=True)
def choose(model, learn, pub, me, decision, masks, codes, n, with_none):
    """The answer the model scores highest at ``decision`` (``D_PLAY`` or ``D_BOMB``) among
    ``masks[:n]``/``codes[:n]`` and, when ``with_none``, the pass or no bomb: an index, -1
    for the pass or no bomb. Ties go to the first in that order; with one answer possible the
    model is not asked."""
    if n + with_none <= 1:
        return 0 if n == 1 else -1
    state_term(model, learn, pub, me, decision)
    best = 0
    best_q = candidate_score(model, learn, pub, me, masks[0], codes[0])
    for i in range(1, n):
        q = candidate_score(model, learn, pub, me, masks[i], codes[i])
        if q > best_q:
            best_q = q
            best = i
    if with_none and pass_score(model, learn) > best_q:
        best = -1
    return best


@njit(cache=True)
def scores(models, learn, pub, privs, decision, masks, codes, n, with_none, out):
    """Every candidate's score, as ``choose`` weighs them, into ``out`` (the plays, then the
    pass or no bomb): ``models[0]`` the model, ``pub`` and ``privs[0]`` one-record arrays of
    the table's ``PUBLIC`` and the seat's ``PRIVATE`` records (tests and tools)."""
    model = models[0]
    p = pub[0]
    me = privs[0]
    state_term(model, learn, p, me, decision)
    for i in range(n):
        out[i] = candidate_score(model, learn, p, me, masks[i], codes[i])
    if with_none:
        out[n] = pass_score(model, learn)


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
    "candidate_score",
    "choice",
    "choose",
    "mark_row",
    "model_size",
    "offsets",
    "on_lines",
    "pass_score",
    "record",
    "register",
    "registered",
    "row_identity",
    "scores",
    "state_term",
]
