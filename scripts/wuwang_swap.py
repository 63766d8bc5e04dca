"""How much does one A player gain at a Wu Wang table of Bs? A paired seat swap (RULES.md §4;
`tichusim compare A B --variant wuwang` is the duplicate match, every mixed seating of A and B).

    python scripts/wuwang_swap.py [--deals 20000] [--seed 3] [A expert] [B heuristic]

Every deal is played with B at all three players, then three more times with A in place of
player 0, 1 or 2 (the others B). Each seat decides from its own random stream and the deal
from the seed and the round's key, so the four plays hold the same cards and the same King;
the difference of the changed player's round score is a paired sample. Reported: that
difference averaged over the three players per deal, with its 95% interval (A's gain from
taking one B's place at a table of Bs), and each player's.
"""

import argparse

import numpy as np

import tichusim
from tichusim.games.strategy_text import parse_strategy
from tichusim.stats import mean_ci


def swap_gain(a: str, b: str, deals: int, seed: int) -> tuple:
    # the command line's strategy texts: a name, base[key=value,...] or a .toml file
    a, b = parse_strategy(a), parse_strategy(b)
    base, _ = tichusim.simulate(deals, seed=seed, variant="wuwang", strategies=b)
    per_player = []
    for player in range(3):
        strategies = [b] * 3
        strategies[player] = a
        rounds, _ = tichusim.simulate(deals, seed=seed, variant="wuwang", strategies=strategies)
        column = f"score_player{player}"
        per_player.append(rounds[column].to_numpy(float) - base[column].to_numpy(float))
    return mean_ci(np.mean(per_player, axis=0)), [mean_ci(d) for d in per_player]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", nargs="?", default="expert")
    ap.add_argument("b", nargs="?", default="heuristic")
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    gain, players = swap_gain(args.a, args.b, args.deals, args.seed)
    print(
        f"{args.a} in place of one {args.b} at Wu Wang ({args.deals:,} deals, seed "
        f"{args.seed}): {gain.pts()} points per round"
    )
    for player, e in enumerate(players):
        print(f"  player {player}: {e.pts()}")


if __name__ == "__main__":
    main()
