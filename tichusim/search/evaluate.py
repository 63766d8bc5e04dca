"""The search's measurement (``evaluate_plays``): every candidate answer of one decision played
out on many deals of the cards the seat has not seen.

Each deal agrees with everything the seat's view holds (``kernels/tichu/rollout.py``: its
hand, the cards played, every seat's count, the cards it passed, the ranks a seat is known to
lack, a hand strong enough for each call made, Wu Wang's open hands) and with nothing else:
the search reads the view only, never the other seats' cards. From each deal the rest of the
round is played out once per candidate with a scripted strategy at every seat (``rollout``,
``expert`` by default), and each candidate gets its team's score margin (card points, going
out first and second, Tichu and Grand Tichu results: RULES.md §2.13, §2.14). The candidates
share the deals and the seats' random streams (paired), so their difference is measured with
far less noise than their values.

Every decision of the team games can be weighed (``EVALUATED``): a play, a bomb out of turn,
a Tichu call at each of its points (§2.3), the Grand Tichu call, the passed cards, the
wish, the Dragon's gift and the Dog's lead. ``evaluate_plays`` serves any caller holding a
``View``: the ``Search`` agent (``search/agent.py``, which searches ``SEARCHED``), the advice
a command gives (``analysis/advise.py``), the review of a played game (``review/``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..games.base import thread_scratch
from ..games.view import CODES
from ..kernels.errors import ERR_NONE, ERRORS
from ..kernels.tichu import rollout as rollout_kernel
from ..kernels.tichu import table_models
from ..stats import Paired

if TYPE_CHECKING:
    from ..games.base import Game
    from ..games.team import TeamGame
    from ..games.view import View

__all__ = [
    "CALLS",
    "EVALUATED",
    "SEARCHED",
    "TICHU_POINTS",
    "NoDeal",
    "SearchResult",
    "evaluate_plays",
]

# the decisions ``evaluate_plays`` weighs: every decision of the team games
EVALUATED = ("grand_tichu", "tichu", "pass", "play", "bomb", "wish", "dragon", "dog")
SEARCHED = ("play", "bomb", "tichu", "grand_tichu")  # the decisions the ``Search`` agent searches
_CODES = {name: CODES[name] for name in EVALUATED}  # their codes (``kernels/outside.py``)
CALLS = ("tichu", "grand_tichu")  # the decisions answered by a call or none
# the Tichu questions the ``Search`` agent searches: after the passing and before a turn
# (RULES.md §2.3); ``evaluate_plays`` weighs the others too
TICHU_POINTS = (1, 2)
_BEFORE_BOMB = 3  # a Tichu question right before a bomb out of turn (§2.3): its detail


class NoDeal(ValueError):
    """No deal of the unseen cards agrees with what the seat knows (``evaluate_plays``)."""


@dataclass
class SearchResult:
    """What a search measured at one decision: ``candidates`` (plays, ``None`` for a pass or
    no bomb), and for each candidate ``c`` and deal ``k`` its team's score margin
    ``margin[c, k]`` (the deciding seat's team minus the other), ``first[c, k]``, whether
    its team had the first player out, and ``own_first[c, k]``, whether the seat itself did (a
    call of its made, RULES.md §2.14). The deals are the columns, shared by every candidate:
    ``paired`` compares two candidates by the mean and spread of their per-deal difference."""

    candidates: list
    margin: np.ndarray
    first: np.ndarray
    own_first: np.ndarray

    @property
    def samples(self) -> int:
        return int(self.margin.shape[1])

    @property
    def paired(self) -> Paired:
        """The candidates' margins on the shared deals."""
        return Paired(self.margin)

    def means(self) -> np.ndarray:
        """Each candidate's mean margin."""
        return self.paired.means()

    def best(self) -> int:
        """The index of the candidate with the highest mean margin (the first on a tie)."""
        return self.paired.best()

    def better(self, c: int, than: int, z: float) -> bool:
        """Whether candidate ``c``'s mean margin exceeds candidate ``than``'s by more than
        ``z`` standard errors of their paired difference (``Paired.beats``)."""
        return self.paired.beats(c, than, z)


def _scratch() -> np.ndarray:
    """This thread's rollout buffers (``rollout.scratch``), made at its first search."""
    return thread_scratch(rollout_kernel.scratch)


def _rows(game: Game, rollout: Any) -> np.ndarray:
    """The rollout strategy's kernel row at every seat of ``game``."""
    row = game.param_rows(game.resolve(rollout, 1))
    return np.ascontiguousarray(np.tile(row, (game.seats, 1)), np.float64)


def _answer(view: View, candidate: Any, calls: bool) -> tuple[int, int]:
    """A candidate as the kernels take it, ``(mask, code)``: a play's cards and combination
    (0, 0: a pass or no bomb); a call's 1 or 0; else 1 and the script's answer
    (``kernels/outside.py``): the passed cards packed, the wished rank, the seat named."""
    decision = view.decision
    if calls:
        if not isinstance(candidate, (bool, int, np.integer)):
            raise ValueError(f"a candidate is not a legal answer at this {decision}")
        return int(candidate), 0  # anything but 1 or 0 the kernel refuses
    if decision in ("play", "bomb"):
        return (0, 0) if candidate is None else (int(candidate), int(candidate.combo.code))
    if decision == "pass":
        n = view.game.seats
        offsets = [d for d in range(1, n) if view.detail >> d & 1]
        cards = list(candidate) if isinstance(candidate, (tuple, list)) else []
        if len(cards) != len(offsets):
            raise ValueError(f"a pass gives one card to each of {len(offsets)} seats")
        pairs = zip(offsets, cards, strict=True)
        return 1, sum(int(c).bit_length() << (6 * (d - 1)) for d, c in pairs)
    return 1, int(candidate)


def evaluate_plays(
    view: View,
    candidates: list,
    samples: int = 48,
    seed: int = 0,
    rollout: Any = "expert",
    *,
    paired: bool = True,
    inference: bool = True,
    bomb: Any = None,
) -> SearchResult:
    """Play ``samples`` consistent deals out from ``view``'s decision once per answer of
    ``candidates``, every seat then played by the scripted strategy ``rollout``. Candidates
    are choices among the decision's legal ones (``games/team_steps.py``): ``Play`` objects,
    ``None`` to pass or not bomb; ``True`` or ``False`` for a call; a pass's tuple of cards;
    a wished rank (0: none); a seat for the Dragon's gift or the Dog's lead. A Grand Tichu
    search plays each deal from the start of the round (``rollout._grand``); a Tichu called
    before the passing plays the passing on, and one called right before a bomb out of turn
    (detail 3) is weighed with that ``bomb`` (a ``Play``) played next. Deal ``k`` and the
    seats' streams come from ``(seed, k)``: the same seed gives the same result. Deals that
    cannot be made consistent are left out of the result's columns. ``paired=False`` plays
    each candidate on deals of its own and ``inference=False`` deals ignoring what the seats'
    actions tell (the ranks a seat is known to lack, the hands the calls announce): both only
    to measure what they add. ``ValueError`` when the view admits no deal at all (an
    impossible position) or a candidate is not a legal answer."""
    if view.decision not in _CODES:
        raise ValueError(f"a search evaluates {', '.join(EVALUATED)}, not {view.decision!r}")
    if not candidates:
        raise ValueError("no candidates to evaluate")
    samples = int(samples)
    if samples < 1:
        raise ValueError(f"samples: at least 1, not {samples}")
    game = cast("TeamGame", view.game)  # a search plays the team games
    calls = view.decision in CALLS
    before_bomb = view.decision == "tichu" and view.detail == _BEFORE_BOMB
    if before_bomb and bomb is None:
        raise ValueError("a Tichu right before a bomb out of turn is weighed with that bomb")
    answers = [_answer(view, c, calls) for c in candidates]
    cand_m = np.array([m for m, _ in answers], np.uint64)
    cand_c = np.array([c for _, c in answers], np.int64)
    margin = np.zeros((len(candidates), samples), np.float64)
    first = np.zeros((len(candidates), samples), np.int8)
    settings = np.zeros(1, rollout_kernel.SEARCH)
    settings["decision"] = _CODES[view.decision]
    settings["detail"] = view.detail
    settings["samples"] = samples
    settings["seed"] = seed
    settings["ablate"] = (0 if paired else rollout_kernel.UNPAIRED) | (
        0 if inference else rollout_kernel.NO_INFERENCE
    )
    if before_bomb:
        settings["bomb_m"] = int(bomb)
        settings["bomb_c"] = int(bomb.combo.code)
    scratch = _scratch()
    rows, models = table_models.table(_rows(game, rollout))  # the rollouts' models
    dealt, err = rollout_kernel.EVALUATE[game.variant_code](
        settings,
        rows,
        models,
        view.public,
        view.private,
        (cand_m, cand_c),
        (margin, first),
        scratch,
    )
    if err == rollout_kernel.ERR_CANDIDATE:
        raise ValueError(f"a candidate is not a legal answer at this {view.decision}")
    if err == rollout_kernel.ERR_NO_DEAL and view.decision == "grand_tichu":
        raise NoDeal(
            "no deal found in which the seats before answered the Grand Tichu question as "
            f"they did, their strategy {rollout!r} (in {rollout_kernel.GRAND_TRIES} tries a deal)"
        )
    if err == rollout_kernel.ERR_NO_DEAL:
        raise NoDeal(
            "no deal of the unseen cards agrees with this view (card counts, the cards "
            "passed, the ranks a seat lacks): an impossible position"
        )
    if err != ERR_NONE:
        raise RuntimeError(f"a rollout stopped: {ERRORS[err]}")
    kept = (first >= 0).all(axis=0)
    firsts = first[:, kept]
    return SearchResult(
        list(candidates), margin[:, kept], firsts > 0, firsts == rollout_kernel.OWN_FIRST
    )
