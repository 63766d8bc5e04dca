"""The value network a learned player runs, in torch for training, and its weights file.

An MLP on a decision's features ``x`` (``N_FEATURES``, ``kernels/tichu/encoding.py``):
``h1 = relu(x @ w1 + b1)``, ``h2 = relu(h1 @ w2 + b2)``, ``q = h2 @ w3 + b3``. The first layer
is split as the features are: the state part (``x[:STATE_SIZE]``), the same for every
candidate of a decision, is multiplied once per decision and its term gathered to the
decision's candidates by index; only the candidate part is multiplied per candidate.

The weights file (format 1) is an ``.npz`` of ``w1`` (``N_FEATURES``, H1), ``b1`` (H1,),
``w2`` (H1, H2), ``b2`` (H2,), ``w3`` (H2,), ``b3`` (1,), all ``float32``; ``layout_hash``
(0-d text), the encoding it was trained on; ``format`` (0-d ``int64``) = 1; ``meta`` (0-d
text), JSON of how it was made. It is read with ``allow_pickle=False``. ``forward`` is the
network in plain numpy, on such a file's arrays.

torch is imported here and in ``train.py`` only (the ``learn`` extra).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from ..kernels.tichu.encoding import CANDIDATE_SIZE, LAYOUT_HASH, STATE_SIZE
from ..strategies.learned import ARRAYS, FORMAT, read

__all__ = ["FORMAT", "ARRAYS", "ValueNet", "export", "forward", "load", "read_weights"]


class ValueNet(nn.Module):
    """Q(view, candidate) with hidden sizes ``h1`` and ``h2``."""

    def __init__(self, h1: int, h2: int):
        super().__init__()
        self.h1, self.h2 = h1, h2
        self.state = nn.Linear(STATE_SIZE, h1)  # w1[:STATE_SIZE] and b1
        self.candidate = nn.Linear(CANDIDATE_SIZE, h1, bias=False)  # w1[STATE_SIZE:]
        self.hidden = nn.Linear(h1, h2)
        self.out = nn.Linear(h2, 1)

    def forward(self, state: torch.Tensor, cand: torch.Tensor, owner: torch.Tensor) -> torch.Tensor:
        """The values of candidates ``cand`` (C, ``CANDIDATE_SIZE``) of decisions ``state``
        (D, ``STATE_SIZE``); ``owner`` (C,) the row of ``state`` each candidate belongs to."""
        h1 = torch.relu(self.state(state)[owner] + self.candidate(cand))
        h2 = torch.relu(self.hidden(h1))
        return self.out(h2).squeeze(-1)

    def arrays(self) -> dict[str, np.ndarray]:
        """The weights in the file's layout (``ARRAYS``), ``float32``."""

        def plain(t: torch.Tensor) -> np.ndarray:
            return np.ascontiguousarray(t.detach().cpu().numpy(), np.float32)

        return {
            "w1": plain(torch.cat([self.state.weight, self.candidate.weight], dim=1).T),
            "b1": plain(self.state.bias),
            "w2": plain(self.hidden.weight.T),
            "b2": plain(self.hidden.bias),
            "w3": plain(self.out.weight[0]),
            "b3": plain(self.out.bias),
        }

    def set_arrays(self, arrays: Mapping[str, np.ndarray]) -> None:
        """Take the weights of a file's ``arrays`` (shapes as ``arrays()`` gives them)."""
        w1 = torch.from_numpy(np.asarray(arrays["w1"], np.float32).T.copy())
        with torch.no_grad():
            self.state.weight.copy_(w1[:, :STATE_SIZE])
            self.candidate.weight.copy_(w1[:, STATE_SIZE:])
            self.state.bias.copy_(torch.from_numpy(np.asarray(arrays["b1"], np.float32)))
            self.hidden.weight.copy_(torch.from_numpy(np.asarray(arrays["w2"], np.float32).T))
            self.hidden.bias.copy_(torch.from_numpy(np.asarray(arrays["b2"], np.float32)))
            self.out.weight.copy_(torch.from_numpy(np.asarray(arrays["w3"], np.float32))[None])
            self.out.bias.copy_(torch.from_numpy(np.asarray(arrays["b3"], np.float32)))


def export(model: ValueNet, path: str | os.PathLike, meta: Mapping[str, Any]) -> Path:
    """Write ``model``'s weights file (format 1) at ``path``, ``meta`` as its JSON; the file
    appears whole or not at all."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload: dict[str, Any] = model.arrays() | {
        "layout_hash": np.array(LAYOUT_HASH),
        "format": np.array(FORMAT, np.int64),
        "meta": np.array(json.dumps(dict(meta), sort_keys=True)),
    }
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez(f, **payload)
    os.replace(tmp, path)
    return path


def read_weights(path: str | os.PathLike) -> dict[str, Any]:
    """A weights file's arrays and ``meta`` (its JSON, or an empty table), checked as the
    strategy checks them (``strategies.learned.read``): a ``WeightsError``, a ``ValueError``
    of one line naming the file and the problem, otherwise."""
    arrays, meta = read(Path(path))
    return {**arrays, "meta": meta}


def load(path: str | os.PathLike) -> ValueNet:
    """The ``ValueNet`` of a weights file."""
    arrays = read_weights(path)
    model = ValueNet(arrays["w2"].shape[0], arrays["w2"].shape[1])
    model.set_arrays(arrays)
    return model


def forward(weights: Mapping[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """The network in plain numpy: the values (n,) of feature rows ``x`` (n, ``N_FEATURES``)
    under a weights file's arrays."""
    h1 = np.maximum(x @ weights["w1"] + weights["b1"], 0)
    h2 = np.maximum(h1 @ weights["w2"] + weights["b2"], 0)
    return h2 @ weights["w3"] + weights["b3"][0]
