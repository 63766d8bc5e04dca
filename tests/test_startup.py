"""First use: ``import tichusim`` loads nothing heavy, a cold-cache command says
on stderr that it compiles before it does, and a reported rate never includes a compile.

The cold case runs a command of the smallest kernel family (``tichusim legal``: the card
combinations, about 15-20 s) in a fresh numba cache folder of its own."""

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

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numba", "pandas", "pyarrow", "pydantic", "matplotlib", "dask")


def tichusim_process(code: str, cache: Path | None = None) -> subprocess.CompletedProcess:
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    if cache is not None:
        env["TICHUSIM_CACHE_DIR"] = str(cache)
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


@pytest.mark.slow
def test_a_cold_cache_command_says_it_compiles_before_it_does(tmp_path):
    legal = ["-m", "tichusim.cli", "legal", "Ma 2j 3s 4p 5t"]
    cold = tichusim_process(legal, tmp_path / "cache")
    lines = cold.stderr.splitlines()
    assert lines[0].startswith("tichusim: compiling the card-combination kernels")
    assert "once" in lines[0] and re.search(r"about \d+ s", lines[0])
    assert re.match(r"tichusim: compiled .* in \d+ s$", lines[-1])
    assert cold.stdout.endswith("plays; pass not allowed\n")  # the answer, on stdout
    warm = tichusim_process(legal, tmp_path / "cache")
    assert warm.stderr == "" and warm.stdout == cold.stdout  # cached: nothing to say


class _SlowCompile:
    """Stands in for a cold compile: a notice, then seconds of work before the clock starts."""

    cold = active = True

    def __enter__(self):
        time.sleep(1.5)
        return self

    def __exit__(self, *exc):
        pass


def test_a_reported_rate_excludes_the_compile(tmp_path, monkeypatch):
    # a compile of 1.5 s before 200 rounds (milliseconds): a rate whose window held it would
    # report at most 200 / 1.5 rounds/s
    monkeypatch.setattr(cli, "compiling", lambda *a, **k: _SlowCompile())
    res = CliRunner().invoke(cli.main, ["simulate", "--rounds", "200"])
    seconds = float(re.search(r"200 rounds in ([\d.]+) s", res.output).group(1))
    assert res.exit_code == 0 and seconds < 1.0, res.output

    monkeypatch.setattr(runner, "compiling", lambda *a, **k: _SlowCompile())
    summary = runner.run(
        {"rounds": 200, "seed": 1, "strategies": "random"},
        out=tmp_path / "run",
        workers=1,
        progress=False,
    )
    assert summary.rounds_played == 200 and summary.seconds < 1.0


def test_a_compile_is_announced_once_however_its_blocks_nest(capsys):
    # a run's compile holds its first round's, which announces the same engine (an Agent's
    # stepping engine): one notice and one "compiled"; a different kernel family still speaks
    from tichusim.progress import Compiling

    with Compiling("the engine", 20):
        with Compiling("the engine", 20):
            with Compiling("the cards", 9):
                pass
    with Compiling("the engine", 20):  # a later compile of the same kernels (another cache)
        pass
    said = [
        re.match(r"tichusim: (compil\w+ the \w+)", line)[1]
        for line in capsys.readouterr().err.splitlines()
    ]
    assert said == [
        "compiling the engine",
        "compiling the cards",
        "compiled the cards",
        "compiled the engine",
        "compiling the engine",
        "compiled the engine",
    ]


@pytest.mark.slow
def test_the_analyses_answer_with_seconds_of_play_and_start_their_bars_after_the_compile(
    monkeypatch,
):
    from tichusim.analysis import duplicate, gtodds, gttable, played_once, tichuodds

    events = []

    class Compile(_SlowCompile):
        def __enter__(self):
            events.append("compile")
            return super().__enter__()

    monkeypatch.setattr(played_once, "compiling", lambda *a, **k: Compile())

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
