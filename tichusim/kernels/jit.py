"""``njit`` as every kernel of ours is compiled, and nothing else in the process is.

``njit`` makes a numba dispatcher of our own class (``KernelDispatcher``) with our own
pipeline and cache, through numba's per-dispatcher hooks (a dispatcher class, a
``pipeline_class``, a function cache with its locator). What each adds, when
``_compile.guard`` finds it may run here (``docs/compile.md``):

- always: no C-callable wrapper (``no_cfunc_wrapper``, a numba option: it serves a kernel
  passed as a first-class function value or a ``cfunc``, and none is), and the cache in
  tichusim's own folder (``_compile.cache``), keyed by the kernel sources, laid out the same
  in every checkout and seeded from the kernel pack where it fits (``_compile.pack``);
- ``_compile.literals``: one compiled version per argument types, not per constant passed;
- ``_compile.linkage``: entry points optimise their callees as their own; callees get no
  wrapper and no machine code of their own;
- ``_compile.inliner`` (installed with the first kernel): inlining into our kernels does not
  copy the inlined function twice.

A declared signature (``@njit(types.int64(types.uint64), ...)``) compiles a kernel when its
module is imported, whole. An ``inline="always"`` kernel is inlined into each caller before
typing, never linked, so its compiled version serves calls from Python only: one that no
Python code calls declares no signature.
"""

from __future__ import annotations

import inspect
from pathlib import Path

from numba.core import caching, config, typeinfer
from numba.core.registry import CPUDispatcher

from .._compile import cache as kernel_cache
from .._compile import inliner
from .._compile import pack as kernel_pack
from .._compile.guard import usable
from .._compile.scope import TracksCompiles

__all__ = ["KernelDispatcher", "njit"]


class _KernelCacheLocator(caching.UserProvidedCacheLocator):
    """Our kernels' cache entries live in tichusim's folder, laid out as numba lays out a
    ``NUMBA_CACHE_DIR`` (``_compile.cache.cached`` reads that layout)."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(kernel_cache.cache_dir() / self.get_suitable_cache_subpath(py_file))

    @classmethod
    def from_function(cls, py_func, py_file):  # any function, whatever numba's config says
        return super(caching.UserProvidedCacheLocator, cls).from_function(py_func, py_file)

    @classmethod
    def get_suitable_cache_subpath(cls, py_file):  # the same in any checkout (a kernel pack)
        return kernel_cache.subfolder(Path(py_file)) or super().get_suitable_cache_subpath(py_file)


class _SeededFromPack:
    """Function cache mixin: the first look in our cache copies in the kernel pack, where it
    was built for these sources, this Python and this CPU (``_compile.pack``)."""

    def load_overload(self, sig, target_context):
        kernel_pack.seed_once(target_context.codegen())
        return super().load_overload(sig, target_context)


def _assemble():
    """The dispatcher class our kernels get here: numba's, with the mixins of the changes that
    may run (decided once, on the first kernel)."""
    impl_bases = [caching.CompileResultCacheImpl]
    cache_bases = [_SeededFromPack, caching.FunctionCache]
    dispatcher_bases = [TracksCompiles, CPUDispatcher]
    pipeline = None
    if usable("linkage"):
        from .._compile import linkage

        impl_bases.insert(0, linkage.LinkingOnlyCacheImpl)
        cache_bases.insert(0, linkage.OwnCalleesCache)
        dispatcher_bases.insert(0, linkage.OwnCallees)
        pipeline = linkage.KernelCompiler
    if usable("literals"):
        from .._compile.literals import PlainCalls

        dispatcher_bases.insert(0, PlainCalls)
    inliner.install()
    # our folder first; numba's own places if it cannot be written
    locators = [_KernelCacheLocator, *caching.CompileResultCacheImpl._locator_classes]
    impl = type("KernelCacheImpl", tuple(impl_bases), {"_locator_classes": locators})
    cache = type("KernelCache", tuple(cache_bases), {"_impl_class": impl})

    def enable_caching(self):
        self._cache = cache(self.py_func)

    namespace = {
        "enable_caching": enable_caching,
        "__module__": __name__,
        "__doc__": "A numba dispatcher of one of our kernels (see the module).",
    }
    return type("KernelDispatcher", tuple(dispatcher_bases), namespace), pipeline


KernelDispatcher, _PIPELINE = _assemble()


def njit(*args, **options):
    """``numba.njit`` for our kernels: the same arguments (a function, or signatures and
    options), a ``KernelDispatcher`` with our pipeline, our cache, and no C-callable wrapper
    unless ``no_cfunc_wrapper=False``."""
    if config.DISABLE_JIT:  # as numba: plain Python (coverage of the kernels' code)
        return args[0] if args and inspect.isfunction(args[0]) else lambda func: func
    if args and inspect.isfunction(args[0]):
        return njit(**options)(args[0])
    sigs = args[0] if args else None
    if sigs is not None and not isinstance(sigs, (list, tuple)):
        sigs = [sigs]
    cache = options.pop("cache", False)
    local_types = options.pop("locals", {})
    options.setdefault("no_cfunc_wrapper", True)
    options.setdefault("nopython", True)
    options.setdefault("boundscheck", None)
    extra = {"pipeline_class": _PIPELINE} if _PIPELINE is not None else {}

    def wrap(func):  # what numba's decorator does, with our dispatcher class
        dispatcher = KernelDispatcher(
            py_func=func, locals=local_types, targetoptions=options, **extra
        )
        if cache:
            dispatcher.enable_caching()
        if sigs is not None:
            with typeinfer.register_dispatcher(dispatcher):
                for sig in sigs:
                    dispatcher.compile(sig)
                dispatcher.disable_compile()
        return dispatcher

    return wrap
