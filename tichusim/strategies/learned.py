"""The learned player's weights file: read, checked, named by its identity, packed for the kernels.

A weights file (format 1) is an ``.npz`` written by ``np.savez`` and read without pickles:

* ``w1`` ``float32`` (``N_FEATURES``, H1), ``b1`` (H1,), ``w2`` (H1, H2), ``b2`` (H2,), ``w3``
  (H2,), ``b3`` (1,): the network ``q = relu(relu(x @ w1 + b1) @ w2 + b2) @ w3 + b3`` on the
  features of ``kernels/tichu/encoding.py`` (``docs/encoding.md``);
* ``layout_hash``: a 0-d text array, the ``encoding.LAYOUT_HASH`` of the encoding it was
  trained on; ``format``: a 0-d integer array, 1;
* ``meta`` (optional): a 0-d text array holding JSON, free form (the training's settings).

Its **identity** (``identity``) is the first 16 hex digits of the sha256 over ``format`` and
``layout_hash`` (their text), then each of the six arrays in the order above: its shape (the
text of the tuple) and its bytes (little-endian ``float32``, C order). It names the weights
in a strategy's table, in a strategy row (``kernels/tichu/learned.py``) and in a run's hash,
so a run made with other weights is another run.

``load`` reads a file once per process (again when it is replaced or its size or modification
time changes), checks it and packs it into the kernels' flat layout (``kernels/tichu/learned.py``:
w1 turned into integers of one power-of-two scale, ``learned.quantise``; the file itself always
holds the trained ``float32`` weights), which it registers under the identity; every problem is
one ``WeightsError`` line naming the file.
``SHIPPED`` is the package's own file, which the ``learned`` strategy plays with at the
4-player table; ``shipped(variant)`` the one it plays with at another table: that table's own
network where the package has one.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..kernels.lanes import LANES
from ..kernels.tichu import learned as kernel
from ..kernels.tichu.encoding import LAYOUT_HASH, N_FEATURES, SCALED_FEATURES

__all__ = [
    "ARRAYS",
    "FORMAT",
    "SHIPPED",
    "OtherTableWarning",
    "Weights",
    "WeightsError",
    "identity",
    "load",
    "read",
    "shapes",
    "shipped",
]

FORMAT = 1
ARRAYS = ("w1", "b1", "w2", "b2", "w3", "b3")
SHIPPED = Path(__file__).parent / "weights" / "learned.npz"  # the 4-player game's


def shipped(variant: str | None) -> Path:
    """The package's weights file for the table ``variant``: its own network when the package
    has one (``weights/learned-<variant>.npz``, trained at that table), else ``SHIPPED``."""
    own = SHIPPED.with_name(f"learned-{variant}.npz")
    return own if variant is not None and own.is_file() else SHIPPED


class WeightsError(ValueError):
    """A weights file that cannot be played with: one line naming the file and the problem."""


class OtherTableWarning(UserWarning):
    """A network played at another table than the one it was trained at."""


@dataclass(frozen=True)
class Weights:
    """A checked weights file: its ``identity``, hidden sizes, ``meta`` (the JSON it holds, or
    an empty table) and the kernels' flat row (``model``)."""

    path: str
    identity: str
    h1: int
    h2: int
    meta: dict
    model: np.ndarray

    @property
    def variant(self) -> str | None:
        """The table the network was trained at, as its training's config (``tichusim
        learn``) says (its data's variant, Nanjing by default); ``None`` when the file does
        not say."""
        config = self.meta.get("config")
        if not isinstance(config, dict) or not isinstance(config.get("data"), dict):
            return None
        return str(config["data"].get("variant", "nanjing"))


def shapes(h1: int, h2: int) -> dict[str, tuple[int, ...]]:
    """The six arrays' shapes for hidden sizes ``h1``, ``h2``."""
    return {
        "w1": (N_FEATURES, h1),
        "b1": (h1,),
        "w2": (h1, h2),
        "b2": (h2,),
        "w3": (h2,),
        "b3": (1,),
    }


def identity(arrays: dict, layout_hash: str = LAYOUT_HASH, format: int = FORMAT) -> str:
    """The identity of the weights ``arrays`` (``ARRAYS`` by name) trained on the encoding
    ``layout_hash``, in file format ``format`` (the module docstring)."""
    digest = hashlib.sha256()
    digest.update(str(int(format)).encode())
    digest.update(str(layout_hash).encode())
    for name in ARRAYS:
        a = np.ascontiguousarray(arrays[name], "<f4")
        digest.update(repr(tuple(int(n) for n in a.shape)).encode())
        digest.update(a.tobytes())
    return digest.hexdigest()[:16]


