"""The statistics themselves: 95% intervals cover the truth 95% of the time on synthetic data
with known answers, and paired differences are computed deal by deal."""

import math

import numpy as np
import pytest

from tichusim.analysis.stats import Z95, mean_ci, wilson

EXPERIMENTS = 2000
# Monte Carlo error of a coverage estimate from 2000 experiments is about 0.005; the tolerance
# allows four of those (and the small true departures of Wilson's interval from 95%).
TOLERANCE = 0.02


def coverage(intervals, truth):
    return float(np.mean([e.low <= truth <= e.high for e in intervals]))


@pytest.mark.parametrize("p, n", [(0.03, 1000), (0.3, 400), (0.5, 400), (0.78, 1000)])
def test_wilson_interval_covers_the_true_rate(p, n):
    rng = np.random.default_rng(int(1000 * p) + n)
    successes = rng.binomial(n, p, EXPERIMENTS)
    assert abs(coverage([wilson(int(k), n) for k in successes], p) - 0.95) < TOLERANCE


def test_the_coverage_check_catches_a_bad_interval():
    """The same check rejects the textbook Wald interval where it is known to fail (small p):
    the coverage test above has the power to notice a wrong interval."""
    p, n = 0.01, 100
    rng = np.random.default_rng(7)
    wald = []
    for k in rng.binomial(n, p, EXPERIMENTS):
        q = k / n
        half = Z95 * math.sqrt(q * (1 - q) / n)
        wald.append(wilson(0, 1)._replace(low=q - half, high=q + half))
    assert coverage(wald, p) < 0.95 - TOLERANCE


@pytest.mark.parametrize("kind", ["normal", "call-like"])
def test_mean_interval_covers_the_true_mean(kind):
    rng = np.random.default_rng(11)
    n = 300
    if kind == "normal":
        samples, truth = rng.normal(40, 90, (EXPERIMENTS, n)), 40.0
    else:  # skewed like a caller's score: +-200 bonus plus card points
        win = rng.random((EXPERIMENTS, n)) < 0.3
        samples = np.where(win, 200, -200) + rng.integers(-25, 126, (EXPERIMENTS, n))
        truth = 0.3 * 200 - 0.7 * 200 + 50
    assert abs(coverage([mean_ci(s) for s in samples], truth) - 0.95) < TOLERANCE


def test_paired_difference_interval_covers_and_is_narrower():
    """Two strategies' scores on the same deals share the deal's luck: the interval of the
    per-deal difference covers the true gap, and is far narrower than comparing means of
    independent samples (why gt-odds and compare pair their plays)."""
    rng = np.random.default_rng(5)
    n, gap = 500, 12.0
    paired, independent = [], []
    for _ in range(EXPERIMENTS):
        luck = rng.normal(0, 150, n)  # the deal: shared by both plays
        a = luck + gap + rng.normal(0, 30, n)
        b = luck + rng.normal(0, 30, n)
        paired.append(mean_ci(a - b))
        independent.append(mean_ci(a).high - mean_ci(a).low)
    assert abs(coverage(paired, gap) - 0.95) < TOLERANCE
    assert np.mean([e.high - e.low for e in paired]) < 0.3 * np.mean(independent)


def test_estimates_format_themselves():
    """One formatting of rates and points (``Estimate.pct``/``pts``/``num``) for every report."""
    from tichusim.analysis.stats import Estimate

    rate = Estimate(0.559, 0.5581, 0.5612, 1000)
    assert rate.pct() == "55.9% [55.8, 56.1]"
    assert rate.pct(5, "  ") == " 55.9%  [55.8, 56.1]"
    gain = Estimate(0.31, -0.24, 0.74, 50)
    assert gain.pts() == "+0.3 [-0.2, +0.7]"
    assert gain.pts(7, "  ") == "   +0.3  [-0.2, +0.7]"
    assert Estimate(12.19, 12.13, 12.25, 9).num() == "12.190 [12.130, 12.250]"
    for empty in (wilson(0, 0), mean_ci([])):
        assert empty.pct() == empty.pts() == empty.num() == "n/a"
        assert empty.pct(na="n/a (no calls)") == "n/a (no calls)"


def test_a_rare_event_never_prints_as_zero():
    """A rate whose count is not 0 never reads 0.0% (nor a rate below 1, 100.0%): one Tichu
    call in 5,000 seat-rounds is ``<0.1%``, aligned as the other rates are."""
    from tichusim.analysis.stats import percent

    assert wilson(1, 5000).pct() == "<0.1% [0.0, 0.1]"
    assert wilson(1, 5000).pct(5, "  ") == " <0.1%  [0.0, 0.1]"
    assert wilson(4999, 5000).pct() == ">99.9% [99.9, 100.0]"
    assert wilson(0, 5000).pct().startswith("0.0% ")
    assert wilson(5000, 5000).pct().startswith("100.0% ")
    assert percent(0.0005) == "0.1%" and percent(0.25, 5) == " 25.0%"
