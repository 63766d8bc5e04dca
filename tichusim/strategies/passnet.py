"""The learned passing's weights file: read, checked, named by its identity, packed for the kernel.

A pass network's file (format 1) is an ``.npz`` written by ``np.savez`` and read without
pickles:

* ``w1`` ``float32`` (F, H1), ``b1`` (H1,), ``w2`` (H1, H2), ``b2`` (H2,), ``w3`` (H2,),
  ``b3`` (1,): the network of ``kernels/tichu/passnet.py``, F its table's features
  (``passnet.N_FEATURES``; Wu Wang's ``passnet.N_FEATURES_WUWANG``);
* ``decision``: a 0-d text array, ``"pass"`` (a play network's file has none, or another);
* ``variant``: a 0-d text array, the table it was trained at (``"nanjing"`` or ``"wuwang"``);
* ``layout``: a 0-d text array, the table's layout (``layout_for``: ``LAYOUT``, Wu Wang's
  ``LAYOUT_WUWANG``; the features it reads); ``format``: 0-d, 1;
* ``meta`` (optional): a 0-d text array holding JSON (the training's settings and figures).

Its **identity** is the first 16 hex digits of the sha256 over ``"pass"``, the format, the
layout and the variant (their text), then each array in the order above: its shape (the text
of the tuple) and its bytes (little-endian ``float32``). It goes into a strategy's table
(``pass_weights_id``), its row (``slots.P_PASS_WEIGHTS``) and a run's hash, as the play
network's does. ``load`` reads a file once per process, checks it and registers its flat
model under the identity (``kernels/tichu/learned.register``, the registry the table's models
are made from); every problem is one ``WeightsError`` line naming the file.
``SHIPPED`` is the package's own pass network, the 4-player game's; ``shipped`` names each
table's (``weights/learned-pass-<variant>.npz`` beside it: Wu Wang's).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..kernels.tichu import learned as kernel_learned
from ..kernels.tichu import passnet as kernel
from .learned import WeightsError, _arrays_and_meta, _read, _text, file_key

__all__ = [
    "ARRAYS",
    "FORMAT",
    "LAYOUT",
    "LAYOUT_WUWANG",
    "SHIPPED",
    "PassWeights",
    "identity",
    "layout_for",
    "load",
    "read",
    "screen_bound",
    "shipped",
]

FORMAT = 1
ARRAYS = ("w1", "b1", "w2", "b2", "w3", "b3")
DECISION = "pass"
# the features the network reads (kernels/tichu/passnet.py): change it when they change
LAYOUT = f"pass-v1-{kernel.N_FEATURES}-top{kernel.TOP}-low{kernel.LOW}"
LAYOUT_WUWANG = f"pass-wuwang-v1-{kernel.N_FEATURES_WUWANG}-top{kernel.WW_TOP}-low{kernel.WW_LOW}"
SHIPPED = Path(__file__).parent / "weights" / "learned-pass.npz"  # the 4-player game's


def layout_for(variant: str) -> str:
    """The features a pass network of the table ``variant`` reads (``LAYOUT`` but at Wu
    Wang)."""
    return LAYOUT_WUWANG if variant == "wuwang" else LAYOUT


def _shape(layout: str) -> tuple[int, float]:
    """The features' count and the kernel's model kind of ``layout``."""
    if layout == LAYOUT_WUWANG:
        return kernel.N_FEATURES_WUWANG, kernel.KIND_WUWANG
    return kernel.N_FEATURES, kernel.KIND


def shipped(variant: str | None) -> Path | None:
    """The package's pass network of the table ``variant`` (``None``: the 4-player game's),
    or ``None`` when it has none."""
    if variant is None or variant == "nanjing":
        return SHIPPED
    own = SHIPPED.with_name(f"learned-pass-{variant}.npz")
    return own if own.is_file() else None


@dataclass(frozen=True)
class PassWeights:
    """A checked pass network: its ``identity``, the table it was trained at, its ``meta``
    and the kernel's flat row (``model``)."""

    path: str
    identity: str
    variant: str
    meta: dict
    model: np.ndarray


def identity(arrays: dict, variant: str, layout: str = LAYOUT, format: int = FORMAT) -> str:
    """The identity of the pass network ``arrays`` (the module docstring)."""
    digest = hashlib.sha256()
    for text in (DECISION, str(int(format)), layout, variant):
        digest.update(text.encode())
    for name in ARRAYS:
        a = np.ascontiguousarray(arrays[name], "<f4")
        digest.update(repr(tuple(int(n) for n in a.shape)).encode())
        digest.update(a.tobytes())
    return digest.hexdigest()[:16]


