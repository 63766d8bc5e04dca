"""``tichusim._compile.literals``: one of our kernels compiles once whatever constants its jitted
callers pass, while a user's own jitted functions keep numba's literal typing."""

import numba

from tichusim.kernels import jit


def _callee_and_caller(njit):
    @njit
    def callee(a, b):
        return a * 10 + b

    @njit
    def caller(x):
        return callee(x, 1) + callee(x, 2) + callee(x, 3) + callee(4, 5)

    return callee, caller


def test_a_kernel_compiles_once_for_every_constant():
    callee, caller = _callee_and_caller(jit.njit)
    assert caller(7) == 71 + 72 + 73 + 45
    assert len(callee.signatures) == 1  # (int64, int64): not one per set of constants


def test_a_users_function_keeps_numbas_literal_typing():
    callee, caller = _callee_and_caller(numba.njit)
    assert caller(7) == 71 + 72 + 73 + 45
    assert len(callee.signatures) > 1  # numba's own behaviour: one per literal combination
