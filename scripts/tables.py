"""The default strategy in self-play at each team table, side by side -> results/tables.md.

    python scripts/tables.py [--rounds 500000] [--games 10000] [--wuwang-games 50000]
                             [--deals 200000] [--seed 2026] [--strategy heuristic --out FILE.md]

Nanjing (4 players, RULES.md §2), Tientsin (6 players, §3) and Wu Wang (3 players and the
Minister, §4), all seats playing the default strategy (`expert`; `--strategy` another): call
rates and success, victories, tricks, bombs, card points and scores per side from independent
rounds; rounds per game to 1000 (§2.15) in the two team games; who wins a Wu Wang game of 9
rounds, the Minister or a player, with the King going to the first out (§4) and with the
rotating King (the Option of §4); and that strategy against `lowest` at Tientsin in a duplicate
match (tichusim.analysis.duplicate). Every interval is 95%: normal for means, Wilson for rates
(tichusim.stats).
"""

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

import tichusim
from tichusim.analysis.duplicate import duplicate
from tichusim.analysis.report import (
    MINISTER,
    TEAM_RULES,
    fmt_num,
    fmt_pct,
    fmt_pts,
    markdown_table,
    per_group,
    role_section,
    rounds_per_game,
    share_of,
)
from tichusim.stats import mean_ci
from tichusim.strategies import DEFAULT_STRATEGY

RESULTS = Path(__file__).resolve().parent.parent / "results"
STRATEGY = DEFAULT_STRATEGY  # every seat's strategy (main sets it from --strategy)
TABLES = {
    "nanjing": "Nanjing, 4 players (§2)",
    "tientsin": "Tientsin, 6 (§3)",
    "wuwang": "Wu Wang, 3 + Minister (§4)",
}
PLAYER = "player"  # the group of per_group that holds every real player's seat
# who wins a Wu Wang game: the `winner` code on its last round (docs/schema.md)
OUTCOMES = [
    ("the Minister", [MINISTER]),
    ("a player (0, 1 or 2)", [0, 1, 2]),
    ("player 0", [0]),
    ("player 1", [1]),
    ("player 2", [2]),
    ("tie", [-1]),
]


def round_figures(variant: str, rounds: pd.DataFrame, seats: pd.DataFrame) -> dict:
    """One table's column of the comparison: label -> formatted estimate."""
    rules = TEAM_RULES[variant]
    # Wu Wang's seat row 3 is the Minister, played and called for by the King (§4): not a player
    minister = (seats["seat"] == MINISTER) & (variant == "wuwang")
    seats = seats.assign(who=np.where(minister, "minister", PLAYER))
    calls = (
        per_group(seats, rounds, "who", victory=rules.victory, victory_name=rules.victory_name)
        .set_index("who")
        .loc[PLAYER]
    )
    victory = rounds[rules.victory]
    plain = rounds[~victory]  # card points are counted only without a victory (§2.13, §3)
    n = len(rounds)
    return {
        "Grand Tichu calls per player-round": calls["Grand Tichu calls"],
        "Grand Tichu success (caller out first)": calls["Grand Tichu success"],
        "Tichu calls per player-round": calls["Tichu calls"],
        "Tichu success (caller out first)": calls["Tichu success"],
        "double victories (Tientsin: triple) per round": fmt_pct(share_of(victory, n)),
        "tricks per round": fmt_num(mean_ci(rounds["tricks"])),
        "bombs per round": fmt_num(mean_ci(rounds["bombs"])),
        "side 0 card points per round, rounds without a victory": fmt_pts(
            mean_ci(plain["card_points_team0"])
        ),
        "side 1 card points per round, rounds without a victory": fmt_pts(
            mean_ci(plain["card_points_team1"])
        ),
        "side 0 score per round": fmt_pts(mean_ci(rounds["score_team0"])),
        "side 1 score per round": fmt_pts(mean_ci(rounds["score_team1"])),
        "side 0 - side 1 score per round": fmt_pts(
            mean_ci(rounds["score_team0"] - rounds["score_team1"])
        ),
        "side 0 outscores side 1": fmt_pct(
            share_of(rounds["score_team0"] > rounds["score_team1"], n)
        ),
    }


