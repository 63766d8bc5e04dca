"""Jitted kernels only: arrays and records in, arrays and records out; no I/O, no Python objects.

The common layer every table uses sits here (``bits``: the card-set layout; ``rng``:
counter-based streams; ``combos``: combination codes and the beat relation; ``moves``: legal
plays; ``hand``: hand analysis; ``eventlog``: the rows of a round's log; ``jit``: numba's
``njit`` as every kernel uses it). Each family of games has a folder with the same module
names: ``tichu`` (RULES.md §2–§4) and ``seigneur`` (§5).

Importing this package readies the process for numba's compiler (issue 17), for cold compiles
about half as long and faster kernels: ``_frame_stack`` (a CPython 3.11-3.13 slowdown),
``_inliner`` (numba's inliner copying every inlined function twice for nothing),
``_literals`` (a kernel compiled again for every set of constants its callers pass) and
``_linkage`` (LLVM's module pipeline once per entry point, over callees made its own;
callees without a CPython wrapper).
"""

from .. import _frame_stack, _inliner, _literals, _linkage

_frame_stack.install()
_inliner.install()
_literals.install()
_linkage.install()
