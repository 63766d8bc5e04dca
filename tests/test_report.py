"""report: a Markdown summary and PNG plots written into a run directory."""

import re

import pandas as pd
from click.testing import CliRunner

from tichusim.cli import main
from tichusim.runner import run

FIGURES = ["call_success.png", "finish.png", "scores.png"]


def _check(run_dir):
    res = CliRunner().invoke(main, ["report", str(run_dir)])
    assert res.exit_code == 0, res.output
    text = (run_dir / "report.md").read_text()
    assert sorted(p.name for p in (run_dir / "report").iterdir()) == FIGURES
    for name in FIGURES:
        assert (run_dir / "report" / name).read_bytes()[:4] == b"\x89PNG"
        assert f"(report/{name})" in text
    return text


def test_report_of_a_run_directory(tmp_path):
    gt = {"base": "heuristic", "grand_tichu": "always", "name": "gt"}
    cfg = {"rounds": 3000, "seed": 5, "shard_size": 1000,
           "strategies": [gt, "lowest", gt, "lowest"]}  # fmt: skip
    out = tmp_path / "run"
    run(cfg, out=out, workers=1, progress=False)
    text = _check(out)
    assert "3 of 3 shards done" in text and "3,000 rounds" in text
    rounds = pd.read_parquet(out / "rounds")
    dv = rounds["double_victory"].mean()
    assert re.search(rf"\| double victories \| {100 * dv:.1f}% \[", text)
    assert "| Grand Tichu | " in text  # every round has two Grand Tichu calls
    # one strategy per team: its team's figures are the team's, per round (not per seat)
    t0 = rounds["score_team0"].mean()
    assert f"| gt | 6,000 | {t0:+.1f} [" in text
    won = rounds["double_victory"] & (rounds["first_out"] % 2 == 0)
    gt_row = next(line for line in text.splitlines() if line.startswith("| gt | 6,000 |"))
    last_cell = gt_row.strip("| ").split(" | ")[-1]  # double victory (its team)
    assert last_cell.startswith(f"{100 * won.mean():.1f}% [")


def test_report_of_a_simulate_folder(tmp_path):
    out = tmp_path / "sim"
    assert CliRunner().invoke(main, ["simulate", "--rounds", "1500", "--strategies", "heuristic",
                                     "--out", str(out)]).exit_code == 0  # fmt: skip
    text = _check(out)
    assert "| seat 0 |" in text  # one strategy: finishing positions per seat


def test_report_refuses_a_folder_without_a_run(tmp_path):
    res = CliRunner().invoke(main, ["report", str(tmp_path)])
    assert res.exit_code == 2
    assert res.output.strip().count("\n") == 0 and "holds no run" in res.output
    assert list(tmp_path.iterdir()) == []
