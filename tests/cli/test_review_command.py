"""``tichusim review GAME``: the text, ``--json`` and ``--out TABLE.parquet``; bad input in one
line naming the file (and the line, for a move the engine refuses), exit status 2 when nothing
could be read, no traceback, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from support.cli_output import said_lines

from tichusim.cli import main
from tichusim.review.result import TABLE_COLUMNS

GAME = Path(__file__).resolve().parents[1] / "data" / "bsw" / "2417500.tch"
QUICK = ["--effort", "quick", "--quiet", "--seed", "1"]


def _review(*args: str):
    return CliRunner().invoke(main, ["review", *map(str, args)])


@pytest.fixture(scope="module")
def as_json():
    res = _review(GAME, "--round", "2", "--player", "1David", "--json", *QUICK)
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_json_of_one_players_round(as_json):
    assert as_json["format"] == "tichusim-review/1"
    assert [p["name"] for p in as_json["players"]] == ["1David"]
    (r,) = as_json["rounds"]
    assert r["index"] == 1 and r["source"].endswith("2417500.tch")
    assert {d["seat"] for d in r["decisions"]} == {1}
    assert as_json["settings"]["effort"]["name"] == "quick"
    assert as_json["settings"]["seed"] == 1


def test_text_shows_the_worst_first_and_writes_the_table(tmp_path):
    out = tmp_path / "review.parquet"
    res = _review(GAME, "--round", "1", "--worst", "5", "--out", out, *QUICK)
    assert res.exit_code == 0, res.output
    text = res.output
    assert "Players:" in text and "Rounds:" in text and "Worst decisions" in text
    worst = [line for line in text.splitlines() if ". round " in line and " lost " in line]
    losses = [float(line.split(" lost ")[1].split()[0]) for line in worst]
    assert losses == sorted(losses, reverse=True) and len(losses) <= 5
    table = pq.read_table(out)
    assert table.column_names == TABLE_COLUMNS
    assert set(table.column("round").to_pylist()) == {0}
    assert b"tichusim-review" in table.schema.metadata


def _one_error(res, *words: str) -> str:
    lines = said_lines(res.output)
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    error = [line for line in lines if line.startswith("tichusim: error: ")]
    assert len(error) == 1, res.output
    for word in words:
        assert word in error[0], error[0]
    return error[0]


def test_bad_input_is_one_line_and_writes_nothing(tmp_path):
    out = tmp_path / "r.parquet"
    junk = tmp_path / "junk.txt"
    junk.write_text("hello, this is no log\n")
    _one_error(_review(junk, "--out", out, *QUICK), "junk.txt", "not a game log")
    _one_error(_review(tmp_path / "missing.tch", *QUICK), "missing.tch")
    _one_error(_review(GAME, "--round", "11", "--out", out, *QUICK), "--round", "1..10")
    _one_error(_review(GAME, "--player", "nobody", "--out", out, *QUICK), "no player 'nobody'")
    _one_error(_review(GAME, "--effort", "fast", *QUICK[2:]), "fast")
    assert not out.exists()


def test_an_impossible_move_names_its_line(tmp_path):
    lines = GAME.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[20].startswith("(1)1David: B3")
    lines[20] = "(1)1David: GA \n"  # the Ace is seat 0's: seat 1 cannot play it
    bad = tmp_path / "bad.tch"
    bad.write_text("".join(lines), encoding="utf-8")
    out = tmp_path / "r.parquet"
    res = _review(bad, "--round", "1", "--out", out, *QUICK)
    error = _one_error(res, "bad.tch", "no round could be played back")
    warnings = [line for line in said_lines(res.output) if line.startswith("tichusim: warning:")]
    assert len(warnings) == 1 and "bad.tch:21" in warnings[0] and "does not hold" in warnings[0]
    assert error and not out.exists()


def test_a_truncated_log_reviews_its_whole_rounds(tmp_path):
    text = GAME.read_text(encoding="utf-8")
    cut = tmp_path / "cut.tch"
    cut.write_text(text[: text.index("---------------Rundenverlauf", 2000) + 200], encoding="utf-8")
    res = _review(cut, "--round", "1", "--json", *QUICK)
    assert res.exit_code == 0, res.output
    warnings = [line for line in said_lines(res.output) if line.startswith("tichusim: warning:")]
    assert len(warnings) == 1 and "cut.tch:" in warnings[0]
    doc = json.loads(res.output[res.output.index("{") :])
    assert len(doc["rounds"]) == 1
    truncated = tmp_path / "short.tch"
    truncated.write_text(text[:300], encoding="utf-8")
    _one_error(_review(truncated, *QUICK), "short.tch")
