"""PNG figures (matplotlib, Agg backend: no display needed) for ``gt-table`` and ``report``.

Every estimate is drawn with its 95% interval as an error bar, so a reader sees at once which
differences are real.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

__all__ = ["call_success_plot", "finish_plot", "gt_plot", "score_plot"]

_COMBOS = [(False, False, "no Dragon, no Phoenix"), (True, False, "Dragon"),
           (False, True, "Phoenix"), (True, True, "Dragon + Phoenix")]  # fmt: skip
MIN_POINTS = 30  # classes with fewer deals are left out of a plot


def _save(fig, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return Path(path)


def _errorbar(ax, x, y, low, high, **kw):
    y, low, high = map(np.asarray, (y, low, high))
    ax.errorbar(x, y, yerr=[y - low, high - y], capsize=3, marker="o", ms=4, **kw)


def gt_plot(t, path) -> Path:
    """Grand Tichu odds: success and gain by Aces for each Dragon/Phoenix combination (no
    bomb), and by hand-strength score bin."""
    gain = t.source == "experiment"
    fig, axes = plt.subplots(2, 2 if gain else 1, figsize=(11 if gain else 6, 8), squeeze=False)
    c = t.classes[(~t.classes["bomb"]) & (t.classes["deals"] >= MIN_POINTS)]
    for k, (dr, ph, label) in enumerate(_COMBOS):
        m = c[(c["dragon"] == dr) & (c["phoenix"] == ph)]
        x = m["aces"] + (k - 1.5) * 0.06
        _errorbar(axes[0, 0], x, 100 * m["p_success"], 100 * m["p_low"], 100 * m["p_high"],
                  label=label)  # fmt: skip
        if gain:
            _errorbar(axes[0, 1], x, m["ev_diff"], m["ev_diff_low"], m["ev_diff_high"], label=label)
    axes[0, 0].set(xlabel="Aces in the first 8 cards", ylabel="P(out first | Grand Tichu) %",
                   title="Success of a Grand Tichu call (no bomb)", xticks=range(5))  # fmt: skip
    axes[0, 0].legend(fontsize=8)
    s = t.scores[t.scores["deals"] >= MIN_POINTS]
    x = s["score_bin"] + 0.5
    _errorbar(axes[1, 0], x, 100 * s["p_success"], 100 * s["p_low"], 100 * s["p_high"])
    axes[1, 0].set(xlabel="hand-strength score of the first 8 cards (heuristic weights)",
                   ylabel="P(out first | Grand Tichu) %",
                   title="Success by strength score")  # fmt: skip
    if gain:
        axes[0, 1].axhline(0, color="grey", lw=1)
        axes[0, 1].set(xlabel="Aces in the first 8 cards", xticks=range(5),
                       ylabel="points per round: call - no call",
                       title="Value of calling (same deals, 95% intervals)")  # fmt: skip
        axes[0, 1].legend(fontsize=8)
        _errorbar(axes[1, 1], x, s["ev_diff"], s["ev_diff_low"], s["ev_diff_high"])
        axes[1, 1].axhline(0, color="grey", lw=1)
        axes[1, 1].set(xlabel="hand-strength score of the first 8 cards (heuristic weights)",
                       ylabel="points per round: call - no call", title="Value by strength score")
    for ax in axes.flat:
        ax.grid(alpha=0.3)
    return _save(fig, path)


def score_plot(rounds: pd.DataFrame, path) -> Path:
    """Distribution of the round scores of both teams (one histogram per team)."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    lo = int(min(rounds["score_team0"].min(), rounds["score_team1"].min()))
    hi = int(max(rounds["score_team0"].max(), rounds["score_team1"].max()))
    bins = np.arange(lo - lo % 10 - 5, hi + 15, 10)
    for team in (0, 1):
        ax.hist(rounds[f"score_team{team}"], bins=bins, alpha=0.55, label=f"team {team}",
                density=True)  # fmt: skip
    ax.set(xlabel="round score of the team (card points + call bonuses)", ylabel="density",
           title=f"Round scores ({len(rounds):,} rounds)")  # fmt: skip
    ax.legend()
    ax.grid(alpha=0.3)
    return _save(fig, path)


def call_success_plot(table: pd.DataFrame, path) -> Path:
    """Success of Tichu and Grand Tichu calls by hand-strength score bin (``report``)."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for call, g in table.groupby("call", sort=False):
        g = g[g["calls"] >= MIN_POINTS]
        if len(g):
            label = f"{call} ({int(g['calls'].sum()):,} calls)"
            _errorbar(ax, g["score_bin"] + 0.5, 100 * g["success"], 100 * g["low"],
                      100 * g["high"], label=label)  # fmt: skip
    ax.set(xlabel="hand-strength score (heuristic weights) of the first 8 cards (Grand Tichu) or "
           "of the 14 after passing (Tichu)", ylabel="caller out first %",
           title="Call success by hand strength")  # fmt: skip
    if ax.lines:
        ax.legend()
    else:
        ax.text(0.5, 0.5, f"fewer than {MIN_POINTS} calls in any score bin", ha="center",
                transform=ax.transAxes)  # fmt: skip
    ax.grid(alpha=0.3)
    return _save(fig, path)


def finish_plot(table: pd.DataFrame, path) -> Path:
    """Finishing-position frequencies per strategy (rows: strategy, columns: position)."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    positions = list(table.columns)
    width = 0.8 / max(1, len(table))
    x = np.arange(len(positions))
    for i, (name, row) in enumerate(table.iterrows()):
        offset = (i - (len(table) - 1) / 2) * width
        ax.bar(x + offset, 100 * row.to_numpy(float), width, label=str(name))
    ax.set_xticks(x, positions)
    ax.set(ylabel="% of seat-rounds", title="Finishing positions")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, axis="y")
    return _save(fig, path)
