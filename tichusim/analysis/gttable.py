"""Grand Tichu odds across all hands: success and value of calling by hand class, as tables,
a plot and a fitted model.

Two sources, and why they differ:

* ``experiment`` (the honest answer to "should this kind of hand call?"): random deals played
  twice with common randomness, seat 0 forced to call Grand Tichu in one play and forbidden in
  the other (``gtodds.paired_rounds``); the other seats play their usual strategies. Seat 0's
  8 cards are random, so every class is sampled in proportion to how often it is dealt, and
  the per-deal difference of the caller's team score is the value of the call for that
  hand. (Forcing every seat to call would be a different game: three more calls to beat.)
* ``from_run`` (what a run's ``seats`` table says): only the seat-rounds where a Grand Tichu
  was actually called. With a threshold strategy those are the hands it chose to call, so
  rates are conditional on the strategy's choice (selection) and there is no counterfactual,
  hence no value of calling. A run whose config forces one seat to call (``grand_tichu =
  "always"``) gives unbiased success rates for that seat.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..stats import Estimate, mean_ci, percent, wilson
from ..strategies import ANSWER_STRATEGY
from .gtodds import SEAT0, paired_rounds, seat_strategies
from .handclass import GTModel, calibration, features, hand_class, representative
from .played_once import played_once

__all__ = ["CLASS_KEYS", "GTTable", "by_class", "class_row", "experiment", "from_run", "write"]

BATCH = 100_000
MIN_CELL = 30  # fewer deals than this: a cell is shown as "-" in Markdown


def experiment(
    deals: int,
    *,
    seed: int = 0,
    seat_strategy=ANSWER_STRATEGY,
    others=ANSWER_STRATEGY,
    progress=None,
    batch: int = BATCH,
) -> pd.DataFrame:
    """One row per deal: seat 0's first 8 cards (``hand8``), whether it went out first when
    calling (``success``), its team's round score with and without the call, the caller's
    team's double victory, and whether it called a plain Tichu when not calling.
    ``progress(done, deals)`` after each batch, and with ``done`` 0 once the kernels are
    compiled (``analysis.played_once``). ``batch``: deals played between two calls of
    ``progress`` (the rows are the same whatever it is)."""
    call, no_call = seat_strategies(seat_strategy, others)
    played_once(lambda keys: paired_rounds(seed, keys, call, no_call))
    if progress is not None:
        progress(0, deals)
    parts = []
    for start in range(0, deals, batch):
        keys = np.arange(start, min(deals, start + batch), dtype=np.int64)
        pairs = paired_rounds(seed, keys, call, no_call)
        (rc, sc), (_, sn) = pairs.call, pairs.no_call
        me_c, me_n = sc[:, SEAT0], sn[:, SEAT0]
        parts.append(
            pd.DataFrame(
                {
                    "round": keys,
                    "hand8": me_c["hand8"],
                    "success": me_c["finish"] == 1,
                    "points_call": me_c["points"].astype(np.int64),
                    "points_no_call": me_n["points"].astype(np.int64),
                    "double_victory": rc["double_victory"] & (rc["first_out"] % 2 == SEAT0 % 2),
                    "tichu_no_call": me_n["tichu"],
                }
            )
        )
        if progress is not None:
            progress(int(keys[-1]) + 1, deals)
    df = pd.concat(parts, ignore_index=True)
    df["gain"] = df["points_call"] - df["points_no_call"]
    return df


def from_run(seats: pd.DataFrame) -> pd.DataFrame:
    """The seat-rounds of a run's ``seats`` table that called Grand Tichu, in the columns of
    ``experiment`` (no counterfactual: ``points_no_call`` and ``gain`` are missing), with
    ``cards_seen``: how many cards ``hand8`` holds, the cards seen at the call (8, RULES.md
    §2.2; 6 in Tientsin, §3). Any team game's table will do (Nanjing, Tientsin, Wu Wang,
    where only the opponents call, §4); a Grand Seigneur table has no calls (§5):
    ``ValueError``."""
    if "grand_tichu" not in seats.columns:
        raise ValueError(
            "this run's seats table has no grand_tichu column: Grand Tichu "
            "odds need a Nanjing, Tientsin or Wu Wang run (Grand Seigneur has no "
            "calls, RULES.md §5)"
        )
    called = seats[seats["grand_tichu"].astype(bool)]
    hands = called["hand8"].to_numpy(np.uint64)
    seen = {int(h).bit_count() for h in hands}  # one value per variant: the table says which
    if len(seen) > 1:
        raise ValueError(
            f"the Grand Tichu hands hold {sorted(seen)} cards: one variant at a time, please"
        )
    return pd.DataFrame(
        {
            "round": called["round"].to_numpy(),
            "hand8": hands,
            "success": (called["finish"] == 1).to_numpy(),
            "points_call": called["points"].to_numpy(np.int64),
            "points_no_call": np.nan,
            "gain": np.nan,
            "cards_seen": np.full(len(called), seen.pop() if seen else 8, np.int64),
        }
    )


def _summary(g: pd.DataFrame) -> dict:
    n = len(g)
    s = wilson(int(g["success"].sum()), n)
    has_gain = g["gain"].notna().all() and n > 0
    missing = Estimate(np.nan, np.nan, np.nan, n)
    gain = mean_ci(g["gain"].to_numpy(np.float64)) if has_gain else missing
    call = mean_ci(g["points_call"].to_numpy(np.float64))
    no = mean_ci(g["points_no_call"].to_numpy(np.float64)) if has_gain else missing
    return {
        "deals": n,
        "p_success": s.value,
        "p_low": s.low,
        "p_high": s.high,
        "ev_call": call.value,
        "ev_no_call": no.value,
        "ev_diff": gain.value,
        "ev_diff_low": gain.low,
        "ev_diff_high": gain.high,
    }


def by_class(df: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Per class (``keys`` among aces, dragon, phoenix, bomb, score_bin): deals, success rate
    with its Wilson interval, mean team points with and without the call, and the mean paired
    gain with its interval."""
    cls = pd.DataFrame(hand_class(features(df["hand8"].to_numpy(np.uint64))), index=df.index)
    data = pd.concat([df, cls], axis=1)
    rows = [
        {**dict(zip(keys, k if isinstance(k, tuple) else (k,), strict=False)), **_summary(g)}
        for k, g in data.groupby(keys, sort=True)
    ]
    return pd.DataFrame(rows)


