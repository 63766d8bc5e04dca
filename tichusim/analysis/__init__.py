"""Answers from simulations: statistics and summaries, Grand Tichu odds of a hand and by hand
class, duplicate matches and leagues, reports and plots.
"""

from ..games.registry import notice as _notice

# every analysis plays or classifies hands with the card kernels, which compile as their
# modules load: said on stderr, on a cold cache, whichever analysis is imported first
with _notice("cards", "import"):
    from ..cards import combos as _combos  # noqa: F401
