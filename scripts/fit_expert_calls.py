"""Fit the ``expert`` strategy's call-value coefficients by paired simulation, per table.

For each call (Tichu on the hand before passing, Tichu after passing on the hand then held,
Grand Tichu on the cards seen before it: 8, Tientsin 6), every deal is played twice with
``expert`` at every seat, one seat forced to call in one table and not to call in the other
(``analysis.gtodds.paired_rounds``: the same deal and the same random streams). Not calling
Tichu before passing leaves the seat its value call after passing: the first call is weighed
against waiting for the second. The fit of the call after passing forbids the first in both
plays, forces the second in one, and keeps the deals where the seat's current score before
passing would not have called. The forced seat is where ``gt-odds`` puts its hand
(``gtodds.setup``: the first seat that may call Grand Tichu, its first drawer rotating with the
deal); at a table where some seats may not call Grand Tichu but do call Tichu (Wu Wang's King,
who also calls for the Minister, RULES.md §4) the Tichu fit pools, deal for deal, the first
such seat as well: the coefficients are one row per strategy, so they serve both kinds of seat.
Forcing the King's Tichu alone takes the value policy with every coefficient 0 but the
intercept (50) and ``tichu_over_partner`` 50: the King calls, the Minister after him does not
(its score is 50 - 50); in the no-call play neither calls before passing. On 4/5 of the deals it
fits

* a logistic regression of P(forced seat out first | it called) on the hand's features
  (``analysis/handclass.py``: Aces, Kings, Dragon, Phoenix, Dog, Mah Jong, bomb, pairs, plays;
  for Tichu also ``expert.plan_shape``'s low singles and straights and the call's public
  context, ``expert.call_context``: a partner's call, else an opponent's Grand Tichu, else an
  opponent's Tichu, what the calls made before the seat's decision say);
* the paired gain of calling in points of margin (its side's score minus the other's) against
  the call's bonus term ``2p - 1``: ``gain = A (2p - 1) + B`` (for Tichu ``+ C[context]``),
  whose zero is the probability of success ``p* = (1 - B / A) / 2`` above which calling pays
  (each Tichu context its own).

The kernel's score is the logit less ``logit(p*)``: call when positive. The held-out 1/5 checks
it: how often it calls, how often those calls succeed, and the measured gain of the calls it
makes and of those it does not (per context for Tichu; per kind of seat where the fit pools
two). Writes ``results/expert/calls.json`` (``calls_<variant>.json`` at the other tables) and
the coefficients into ``tichusim/strategies/expert_params.py`` under the table's name. The call
after passing is fitted in Nanjing only (``--kinds``); the other tables' stays off.

With ``--base`` another strategy built on the value policy (``learned``: expert's calls, a
network's play) is fitted the same way, with that strategy at every seat: then
``expert_params.py`` is left alone and the coefficients go, besides the report
(``results/<base>/calls.json``), into a strategy file ``results/<base>/calls.toml`` (the base
with the fitted calls, to be played against the base: ``tichusim compare
results/learned/calls.toml learned --deals 10000``). With ``--ship`` (``--base learned``) they also
go into ``tichusim/strategies/learned_params.py``, where every strategy that plays the learned
policy takes them at that table (``strategies.tichu.PLAY_PARAMS``; an override still wins).

    .venv/bin/python scripts/fit_expert_calls.py --deals 150000 --seed 11
    .venv/bin/python scripts/fit_expert_calls.py --variant tientsin --deals 80000 --seed 31
    .venv/bin/python scripts/fit_expert_calls.py --base learned --deals 300000 --seed 67
    .venv/bin/python scripts/fit_expert_calls.py --base learned --variant wuwang --deals 200000 \
        --seed 67 --ship
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import re
import textwrap
import time
from pathlib import Path

import numpy as np

from tichusim.analysis.gtodds import paired_rounds, setup
from tichusim.analysis.handclass import features, fit_logistic
from tichusim.games import TEAM_GAMES
from tichusim.games.team import _WW_PLAYER, _WW_POSITION
from tichusim.kernels.tichu.expert import (
    CONTEXT_NONE,
    CONTEXT_OPP_GRAND,
    CONTEXT_OPP_TICHU,
    CONTEXT_PARTNER,
)
from tichusim.kernels.tichu.handfeatures import plan_shapes
from tichusim.kernels.tichu.policies import TICHU_AFTER_PASSING as AFTER
from tichusim.kernels.tichu.policies import TICHU_BEFORE_PASSING as BEFORE
from tichusim.stats import mean_ci
from tichusim.strategies import expert_params, learned_params
from tichusim.strategies.tichu import (
    CALL_CONTEXT,
    CALL_FEATURES,
    PARAMS,
    TICHU_FEATURES,
    TICHU_SHAPE,
    resolve,
)

ROOT = Path(__file__).resolve().parents[1]
PARAMS_PY = ROOT / "tichusim" / "strategies" / "expert_params.py"
LEARNED_PY = ROOT / "tichusim" / "strategies" / "learned_params.py"
BATCH = 50_000


KINDS = ("tichu", "tichu_after", "grand_tichu")
_PREFIX = {"tichu": "tichu_value", "tichu_after": "tichu_after", "grand_tichu": "gt_value"}
_NAMES = {"tichu": TICHU_FEATURES, "tichu_after": TICHU_FEATURES, "grand_tichu": CALL_FEATURES}
_OFF = -50.0  # a score's intercept that never calls (the others 0)


def _score_set(params: dict, prefix: str, intercept: float) -> dict:
    """``params`` with the score ``prefix`` set to the constant ``intercept``: always (+50) or
    never (-50) calling at that decision point."""
    out = dict(params)
    out.update({f"{prefix}_{f}": 0.0 for f in TICHU_FEATURES if f"{prefix}_{f}" in PARAMS})
    out[f"{prefix}_intercept"] = intercept
    return out


def _forced(me, kind: str, seat: int, table, call: bool):
    """The forced seat's strategy: calling ``kind`` (``call``) or not. Not calling Tichu before
    passing leaves the seat its value call after passing (the choice the first call is weighed
    against); the fit of the call after passing forbids the first (both plays) and forces the
    second. A seat whose strategy also plays a partner's hand (Wu Wang's King, §4) forces its
    Tichu through the value policy, so that the partner deciding after it stays silent (see
    the docstring)."""
    tag = f"{me.name}{'+' if call else '-'}{kind}"
    params = dict(me.params)
    if kind == "grand_tichu":
        return dataclasses.replace(me, grand_tichu="always" if call else "never", name=tag)
    if kind == "tichu_after":
        params = _score_set(params, "tichu_value", _OFF)
        params = _score_set(params, "tichu_after", -_OFF if call else _OFF)
        params["tichu_over_partner"] = 0.0
    elif not call:
        params = _score_set(params, "tichu_value", _OFF)
    elif not table.may_call_grand(seat):
        params = _score_set(params, "tichu_value", -_OFF)
        params.update(tichu_over_partner=50.0)
    else:
        return dataclasses.replace(me, tichu="always", name=tag)
    return dataclasses.replace(me, tichu="value", params=tuple(sorted(params.items())), name=tag)


def forced_seats(kind: str, place) -> list[int]:
    """The seats (engine positions) the fit forces: ``gt-odds``' seat, and for Tichu also the
    first seat that may not call Grand Tichu, if any (Wu Wang's King)."""
    seats = [place.seat]
    if kind == "tichu":
        seats += [s for s in range(place.game.seats) if not place.game.may_call_grand(s)][:1]
    return seats


def contexts(table, rounds, seats, row, after: bool) -> np.ndarray:
    """The public context (``expert.call_context``) of seat row ``row``'s Tichu decision before
    passing (``after`` False: Grand Tichu calls and the Tichu calls before its turn) or after
    it (every call before passing, and those after it before its turn), from the records of a
    play where the seat itself did not call Tichu."""
    n = len(rounds)
    cols = seats.shape[1]
    team = table._teams(rounds, np.arange(n * cols) % cols).reshape(n, cols)
    pos = np.broadcast_to(np.arange(cols), (n, cols))
    if table.drawer_is_king:  # the rows go by player, the Minister last (§4)
        pos = _WW_POSITION[rounds["king"]]
    order = (pos - rounds["first_drawer"][:, None]) % table.seats
    before = order < order[:, row][:, None]
    when = seats["tichu_when"]
    tichu = seats["tichu"] & (
        (when == BEFORE) & (before | after) | (when == AFTER) & before & after
    )
    called = tichu | seats["grand_tichu"]
    called[:, row] = False
    partner = team == team[:, row][:, None]
    out = np.full(n, CONTEXT_NONE)
    out[(called & ~partner & tichu).any(1)] = CONTEXT_OPP_TICHU
    out[(called & ~partner & seats["grand_tichu"]).any(1)] = CONTEXT_OPP_GRAND
    out[(called & partner).any(1)] = CONTEXT_PARTNER
    return out


def design(hands, context=None) -> np.ndarray:
    """The call scores' rows: 1, the hand's features (``CALL_FEATURES``) and, for Tichu, its
    plan's shape (``TICHU_SHAPE``) and the context's indicators (``CALL_CONTEXT``)."""
    f = features(hands)[:, : len(CALL_FEATURES) - 1]
    cols = [np.ones(len(f)), f]
    if context is not None:
        shape = np.zeros((len(f), len(TICHU_SHAPE)))
        plan_shapes(np.array(hands, dtype=np.uint64).reshape(-1), shape)
        cols.append(shape)
        cols.append(np.column_stack([context == c for c in range(1, len(CALL_CONTEXT) + 1)]))
    return np.column_stack(cols).astype(np.float64)


def experiment(
    kind: str,
    deals: int,
    seed: int,
    variant: str = "nanjing",
    base="expert",
    seat: int | None = None,
):
    """Paired plays of ``deals`` deals with the seat ``seat`` (default ``gt-odds``' seat)
    forced to call ``kind`` and not to; the rows of its decisions: no Grand Tichu of its own
    for Tichu, and after passing only where its Tichu score before passing (the current one)
    did not call."""
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
    column = {"tichu": "hand14", "tichu_after": "hand_passed", "grand_tichu": "hand8"}[kind]
    rows = {"hand": [], "context": [], "success": [], "gain": [], "keep": []}
    current = np.asarray(expert_params.TICHU_VALUE[variant])
    for start in range(0, deals, BATCH):
        keys = np.arange(start, min(deals, start + BATCH), dtype=np.int64)
        pairs = paired_rounds(seed, keys, *tables, place=place)
        (rc, sc), (rn, sn) = pairs.call, pairs.no_call
        team = table._teams(rc, np.arange(len(keys) * table.seats) % table.seats).reshape(
            len(keys), table.seats
        )
        mine = team[:, row]
        rows["hand"].append(sc[:, row][column])
        rows["success"].append(sc[:, row]["finish"] == 1)
        idx = np.arange(len(keys))
        margin_c = rc["score"][idx, mine] - rc["score"][idx, 1 - mine]
        margin_n = rn["score"][idx, mine] - rn["score"][idx, 1 - mine]
        rows["gain"].append((margin_c - margin_n).astype(np.float64))
        keep = np.ones(len(keys), bool)
        if kind != "grand_tichu":
            keep = ~sc[:, row]["grand_tichu"]
            ctx = contexts(table, rn, sn, row, kind == "tichu_after")
            rows["context"].append(ctx)
            if kind == "tichu_after":  # its score before passing did not call
                first = contexts(table, rn, sn, row, False)
                keep &= design(sc[:, row]["hand14"], first) @ current <= 0
        rows["keep"].append(keep)
    out = {k: np.concatenate(v) for k, v in rows.items() if v}
    k = out.pop("keep")
    return {name: v[k] for name, v in out.items()}


def _frontier(score, success, gain, rate: float) -> dict:
    """Success and paired gain when calling the ``rate`` best-scored hands only."""
    top = score >= np.quantile(score, 1 - rate)
    return {
        "call_rate": float(top.mean()),
        "success": float(success[top].mean()),
        "gain": mean_ci(gain[top])._asdict(),
    }


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
        "frontier": [
            _frontier(score[test], y[test], gain[test], rate) for rate in (0.05, 0.10, 0.15, 0.20)
        ],
    }


