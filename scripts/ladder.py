"""Strength ladder and self-play statistics of the shipped strategies -> results/*.md.

    python scripts/ladder.py [--deals 100000] [--games 2000]

Duplicate matches (tichusim.analysis.duplicate): every deal is played twice with the teams swapping
seats, so both strategies hold the same cards; the per-deal point difference is a paired
sample. Self-play figures of `heuristic` and of `expert` (the default strategy) come from
independent rounds and full games to 1000 (RULES.md §2.15).
"""

import argparse
import re
import time
from pathlib import Path

import tichusim
from tichusim.analysis.duplicate import duplicate
from tichusim.stats import mean_ci, wilson

RESULTS = Path(__file__).resolve().parent.parent / "results"
PAIRS = [
    ("expert", "heuristic"),
    ("expert", "lowest"),
    ("heuristic", "lowest"),
    ("lowest", "random"),
    ("heuristic", "random"),
]
SELFPLAY = ("heuristic", "expert")


def fmt(e, pct=False):
    return e.pct(na="n/a (no calls)") if pct else e.pts(na="n/a (no calls)")


def ladder(deals: int, seed: int) -> str:
    lines = [
        f"# Strength ladder (duplicate matches, {deals:,} deals each, seed {seed})",
        "",
        "Regenerate: `python scripts/ladder.py`. Points per round are a team's round score; "
        "the difference is A minus B per deal, averaged over the two tables of the deal; "
        "brackets are 95% intervals.",
        "",
        "| A | B | A - B points/round | A points/round | B points/round |",
        "|---|---|---|---|---|",
    ]
    detail = [
        "",
        "| strategy (in match) | Tichu calls | Tichu success | Grand Tichu calls | "
        "Grand Tichu success | double victories | team first out |",
        "|---|---|---|---|---|---|---|",
    ]
    for a, b in PAIRS:
        r = duplicate(a, b, deals, seed=seed)
        pa, pb = r.per_strategy.iloc[0], r.per_strategy.iloc[1]
        lines.append(
            f"| {a} | {b} | {fmt(r.diff)} | {fmt(pa.points_per_round)} | "
            f"{fmt(pb.points_per_round)} |"
        )
        for row, other in ((pa, b), (pb, a)):
            detail.append(
                f"| {row.strategy} (vs {other}) | {fmt(row.tichu_rate, True)} | "
                f"{fmt(row.tichu_success, True)} | {fmt(row.grand_tichu_rate, True)} | "
                f"{fmt(row.grand_tichu_success, True)} | "
                f"{fmt(row.double_victories, True)} | {fmt(row.team_first_out, True)} |"
            )
    return "\n".join(lines + detail) + "\n"


def _selfplay_rows(strategy: str, rounds: int, games: int, seed: int) -> list[tuple[str, str]]:
    r, s = tichusim.simulate(rounds, seed=seed, strategies=strategy)
    g, _ = tichusim.simulate_games(games, seed=seed, strategies=strategy, target=1000)
    per_game = g.groupby("game")["round_in_game"].max() + 1
    rows = [("rounds played", f"{rounds:,} (and {games:,} games to 1000)")]
    for call in ("grand_tichu", "tichu"):
        called = s[s[call]]
        rows.append(
            (
                f"{call.replace('_', ' ')} calls per player and round",
                fmt(wilson(len(called), len(s)), True),
            )
        )
        rows.append(
            (
                f"{call.replace('_', ' ')} success (caller out first)",
                fmt(wilson(int((called.finish == 1).sum()), len(called)), True),
            )
        )
    rows += [
        ("tricks per round", str(mean_ci(r.tricks))),
        ("double victories per round", fmt(wilson(int(r.double_victory.sum()), len(r)), True)),
        ("bombs per round", str(mean_ci(r.bombs))),
        ("rounds per game to 1000", str(mean_ci(per_game))),
    ]
    return rows


def selfplay(rounds: int, games: int, seed: int) -> str:
    columns = [_selfplay_rows(name, rounds, games, seed) for name in SELFPLAY]
    head = " | ".join(f"`{name}`" for name in SELFPLAY)
    body = "\n".join(
        f"| {rows[0]} | " + " | ".join(c[i][1] for c in columns) + " |"
        for i, rows in enumerate(columns[0])
    )
    return (
        f"# Self-play: every seat `{'`, then every seat `'.join(SELFPLAY)}` (seed {seed})\n\n"
        "Regenerate: `python scripts/ladder.py`. Brackets are 95% intervals. The same deals "
        "(seed) for both columns.\n\n"
        f"| figure | {head} |\n|---|{'---|' * len(SELFPLAY)}\n{body}\n"
    )


def _write(page: Path, text: str) -> None:
    """``text`` as the page, followed by the sections other scripts keep there (their heading
    names the script: ``benchmarks/bench_search.py`` measures ``search`` on fewer deals)."""
    kept = ""
    if page.exists():
        old = page.read_text()
        starts = [m.start() for m in re.finditer(r"^## ", old, re.M)] + [len(old)]
        for a, b in zip(starts, starts[1:], strict=False):
            if ".py)" in old[a : old.index("\n", a)]:
                kept += "\n" + old[a:b].rstrip("\n") + "\n"
    page.write_text(text + kept)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=400_000)
    ap.add_argument("--games", type=int, default=2_000)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    t0 = time.perf_counter()
    RESULTS.mkdir(exist_ok=True)
    _write(RESULTS / "ladder.md", ladder(args.deals, args.seed))
    _write(RESULTS / "selfplay.md", selfplay(args.rounds, args.games, args.seed))
    print(f"wrote results/ladder.md and results/selfplay.md in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
