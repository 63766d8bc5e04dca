"""Cards from Python: the ``uint64`` card-set layout and its notation (``notation``), and the
combinations and legal plays of a hand (``combos``: the rules core's Python face); the same
for Grand Seigneur's two-deck multisets (``seigneur``).

``tichusim.cards.parse``, ``format`` and the layout constants are the notation's, re-exported.
"""

from .notation import *  # noqa: F403
from .notation import (  # noqa: F401
    NORMAL,
    RANK_CHARS,
    __all__,  # noqa: F401
    as_mask,
    format_pattern,
    parse_pattern,
)
