"""Advice for a position: every legal play of a seat ranked by simulation (``tichusim advise``).

The position is a ``games.position.Position``: what one seat knows at its turn at a team
table (RULES.md §2-§4, §6), checked against the rules. ``advise`` scores every legal play of
the seat (passing too, when allowed) with the search's rollouts
(``search.evaluate.evaluate_plays``) from the position's view: many deals of the unseen cards
consistent with the view, each candidate played out from the same deals with the same streams
(paired), every seat then played by a scripted strategy. Each play gets its team's mean score
margin with a 95% interval, its paired difference to the best play with an interval, and the
chance its team goes out first.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .. import checks
from ..cards import notation as cards
from ..cards.combos import Play
from ..games.position import Position
from ..search.evaluate import evaluate_plays
from ..search.prune import prune
from ..stats import Estimate, wilson
from ..strategies import ANSWER_STRATEGY
from ..strategies.tichu import resolve

__all__ = ["Advice", "Position", "Ranked", "advise"]

# -- the advice --------------------------------------------------------------------------


@dataclass(frozen=True)
class Ranked:
    """One candidate play: its cards (``None``: pass), its team's mean score margin (the
    seat's team minus the other, the round's whole score: §2.13, §2.14) with a 95% interval,
    the paired difference to the best play, and the chance its team goes out first."""

    play: Play | None
    margin: Estimate
    vs_best: Estimate
    first_out: Estimate
    expert: bool  # the rollout strategy's own choice

    @property
    def text(self) -> str:
        if self.play is None:
            return "pass"
        return f"{cards.format(int(self.play))} ({self.play.combo.kind})"


@dataclass(frozen=True)
class Advice:
    """The ranked plays (best first) and how they were measured."""

    position: Position
    ranked: list[Ranked]
    samples: int
    rollout: str
    seed: int
    seconds: float

    def to_dict(self) -> dict:
        return {
            "seat": self.position.seat,
            "samples": self.samples,
            "rollout": self.rollout,
            "seed": self.seed,
            "plays": [
                {
                    "play": None if r.play is None else cards.format(int(r.play)),
                    "combination": None if r.play is None else r.play.combo.kind,
                    "margin": r.margin.to_json(4),
                    "vs_best": r.vs_best.to_json(4),
                    "first_out": r.first_out.to_json(4),
                    "rollout_choice": r.expert,
                }
                for r in self.ranked
            ],
        }

    def __str__(self) -> str:
        width = max(len(r.text) for r in self.ranked)
        lines = [
            f"Seat {self.position.seat}, hand {cards.format(self.position.hand)}: "
            f"{len(self.ranked)} plays, each played out on the same {self.samples:,} deals "
            f"of the unseen cards ({self.rollout} at every seat afterwards)",
            "",
            f"{'play':<{width}}  {'margin (points)':>22}  {'vs best':>22}  "
            f"{'P(team out first)':>22}",
        ]
        for r in self.ranked:
            mark = "  <- " + self.rollout if r.expert else ""
            lines.append(
                f"{r.text:<{width}}  {r.margin.pts(6):>22}  {r.vs_best.pts(6):>22}  "
                f"{r.first_out.pct(6):>22}{mark}"
            )
        lines += [
            "",
            "margin: the round's score of the seat's team minus the other team's (card points, "
            "first and second out, Tichu and Grand Tichu; RULES.md §2.13, §2.14), mean and 95% "
            "interval; vs best: the paired difference to the first play, deal by deal.",
        ]
        return "\n".join(lines)


def advise(
    position: Position,
    samples: int = 2000,
    *,
    candidates: int = 40,
    rollout: str = ANSWER_STRATEGY,
    seed: int = 0,
) -> Advice:
    """Every legal play of ``position``'s seat (at most ``candidates`` of them, pruned as the
    search prunes, the rollout strategy's choice always kept), ranked by mean score margin
    over ``samples`` consistent deals; the same seed gives the same advice."""
    checks.whole(samples, "samples", 2)
    checks.whole(candidates, "candidates", 1)
    plays, can_pass = position.legal()
    legal: list[Play | None] = [*plays, *([None] if can_pass else [])]
    view = position.view()
    g = position.game
    row = resolve(rollout, 1, variant=g.name)[0].param_row(g.name)
    view.__dict__["random"] = np.random.default_rng(seed)  # ``decide`` reads no stream here
    choice = g.steps.decide(row, view, legal)
    chosen = prune(legal, candidates, choice)
    evaluate_plays(position.view(), chosen[:1], 1, seed, rollout)  # compiled before the clock
    t0 = time.perf_counter()
    result = evaluate_plays(position.view(), chosen, samples, seed, rollout)
    seconds = time.perf_counter() - t0
    paired = result.paired
    best = paired.best()
    ranked = [
        Ranked(
            play=chosen[c],
            margin=paired.estimate(c),
            vs_best=paired.difference(c, best),
            first_out=wilson(int(result.first[c].sum()), result.samples),
            expert=chosen[c] is choice,
        )
        for c in np.argsort(-paired.means(), kind="stable")
    ]
    return Advice(position, ranked, result.samples, rollout, seed, seconds)
