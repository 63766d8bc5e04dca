"""A deal's par (``par``): the round's margin when the strong player sits at every seat with
the real hands, which tells the luck of the deal from the play.

The strong player (``learned``) is deterministic: from one deal it plays one round, whatever
the seed. One playout is a poor measure of a deal, as a single answer anywhere can swing a
round by a hundred points, so each playout trembles (the trembling hand of game theory): at
each play or bomb decision with a choice, with probability ``tremble`` a seat plays the
answer its network ranks second (another legal answer at random for a strong player without
a network) instead of its first. Both teams tremble alike, so the mean over the playouts is
the deal's value under strong play, and their spread gives it an interval. Each playout's
trembles come from its seed: the same settings give the same par.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..games.agents import Agent
from ..games.record import RoundRecord
from ..games.steps import Round
from ..games.view import View
from ..stats import Estimate, mean_ci
from .candidates import network_scores, same, strong_player

__all__ = ["Trembling", "par"]


class Trembling(Agent):
    """The strong player ``base`` trembling at its plays and bombs (the module's docstring)."""

    def __init__(self, base: str = "learned", tremble: float = 0.05) -> None:
        super().__init__(base=base, tremble=tremble)
        self.base = base
        self.tremble = float(tremble)
        self.name = f"trembling {base}"

    def play(self, view: View, legal: Any) -> Any:
        strong = strong_player(self.base).decide(view, legal)
        random = view.random
        if len(legal) < 2 or random is None or random.random() >= self.tremble:
            return strong
        scores = network_scores(view, list(legal), self.base)
        if scores is not None:
            order = np.argsort(-scores, kind="stable")
            return next(legal[i] for i in order if not same(legal[i], strong))
        others = [a for a in legal if not same(a, strong)]
        return others[int(random.integers(len(others)))]

    def bomb(self, view: View, legal: Any) -> Any:
        return self.play(view, legal)


def par(
    record: RoundRecord, playouts: int, rollout: str, tremble: float, seed: int, key: int
) -> tuple[Estimate, list[int]]:
    """The par of ``record``'s deal (the module's docstring): team 0's margin (team 0 less
    team 1; Wu Wang: the King's side) over ``playouts`` trembling playouts, each seeded by
    ``(seed, key * 1000 + i)``; and each playout's margin."""
    agent = Trembling(rollout, tremble)
    options = dict(record.options) or None
    margins = []
    for i in range(playouts):
        r = Round(
            seed,
            key * 1000 + i,
            agent,
            variant=record.variant,
            options=options,
            check=False,
            deal=record.deal,
        )
        r.advance()
        score = r.rounds[0, 0]["score"]
        margins.append(int(score[0]) - int(score[1]))
    return mean_ci(margins), margins
