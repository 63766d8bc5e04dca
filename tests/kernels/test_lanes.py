"""The row sums kept in vector registers (``kernels/lanes.py``) give the bits their documented
order gives: integer sums exact, float sums in the chains the docstrings name."""

import numpy as np
import pytest

from tichusim.kernels.jit import njit
from tichusim.kernels.lanes import CHAINS, LANES, int_rows, relu_dot, scaled_rows


@njit(cache=False)
def _int_rows(out, start, w, adds, n_adds, subs, n_subs, width):
    int_rows(out, start, w, adds, n_adds, subs, n_subs, width)


@njit(cache=False)
def _scaled_rows(out, act, idx, n, w, base, width):
    scaled_rows(out, act, idx, n, w, base, width)


@njit(cache=False)
def _relu_dot(h, w, at, width):
    return relu_dot(h, w, at, width)


@pytest.mark.parametrize("width", [LANES, 2 * LANES, 4 * LANES])
@pytest.mark.parametrize("n_adds,n_subs", [(0, 0), (1, 0), (0, 3), (7, 5)])
def test_int_rows_add_and_take_away_the_listed_rows(width, n_adds, n_subs):
    rng = np.random.default_rng(width + 10 * n_adds + n_subs)
    w = rng.integers(-(2**24), 2**24, size=(40, width)).astype(np.int32)
    start = rng.integers(-(2**20), 2**20, size=width).astype(np.int32)
    adds = rng.integers(0, 40, size=8).astype(np.int32)
    subs = rng.integers(0, 40, size=8).astype(np.int32)
    want = start.astype(np.int64) + w[adds[:n_adds]].sum(0) - w[subs[:n_subs]].sum(0)
    out = np.full(width, 7, np.int32)
    _int_rows(out, start, w.reshape(-1), adds, n_adds, subs, n_subs, width)
    np.testing.assert_array_equal(out, want.astype(np.int32))
    _int_rows(start, start, w.reshape(-1), adds, n_adds, subs, n_subs, width)  # in place
    np.testing.assert_array_equal(start, out)


def _chained(out, act, idx, w, base, width):
    """``scaled_rows``' documented order, one float32 operation at a time."""
    rows = w[base : base + 64 * width].reshape(64, width)
    sums = [out.copy()] + [np.zeros(width, np.float32) for _ in range(CHAINS - 1)]
    for u, k in enumerate(idx):
        chain = sums[u % CHAINS]
        chain[:] = chain + (np.float32(act[k]) * rows[k]).astype(np.float32)
    return (sums[0] + sums[1]) + (sums[2] + sums[3])


@pytest.mark.parametrize("width", [LANES, 2 * LANES, 3 * LANES])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 11, 33])
def test_scaled_rows_sums_in_its_chains(width, n):
    rng = np.random.default_rng(100 * width + n)
    base = 5
    w = rng.normal(size=base + 64 * width).astype(np.float32)
    act = rng.normal(size=64).astype(np.float32)
    idx = rng.choice(64, size=n, replace=False).astype(np.int32)
    out = rng.normal(size=width).astype(np.float32)
    want = _chained(out, act, idx, w, base, width)
    _scaled_rows(out, act, idx, n, w, base, width)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("width", [LANES, 2 * LANES, 5 * LANES])
def test_relu_dot_sums_lanes_then_halves(width):
    rng = np.random.default_rng(width)
    h = rng.normal(size=width).astype(np.float32)
    w = rng.normal(size=3 + width).astype(np.float32)
    lanes = np.zeros(LANES, np.float32)
    for b in range(width // LANES):
        x = np.maximum(h[b * LANES : (b + 1) * LANES], np.float32(0))
        lanes = lanes + x * w[3 + b * LANES : 3 + (b + 1) * LANES]
    while lanes.size > 1:
        lanes = lanes[: lanes.size // 2] + lanes[lanes.size // 2 :]
    got = _relu_dot(h, w, 3, width)
    assert np.float32(got) == lanes[0]
    reference = float(np.maximum(h, 0).astype(np.float64) @ w[3:].astype(np.float64))
    assert abs(got - reference) < 1e-4 * (1 + abs(reference))
