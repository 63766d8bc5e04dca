"""Random weights files for the learned play's tests (``tichusim/strategies/learned.py``'s
format): small networks, written to a test's ``tmp_path``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from tichusim.kernels.tichu.encoding import LAYOUT_HASH, N_FEATURES


def random_arrays(h1: int, h2: int, seed: int = 0, scale: float = 0.3) -> dict:
    """The six arrays of a random network of hidden sizes ``h1``, ``h2`` (``float32``)."""
    rng = np.random.default_rng(seed)

    def normal(*shape, s=scale):
        return (rng.normal(size=shape) * s).astype(np.float32)

    return {
        "w1": normal(N_FEATURES, h1),
        "b1": normal(h1, s=0.1),
        "w2": normal(h1, h2),
        "b2": normal(h2, s=0.1),
        "w3": normal(h2),
        "b3": normal(1, s=0.1),
    }


def write_weights(path: Path, h1: int = 16, h2: int = 8, seed: int = 0, **changes) -> Path:
    """A weights file of a random network at ``path``; ``changes`` replace (or, ``None``,
    leave out) any of the file's arrays."""
    data = random_arrays(h1, h2, seed) | {
        "layout_hash": np.array(LAYOUT_HASH),
        "format": np.array(1, np.int64),
        "meta": np.array(json.dumps({"seed": seed})),
    }
    data.update(changes)
    np.savez(path, **{k: v for k, v in data.items() if v is not None})
    return Path(path)


def forward(x: np.ndarray, arrays: dict) -> np.ndarray:
    """The network's scores of the feature rows ``x``, dense, in float64: the plain reference."""
    a = {k: v.astype(np.float64) for k, v in arrays.items()}
    h1 = np.maximum(x.astype(np.float64) @ a["w1"] + a["b1"], 0.0)
    h2 = np.maximum(h1 @ a["w2"] + a["b2"], 0.0)
    return h2 @ a["w3"] + a["b3"][0]
