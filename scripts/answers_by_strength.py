"""How the answers move with the strength of the players at the table -> results/learned/answers.md.

    python scripts/answers_by_strength.py [--strategies heuristic expert learned]
        [--deals 100000] [--search-deals 200] [--seed 2026] [--out results/learned/answers.md]

Each column seats one strategy at every seat and asks the questions tichusim answers, with the
library functions the commands use: the Grand Tichu experiment of ``gt-table`` by hand class
(``analysis.gttable.experiment``, ``by_class``), ``tichu-odds`` for a few hands
(``analysis.tichuodds``), ``pass-advice`` for a few hands (``analysis.passadvice``), and the
self-play figures of a plain simulation. ``--deals`` is each experiment's deals (each hand's,
and the self-play's rounds); ``--search-deals`` adds a column of ``search`` (its defaults) on
that many deals, its pass advice ranking only the passes the other columns put first and second
(0: no such column). Every figure carries its 95% interval.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

import pandas as pd

import tichusim
from tichusim import cards
from tichusim.analysis import gttable
from tichusim.analysis.passadvice import PassAdvice, PassCandidate, pass_advice
from tichusim.analysis.tichuodds import TichuOdds, tichu_odds
from tichusim.stats import Estimate, mean_ci, wilson
from tichusim.strategies.tichu import resolve

SEARCH = "search"

# hands held after the passing (tichu-odds), each with what it is
TICHU_HANDS = [
    ("Dr Ph Aj As Ap Kj Ks Kp Qj Qs Jj Tj 9j 8j", "docs/analyses.md's example: a sure call"),
    ("Dr Ph Aj As K K Q J T 9 7 5 3 2", "the command's help example: top cards, a long straight"),
    ("Dr A K Q J T 9 8 7 7 5 4 3 2", "the Dragon, an Ace-high straight and five low cards"),
    ("A K K Q Q J 9 9 7 6 5 4 3 2", "no special card: high pairs and low singles"),
]
# hands dealt before the passing (pass-advice), each card with its suit
PASS_HANDS = [
    ("Dog Ma 2j 3s 5p 7t 8j 9s Jp Qt Kj Ks Ph Dr", "docs/analyses.md's example"),
    ("Ma 2j 3s 4p 7j 7s 7p 7t 9j Tj Jp Qs As Dr", "a bomb of Sevens, the Dragon, low singles"),
    ("Dog 2j 2s 3p 4t 5j 6s 8p 9t Tj Js Qp Kt At", "a weak hand: the Dog, no Dragon or Phoenix"),
]
_COMBOS = [
    (False, False, "no Dr, no Ph"),
    (True, False, "Dragon"),
    (False, True, "Phoenix"),
    (True, True, "Dragon + Phoenix"),
]


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _label(spec: str) -> str:
    """A column's heading: the strategy as given, and the identity of a learned play's weights."""
    try:
        weights = resolve(spec, 1)[0].learned_weights
    except ValueError:  # a search or an agent: no table of its own
        weights = None
    return f"`{spec}`" + (f" (weights {weights.identity})" if weights is not None else "")


# ---- Grand Tichu by hand class ------------------------------------------------------------


def _gt_rows(df: pd.DataFrame) -> dict[str, tuple[Estimate, Estimate]]:
    """Per class label: (P(out first | call), points gained by calling), each an Estimate."""

    def est(row) -> tuple[Estimate, Estimate]:
        n = int(row["deals"])
        p = Estimate(row["p_success"], row["p_low"], row["p_high"], n)
        g = Estimate(row["ev_diff"], row["ev_diff_low"], row["ev_diff_high"], n)
        return p, g

    out: dict[str, tuple[Estimate, Estimate]] = {}
    classes = gttable.by_class(df, ["aces", "dragon", "phoenix", "bomb"])
    plain = classes[~classes["bomb"]]
    for aces in range(4):
        for dr, ph, name in _COMBOS:
            m = plain[(plain["aces"] == aces) & (plain["dragon"] == dr) & (plain["phoenix"] == ph)]
            out[f"{aces} Aces, {name}"] = est(m.iloc[0]) if len(m) else _none()
    bombs = gttable.by_class(df, ["bomb"])
    m = bombs[bombs["bomb"]]
    out["a bomb (any Aces, Dr, Ph)"] = est(m.iloc[0]) if len(m) else _none()
    s = wilson(int(df["success"].sum()), len(df))
    out["all hands"] = (s, mean_ci(df["gain"].to_numpy(float)))
    return out


def _none() -> tuple[Estimate, Estimate]:
    nan = float("nan")
    return Estimate(nan, nan, nan, 0), Estimate(nan, nan, nan, 0)


def _cell(e: Estimate, pct: bool) -> str:
    if e.n < gttable.MIN_CELL:
        return "-"
    return e.pct() if pct else e.pts()


# ---- the page -----------------------------------------------------------------------------


def _table(head: str, columns: list[str], rows: list[tuple[str, list[str]]]) -> list[str]:
    return [
        f"| {head} | " + " | ".join(columns) + " |",
        "|---" * (len(columns) + 1) + "|",
        *(f"| {name} | " + " | ".join(cells) + " |" for name, cells in rows),
    ]


def _selfplay(spec: str, rounds: int, seed: int) -> dict[str, str]:
    r, s = tichusim.simulate(rounds, seed=seed, strategies=spec)
    out = {}
    for call in ("grand_tichu", "tichu"):
        called = s[s[call]]
        name = (
            call.replace("_", " ").replace("grand tichu", "Grand Tichu").replace("tichu", "Tichu")
        )
        out[f"{name} calls per player and round"] = wilson(len(called), len(s)).pct()
        out[f"{name} success (caller out first)"] = wilson(
            int((called["finish"] == 1).sum()), len(called)
        ).pct(na="n/a (no calls)")
    out["tricks per round"] = mean_ci(r["tricks"].to_numpy(float)).num(2)
    out["bombs per round"] = mean_ci(r["bombs"].to_numpy(float)).num(3)
    out["double victories per round"] = wilson(int(r["double_victory"].sum()), len(r)).pct()
    return out


def _ranks(c: PassCandidate) -> tuple[str, ...]:
    """A pass's ranks to each side (the suits left out: two passes of the same ranks play
    alike but for a straight flush)."""
    return tuple(
        x[:-1] if len(x) == 2 and x[-1] in cards.SUITS else x for x in (c.right, c.partner, c.left)
    )


def _margin(a: PassAdvice) -> Estimate | None:
    """The best pass's lead over the next best of other ranks, paired on the same deals."""
    best = _ranks(a.best)
    for c in a.candidates[1:]:
        if c.diff is not None and _ranks(c) != best:
            d = c.diff
            return Estimate(-d.value, -d.high, -d.low, d.n)
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strategies", nargs="+", default=["heuristic", "expert", "learned"])
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--search-deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", type=Path, default=Path("results/learned/answers.md"))
    args = ap.parse_args()
    if args.deals < 1000:
        ap.error("--deals: at least 1000 (the Grand Tichu experiment's least)")
    command = (
        "python scripts/answers_by_strength.py --strategies "
        + shlex.join(args.strategies)
        + f" --deals {args.deals} --search-deals {args.search_deals} --seed {args.seed}"
        + f" --out {shlex.quote(str(args.out))}"
    )
    specs = list(args.strategies)
    sample = {s: args.deals for s in specs}
    if args.search_deals > 0:
        specs.append(SEARCH)
        sample[SEARCH] = args.search_deals
    labels = [_label(s) for s in specs]
    seconds: dict[str, float] = {}
    gt: dict[str, dict] = {}
    tichu: dict[str, list[TichuOdds]] = {}
    passes: dict[str, list[PassAdvice]] = {}
    selfplay: dict[str, dict[str, str]] = {}
    started = time.perf_counter()
    for spec in specs:
        n = sample[spec]
        t0 = time.perf_counter()
        _say(f"{spec}: Grand Tichu experiment, {n:,} deals")
        df = gttable.experiment(max(n, 1), seed=args.seed, seat_strategy=spec, others=spec)
        gt[spec] = _gt_rows(df)
        _say(f"{spec}: tichu-odds, {len(TICHU_HANDS)} hands")
        tichu[spec] = [
            tichu_odds(h, deals=n, seed=args.seed, seat_strategy=spec, others=spec)
            for h, _ in TICHU_HANDS
        ]
        _say(f"{spec}: pass-advice, {len(PASS_HANDS)} hands")
        if spec == SEARCH:  # the passes the other columns rank first and second, alone
            passes[spec] = []
            for i, (h, _) in enumerate(PASS_HANDS):
                given = sorted(
                    {c.cards for s in args.strategies for c in passes[s][i].candidates[:2]}
                )
                passes[spec].append(
                    pass_advice(
                        h,
                        deals=n,
                        seed=args.seed,
                        strategy=spec,
                        others=spec,
                        candidates=given,
                        generated=False,
                        keep=len(given),
                    )
                )
        else:
            passes[spec] = [
                pass_advice(h, deals=n, seed=args.seed, strategy=spec, others=spec)
                for h, _ in PASS_HANDS
            ]
        _say(f"{spec}: self-play, {n:,} rounds")
        selfplay[spec] = _selfplay(spec, n, args.seed)
        seconds[spec] = time.perf_counter() - t0
        _say(f"{spec}: {seconds[spec]:.0f} s")
    total = time.perf_counter() - started

    deals = ", ".join(f"{s}: {sample[s]:,}" for s in specs)
    lines = [
        "# The answers by the strength of the players at the table",
        "",
        f"Regenerate: `{command}`",
        "",
        "Each column seats one strategy at every seat (the seat asked about and the three others) "
        "and asks the same questions on the same deals (seed "
        f"{args.seed}; deals per experiment, {deals}). Brackets are 95% intervals (Wilson for "
        "rates, normal for means); `-`: fewer than "
        f"{gttable.MIN_CELL} deals. Made in {total:,.0f} s ("
        + ", ".join(f"{s} {seconds[s]:,.0f} s" for s in specs)
        + ").",
        "",
        "## Grand Tichu by hand class",
        "",
        "`gt-table`'s paired experiment: seat 0's first 8 cards are random, and each deal is "
        "played with and without its Grand Tichu call (`tichusim gt-table --seat-strategy S "
        "--others S`). The classes without a bomb in the first 8 cards by Aces, Dragon and "
        "Phoenix, then the hands with a bomb together (four Aces are a bomb).",
        "",
        "### P(out first | call)",
        "",
    ]
    names = list(gt[specs[0]])
    lines += _table(
        "first 8 cards", labels, [(k, [_cell(gt[s][k][0], True) for s in specs]) for k in names]
    )
    lines += ["", "### Points gained per round by calling (with the call minus without)", ""]
    lines += _table(
        "first 8 cards", labels, [(k, [_cell(gt[s][k][1], False) for s in specs]) for k in names]
    )
    lines += [
        "",
        "## Tichu after the passing",
        "",
        "`tichu-odds`: the hand is seat 0's after the passing (its received cards drawn among "
        "it), each deal played with a Tichu call right after the passing and without.",
        "",
    ]
    hands = [f"{i + 1}. `{h}`: {why}" for i, (h, why) in enumerate(TICHU_HANDS)]
    lines += hands + ["", "### P(out first | call)", ""]
    lines += _table(
        "hand",
        labels,
        [(str(i + 1), [tichu[s][i].p_success.pct() for s in specs]) for i in range(len(hands))],
    )
    lines += ["", "### Points gained per round by calling", ""]
    lines += _table(
        "hand",
        labels,
        [(str(i + 1), [tichu[s][i].ev_diff.pts() for s in specs]) for i in range(len(hands))],
    )
    lines += [
        "",
        "## The best pass",
        "",
        "`pass-advice`: the candidate passes (right opponent, partner, left opponent) ranked by "
        "paired simulation: screening (successive halving) picks 4 finalists, which play the "
        "deals on fresh round keys, their figures on those deals only"
        + (
            "; `search` ranks only the passes the other columns put first and second"
            if SEARCH in specs
            else ""
        )
        + ". Each cell: the best pass, its team points per round, and its lead over the next "
        "best pass of other ranks on the same deals (a pass of the same ranks in other suits "
        "plays alike).",
        "",
        *[f"{i + 1}. `{h}`: {why}" for i, (h, why) in enumerate(PASS_HANDS)],
        "",
    ]

    def pass_cell(a: PassAdvice) -> str:
        m = _margin(a)
        lead = "" if m is None else f"; lead {m.pts()}"
        return f"`{a.best.cards}`: {a.best.points.pts()}{lead}"

    lines += _table(
        "hand",
        labels,
        [(str(i + 1), [pass_cell(passes[s][i]) for s in specs]) for i in range(len(PASS_HANDS))],
    )
    lines += [
        "",
        "## Self-play",
        "",
        "Independent rounds, the strategy at every seat (`tichusim simulate --strategies S`). "
        "results/ and docs/ document no human bands for these figures (call rates, success "
        "rates, tricks and bombs per round); the rows are those such bands would be set "
        "against.",
        "",
    ]
    rows = list(selfplay[specs[0]])
    lines += _table("figure", labels, [(k, [selfplay[s][k] for s in specs]) for k in rows])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    _say(f"wrote {args.out} in {total:.0f} s")


if __name__ == "__main__":
    main()
