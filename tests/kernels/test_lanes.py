"""The row sums kept in vector registers (``kernels/lanes.py``) give the bits their documented
order gives: integer sums exact, float sums in index order, the output's in lanes then
halves, the ``float64`` sums of ``float32`` rows with the loop's own products; at every
width, those whose blocks are summed together and the wider ones."""

import numpy as np
import pytest

from tichusim.kernels.jit import njit
from tichusim.kernels.lanes import (
    CHUNK,
    FUSED,
    LANES,
    add_row,
    first_layer,
    int_first_layer,
    int_rows,
    live_rows,
    live_rows2,
    relu_dot,
    sum_rows,
    wide_live_rows,
    wide_rows,
)


@njit(cache=False)
def _int_rows(out, start, w, adds, n_adds, subs, n_subs, width):
    int_rows(out, start, w, adds, n_adds, subs, n_subs, width)


@njit(cache=False)
def _live_rows(out, start, at, h, n_units, w, base, width):
    live_rows(out, start, at, h, n_units, w, base, width)


@njit(cache=False)
def _live_rows2(out_a, out_b, start, at, h_a, h_b, n_units, w, base, width):
    live_rows2(out_a, out_b, start, at, h_a, h_b, n_units, w, base, width)


@njit(cache=False)
def _int_first_layer(out, start, w, adds, na, subs, ns, scale, base, wf, at_a, a, at_b, b, width):
    int_first_layer(out, start, w, adds, na, subs, ns, scale, base, wf, at_a, a, at_b, b, width)


@njit(cache=False)
def _first_layer(out, acc, scale, base, w, at_a, a, at_b, b, width):
    first_layer(out, acc, scale, base, w, at_a, a, at_b, b, width)


@njit(cache=False)
def _add_row(out, a, w, at, width):
    add_row(out, a, w, at, width)


@njit(cache=False)
def _relu_dot(h, w, at, width):
    return relu_dot(h, w, at, width)


@njit(cache=False)
def _wide_rows(out, start, at, w, rows, scales, n, width):
    wide_rows(out, start, at, w, rows, scales, n, width)


@njit(cache=False)
def _wide_live_rows(out, start, at, h, n_units, w, base, width):
    wide_live_rows(out, start, at, h, n_units, w, base, width)


@njit(cache=False)
def _sum_rows(out, start, w, rows, n, width):
    sum_rows(out, start, w, rows, n, width)


@pytest.mark.parametrize("width", [LANES * b for b in range(1, FUSED + 3)])
@pytest.mark.parametrize("n", [0, 1, 18])
def test_sum_rows_adds_the_listed_rows_in_order(width, n):
    """Rows of every magnitude, so the order shows in the bits."""
    rng = np.random.default_rng(width + n)
    w = rng.normal(size=30 * width + 7) * 10.0 ** rng.integers(-9, 9, 30 * width + 7)
    rows = rng.integers(0, 29 * width, size=20).astype(np.int64)
    start = rng.normal(size=width)
    want = start.copy()
    for r in rows[:n]:
        want = want + w[r : r + width]
    got = np.full(width, np.nan)
    _sum_rows(got, start, w, rows, n, width)
    np.testing.assert_array_equal(got, want)
    _sum_rows(start, start, w, rows, n, width)  # in place
    np.testing.assert_array_equal(start, want)


@njit(cache=False)
def _loop_rows(out, w, rows, scales, n, width):
    """``wide_rows``'s loop as numba writes it: a ``float32`` product added in ``float64``."""
    for r in range(n):
        for j in range(width):
            out[j] += scales[r] * w[rows[r] + j]


