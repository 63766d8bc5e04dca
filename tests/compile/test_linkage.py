"""``tichusim._compile.linkage``: the functions one of our kernels links in from its callees become
its own (``internal``, renamed), while its callers still link numba's module; our callees skip
LLVM's module pipeline and are never made into machine code (their callers make theirs), with
no CPython wrapper, so a call from Python compiles the kernel again, whole, and the cache keeps
that one. A user's jitted function links our kernels whole, as numba links anything. That the
engines' rounds are unchanged is held by the golden transcripts and the engine tests; the speed
by ``benchmarks/bench_trees.py``."""

import os
import subprocess
import sys

import llvmlite.binding as ll
import numba
import pytest
from numba.core.compiler_lock import global_compiler_lock
from numba.core.registry import cpu_target

from tichusim._compile import guard, linkage
from tichusim.kernels.jit import njit

pytestmark = pytest.mark.skipif(not guard.usable("linkage"), reason="switched off here")


def _kernel():
    @njit
    def twice(x):
        return 2 * x

    return twice


def _library(codegen, name: str, ir: str, cls=None):
    library = cls(codegen, name) if cls else codegen.create_library(name)
    library.add_llvm_module(ll.parse_assembly(ir))
    return library


def test_the_linked_callees_become_internal_and_callers_still_link_numbas_module():
    codegen = cpu_target.target_context.codegen()
    callee = _library(codegen, "callee", "define i64 @callee(i64 %x) {\n ret i64 %x\n}")
    with global_compiler_lock:
        callee.finalize()
    entry = _library(
        codegen,
        "entry",
        "declare i64 @callee(i64)\n"
        "define i64 @entry(i64 %x) {\n %y = call i64 @callee(i64 %x)\n ret i64 %y\n}",
        linkage.KernelLibrary,
    )
    entry.add_linking_library(callee)
    entry._final_module.link_in(callee._get_module_for_linking(), preserve=True)
    assert entry._final_module.get_function("callee").linkage == ll.Linkage.linkonce_odr
    linkage._share_as_numba_does(entry)
    linkage._make_linked_internal(entry)
    own = entry._final_module
    (copy,) = [fn for fn in own.functions if fn.name.startswith("callee.own.")]
    assert copy.linkage == ll.Linkage.internal  # its own, under a name of its own
    assert all(fn.name != "callee" for fn in own.functions)
    assert own.get_function("entry").linkage == ll.Linkage.external
    shared = entry._shared_module  # what a caller of `entry` links (_get_module_for_linking)
    assert shared.get_function("callee").linkage == ll.Linkage.linkonce_odr
    assert shared.get_function("entry").linkage == ll.Linkage.linkonce_odr


def test_a_kernel_calling_a_kernel_gives_the_same_answer():
    twice = _kernel()

    @njit
    def four_times(x):
        return twice(twice(x)) + twice(0)

    assert four_times(21) == 84


def test_a_callee_has_no_wrapper_and_python_calling_it_compiles_it_whole():
    inner = _kernel()

    @njit
    def outer(x):
        return inner(x) + 1

    assert outer(3) == 7
    (callee,) = inner.overloads.values()
    assert not linkage.callable_overload(callee)  # typed and linked by `outer`, no wrapper
    assert callee.library.get_pointer_to_function(callee.fndesc.llvm_cpython_wrapper_name) == 0
    assert inner(5) == 10  # from Python: compiled again at the top, with its wrapper
    (whole,) = inner.overloads.values()
    assert linkage.callable_overload(whole) and whole is not callee


def test_a_callee_has_no_machine_code_and_its_errors_still_reach_python(monkeypatch):
    engine = cpu_target.target_context.codegen()._engine
    made, add_module = [], engine.add_module
    monkeypatch.setattr(engine, "add_module", lambda m: made.append(m.name) or add_module(m))

    @njit
    def check(x):
        if x < 0:
            raise ValueError("negative", x)  # its arguments boxed through the environment
        return x

    @njit
    def outer(x):
        return check(x) + 1

    assert outer(2) == 3
    (callee,) = check.overloads.values()
    (entry,) = outer.overloads.values()
    # the JIT made machine code of its caller's module only, which holds a copy of it
    assert entry.library.name in made and callee.library.name not in made
    # its callers link its module, which is all its cache entry holds
    assert callee.library.serialize_using_object_code()[1] == linkage.LINKING_ONLY
    with pytest.raises(ValueError, match="negative"):  # its caller set its environment
        outer(-5)