CLASS_KEYS = ["aces", "dragon", "phoenix", "bomb"]  # the classes of the table's first part


def class_row(classes: pd.DataFrame, hand: str) -> dict:
    """The row of ``classes`` (``by_class`` over ``CLASS_KEYS``, ``GTTable.classes``) that the
    8 cards ``hand`` fall in (a rank without a suit takes a free suit, as ``GTModel.predict``
    does): ``class`` (its keys), ``deals`` and ``estimates`` (``p_success`` and ``ev_diff``,
    each in the one shape of an estimate; no deal of the table in the class: no estimates)."""
    f = hand_class(features([representative(hand)]))
    key = {k: f[k][0].item() for k in CLASS_KEYS}
    match = classes
    for k, v in key.items():
        match = match[match[k] == v]
    out: dict = {"class": key, "deals": 0, "estimates": {}}
    if len(match):
        row = match.iloc[0]
        n = int(row["deals"])
        out["deals"] = n
        out["estimates"] = {
            "p_success": Estimate(row["p_success"], row["p_low"], row["p_high"], n).to_json(),
            "ev_diff": Estimate(
                row["ev_diff"], row["ev_diff_low"], row["ev_diff_high"], n
            ).to_json(),
        }
    return out


@dataclass
class GTTable:
    """The tables, the model and how they were made."""

    source: str  # "experiment" or "run"
    deals: int
    classes: pd.DataFrame  # Aces x Dragon x Phoenix x bomb
    scores: pd.DataFrame  # by score bin
    overall: dict
    model: GTModel | None
    info: dict = field(default_factory=dict)


def build(df: pd.DataFrame, *, source: str, info: dict, fit: bool = True) -> GTTable:
    """Tables (and, for an experiment, the model fitted on 4/5 of the deals and calibrated on
    the other fifth, then refitted on all)."""
    model = None
    if "cards_seen" in df.columns and len(df):  # from_run: 8, or 6 in Tientsin (RULES.md §3)
        info = {**info, "cards_seen": int(df["cards_seen"].iloc[0])}
    if fit and source == "experiment" and len(df) >= 1000:
        hold = (df["round"] % 5 == 0).to_numpy()
        train = df[~hold]
        first = GTModel.fit(
            train["hand8"].to_numpy(np.uint64),
            train["success"],
            train["gain"],
            train["tichu_no_call"],
        )
        test = df[hold]
        cal = calibration(
            first,
            test["hand8"].to_numpy(np.uint64),
            test["success"].to_numpy(),
            test["gain"].to_numpy(np.float64),
        )
        info = {**info, "deals": len(df), "holdout": cal}
        model = GTModel.fit(
            df["hand8"].to_numpy(np.uint64), df["success"], df["gain"], df["tichu_no_call"], info
        )
    return GTTable(
        source,
        len(df),
        by_class(df, CLASS_KEYS),
        by_class(df, ["score_bin"]),
        _summary(df),
        model,
        info,
    )


# ---- output -----------------------------------------------------------------------------

