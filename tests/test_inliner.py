"""Numba's inliner without its wasted copies (``tichusim._inliner``, issue 17): installed with
the kernels, inlining no longer deep-copies the callee's blocks, and what it compiles computes
the same. (The engine itself is held to the same results by the golden transcripts.)"""

import json
import subprocess
import sys
import textwrap

import numba
import pytest

from tichusim import _inliner

pytestmark = pytest.mark.skipif(not _inliner._applies(numba), reason="numba version not checked")

# Nested inline="always" functions with loops and branches; prints the block copies the
# inliner made and the results on a few inputs.
NESTED = textwrap.dedent("""
    import copy, json, sys
    import numpy as np
    from numba import njit, uint64
    from numba.core import ir
    if sys.argv[1] == "install":
        from tichusim import _inliner
        assert _inliner.install()
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
    out = subprocess.run([sys.executable, "-c", NESTED, how], capture_output=True, text=True,
                         check=True, env={"NUMBA_DISABLE_JIT": "0"})  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_kernels_install_it():
    import tichusim.kernels  # noqa: F401  (importing the kernels readies the process)

    assert _inliner.installed()


def test_inlining_copies_no_block_and_computes_the_same():
    plain_copies, plain = _run("plain")
    fixed_copies, fixed = _run("install")
    assert plain_copies > 0  # numba's own inliner copies the callee's blocks ...
    assert fixed_copies == 0  # ... and with the fix none is copied
    assert fixed == plain
    assert _inliner._fresh == set()


def test_switched_off_by_the_environment():
    script = "from tichusim import _inliner; print(_inliner.install())"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, env={"TICHUSIM_NUMBA_INLINER": "0"})  # fmt: skip
    assert out.stdout.strip() == "False"
