"""Shared test settings: Hypothesis profiles and the cross-check data's location; the check
of a ``--json`` answer's estimates."""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=300
)
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

SHARED = Path(__file__).resolve().parents[2] / "shared"


def _estimates_json(out: dict, names, bounds: dict | None = None) -> None:
    """``out["estimates"]`` holds each of ``names`` in the one shape of an estimate
    (``stats.Estimate.to_json``), and the deprecated flat keys (``name``, ``name_ci_low``,
    ``name_ci_high``; ``bounds[name]``: other names for the bounds) equal its values."""
    assert set(out["estimates"]) == set(names)
    for name, e in out["estimates"].items():
        assert set(e) == {"value", "low", "high", "n"} and e["n"] > 0, name
        assert e["low"] <= e["value"] <= e["high"], name
        low, high = (bounds or {}).get(name, (f"{name}_ci_low", f"{name}_ci_high"))
        assert (out[name], out[low], out[high]) == (e["value"], e["low"], e["high"]), name


@pytest.fixture
def estimates_json():
    """The check of a ``--json`` answer's estimates (``_estimates_json``)."""
    return _estimates_json
