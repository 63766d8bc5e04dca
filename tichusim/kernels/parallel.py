"""Chunks of a batch kernel on threads: the engines' parallelism, without ``prange``.

A batch kernel (``@njit(nogil=True)``) plays the units ``lo..hi`` of its arrays; ``in_chunks``
cuts ``0..n`` into ``chunks`` ranges and runs them on ``numba.get_num_threads()`` Python
threads, which run at once because the kernel releases the GIL. This replaces a ``prange``
loop over the chunks for compile time: a parallel kernel compiles the engine into a gufunc
and links it twice more, a large share of a cold compile, for no speed at run time. A
unit's result depends only on its own inputs, never on the chunk or thread it ran on, so the
tables are the same whatever the thread count.

A cold kernel compiles on the calling thread (its first chunk runs there): compiled in a pool
thread, numba's allocations went through one of glibc's secondary arenas, which hands memory
back to the system eagerly, and the compile page-faulted far more often and spent much more
system time. (That was measured before ``_compile.frame_stack``; the frame-stack slowdown it removes
shows the same symptoms and may have been the cause.)
"""

from concurrent.futures import ThreadPoolExecutor

import numba

__all__ = ["in_chunks"]


def in_chunks(kernel, n: int, chunks: int, *args, scratch=tuple) -> None:
    """``kernel(*args, *scratch(), lo, hi)`` over ``chunks`` ranges covering ``0..n``, in
    parallel; ``scratch()`` gives each chunk its own buffers (allocated here rather than in
    the kernel: a kernel that may either allocate its buffers or take the caller's merges the
    two into one variable, and that alone cost a measurable share of the round with cheap
    strategies)."""
    chunks = max(1, min(int(chunks), n))
    bounds = [(c * n // chunks, (c + 1) * n // chunks) for c in range(chunks)]
    if not kernel.signatures:  # compile (or load) on this thread, see above
        kernel(*args, *scratch(), *bounds.pop(0))
    threads = min(numba.get_num_threads(), len(bounds))
    if threads <= 1:
        for lo, hi in bounds:
            kernel(*args, *scratch(), lo, hi)
        return
    with ThreadPoolExecutor(threads) as pool:  # result(): a kernel's error is raised here
        futures = [pool.submit(kernel, *args, *scratch(), lo, hi) for lo, hi in bounds]
        for future in futures:
            future.result()
