"""Grand Seigneur (RULES.md §5): rank-to-rank transitions and how long a Grand Seigneur keeps
the title, as a Markdown table, CSV files and a PNG plot in results/grand_seigneur/.

Regenerate (about a minute on two cores):

    python scripts/seigneur_analysis.py --games 2000 --rounds-per-game 50 --seed 2026

Every player plays the same strategy (``--strategies``, default ``heuristic``), so the
differences between ranks come from the rules (the exchange of best cards, the seating), not
from unequal players; ``--baseline`` (default ``random``) is measured the same way for
comparison.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from tichusim.analysis.plots import seigneur_overview_plot
from tichusim.analysis.seigneur_analysis import reign_summary, reigns, transitions
from tichusim.games.seigneur import simulate_seigneur

ROOT = Path(__file__).resolve().parents[1]


def _pct(x: float) -> str:
    return "-" if np.isnan(x) else f"{100 * x:.0f}"


def _estimate(e, fmt="{:.2f}") -> str:
    return f"{fmt.format(e.value)} [{fmt.format(e.low)}, {fmt.format(e.high)}]"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rounds-per-game", type=int, default=50)
    ap.add_argument("--players", default="5,6,7,9,12")
    ap.add_argument("--strategies", default="heuristic")
    ap.add_argument("--baseline", default="random")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "grand_seigneur")
    args = ap.parse_args()
    counts = [int(p) for p in args.players.split(",")]
    args.out.mkdir(parents=True, exist_ok=True)

    summary_rows = []
    matrices = {}
    lengths = {}
    for strategy in (args.strategies, args.baseline):
        for n in counts:
            rounds, seats = simulate_seigneur(
                args.games,
                players=n,
                seed=args.seed,
                strategies=strategy,
                rounds_per_game=args.rounds_per_game,
            )
            s = reign_summary(rounds)
            summary_rows.append({"strategy": strategy, "players": n, **s})
            if strategy == args.strategies:
                cnt, shares = transitions(seats)
                matrices[n] = shares
                cnt.to_csv(args.out / f"transitions_p{n}.csv")
                table = reigns(rounds)
                lengths[n] = table[~table.censored].length.to_numpy()

    regen = (
        f"python scripts/seigneur_analysis.py --games {args.games} --rounds-per-game "
        f"{args.rounds_per_game} --players {args.players} --strategies '{args.strategies}' "
        f"--baseline '{args.baseline}' --seed {args.seed}"
    )
    lines = [
        "# Grand Seigneur: rank transitions and reigns (RULES.md §5)",
        "",
        f"Regenerate: `{regen}`",
        "",
        f"{args.games:,} games of {args.rounds_per_game} rounds per table size; every player "
        f"plays `{args.strategies}` (baseline: every player `{args.baseline}`); default "
        "rules (one deck for 5-6 players, two for 7-12, Japanese seating, no Options). A "
        "game's first round has no ranks; from the second on the ranks of the round before "
        "seat the players and drive the exchange of best cards.",
        "",
        "## How long a Grand Seigneur keeps the title",
        "",
        "Reign: the rounds a player wins in a row (from the round the title is won). Reigns "
        "still running at a game's last round are censored and left out of the mean. "
        "P(keep): the Grand Seigneur finishes first again. Memoryless: the mean reign if "
        "every round were kept with P(keep) independently, 1 / (1 - P(keep)). 95% intervals.",
        "",
        "| strategy | players | P(keep) % | mean reign (rounds) | memoryless | reigns | censored |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in summary_rows:
        k = row["p_keep"]
        lines.append(
            f"| {row['strategy']} | {row['players']} | {100 * k.value:.1f} "
            f"[{100 * k.low:.1f}, {100 * k.high:.1f}] | {_estimate(row['mean_reign'])} | "
            f"{row['memoryless_mean']:.2f} | {row['reigns']:,} | {row['censored']:,} |"
        )
    dist = pd.DataFrame(
        [
            {
                "players": n,
                "length": k,
                "reigns": int((ls == k).sum()),
                "share": float((ls == k).mean()),
            }
            for n, ls in lengths.items()
            for k in range(1, int(ls.max()) + 1)
        ]
    )
    dist.to_csv(args.out / "reign_lengths.csv", index=False)
    top = 6
    lines += [
        "",
        f"Completed reign lengths, `{args.strategies}` (% of reigns; "
        "`reign_lengths.csv` has every length):",
        "",
        "| players | " + " | ".join(str(k) for k in range(1, top)) + f" | {top}+ |",
        "|---" * (top + 1) + "|",
    ]
    for n, ls in lengths.items():
        cells = [_pct((ls == k).mean()) for k in range(1, top)] + [_pct((ls >= top).mean())]
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"## Rank before -> rank after (% of rounds, `{args.strategies}`)",
        "",
        "Rows: rank in the previous round (1 = Grand Seigneur); columns: finishing rank.",
        "",
    ]
    for n, shares in matrices.items():
        lines += [
            f"### {n} players",
            "",
            "| before \\ after | " + " | ".join(str(c) for c in shares.columns) + " |",
            "|---" * (len(shares.columns) + 1) + "|",
        ]
        for r, row in shares.iterrows():
            lines.append(f"| {r} | " + " | ".join(_pct(v) for v in row) + " |")
        lines.append("")
    (args.out / "table.md").write_text("\n".join(lines))
    pd.DataFrame(
        [
            {
                **{k: v for k, v in r.items() if k not in ("mean_reign", "p_keep")},
                "p_keep": r["p_keep"].value,
                "p_keep_low": r["p_keep"].low,
                "p_keep_high": r["p_keep"].high,
                "mean_reign": r["mean_reign"].value,
                "mean_reign_low": r["mean_reign"].low,
                "mean_reign_high": r["mean_reign"].high,
            }
            for r in summary_rows
        ]
    ).to_csv(args.out / "summary.csv", index=False)

    seigneur_overview_plot(
        matrices,
        lengths,
        summary_rows,
        args.out / "seigneur.png",
        strategy=args.strategies,
        baseline=args.baseline,
    )
    print((args.out / "table.md").read_text())


if __name__ == "__main__":
    main()
