"""One compiled version of each kernel, whatever constants its jitted callers pass.

A jitted function that calls another with a constant argument, as in
``log_cards(work, nlog, EV_TRICK, ...)``, has numba type the constant as a literal
(``Literal[int](7)``), and the callee is compiled again for every distinct combination of
constants it is called with (``eventlog.log_cards`` compiled dozens of times in an engine).

Our kernels' dispatchers (``kernels/jit.py``) carry ``PlainCalls``: their numba type
(``PlainCallType``) types a call with its arguments' plain types (``int64`` for
``Literal[int](7)``), so each kernel compiles once per real signature and the call site
converts its constant as it would any ``int64``. LLVM still sees the constant: it inlines the
small callees and folds it there, so the machine code is as before. What may depend on a
constant does not go through this: the engines' phases fold away the other variants' branches by
the table's constant because they are inlined into their caller (``inline="always"``), which
happens before typing. Nothing else in the process is typed differently: the type belongs to
our dispatchers alone.
"""

from __future__ import annotations

from numba.core import types
from numba.core.datamodel.models import OpaqueModel
from numba.extending import register_model

__all__ = ["PlainCallType", "PlainCalls"]


class PlainCallType(types.Dispatcher):
    """The numba type of one of our kernels: a call is typed without its arguments' literals."""

    def get_call_type(self, context, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_type(context, args, kws)


register_model(PlainCallType)(OpaqueModel)  # as numba's Dispatcher type (looked up by class)


class PlainCalls:
    """Dispatcher mixin: the dispatcher's numba type is a ``PlainCallType``."""

    @property
    def _numba_type_(self):
        return PlainCallType(self)
