"""One compiled version of each kernel, whatever constants its jitted callers pass (issue 17).

A jitted function that calls another with a constant argument, as in
``log_cards(work, nlog, EV_TRICK, ...)``, has numba type the constant as a literal
(``Literal[int](7)``), and the callee is compiled again for every distinct combination of
constants it is called with. In the 4-player engine's cold compile ``eventlog.log_cards`` was
compiled 28 times, ``policies._policy`` 7 times and 18 other kernels twice or three times:
about 6 of its 40 seconds. The decision-from-Python family paid the same again.

``install()`` has numba type a call to one of our kernels (a function of ``tichusim.kernels``)
with its arguments' plain types (``int64`` for ``Literal[int](7)``), so each kernel compiles
once per real signature, and the call site converts its constant as it would any ``int64``.
LLVM still sees the constant: it inlines the small callees and folds it there, so the machine
code is as before (``benchmarks/bench_trees.py``). What may depend on a constant does not go
through this: the engine's phases fold away the other tables' branches by the table's constant
because they are inlined into their caller (``inline="always"``), which happens before typing.
A user's own jitted functions are left as numba types them. ``TICHUSIM_PLAIN_CALLS=0`` leaves
numba alone.
"""

from __future__ import annotations

import os

__all__ = ["install", "installed"]

_OURS = "tichusim.kernels"
_installed = False


def _plain_call_type(original):
    from numba.core import types

    def get_call_type(self, context, args, kws):
        if self.dispatcher.py_func.__module__.startswith(_OURS):
            args = tuple(types.unliteral(a) for a in args)
            kws = {k: types.unliteral(v) for k, v in kws.items()}
        return original(self, context, args, kws)

    get_call_type.__doc__ = original.__doc__
    return get_call_type


def installed() -> bool:
    return _installed


def install() -> bool:
    """Type calls to our kernels with plain argument types (once per process); whether that
    is in place."""
    global _installed
    if _installed:
        return True
    if os.environ.get("TICHUSIM_PLAIN_CALLS", "1") == "0":
        return False
    from numba.core import types

    types.Dispatcher.get_call_type = _plain_call_type(types.Dispatcher.get_call_type)
    _installed = True
    return True
