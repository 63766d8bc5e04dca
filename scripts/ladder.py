"""Strength ladder and self-play statistics of the shipped strategies -> results/*.md.

    python scripts/ladder.py [--deals 100000] [--games 2000]
    python scripts/ladder.py --tables [--table-deals 10000] [--search-deals 300]

``--tables`` writes only the section of results/ladder.md with every player of every team
table (Nanjing, Tientsin, Wu Wang): `expert`, `heuristic`, `search`, the shipped `learned` and
the previous networks that table's learn config names (``configs/learn*.toml``, ``[league]
previous``), each in a duplicate match against `expert` on the league's held-out deals (its
``[league] seed``), and the shipped network head to head with `search` and with each previous
network. Wu Wang's matches are the three-player design (``compare --variant wuwang``: every
mixed assignment of the two strategies to the players), points per player-round. `search`
plays tens of rounds a second, so its matches play ``--search-deals`` deals (the first of the
same sequence), the others ``--table-deals``; every row counts its deals.

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
from tichusim.learn.config import load_learn_config
from tichusim.stats import mean_ci, wilson
from tichusim.strategies.learned import load, shipped
from tichusim.strategies.tichu import weights_identities

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
TABLES = ("nanjing", "tientsin", "wuwang")
NAMES = {"nanjing": "Nanjing", "tientsin": "Tientsin", "wuwang": "Wu Wang"}
CONFIGS = {
    "nanjing": "learn.toml",
    "tientsin": "learn-tientsin.toml",
    "wuwang": "learn-wuwang.toml",
}
TABLES_HEADING = "## Every player of every team table (scripts/ladder.py --tables)"
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


def _networks(variant: str) -> tuple[str, list[tuple[str, str]]]:
    """The shipped network's identity and the previous networks of ``variant`` (name, strategy
    text), as its learn config's league names them; and that league's held-out seed."""
    cfg = load_learn_config(ROOT / "configs" / CONFIGS[variant])
    assert cfg.league is not None  # every shipping config has one (tests/learn)
    previous = []
    for path in cfg.league.previous:
        ident = load(ROOT / path).identity
        previous.append((f"`{Path(path).name}` ({ident})", f"learned[weights={ROOT / path}]"))
    return load(shipped(variant)).identity, previous


def _row(label: str, a: str, b: str, deals: int, seed: int, variant: str) -> str:
    t0 = time.perf_counter()
    r = duplicate(a, b, deals, seed=seed, variant=variant)
    seconds = time.perf_counter() - t0
    pa, pb = r.per_strategy.iloc[0], r.per_strategy.iloc[1]
    print(f"  {variant}: {label} {r.diff.pts()} ({r.deals:,} deals, {seconds:.0f} s)", flush=True)
    return (
        f"| {label} | {fmt(r.diff)} | {r.deals:,} | {fmt(pa.points_per_round)} | "
        f"{fmt(pb.points_per_round)} |"
    )


def tables(deals: int, search_deals: int, which: tuple[str, ...] = TABLES) -> str:
    """Every player of the team tables ``which`` against `expert`, and the shipped network
    against `search` and the previous networks, on each table's held-out league deals."""
    lines = [
        TABLES_HEADING,
        "",
        f"Regenerate: `python scripts/ladder.py --tables --table-deals {deals} --search-deals "
        f"{search_deals}`. Duplicate matches on each table's held-out league deals (the "
        "`[league] seed` of its learn config, which no training data was played with); "
        "Wu Wang's play every mixed assignment of the two strategies to the three players "
        "(`compare --variant wuwang`), points per player-round. `search` plays tens of rounds "
        f"a second, so its matches play {search_deals:,} deals, the others {deals:,}. "
        "`expert` is the reference, the B of every row but the head-to-heads. "
        "Brackets are 95% intervals.",
    ]
    for variant in which:
        seed = load_learn_config(ROOT / "configs" / CONFIGS[variant]).league.seed  # type: ignore[union-attr]
        ident, previous = _networks(variant)
        lines += [
            "",
            f"### {NAMES[variant]} (held-out seed {seed})",
            "",
            "| A - B | A - B points | deals | A points | B points |",
            "|---|---|---|---|---|",
        ]
        players = [
            ("heuristic", "heuristic", deals),
            ("search", "search", search_deals),
            (f"learned (shipped, {ident})", "learned", deals),
        ] + [(name, text, deals) for name, text in previous]
        passing = [i for i in weights_identities("learned", variant) if i.startswith("pass:")]
        if passing:  # the table's learned passes with a network: its play with expert's passing
            players.insert(3, ("learned:pass=expert", "learned:pass=expert", deals))
        for name, text, n in players:
            lines.append(_row(f"{name} - expert", text, "expert", n, seed, variant))
        lines.append(
            _row(f"learned ({ident}) - search", "learned", "search", search_deals, seed, variant)
        )
        if passing:
            label = f"learned ({ident}, {passing[0]}) - learned:pass=expert"
            lines.append(_row(label, "learned", "learned:pass=expert", deals, seed, variant))
        for name, text in previous:
            lines.append(_row(f"learned ({ident}) - {name}", "learned", text, deals, seed, variant))
    return "\n".join(lines) + "\n"


def _write_tables(page: Path, text: str) -> None:
    """The team tables' subsections of ``text`` (``### Name (...``) in place of the same
    subsections of ``page``'s team tables section."""
    old = page.read_text()
    for part in re.split(r"(?m)^(?=### )", text)[1:]:
        title = part[: part.index("(")]
        start = old.index("\n" + title) + 1
        end = old.find("\n### ", start)
        end = old.find("\n## ", start) if end < 0 else end
        end = len(old) if end < 0 else end
        old = old[:start] + part.rstrip("\n") + "\n" + old[end:]
    page.write_text(old)


def _write_section(page: Path, heading: str, text: str) -> None:
    """``text`` (a section starting with ``heading``) in place of that section of ``page``,
    or after its other sections."""
    old = page.read_text()
    starts = [m.start() for m in re.finditer(r"^## ", old, re.M)] + [len(old)]
    for a, b in zip(starts, starts[1:], strict=False):
        if old[a : old.index("\n", a)] == heading:
            page.write_text(old[:a] + text + ("\n" + old[b:] if b < len(old) else ""))
            return
    page.write_text(old.rstrip("\n") + "\n\n" + text)


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
    ap.add_argument("--tables", action="store_true", help="only the team tables' section")
    ap.add_argument("--table-deals", type=int, default=10_000)
    ap.add_argument("--search-deals", type=int, default=300)
    ap.add_argument(
        "--table", choices=TABLES, action="append", help="with --tables: only this table's part"
    )
    args = ap.parse_args()
    t0 = time.perf_counter()
    if args.tables and args.table:
        text = tables(args.table_deals, args.search_deals, tuple(args.table))
        _write_tables(RESULTS / "ladder.md", text)
        seconds = time.perf_counter() - t0
        print(f"wrote {', '.join(args.table)} in results/ladder.md in {seconds:.0f} s")
        return
    if args.tables:
        _write_section(
            RESULTS / "ladder.md", TABLES_HEADING, tables(args.table_deals, args.search_deals)
        )
        print(f"wrote the team tables of results/ladder.md in {time.perf_counter() - t0:.0f} s")
        return
    RESULTS.mkdir(exist_ok=True)
    _write(RESULTS / "ladder.md", ladder(args.deals, args.seed))
    _write(RESULTS / "selfplay.md", selfplay(args.rounds, args.games, args.seed))
    print(f"wrote results/ladder.md and results/selfplay.md in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
