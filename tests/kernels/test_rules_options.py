"""The rules Options travel as one record (RULES.md §2.6, §4, §5 Options): declared once per
family (``kernels/tichu/rules.py``, ``kernels/seigneur/rules.py``), named only in the files
docs/architecture.md's recipe "Adding a rules Option" lists, and carried whole by every record
that reaches the kernels."""

import re
from pathlib import Path

import numpy as np
import pytest

from tichusim.games import game
from tichusim.kernels.seigneur import batch as gs_batch
from tichusim.kernels.seigneur import records as gs_records
from tichusim.kernels.seigneur import rules as gs_rules
from tichusim.kernels.seigneur import view as gs_view
from tichusim.kernels.tichu import batch, labels, records, view
from tichusim.kernels.tichu import rules as team_rules

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tichusim"
OPTIONS = (*team_rules.OPTIONS, *gs_rules.OPTIONS)


def _recipe_table() -> dict[str, set[str]]:
    """The recipe's table: Option -> the package files (``cards/combos.py``) its row names."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    section = text.split("## Adding a rules Option", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, set[str]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and re.fullmatch(r"`\w+`", cells[0]):
            rows[cells[0].strip("`")] = set(re.findall(r"`([\w/]+\.py)`", cells[1]))
    return rows


def _naming(option: str) -> set[str]:
    """The package files that write ``option`` as a word."""
    word = re.compile(rf"\b{option}\b")
    return {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if word.search(path.read_text(encoding="utf-8"))
    }


def test_the_recipe_lists_every_option_of_the_rules_records():
    assert sorted(_recipe_table()) == sorted(OPTIONS)


@pytest.mark.parametrize("option", OPTIONS)
def test_an_option_is_named_only_in_the_files_the_recipe_lists(option):
    listed = _recipe_table()[option]
    named = _naming(option)
    assert named == listed, (
        f"{option}: named in {sorted(named - listed)} beyond docs/architecture.md's recipe, "
        f"which lists {sorted(listed - named)} that do not name it"
    )
    assert len(named) <= 6


def test_every_record_that_reaches_the_kernels_holds_the_rules_whole():
    """The batch settings, the work record, the public record (and the labelling settings)
    hold the family's rules record as one field, and no Option as a field of its own."""
    for rules, dtypes in (
        (team_rules.RULES, (batch.RUN, records.WORK, view.PUBLIC, labels.LABELS)),
        (gs_rules.GS_RULES, (gs_batch.GS_RUN, gs_records.GS_WORK, gs_view.GS_PUBLIC)),
    ):
        for dtype in dtypes:
            assert dtype.fields["rules"][0] == rules
            assert not set(rules.names) & set(dtype.names)


def test_a_games_options_pack_into_its_rules_record():
    """Every Option of a game reaches its record; an Option the game lacks stays off."""
    half = game("nanjing", options={"phoenix_led_half": True}).rules_record
    assert half.dtype == team_rules.RULES and half["phoenix_led_half"][0]
    assert not half["rotating_king"][0]
    ww = game("wuwang", options={"rotating_king": True}).rules_record
    assert ww["rotating_king"][0] and not ww["phoenix_led_half"][0]
    gs = game("grand-seigneur", 8, "russian").kernel_options()
    assert gs[:2] == (8, game("grand-seigneur", 8, "russian").deck)
    assert gs[2].dtype == gs_rules.GS_RULES
    assert all(gs[2][name][0] for name in gs_rules.OPTIONS)
    assert not game("grand-seigneur", 8).kernel_options()[2].view(np.uint8).any()


@pytest.mark.parametrize("name", ["nanjing", "tientsin", "wuwang"])
def test_every_team_table_takes_its_options_and_no_other(name):
    """RULES.md §2.6: the led-Phoenix Option at all three team tables; §4: the rotating King
    at Wu Wang's alone."""
    defaults = game(name).option_defaults
    assert set(team_rules.EVERY_TABLE) <= set(defaults)
    assert (set(team_rules.WUWANG_GAMES) <= set(defaults)) == (name == "wuwang")
    assert set(defaults) & set(team_rules.OPTIONS) <= set(team_rules.SAID)
