"""A plain-text summary of simulated tables, every figure with its 95% interval."""

from __future__ import annotations

import pandas as pd

from ..stats import mean_ci, wilson
from .seigneur_analysis import summarize_seigneur

__all__ = ["summarize", "summary"]


def summary(game, rounds: pd.DataFrame, seats: pd.DataFrame) -> str:
    """The summary of the tables of ``game`` (a ``tichusim.games.base.Game``): the one its
    ``summary`` names."""
    return _SUMMARIES[game.summary](rounds, seats)


def summarize(rounds: pd.DataFrame, seats: pd.DataFrame) -> str:
    n = len(rounds)
    lines = [f"rounds: {n}"]
    wuwang = "score_minister" in rounds  # §4: team 0 is the King's side, whoever is King
    sides = ("the King's side", "the opponents") if wuwang else ("team 0", "team 1")
    for team in (0, 1):
        lines.append(f"score per round, {sides[team]}: {mean_ci(rounds[f'score_team{team}'])}")
    diff = rounds["score_team0"] - rounds["score_team1"]
    lines.append(f"{sides[0]} - {sides[1]} per round: {mean_ci(diff)}")
    if wuwang:  # §4: each player scores his side's total; the Minister the King's side's
        for who in ("player0", "player1", "player2", "minister"):
            lines.append(f"score per round, {who}: {mean_ci(rounds[f'score_{who}'])}")
    kind = "triple" if "triple_victory" in rounds else "double"  # Tientsin: triple (§3)
    lines.append(f"{kind} victories: {wilson(int(rounds[f'{kind}_victory'].sum()), n)}")
    lines.append(f"tricks per round: {mean_ci(rounds['tricks'])}")
    lines.append(f"bombs per round: {mean_ci(rounds['bombs'])}")
    for call in ("grand_tichu", "tichu"):
        called = seats[seats[call]]
        rate = wilson(len(called), len(seats))
        success = wilson(int(called["call_success"].sum()), len(called))
        lines.append(f"{call.replace('_', ' ')} calls per seat-round: {rate}; success: {success}")
    return "\n".join(lines)


_SUMMARIES = {"team": summarize, "seigneur": summarize_seigneur}
