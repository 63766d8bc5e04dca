"""``njit`` as every kernel of ours is compiled: numba's, without the C-callable wrapper.

Numba gives each function it compiles two wrappers besides the function itself: one that
Python calls (the dispatcher needs it) and one with a plain C signature, used only when a
jitted function is passed as a first-class function value or a ``cfunc``. No kernel here is
used either way, so ``no_cfunc_wrapper`` (a numba option) leaves that one out: it was lowered,
optimised and turned into machine code with every kernel and every signature. Without it a
cold ``tichusim run configs/quick.toml --rounds 20000`` compiles about 3 s (8%) sooner
(36.5 s against 39.7-40.0 s, three alternating runs; issue 17); the kernels' own machine code
is unchanged. A kernel that is ever to be passed as a function value can still ask for its
wrapper with ``no_cfunc_wrapper=False``.

A declared signature (``@njit(types.int64(types.uint64), ...)``) compiles a kernel when its
module is imported, whole. An ``inline="always"`` kernel is inlined into each caller before
typing, never linked, so its compiled version serves calls from Python only: one that no
Python code calls declares no signature (17 helpers did: 0.6-0.8 s of a cold first run,
19.5-19.7 s against 20.2-20.3 s).
"""

from numba import njit as _numba_njit

__all__ = ["njit"]


def njit(*args, **options):
    """``numba.njit`` with ``no_cfunc_wrapper=True`` unless the caller says otherwise."""
    options.setdefault("no_cfunc_wrapper", True)
    return _numba_njit(*args, **options)
