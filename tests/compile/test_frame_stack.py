"""The frame-stack chunk cache (``tichusim._compile.frame_stack``): a call loop sitting on a chunk
boundary no longer maps and unmaps a chunk per call, the interpreter still works, and it is in
place in tichusim's own command-line processes only (``tests/compile/test_guest.py``: never on
import)."""

import re
import subprocess
import sys
import textwrap

import pytest

from tichusim._compile import frame_stack

pytestmark = pytest.mark.skipif(
    not frame_stack._applies(), reason="CPython 3.11 to 3.13 on Linux only"
)

# Calls g() 20,000 times at every depth 0..399: at some depths the call crosses into a new
# chunk of CPython's frame stack. Prints the minor page faults of the worst depth: each chunk
# mapped afresh faults at least once.
SWEEP = textwrap.dedent("""
    import resource, sys
    def g(x):
        return x
    def loop(n):
        for i in range(n):
            g(i)
    def at_depth(d, n):
        return loop(n) if d == 0 else at_depth(d - 1, n)
    def faults():
        return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    if sys.argv[1] == "install":
        from tichusim._compile.frame_stack import install
        assert install()
    worst = 0
    for d in range(400):
        before = faults()
        at_depth(d, 20000)
        worst = max(worst, faults() - before)
    print(worst)
""")


def _worst_faults(how: str) -> int:
    out = subprocess.run(
        [sys.executable, "-c", SWEEP, how],
        capture_output=True,
        text=True,
        check=True,
        env={"TICHUSIM_FRAME_STACK_CACHE": "1"},
    )
    return int(out.stdout)


def test_the_command_line_installs_it():
    out = subprocess.run(
        [sys.executable, "-m", "tichusim.cli", "doctor"],
        capture_output=True,
        text=True,
        check=True,
        env={"TICHUSIM_FRAME_STACK_CACHE": "1"},
    )
    assert re.search(r"^change: frame-stack +on ", out.stdout, re.M), out.stdout


def test_a_loop_on_a_chunk_boundary_maps_no_chunk_per_call():
    assert _worst_faults("plain") >= 20000  # the slowdown is there without the cache ...
    assert _worst_faults("install") < 200  # ... and gone with it


def test_the_interpreter_still_works_with_it():
    """Deep recursion, threads, generators and garbage collection with the cache in place: every
    chunk handed out again is a whole, writable one."""
    script = textwrap.dedent("""
        import gc, sys, threading
        from tichusim._compile.frame_stack import install
        assert install()
        sys.setrecursionlimit(20000)
        def depth(n):
            return 0 if n == 0 else 1 + depth(n - 1)
        def gen(n):
            for i in range(n):
                yield depth(i % 300)
        results = []
        def work(k):
            results.append(sum(depth(d) for d in range(0, 3000, 7)) + sum(gen(500)) + k)
        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in threads: t.start()
        for t in threads: t.join()
        gc.collect()
        assert sorted(results) == [sum(range(0, 3000, 7)) + sum(i % 300 for i in range(500)) + k
                                   for k in range(4)], results
        print(depth(15000))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "15000"


def test_switched_off_by_the_environment():
    script = "from tichusim._compile.frame_stack import install; print(install())"
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env={"TICHUSIM_FRAME_STACK_CACHE": "0"},
    )
    assert out.stdout.strip() == "False"