def test_a_users_function_links_our_kernels_whole_as_numba_links_anything():
    """A user's jitted function calls one of ours, which calls another: ours compiles at the
    top (whole, callable), the user's library is numba's own and keeps numba's linkage."""

    @njit
    def check(x):
        if x < 0:
            raise ValueError("negative", x)
        return 3 * x

    @njit
    def ours(x):
        return check(x) + 1

    @numba.njit
    def users(x):
        return ours(x) * 10

    assert users(2) == 70
    with pytest.raises(ValueError, match="negative"):
        users(-1)
    (entry,) = ours.overloads.values()
    assert linkage.callable_overload(entry)  # whole: it was compiled at the top
    (mine,) = users.overloads.values()
    assert type(mine.library) is not linkage.KernelLibrary
    module = mine.library._final_module
    assert not [fn.name for fn in module.functions if ".own." in fn.name]  # no copies made ours
    # (that its code is numba's own, byte for byte, is tests/compile/test_guest.py's)


_PROBE = """
from tichusim.kernels.jit import njit


def inner(x):
    return 2 * x


def outer(x):
    return inner(x) + 1


def other(x):
    return inner(x) - 1


inner, outer, other = njit(cache=True)(inner), njit(cache=True)(outer), njit(cache=True)(other)
"""


@pytest.mark.slow
def test_a_cached_callee_is_not_what_python_calls(tmp_path):
    (tmp_path / "probe.py").write_text(_PROBE)
    path = os.pathsep.join(filter(None, (str(tmp_path), os.environ.get("PYTHONPATH"))))
    env = os.environ | {"TICHUSIM_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": path}

    def run(code: str) -> list[str]:
        script = f"from tichusim._compile import linkage\nimport probe\n{code}"
        done = subprocess.run(
            [sys.executable, "-c", script],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout.split()

    # 1: `outer` compiles `inner` as its callee, and the cache keeps it (no wrapper)
    assert run("print(probe.outer(3))") == ["7"]
    # another kernel calling `inner` links the cached callee (a module, no machine code)
    assert run("print(probe.other(3), sum(probe.inner.stats.cache_hits.values()))") == ["5", "1"]
    # 2: Python calls `inner`: the cached callee won't do, so it compiles whole and replaces it
    calls = (
        "print(probe.inner(5), linkage.callable_overload(*probe.inner.overloads.values()), "
        "sum(probe.inner.stats.cache_hits.values()))"
    )
    assert run(calls) == ["10", "True", "0"]
    # 3: the whole one comes from the cache now
    assert run(calls) == ["10", "True", "1"]
    # 4: a callee that another process compiled before 2 saved, and saved after (here: both
    # kernels' cache reads nothing while `outer` compiles) does not replace the whole one
    late = (
        "probe.outer._cache._cache_file.load = probe.inner._cache._cache_file.load = "
        "lambda key: None\n"
        "print(probe.outer(3), sum(probe.inner.stats.cache_misses.values()))"
    )
    assert run(late) == ["7", "1"]  # `inner` compiled as a callee
    assert run(calls) == ["10", "True", "1"]


def test_turning_it_off_gives_its_own_cache_folder():
    # numba alone cannot load a callee's entry (no machine code): it must never see one
    def folder(**switches) -> str:
        drop = ("NUMBA_CACHE_DIR", "TICHUSIM_CACHE_DIR")
        env = {k: v for k, v in os.environ.items() if k not in drop} | switches
        code = "from tichusim._compile.cache import cache_dir; print(cache_dir())"
        return subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        ).stdout

    on = folder()
    assert folder(TICHUSIM_OWN_CALLEES="1") == on
    assert folder(TICHUSIM_OWN_CALLEES="0") != on
