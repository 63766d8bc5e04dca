"""One decision weighed (``weigh``): the value of what was played, of the best answer found,
and the loss between them with its 95% interval, from the deciding seat's information set
only (RULES.md §6: its view; the hidden cards dealt anew as the search deals them,
``search.evaluate_plays``, never the real hidden hands), the strong player at every seat in
the rollouts.

Cheap first:

1. a **forced** decision (one legal answer, or every answer alike to it: the same cards but
   for their suits, ``candidates.alike``) is not weighed;
2. a play or bomb the strong player makes too, whose network ranks it ahead of every other
   answer by ``Effort.agree`` points or more, is taken as right without rollouts
   (**agreed**);
3. the **screen**: every candidate (``candidates.py``) plays ``Effort.screen`` deals, what was
   played first, so a tie goes to it; when it is the best there, its loss is 0 (**best**);
4. else the **measure**: what was played and the best of the screen play ``Effort.measure``
   fresh deals, paired, and the loss is their mean difference there (**measured**). Chosen
   on the screen's deals and measured on others, the loss carries no bias from the choosing
   (the best of several noisy means is too high on the deals that chose it); it may come out
   below 0 where the two are close, and a review's mean loss averages it as it comes.

The margins are the round's score of the seat's team less the other team's (card points,
going out, the calls: §2.13, §2.14), so a loss of 20 is a ten-point card gone from one team
to the other. A call's odds are the share of the rollouts in which the caller went out first
with the call made (§2.14).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..cards import notation
from ..games.recorded import Decision
from ..search.evaluate import NoDeal, SearchResult, evaluate_plays
from ..stats import Estimate, wilson
from .candidates import alike, candidates, describe, network_scores, strong_player
from .settings import Settings

__all__ = ["STATUSES", "Weighed", "decision_seed", "weigh"]

# how a decision was weighed (the module's docstring), "unweighed" when the search could not
STATUSES = ("forced", "agreed", "best", "measured", "unweighed")
_NONE = Estimate(math.nan, math.nan, math.nan, 0)  # a value not measured
_NO_LOSS = Estimate(0.0, 0.0, 0.0, 0)  # no loss, none measured (forced, agreed)


@dataclass(frozen=True)
class Weighed:
    """One decision of a round, weighed: where it stood (``round``, its ``number`` in the
    round, the ``seat``, the ``decision`` and its ``detail``, the ``hand`` and the ``trick``
    in play as text), what was played (``chosen``), the strong player's choice (``strong``)
    and the best answer found (``best``, ``chosen`` when none is better), how it was weighed
    (``status``, ``candidates``, the deals it took in all, ``deals``), each one's value
    (the seat's team's mean round margin, 95% interval) and the ``loss`` (best less chosen,
    paired), its ``flag`` and, at a call, the call's odds of success (``odds``: the caller out
    first with the call made), and the record's ``action`` that made it (-1: a question the
    record declined)."""

    round: int
    number: int
    seat: int
    decision: str
    detail: int
    hand: str
    trick: str
    chosen: str
    strong: str
    best: str
    status: str
    candidates: int
    deals: int
    value: Estimate
    best_value: Estimate
    loss: Estimate
    flag: str
    called: bool
    odds: Estimate | None
    action: int
    why: str = ""  # an unweighed decision: why

    @property
    def weighed(self) -> bool:
        """Whether it counts among a player's decisions (not forced, weighed)."""
        return self.status not in ("forced", "unweighed")

    @property
    def lost(self) -> float:
        """The points lost (0 where none was measured)."""
        return 0.0 if self.loss.n == 0 or math.isnan(self.loss.value) else self.loss.value


def decision_seed(seed: int, round_index: int, number: int, stage: int) -> int:
    """The seed of a decision's deals at one stage: the review's ``seed``, the round, the
    decision and the stage, mixed (``numpy.random.SeedSequence``)."""
    state = np.random.SeedSequence([seed, round_index, number, stage]).generate_state(2)
    return int(state[0]) << 31 | int(state[1]) >> 1


def _odds(result: SearchResult, c: int) -> tuple[int, int]:
    return int(result.own_first[c].sum()), int(result.samples)


def weigh(
    d: Decision,
    settings: Settings,
    round_index: int = 0,
    *,
    hand: int,
    trick: str = "",
    bomb: Any = None,
) -> Weighed:
    """Weigh decision ``d`` (``games.recorded.decisions``) as the module's docstring says, with
    ``settings``' effort and rollout player; ``hand``: the seat's cards then, ``trick``: the
    trick in play as text, ``bomb``: at a Tichu right before a bomb out of turn, that bomb.
    The same settings and round give the same result."""
    effort = settings.effort
    kind = d.decision
    chosen = describe(kind, d.chosen)
    start = Weighed(
        round=round_index,
        number=d.number,
        seat=d.seat,
        decision=kind,
        detail=d.detail,
        hand=notation.format(hand),
        trick=trick,
        chosen=chosen,
        strong=chosen,
        best=chosen,
        status="forced",
        candidates=1,
        deals=0,
        value=_NONE,
        best_value=_NONE,
        loss=_NO_LOSS,
        flag="",
        called=kind in ("tichu", "grand_tichu") and bool(d.chosen),
        odds=None,
        action=d.action,
    )
    legal = list(d.legal)
    if len(legal) == 1:
        return start
    strong = strong_player(settings.rollout).decide(d.view, d.legal)
    scores = network_scores(d.view, legal, settings.rollout)
    start = replace(start, strong=describe(kind, strong))
    if scores is not None and effort.agree is not None and alike(kind, strong, d.chosen, hand):
        ordered = np.sort(scores)[::-1]
        if ordered[0] - ordered[1] >= effort.agree:
            return replace(start, status="agreed")
    pool = candidates(d, strong, scores, effort.candidates, hand)
    if len(pool) == 1:  # every answer alike (``candidates.alike``): no choice that matters
        return start
    try:
        screen = evaluate_plays(
            d.view,
            pool,
            effort.screen,
            decision_seed(settings.seed, round_index, d.number, 0),
            settings.rollout,
            bomb=bomb,
        )
    except NoDeal as exc:
        return replace(start, status="unweighed", candidates=0, why=str(exc))
    paired = screen.paired
    b = paired.best()
    call = pool.index(True) if kind in ("tichu", "grand_tichu") else None
    wins, tries = _odds(screen, call) if call is not None else (0, 0)
    deals = screen.samples * len(pool)
    if b == 0:
        runner = max((paired.difference(c, 0) for c in range(1, len(pool))), key=lambda e: e.value)
        value = paired.estimate(0)
        return replace(
            start,
            status="best",
            candidates=len(pool),
            deals=deals,
            value=value,
            best_value=value,
            loss=Estimate(0.0, 0.0, max(0.0, runner.high), screen.samples),
            odds=None if call is None else wilson(wins, tries),
        )
    measure = evaluate_plays(
        d.view,
        [pool[0], pool[b]],
        effort.measure,
        decision_seed(settings.seed, round_index, d.number, 1),
        settings.rollout,
        bomb=bomb,
    )
    if call is not None:  # the call is one of the two measured
        w, t = _odds(measure, 0 if call == 0 else 1)
        wins, tries = wins + w, tries + t
    loss = measure.paired.difference(1, 0)
    return replace(
        start,
        best=describe(kind, pool[b]),
        status="measured",
        candidates=len(pool),
        deals=deals + measure.samples * 2,
        value=measure.paired.estimate(0),
        best_value=measure.paired.estimate(1),
        loss=loss,
        flag=settings.thresholds.flag(loss.value, loss.low),
        odds=None if call is None else wilson(wins, tries),
    )
