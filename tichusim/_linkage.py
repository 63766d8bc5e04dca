"""How our kernels' modules are linked and optimised (issue 17): LLVM's module pipeline once
per entry point, over callees that are the entry point's own. Every table plays the same
rounds 1.4 to 1.9 times as fast, and a cold compile is shorter by about a tenth.

Numba compiles each jitted function into its own LLVM module and finalises it: it links in
the modules of the jitted functions it calls, runs LLVM's full -O3 module pipeline over the
whole, generates machine code and caches both. Two things follow:

- a caller links its callees' *optimised* modules and runs the pipeline over everything
  again, so a kernel called N deep is optimised N + 1 times: in a cold compile of the
  4-player engine the pipeline took 14.5 s, all but 2.9 s of it in the modules of callees,
  whose own machine code never runs (a callee runs inside the entry point that linked it);
- the linked callees keep ``linkonce_odr`` linkage, which tells LLVM that other modules may
  hold the same functions: it must keep each one whole for outside callers, so it cannot
  specialise a callee to its only call site (constant arguments, unused arguments and
  results, a single caller); and in the process that compiled them the JIT binds the calls
  to the copies loaded first, another module's.

``install()`` changes three things:

- every library (ours and a user's) makes the functions it linked in from its callees
  ``internal``: its own copies, which LLVM may specialise to its calls and which its machine
  code calls, never another module's (numba's one-definition rule makes the copies equal;
  this decides only which one runs; with the callees' pipeline skipped, a user's jitted
  function bound to a callee's copy crashed). Its callers still link numba's module for it,
  taken before, with numba's linkage;
- one of our kernels compiled *inside another compile* (a callee, reached while numba types
  its caller) skips the module pipeline and is never made into machine code. Numba still
  runs its per-function passes and hands callers its module to link, and the cache keeps
  that module (a kind of entry of our own, ``_LINKING_ONLY``: numba's kinds make machine code
  when loaded). The pipeline and the machine code are made once, in the entry point (a
  library compiled at the top: called from Python, or compiled at import from its declared
  signature), over its own copies of every callee, and the entry point points the callees'
  environments (where a raised exception's arguments are boxed) at their objects, as numba
  does for a library loaded from its cache;
- such a callee gets no CPython wrapper either (the code that unboxes Python arguments, with
  its own lowering, optimisation and machine code for every kernel and signature): its
  overload serves its callers' typing and linking, and is not in the table Python calls go
  through. A call from Python with that signature compiles the kernel again at the top,
  whole (wrapper and pipeline), and so does one that finds only a callee in the cache; the
  whole one then replaces the callee's cache entry, and a callee is never saved over a
  whole one (another process's, in a parallel ``warmup``).

Measured side by side against numba's own linking (``benchmarks/bench_trees.py``): the same
rounds, byte for byte, 1.40 to 1.94 times as many per CPU-second at every table and strategy.
``bench_startup.py --only first``: ``run configs/quick.toml`` on an empty cache 45.7 s against
50.8 and 49.0 s. Skipping the callees' pipeline alone took a quarter off that compile; the
entry points, optimising their own copies, spend part of it back: the price of the speed.
Without the callees' wrappers (and numba's C-callable wrapper, left out by ``kernels/jit.py``)
it took 33.4 to 34.7 s against 36.4 to 40.2 s (three alternating pairs), the C wrapper about
3 s of that; the 4-player entry point's optimised IR stayed the same (compared function by
function, the removed C wrapper aside). Making no machine code of callees: 20.2 to 20.3 s
against 22.3 to 22.8 s (three alternating runs, on a faster machine than the figures above).

What it trades: a kernel that is both a callee and called from Python compiles twice, once
as each. ``tests/test_warmup.py`` checks over every README command that no kernel that calls
others is used both ways with its signature compiled lazily: the card kernels that are both
compile at import, at the top. Only for the numba versions this was checked against
(``_CHECKED``); ``TICHUSIM_OWN_CALLEES=0`` leaves numba alone.
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
            and os.environ.get("TICHUSIM_OWN_CALLEES", "1") != "0")  # fmt: skip


def _ours(compiled) -> bool:
    """Whether a dispatcher (or its cache: both know the Python function) is our kernel's."""
    py_func = getattr(compiled, "py_func", None) or compiled._py_func
    return py_func.__module__.startswith(_OURS)


def _callee_of_ours() -> bool:
    """Whether the library being finalised is one of our kernels' compiled inside another."""
    return len(_compiling) > 1 and _ours(_compiling[-1])


def _share_as_numba_does(library) -> None:
    """The module callers link (numba's ``_get_module_for_linking``: the library's functions
    ``linkonce_odr``), taken now, before the library's own copies become internal."""
    import llvmlite.binding as ll

    shared = library._final_module.clone()
    for fn in shared.functions:
        if not fn.is_declaration and fn.linkage == ll.Linkage.external:
            fn.linkage = "linkonce_odr"
    library._shared_module = shared


def _make_linked_internal(library) -> None:
    """The functions ``library`` linked in from its callees' modules become its own."""
    linked = set()
    for callee in library._linking_libraries:
        linked.update(fn.name for fn in callee._get_module_for_linking().functions
                      if not fn.is_declaration)  # fmt: skip
    for fn in library._final_module.functions:
        if not fn.is_declaration and fn.name in linked:
            fn.linkage = "internal"


# a callee's cache entry: the module its callers link, and no machine code (numba's own kinds,
# "object" and "bitcode", both make machine code when loaded)
_LINKING_ONLY = "tichusim-linking-only"


