"""``tichusim report RUN_DIR``: a Markdown summary of a run with PNG plots, written into it.

What it shows, every estimate with its 95% interval: round scores of both teams (and their
distribution), per strategy the points per round, call rates and success (the caller went out
first, RULES.md §2.3/§2.14), finishing positions, double victories; call success by the
hand-strength score of the caller's hand (the default heuristic's weights, on the first 8
cards for Grand Tichu and on the 14 cards after the passing for Tichu, the hand a Tichu caller
plays with; a Tichu called before the passing was judged on the dealt 14, which the table
also holds).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .handclass import strength_scores
from .stats import mean_ci, wilson
from .tables import load

__all__ = ["REPORT", "report"]

REPORT = "report.md"
FIGURES = "report"  # folder of the PNGs inside the run directory
ROUND_COLUMNS = ["round", "score_team0", "score_team1", "double_victory", "first_out", "bombs",
                 "tricks", "game", "round_in_game"]  # fmt: skip
SEAT_COLUMNS = ["round", "seat", "team", "strategy", "hand8", "hand_passed", "grand_tichu",
                "tichu", "finish", "points"]  # fmt: skip
MIN_CALLS = 30  # score bins with fewer calls are left out of the table and the plot


def _pct(e) -> str:
    return "n/a" if e.n == 0 else f"{100 * e.value:.1f}% [{100 * e.low:.1f}, {100 * e.high:.1f}]"


def _pts(e) -> str:
    return "n/a" if e.n == 0 else f"{e.value:+.1f} [{e.low:+.1f}, {e.high:+.1f}]"


def _num(e) -> str:
    return f"{e.value:.3f} [{e.low:.3f}, {e.high:.3f}]"


def per_strategy(seats: pd.DataFrame, rounds: pd.DataFrame) -> pd.DataFrame:
    """One row per strategy. Calls and finishing are per seat-round; points and double
    victories are per team-round (the two partners share one team score, so counting both
    seats would double the sample without adding information)."""
    double = rounds.set_index("round")["double_victory"]
    rows = []
    for name, g in seats.groupby("strategy", observed=True, sort=True):
        first = g["finish"] == 1
        teams = g.assign(first=first).groupby(["round", "team"], sort=False)
        team_rounds = teams.agg(points=("points", "first"), first=("first", "any")).reset_index()
        won_double = team_rounds["first"].to_numpy() & double.reindex(
            team_rounds["round"]).to_numpy(bool)
        row = {"strategy": str(name), "seat-rounds": f"{len(g):,}",
               "points/round (its team)": _pts(mean_ci(team_rounds["points"]))}  # fmt: skip
        for call, label in (("tichu", "Tichu"), ("grand_tichu", "Grand Tichu")):
            c = g[g[call].astype(bool)]
            row[f"{label} calls"] = _pct(wilson(len(c), len(g)))
            row[f"{label} success"] = _pct(wilson(int((c["finish"] == 1).sum()), len(c)))
        row["out first"] = _pct(wilson(int(first.sum()), len(g)))
        row["double victory (its team)"] = _pct(wilson(int(won_double.sum()), len(team_rounds)))
        rows.append(row)
    return pd.DataFrame(rows)


def call_success(seats: pd.DataFrame) -> pd.DataFrame:
    """Success of calls by score bin: rows ``call, score_bin, calls, success, low, high``."""
    rows = []
    for call, label, hand in (("grand_tichu", "Grand Tichu", "hand8"),
                              ("tichu", "Tichu", "hand_passed")):  # fmt: skip
        c = seats[seats[call].astype(bool)]
        if not len(c):
            continue
        bins = np.floor(strength_scores(c[hand].to_numpy(np.uint64))).astype(np.int64)
        ok = (c["finish"] == 1).to_numpy()
        for b in np.unique(bins):
            sel = bins == b
            e = wilson(int(ok[sel].sum()), int(sel.sum()))
            rows.append({"call": label, "score_bin": int(b), "calls": e.n, "success": e.value,
                         "low": e.low, "high": e.high})  # fmt: skip
    return pd.DataFrame(rows, columns=["call", "score_bin", "calls", "success", "low", "high"])


def finish_table(seats: pd.DataFrame) -> pd.DataFrame:
    """Share of finishing positions (1st..3rd out, last; 'beaten 1-2' for the two players
    still holding cards after a double victory) per strategy, or per seat when all seats
    play the same strategy."""
    by = "strategy" if seats["strategy"].nunique() > 1 else "seat"
    labels = {1: "1st out", 2: "2nd", 3: "3rd", 4: "last", 0: "beaten 1-2"}
    t = pd.crosstab(seats[by].astype(str) if by == "strategy" else "seat " + seats[by].astype(str),
                    seats["finish"].map(labels), normalize="index")
    return t.reindex(columns=[v for v in labels.values() if v in t.columns])


def _markdown_table(df: pd.DataFrame) -> list[str]:
    cols = list(df.columns)
    lines = ["| " + " | ".join(map(str, cols)) + " |", "|---" * len(cols) + "|"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(str(v) for v in row) + " |")
    return lines


def report(run_dir) -> Path:
    """Write ``report.md`` and ``report/*.png`` into ``run_dir`` (a ``tichusim run`` directory
    or a ``simulate --out`` folder); return the path of the Markdown file."""
    from .plots import call_success_plot, finish_plot, score_plot

    data = load(run_dir, rounds_columns=ROUND_COLUMNS, seats_columns=SEAT_COLUMNS)
    rounds, seats, info = data.rounds, data.seats, data.info
    if not len(rounds):
        raise ValueError(f"{run_dir}: the run has no rounds")
    run_dir = Path(run_dir)
    figs = run_dir / FIGURES
    figs.mkdir(exist_ok=True)
    score_plot(rounds, figs / "scores.png")
    calls = call_success(seats)
    call_success_plot(calls, figs / "call_success.png")
    finish = finish_table(seats)
    finish_plot(finish, figs / "finish.png")

    lines = [f"# Run report: {run_dir.name}", ""]
    source = [f"{len(rounds):,} rounds"]
    if info.get("layout") == "run":
        source += [f"run {info.get('run_id')}", f"mode {info.get('mode')}",
                   f"seed {info.get('seed')}",
                   f"{info.get('shards_done')} of {info.get('shards')} shards done"]  # fmt: skip
    if "game" in rounds.columns:
        source.append(f"{rounds['game'].nunique():,} games")
    lines += ["Source: " + ", ".join(source) + ". Brackets: 95% intervals (normal for means, "
              "Wilson for rates). Regenerate: `tichusim report " + str(run_dir) + "`.", ""]
    margin = rounds["score_team0"] - rounds["score_team1"]
    doubles = wilson(int(rounds["double_victory"].sum()), len(rounds))
    lines += ["## Rounds", "", "| figure | value |", "|---|---|",
              f"| team 0 points/round | {_pts(mean_ci(rounds['score_team0']))} |",
              f"| team 1 points/round | {_pts(mean_ci(rounds['score_team1']))} |",
              f"| team 0 - team 1 | {_pts(mean_ci(margin))} |",
              f"| double victories | {_pct(doubles)} |",
              f"| bombs per round | {_num(mean_ci(rounds['bombs']))} |",
              f"| tricks per round | {_num(mean_ci(rounds['tricks']))} |"]  # fmt: skip
    if "game" in rounds.columns:
        per_game = rounds.groupby("game")["round_in_game"].max() + 1
        lines.append(f"| rounds per game | {_num(mean_ci(per_game))} |")
    lines += ["", "![round scores](report/scores.png)", "", "## Strategies", "",
              *_markdown_table(per_strategy(seats, rounds)), "",
              "Success: the caller went out first. Double victory: its team went out first "
              "and second.", "", "## Call success by hand strength", "",
              "Score: the default heuristic's hand-strength score (it calls Grand Tichu at 2.5 "
              "and Tichu at 0) of the caller's first 8 cards (Grand Tichu) or of its 14 cards "
              f"after the passing (Tichu); bins with fewer than {MIN_CALLS} calls are left "
              "out.", "", "![call success](report/call_success.png)", ""]  # fmt: skip
    calls = calls[calls["calls"] >= MIN_CALLS]
    if len(calls):
        shown = calls.assign(success=[f"{100 * s:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
                                      for s, lo, hi in zip(calls.success, calls.low, calls.high)])
        lines += _markdown_table(shown[["call", "score_bin", "calls", "success"]]
                                 .rename(columns={"score_bin": "score from"}))  # fmt: skip
    else:
        lines.append(f"No score bin has {MIN_CALLS} calls or more in this run.")
    fin = finish.map(lambda v: f"{100 * v:.1f}%").reset_index()
    lines += ["", "## Finishing positions", "", "![finishing positions](report/finish.png)", "",
              *_markdown_table(fin), ""]  # fmt: skip
    out = run_dir / REPORT
    out.write_text("\n".join(lines))
    return out
