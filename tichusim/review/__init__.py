"""The review of a played game (``tichusim review``): every decision of every player weighed
from that player's information set with the table's strong player in the rollouts, the loss
of each against the best answer found, flagged by the points it lost, each player's error
rate and calls, and each deal's par beside its result (docs/review.md).

``review_game(game)`` and ``review_round(record)`` take the records ``tichusim.read_game``
reads (a Brettspielwelt log, a tichusim game record) or a stepped round writes
(``Round.record()``); ``settings_of`` makes their settings, and ``summarise`` sums up a
seat over rounds reviewed (a game's, or one round's).
"""

from .result import FORMAT, GameReview, PlayerSummary, RoundReview, summarise
from .review import review_game, review_round, settings_of
from .settings import EFFORTS, FLAGS, Effort, Settings, Thresholds
from .weigh import STATUSES, Weighed

__all__ = [
    "EFFORTS",
    "FLAGS",
    "FORMAT",
    "STATUSES",
    "Effort",
    "GameReview",
    "PlayerSummary",
    "RoundReview",
    "Settings",
    "Thresholds",
    "Weighed",
    "review_game",
    "review_round",
    "settings_of",
    "summarise",
]
