"""Numba's inliner without its two wasted copies of every function it inlines into our kernels.

Every phase of our engines is ``inline="always"`` (the table a constant, its branches folded
away). For each call site, numba's ``InlineInlinables`` pass asks
``InlineWorker.inline_function`` for the callee: it runs the untyped pipeline to make a fresh IR
of the callee for this one site and hands it to ``inline_ir``, which deep-copies it block by
block twice, first to get a copy it may change, then an "unchanged original" that the pass
throws away (numba issue #8989). Copying block by block also copies the function's whole
variable scope again with every block, so the copies grow with blocks times variables: in a
profile of the 4-player engine's compile they were nearly half of it.

``install()`` wraps ``inline_function``. While one of our kernels compiles
(``scope``), ``inline_ir``'s copies hand back the fresh IR's blocks themselves: for the
length of the call, numba's module ``inline_closurecall`` sees, as ``copy``, a stand-in whose
``deepcopy`` returns a block of that fresh IR unchanged and copies everything else as
``copy.deepcopy`` does. Nothing else reads the fresh IR, and the "original" it returns is the
inlined IR, which its only caller ignores. The compiled code is the same (the golden transcripts
and the engine tests hold it to that). Any other compile, a user's, calls numba's own
``inline_function`` and sees numba's own ``copy``. This is the one change that cannot be a
per-kernel option (numba builds its ``InlineWorker`` inside the pass); ``guard`` checks
the two functions it relies on.
"""

from __future__ import annotations

import copy

from .scope import compiling_ours

__all__ = ["install", "installed"]

_fresh: set[int] = set()  # ids of the blocks of a callee IR made for the call site in hand
_original = None  # numba's inline_function, once installed


class _CopyFreshAsIs:
    """``copy`` as ``numba.core.inline_closurecall`` sees it while we inline."""

    def __getattr__(self, name):
        return getattr(copy, name)

    @staticmethod
    def deepcopy(x, memo=None):
        return x if id(x) in _fresh else copy.deepcopy(x, memo)


def _inline_function(self, caller_ir, block, i, function, arg_typs=None):
    """``InlineWorker.inline_function``: for our kernels, its fresh callee IR is not copied."""
    if not compiling_ours():
        return _original(self, caller_ir, block, i, function, arg_typs)
    from numba.core import inline_closurecall

    callee_ir = self.run_untyped_passes(function)
    marked = {id(b) for b in callee_ir.blocks.values()}
    _fresh.update(marked)
    inline_closurecall.copy = _CopyFreshAsIs()
    try:
        freevars = function.__code__.co_freevars
        return self.inline_ir(caller_ir, block, i, callee_ir, freevars, arg_typs=arg_typs)
    finally:
        inline_closurecall.copy = copy
        _fresh.difference_update(marked)


def installed() -> bool:
    return _original is not None


def install() -> bool:
    """Put the wrapper in place (once per process, where ``guard`` allows it); whether
    it is in place."""
    global _original
    if _original is not None:
        return True
    from numba.core import inline_closurecall

    from .guard import usable

    if not usable("inliner"):
        return False
    _original = inline_closurecall.InlineWorker.inline_function
    _inline_function.__doc__ = _original.__doc__
    _inline_function.__wrapped__ = _original  # what guard hashes, installed or not
    inline_closurecall.InlineWorker.inline_function = _inline_function
    return True