def _set_environments(library) -> None:
    """Point the environments ``library``'s code refers to at their objects, as numba does for
    a library loaded from its cache (``CompileResult._rebuild``): a callee without machine code
    set none of its own, and its caller's copy of it refers to them."""
    from numba.core.environment import lookup_environment

    for gv in library._final_module.global_variables:
        env = lookup_environment(gv.name) if gv.name.startswith("_ZN08NumbaEnv") else None
        if env is not None:
            library.codegen.set_env(gv.name, env)


def installed() -> bool:
    return _installed


def _callable(cres) -> bool:
    """Whether a compiled (or cached) overload has the wrapper Python calls it through."""
    return cres.library.get_pointer_to_function(cres.fndesc.llvm_cpython_wrapper_name) != 0


def install() -> bool:
    """Optimise each entry point's module once, over its own copies of its callees, and give
    callees no CPython wrapper (once per process, where it applies); whether that is in
    place."""
    global _installed
    if _installed:
        return True
    import numba
    from numba.core import caching, codegen, dispatcher, event, lowering, sigutils
    from numba.core.compiler_lock import global_compiler_lock

    if not _applies(numba):
        return False

    class _Nesting(event.Listener):
        def on_start(self, ev):
            _compiling.append(ev.data["dispatcher"])

        def on_end(self, ev):
            _compiling.pop()

    optimize = codegen.CPUCodeLibrary._optimize_final_module

    def optimize_once(self):
        if self._linking_libraries:  # its callers link numba's module; its code, its copies
            _share_as_numba_does(self)
            _make_linked_internal(self)
        if _callee_of_ours():
            self._linking_only = True  # its callers run the pipeline and make its code
            return
        optimize(self)

    finalize_module = codegen.CPUCodeLibrary._finalize_final_module

    def machine_code_unless_linking_only(self):
        if not getattr(self, "_linking_only", False):
            finalize_module(self)
            if isinstance(self, codegen.JITCodeLibrary):  # runs here (not numba's AOT)
                _set_environments(self)
            return
        self._finalize_dynamic_globals()  # numba's steps, but for adding it to the JIT
        self._verify_declare_only_symbols()
        self._finalized = True

    serialize = codegen.CPUCodeLibrary.serialize_using_object_code

    def serialize_linking_only(self):
        if not getattr(self, "_linking_only", False):
            return serialize(self)
        return self.name, _LINKING_ONLY, self._get_module_for_linking().as_bitcode()

    unserialize = codegen.CPUCodeLibrary._unserialize.__func__

    def unserialize_linking_only(cls, codegen_, state):
        name, kind, data = state
        if kind != _LINKING_ONLY:
            return unserialize(cls, codegen_, state)
        import llvmlite.binding as ll

        self = codegen_.create_library(name)
        self._final_module = self._shared_module = ll.parse_bitcode(data)
        self._linking_only = True
        self._finalize_final_module()
        return self

    set_env = codegen.JITCPUCodegen.set_env

    def set_env_if_defined(self, env_name, env):
        if self._engine.is_symbol_defined(env_name):  # not in a library without machine code
            set_env(self, env_name, env)

    create_wrapper = lowering.BaseLower.create_cpython_wrapper

    def wrapper_unless_callee(self, release_gil=False):
        if not _callee_of_ours():  # a callee is called by its callers' code only
            create_wrapper(self, release_gil)

    add_overload = dispatcher.Dispatcher.add_overload

    def add_callable_overload(self, cres):
        if _ours(self) and not _callable(cres):  # for typing and linking its callers only
            self.overloads[tuple(cres.signature.args)] = cres
            return
        add_overload(self, cres)

    compile_ = dispatcher.Dispatcher.compile

    def compile_at_the_top_whole(self, sig):
        with global_compiler_lock:  # so that no other thread's compile is under way
            if not _compiling and _ours(self):  # for Python: a callee's overload won't do
                args = tuple(sigutils.normalize_signature(sig)[0])
                if args in self.overloads and not _callable(self.overloads[args]):
                    del self.overloads[args]
            return compile_(self, sig)

    load_overload = caching.Cache.load_overload

    def load_callable_at_the_top(self, sig, target_context):
        cres = load_overload(self, sig, target_context)
        if cres is None or _compiling or not _ours(self) or _callable(cres):
            return cres
        return None  # compiled again, whole; saving it replaces the callee's entry

    save_overload = caching.Cache.save_overload

    def save_keeping_callable(self, sig, cres):
        if (_ours(self) and not _callable(cres)
                and self._index_key(sig, cres.codegen) in self._cache_file._load_index()):
            return  # a callee's entry never replaces one (another process's) Python can call
        save_overload(self, sig, cres)

    for owner, name, fix in ((codegen.CPUCodeLibrary, "_optimize_final_module", optimize_once),
                             (codegen.CPUCodeLibrary, "_finalize_final_module",
                              machine_code_unless_linking_only),
                             (codegen.CPUCodeLibrary, "serialize_using_object_code",
                              serialize_linking_only),
                             (codegen.CPUCodeLibrary, "_unserialize",
                              classmethod(unserialize_linking_only)),
                             (codegen.JITCPUCodegen, "set_env", set_env_if_defined),
                             (lowering.BaseLower, "create_cpython_wrapper",
                              wrapper_unless_callee),
                             (dispatcher.Dispatcher, "add_overload", add_callable_overload),
                             (dispatcher.Dispatcher, "compile", compile_at_the_top_whole),
                             (caching.Cache, "load_overload", load_callable_at_the_top),
                             (caching.Cache, "save_overload", save_keeping_callable)):
        fix.__doc__ = getattr(owner, name).__doc__
        setattr(owner, name, fix)
    event.register("numba:compile", _Nesting())
    _installed = True
    return True