def pack(arrays: dict, layout: str = LAYOUT) -> np.ndarray:
    """The kernel's flat row of checked ``arrays`` of ``layout``: the 4-player network's
    (``kernels/tichu/passnet.offsets``) with the hidden layers padded to whole blocks of units
    with zero weights (``passnet.padded``) and its ``float64`` part made from the ``float32``
    weights; Wu Wang's the plain row (``passnet.offsets_for``)."""
    if layout == LAYOUT_WUWANG:
        return _pack_plain(arrays, layout)
    n1, n2 = arrays["w1"].shape[1], arrays["w2"].shape[1]
    h1, h2 = kernel.padded(n1), kernel.padded(n2)
    w1, b1, w2, b2, w3, b3, wide, size = kernel.offsets(h1, h2)
    out = np.zeros(size, np.float32)
    out[0], out[1], out[2], out[3] = h1, h2, kernel.N_FEATURES, kernel.KIND
    out[w1:b1].reshape(kernel.N_FEATURES, h1)[:, :n1] = arrays["w1"]
    out[b1 : b1 + n1] = arrays["b1"]
    out[w2:b2].reshape(h1, h2)[:n1, :n2] = arrays["w2"]
    out[b2 : b2 + n2] = arrays["b2"]
    out[w3 : w3 + n2] = arrays["w3"]
    out[b3] = arrays["b3"][0]
    wide_part = out[wide:size].view(np.float64)
    wide_part[: h1 * h2] = out[w2:b2]
    rows = wide_part[h1 * h2 :].reshape(kernel.WIDE_ROWS, h1)
    w1_rows = out[w1:b1].reshape(kernel.N_FEATURES, h1)
    for v in range(kernel.N_VALUES):  # float32 products, as the plain forward pass makes them
        for k in range(1, kernel.COUNTS_MAX + 1):
            value = np.float32(0.25 * k if 2 <= v <= 14 else k)
            rows[v * kernel.COUNTS_MAX + k - 1] = value * w1_rows[kernel.N_VALUES + v]
    rows[kernel.COUNTS_MAX * kernel.N_VALUES :] = w1_rows[kernel.GIVEN :]
    out[kernel.SCREEN] = screen_bound(arrays, h1, h2)
    return out


def _gamma(n: int, unit: float) -> float:
    """Higham's ``gamma_n``: a sum of ``n`` products, each rounded, in any order, is within
    ``gamma_n`` times the sum of their magnitudes of the exact sum (``unit`` the rounding's
    unit: ``2**-24`` in ``float32``, ``2**-53`` in ``float64``)."""
    return n * unit / (1.0 - n * unit)


def screen_bound(arrays: dict, h1: int, h2: int) -> np.float32:
    """A bound, for every input, on how far the 4-player kernel's screen (``passnet.choose``:
    the second layer and the output in ``float32``) is from its exact value (``float64``
    sums, ``passnet.values``), doubled and rounded up to a ``float32``. Every feature is in
    [0, 1] (counts a quarter per ranked card, at most four), so a first hidden unit is at
    most ``A_j = |b1_j| + sum_i |w1_ij|``; a second, in either precision, at most ``M_k =
    |b2_k| + sum_j A_j |w2_jk|``. Its screen is off by at most ``D_k = (u32 + (1 + u32)
    gamma32 + gamma64) M_k`` (the first layer rounded to ``float32``, then both sums' own
    rounding, ``h1 + 1`` terms); relu moves no value further apart; and the output by ``sum_k
    |w3_k| D_k`` plus both sums' rounding over ``h2 + 1`` terms of at most ``|b3|`` and
    ``|w3_k| (M_k + D_k)``. ``h1``, ``h2``: the padded sizes (units of zero weights add
    nothing, the bound counts their terms)."""
    w1 = np.abs(np.asarray(arrays["w1"], np.float64))
    b1 = np.abs(np.asarray(arrays["b1"], np.float64))
    w2 = np.abs(np.asarray(arrays["w2"], np.float64))
    b2 = np.abs(np.asarray(arrays["b2"], np.float64))
    w3 = np.abs(np.asarray(arrays["w3"], np.float64))
    b3 = abs(float(arrays["b3"][0]))
    u32, u64 = 2.0**-24, 2.0**-53
    grow = 1.0 + 1e-6  # the first layer's own rounding (products in float32, sums in float64)
    first = (b1 + w1.sum(axis=0)) * grow
    second = b2 + first @ w2
    off = (u32 + (1.0 + u32) * _gamma(h1 + 1, u32) + _gamma(h1 + 1, u64)) * second
    terms = b3 + float(w3 @ (second + off))
    bound = float(w3 @ off) + (_gamma(h2 + 1, u32) + _gamma(h2 + 1, u64)) * terms
    bound = 2.0 * bound + 1e-30
    return np.nextafter(np.float32(bound), np.float32(np.inf))


