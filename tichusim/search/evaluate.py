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

``evaluate_plays`` serves any caller holding a ``View``: the ``Search`` agent
(``search/agent.py``), the advice a command gives (``analysis/advise.py``).
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

__all__ = ["CALLS", "SEARCHED", "TICHU_POINTS", "NoDeal", "SearchResult", "evaluate_plays"]

SEARCHED = ("play", "bomb", "tichu", "grand_tichu")  # the decisions a search can search
_CODES = {name: CODES[name] for name in SEARCHED}  # their codes (``kernels/outside.py``)
CALLS = ("tichu", "grand_tichu")  # the decisions answered by a call or none
# the Tichu questions searched: after the passing and before a turn (RULES.md §2.3; before the
# passing the rollouts would have to play the passing too)
TICHU_POINTS = (1, 2)


class NoDeal(ValueError):
    """No deal of the unseen cards agrees with what the seat knows (``evaluate_plays``)."""


@dataclass
class SearchResult:
    """What a search measured at one decision: ``candidates`` (plays, ``None`` for a pass or
    no bomb), and for each candidate ``c`` and deal ``k`` its team's score margin
    ``margin[c, k]`` (the deciding seat's team minus the other) and ``first[c, k]``, whether
    its team had the first player out. The deals are the columns, shared by every candidate:
    ``paired`` compares two candidates by the mean and spread of their per-deal difference."""

    candidates: list
    margin: np.ndarray
    first: np.ndarray

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


def evaluate_plays(
    view: View,
    candidates: list,
    samples: int = 48,
    seed: int = 0,
    rollout: Any = "expert",
    *,
    paired: bool = True,
    inference: bool = True,
) -> SearchResult:
    """Play ``samples`` consistent deals out from ``view``'s decision (a play, a bomb out of
    turn, a Tichu question after the passing or before a turn, or the Grand Tichu question)
    once per answer of ``candidates`` (``Play`` objects among the legal choices, ``None`` to
    pass or not bomb; ``True`` or ``False`` for a call), every seat then played by the
    scripted strategy ``rollout``; a Grand Tichu search plays each deal from the start of the
    round (``rollout._grand``). Deal ``k`` and the seats' streams come from ``(seed, k)``: the
    same seed gives the same result. Deals that cannot be made consistent are left out of the
    result's columns. ``paired=False`` plays each candidate on deals of its own and
    ``inference=False`` deals ignoring what the seats' actions tell (the ranks a seat is known
    to lack, the hands the calls announce): both only to measure what they add.
    ``ValueError`` when the view admits no deal at all (an impossible position) or a
    candidate is not a legal answer."""
    if view.decision not in _CODES:
        raise ValueError(
            f"a search evaluates plays, bombs and (Grand) Tichu calls, not {view.decision!r}"
        )
    if view.decision == "tichu" and view.detail not in TICHU_POINTS:
        raise ValueError("a search evaluates the Tichu calls after the passing and before a turn")
    if not candidates:
        raise ValueError("no candidates to evaluate")
    samples = int(samples)
    if samples < 1:
        raise ValueError(f"samples: at least 1, not {samples}")
    game = cast("TeamGame", view.game)  # a search plays the team games
    calls = view.decision in CALLS
    cand_m = np.array([0 if c is None else int(c) for c in candidates], np.uint64)
    cand_c = np.array([0 if c is None or calls else c.combo.code for c in candidates], np.int64)
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
    return SearchResult(list(candidates), margin[:, kept], first[:, kept].astype(bool))
