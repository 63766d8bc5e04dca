"""Fit the ``expert`` strategy's call-value coefficients by paired simulation, per table.

For each call (Tichu on the hand before passing, Grand Tichu on the cards seen before it: 8,
Tientsin 6), every deal is played twice with ``expert`` at every seat, one seat forced to call
in one table and not to call in the other (``analysis.gtodds.paired_rounds``: the same deal and
the same random streams). The forced seat is where ``gt-odds`` puts its hand
(``gtodds.setup``: the first seat that may call Grand Tichu, its first drawer rotating with the
deal); at a table where some seats may not call Grand Tichu but do call Tichu (Wu Wang's King,
who also calls for the Minister, RULES.md §4) the Tichu fit pools, deal for deal, the first
such seat as well: the coefficients are one row per strategy, so they serve both kinds of seat.
Forcing the King's Tichu alone takes the value policy with every coefficient 0 but the
intercept (50) and ``tichu_over_partner`` 50: the King calls, the Minister after him does not
(its score is 50 - 50); in the no-call table neither calls (the Nanjing fit likewise keeps only
deals where the partner does not call). On 4/5 of the deals it fits

* a logistic regression of P(forced seat out first | it called) on the hand's features
  (``analysis/handclass.py``: Aces, Kings, Dragon, Phoenix, Dog, Mah Jong, bomb, pairs, plays);
* the paired gain of calling in points of margin (its side's score minus the other's) against
  the call's bonus term ``2p - 1``: ``gain = A (2p - 1) + B``, whose zero is the probability of
  success ``p* = (1 - B / A) / 2`` above which calling pays.

The kernel's score is the logit less ``logit(p*)``: call when positive. The held-out 1/5 checks
it: how often it calls, how often those calls succeed, and the measured gain of the calls it
makes and of those it does not (per kind of seat where the fit pools two). Writes
``results/expert/calls.json`` (``calls_<variant>.json`` at the other tables) and the
coefficients into ``tichusim/strategies/expert_params.py`` under the table's name.

    .venv/bin/python scripts/fit_expert_calls.py --deals 150000 --seed 11
    .venv/bin/python scripts/fit_expert_calls.py --variant tientsin --deals 80000 --seed 31
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import re
import time
from pathlib import Path

import numpy as np

from tichusim.analysis.gtodds import paired_rounds, setup
from tichusim.analysis.handclass import features, fit_logistic
from tichusim.analysis.stats import mean_ci
from tichusim.games import TEAM_TABLES
from tichusim.games.team import _WW_PLAYER
from tichusim.strategies import expert_params
from tichusim.strategies.tichu import CALL_FEATURES, resolve

ROOT = Path(__file__).resolve().parents[1]
PARAMS_PY = ROOT / "tichusim" / "strategies" / "expert_params.py"
BATCH = 50_000


def _forced(me, kind: str, seat: int, table, call: bool):
    """The forced seat's strategy: calling ``kind`` always (``call``) or never. A seat whose
    strategy also plays a partner's hand (Wu Wang's King, §4) forces its Tichu through the
    value policy, so that the partner deciding after it stays silent (see the docstring)."""
    field = "tichu" if kind == "tichu" else "grand_tichu"
    tag = f"{me.name}{'+' if call else '-'}{kind}"
    if not call:
        return dataclasses.replace(me, **{field: "never"}, name=tag)
    if kind == "tichu" and not table.may_call_grand(seat):
        params = dict(me.params)
        params.update({f"tichu_value_{f}": 0.0 for f in CALL_FEATURES})
        params.update(tichu_value_intercept=50.0, tichu_over_partner=50.0)
        return dataclasses.replace(me, tichu="value", params=tuple(sorted(params.items())),
                                   name=tag)
    return dataclasses.replace(me, **{field: "always"}, name=tag)


def forced_seats(kind: str, place) -> list[int]:
    """The seats (engine positions) the fit forces: ``gt-odds``' seat, and for Tichu also the
    first seat that may not call Grand Tichu, if any (Wu Wang's King)."""
    seats = [place.seat]
    if kind == "tichu":
        seats += [s for s in range(place.game.seats) if not place.game.may_call_grand(s)][:1]
    return seats


def experiment(kind: str, deals: int, seed: int, variant: str = "nanjing", base="expert",
               seat: int | None = None):
    """Paired plays of ``deals`` deals with the seat ``seat`` (default ``gt-odds``' seat)
    forced to call ``kind`` and not to; the plain decisions' rows (no Grand Tichu of its own,
    no partner's call in the no-call play)."""
    place = setup(variant)
    table = place.game
    seat = place.seat if seat is None else seat
    me = resolve(base, 1, variant=variant)[0]
    # Wu Wang's analyses seat player 0 as King: player p at position p but player 2 at 3, the
    # Minister's row (3) at position 2; the players' strategies go by player
    row = int(_WW_PLAYER[0, seat]) if table.drawer_is_king else seat
    assert row < table.players, "the forced seat is a player's"
    tables = []
    for call in (True, False):
        strategies = [me] * table.players
        strategies[row] = _forced(me, kind, seat, table, call)
        tables.append(strategies)
    rows = {"hand": [], "success": [], "gain": [], "keep": []}
    for start in range(0, deals, BATCH):
        keys = np.arange(start, min(deals, start + BATCH), dtype=np.int64)
        pairs = paired_rounds(seed, keys, *tables, place=place)
        (rc, sc), (rn, sn) = pairs.call, pairs.no_call
        team = table._teams(rc, np.arange(len(keys) * table.seats) % table.seats).reshape(
            len(keys), table.seats)
        mine = team[:, row]
        rows["hand"].append(sc[:, row]["hand14" if kind == "tichu" else "hand8"])
        rows["success"].append(sc[:, row]["finish"] == 1)
        idx = np.arange(len(keys))
        margin_c = rc["score"][idx, mine] - rc["score"][idx, 1 - mine]
        margin_n = rn["score"][idx, mine] - rn["score"][idx, 1 - mine]
        rows["gain"].append((margin_c - margin_n).astype(np.float64))
        if kind == "tichu":  # a plain Tichu decision: no Grand Tichu of ours, no partner's call
            partner = (team == mine[:, None])
            partner[:, row] = False
            partner_called = ((sn["tichu"] | sn["grand_tichu"]) & partner).any(axis=1)
            keep = ~sc[:, row]["grand_tichu"] & ~partner_called
        else:
            keep = np.ones(len(keys), bool)
        rows["keep"].append(keep)
    out = {k: np.concatenate(v) for k, v in rows.items()}
    k = out.pop("keep")
    return {name: v[k] for name, v in out.items()}


def _frontier(score, success, gain, rate: float) -> dict:
    """Success and paired gain when calling the ``rate`` best-scored hands only."""
    top = score >= np.quantile(score, 1 - rate)
    return {"call_rate": float(top.mean()), "success": float(success[top].mean()),
            "gain": mean_ci(gain[top])._asdict()}


def _holdout(score, y, gain, test) -> dict:
    """The fitted rule on the held-out rows ``test``."""
    called = test & (score > 0)
    return {
        "deals": int(test.sum()),
        "call_rate": float(called.sum() / test.sum()),
        "success_when_called": float(y[called].mean()) if called.any() else None,
        "gain_when_called": mean_ci(gain[called])._asdict() if called.sum() > 2 else None,
        "gain_when_not_called": mean_ci(gain[test & ~called])._asdict(),
        # the frontier: calling only the best-scored hands, for a few call rates
        "frontier": [_frontier(score[test], y[test], gain[test], rate)
                     for rate in (0.05, 0.10, 0.15, 0.20)],
    }


def fit(data, seed: int, current=None):
    """The coefficients and their report; ``current``: the table's coefficients in use, whose
    rule the held-out rows check too (``holdout["current_rule"]``)."""
    f = features(data["hand"])[:, : len(CALL_FEATURES) - 1]
    x = np.column_stack([np.ones(len(f)), f])
    y = data["success"].astype(np.float64)
    gain = data["gain"]
    rng = np.random.default_rng(seed)
    test = rng.random(len(y)) < 0.2
    beta, _ = fit_logistic(x[~test], y[~test])
    p = 1 / (1 + np.exp(-(x @ beta)))
    z = np.column_stack([np.ones(len(p)), 2 * p - 1])
    (b, a), *_ = np.linalg.lstsq(z[~test], gain[~test], rcond=None)
    p_star = min(max((1 - b / a) / 2, 1e-3), 1 - 1e-3)
    coef = beta.copy()
    coef[0] -= math.log(p_star / (1 - p_star))
    score = x @ coef
    held = _holdout(score, y, gain, test)
    seats = data.get("seat")
    if seats is not None and len(np.unique(seats)) > 1:  # pooled seats: each one's check
        held["by_seat"] = {int(s): _holdout(score, y, gain, test & (seats == s))
                           for s in np.unique(seats)}
    if current is not None:  # the rule the other seats play by: what its own calls gain
        now = x @ np.asarray(current)
        held["current_rule"] = _holdout(now, y, gain, test)
        if "by_seat" in held:
            held["current_rule"]["by_seat"] = {
                int(s): _holdout(now, y, gain, test & (seats == s)) for s in np.unique(seats)}
    return coef, {"p_star": p_star, "gain_slope": float(a), "gain_intercept": float(b),
                  "logit": beta.tolist(), "holdout": held}


def _block(name: str, values: dict) -> str:
    lines = [f"{name}: dict[str, tuple[float, ...]] = {{"]
    lines += [f'    "{t}": ({", ".join(f"{c:.4f}" for c in v)}),' for t, v in values.items()]
    return "\n".join(lines + ["}"])


def write_params(variant: str, tichu, gt):
    """Replace ``variant``'s coefficients in expert_params.py, the other tables' kept."""
    text = PARAMS_PY.read_text()
    for name, coef in (("TICHU_VALUE", tichu), ("GT_VALUE", gt)):
        values = dict(getattr(expert_params, name))
        values[variant] = tuple(float(c) for c in coef)
        text = re.sub(rf"^{name}: .*?^\}}", _block(name, values), text, count=1,
                      flags=re.M | re.S)
    PARAMS_PY.write_text(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="nanjing", choices=TEAM_TABLES,
                    help="the table whose coefficients are fitted")
    ap.add_argument("--deals", type=int, default=150_000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out", default=None, help="default results/expert/calls.json "
                    "(calls_<variant>.json at the other tables)")
    ap.add_argument("--dry-run", action="store_true", help="do not write expert_params.py")
    ap.add_argument("--blend", type=float, default=1.0, help="write this share of the fitted "
                    "coefficients plus the rest of the table's current ones: a damped step of "
                    "the fixed point (the others call by the current ones), for a table where "
                    "the plain step oscillates (Tientsin's Grand Tichu)")
    args = ap.parse_args()
    name = "calls.json" if args.variant == TEAM_TABLES[0] else f"calls_{args.variant}.json"
    out = Path(args.out or ROOT / "results" / "expert" / name)
    flag = "" if args.variant == TEAM_TABLES[0] else f" --variant {args.variant}"
    report = {"variant": args.variant, "deals": args.deals, "seed": args.seed,
              "features": list(CALL_FEATURES),
              "command": f"scripts/fit_expert_calls.py{flag} --deals {args.deals} "
                         f"--seed {args.seed}" + (f" --blend {args.blend:g}"
                                                  if args.blend != 1 else "")}
    place = setup(args.variant)
    current = {"tichu": expert_params.TICHU_VALUE[args.variant],
               "grand_tichu": expert_params.GT_VALUE[args.variant]}
    coefs = {}
    for kind in ("tichu", "grand_tichu"):
        t0 = time.perf_counter()
        seats = forced_seats(kind, place)
        parts = [experiment(kind, args.deals, args.seed, args.variant, seat=s) for s in seats]
        data = {k: np.concatenate([d[k] for d in parts]) for k in parts[0]}
        data["seat"] = np.concatenate([np.full(len(d["gain"]), s) for s, d in zip(seats, parts)])
        coefs[kind], report[kind] = fit(data, args.seed, current[kind])
        report[kind]["forced_seats"] = seats
        report[kind]["coef"] = coefs[kind].tolist()
        report[kind]["rows"] = int(len(data["gain"]))
        report[kind]["seconds"] = round(time.perf_counter() - t0, 1)
        print(kind, json.dumps(report[kind]["holdout"]), f"p*={report[kind]['p_star']:.3f}",
              flush=True)
    written = {k: args.blend * coefs[k] + (1 - args.blend) * np.asarray(current[k])
               for k in coefs}
    report["written"] = None if args.dry_run else {k: v.tolist() for k, v in written.items()}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n")
    if not args.dry_run:
        write_params(args.variant, written["tichu"], written["grand_tichu"])


if __name__ == "__main__":
    main()
