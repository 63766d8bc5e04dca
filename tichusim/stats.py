"""Estimates with their uncertainty: means with normal intervals, proportions with Wilson's."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

Z95 = 1.959963984540054


class Estimate(NamedTuple):
    value: float
    low: float
    high: float
    n: int

    def __str__(self) -> str:
        if self.n == 0:
            return "n/a (no data)"
        return f"{self.value:.4g} [{self.low:.4g}, {self.high:.4g}] (n={self.n})"


def mean_ci(x, z: float = Z95) -> Estimate:
    """Sample mean with a normal-approximation interval (standard error from the sample)."""
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    m = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else math.inf
    return Estimate(m, m - z * se, m + z * se, n)


def wilson(successes: int, n: int, z: float = Z95) -> Estimate:
    """Proportion with the Wilson score interval (good coverage near 0 and 1)."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)
