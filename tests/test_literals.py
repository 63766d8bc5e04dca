"""``tichusim._literals``: a kernel compiles once whatever constants its jitted callers pass
(issue 17), while a user's own jitted functions keep numba's literal typing."""

from numba import njit

import tichusim.kernels  # noqa: F401  (installs it)
from tichusim import _literals


def _callee_and_caller(module: str):
    def callee(a, b):
        return a * 10 + b

    callee.__module__ = module
    callee = njit(callee)

    @njit
    def caller(x):
        return callee(x, 1) + callee(x, 2) + callee(x, 3) + callee(4, 5)

    return callee, caller


def test_installed():
    assert _literals.installed()


def test_a_kernel_compiles_once_for_every_constant():
    callee, caller = _callee_and_caller("tichusim.kernels.probe")
    assert caller(7) == 71 + 72 + 73 + 45
    assert len(callee.signatures) == 1  # (int64, int64): not one per set of constants


def test_a_users_function_keeps_numbas_literal_typing():
    callee, caller = _callee_and_caller("my_strategy")
    assert caller(7) == 71 + 72 + 73 + 45
    assert len(callee.signatures) > 1  # numba's own behaviour: one per literal combination