def rounds_section(data: dict, n: int) -> list[str]:
    columns = {TABLES[v]: round_figures(v, *data[v]) for v in TABLES}
    table = pd.DataFrame(columns).rename_axis(f"{n:,} rounds per table").reset_index()
    return [
        "## Independent rounds",
        "",
        "A player-round is one real player in one round: the Minister's seat (Wu Wang) is "
        "left out of the call rates, since the King calls for it and it may not call Grand "
        "Tichu (its Tichu calls are in the Wu Wang table below). Side 0 is team 0 in "
        "Nanjing and Tientsin (seat 0 draws first in every independent round; in Tientsin "
        "seats 0 and 1, first in draw order, hold 10 cards and the others 9, RULES.md §3) "
        "and the "
        "King's side (the King and the Minister) in Wu Wang; side 1 is team 1, or the two "
        "opponents, each of whom scores the side's total. On a double or triple victory "
        "card points are not counted (RULES.md §2.13, §3), so the card-point rows use the "
        "other rounds (without a victory the two sides' card points sum to 100).",
        "",
        *markdown_table(table),
        "",
    ]


def wuwang_section(rounds: pd.DataFrame, seats: pd.DataFrame) -> list[str]:
    """Per player and per role in independent Wu Wang rounds (the King drawn each round)."""
    scores = [(f"player {p}", f"score_player{p}") for p in range(3)]
    scores.append(("the Minister", "score_minister"))
    table = pd.DataFrame(
        [
            {"": label, "points per round": fmt_pts(mean_ci(rounds[column]))}
            for label, column in scores
        ]
    )
    return [
        "## Wu Wang: players and roles",
        "",
        "Each player scores his side's total; the Minister's column is the King's side's "
        "total (RULES.md §4). In independent rounds the King is drawn at random, so the "
        "three players' figures differ only by chance.",
        "",
        *markdown_table(table),
        "",
        "Per role:",
        "",
        *role_section(TEAM_RULES["wuwang"], rounds, seats)[2:],
    ]


def team_games(variant: str, games: int, seed: int) -> tuple[str, str, str]:
    g, _ = tichusim.simulate_games(
        games, seed=seed, strategies=STRATEGY, variant=variant, target=1000
    )
    last = g.groupby("game").tail(1)
    return (TABLES[variant], rounds_per_game(g), f"{int(last['game_over'].sum()):,} of {games:,}")


def wuwang_games(games: int, seed: int, options: dict) -> tuple[dict, pd.Series]:
    """Who wins, and the Minister's final total of every game (to compare the King rules)."""
    g, _ = tichusim.simulate_games(
        games, seed=seed, strategies=STRATEGY, variant="wuwang", options=options
    )
    over = g[g["game_over"]].set_index("game")
    out = {
        label: fmt_pct(share_of(over["winner"].isin(codes), len(over))) for label, codes in OUTCOMES
    }
    players = over[[f"total_player{p}" for p in range(3)]].mean(axis=1)
    out["the Minister's final total"] = fmt_pts(mean_ci(over["total_minister"]))
    out["a player's final total (mean of the three)"] = fmt_pts(mean_ci(players))
    out["rounds per game"] = rounds_per_game(g)
    return out, over["total_minister"]


