"""``tichusim warmup`` compiles every kernel the commands use: after it, a session that runs
each command of the README (every variant) writes nothing new to the numba cache.

The cache starts empty (a folder of the test's own), else kernels compiled by earlier tests
would hide what warmup missed; so this test pays one cold compile (a minute or two)."""

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tichusim._compile import pack
from tichusim.warmup import ORDER

ROOT = Path(__file__).resolve().parents[2]

# Every command of the README, in every game, as a user types them (in one process).
SESSION = textwrap.dedent("""
    import sys
    from click.testing import CliRunner
    from tichusim.cli import main

    out = sys.argv[1]
    commands = [
        ["legal", "Ma 2j 3s 4p 5t Ph 7j", "--top", "2s", "--wish", "5"],
        ["gt-odds", "--hand", "Dr Ph A A K 9 5 3", "--rounds", "300", "--quiet"],
        ["gt-table", "--deals", "1000", "--quiet"],
        ["compare", "heuristic", "lowest", "random", "--deals", "50", "--quiet"],
        ["compare", "heuristic", "lowest", "--deals", "50", "--variant", "tientsin"],
        ["simulate", "--rounds", "50", "--players", "9", "--variant", "grand-seigneur"],
        ["show", "--variant", "grand-seigneur", "--players", "7", "--round", "3"],
    ]
    for variant in ("nanjing", "tientsin", "wuwang"):
        commands += [["simulate", "--rounds", "50", "--variant", variant, "--check"],
                     ["show", "--variant", variant, "--round", "2"]]
    for config in ("quick", "games", "tientsin", "wuwang", "grand_seigneur"):
        run_dir = f"{out}/{config}"
        by_games = config in ("games", "wuwang", "grand_seigneur")
        small = ["--games", "2"] if by_games else ["--rounds", "60"]
        commands += [["run", f"configs/{config}.toml", "--out", run_dir, "--quiet", *small],
                     ["verify", run_dir], ["report", run_dir]]
    # a game written as a log, then imported and reviewed (the 4-player game's)
    game = f"{out}/game.tch"
    commands += [["show", "--round", "2", "--log", game],
                 ["import", game, "--out", f"{out}/imported", "--workers", "1", "--quiet"],
                 ["review", game, "--player", "0", "--effort", "quick", "--quiet"]]
    for command in commands:
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 0, (command, result.output)

    # tichusim._compile.linkage compiles a callee without the module pipeline or a CPython wrapper,
    # and a kernel that Python calls with a callee's signature again, whole: no kernel that
    # Python calls (loaded here, lazily typed) and that calls kernels itself may be another
    # kernel's callee, or a cold start compiles it twice (a leaf, such as the tables' seat
    # counts, is cheap to compile twice)
    import types
    from numba.core.dispatcher import Dispatcher

    kernels = {value for name, module in list(sys.modules.items())
               if name.startswith("tichusim.kernels.") for value in vars(module).values()
               if isinstance(value, Dispatcher) and value.py_func.__module__ == name}

    def callees(kernel):
        codes, names = [kernel.py_func.__code__], set()
        while codes:
            code = codes.pop()
            names.update(code.co_names)
            codes += [c for c in code.co_consts if isinstance(c, types.CodeType)]
        for name in names:  # a kernel by its name, or as an attribute of a module
            value = kernel.py_func.__globals__.get(name)
            module = isinstance(value, types.ModuleType)
            found = [getattr(value, n, None) for n in names] if module else [value]
            yield from (v for v in found if isinstance(v, Dispatcher) and v is not kernel)

    from_python = {k for k in kernels if k.overloads and k._can_compile}
    assert len(from_python) >= 8, sorted(k.py_func.__qualname__ for k in from_python)
    both = {k for k in from_python & {c for k in kernels for c in callees(k)} if any(callees(k))}
    assert not both, sorted(k.py_func.__qualname__ for k in both)
""")


