"""Why a round stopped: the error codes both round engines return, with one name each.

A round that breaks a rule or overflows a buffer stops and reports one of these codes in its
round record (``error``); ``ERRORS[code]`` is the name the Python face puts in its one-line
message. The checker's tests are RULES.md §7's invariants; ``ERR_POINTS`` and ``ERR_VIEW``
belong to the team games only (card points, §2.14; the Minister's hand shown, §4).
"""

ERR_NONE = 0
ERR_CARDS = 1  # a card in two places or in none (§7)
ERR_ILLEGAL = 2  # a play that is no combination, does not beat the top, or breaks the wish
ERR_POINTS = 3  # card points of the two teams do not sum to 100
ERR_SCORE = 4  # score is not card points + call bonuses
ERR_FINISH = 5  # finishing order is not a permutation
ERR_STRATEGY = 6  # a strategy answered outside its choices
ERR_MOVES = 7  # the move buffer was too small
ERR_LOG = 8  # the log buffer was too small
ERR_VIEW = 9  # Wu Wang: the Minister's hand as shown is not the hand (§4, §6)
ERR_PENDING = 10  # a decision taken from Python waits for its answer (``outside.py``)
ERRORS = (
    "",
    "card conservation",
    "illegal play",
    "card points",
    "score",
    "finishing order",
    "strategy answer",
    "move buffer",
    "log buffer",
    "public view",
    "decision left to Python",
)

__all__ = [
    "ERRORS",
    "ERR_CARDS",
    "ERR_FINISH",
    "ERR_ILLEGAL",
    "ERR_LOG",
    "ERR_MOVES",
    "ERR_NONE",
    "ERR_PENDING",
    "ERR_POINTS",
    "ERR_SCORE",
    "ERR_STRATEGY",
    "ERR_VIEW",
]
