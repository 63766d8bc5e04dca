"""Jitted kernels of Grand Seigneur (RULES.md §5, 5–12 players, one or two decks): two-deck card
multisets, their combinations and moves, the views, the policies, the round engine and its
parallel batch drivers. The same module names as ``kernels.tichu``.
"""
