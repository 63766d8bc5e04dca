"""Numba's inliner without its two wasted copies of every inlined function (issue 17): the
4-player engine's cold compile (its kernel family) goes from 53 s to 40 s.

Every phase of our engines is ``inline="always"`` (the table a constant, its branches folded
away). For each call site, numba's ``InlineInlinables`` pass asks
``InlineWorker.inline_function`` for the callee: it runs the untyped pipeline to make a fresh
IR of the callee for this one site and hands it to ``inline_ir``, which deep-copies it block by
block twice, first to get a copy it may change, then an "unchanged original" that the pass
throws away (numba issue #8989, still open). Copying block by block also copies the function's
whole variable scope again with every block, so the copies grow with blocks times variables:
in a profile of the Nanjing engine's compile they were 44% of the time.

``install()`` wraps ``inline_function`` so that ``inline_ir``'s copies hand back the fresh
IR's blocks themselves: numba's module ``inline_closurecall`` sees, as ``copy``, a stand-in
whose ``deepcopy`` returns a block of that fresh IR unchanged and copies everything else as
``copy.deepcopy`` does. Nothing else reads the fresh IR, and the "original" it returns is the
inlined IR, which its only caller ignores. The compiled code is the same (the golden
transcripts and the engine tests hold it to that; 20,000 rounds of each strategy give the same
tables). Once installed it serves every numba compile in the process, a user's own included:
it changes what the inliner copies, never what it compiles. Numba compiles under one global
lock, so the set of marked blocks is never shared by two compiles at once. Only for the numba
versions whose inliner this was checked against (``_CHECKED``); ``TICHUSIM_NUMBA_INLINER=0``
leaves numba alone.
"""

from __future__ import annotations

import copy
import os

__all__ = ["install", "installed"]

_CHECKED = ((0, 68), (0, 68))  # first and last numba minor version checked
_fresh: set[int] = set()  # ids of the blocks of a callee IR made for the call site in hand
_installed = False


class _CopyFreshAsIs:
    """``copy`` as ``numba.core.inline_closurecall`` sees it once installed."""

    def __getattr__(self, name):
        return getattr(copy, name)

    @staticmethod
    def deepcopy(x, memo=None):
        return x if id(x) in _fresh else copy.deepcopy(x, memo)


def _inline_function(self, caller_ir, block, i, function, arg_typs=None):
    """``InlineWorker.inline_function``, its fresh callee IR marked as needing no copy."""
    callee_ir = self.run_untyped_passes(function)
    marked = {id(b) for b in callee_ir.blocks.values()}
    _fresh.update(marked)
    try:
        return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars,
                              arg_typs=arg_typs)  # fmt: skip
    finally:
        _fresh.difference_update(marked)


def _applies(numba) -> bool:
    version = tuple(int(part) for part in numba.__version__.split(".")[:2])
    return (_CHECKED[0] <= version <= _CHECKED[1]
            and os.environ.get("TICHUSIM_NUMBA_INLINER", "1") != "0")  # fmt: skip


def installed() -> bool:
    return _installed


def install() -> bool:
    """Put the copy-free ``inline_function`` in place (once per process, where it applies);
    whether it is in place."""
    global _installed
    if _installed:
        return True
    import numba
    from numba.core import inline_closurecall

    if not _applies(numba):
        return False
    inline_closurecall.copy = _CopyFreshAsIs()
    inline_closurecall.InlineWorker.inline_function = _inline_function
    _installed = True
    return True
