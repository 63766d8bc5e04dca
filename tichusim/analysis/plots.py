"""PNG figures (matplotlib, Agg backend: no display needed) for ``gt-table``, ``report`` and
``scripts/seigneur_analysis.py``.

Every estimate is drawn with its 95% interval (an error bar, or a band for a mean over a
histogram), so a reader sees at once which differences are real. The Grand Seigneur heat map
and reign lengths are axis-level helpers shared by the report and the script.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..stats import mean_ci, wilson

__all__ = [
    "call_success_plot",
    "estimate_bars",
    "finish_plot",
    "gt_plot",
    "reign_lengths",
    "score_plot",
    "seigneur_overview_plot",
    "transition_heatmap",
    "transition_plot",
]

_COMBOS = [
    (False, False, "no Dragon, no Phoenix"),
    (True, False, "Dragon"),
    (False, True, "Phoenix"),
    (True, True, "Dragon + Phoenix"),
]
MIN_POINTS = 30  # classes with fewer deals are left out of a plot


def _save(fig, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return Path(path)


def _yerr(y, low, high) -> np.ndarray:
    """Error bar lengths; clipped at 0 (a Wilson bound at a share of 0 or 1 can miss it by a
    rounding error, which matplotlib refuses)."""
    y, low, high = (np.asarray(a, float) for a in (y, low, high))
    return np.clip([y - low, high - y], 0, None)


def _errorbar(ax, x, y, low, high, **kw):
    ax.errorbar(
        x, np.asarray(y, float), yerr=_yerr(y, low, high), capsize=3, marker="o", ms=4, **kw
    )


def gt_plot(t, path) -> Path:
    """Grand Tichu odds: success and gain by Aces for each Dragon/Phoenix combination (no
    bomb), and by hand-strength score bin."""
    gain = t.source == "experiment"
    seen = f"the first {t.info.get('cards_seen', 8)} cards"  # 6 in Tientsin (RULES.md §3)
    fig, axes = plt.subplots(2, 2 if gain else 1, figsize=(11 if gain else 6, 8), squeeze=False)
    c = t.classes[(~t.classes["bomb"]) & (t.classes["deals"] >= MIN_POINTS)]
    for k, (dr, ph, label) in enumerate(_COMBOS):
        m = c[(c["dragon"] == dr) & (c["phoenix"] == ph)]
        x = m["aces"] + (k - 1.5) * 0.06
        _errorbar(
            axes[0, 0], x, 100 * m["p_success"], 100 * m["p_low"], 100 * m["p_high"], label=label
        )
        if gain:
            _errorbar(axes[0, 1], x, m["ev_diff"], m["ev_diff_low"], m["ev_diff_high"], label=label)
    axes[0, 0].set(
        xlabel=f"Aces in {seen}",
        ylabel="P(out first | Grand Tichu) %",
        title="Success of a Grand Tichu call (no bomb)",
        xticks=range(5),
    )
    axes[0, 0].legend(fontsize=8)
    s = t.scores[t.scores["deals"] >= MIN_POINTS]
    x = s["score_bin"] + 0.5
    _errorbar(axes[1, 0], x, 100 * s["p_success"], 100 * s["p_low"], 100 * s["p_high"])
    axes[1, 0].set(
        xlabel=f"hand-strength score of {seen} (heuristic weights)",
        ylabel="P(out first | Grand Tichu) %",
        title="Success by strength score",
    )
    if gain:
        axes[0, 1].axhline(0, color="grey", lw=1)
        axes[0, 1].set(
            xlabel=f"Aces in {seen}",
            xticks=range(5),
            ylabel="points per round: call - no call",
            title="Value of calling (same deals, 95% intervals)",
        )
        axes[0, 1].legend(fontsize=8)
        _errorbar(axes[1, 1], x, s["ev_diff"], s["ev_diff_low"], s["ev_diff_high"])
        axes[1, 1].axhline(0, color="grey", lw=1)
        axes[1, 1].set(
            xlabel=f"hand-strength score of {seen} (heuristic weights)",
            ylabel="points per round: call - no call",
            title="Value by strength score",
        )
    for ax in axes.flat:
        ax.grid(alpha=0.3)
    return _save(fig, path)


def score_plot(rounds: pd.DataFrame, path, labels=("team 0", "team 1")) -> Path:
    """Distribution of the round scores of both sides (one histogram each; ``labels`` name
    ``score_team0`` and ``score_team1``), each mean marked above it with its 95% interval."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    lo = int(min(rounds["score_team0"].min(), rounds["score_team1"].min()))
    hi = int(max(rounds["score_team0"].max(), rounds["score_team1"].max()))
    bins = np.arange(lo - lo % 10 - 5, hi + 15, 10).tolist()  # edges (hist's type: a sequence)
    means = [mean_ci(rounds[f"score_team{team}"]) for team in (0, 1)]
    for team, (label, e) in enumerate(zip(labels, means, strict=False)):
        ax.hist(
            rounds[f"score_team{team}"],
            bins=bins,
            alpha=0.55,
            density=True,
            color=f"C{team}",
            label=f"{label}: mean {e.value:+.1f} [{e.low:+.1f}, {e.high:+.1f}]",
        )
    top = ax.get_ylim()[1]
    for team, e in enumerate(means):  # above the bars, so a mean is not read as a spike
        ax.errorbar(
            e.value,
            top * (1.04 + 0.05 * team),
            fmt="v",
            color=f"C{team}",
            ms=7,
            xerr=_yerr(e.value, e.low, e.high)[:, None],
            capsize=4,
        )
    ax.set_ylim(0, top * 1.15)
    ax.set(
        xlabel="round score (card points or victory + call bonuses)",
        ylabel="density",
        title=f"Round scores ({len(rounds):,} rounds; ▼ mean, 95% interval)",
    )
    ax.legend()
    ax.grid(alpha=0.3)
    return _save(fig, path)


