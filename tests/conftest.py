"""Shared test settings: Hypothesis profiles and the cross-check data's location."""

import os
from pathlib import Path

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=300
)
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

SHARED = Path(__file__).resolve().parents[2] / "shared"
