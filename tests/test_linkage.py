"""``tichusim._linkage`` (issue 17): the functions one of our entry points links in from its
callees become its own (``internal``) before LLVM optimises it once; our callees skip the
module pipeline, their own code calling their own copies. A user's own jitted functions are
left as numba makes them. That the engines' rounds are unchanged is held by the golden
transcripts and the engine tests; that a callee's own code runs right when Python calls it by
``tests/test_expert.py`` (its wrappers call policies compiled inside other compiles: it
crashed before the callees' copies were made their own); the speed by
``benchmarks/bench_trees.py``."""

import llvmlite.binding as ll
from numba import njit
from numba.core.compiler_lock import global_compiler_lock
from numba.core.registry import cpu_target

import tichusim.kernels  # noqa: F401  (installs it)
from tichusim import _linkage


def _kernel(module: str):
    def twice(x):
        return 2 * x

    twice.__module__ = module
    return njit(twice)


def test_installed():
    assert _linkage.installed()


def test_entry_points_and_callees_are_only_ours(monkeypatch):
    ours, users = _kernel("tichusim.kernels.probe"), _kernel("my_strategy")
    cases = (([ours], True, False), ([users], False, False), ([ours, ours], False, True),
             ([users, ours], False, True), ([ours, users], False, False), ([], False, False))
    for compiling, entry, callee in cases:
        monkeypatch.setattr(_linkage, "_compiling", compiling)
        assert _linkage._entry_point_of_ours() is entry, compiling
        assert _linkage._callee_of_ours() is callee, compiling


def _library(codegen, name: str, ir: str):
    library = codegen.create_library(name)
    library.add_llvm_module(ll.parse_assembly(ir))
    return library


def test_the_linked_callees_become_internal_the_entry_point_stays_external():
    codegen = cpu_target.target_context.codegen()
    callee = _library(codegen, "callee", "define i64 @callee(i64 %x) {\n ret i64 %x\n}")
    with global_compiler_lock:
        callee.finalize()
    entry = _library(codegen, "entry", "declare i64 @callee(i64)\n"
                     "define i64 @entry(i64 %x) {\n %y = call i64 @callee(i64 %x)\n ret i64 %y\n}")
    entry.add_linking_library(callee)
    entry._final_module.link_in(callee._get_module_for_linking(), preserve=True)
    assert entry._final_module.get_function("callee").linkage == ll.Linkage.linkonce_odr
    _linkage._make_linked_internal(entry)
    assert entry._final_module.get_function("callee").linkage == ll.Linkage.internal
    assert entry._final_module.get_function("entry").linkage == ll.Linkage.external


def test_a_kernel_calling_a_kernel_gives_the_same_answer():
    twice = _kernel("tichusim.kernels.probe")

    def four_times(x):
        return twice(twice(x)) + twice(0)

    four_times.__module__ = "tichusim.kernels.probe"
    assert njit(four_times)(21) == 84
