"""Strategies from Python: named, composed from a base with policies and parameters
(``book``: one mechanism for both families), for the team games (``tichu``) and Grand
Seigneur (``seigneur``). A strategy becomes the row of numbers its family's kernels read;
its text form on the command line and strategies written in Python live with the games
(``games/strategy_text.py``, ``games/agents.py``).
"""

# The team games' default strategy (Nanjing, Tientsin, Wu Wang): wherever no strategy is named
# (gt-odds, tichu-odds, gt-table, the shipped answers; not the base of a table that names
# none, which stays heuristic: book.StrategyBook.plain says why). The strongest
# measured: expert beats heuristic in duplicate (results/ladder.md), and gains replacing one
# Wu Wang player (scripts/wuwang_swap.py). Kept here, importing nothing, so the command line
# reads it at once.
# Grand Seigneur has its own strategies and default (seigneur.DEFAULT).
DEFAULT_STRATEGY = "expert"

__all__ = ["DEFAULT_STRATEGY"]
