"""Estimates with their uncertainty: means with normal intervals, proportions with Wilson's."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

Z95 = 1.959963984540054


def percent(rate: float, width: int = 0) -> str:
    """A rate in percent to one decimal, ``width`` wide, never hiding a rare event or a rare
    miss: a rate above 0 that would print as 0.0% prints as ``<0.1%``, one below 1 that would
    print as 100.0% as ``>99.9%``."""
    if 0 < rate < 0.0005:
        return f"{'<0.1':>{width}}%"
    if 0.9995 <= rate < 1:
        return f"{'>99.9':>{width}}%"
    return f"{100 * rate:{width}.1f}%"


class Estimate(NamedTuple):
    value: float
    low: float
    high: float
    n: int

    def __str__(self) -> str:
        if self.n == 0:
            return "n/a (no data)"
        return f"{self.value:.4g} [{self.low:.4g}, {self.high:.4g}] (n={self.n})"

    @property
    def missing(self) -> bool:
        """No data, or no value (a rate of nothing)."""
        return self.n == 0 or math.isnan(self.value)

    def pct(self, width: int = 0, sep: str = " ", na: str = "n/a") -> str:
        """A rate and its interval in percent: ``55.9% [55.8, 56.1]`` (``width``: of the value);
        a rate that is not 0 never prints as 0.0% (``percent``)."""
        if self.missing:
            return na
        return f"{percent(self.value, width)}{sep}[{100 * self.low:.1f}, {100 * self.high:.1f}]"

    def pts(self, width: int = 0, sep: str = " ", na: str = "n/a") -> str:
        """Points with a sign and their interval: ``+0.3 [-0.2, +0.7]``."""
        if self.missing:
            return na
        return f"{self.value:+{width}.1f}{sep}[{self.low:+.1f}, {self.high:+.1f}]"

    def num(self, digits: int = 3, na: str = "n/a") -> str:
        """A mean and its interval: ``12.190 [12.130, 12.250]``."""
        if self.missing:
            return na
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


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
