"""The learned play's first layer in integers (``tichusim/kernels/tichu/learned.py``): the
features it sums are 0 or 1, its integer weights are within half a step of the trained ones
and no sum of them can overflow, and what a seat keeps between decisions (its last pass's
bits and their sum) changes no bit of any score, whatever decisions, seats, rounds or models
came before in the scratch."""

import numpy as np
import pytest
from support.kernel_entries import view_state_bits
from support.learned_weights import random_arrays

import tichusim
from tichusim import Round
from tichusim.games.encoding import encode
from tichusim.games.steps import CODES
from tichusim.kernels.tichu import encoding, learned
from tichusim.strategies.learned import pack


def _decisions(variant: str, seed: int, keys: range):
    """The play and bomb decisions with two answers or more of rounds played at random from
    Python, in the order they come: (view, legal)."""
    pick = tichusim.strategy("random")
    for key in keys:
        r = Round(seed=seed, key=key, strategies=None, variant=variant)
        r.advance()
        while not r.done:
            view, legal = r.view(), r.legal()
            if view.decision in ("play", "bomb") and len(legal) > 1:
                yield view, legal
            r.act(pick.decide(view, legal))
            r.advance()


def _scores(model, scratch, view, legal):
    plays = [p for p in legal if p is not None]
    masks = np.array([int(p) for p in plays], np.uint64)
    codes = np.array([p.combo.code for p in plays], np.int64)
    out = np.zeros(len(legal), np.float32)
    args = (view.public, view.private, CODES[view.decision], masks, codes)
    learned.scores(model, scratch, *args, len(plays), int(legal[-1] is None), out)
    return out


def test_every_feature_but_the_scaled_ones_is_zero_or_one():
    scaled = np.zeros(encoding.N_FEATURES, bool)
    scaled[encoding.SCALED_FEATURES] = True
    assert scaled.sum() == sum(w for n, w in encoding.SLOTS if n in encoding.SCALED_SLOTS)
    seen_scaled = set()
    for variant, seed in (("nanjing", 1), ("tientsin", 2), ("wuwang", 3)):
        for view, legal in _decisions(variant, seed, range(2)):
            x = encode(view.public, view.private, CODES[view.decision], legal)
            assert np.isin(x[:, ~scaled], (0.0, 1.0)).all()
            seen_scaled |= set(np.flatnonzero((x[:, scaled] % 1 != 0).any(axis=0)))
    assert seen_scaled  # the scaled entries do take other values


def test_the_kernels_bit_masks_are_the_zero_or_one_features():
    for words, lo, hi in (
        (learned.STATE_BINARY, 0, encoding.STATE_SIZE),
        (learned.CAND_BINARY, encoding.STATE_SIZE, encoding.N_FEATURES),
    ):
        bits = np.unpackbits(words.view(np.uint8), bitorder="little")[: hi - lo + 64]
        want = np.ones(hi - lo, bool)
        scaled = encoding.SCALED_FEATURES
        want[scaled[(scaled >= lo) & (scaled < hi)] - lo] = False
        assert np.array_equal(bits[: hi - lo].astype(bool), want)
        assert not bits[hi - lo :].any()  # nothing past the part


def test_the_state_bits_are_the_encoded_state():
    """``learned.state_bits``, made straight from the records, sets exactly the 0/1 features
    ``encode_state`` makes non-zero (nothing past the state) and gives its scaled features
    the same bits, at every decision of rounds of each variant."""
    state = encoding.STATE_SIZE
    n_scaled = learned.N_SCALED_STATE
    scaled_at = encoding.SCALED_FEATURES[:n_scaled]
    binary = np.ones(state, bool)
    binary[scaled_at] = False
    seen = np.zeros(state, bool)
    for variant, seed in (("nanjing", 1), ("tientsin", 2), ("wuwang", 3)):
        for view, _ in _decisions(variant, seed, range(2)):
            code = CODES[view.decision]
            x = encode(view.public, view.private, code, [None])[0, :state]
            words = np.full(learned.STATE_WORDS + 1, 0xFF, np.uint64)  # not zeroed first
            scaled = np.full(n_scaled, np.nan, np.float32)
            view_state_bits(view.public, view.private, code, words, scaled)
            bits = np.unpackbits(words.view(np.uint8), bitorder="little").astype(bool)
            assert np.array_equal(bits[:state], (x != 0) & binary)
            assert not bits[state:].any()
            assert scaled.tobytes() == x[scaled_at].tobytes()
            seen |= bits[:state]
    assert seen.sum() > 600  # most features were set somewhere


@pytest.mark.parametrize("scale", [0.3, 3.0, 1e-6])
def test_the_integer_weights_are_within_half_a_step_and_cannot_overflow(scale):
    w1 = random_arrays(24, 8, seed=5, scale=scale)["w1"]
    w1[100, 3] = 40 * scale  # one large weight
    shift, q = learned.quantise(w1)
    binary = np.ones(encoding.N_FEATURES, bool)
    binary[encoding.SCALED_FEATURES] = False
    assert q.dtype == np.int32 and q.shape == w1.shape
    assert (q[~binary] == 0).all()
    error = np.abs(q[binary].astype(np.float64) * 2.0**-shift - w1[binary])
    assert error.max() <= 2.0 ** -(shift + 1)
    sums = np.abs(q[binary].astype(np.int64)).sum(axis=0)
    assert sums.max() <= 2**31 - 1
    # the shift is the largest whose sums keep room for every entry's rounding (or the finest)
    total = np.abs(w1[binary].astype(np.float64)).sum(axis=0).max()
    room = 2**31 - 1 - encoding.N_FEATURES
    assert total * 2.0**shift <= room
    assert shift == learned.MAX_SHIFT or total * 2.0 ** (shift + 1) > room


def test_what_a_seat_keeps_changes_no_bit_of_any_score():
    """One scratch carried through every decision of several rounds at two tables, the
    model switched between two networks now and then, scores the same bytes as a fresh
    scratch per decision: a kept sum updated by what changed is the sum made afresh."""
    models = [pack(random_arrays(h1, h2, seed=h1)) for h1, h2 in ((20, 10), (32, 16))]
    rows = np.zeros((2, max(m.size for m in models)), np.float32)
    for k, m in enumerate(models):
        rows[k, : m.size] = m
    carried = np.zeros(learned.LEARN_FLOATS, np.float32)
    decisions = list(_decisions("nanjing", 4, range(3))) + list(_decisions("tientsin", 6, range(1)))
    assert len(decisions) > 100
    for i, (view, legal) in enumerate(decisions):
        model = rows[(i // 7) % 2][None]
        kept = _scores(model, carried, view, legal)
        fresh = _scores(model, np.zeros(learned.LEARN_FLOATS, np.float32), view, legal)
        assert kept.tobytes() == fresh.tobytes()


def test_a_scratch_of_any_bytes_starts_the_seat_afresh():
    """A scratch of random bytes (fresh memory) holds no tag of the model: the seat starts
    from no feature, and the scores are those of a zeroed scratch."""
    model = pack(random_arrays(16, 8, seed=3))[None]
    rng = np.random.default_rng(1)
    for view, legal in _decisions("nanjing", 8, range(1)):
        dirty = rng.integers(0, 256, learned.LEARN_FLOATS * 4, np.uint8).view(np.float32)
        clean = np.zeros(learned.LEARN_FLOATS, np.float32)
        assert _scores(model, dirty, view, legal).tobytes() == (
            _scores(model, clean, view, legal).tobytes()
        )
