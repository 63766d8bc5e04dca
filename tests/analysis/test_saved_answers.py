"""Answers saved with their players keep rebuilding and reading as they were made, whatever
the answers' default players are now: a gt-table's ``table.md`` names its players in its
regenerate command, and its ``model.json`` in its ``info``, which ``gt-odds --model`` says.
A table made with the default players names them too, so it rebuilds the same when the
default moves again."""

import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from tichusim.analysis.handclass import GTModel
from tichusim.cli import main

ROOT = Path(__file__).resolve().parents[2]
HAND = "Dr Ph A A K 9 5 3"
PLAYERS = re.compile(r"Seat 0 plays `([^`]*)`.*the other seats play `([^`]*)`")
SAVED = sorted(p for p in ROOT.glob("results/**/table.md") if "gt-table" in p.read_text())


def _regenerate(page: Path) -> list[str]:
    line = next(x for x in page.read_text().splitlines() if x.startswith("Regenerate: "))
    return shlex.split(line.removeprefix("Regenerate: ").strip("`"))


def _players(page: Path) -> tuple[str, str]:
    found = PLAYERS.search(page.read_text().replace("\n", " "))
    assert found, page
    return found.group(1), found.group(2)


def _small(args: list[str], out: Path) -> list[str]:
    """The command ``args`` (``tichusim gt-table ...``) on 1,000 deals, written to ``out``."""
    args = list(args[1:])
    args[args.index("--deals") + 1] = "1000"
    args[args.index("--out") + 1] = str(out)
    return args


def test_saved_gt_tables_are_found_and_name_their_players():
    assert any(p.parent.name == "gt_odds" for p in SAVED)
    for page in SAVED:
        args = _regenerate(page)
        assert "--seat-strategy" in args and "--others" in args, page


@pytest.mark.parametrize("page", SAVED, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_saved_gt_table_rebuilds_with_its_own_players(page, tmp_path):
    args = _regenerate(page)
    res = CliRunner().invoke(main, [*_small(args, tmp_path), "--quiet"])
    assert res.exit_code == 0, res.output
    assert _players(tmp_path / "table.md") == _players(page)
    info = json.loads((tmp_path / "model.json").read_text())["info"]
    saved = json.loads((page.parent / "model.json").read_text())["info"]
    assert info["strategies"] == saved["strategies"]


def test_a_table_made_with_the_defaults_names_them(tmp_path):
    res = CliRunner().invoke(
        main, ["gt-table", "--deals", "1000", "--out", str(tmp_path), "--quiet"]
    )
    assert res.exit_code == 0, res.output
    page = tmp_path / "table.md"
    args = _regenerate(page)
    assert args[args.index("--seat-strategy") + 1] == args[args.index("--others") + 1] == "learned"
    assert _players(page) == ("learned", "learned")
    info = json.loads((tmp_path / "model.json").read_text())["info"]
    # which networks played: the play network's identity, then the pass network's
    assert re.fullmatch(r"[0-9a-f]{16}, pass:[0-9a-f]{16}", info["weights"])
    assert f"learned weights {info['weights']}" in page.read_text()


@pytest.mark.parametrize("page", SAVED, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_saved_model_answers_for_the_players_it_was_fitted_with(page):
    path = page.parent / "model.json"
    model = GTModel.load(path)
    seat, others = _players(page)
    answer = model.predict(HAND)
    assert answer["fitted_on"]["strategies"].startswith(f"seat {seat}, others {others}")
    res = CliRunner().invoke(main, ["gt-odds", "--hand", HAND, "--model", str(path), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output.splitlines()[-1])["fitted_on"] == answer["fitted_on"]
    text = CliRunner().invoke(main, ["gt-odds", "--hand", HAND, "--model", str(path)]).output
    assert f"seat {seat}, others {others}" in text
