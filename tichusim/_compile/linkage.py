"""How our kernels' modules are linked and optimised: LLVM's module pipeline once per entry
point, over callees that are the entry point's own.

Numba compiles each jitted function into its own LLVM module and finalises it: it links in
the modules of the jitted functions it calls, runs LLVM's full -O3 module pipeline over the
whole, generates machine code and caches both. Two things follow:

- a caller links its callees' *optimised* modules and runs the pipeline over everything
  again, so a kernel called N deep is optimised N + 1 times, and most of a cold compile's
  pipeline time goes to modules of callees whose own machine code never runs (a callee runs
  inside the entry point that linked it);
- the linked callees keep ``linkonce_odr`` linkage, which tells LLVM that other modules may
  hold the same functions: it must keep each one whole for outside callers, so it cannot
  specialise a callee to its only call site (constant arguments, unused arguments and
  results, a single caller).

For our kernels only (their dispatchers, library class and pipeline, ``kernels/jit.py``):

- a kernel's library (``KernelLibrary``) makes the functions it linked in from its callees
  ``internal``: its own copies, which LLVM may specialise to its calls. Its callers still link
  numba's module for it, taken before, with numba's linkage;
- a kernel compiled *inside the compile of another of ours* (a callee, typed and linked by its
  caller) skips the module pipeline, is never made into machine code and gets no CPython
  wrapper (``PrepareKernelLibrary``, a pass of ``KernelCompiler``). Its callers link its
  module, and its cache entry keeps that module (a kind of entry of our own,
  ``LINKING_ONLY``: numba's kinds make machine code when loaded). The pipeline and the
  machine code are made once, in the entry point (compiled at the top: called from Python,
  from a user's jitted function, or at import from a declared signature), over its own copies
  of every callee; the entry point points the callees' environments (where a raised
  exception's arguments are boxed) at their objects, as numba does for a library loaded from
  its cache;
- a call at the top (``OwnCallees.compile``) never uses a callee's overload or cache entry:
  it compiles the kernel again, whole, whose entry then replaces the callee's, and a callee
  never replaces a whole entry (another process's, in a parallel ``warmup``).

A user's jitted function that calls one of our kernels therefore links a whole kernel, exactly
as numba links any other function; nothing here touches a compile that is not ours.
What it trades: a kernel that is both a callee and called from Python compiles twice, once
as each; ``tests/compile/test_warmup.py`` checks that no kernel calling others is used both
ways with its signature compiled lazily. ``docs/compile.md`` gives the measured gains.
"""

from __future__ import annotations

import hashlib

import llvmlite.binding as ll
from numba.core import codegen, compiler, sigutils
from numba.core.compiler import CompileResult, DefaultPassBuilder
from numba.core.compiler_lock import global_compiler_lock
from numba.core.compiler_machinery import AnalysisPass, register_pass
from numba.core.environment import lookup_environment
from numba.core.typed_passes import AnnotateTypes

from .scope import compiling_ours, nested_in_ours

__all__ = [
    "LINKING_ONLY",
    "KernelCompiler",
    "KernelLibrary",
    "LinkingOnlyCacheImpl",
    "OwnCallees",
    "OwnCalleesCache",
    "callable_overload",
]

# a callee's cache entry: the module its callers link, and no machine code (numba's own kinds,
# "object" and "bitcode", both make machine code when loaded)
LINKING_ONLY = "tichusim-linking-only"


def _share_as_numba_does(library) -> None:
    """The module callers link (numba's ``_get_module_for_linking``: the library's functions
    ``linkonce_odr``), taken now, before the library's own copies become internal."""
    shared = library._final_module.clone()
    for fn in shared.functions:
        if not fn.is_declaration and fn.linkage == ll.Linkage.external:
            fn.linkage = "linkonce_odr"
    library._shared_module = shared


def _make_linked_internal(library) -> None:
    """The functions ``library`` linked in from its callees' modules become its own: internal,
    under names of their own.

    LLVM specialises an internal function to its calls (dropped arguments, another calling
    convention), and the JIT still finds it by name: under the callee's name, a user's
    function that links the same callee numba's way (``linkonce_odr``) would be bound to this
    specialised copy. Renamed, the copy is this library's alone. Numba's runtime helpers
    (``NRT_incref`` ...) keep their names and numba's linkage: its reference-count pruning
    finds them by name, and every module holds the same small ones.
    """
    linked = set()
    for callee in library._linking_libraries:
        linked.update(
            fn.name for fn in callee._get_module_for_linking().functions if not fn.is_declaration
        )
    own = hashlib.sha1(library._final_module.name.encode()).hexdigest()[:12]
    for fn in library._final_module.functions:
        if not fn.is_declaration and fn.name in linked and not fn.name.startswith("NRT_"):
            fn.linkage = "internal"
            fn.name = f"{fn.name}.own.{own}"


def _set_environments(library) -> None:
    """Point the environments ``library``'s code refers to at their objects, as numba does for
    a library loaded from its cache (``CompileResult._rebuild``): a callee without machine code
    set none of its own, and the entry point's copy of it refers to them."""
    engine = library._codegen._engine
    for gv in library._final_module.global_variables:
        if not gv.name.startswith("_ZN08NumbaEnv") or not engine.is_symbol_defined(gv.name):
            continue  # not an environment, or one no loaded code defines (nothing to point)
        env = lookup_environment(gv.name)
        if env is not None:
            library.codegen.set_env(gv.name, env)


