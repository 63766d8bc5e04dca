"""Which compiles are our kernels': the stack of our kernels' dispatchers compiling now.

Every compile change applies to our kernels only. A kernel's dispatcher (``kernels/jit.py``)
pushes itself here for the length of its compile, so a change can ask whether the compile in
hand is ours, and whether it is nested in another of ours (a callee, typed for its caller).
Numba compiles under one global lock, so the stack is never shared by two compiles at once.
The outermost compile is the one a notice speaks of (``notice``).
"""

from __future__ import annotations

__all__ = ["TracksCompiles", "compiling_ours", "nested_in_ours"]

_compiling: list = []  # our dispatchers compiling now, outermost first


def compiling_ours() -> bool:
    """Whether a compile of one of our kernels is under way (this one or an enclosing one)."""
    return bool(_compiling)


def nested_in_ours() -> bool:
    """Inside a compile of ours: whether it was started by another compile of ours."""
    return len(_compiling) > 1


class TracksCompiles:
    """Dispatcher mixin: the dispatcher is on the stack while it compiles; a top-level compile
    (not a callee's) says so on stderr if it compiles rather than loads (``notice``)."""

    def compile(self, sig):
        from numba.core.compiler_lock import global_compiler_lock

        from .notice import watching

        with global_compiler_lock:
            top = not _compiling
            _compiling.append(self)
            try:
                if top:
                    with watching(self):
                        return super().compile(sig)
                return super().compile(sig)
            finally:
                _compiling.pop()
