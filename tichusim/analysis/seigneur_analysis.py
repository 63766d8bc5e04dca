"""What RULES.md §5 says to measure in Grand Seigneur: the rank-to-rank transition matrix and
how long a Grand Seigneur keeps the title.

Inputs are the tables of ``tichusim.games.seigneur.simulate_seigneur`` played as games of several
rounds (``rounds_per_game`` > 1: ranks only exist from a game's second round on).

* ``transitions(seats)``: counts and row-wise shares of ``rank_before -> rank_after``.
* ``reigns(rounds)``: one row per reign, a maximal run of consecutive rounds won by the same
  player within a game, with its length; a run that reaches the game's last round is
  *censored* (it might have gone on) and flagged, since counting it as ended would bias the
  lengths down.
* ``reign_summary(rounds)``: the mean completed reign with its 95% interval, the share of
  rounds in which the Grand Seigneur keeps the title (Wilson interval) and the mean a
  memoryless title would give, ``1 / (1 - p_keep)``, for comparison.
"""

from __future__ import annotations

from typing import TypedDict

import numpy as np
import pandas as pd

from ..stats import Estimate, mean_ci, wilson

__all__ = ["reign_summary", "reigns", "summarize_seigneur", "transitions"]


def transitions(seats: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(counts, shares)``: rows rank before the round (1 = Grand Seigneur), columns rank after;
    ``shares`` rows sum to 1. Rounds without a rank before (a game's first) are left out."""
    ranked = seats.dropna(subset=["rank_before"])
    if ranked.empty:
        raise ValueError(
            "no round with ranks: play games of two rounds or more (rounds_per_game > 1)"
        )
    n = int(seats["rank_after"].max())
    counts = pd.crosstab(ranked["rank_before"].astype(int), ranked["rank_after"].astype(int))
    counts = counts.reindex(index=range(1, n + 1), columns=range(1, n + 1), fill_value=0)
    counts.index.name = "rank before"
    counts.columns.name = "rank after"
    shares = counts.div(counts.sum(axis=1).replace(0, np.nan), axis=0)
    return counts, shares


def reigns(rounds: pd.DataFrame) -> pd.DataFrame:
    """One row per reign: ``game``, ``player``, ``start`` (round in game it was won),
    ``length`` (rounds won in a row), ``censored`` (still running at the game's last round)."""
    r = rounds.sort_values(["game", "round_in_game"])
    game = r["game"].to_numpy()
    gs = r["grand_seigneur"].to_numpy()
    rig = r["round_in_game"].to_numpy()
    if len(r) == 0:
        return pd.DataFrame(columns=["game", "player", "start", "length", "censored"])
    new = np.r_[True, (game[1:] != game[:-1]) | (gs[1:] != gs[:-1])]
    starts = np.flatnonzero(new)
    ends = np.r_[starts[1:], len(r)] - 1
    last_of_game = np.r_[game[1:] != game[:-1], True]
    return pd.DataFrame(
        {
            "game": game[starts],
            "player": gs[starts],
            "start": rig[starts],
            "length": ends - starts + 1,
            "censored": last_of_game[ends],
        }
    )


class ReignSummary(TypedDict):
    """``reign_summary``'s figures."""

    mean_reign: Estimate  # completed reigns, in rounds
    p_keep: Estimate  # the Grand Seigneur's share of keeping the title
    memoryless_mean: float  # 1 / (1 - p_keep), NaN when undefined
    reigns: int  # completed
    censored: int  # still running when the games ended


def reign_summary(rounds: pd.DataFrame) -> ReignSummary:
    """Mean completed reign (rounds) with its interval, the keep-the-title share with its
    interval, the memoryless prediction ``1 / (1 - p_keep)``, and the reign counts."""
    table = reigns(rounds)
    done = table[~table["censored"]]
    kept = rounds["kept_title"].dropna()
    p_keep = wilson(int(kept.sum()), len(kept))
    return {
        "mean_reign": mean_ci(done["length"]),
        "p_keep": p_keep,
        "memoryless_mean": 1 / (1 - p_keep.value) if p_keep.n and p_keep.value < 1 else np.nan,
        "reigns": len(done),
        "censored": int(table["censored"].sum()),
    }


def summarize_seigneur(rounds: pd.DataFrame, seats: pd.DataFrame) -> str:
    """A plain-text summary of Grand Seigneur tables (``tichusim simulate``): tricks and bombs
    per round, and per strategy the mean finishing rank and how often it goes out first, each
    with its 95% interval."""
    n = len(rounds)
    players = int(rounds["players"].iloc[0]) if n else 0
    lines = [
        f"rounds: {n} ({players} players, deck: {rounds['deck'].iloc[0] if n else '-'})",
        f"tricks per round: {mean_ci(rounds['tricks'])}",
        f"bombs per round: {mean_ci(rounds['bombs'])}",
    ]
    for name, group in seats.groupby("strategy", observed=True):
        first = int((group["rank_after"] == 1).sum())
        lines.append(
            f"{name}: mean rank {mean_ci(group['rank_after'])}; "
            f"first out {wilson(first, len(group))}"
        )
    kept = rounds["kept_title"].dropna()
    if len(kept):
        lines.append(f"Grand Seigneur keeps the title: {wilson(int(kept.sum()), len(kept))}")
    return "\n".join(lines)
