"""Duplicate matches: two strategies play the same deals from both sides of the table.

Deal ``i`` is played twice with the same seed and round key: once with strategy A on seats 0
and 2 (team 0), once with A on seats 1 and 3 (team 1). Both strategies hold the same cards
across the pair, so the luck of the deal cancels and the per-deal difference is a paired
sample; its mean and interval are the strength gap in points per round.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .simulate import simulate
from .stats import Estimate, mean_ci, wilson
from .strategies import resolve

__all__ = ["DuplicateResult", "duplicate"]


@dataclass(frozen=True)
class DuplicateResult:
    a: str
    b: str
    deals: int
    diff: Estimate  # A minus B, points per round (mean of the two tables of a deal)
    per_strategy: pd.DataFrame  # one row per strategy: points, calls and their success, ...

    def __str__(self) -> str:
        return f"{self.a} vs {self.b} over {self.deals} deals: {self.a} - {self.b} = {self.diff} points per round"


def _side_stats(name: str, rounds: list[pd.DataFrame], seats: list[pd.DataFrame], teams) -> dict:
    """Figures of one strategy from its team's rows in both tables."""
    points, mine = [], []
    for r, s, team in zip(rounds, seats, teams):
        points.append(r[f"score_team{team}"].to_numpy())
        mine.append(s[s["team"] == team])
    me = pd.concat(mine)
    out = {"strategy": name, "points_per_round": mean_ci(np.concatenate(points))}
    for call in ("grand_tichu", "tichu"):
        called = me[me[call]]
        out[f"{call}_rate"] = wilson(len(called), len(me))
        out[f"{call}_success"] = wilson(int((called["finish"] == 1).sum()), len(called))
    dv = sum(int((r["double_victory"] & (r["first_out"] % 2 == t)).sum()) for r, t in zip(rounds, teams))
    out["double_victories"] = wilson(dv, sum(len(r) for r in rounds))
    out["team_first_out"] = wilson(int((me["finish"] == 1).sum()), len(me) // 2)
    return out


def duplicate(a, b, deals: int, *, seed: int = 0, check: bool = False) -> DuplicateResult:
    """Strategy ``a`` against ``b`` over ``deals`` duplicated deals (names, tables or
    ``Strategy`` objects)."""
    sa, sb = resolve(a, 1)[0], resolve(b, 1)[0]
    r1, s1 = simulate(deals, seed=seed, strategies=[sa, sb, sa, sb], check=check)
    r2, s2 = simulate(deals, seed=seed, strategies=[sb, sa, sb, sa], check=check)
    margin1 = (r1["score_team0"] - r1["score_team1"]).to_numpy()
    margin2 = (r2["score_team1"] - r2["score_team0"]).to_numpy()
    diff = mean_ci((margin1 + margin2) / 2)
    rows = [
        _side_stats(sa.name, [r1, r2], [s1, s2], (0, 1)),
        _side_stats(sb.name, [r1, r2], [s1, s2], (1, 0)),
    ]
    return DuplicateResult(sa.name, sb.name, deals, diff, pd.DataFrame(rows))
