"""LLVM's module optimisation once per entry point, over code that is the entry point's own
(issue 17): a cold compile of the 4-player engine 38 → 28 s, and the engines 1.5 to 1.9 times
as fast.

Numba compiles each jitted function into its own LLVM module and finalises it: it links in
the modules of the jitted functions it calls, runs LLVM's full -O3 module pipeline over the
whole, generates machine code and caches both. A caller links its callees' *optimised*
modules and runs the same pipeline over everything again, so a kernel called N deep is
optimised N + 1 times: in a cold compile of the 4-player engine the pipeline took 14.5 s, all
but 2.9 s of it in the modules of callees. And the linked callees stay ``linkonce_odr``, which
tells LLVM that other modules may hold the same functions: it must keep each one whole for
outside callers, so it cannot specialise it to its call sites (constant arguments, dead
arguments, a single caller); and in the process that compiled them, the JIT links the entry
point's calls to the callees' own copies, loaded first, not to its own.

``install()`` changes two things, for our kernels (``tichusim.kernels``) only:

- a kernel compiled *inside another compile* (a callee, reached while numba types its caller)
  skips the module pipeline. Numba still runs its per-function passes, makes and caches its
  machine code, and hands its module to the callers that link it;
- a library compiled at the top (an entry point: a kernel called from Python, or one compiled
  at import from its declared signature) makes the functions it linked in ``internal`` before
  the full pipeline runs over it once: they are its own copies, for its own calls.

Measured side by side (``benchmarks/bench_trees.py``, ``bench_startup.py``): every table plays
the same rounds, byte for byte, 1.5 to 1.9 times as fast, and a cold compile of an engine is a
quarter shorter.

What it trades: a callee's own machine code has no module-level optimisation (no inlining
across functions). Only a call from Python would run it, and no kernel is both a callee and
called from Python with its signature compiled lazily (``tests/test_warmup.py`` checks that
over every README command): the card kernels that are both compile at import, at the top.
Only for the numba versions this was checked against (``_CHECKED``);
``TICHUSIM_MODULE_PASSES_ONCE=0`` leaves numba alone.
"""

from __future__ import annotations

import os

__all__ = ["install", "installed"]

_CHECKED = ((0, 68), (0, 68))  # first and last numba minor version checked
_OURS = "tichusim.kernels"
_compiling: list = []  # the dispatchers compiling now, outermost first (under numba's lock)
_installed = False


def _applies(numba) -> bool:
    version = tuple(int(part) for part in numba.__version__.split(".")[:2])
    return (_CHECKED[0] <= version <= _CHECKED[1]
            and os.environ.get("TICHUSIM_MODULE_PASSES_ONCE", "1") != "0")  # fmt: skip


def _callee_of_ours() -> bool:
    """Whether the library being finalised is a kernel's compiled inside another compile."""
    return len(_compiling) > 1 and _compiling[-1].py_func.__module__.startswith(_OURS)


def _make_linked_internal(library) -> None:
    """The functions ``library`` linked in from its callees' modules become its own."""
    linked = set()
    for callee in library._linking_libraries:
        linked.update(fn.name for fn in callee._get_module_for_linking().functions
                      if not fn.is_declaration)  # fmt: skip
    for fn in library._final_module.functions:
        if not fn.is_declaration and fn.name in linked:
            fn.linkage = "internal"


def installed() -> bool:
    return _installed


def install() -> bool:
    """Optimise each entry point's module once, its callees internal (once per process, where
    it applies); whether that is in place."""
    global _installed
    if _installed:
        return True
    import numba
    from numba.core import codegen, event

    if not _applies(numba):
        return False

    class _Nesting(event.Listener):
        def on_start(self, ev):
            _compiling.append(ev.data["dispatcher"])

        def on_end(self, ev):
            _compiling.pop()

    optimize = codegen.CPUCodeLibrary._optimize_final_module

    def optimize_once(self):
        if _callee_of_ours():
            return  # its callers optimise it, with themselves
        if _compiling and _compiling[0].py_func.__module__.startswith(_OURS):
            _make_linked_internal(self)
        optimize(self)

    optimize_once.__doc__ = optimize.__doc__
    event.register("numba:compile", _Nesting())
    codegen.CPUCodeLibrary._optimize_final_module = optimize_once
    _installed = True
    return True
