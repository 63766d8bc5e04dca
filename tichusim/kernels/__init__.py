"""Jitted kernels only: arrays and records in, arrays and records out; no I/O, no Python objects.

The common layer every table uses sits here (``bits``: the card-set layout; ``rng``:
counter-based streams; ``combos``: combination codes and the beat relation; ``moves``: legal
plays; ``hand``: hand analysis; ``eventlog``: the rows of a round's log). Each family of games
has a folder with the same module names: ``tichu`` (RULES.md §2–§4) and ``seigneur`` (§5).

Importing this package readies the process for numba's compiler (``_frame_stack.install``: a
CPython 3.11/3.12 slowdown cost cold compiles up to half their time).
"""

from .._frame_stack import install as _install_frame_stack_cache

_install_frame_stack_cache()
