"""Golden transcripts: seeded rounds must replay move for move (regenerate with
``python scripts/regen_golden.py`` after an intended change, and review the diff)."""

import importlib.util
from pathlib import Path

import pytest

from tichusim.games.transcript import transcript

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("regen_golden", ROOT / "scripts" / "regen_golden.py")
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)


@pytest.mark.parametrize("seed, round_, strategies", regen.CASES)
def test_transcript_unchanged(seed, round_, strategies):
    parts = strategies.split(",")
    got = transcript(seed, round_, strategies=parts[0] if len(parts) == 1 else parts)
    want = (regen.GOLDEN / regen.name(seed, round_, strategies)).read_text()
    assert got == want


def test_golden_files_cover_the_rules():
    text = "".join(p.read_text() for p in regen.GOLDEN.glob("*.txt"))
    for needle in (
        "BOMBS",
        "the Dog passes the lead",
        "gives the Dragon's trick",
        "wishes",
        "double victory",
        "is last: hand",
        "calls GRAND TICHU",
        "calls TICHU",
    ):
        assert needle in text
