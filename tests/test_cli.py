"""The command line: one-line errors with exit status 2, tables written whole."""

import pandas as pd
from click.testing import CliRunner

from tichusim.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_simulate_writes_parquet_and_summary(tmp_path):
    out = tmp_path / "run"
    res = run("simulate", "--rounds", "2000", "--seed", "3", "--out", str(out))
    assert res.exit_code == 0, res.output
    assert "double victories" in res.output and "[" in res.output  # estimates carry intervals
    rounds = pd.read_parquet(out / "rounds.parquet")
    seats = pd.read_parquet(out / "seats.parquet")
    assert len(rounds) == 2000 and len(seats) == 8000
    assert seats["hand14"].dtype == "uint64"
    # the same command again replaces the same tables
    assert run("simulate", "--rounds", "2000", "--seed", "3", "--out", str(out)).exit_code == 0
    assert pd.read_parquet(out / "rounds.parquet").equals(rounds)


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "other.txt").write_text("x")
    cases = [
        ("simulate", "--strategies", "nope"),
        ("simulate", "--strategies", "random,lowest"),
        ("simulate", "--rounds", "10", "--out", str(tmp_path)),
        ("legal", "Ma Ma"),
        ("legal", "Xx"),
        ("legal", "2j", "--top", "3j 4s"),
        ("legal", "2j", "--wish", "1"),
        ("show", "--strategies", "bogus"),
    ]
    for args in cases:
        res = run(*args)
        assert res.exit_code == 2, (args, res.output)
        lines = [line for line in res.output.splitlines() if line.strip()]
        assert len(lines) == 1 and "Traceback" not in res.output, (args, res.output)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.txt"]  # nothing written


def test_show_and_legal():
    res = run("show", "--seed", "1", "--round", "3")
    assert res.exit_code == 0 and "End: first out" in res.output
    res = run("legal", "5j 5s Ph", "--top", "4j 4s")
    assert res.exit_code == 0 and "3 plays; pass allowed" in res.output
