"""The encoding of a decision offered to Python: a team game's ``View`` and candidate answers
in, one ``float32`` row of features per candidate out, computed by the kernel a player in the
engine calls (``kernels/tichu/encoding.py``; the layout, slot by slot: ``docs/encoding.md``).

``View.encode(candidates)`` calls ``encode`` here. A candidate is a legal play as ``Round.
legal()`` lists it (a ``Play``), ``None`` for a pass or no bomb, or a ``(mask, code)`` pair in
the kernels' terms. ``slot(name)`` is the slice of a row a slot fills.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..kernels.tichu import encoding
from ..kernels.tichu.view import PUBLIC

__all__ = ["ENCODING_VERSION", "LAYOUT_HASH", "N_FEATURES", "STATE_SIZE", "encode", "slot"]

ENCODING_VERSION = encoding.ENCODING_VERSION
LAYOUT_HASH = encoding.LAYOUT_HASH
N_FEATURES = encoding.N_FEATURES
STATE_SIZE = encoding.STATE_SIZE


def slot(name: str) -> slice:
    """The entries of a row that slot ``name`` fills (``docs/encoding.md``)."""
    widths = dict(encoding.SLOTS)
    if name not in widths:
        raise KeyError(f"the encoding has no slot {name!r}")
    start = encoding.OFFSET[name]
    return slice(start, start + widths[name])


def _candidate(choice: Any, hand: int) -> tuple[int, int]:
    """(mask, code) of one candidate, checked against the hand it is played from."""
    if choice is None:
        return 0, 0
    combo = getattr(choice, "combo", None)
    if combo is not None and isinstance(choice, (int, np.integer)):
        mask, code = int(choice), combo.code
    elif (
        isinstance(choice, tuple)
        and len(choice) == 2
        and all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in choice)
    ):
        mask, code = int(choice[0]), int(choice[1])
    else:
        raise ValueError(f"a candidate is a Play, None or a (mask, code) pair, not {choice!r}")
    if mask < 0 or mask & ~hand:
        raise ValueError(f"candidate {choice!r} holds cards that are not in the hand")
    if (mask == 0) != (code == 0) or code < 0:
        raise ValueError(f"candidate {choice!r}: cards and combination code do not go together")
    return mask, code


def encode(
    public: np.ndarray, private: np.ndarray, decision: int, candidates: Iterable[Any]
) -> Any:
    """The features of a seat's decision (its table's ``PUBLIC`` record, its own ``PRIVATE``
    record and the decision's code, ``kernels/outside.py``) with each of ``candidates``: a
    ``float32`` array of shape ``(len(candidates), N_FEATURES)`` (``docs/encoding.md``);
    ``View.encode`` is this for a view."""
    if public.dtype != PUBLIC:
        raise ValueError("only the team tables' views have an encoding")
    hand = int(private[0]["hand"])
    pairs = [_candidate(c, hand) for c in candidates]
    n = len(pairs)
    masks = np.array([m for m, _ in pairs] or [0], np.uint64)
    codes = np.array([c for _, c in pairs] or [0], np.int64)
    out = np.zeros((n, N_FEATURES), np.float32)
    encoding.encode_all(public, private, decision, masks, codes, n, out)
    return out