def cache_files(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*.nb*")}


@pytest.mark.slow
@pytest.mark.parametrize("host", [True, False], ids=["compiled", "from the pack"])
def test_after_warmup_no_command_compiles_anything(tmp_path, host):
    """``warmup --host`` compiles every kernel for this CPU (the pack's passed over) and puts
    them in the cache's place; a plain ``warmup`` loads the pack, which holds every kernel
    (where it serves this CPU: ``_compile/pack.py``).

    Where the pack serves this CPU and was built from these very sources (``pack.sources``:
    every module of the package), its build ran this warmup's compile, the pack off, and the
    case "from the pack" holds its result to the same assertions: the compile is not repeated
    (five minutes of the slow tier on two cores)."""
    serves = not pack.describe(pack.host_cpu()).startswith("not used")
    if not host and not serves:
        pytest.skip(f"kernel pack {pack.describe(pack.host_cpu())}")
    built = pack.read_meta()
    if host and serves and built is not None and built.get("sources") == pack.sources():
        pytest.skip("the pack serving this CPU was compiled by this warmup: 'from the pack'")
    cache = tmp_path / "numba-cache"
    env = os.environ | {"TICHUSIM_CACHE_DIR": str(cache), pack.SWITCH: "1"}
    warm = subprocess.run(
        [sys.executable, "-m", "tichusim.cli", "warmup", *(["--host"] if host else [])],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert warm.returncode == 0, warm.stderr
    said = warm.stderr.splitlines()
    assert said[0].startswith("tichusim: compiling every kernel family"), said
    # one line per family with its measured seconds; no notice from the kernels it compiles
    assert all(re.match(r"  \w+ +\d+\.\d s  ", line) for line in said[1:]), said
    assert {line.split()[0] for line in said[1:]} == set(ORDER)
    before = cache_files(cache)
    assert len(before) > 50  # the kernels are there
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("numba-cache")] == [
        "numba-cache"  # with --host, built aside and renamed into place
    ]
    seeded = list(cache.glob(".pack-*"))
    assert (seeded == []) == host  # compiled here, or copied from the pack
    again = subprocess.run(
        [sys.executable, "-m", "tichusim.cli", "warmup"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert again.returncode == 0, again.stderr
    compiling = [line for line in again.stderr.splitlines()[1:] if "compil" in line]
    assert not compiling, again.stderr  # nothing to compile: no notice
    session = subprocess.run(
        [sys.executable, "-c", SESSION, str(tmp_path / "runs")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert session.returncode == 0, session.stderr[-2000:]
    after = cache_files(cache)
    compiled = sorted(name for name in after if before.get(name) != after[name])
    assert not compiled, f"compiled after warmup: {compiled}"


def test_a_family_starts_once_what_it_reuses_is_cached():
    """The schedule's rules (no compile): the rules core first; the 4-player engine and Grand
    Seigneur's after it; a table that reuses the 4-player family's strategies' kernels as soon
    as those are cached, before that family ends, never before it has started."""
    from tichusim.warmup import NEEDS, TITLES, _ready

    def ready(name, done=(), started=(), shares=False):
        return _ready(name, set(done), set(started), lambda: shares)

    assert set(NEEDS) == set(ORDER) == set(TITLES)
    for i, name in enumerate(ORDER):  # with one process, ORDER is the compile order
        assert all(ORDER.index(need) < i for need in NEEDS[name]), name
    assert ready("cards") and not ready("nanjing") and not ready("seigneur")
    assert ready("nanjing", done={"cards"}) and ready("seigneur", done={"cards"})
    for name in ("tientsin", "wuwang", "stepping"):
        assert not ready(name, done={"cards"}, shares=True)  # the 4-player family not started
        assert not ready(name, done={"cards"}, started={"cards", "nanjing"})
        assert ready(name, done={"cards"}, started={"cards", "nanjing"}, shares=True)
        assert ready(name, done={"cards", "nanjing"})
    assert not ready("analysis", done={"cards"}, started={"cards", "nanjing"}, shares=True)


def test_host_compiles_aside_and_replaces_the_cache_folder(tmp_path):
    """``warmup --host`` builds in a folder beside the cache's and renames it into place (the
    compile itself: the slow test above)."""
    from tichusim.warmup import _replace

    folder, new = tmp_path / "key", tmp_path / "key.host-1"
    new.mkdir()
    (new / "compiled").write_text("this CPU's")
    _replace(folder, new)  # no cache folder yet
    assert [p.name for p in tmp_path.iterdir()] == ["key"]
    again = tmp_path / "key.host-2"
    again.mkdir()
    (again / "compiled-again").write_text("this CPU's")
    _replace(folder, again)  # the old one gone
    assert [p.name for p in tmp_path.iterdir()] == ["key"]
    assert [p.name for p in folder.iterdir()] == ["compiled-again"]
