"""Estimates with their uncertainty: means with normal intervals, proportions with Wilson's,
and the paired comparison of candidates measured on the same deals.

One JSON shape for an estimate in every ``--json`` output (``Estimate.to_json``):
``{"value": ..., "low": ..., "high": ..., "n": ...}``, the 95% interval's bounds and the
sample size, ``null`` for a number that does not exist (a rate of nothing, the interval of
one deal).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, NamedTuple

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

    @property
    def sign(self) -> int:
        """1 when the whole interval lies above 0, -1 when below, 0 when it holds 0 (or
        there is no estimate): the sign the data can tell."""
        return 1 if self.low > 0 else -1 if self.high < 0 else 0

    @property
    def half_width(self) -> float:
        """Half the interval's width (the precision a run stops at)."""
        return (self.high - self.low) / 2

    def to_json(self, digits: int | None = None) -> dict:
        """The estimate as every ``--json`` output writes it: ``value``, ``low``, ``high``
        (rounded to ``digits`` decimals when given; ``null`` where there is no finite number:
        a rate of nothing, the interval of one deal) and ``n``."""

        def num(x: float) -> float | None:
            if not math.isfinite(x):
                return None
            return float(x) if digits is None else round(float(x), digits)

        return {
            "value": num(self.value),
            "low": num(self.low),
            "high": num(self.high),
            "n": int(self.n),
        }

    def num(self, digits: int = 3, na: str = "n/a") -> str:
        """A mean and its interval: ``12.190 [12.130, 12.250]``."""
        if self.missing:
            return na
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


def json_estimates(estimates: dict[str, Estimate], bounds: dict | None = None) -> dict:
    """A ``--json`` answer's estimates: ``{"estimates": {name: Estimate.to_json()}}``, and
    beside it, deprecated and kept one release, the flat keys of the odds commands and
    pass-advice with the same values: ``name`` (the value), ``name_ci_low``, ``name_ci_high``
    (``bounds[name]``: the bounds' own two keys)."""
    out: dict = {}
    shaped = {name: e.to_json() for name, e in estimates.items()}
    for name, e in shaped.items():
        low, high = (bounds or {}).get(name, (f"{name}_ci_low", f"{name}_ci_high"))
        out[name], out[low], out[high] = e["value"], e["low"], e["high"]
    return out | {"estimates": shaped}


def mean_ci(x: Any, z: float = Z95) -> Estimate:
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


@dataclass(frozen=True)
class Paired:
    """Candidates measured on the same deals: ``values[c, k]`` is candidate ``c``'s figure on
    deal ``k`` (a score, a margin). The deals are shared, so the luck of a deal cancels in the
    per-deal difference of two candidates: compare them by its mean and standard error, not by
    their separate means."""

    values: np.ndarray

    @classmethod
    def on_shared_deals(cls, *rows: Any) -> Paired:
        """Candidates that played the first deals of one sequence, some of them more than
        others: each row cut to the deals all of them played."""
        n = min(len(r) for r in rows)
        return cls(np.stack([np.asarray(r, np.float64)[:n] for r in rows]))

    @property
    def deals(self) -> int:
        return int(self.values.shape[1])

    def means(self) -> np.ndarray:
        """Each candidate's mean."""
        return self.values.mean(axis=1)

    def best(self) -> int:
        """The candidate with the highest mean (the first on a tie)."""
        return int(np.argmax(self.means()))

    def estimate(self, c: int, z: float = Z95) -> Estimate:
        """Candidate ``c``'s mean with its interval (``mean_ci``)."""
        return mean_ci(self.values[c], z)

    def differences(self, c: int, than: int) -> np.ndarray:
        """Deal by deal, candidate ``c``'s figure minus candidate ``than``'s."""
        return self.values[c] - self.values[than]

    def difference(self, c: int, than: int, z: float = Z95) -> Estimate:
        """The mean of ``differences(c, than)`` with its interval (``mean_ci``)."""
        return mean_ci(self.differences(c, than), z)

    def standard_error(self, c: int, than: int) -> float:
        """The standard error of the mean per-deal difference (infinite below two deals)."""
        d = self.differences(c, than)
        return float(d.std(ddof=1) / math.sqrt(d.size)) if d.size > 1 else math.inf

    def beats(self, c: int, than: int, z: float) -> bool:
        """The evidence rule: whether candidate ``c``'s mean exceeds candidate ``than``'s by
        more than ``z`` standard errors of their per-deal difference (never below two
        deals)."""
        d = self.differences(c, than)
        if d.size < 2:
            return False
        return bool(d.mean() > z * d.std(ddof=1) / np.sqrt(d.size))