@pytest.mark.parametrize("width", [LANES * b for b in range(1, FUSED + 3)])
@pytest.mark.parametrize("n", [0, 1, 18])
def test_wide_rows_add_float32_products_in_float64_in_order(width, n):
    """Scales that round in ``float32`` (0.75, random ones) and rows of every magnitude: the
    bits of the numba loop, started from a ``float32`` or a ``float64`` row."""
    rng = np.random.default_rng(width + n)
    w = (rng.normal(size=30 * width + 7) * 10.0 ** rng.integers(-6, 3, 30 * width + 7)).astype(
        np.float32
    )
    rows = rng.integers(0, 29 * width, size=20).astype(np.int64)
    scales = rng.normal(size=20).astype(np.float32)
    scales[:4] = [0.25, 0.75, 1.0, 0.5]
    start32 = rng.normal(size=width + 3).astype(np.float32)
    want = start32[3:].astype(np.float64)
    _loop_rows(want, w, rows, scales, n, width)
    got = np.full(width, np.nan)
    _wide_rows(got, start32, 3, w, rows, scales, n, width)
    np.testing.assert_array_equal(got, want)
    _loop_rows(want, w, rows, scales, n, width)
    _wide_rows(got, got, 0, w, rows, scales, n, width)  # in place, from a float64 row
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("width", [LANES * b for b in range(1, FUSED + 3)])
@pytest.mark.parametrize("n_units", [LANES, 3 * LANES, CHUNK, CHUNK + 2 * LANES])
@pytest.mark.parametrize("live", [0.0, 0.3, 1.0])
def test_wide_live_rows_add_the_live_units_rows_in_order(width, n_units, live):
    """``live_rows`` in ``float64``: whole and partial chunks of units, none to all live, the
    bits of the loop over the live units in order (a ``float64`` unit times a widened
    weight)."""
    rng = np.random.default_rng(width + n_units + int(10 * live))
    base = 5
    w = rng.normal(size=base + n_units * width).astype(np.float32)
    h = np.abs(rng.normal(size=n_units))
    h[rng.random(n_units) >= live] *= -1
    h[:2] = [0.0, -0.0]
    start = rng.normal(size=width + 3).astype(np.float32)
    rows = w[base:].reshape(n_units, width).astype(np.float64)
    want = start[3:].astype(np.float64)
    for k in np.flatnonzero(h > 0):
        want = want + h[k] * rows[k]
    out = np.full(width, np.nan)
    _wide_live_rows(out, start, 3, h, n_units, w, base, width)
    np.testing.assert_array_equal(out, want)
    again = start[3:].astype(np.float64)
    _wide_live_rows(again, again, 0, h, n_units, w, base, width)  # in place, float64 start
    np.testing.assert_array_equal(again, want)
    out[:] = np.nan  # the weights widened beforehand: the same bits
    _wide_live_rows(out, start, 3, h, n_units, w.astype(np.float64), base, width)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("width", [LANES * b for b in range(1, FUSED + 3)])
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


@pytest.mark.parametrize("width", [LANES * b for b in range(1, FUSED + 3)])
@pytest.mark.parametrize("n_units", [LANES, 4 * LANES, 6 * LANES])
@pytest.mark.parametrize("live", [0.0, 0.3, 1.0])
def test_live_rows_add_the_live_units_rows_in_order(width, n_units, live):
    """Every width (the fused ones and the block-at-a-time one), none to all units live:
    the bits of the loop over the units in order, ``h > 0`` (a zero or a negative zero
    adds nothing)."""
    rng = np.random.default_rng(width + n_units + int(10 * live))
    base = 5
    w = rng.normal(size=base + n_units * width).astype(np.float32)
    h = np.abs(rng.normal(size=n_units)).astype(np.float32)
    h[rng.random(n_units) >= live] *= -1
    h[:2] = [0.0, -0.0]
    out = rng.normal(size=width).astype(np.float32)
    rows = w[base:].reshape(n_units, width)
    want = out.copy()
    for k in np.flatnonzero(h > 0):
        want = want + h[k] * rows[k]
    start = np.concatenate([np.zeros(3, np.float32), out])
    into = np.full(width, np.nan, np.float32)
    _live_rows(into, start, 3, h, n_units, w, base, width)  # started from another row
    np.testing.assert_array_equal(into, want)
    _live_rows(out, out, 0, h, n_units, w, base, width)  # in place
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("width", [LANES * b for b in range(1, FUSED + 3)])
@pytest.mark.parametrize("n_units", [LANES, 4 * LANES, 6 * LANES])
@pytest.mark.parametrize("live", [0.0, 0.3, 0.5, 1.0])
def test_live_rows2_gives_each_layer_the_bits_of_live_rows(width, n_units, live):
    """Two layers at once, every width (the fused ones and the block-at-a-time one), live
    units alike and apart: each sum is ``live_rows``' own, bit for bit (a unit alive in the
    other layer only adds a zero, whatever the sign of its weights)."""
    rng = np.random.default_rng(7 * width + n_units + int(10 * live))
    base = 5
    w = rng.normal(size=base + n_units * width).astype(np.float32)
    layers = []
    for _ in range(2):
        h = np.abs(rng.normal(size=n_units)).astype(np.float32)
        h[rng.random(n_units) >= live] *= -1
        layers.append(h)
    layers[0][:4] = [0.0, -0.0, 1.5, -2.0]
    layers[1][:4] = [2.0, 3.0, -0.0, 0.0]
    start = np.concatenate([np.zeros(3, np.float32), rng.normal(size=width).astype(np.float32)])
    start[3] = 0.0  # a sum that stays zero while only zeros are added to it
    want = []
    for h in layers:
        out = np.full(width, np.nan, np.float32)
        _live_rows(out, start, 3, h, n_units, w, base, width)
        want.append(out)
    got = [np.full(width, np.nan, np.float32) for _ in range(2)]
    _live_rows2(got[0], got[1], start, 3, layers[0], layers[1], n_units, w, base, width)
    for g, expect in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, expect)


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