def _pack_plain(arrays: dict, layout: str) -> np.ndarray:
    """The plain flat row of ``arrays`` of ``layout`` (``passnet.offsets_for``)."""
    n_features, kind = _shape(layout)
    h1, h2 = arrays["w1"].shape[1], arrays["w2"].shape[1]
    w1, b1, w2, b2, w3, b3, size = kernel.offsets_for(h1, h2, n_features)
    out = np.zeros(size, np.float32)
    out[0], out[1], out[2], out[3] = h1, h2, n_features, kind
    out[w1:b1] = arrays["w1"].reshape(-1)
    out[b1:w2] = arrays["b1"]
    out[w2:b2] = arrays["w2"].reshape(-1)
    out[b2:w3] = arrays["b2"]
    out[w3:b3] = arrays["w3"]
    out[b3] = arrays["b3"][0]
    return out


def _check(data: dict, path: Path) -> tuple[dict, str, dict]:
    """The arrays, the variant and ``meta`` of a file's ``data``, checked."""
    if "decision" not in data:
        raise WeightsError(
            f"weights file {path}: a play network (it names no decision), not a pass network"
        )
    decision = _text(data, "decision", path)
    if decision != DECISION:
        raise WeightsError(f"weights file {path}: a {decision} network, not a pass network")
    missing = [n for n in (*ARRAYS, "variant", "layout", "format") if n not in data]
    if missing:
        raise WeightsError(f"weights file {path}: missing {', '.join(missing)}")
    fmt = data["format"]
    if fmt.shape != () or fmt.dtype.kind not in "iu" or int(fmt) != FORMAT:
        raise WeightsError(f"weights file {path}: format must be the 0-d integer {FORMAT}")
    layout = _text(data, "layout", path)
    variant = _text(data, "variant", path)
    if layout != layout_for(variant):
        raise WeightsError(
            f"weights file {path}: made for the pass features {layout}, not this version's "
            f"{layout_for(variant)} of {variant}: train it again"
        )
    for name in ARRAYS:
        if data[name].dtype != np.float32:
            raise WeightsError(f"weights file {path}: {name} is {data[name].dtype}, not float32")
    w1, w2 = data["w1"], data["w2"]
    if w1.ndim != 2 or w2.ndim != 2:
        raise WeightsError(f"weights file {path}: w1 and w2 must be 2-d")
    h1, h2 = w1.shape[1], w2.shape[1]
    want = {
        "w1": (_shape(layout)[0], h1),
        "b1": (h1,),
        "w2": (h1, h2),
        "b2": (h2,),
        "w3": (h2,),
        "b3": (1,),
    }
    for name, shape in want.items():
        if data[name].shape != shape:
            raise WeightsError(
                f"weights file {path}: {name} has shape {data[name].shape}, expected {shape}"
            )
    if not 1 <= h1 <= kernel.MAX_HIDDEN or not 1 <= h2 <= kernel.MAX_HIDDEN:
        raise WeightsError(
            f"weights file {path}: hidden sizes {h1}, {h2}; each 1 to {kernel.MAX_HIDDEN}"
        )
    arrays, meta = _arrays_and_meta(data, path, ARRAYS)
    return arrays, variant, meta


def read(path: str | Path) -> tuple[dict, str, dict]:
    """The arrays, the table and ``meta`` of the pass network's file at ``path``, checked;
    ``WeightsError`` (one line) otherwise."""
    path = Path(path)
    return _check(_read(path), path)


_CACHE: dict[tuple[str, int, int, int], PassWeights] = {}


def load(path: str | Path, variant: str | None = "nanjing") -> PassWeights:
    """The checked pass network of the file at ``path`` for the table ``variant`` (``None``:
    whichever it names), read once per process (again when the file changes), its model
    registered with the kernels. A file of another decision or another table is refused: one
    ``WeightsError`` line."""
    path = Path(path)
    key = file_key(path)
    found = _CACHE.get(key)
    if found is None:
        arrays, trained_at, meta = read(path)
        layout = layout_for(trained_at)
        name = identity(arrays, trained_at, layout)
        found = PassWeights(str(path), name, trained_at, meta, pack(arrays, layout))
        _CACHE[key] = found
    if variant is not None and found.variant != variant:
        raise WeightsError(
            f"weights file {path}: a pass network of {found.variant}, not of {variant}"
        )
    kernel_learned.register(found.identity, found.model)
    return found


def export(arrays: dict, path: str | Path, variant: str, meta: dict) -> Path:
    """Write the pass network ``arrays`` (``float32``) at ``path`` (format 1), whole or not
    at all."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {name: np.ascontiguousarray(arrays[name], np.float32) for name in ARRAYS} | {
        "decision": np.array(DECISION),
        "variant": np.array(variant),
        "layout": np.array(layout_for(variant)),
        "format": np.array(FORMAT, np.int64),
        "meta": np.array(json.dumps(meta, sort_keys=True)),
    }
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez(f, **payload)
    os.replace(tmp, path)
    return path
