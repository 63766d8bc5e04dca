"""Jitted kernels of the team games (RULES.md §2–§4: Nanjing, Tientsin, Wu Wang): the variants
as data (``variants``), the records, the views a strategy sees, the policies, the round engine
and its parallel batch drivers. Arrays and records in and out; no I/O, no Python objects.
"""
