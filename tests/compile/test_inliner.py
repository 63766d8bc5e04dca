"""Numba's inliner without its wasted copies (``tichusim._compile.inliner``): inlining into our
kernels no longer deep-copies the callee's blocks and computes the same, while a user's own
functions are inlined by numba's own code, copies and all. (The engine itself is held to the same
results by the golden transcripts.)"""

import json
import subprocess
import sys
import textwrap

import pytest

from tichusim._compile import guard, inliner

pytestmark = pytest.mark.skipif(not guard.usable("inliner"), reason="switched off here")

# Nested inline="always" functions with loops and branches; prints the block copies the
# inliner made and the results on a few inputs.
NESTED = textwrap.dedent("""
    import copy, json, sys
    import numpy as np
    from numba import njit, uint64
    from numba.core import ir
    if sys.argv[1] != "plain":
        from tichusim.kernels import jit  # installs it
    if sys.argv[1] == "ours":
        njit = jit.njit
    copies = 0
    real = copy.deepcopy
    def counting(x, memo=None):
        global copies
        copies += isinstance(x, ir.Block)
        return real(x, memo)
    copy.deepcopy = counting

    @njit(inline="always")
    def low_bit(m):
        return m & (~m + uint64(1))

    @njit(inline="always")
    def count(m):
        n = 0
        while m:
            m ^= low_bit(m)
            n += 1
        return n

    @njit(inline="always")
    def score(m, k):
        s = count(m)
        if s > k:
            return s * 2 + count(m >> uint64(3))
        return s - count(m & uint64(0xFF))

    @njit
    def total(ms, k):
        t = 0
        for m in ms:
            t += score(m, k) + score(m ^ uint64(0x5555), k + 1)
        return t

    ms = np.array([0, 1, 0xFFFF, 0x123456789ABCDEF, 2**63 + 5], dtype=np.uint64)
    results = [int(total(ms, k)) for k in range(6)]  # compiles total (and inlines) first
    print(json.dumps([copies, results]))
""")


def _run(how: str):
    out = subprocess.run(
        [sys.executable, "-c", NESTED, how],
        capture_output=True,
        text=True,
        check=True,
        env={"NUMBA_DISABLE_JIT": "0"},
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_kernels_install_it():
    import tichusim.kernels.jit  # noqa: F401  (the first kernel installs it)

    assert inliner.installed()


@pytest.mark.slow
def test_inlining_into_our_kernels_copies_no_block_and_computes_the_same():
    plain_copies, plain = _run("plain")
    ours_copies, ours = _run("ours")
    assert plain_copies > 0  # numba's own inliner copies the callee's blocks ...
    assert ours_copies == 0  # ... and into our kernels none is copied
    assert ours == plain
    assert inliner._fresh == set()


@pytest.mark.slow
def test_a_users_functions_are_inlined_as_numba_does():
    plain_copies, plain = _run("plain")
    users_copies, users = _run("users")  # tichusim's inliner installed, the user's own njit
    assert users_copies == plain_copies and users == plain


def test_switched_off_by_the_environment():
    script = "from tichusim._compile import inliner; print(inliner.install())"
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env={"TICHUSIM_NUMBA_INLINER": "0"},
    )
    assert out.stdout.strip() == "False"