def fit(data, seed: int, current=None):
    """The coefficients and their report; ``current``: the table's coefficients in use, whose
    rule the held-out rows check too (``holdout["current_rule"]``). A Tichu fit (rows with a
    ``context``) gives each context its own break-even probability: the paired gain is fitted
    as ``A (2p - 1) + B + C[context]``."""
    context = data.get("context")
    x = design(data["hand"], context)
    y = data["success"].astype(np.float64)
    gain = data["gain"]
    rng = np.random.default_rng(seed)
    test = rng.random(len(y)) < 0.2
    beta, _ = fit_logistic(x[~test], y[~test])
    p = 1 / (1 + np.exp(-(x @ beta)))
    n_ctx = 0 if context is None else len(CALL_CONTEXT)
    z = np.column_stack([np.ones(len(p)), 2 * p - 1] + ([x[:, -n_ctx:]] if n_ctx else []))
    w, *_ = np.linalg.lstsq(z[~test], gain[~test], rcond=None)
    b, a = w[0], w[1]

    def logit_star(shift):
        q = min(max((1 - (b + shift) / a) / 2, 1e-3), 1 - 1e-3)
        return q, math.log(q / (1 - q))

    p_star, l0 = logit_star(0.0)
    coef = beta.copy()
    coef[0] -= l0
    stars = {}
    for k in range(n_ctx):  # each context's own break-even probability
        q, lk = logit_star(w[2 + k])
        stars[CALL_CONTEXT[k]] = q
        coef[len(CALL_FEATURES) + len(TICHU_SHAPE) + k] -= lk - l0
    score = x @ coef
    held = _holdout(score, y, gain, test)
    if n_ctx:
        held["by_context"] = {
            name: _holdout(score, y, gain, test & (context == k))
            for k, name in enumerate(("none",) + CALL_CONTEXT)
            if (test & (context == k)).sum() > 2
        }
    seats = data.get("seat")
    if seats is not None and len(np.unique(seats)) > 1:  # pooled seats: each one's check
        held["by_seat"] = {
            int(s): _holdout(score, y, gain, test & (seats == s)) for s in np.unique(seats)
        }
    if current is not None:  # the rule the other seats play by: what its own calls gain
        now = x @ np.asarray(current)
        held["current_rule"] = _holdout(now, y, gain, test)
        if "by_seat" in held:
            held["current_rule"]["by_seat"] = {
                int(s): _holdout(now, y, gain, test & (seats == s)) for s in np.unique(seats)
            }
    return coef, {
        "p_star": p_star,
        "p_star_context": stars,
        "gain_slope": float(a),
        "gain_intercept": float(b),
        "gain_context": [float(c) for c in w[2:]],
        "logit": beta.tolist(),
        "holdout": held,
    }


