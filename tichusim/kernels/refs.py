"""Array views without a reference count, for the round engines' phase functions, jitted.

Numba counts references to an array with two atomic operations whenever a variable takes it:
at a function's entry for each array argument, and, in a function inlined with
``inline="always"``, for each array passed in (the inliner assigns it to the parameter). The
round engines hand the seats' records (``privs``, ``seats``) to phase and turn functions that
are inlined into the trick loop, so each turn paid for them (the ``lowest`` strategy ran
measurably slower than with the single long engine functions), the reason the scratch arrays
live in the ``WORK`` record in the first place (record fields carry no count). ``borrow`` gives
the engine a view of such an array with no owner: copying it costs nothing. The caller keeps
the array alive for the whole call (a jitted function's arguments outlive it), so the view
stays valid.
"""

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def borrow(typingctx, arr):
    """A view of the array ``arr`` that holds no reference to it (its ``meminfo`` null): only
    for an array the caller keeps alive while the view is used, never to return or store."""
    if not isinstance(arr, types.Array):
        return None
    sig = arr(arr)

    def codegen(context, builder, signature, args):
        view = context.make_array(arr)(context, builder, value=args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return sig, codegen


__all__ = ["borrow"]