class _NoEnvironments:
    """The codegen as a library without machine code shows it: it has no environments of its
    own to point (the entry points that copy its code point theirs)."""

    def __init__(self, real):
        self._real = real

    def __getattr__(self, name):
        return getattr(self._real, name)

    def set_env(self, env_name, env):
        pass


class KernelLibrary(codegen.JITCodeLibrary):
    """The code library of one of our kernels' compiles: an entry point's optimises its own
    copies of its callees; a callee's (``linking_only``) is only a module to link."""

    linking_only = False

    @property
    def codegen(self):
        return _NoEnvironments(self._codegen) if self.linking_only else self._codegen

    def _optimize_final_module(self):
        if self._linking_libraries:  # its callers link numba's module; its code, its copies
            _share_as_numba_does(self)
            _make_linked_internal(self)
        if not self.linking_only:  # a callee's callers run the pipeline and make its code
            super()._optimize_final_module()

    def _finalize_final_module(self):
        if not self.linking_only:
            super()._finalize_final_module()
            _set_environments(self)
            return
        self._finalize_dynamic_globals()  # numba's steps, but for adding it to the JIT
        self._verify_declare_only_symbols()
        self._finalized = True

    def serialize_using_object_code(self):
        if not self.linking_only:
            return super().serialize_using_object_code()
        return self.name, LINKING_ONLY, self._get_module_for_linking().as_bitcode()

    @classmethod
    def linking_only_from(cls, codegen_, name: str, ir: bytes | str) -> KernelLibrary:
        """A callee's library from its cache entry: the module its callers link, as bitcode
        (what a compile here saves) or as text (what the kernel pack ships: ``pack``)."""
        self = cls(codegen_, name)
        module = ll.parse_assembly(ir) if isinstance(ir, str) else ll.parse_bitcode(ir)
        self._final_module = self._shared_module = module
        self.linking_only = True
        self._finalize_final_module()
        return self


def callable_overload(cres) -> bool:
    """Whether an overload (compiled or cached) has machine code and the wrapper Python calls."""
    return not getattr(cres.library, "linking_only", False)


@register_pass(mutates_CFG=False, analysis_only=False)
class PrepareKernelLibrary(AnalysisPass):
    """Before lowering: the compile's library is a ``KernelLibrary``; a callee's is linking
    only and the callee gets no CPython wrapper (its callers' code calls it, Python never)."""

    _name = "tichusim_prepare_kernel_library"

    def __init__(self):
        AnalysisPass.__init__(self)

    def run_pass(self, state):
        if state.library is None:  # numba's lowering would create one of its own class
            state.library = KernelLibrary(state.targetctx.codegen(), state.func_id.func_qualname)
            state.library.enable_object_caching()  # as numba's lowering does, for the cache
            if nested_in_ours():
                state.library.linking_only = True
                state.flags.no_cpython_wrapper = True
        return False


class KernelCompiler(compiler.CompilerBase):
    """Numba's nopython pipeline with ``PrepareKernelLibrary`` before its lowering."""

    def define_pipelines(self):
        pm = DefaultPassBuilder.define_nopython_pipeline(self.state)
        pm.add_pass_after(PrepareKernelLibrary, AnnotateTypes)
        pm.finalize()
        return [pm]


class OwnCallees:
    """Dispatcher mixin: a callee's overload serves its callers' typing and linking only."""

    def add_overload(self, cres):
        if not callable_overload(cres):  # not in the table Python calls go through
            self.overloads[tuple(cres.signature.args)] = cres
            return
        super().add_overload(cres)

    def compile(self, sig):
        with global_compiler_lock:  # so that no other thread's compile is under way
            if not compiling_ours():  # at the top: a callee's overload won't do
                args = tuple(sigutils.normalize_signature(sig)[0])
                if args in self.overloads and not callable_overload(self.overloads[args]):
                    del self.overloads[args]
            return super().compile(sig)


class OwnCalleesCache:
    """Function cache mixin: a callee's entry serves callees only, and never replaces a whole
    one."""

    def load_overload(self, sig, target_context):
        cres = super().load_overload(sig, target_context)
        if cres is None or nested_in_ours() or callable_overload(cres):
            return cres
        return None  # compiled again, whole; saving it replaces the callee's entry

    def save_overload(self, sig, cres):
        if not callable_overload(cres) and (
            self._index_key(sig, cres.codegen) in self._cache_file._load_index()
        ):
            return  # a callee's entry never replaces one (another process's) Python can call
        super().save_overload(sig, cres)


class LinkingOnlyCacheImpl:
    """Cache implementation mixin: a callee's entry loads as its module, without machine code
    (numba's ``CompileResult._rebuild``, less the machine code and the environments)."""

    def rebuild(self, target_context, payload):
        libdata, fndesc, env, signature, objectmode, lifted, typeann, reload_init, envs = payload
        if libdata[1] != LINKING_ONLY:
            return super().rebuild(target_context, payload)
        for fn in reload_init or ():
            fn()
        name, _, ir = libdata
        library = KernelLibrary.linking_only_from(target_context.codegen(), name, ir)
        return CompileResult(
            target_context=target_context,
            typing_context=target_context.typing_context,
            library=library,
            environment=env,
            entry_point=target_context.get_executable(library, fndesc, env),
            fndesc=fndesc,
            type_annotation=typeann,
            signature=signature,
            objectmode=objectmode,
            lifted=lifted,
            typing_error=None,
            call_helper=None,
            metadata=None,
            reload_init=reload_init,
            referenced_envs=envs,
        )