def call_success_plot(
    table: pd.DataFrame,
    path,
    hands: str = "the first 8 cards (Grand Tichu) or the 14 after passing (Tichu)",
) -> Path:
    """Success of Tichu and Grand Tichu calls by hand-strength score bin (``report``);
    ``hands`` says which cards were scored."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for call, g in table.groupby("call", sort=False):
        g = g[g["calls"] >= MIN_POINTS]
        if len(g):
            label = f"{call} ({int(g['calls'].sum()):,} calls)"
            _errorbar(
                ax,
                g["score_bin"] + 0.5,
                100 * g["success"],
                100 * g["low"],
                100 * g["high"],
                label=label,
            )
    ax.set(
        xlabel=textwrap.fill(f"hand-strength score (heuristic weights) of {hands}", 95),
        ylabel="caller out first % (95% interval)",
        title="Call success by hand strength",
    )
    if ax.lines:
        ax.legend()
    else:
        ax.text(
            0.5,
            0.5,
            f"fewer than {MIN_POINTS} calls in any score bin",
            ha="center",
            transform=ax.transAxes,
        )
    ax.grid(alpha=0.3)
    return _save(fig, path)


def finish_plot(table: pd.DataFrame, path) -> Path:
    """Finishing-position shares per group with their 95% intervals (``table``: rows
    ``group, position, share, low, high``, positions in the order to draw)."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    positions = list(dict.fromkeys(table["position"]))
    groups = list(dict.fromkeys(table["group"]))
    width = 0.8 / max(1, len(groups))
    x = np.arange(len(positions))
    for i, name in enumerate(groups):
        g = table[table["group"] == name].set_index("position").reindex(positions)
        share, low, high = (100 * g[c].to_numpy(float) for c in ("share", "low", "high"))
        ax.bar(
            x + (i - (len(groups) - 1) / 2) * width,
            share,
            width,
            label=str(name),
            yerr=_yerr(share, low, high),
            capsize=2,
            error_kw={"lw": 0.8},
        )
    ax.set_xticks(x, positions)
    ax.set(ylabel="% of seat-rounds (95% interval)", title="Finishing positions")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, axis="y")
    return _save(fig, path)


def estimate_bars(
    table: pd.DataFrame,
    path,
    *,
    ylabel: str,
    title: str,
    percent: bool = False,
    ref: float | None = None,
    ref_label: str = "",
) -> Path:
    """One bar per row of ``table`` (``label, value, low, high``) with its 95% interval;
    ``percent`` draws shares as %; ``ref`` a dashed reference line (e.g. equal players)."""
    scale = 100 if percent else 1
    fig, ax = plt.subplots(figsize=(max(5, 1 + 0.9 * len(table)), 4.2))
    y, low, high = (scale * table[c].to_numpy(float) for c in ("value", "low", "high"))
    x = np.arange(len(table))
    ax.bar(x, y, 0.6, yerr=_yerr(y, low, high), capsize=4, color="C0", alpha=0.8)
    if ref is not None:
        ax.axhline(scale * ref, color="grey", lw=1, ls="--", label=ref_label)
        ax.legend(fontsize=8)
    ax.axhline(0, color="black", lw=0.6)
    ax.set_xticks(x, [textwrap.fill(str(t), 14) for t in table["label"]], fontsize=8)
    ax.set(ylabel=ylabel, title=title)
    ax.grid(alpha=0.3, axis="y")
    return _save(fig, path)


# ---- Grand Seigneur (RULES.md §5): ranks from round to round -------------------------------