def games_section(games: int, wuwang: int, seed: int) -> list[str]:
    team = pd.DataFrame(
        [team_games(v, games, seed) for v in ("nanjing", "tientsin")],
        columns=["table", "rounds per game to 1000", "games decided"],
    )
    first, minister = wuwang_games(wuwang, seed, {})
    rotating, minister_rotating = wuwang_games(wuwang, seed, {"rotating_king": True})
    won = pd.DataFrame(
        {"King: the first out (RULES.md §4)": first, "Option: rotating King": rotating}
    )
    won = won.rename_axis(f"{wuwang:,} games of 9 rounds").reset_index()
    same = int((minister == minister_rotating.reindex(minister.index)).sum())
    return [
        "## Games",
        "",
        f"Nanjing and Tientsin: {games:,} games each, to 1000 points (RULES.md §2.15); a "
        "game not decided after 256 rounds is cut.",
        "",
        *markdown_table(team),
        "",
        "Wu Wang: who has the highest total after 9 rounds (RULES.md §4): a player or the "
        "Minister, whose total is the King's side's score of every round, whoever is King; "
        "a shared highest total is a tie. By default the first player out becomes King (a "
        "Minister out first leaves the King in place); with the Option the role passes to "
        "the next player every round. Both columns play the same games (seed and game "
        f"numbers). The Minister's final total is the same under both rules in {same:,} of "
        f"{len(minister):,} games: with one strategy at every seat, which player holds the "
        "King's position changes nobody's cards or play, only whose total a round's "
        "score is added to.",
        "",
        *markdown_table(won),
        "",
    ]


def match_section(deals: int, seed: int) -> list[str]:
    result = duplicate(STRATEGY, "lowest", deals, seed=seed, variant="tientsin")
    return [
        "## Head to head at Tientsin",
        "",
        f"`{STRATEGY}` on seats 0, 2, 4 against `lowest` on 1, 3, 5, and every deal again "
        "with the sides swapped (tichusim.duplicate), so both hold the same cards; the "
        "difference is per deal. The Nanjing match is in results/ladder.md.",
        "",
        result.to_markdown(),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=500_000, help="independent rounds per table")
    ap.add_argument("--games", type=int, default=10_000, help="Nanjing and Tientsin games")
    ap.add_argument("--wuwang-games", type=int, default=50_000, help="Wu Wang games per rule")
    ap.add_argument("--deals", type=int, default=200_000, help="Tientsin duplicate deals")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--strategy", default=DEFAULT_STRATEGY, help="every seat's strategy")
    ap.add_argument("--out", default=None, help="default results/tables.md")
    args = ap.parse_args()
    global STRATEGY
    STRATEGY = args.strategy
    t0 = time.perf_counter()
    data = {
        v: tichusim.simulate(args.rounds, seed=args.seed, strategies=STRATEGY, variant=v)
        for v in TABLES
    }
    command = (
        f"python scripts/tables.py --rounds {args.rounds} --games {args.games} "
        f"--wuwang-games {args.wuwang_games} --deals {args.deals} --seed {args.seed}"
    )
    if STRATEGY != DEFAULT_STRATEGY:
        command += f" --strategy {STRATEGY}"
    if args.out:
        command += f" --out {args.out}"
    lines = [
        f"# Self-play of `{STRATEGY}` at the three team tables (seed {args.seed})",
        "",
        f"Regenerate: `{command}`. Sizes: {args.rounds:,} independent rounds per table; "
        f"{args.games:,} games to 1000 each of Nanjing and Tientsin; {args.wuwang_games:,} "
        f"Wu Wang games per King rule; {args.deals:,} duplicated deals at Tientsin. "
        f"Every seat plays `{STRATEGY}`"
        + (" (the default strategy)" if STRATEGY == DEFAULT_STRATEGY else "")
        + " unless said otherwise. "
        "Brackets are 95% intervals (normal for means, Wilson for rates).",
        "",
        *rounds_section(data, args.rounds),
        *wuwang_section(*data["wuwang"]),
        *games_section(args.games, args.wuwang_games, args.seed),
        *match_section(args.deals, args.seed),
    ]
    out = Path(args.out) if args.out else RESULTS / "tables.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines))
    print(f"wrote {out} in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
