"""tichusim is a guest in its users' processes: after ``import tichusim`` and a simulation, a
user's own numba functions compile, link and cache exactly as they do without tichusim, and
CPython's allocator is untouched (``docs/compile.md``). Each side runs in a fresh process; the
user's module is the same file, compiled once with tichusim in the process and once without.
With every compile change switched off, the engines play the same rounds (golden transcripts,
a determinism sample): the changes alter speed only."""

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# a user's module: a callee called with constants (literal typing), an inlined helper, caching
USER_MODULE = textwrap.dedent("""
    from numba import njit

    @njit(inline="always")
    def low_bit(m):
        return m & -m

    @njit(cache=True)
    def scaled(a, b):
        return a * 10 + b + low_bit(a)

    @njit(cache=True)
    def total(x):
        s = 0
        for i in range(x):
            s += scaled(i, 1) + scaled(i, 2)
        return s
""")

PROBE = textwrap.dedent("""
    import ctypes, json, os, sys
    class Arena(ctypes.Structure):
        _fields_ = [("ctx", ctypes.c_void_p), ("alloc", ctypes.c_void_p), ("free", ctypes.c_void_p)]
    def arena():
        a = Arena()
        ctypes.pythonapi.PyObject_GetArenaAllocator(ctypes.byref(a))
        return [a.ctx, a.alloc, a.free]
    before = arena()
    env_before = dict(os.environ)
    if sys.argv[1] == "with":
        import tichusim
        tichusim.simulate(300, seed=1, strategies="expert")
    import numba
    import user_module
    result = int(user_module.total(50))
    sig = user_module.total.signatures[0]
    print(json.dumps({
        "result": result,
        "ir": user_module.total.inspect_llvm(sig),
        "callee_signatures": [str(s) for s in user_module.scaled.signatures],
        "cache_dir": numba.config.CACHE_DIR,
        "env_changed": sorted(k for k in set(os.environ) | set(env_before)
                              if os.environ.get(k) != env_before.get(k)),
        "arena_unchanged": arena() == before,
        "cache_files": sorted(
            os.listdir(os.path.join(os.path.dirname(user_module.__file__), "__pycache__"))
        ),
    }))
""")


def _uids_out(ir: str) -> str:
    """The IR without what differs between any two processes: numba's per-process function
    ids in mangled names (``B<len>v<uid>``) and so the lengths of the strings holding such
    names, and the module's own name."""
    ir = re.sub(r"B\d+v\d+", "Bv", ir)
    ir = re.sub(r"\[\d+ x i8\]", "[N x i8]", ir)
    return re.sub(r"^; ModuleID = .*$", "", ir, flags=re.M)


def _user_process(folder: Path, how: str) -> dict:
    """The probe in a fresh process, the user's module compiled afresh (its cache emptied)."""
    shutil.rmtree(folder / "__pycache__", ignore_errors=True)
    (folder / "user_module.py").write_text(USER_MODULE)
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env["PYTHONPATH"] = os.pathsep.join([str(folder), str(ROOT)])
    done = subprocess.run(
        [sys.executable, "-c", PROBE, how],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_a_users_functions_compile_link_and_cache_as_without_tichusim(tmp_path):
    without = _user_process(tmp_path, "without")
    with_ = _user_process(tmp_path, "with")
    assert with_["result"] == without["result"]
    # literal typing: the callee compiled once per set of constants, as numba does
    assert with_["callee_signatures"] == without["callee_signatures"]
    assert len(without["callee_signatures"]) > 1
    # the same module: callees linkonce_odr, numba's optimisation, numba's inlining
    assert _uids_out(with_["ir"]) == _uids_out(without["ir"])
    # cached where numba caches them (the module's __pycache__), no cache folder forced
    assert with_["cache_files"] == without["cache_files"]
    assert any(name.endswith(".nbi") for name in with_["cache_files"])
    assert with_["cache_dir"] == without["cache_dir"] == ""
    # no environment variable set, CPython's allocator untouched
    assert with_["env_changed"] == [] and with_["arena_unchanged"]


OFF_CHECK = textwrap.dedent("""
    import hashlib, sys
    sys.path.insert(0, "tests/games")
    import tichusim
    from tichusim._compile import guard
    from test_golden import regen
    from tichusim.games.transcript import transcript
    status = guard.status()
    assert all(state.startswith("off") for state in status.values()), status
    for seed, round_, strategies in regen.CASES:
        parts = strategies.split(",")
        got = transcript(seed, round_, strategies=parts[0] if len(parts) == 1 else parts)
        want = (regen.GOLDEN / regen.name(seed, round_, strategies)).read_text()
        assert got == want, (seed, round_, strategies)
    rounds, seats = tichusim.simulate(2000, seed=5, strategies="expert")
    digest = hashlib.sha256(rounds.to_csv().encode() + seats.to_csv().encode()).hexdigest()
    print(len(regen.CASES), digest)
""")


@pytest.mark.slow
def test_with_every_change_off_the_engines_play_the_same_rounds(tmp_path):
    env = os.environ | {"TICHUSIM_NUMBA_CHANGES": "0", "TICHUSIM_CACHE_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", OFF_CHECK],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=2400,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    cases, digest = done.stdout.split()
    assert int(cases) > 0
    import hashlib

    import tichusim

    rounds, seats = tichusim.simulate(2000, seed=5, strategies="expert")
    assert digest == hashlib.sha256(rounds.to_csv().encode() + seats.to_csv().encode()).hexdigest()
