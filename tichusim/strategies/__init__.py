"""Strategies from Python: named, composed from a base with policies and parameters
(``book``: one mechanism for both families), for the team games (``tichu``) and Grand
Seigneur (``seigneur``). A strategy becomes the row of numbers its family's kernels read;
its text form on the command line and strategies written in Python live with the games
(``games/strategy_text.py``, ``games/agents.py``).
"""

# The team games' default scripted strategy (Nanjing, Tientsin, Wu Wang): the strategy book's
# default, the base of a Python agent that names none, the batch scripts' self-play (not the
# base of a table that names none, which stays heuristic: book.StrategyBook.plain says why).
# The strongest scripted player: expert beats heuristic in duplicate (results/ladder.md), and
# gains replacing one Wu Wang player (scripts/wuwang_swap.py).
DEFAULT_STRATEGY = "expert"

# The players the answers seat wherever none is named: gt-odds, tichu-odds, pass-advice,
# gt-table, advise's rollouts and the server's answers, at every team table. The strongest
# fast player: learned beats expert in duplicate (results/ladder.md, results/learned/), and
# each table plays its own shipped network (learned.shipped). Named, not copied: what
# ``learned`` plays (its network, its passing) is what the answers get. A saved table names
# the players it was made with (gt-table's command and model.json), so it rebuilds and reads
# as it was made, whatever this is.
ANSWER_STRATEGY = "learned"

# Kept here, importing nothing, so the command line reads them at once.
# Grand Seigneur has its own strategies and default (seigneur.DEFAULT).

__all__ = ["ANSWER_STRATEGY", "DEFAULT_STRATEGY"]