def padded(arrays: dict) -> dict:
    """``arrays`` with each hidden layer widened to a multiple of ``lanes.LANES`` units by
    units of zero weights (the kernels sum rows a block of ``LANES`` at a time): such a unit
    is 0 before and after relu and adds exactly 0 to the next layer, so the scores are the
    network's own."""
    h1, h2 = arrays["w1"].shape[1], arrays["w2"].shape[1]
    p1, p2 = (-(-h // LANES) * LANES for h in (h1, h2))
    out = {
        "w1": np.zeros((N_FEATURES, p1), np.float32),
        "b1": np.zeros(p1, np.float32),
        "w2": np.zeros((p1, p2), np.float32),
        "b2": np.zeros(p2, np.float32),
        "w3": np.zeros(p2, np.float32),
        "b3": np.asarray(arrays["b3"], np.float32),
    }
    out["w1"][:, :h1] = arrays["w1"]
    out["b1"][:h1] = arrays["b1"]
    out["w2"][:h1, :h2] = arrays["w2"]
    out["b2"][:h2] = arrays["b2"]
    out["w3"][:h2] = arrays["w3"]
    return out


def pack(arrays: dict) -> np.ndarray:
    """The kernels' flat row of checked ``arrays`` (``kernels/tichu/learned.py`` draws it:
    the hidden layers padded to whole blocks, ``padded``; w1 as integers of one shift, the
    scaled features' rows of w1 as they are, the rest as they are), only as long as it
    needs. The tag names the file's own arrays (``identity``)."""
    name = identity(arrays)
    arrays = padded(arrays)
    h1, h2 = arrays["w1"].shape[1], arrays["w2"].shape[1]
    b1, w2, b2, w3, b3, wf, size = kernel.offsets(h1, h2)
    shift, w1q = kernel.quantise(arrays["w1"])
    out = np.zeros(size, np.float32)
    out[0], out[1] = h1, h2
    out[kernel.SCALE] = 2.0**-shift
    out[kernel.TAG : kernel.TAG + kernel.TAG_SIZE] = kernel.tag(name)
    out[kernel.W1 : b1] = w1q.reshape(-1).view(np.float32)
    out[b1:w2] = arrays["b1"]
    out[w2:b2] = arrays["w2"].reshape(-1)
    out[b2:w3] = arrays["b2"]
    out[w3:b3] = arrays["w3"]
    out[b3] = arrays["b3"][0]
    out[wf:size] = np.asarray(arrays["w1"], np.float32)[SCALED_FEATURES].reshape(-1)
    return out


def _read(path: Path) -> dict:
    """Every array of the ``.npz`` at ``path``, read whole (a damaged member fails here)."""
    bad = (zipfile.BadZipFile, zlib.error, EOFError, ValueError, OSError)
    try:
        data = np.load(path, allow_pickle=False)
    except bad as exc:
        raise WeightsError(f"weights file {path}: not a readable .npz of arrays ({exc})") from None
    if not isinstance(data, np.lib.npyio.NpzFile):
        raise WeightsError(f"weights file {path}: one .npy array, not an .npz of arrays")
    try:
        with data:
            return {name: np.asarray(data[name]) for name in data.files}
    except bad as exc:
        raise WeightsError(f"weights file {path}: damaged ({exc})") from None


def _text(data: dict, name: str, path: Path) -> str:
    a = data[name]
    if a.shape != () or a.dtype.kind != "U":
        raise WeightsError(f"weights file {path}: {name} must be a 0-d text array")
    return str(a[()])


def _check(data: dict, path: Path) -> tuple[dict, dict]:
    """The six arrays and ``meta`` of a file's ``data``, checked (the module docstring)."""
    if "decision" in data and _text(data, "decision", path) != "play":
        raise WeightsError(
            f"weights file {path}: a {_text(data, 'decision', path)} network, not a play network"
        )
    missing = [n for n in (*ARRAYS, "layout_hash", "format") if n not in data]
    if missing:
        raise WeightsError(f"weights file {path}: missing {', '.join(missing)}")
    fmt = data["format"]
    if fmt.shape != () or fmt.dtype.kind not in "iu":
        raise WeightsError(f"weights file {path}: format must be a 0-d integer array")
    if int(fmt) != FORMAT:
        raise WeightsError(
            f"weights file {path}: format {int(fmt)}; this version reads format {FORMAT}"
        )
    layout = _text(data, "layout_hash", path)
    if layout != LAYOUT_HASH:
        raise WeightsError(
            f"weights file {path}: made for the encoding {layout}, not this version's "
            f"{LAYOUT_HASH} (docs/encoding.md): train it again"
        )
    for name in ARRAYS:
        if data[name].dtype != np.float32:
            raise WeightsError(
                f"weights file {path}: {name} is {data[name].dtype}, expected float32"
            )
    w1, w2 = data["w1"], data["w2"]
    if w1.ndim != 2 or w2.ndim != 2:
        raise WeightsError(f"weights file {path}: w1 and w2 must be 2-d")
    h1, h2 = w1.shape[1], w2.shape[1]
    for name, shape in shapes(h1, h2).items():
        if data[name].shape != shape:
            raise WeightsError(
                f"weights file {path}: {name} has shape {data[name].shape}, expected {shape} "
                f"(w1 is {w1.shape}: {N_FEATURES} features)"
            )
    if not 1 <= h1 <= kernel.MAX_HIDDEN or not 1 <= h2 <= kernel.MAX_HIDDEN:
        raise WeightsError(
            f"weights file {path}: hidden sizes {h1}, {h2}; each 1 to {kernel.MAX_HIDDEN}"
        )
    size = kernel.offsets(*(-(-h // LANES) * LANES for h in (h1, h2)))[-1]
    if size > kernel.MODEL_FLOATS:
        raise WeightsError(
            f"weights file {path}: too large for the kernels ({size:,} numbers, at most "
            f"{kernel.MODEL_FLOATS:,}: fewer hidden units)"
        )
    return _arrays_and_meta(data, path, ARRAYS)


def _arrays_and_meta(data: dict, path: Path, names: tuple[str, ...]) -> tuple[dict, dict]:
    """The arrays ``names`` of a weights file's ``data``, each finite, and its ``meta`` (JSON,
    ``{}`` when absent); a ``WeightsError`` line naming ``path`` otherwise."""
    arrays = {name: data[name] for name in names}
    bad = [name for name, a in arrays.items() if not np.isfinite(a).all()]
    if bad:
        raise WeightsError(f"weights file {path}: non-finite values in {', '.join(bad)}")
    meta: dict = {}
    if "meta" in data:
        try:
            meta = json.loads(_text(data, "meta", path))
        except json.JSONDecodeError as exc:
            raise WeightsError(f"weights file {path}: meta is not JSON ({exc})") from None
    return arrays, meta


def read(path: str | Path) -> tuple[dict, dict]:
    """The six arrays and ``meta`` (an empty table when the file has none) of the weights
    file at ``path``, checked (the module docstring); ``WeightsError`` otherwise. ``load``
    reads through it; the training reads a file back with it."""
    path = Path(path)
    return _check(_read(path), path)


def file_key(path: Path) -> tuple[str, int, int, int]:
    """What identifies the file at ``path`` as read: its resolved path, inode, modification
    time and size, so a cache keyed by it reads the file again when it is replaced or
    changes. ``WeightsError`` (one line) when there is no such file."""
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise WeightsError(f"weights file {path}: not found") from None
    except OSError as exc:
        raise WeightsError(f"weights file {path}: {exc.strerror or exc}") from None
    if not path.is_file():
        raise WeightsError(f"weights file {path}: not a file")
    return (str(path.resolve()), stat.st_ino, stat.st_mtime_ns, stat.st_size)


_CACHE: dict[tuple[str, int, int, int], Weights] = {}


def load(path: str | Path) -> Weights:
    """The checked weights of the file at ``path``, read once per process (again when the
    file is replaced, or its size or modification time change), their model registered
    with the kernels (``kernels/tichu/learned.py``). ``WeightsError``: one line naming the
    file and what is wrong with it."""
    path = Path(path)
    key = file_key(path)
    found = _CACHE.get(key)
    if found is None:
        arrays, meta = read(path)
        name = identity(arrays)
        h1, h2 = arrays["w1"].shape[1], arrays["w2"].shape[1]
        found = Weights(str(path), name, h1, h2, meta, pack(arrays))
        _CACHE[key] = found
    kernel.register(found.identity, found.model)
    return found
