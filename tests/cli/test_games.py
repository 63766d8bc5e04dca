"""``tichusim import``: played games read into a directory of tables, each problem one line on
stderr with the count at the end, exit status 2 and one line when nothing could be read, and
--resume finishing an import."""

import shutil
from pathlib import Path

import pandas as pd
from click.testing import CliRunner

from tichusim.cli import main

BSW = sorted((Path(__file__).resolve().parents[1] / "data" / "bsw").glob("*.tch"))


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_import_writes_the_tables_and_names_each_problem(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    for path in BSW:
        shutil.copy(path, games / path.name)
    lines = BSW[0].read_text(encoding="utf-8").splitlines()
    cut = games / "cut.tch"
    cut.write_text("\n".join(lines[:200]) + "\n", encoding="utf-8")  # a log cut off
    out = tmp_path / "out"
    res = run("import", games, "--out", out, "--quiet")
    assert res.exit_code == 0, res.stderr
    assert res.stdout == ""
    said = res.stderr.splitlines()
    assert said == [
        f"tichusim: skipped: {cut}:200: the round stops before its score (cut off)",
        f"tichusim: 1 problem(s), the rounds left out (the table {out}/problems)",
    ]
    rounds = pd.read_parquet(out / "rounds")
    assert len(rounds) == 32 and len(pd.read_parquet(out / "seats")) == 4 * 32
    assert len(pd.read_parquet(out / "moves")) > 60 * 32
    assert len(pd.read_parquet(out / "problems")) == 1
    # again: the same import, complete, reports the same and plays nothing
    again = run("import", games, "--out", out)
    assert again.exit_code == 0 and "0 shards played" in again.stdout
    assert again.stderr.splitlines()[-2:] == said


def test_nothing_readable_is_one_line_and_exit_2(tmp_path):
    """Not a log, a truncated log: one line naming file:line, exit status 2, no directory
    left (the progress bar aside: --quiet)."""
    notes = tmp_path / "notes.txt"
    notes.write_text("not a log\n")
    res = run("import", notes, "--out", tmp_path / "out")  # a bar, then the line
    assert res.exit_code == 2 and res.stderr.splitlines()[-1].startswith("tichusim: error:")
    res = run("import", notes, "--out", tmp_path / "out", "--quiet")
    assert res.exit_code == 2
    assert res.stderr.splitlines() == [
        f"tichusim: error: nothing could be read ({notes}:1: not a game log (a BSW .tch "
        "log, or a tichusim-game/1 JSON record))"
    ]
    assert not (tmp_path / "out").exists()  # nothing written
    truncated = tmp_path / "truncated.tch"
    truncated.write_text("\n".join(BSW[0].read_text().splitlines()[:40]) + "\n")
    res = run("import", truncated, "--out", tmp_path / "out", "--quiet")
    assert res.exit_code == 2
    assert res.stderr.splitlines() == [
        f"tichusim: error: nothing could be read ({truncated}:40: the round stops before its "
        "score (cut off))"
    ]
    for args in (
        ("import", tmp_path / "missing.tch", "--out", tmp_path / "out"),
        ("import", notes),
        ("import", "--resume", tmp_path / "out", "--out", tmp_path),
    ):
        res = run(*args)
        assert res.exit_code == 2 and len(res.stderr.splitlines()) == 1, (args, res.stderr)
        assert res.stderr.startswith("tichusim: error: ")


def test_resume_finishes_an_import(tmp_path):
    out = tmp_path / "out"
    assert run("import", *BSW, "--out", out, "--shard-size", "1", "--quiet").exit_code == 0
    (out / "rounds" / "part-00002.parquet").unlink()  # a lost part is read again
    res = run("import", "--resume", out)
    assert res.exit_code == 0, res.stderr
    assert "30 rounds of 3 files" in res.stdout and "1 shards played" in res.stdout