_COMBOS = [
    (False, False, "no Dr, no Ph"),
    (True, False, "Dragon"),
    (False, True, "Phoenix"),
    (True, True, "Dragon + Phoenix"),
]


def _cell(row, gain: bool) -> str:
    if row is None or row["deals"] < MIN_CELL:
        return "-"
    p = f"{100 * row['p_success']:.0f}%"
    if not gain or np.isnan(row["ev_diff"]):
        return f"{p} (n={row['deals']:,})"
    mark = "**" if row["ev_diff_low"] > 0 else ""
    return (
        f"{mark}{row['ev_diff']:+.0f} [{row['ev_diff_low']:+.0f}, {row['ev_diff_high']:+.0f}]"
        f"{mark} / {p}"
    )


def _pivot(classes: pd.DataFrame, bomb: bool, gain: bool) -> list[str]:
    head = "| Aces | " + " | ".join(c[2] for c in _COMBOS) + " |"
    lines = [head, "|---" * (len(_COMBOS) + 1) + "|"]
    sub = classes[classes["bomb"] == bomb]
    for aces in range(5):
        cells = []
        for dr, ph, _ in _COMBOS:
            m = sub[(sub["aces"] == aces) & (sub["dragon"] == dr) & (sub["phoenix"] == ph)]
            cells.append(_cell(m.iloc[0] if len(m) else None, gain))
        lines.append(f"| {aces} | " + " | ".join(cells) + " |")
    return lines


def markdown(t: GTTable, command: str) -> str:
    """``table.md``: how the table was made, the classes without and with a bomb, the table by
    strength score and the model's section; ``command`` regenerates it."""
    gain = t.source == "experiment"
    seen = t.info.get("cards_seen", 8)
    lines = [
        f"# Grand Tichu odds by hand class ({t.deals:,} {'deals' if gain else 'calls'})",
        "",
        f"Regenerate: `{command}`",
        "",
    ]
    lines += _how(t, gain)
    if seen != 8:
        lines += [
            f"The calls were made after {seen} cards (Tientsin, RULES.md §3), so the classes "
            f"count those {seen}: a bomb among them is rare, and the strength score, which "
            "subtracts one per play the hand needs, runs higher on fewer cards; its bins and "
            "the 2.5 threshold do not mean what they mean for 8 cards.",
            "",
        ]
    lines += [
        f"## No bomb in the first {seen} cards",
        "",
        *_pivot(t.classes, False, gain),
        "",
        f"## A bomb in the first {seen} cards",
        "",
        "(a four of a kind or a straight flush; four Aces are a bomb, so they are here)",
        "",
        *_pivot(t.classes, True, gain),
        "",
    ]
    lines += _score_rows(t, gain)
    if t.model is not None:
        lines += _model_rows(t.model)
    return "\n".join(lines) + "\n"


def _how(t: GTTable, gain: bool) -> list[str]:
    """How the table was made: a paired experiment, or the calls of a run."""
    o = t.overall
    if gain:
        return [
            f"Seat 0 plays `{t.info.get('seat_strategy')}` and is forced to call Grand Tichu in "
            "one play of each deal and forbidden to in the other (its ordinary Tichu policy "
            f"stays); the other seats play `{t.info.get('others')}`"
            + (f" (learned weights {t.info['weights']})" if t.info.get("weights") else "")
            + "; same deals and random "
            "streams in both plays (seed "
            f"{t.info.get('seed')}). Seat 0's first 8 cards are random, so classes appear as "
            "often as they are dealt.",
            "",
            "Cells: **points gained per round by calling** (caller's team score with the call "
            "minus without, per deal) [95% interval] / P(out first | call). Bold: calling "
            f"gains. `-`: fewer than {MIN_CELL} deals.",
            "",
            f"All hands: P(out first | call) {percent(o['p_success'])} "
            f"[{100 * o['p_low']:.1f}, {100 * o['p_high']:.1f}], gain {o['ev_diff']:+.1f} "
            f"[{o['ev_diff_low']:+.1f}, {o['ev_diff_high']:+.1f}] points per round.",
            "",
        ]
    return [
        "Observational: only seat-rounds that called Grand Tichu in the run, so the rates "
        "are those of the hands its strategies chose to call (no value of calling: a run "
        "holds no play of the same deal without the call). Cells: P(out first) and calls.",
        "",
    ]