def _block(name: str, values: dict) -> str:
    lines = [f"{name}: dict[str, tuple[float, ...]] = {{"]
    for t, v in values.items():
        row = f'    "{t}": ({", ".join(f"{c:.4f}" for c in v)}),'
        if len(row) > 100:  # wrapped, the coefficients indented under the table's name
            wrapped = textwrap.wrap(", ".join(f"{c:.4f}" for c in v) + "),", 92)
            row = "\n".join([f'    "{t}": ('] + [f"        {w}" for w in wrapped])
        lines.append(row)
    return "\n".join(lines + ["}"])


def write_params(variant: str, coefs: dict):
    """Replace ``variant``'s coefficients in expert_params.py, the other tables' kept."""
    text = PARAMS_PY.read_text()
    for kind, coef in coefs.items():
        name = _TABLE[kind]
        values = dict(getattr(expert_params, name))
        values[variant] = tuple(float(c) for c in coef)
        text = re.sub(rf"^{name}: .*?^\}}", _block(name, values), text, count=1, flags=re.M | re.S)
    PARAMS_PY.write_text(text)


_TABLE = {"tichu": "TICHU_VALUE", "tichu_after": "TICHU_AFTER", "grand_tichu": "GT_VALUE"}


def _current(base: str, variant: str, kind: str) -> tuple[float, ...]:
    """The coefficients of ``kind`` that ``base`` calls by at ``variant`` now: the learned
    play's own where they are fitted (learned_params.py), else expert's."""
    own = learned_params.CALLS.get(variant) if base == "learned" else None
    if own is not None:
        return tuple(own[f"{_PREFIX[kind]}_{f}"] for f in _NAMES[kind])
    return getattr(expert_params, _TABLE[kind])[variant]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--variant",
        default="nanjing",
        choices=TEAM_GAMES,
        help="the table whose coefficients are fitted",
    )
    ap.add_argument("--deals", type=int, default=150_000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument(
        "--out",
        default=None,
        help="default results/expert/calls.json (calls_<variant>.json at the other tables)",
    )
    ap.add_argument("--dry-run", action="store_true", help="do not write expert_params.py")
    ap.add_argument(
        "--base",
        default="expert",
        help="the strategy at every seat whose calls are fitted (default expert; another "
        "leaves expert_params.py alone and writes results/<base>/calls.toml)",
    )
    ap.add_argument(
        "--ship",
        action="store_true",
        help="with --base learned: also write the fitted coefficients into "
        "tichusim/strategies/learned_params.py, where every strategy playing the learned "
        "policy takes them at this table",
    )
    ap.add_argument(
        "--blend",
        type=float,
        default=1.0,
        help="write this share of the fitted "
        "coefficients plus the rest of the table's current ones: a damped step of "
        "the fixed point (the others call by the current ones), for a table where "
        "the plain step oscillates (Tientsin's Grand Tichu)",
    )
    ap.add_argument(
        "--kinds",
        default=None,
        help="the calls fitted, comma-separated among "
        f"{', '.join(KINDS)} (default: all three in Nanjing; elsewhere Tichu before "
        "passing and Grand Tichu, the call after passing staying off)",
    )
    args = ap.parse_args()
    if args.ship and args.base != "learned":
        ap.error("--ship writes the learned play's own calls: give --base learned")
    kinds = (
        args.kinds.split(",")
        if args.kinds
        else list(KINDS)
        if args.variant == TEAM_GAMES[0]
        else ["tichu", "grand_tichu"]
    )
    own = args.base == "expert"  # expert's own fit: its coefficients are written in place
    name = "calls.json" if args.variant == TEAM_GAMES[0] else f"calls_{args.variant}.json"
    out = Path(args.out or ROOT / "results" / args.base / name)
    flag = "" if args.variant == TEAM_GAMES[0] else f" --variant {args.variant}"
    flag += "" if own else f" --base {args.base}"
    report = {
        "variant": args.variant,
        "deals": args.deals,
        "seed": args.seed,
        "features": {k: list(_NAMES[k]) for k in kinds},
        "command": f"scripts/fit_expert_calls.py{flag} --deals {args.deals} "
        f"--seed {args.seed}"
        + (f" --blend {args.blend:g}" if args.blend != 1 else "")
        + (f" --kinds {args.kinds}" if args.kinds else ""),
    }
    place = setup(args.variant)
    current = {k: _current(args.base, args.variant, k) for k in kinds}
    coefs = {}
    for kind in kinds:
        t0 = time.perf_counter()
        seats = forced_seats(kind, place)
        parts = [
            experiment(kind, args.deals, args.seed, args.variant, base=args.base, seat=s)
            for s in seats
        ]
        data = {k: np.concatenate([d[k] for d in parts]) for k in parts[0]}
        data["seat"] = np.concatenate(
            [np.full(len(d["gain"]), s) for s, d in zip(seats, parts, strict=False)]
        )
        coefs[kind], report[kind] = fit(data, args.seed, current[kind])
        report[kind]["forced_seats"] = seats
        report[kind]["coef"] = coefs[kind].tolist()
        report[kind]["rows"] = int(len(data["gain"]))
        report[kind]["seconds"] = round(time.perf_counter() - t0, 1)
        held = report[kind]["holdout"]
        print(
            kind,
            f"rows {report[kind]['rows']}, p*={report[kind]['p_star']:.3f}",
            {k: round(v, 3) for k, v in report[kind]["p_star_context"].items()},
            f"calls {held['call_rate']:.3f} success {held['success_when_called']}",
            f"gain {held['gain_when_called']}",
            flush=True,
        )
        for c, h in held.get("by_context", {}).items():
            print(
                f"   {c}: calls {h['call_rate']:.3f} success {h['success_when_called']}", flush=True
            )
    written = {k: args.blend * coefs[k] + (1 - args.blend) * np.asarray(current[k]) for k in coefs}
    report["written"] = None if args.dry_run else {k: v.tolist() for k, v in written.items()}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n")
    if args.dry_run:
        return
    if own:
        write_params(args.variant, written)
    else:
        write_strategy(out.with_suffix(".toml"), args.base, args.variant, written)
        if args.ship:
            write_learned(args.variant, written)


def _named(coefs: dict) -> dict[str, float]:
    """The fitted coefficients ``coefs`` (by kind) by parameter name, rounded as written."""
    return {
        f"{_PREFIX[kind]}_{feature}": round(float(c), 4)
        for kind, row in coefs.items()
        for feature, c in zip(_NAMES[kind], row, strict=True)
    }


def write_learned(variant: str, coefs: dict) -> None:
    """Replace ``variant``'s entry of learned_params.py's ``CALLS`` (the other tables' kept):
    the learned play's own call coefficients there."""
    calls = {k: dict(v) for k, v in learned_params.CALLS.items()}
    calls[variant] = _named(coefs)
    body = ["CALLS: dict[str, dict[str, float]] = {"]
    for table in sorted(calls):
        body.append(f'    "{table}": {{')
        body += [f'        "{k}": {v!r},' for k, v in calls[table].items()]
        body.append("    },")
    body.append("}")
    text = LEARNED_PY.read_text()
    # the table as written: empty on its line, or its entries down to the closing brace
    table = r"^CALLS: [^\n]*\{\}$|^CALLS: .*?^\}"
    text, found = re.subn(table, "\n".join(body), text, count=1, flags=re.M | re.S)
    assert found, f"{LEARNED_PY}: no CALLS table"
    LEARNED_PY.write_text(text)


def write_strategy(path: Path, base: str, variant: str, coefs: dict) -> None:
    """A strategy file: ``base`` with the fitted call coefficients ``coefs`` (by kind)."""
    params = _named(coefs)
    lines = [
        f"# {base} with its calls fitted under its own play at {variant}",
        "# (scripts/fit_expert_calls.py --base; the report beside this file)",
        f'base = "{base}"',
        f'name = "{base}-fitted-calls"',
        "",
        "[params]",
        *(f"{k} = {v!r}" for k, v in params.items()),
    ]
    path.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
