"""The compile notice (``tichusim._compile.notice``): a kernel of ours that compiles from Python
says so once on stderr before the wait and its time after; the kernels a module compiles as it
loads share one notice; a cache hit, a callee's compile and a user's own numba function say
nothing; ``compile_notices(False)`` and the command line's ``--quiet`` switch it off."""

import importlib
import re
import sys
import textwrap
import time

import numba
import pytest
from click.testing import CliRunner

from tichusim import cli, compile_notices
from tichusim._compile import notice

KERNELS = textwrap.dedent("""
    from numba import types

    from tichusim.kernels.jit import njit


    @njit(types.int64(types.int64), cache=True)
    def declared(x):
        return x - 1


    @njit(types.int64(types.int64), cache=True)
    def declared_too(x):
        return x * 3


    @njit(cache=True)
    def callee(x):
        return x + 1


    @njit(cache=True)
    def entry(x):
        return callee(x) * 2
""")


@pytest.fixture
def kernels(tmp_path, monkeypatch, capsys):
    """A module of kernels of ours, new to the process, cached in a folder of the test's own;
    ``kernels()`` imports it afresh (a later import loads what an earlier one compiled)."""
    # a notice of modules loading that an earlier test in this worker left open (its kernel
    # modules compiled on a cold cache) is closed first, and its line not taken for ours
    notice._close()
    capsys.readouterr()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "notice_probe.py").write_text(KERNELS)
    monkeypatch.setenv("TICHUSIM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    monkeypatch.setattr(notice, "ANNOUNCE_AFTER", 0)  # the probe's compiles are quick

    def load():
        sys.modules.pop("notice_probe", None)
        return importlib.import_module("notice_probe")

    yield load
    sys.modules.pop("notice_probe", None)
    notice._close()  # a notice of modules loading left open by the test


def said(capsys) -> list[str]:
    return [line for line in capsys.readouterr().err.splitlines() if line.startswith("tichusim")]


def test_a_cold_compile_says_so_once_with_its_time_and_a_cache_hit_says_nothing(kernels, capsys):
    probe = kernels()
    assert probe.entry(3) == 8
    assert probe.entry(4) == 10  # compiled: no second notice
    lines = said(capsys)
    assert (
        lines[0]
        == "tichusim: compiling the kernels of the modules loading: once, cached for later runs"
    )
    # the declared signatures' notice closes as a kernel called from Python starts compiling
    assert re.fullmatch(r"tichusim: compiled 2 kernels of notice_probe in \d+ s", lines[1])
    assert lines[2] == "tichusim: compiling notice_probe.entry: once, cached for later runs"
    assert re.fullmatch(r"tichusim: compiled notice_probe.entry in \d+ s", lines[3])
    assert len(lines) == 4  # the callee, compiled for its caller: no notice of its own
    warm = kernels()  # new dispatchers, loaded from the cache
    assert warm.entry(3) == 8 and warm.declared(3) == 2
    assert said(capsys) == []


def test_a_users_own_numba_function_says_nothing(capsys):
    @numba.njit
    def users_own(x):
        return x + 7

    assert users_own(1) == 8
    assert said(capsys) == []


def test_compile_notices_switches_the_notice_off_and_back(kernels, capsys):
    with compile_notices(False):
        probe = kernels()
        assert probe.entry(3) == 8
    assert said(capsys) == []
    assert notice._on
    compile_notices(False)
    try:
        assert kernels().entry(5) == 12
    finally:
        compile_notices(True)
    assert said(capsys) == []


def test_quiet_switches_the_notice_off_for_the_command(monkeypatch):
    from tichusim.analysis import gtodds

    heard = []

    def ask(*args, **kwargs):
        heard.append(notice._on)
        raise ValueError("asked")

    monkeypatch.setattr(gtodds, "gt_odds", ask)
    for flags in (["--quiet"], []):
        CliRunner().invoke(cli.main, ["gt-odds", "--hand", "Dr Ph A A K 9 5 3", *flags])
    assert heard == [False, True]
    assert notice._on  # as it was after the command


def test_compiles_quicker_than_the_grace_say_nothing(kernels, capsys, monkeypatch):
    monkeypatch.setattr(notice, "ANNOUNCE_AFTER", 600)  # far longer than the probe's compiles
    probe = kernels()
    assert probe.entry(3) == 8
    notice._close()
    assert said(capsys) == []


def test_a_notice_speaks_once_its_compiles_have_run_the_grace(monkeypatch, capsys):
    monkeypatch.setattr(notice, "ANNOUNCE_AFTER", 0.2)
    long = notice._Notice("kernels.probe.long", on_load=False)
    long.compiling()
    time.sleep(0.6)  # a compile of more than the grace: the notice speaks while it runs
    assert said(capsys) == ["tichusim: compiling kernels.probe.long: once, cached for later runs"]
    long.compiled()
    long.close()
    assert re.fullmatch(r"tichusim: compiled kernels.probe.long in \d+ s", *said(capsys))
    several = notice._Notice("kernels.probe.a", on_load=True)
    for _ in range(4):  # quick compiles: the fourth starts past the grace, the notice speaks
        several.compiling()
        time.sleep(0.09)
        several.compiled()
    assert said(capsys) == [
        "tichusim: compiling the kernels of the modules loading: once, cached for later runs"
    ]
