"""Golden Grand Seigneur transcripts: seeded rounds replay move for move (regenerate with
``python scripts/regen_seigneur_golden.py`` after an intended change, and review the diff)."""

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location(
    "regen_seigneur_golden", ROOT / "scripts" / "regen_seigneur_golden.py"
)
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)


@pytest.mark.parametrize("case", regen.CASES, ids=lambda c: regen.name(*c))
def test_transcript_unchanged(case):
    want = (regen.GOLDEN / regen.name(*case)).read_text()
    assert regen.render(*case) == want


def test_golden_files_cover_the_rules():
    text = "".join((regen.GOLDEN / regen.name(*c)).read_text() for c in regen.CASES)
    for needle in (
        "gives its 3 best",
        "gives its 2 best",
        "gives back",
        "BOMBS out of turn",
        "is fulfilled",
        "Dr (second)",
        "the Dog gives the lead",
        "out of play",
        "is last, holding",
        "Finishing order",
    ):
        assert needle in text