def _score_rows(t: GTTable, gain: bool) -> list[str]:
    """The table by hand-strength score, with its heading."""
    lines = [
        "## By hand-strength score (heuristic's weights; heuristic calls at 2.5)",
        "",
        f"| score | {'deals' if gain else 'calls'} | P(out first \\| call) | "
        "points/round call | no call | gain |",
        "|---|---|---|---|---|---|",
    ]
    for _, r in t.scores.iterrows():
        if r["deals"] < MIN_CELL:
            continue
        g = (
            f"{r['ev_no_call']:+.1f} | {r['ev_diff']:+.1f} [{r['ev_diff_low']:+.1f}, "
            f"{r['ev_diff_high']:+.1f}]"
            if gain
            else "n/a | n/a"
        )
        lines.append(
            f"| {int(r['score_bin'])} to {int(r['score_bin']) + 1} | {int(r['deals']):,} "
            f"| {percent(r['p_success'])} [{100 * r['p_low']:.1f}, "
            f"{100 * r['p_high']:.1f}] | {r['ev_call']:+.1f} | {g} |"
        )
    return lines


def _model_rows(model) -> list[str]:
    """The fitted model's section: what it is and how it held out."""
    cal = model.info["holdout"]
    lines = [
        "",
        "## Model",
        "",
        "`model.json`: logistic regressions of P(out first | call) and of P(plain "
        "Tichu without the Grand Tichu), and a linear regression of the gain, on Aces, "
        "Kings, Dragon, Phoenix, Dog, Mah Jong, bomb, pairs and plays needed (the gain "
        "also on the bonus term (200 - 100 P(Tichu)) (2 P(out first) - 1)). Ask it "
        'with `tichusim gt-odds --hand "..." --model model.json`. Fitted on 4/5 of '
        "the deals and checked on the other fifth, by decile of predicted gain "
        f"(RMSE {cal['p_rmse_by_decile']:.3f} in P, {cal['gain_rmse_by_decile']:.1f} "
        f"points; the noise of the observed means alone would give about "
        f"{cal['p_noise']:.3f} and {cal['gain_noise']:.1f}):",
        "",
        "| decile | predicted P | observed P | predicted gain | observed gain |",
        "|---|---|---|---|---|",
    ]
    for i, d in enumerate(cal["deciles"]):
        lines.append(
            f"| {i + 1} | {d['p_pred']:.3f} | {d['p_obs']:.3f} | "
            f"{d['gain_pred']:+.1f} | {d['gain_obs']:+.1f} |"
        )
    lines += [
        "",
        "and by strength score (held-out bins of 200 deals or more; ± one standard "
        "error of the observed mean):",
        "",
        "| score | deals | predicted gain | observed gain |",
        "|---|---|---|---|",
    ]
    for d in cal["by_score"]:
        lines.append(
            f"| {d['score_bin']} to {d['score_bin'] + 1} | {d['n']:,} | "
            f"{d['gain_pred']:+.1f} | {d['gain_obs']:+.1f} ± "
            f"{d['gain_obs_se']:.1f} |"
        )
    return lines


def write(t: GTTable, out: Path, command: str) -> list[Path]:
    """``table.md``, ``by_class.csv``, ``by_score.csv``, ``gt_odds.png`` (and ``model.json``)
    into ``out``. Returns the paths written."""
    from .plots import gt_plot

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "table.md", out / "by_class.csv", out / "by_score.csv", out / "gt_odds.png"]
    paths[0].write_text(markdown(t, command))
    t.classes.to_csv(paths[1], index=False, float_format="%.6g")
    t.scores.to_csv(paths[2], index=False, float_format="%.6g")
    gt_plot(t, paths[3])
    if t.model is not None:
        paths.append(out / "model.json")
        t.model.save(paths[-1])
    return paths


def run_experiment(
    deals: int,
    *,
    seed: int = 0,
    seat_strategy=ANSWER_STRATEGY,
    others=ANSWER_STRATEGY,
    progress=None,
) -> GTTable:
    """``experiment`` then ``build``: the whole headline analysis; its seconds from the start
    of play (after the compile)."""
    from ..strategies.tichu import resolve, weights_identities

    started = []

    def tell(done, total):
        if done == 0:
            started.append(time.perf_counter())
        if progress is not None:
            progress(done, total)

    df = experiment(deals, seed=seed, seat_strategy=seat_strategy, others=others, progress=tell)
    names = [s.name for s in resolve(others, 3)]
    me = resolve(seat_strategy, 1)[0].name
    info = {
        "seed": seed,
        "seat_strategy": me,
        "others": names[0] if len(set(names)) == 1 else ", ".join(names),
        "strategies": f"seat {me}, others {', '.join(names)}",
    }
    networks: list[str] = []
    for spec in (seat_strategy, *(others if isinstance(others, (list, tuple)) else [others])):
        try:
            networks += weights_identities(spec)
        except ValueError:  # a Python agent: its own decisions, no weights to name
            continue
    if networks:  # which learned weights played: the name alone does not say
        info["weights"] = ", ".join(dict.fromkeys(networks))
    t = build(df, source="experiment", info=info)
    t.info["seconds"] = time.perf_counter() - started[0]
    return t
