"""``tichusim._linkage`` (issue 17): the functions a library links in from its callees become
its own (``internal``), while its callers still link numba's module; our callees skip LLVM's
module pipeline. That the engines' rounds are unchanged is held by the golden transcripts and
the engine tests; that code mixing kinds of libraries runs right by ``tests/test_expert.py``
(its jitted wrappers, a user's functions, call policies compiled inside the engine's compile:
they crashed while a library's code could call another library's copies); the speed by
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


def test_only_our_kernels_compiled_inside_another_compile_are_callees(monkeypatch):
    ours, users = _kernel("tichusim.kernels.probe"), _kernel("my_strategy")
    cases = (([ours], False), ([users], False), ([ours, ours], True), ([users, ours], True),
             ([ours, users], False), ([], False))
    for compiling, callee in cases:
        monkeypatch.setattr(_linkage, "_compiling", compiling)
        assert _linkage._callee_of_ours() is callee, compiling


def _library(codegen, name: str, ir: str):
    library = codegen.create_library(name)
    library.add_llvm_module(ll.parse_assembly(ir))
    return library


def test_the_linked_callees_become_internal_and_callers_still_link_numbas_module():
    codegen = cpu_target.target_context.codegen()
    callee = _library(codegen, "callee", "define i64 @callee(i64 %x) {\n ret i64 %x\n}")
    with global_compiler_lock:
        callee.finalize()
    entry = _library(codegen, "entry", "declare i64 @callee(i64)\n"
                     "define i64 @entry(i64 %x) {\n %y = call i64 @callee(i64 %x)\n ret i64 %y\n}")
    entry.add_linking_library(callee)
    entry._final_module.link_in(callee._get_module_for_linking(), preserve=True)
    assert entry._final_module.get_function("callee").linkage == ll.Linkage.linkonce_odr
    _linkage._share_as_numba_does(entry)
    _linkage._make_linked_internal(entry)
    own = entry._final_module
    assert own.get_function("callee").linkage == ll.Linkage.internal
    assert own.get_function("entry").linkage == ll.Linkage.external
    shared = entry._shared_module  # what a caller of `entry` links (_get_module_for_linking)
    assert shared.get_function("callee").linkage == ll.Linkage.linkonce_odr
    assert shared.get_function("entry").linkage == ll.Linkage.linkonce_odr


def test_a_kernel_calling_a_kernel_gives_the_same_answer():
    twice = _kernel("tichusim.kernels.probe")

    def four_times(x):
        return twice(twice(x)) + twice(0)

    four_times.__module__ = "tichusim.kernels.probe"
    assert njit(four_times)(21) == 84
