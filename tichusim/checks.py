"""The field checks every setting of tichusim goes through, one wording for each: a whole
number with its least value, a share between 0 and 1, a seed. Each returns the value as a plain
Python number (NumPy's are taken and turned into Python's, which JSON and the kernels' records
hold alike) or raises a one-line ``ValueError`` that names the setting first
(``rounds: a whole number >= 1, not 0``).

The validated configs (``tichusim.runs.settings``: runs, ``[train]``, ``[data]``) build their
fields from these; the Python functions that take counts (the search's samples, the odds
commands' deals) call them directly.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "SEED_LIMIT",
    "seed",
    "seed_problem",
    "share",
    "share_problem",
    "whole",
    "whole_problem",
]

SEED_LIMIT = 2**64  # a seed is a 64-bit word of the counter-based streams (``kernels/rng.py``)


def whole_problem(value: Any, least: int = 0) -> str | None:
    """What is wrong with ``value`` as a whole number of at least ``least`` (a bool is not a
    number here), or ``None``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
        return f"a whole number >= {least}, not {value!r}"
    return None


def share_problem(value: Any) -> str | None:
    """What is wrong with ``value`` as a share: a number from 0 to 1."""
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float, np.integer, np.floating))
        or not 0 <= value <= 1
    ):
        return f"a number between 0 and 1, not {value!r}"
    return None


def seed_problem(value: Any) -> str | None:
    """What is wrong with ``value`` as a seed: a whole number from 0 to 2**64 - 1."""
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, np.integer))
        or not 0 <= value < SEED_LIMIT
    ):
        return f"a whole number from 0 to 2**64 - 1, not {value!r}"
    return None


def whole(value: Any, what: str, least: int = 0) -> int:
    """``value`` as an ``int`` of at least ``least`` (``whole_problem``)."""
    problem = whole_problem(value, least)
    if problem:
        raise ValueError(f"{what}: {problem}")
    return int(value)


def share(value: Any, what: str) -> float:
    """``value`` as a ``float`` from 0 to 1 (``share_problem``)."""
    problem = share_problem(value)
    if problem:
        raise ValueError(f"{what}: {problem}")
    return float(value)


def seed(value: Any, what: str = "seed") -> int:
    """``value`` as a seed (``seed_problem``)."""
    problem = seed_problem(value)
    if problem:
        raise ValueError(f"{what}: {problem}")
    return int(value)
