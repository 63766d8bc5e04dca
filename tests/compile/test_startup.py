"""First use: ``import tichusim`` loads nothing heavy, a cold-cache command says
on stderr that it compiles before it does, and a reported rate never includes a compile.

The cold case runs a command that compiles only the kernels its modules compile as they load
(``tichusim legal``: the card combinations, about 15-20 s) in a fresh kernel cache folder of
its own (``tests/compile/test_compile_notice.py`` tests the notice itself)."""

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import tichusim
from tichusim import cli
from tichusim.runs import runner

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numba", "pandas", "pyarrow", "pydantic", "matplotlib", "dask")


def tichusim_process(code: str, cache: Path | None = None) -> subprocess.CompletedProcess:
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    if cache is not None:  # a cache of its own that starts cold: compiled, not from the pack
        env["TICHUSIM_CACHE_DIR"] = str(cache)
        env["TICHUSIM_KERNEL_PACK"] = "0"
    return subprocess.run(
        [sys.executable, *code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )


def test_import_loads_no_heavy_module_and_lists_the_public_names():
    code = f"import sys, tichusim; print([m for m in {HEAVY!r} if m in sys.modules])"
    assert tichusim_process(["-c", code]).stdout.strip() == "[]"
    assert {"simulate", "simulate_games", "legal_plays", "classify", "cards", "run"} <= set(
        dir(tichusim)
    )
    assert tichusim.classify is tichusim.cards.combos.classify  # loaded on first use


def test_a_command_loads_no_kernel_before_it_runs():
    """What every command runs first (the group's callback) loads no heavy module: a command
    that plays nothing compiles nothing, and ``warmup`` reports every compile itself."""
    code = (
        "import sys; from tichusim import cli; cli.main.callback(); "
        f"print([m for m in {HEAVY!r} if m in sys.modules])"
    )
    assert tichusim_process(["-c", code]).stdout.strip() == "[]"


@pytest.mark.slow
def test_a_cold_cache_command_says_it_compiles_before_it_does(tmp_path):
    legal = ["-m", "tichusim.cli", "legal", "Ma 2j 3s 4p 5t"]
    cold = tichusim_process(legal, tmp_path / "cache")
    lines = cold.stderr.splitlines()
    assert lines[0] == (
        "tichusim: compiling the kernels of the modules loading: once, cached for later runs"
    )
    # measured, and said when the process ends (nothing compiles after the modules load)
    assert re.match(r"tichusim: compiled \d+ kernels of kernels\.\w+.* in \d+ s$", lines[-1])
    assert len(lines) == 2
    assert cold.stdout.endswith("plays; pass not allowed\n")  # the answer, on stdout
    warm = tichusim_process(legal, tmp_path / "cache")
    assert warm.stderr == "" and warm.stdout == cold.stdout  # cached: nothing to say


def _slow_first_call(play):
    """``play`` whose first call takes 1.5 s more, as a cold compile would."""
    calls = []

    def slow(*args, **kwargs):
        if not calls:
            calls.append(1)
            time.sleep(1.5)
        return play(*args, **kwargs)

    return slow


def test_a_reported_rate_excludes_the_compile(tmp_path, monkeypatch):
    # a compile of 1.5 s before 200 rounds (milliseconds): a rate whose window held it would
    # report at most 200 / 1.5 rounds/s
    from tichusim.games import game

    kind = type(game("nanjing"))
    monkeypatch.setattr(kind, "records", _slow_first_call(kind.records))
    res = CliRunner().invoke(cli.main, ["simulate", "--rounds", "200"])
    seconds = float(re.search(r"200 rounds in ([\d.]+) s", res.output).group(1))
    assert res.exit_code == 0 and seconds < 1.0, res.output

    monkeypatch.setattr(runner, "records", _slow_first_call(runner.records))
    summary = runner.run(
        {"rounds": 200, "seed": 1, "strategies": "random"},
        out=tmp_path / "run",
        workers=1,
        progress=False,
    )
    assert summary.rounds_played == 200 and summary.seconds < 1.0


@pytest.mark.slow
def test_the_analyses_answer_with_seconds_of_play_and_start_their_bars_after_the_compile(
    monkeypatch,
):
    from tichusim.analysis import duplicate, gtodds, gttable, played_once, tichuodds

    events = []

    def compile_first(play):
        events.append("compile")
        time.sleep(1.5)  # as a cold compile would
        played_once.played_once(play)

    for module in (duplicate, gtodds, gttable, tichuodds):
        monkeypatch.setattr(module, "played_once", compile_first)

    def started(done, total, *estimate):
        events.append(done)

    answers = [
        gtodds.gt_odds("Dr Ph A A K 9 5 3", deals=100, progress=started),
        tichuodds.tichu_odds("Dr Ph Aj As K K Q J T 9 7 5 3 2", deals=100, progress=started),
        duplicate.league(["lowest", "random", "heuristic"], 50, progress=started),
    ]
    seconds = [a.seconds for a in answers] + [duplicate.duplicate("lowest", "random", 50).seconds]
    table = gttable.run_experiment(200, progress=started)
    # every compile (1.5 s here) came before the clock, and before the bar's first update
    assert max(seconds) < 1.0 and table.info["seconds"] < 1.0, (seconds, table.info)
    # each starts its bar (done 0) right after its compile; a league's matches (compiled by
    # then, each played once more) come after its bar started
    answer = [e for e in events if e == "compile" or e == 0]
    assert answer == (
        ["compile", 0] * 2
        + ["compile", 0]
        + ["compile"] * 3  # odds, league
        + ["compile"]
        + ["compile", 0]
    ), answer  # a match, gt-table