@pytest.mark.parametrize("width", [LANES, 4 * LANES, 5 * LANES])
@pytest.mark.parametrize("a, b", [(0.0, 0.0), (0.5, 0.0), (0.0, -0.25), (0.5, -0.25)])
def test_first_layer_scales_the_sum_and_adds_the_rows_given(width, a, b):
    """The bits of the loop: the integer sum scaled plus the base, then each row whose
    weight is not 0, a multiply then an add, at every width."""
    rng = np.random.default_rng(width + int(8 * a) + int(8 * b))
    acc = rng.integers(-(2**30), 2**30, width).astype(np.int32)
    scale = np.float32(2.0**-22)
    base = rng.normal(size=width).astype(np.float32)
    w = rng.normal(size=7 + 2 * width).astype(np.float32)
    want = np.float32(acc.astype(np.float32) * scale) + base
    if a != 0.0:
        want = want + np.float32(a) * w[7 : 7 + width]
    if b != 0.0:
        want = want + np.float32(b) * w[7 + width : 7 + 2 * width]
    out = np.full(width, np.nan, np.float32)
    _first_layer(out, acc, scale, base, w, 7, np.float32(a), 7 + width, np.float32(b), width)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("width", [LANES * b for b in range(1, FUSED + 3)])
@pytest.mark.parametrize(("n_adds", "n_subs"), [(0, 0), (3, 0), (9, 5)])
@pytest.mark.parametrize(("a", "b"), [(0.0, 0.0), (0.5, -0.25)])
def test_int_first_layer_is_int_rows_then_first_layer(width, n_adds, n_subs, a, b):
    """The bits of ``int_rows`` into a row, then ``first_layer`` from it, at every width."""
    rng = np.random.default_rng(width + 3 * n_adds + n_subs + int(8 * a))
    n_rows = 20
    w = rng.integers(-(2**20), 2**20, n_rows * width).astype(np.int32)
    start = rng.integers(-(2**24), 2**24, width).astype(np.int32)
    adds = rng.integers(0, n_rows, n_adds + 4).astype(np.int32)
    subs = rng.integers(0, n_rows, n_subs + 4).astype(np.int32)
    scale = np.float32(2.0**-22)
    base = rng.normal(size=width).astype(np.float32)
    wf = rng.normal(size=7 + 2 * width).astype(np.float32)
    acc = np.zeros(width, np.int32)
    _int_rows(acc, start, w, adds, n_adds, subs, n_subs, width)
    want = np.full(width, np.nan, np.float32)
    fa, fb = np.float32(a), np.float32(b)
    _first_layer(want, acc, scale, base, wf, 7, fa, 7 + width, fb, width)
    got = np.full(width, np.nan, np.float32)
    args = (scale, base, wf, 7, fa, 7 + width, fb, width)
    _int_first_layer(got, start, w, adds, n_adds, subs, n_subs, *args)
    assert got.view(np.uint32).tolist() == want.view(np.uint32).tolist()
    assert np.isfinite(got).all()


@pytest.mark.parametrize("width", [LANES, 4 * LANES, 5 * LANES])
def test_add_row_adds_a_weighed_row(width):
    """The bits of ``out[j] += a * w[at + j]``, a multiply then an add, at every width; the
    entries past ``width`` untouched."""
    rng = np.random.default_rng(width)
    w = rng.normal(size=5 + width).astype(np.float32)
    out = rng.normal(size=width + 3).astype(np.float32)
    a = np.float32(0.37)
    want = out.copy()
    want[:width] = want[:width] + a * w[5:]
    _add_row(out, a, w, 5, width)
    np.testing.assert_array_equal(out, want)
