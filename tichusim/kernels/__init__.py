"""Jitted kernels only: arrays and records in, arrays and records out; no I/O, no Python objects.

The common layer every game uses sits here (``bits``: the card-set layout; ``rng``:
counter-based streams; ``combos``: combination codes and the beat relation; ``moves``: legal
plays; ``hand``: hand analysis; ``eventlog``: the rows of a round's log; ``jit``: numba's
``njit`` as every kernel uses it). Each family of games has a folder with the same module
names: ``tichu`` (RULES.md §2–§4) and ``seigneur`` (§5).
"""