def transition_heatmap(
    ax, shares: pd.DataFrame, *, vmax: float | None = None, title: str = "", annotate: bool = False
):
    """``shares`` (rank before x rank after, rows summing to 1) as a heat map on ``ax``;
    ``annotate`` writes each cell's % (readable up to about 9 ranks)."""
    m = shares.to_numpy(float)
    n = len(shares)
    im = ax.imshow(m, cmap="viridis", vmin=0, vmax=np.nanmax(m) if vmax is None else vmax)
    ax.set_title(title, fontsize=9)
    ax.set_xticks(range(n), [str(c) for c in shares.columns], fontsize=7)
    ax.set_yticks(range(n), [str(c) for c in shares.index], fontsize=7)
    ax.set_xlabel("rank after", fontsize=8)
    ax.set_ylabel("rank before", fontsize=8)
    if annotate:
        light = 0.6 * np.nanmax(m)
        for i in range(n):
            for j in range(n):
                if not np.isnan(m[i, j]):
                    ax.text(
                        j,
                        i,
                        f"{100 * m[i, j]:.0f}",
                        ha="center",
                        va="center",
                        fontsize=7,
                        color="black" if m[i, j] > light else "white",
                    )
    ax.figure.colorbar(im, ax=ax, shrink=0.75)
    return im


def reign_lengths(ax, lengths: dict, title: str = ""):
    """Share of completed reigns by length (one line per key of ``lengths``: arrays of
    lengths), log scale; lengths past the 99.5th percentile are left out (a handful each)."""
    for name, ls in lengths.items():
        ls = np.asarray(ls)
        if not ls.size:
            continue
        k = np.arange(1, max(1, int(np.percentile(ls, 99.5))) + 1)
        ax.plot(k, [(ls == j).mean() for j in k], marker="o", ms=3, label=str(name))
    ax.set_yscale("log")
    ax.set_xlabel("reign length (rounds won in a row)")
    ax.set_ylabel("share of completed reigns")
    ax.set_title(title, fontsize=9)
    if ax.lines:
        ax.legend(fontsize=7)


def transition_plot(shares: pd.DataFrame, lengths, path, *, title: str) -> Path:
    """``report`` for Grand Seigneur: the transition matrix and the completed reign lengths
    of one run, the latter with Wilson intervals (one table size, so they fit)."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.8), width_ratios=[1.15, 1])
    transition_heatmap(
        left, shares, title=f"{title}: P(rank after | rank before) %", annotate=len(shares) <= 9
    )
    ls = np.asarray(lengths, np.int64)
    if ls.size:
        counts = np.bincount(ls)
        k = np.flatnonzero(counts[1:]) + 1  # the lengths seen (a log axis has no 0)
        est = [wilson(int(counts[j]), ls.size) for j in k]
        _errorbar(right, k, *([e[i] for e in est] for i in range(3)))
        right.set_yscale("log")
    right.set(
        xlabel="reign length (rounds won in a row)",
        ylabel="share of completed reigns",
        title=f"{ls.size:,} completed reigns (95% intervals)",
    )
    right.grid(alpha=0.3)
    return _save(fig, path)


def seigneur_overview_plot(
    matrices: dict, lengths: dict, summary_rows: list[dict], path, *, strategy: str, baseline: str
) -> Path:
    """``scripts/seigneur_analysis.py``: transition heat maps per table size (top row), reign
    lengths (bottom left) and the title's odds and mean reign per table size for ``strategy``
    and ``baseline`` (bottom right, 95% intervals)."""
    m = len(matrices)
    fig = plt.figure(figsize=(3.2 * max(m, 3), 6.8))
    grid = fig.add_gridspec(2, max(m, 2) * 2)
    vmax = max(np.nanmax(sh.to_numpy()) for sh in matrices.values())
    for i, (n, shares) in enumerate(matrices.items()):
        ax = fig.add_subplot(grid[0, 2 * i : 2 * i + 2])
        transition_heatmap(ax, shares, vmax=vmax, title=f"{n} players: P(after | before)")
    half = max(m, 2)
    reign_lengths(
        fig.add_subplot(grid[1, :half]),
        {f"{n} players": ls for n, ls in lengths.items()},
        title=f"reigns, every player {strategy}",
    )
    ax = fig.add_subplot(grid[1, half:])
    right = ax.twinx()  # mean reign on its own axis
    for name, style in ((strategy, "-"), (baseline, ":")):
        rows = [r for r in summary_rows if r["strategy"] == name]
        x = np.array([r["players"] for r in rows])
        for axis, key, color, label in (
            (ax, "p_keep", "C0", "P(keep title)"),
            (right, "mean_reign", "C1", "mean reign"),
        ):
            y = np.array([r[key].value for r in rows])
            lo = np.array([r[key].low for r in rows])
            hi = np.array([r[key].high for r in rows])
            axis.errorbar(
                x,
                y,
                yerr=[y - lo, hi - y],
                marker="o",
                ms=4,
                capsize=3,
                color=color,
                linestyle=style,
                label=f"{label}, {name}",
            )
    ax.set_xlabel("players")
    ax.set_ylabel("P(Grand Seigneur first again)", color="C0")
    right.set_ylabel("mean completed reign (rounds)", color="C1")
    ax.set_title(
        f"keeping the title: {strategy} (solid), {baseline} (dotted); 95% intervals", fontsize=9
    )
    return _save(fig, path)
