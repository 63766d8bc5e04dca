"""How much does one A player gain at a Wu Wang table of Bs? A paired seat swap (RULES.md §4;
`tichusim compare A B --variant wuwang` is the duplicate match, every mixed seating of A and B).

    python scripts/wuwang_swap.py [--deals 20000] [--seed 3] [A expert] [B heuristic]
        [--versus A2]

Every deal is played with B at all three players, then three more times with A in place of
player 0, 1 or 2 (the others B). Each seat decides from its own random stream and the deal
from the seed and the round's key, so the four plays hold the same cards and the same King;
the difference of the changed player's round score is a paired sample. Reported: that
difference averaged over the three players per deal, with its 95% interval (A's gain from
taking one B's place at a table of Bs), and each player's. ``--versus A2``: A2 in the same
places on the same deals too, and A's gain less A2's, paired deal by deal (e.g. ``learned``
against ``learned:pass=expert``: what the learned passing adds).
"""

import argparse

import numpy as np

import tichusim
from tichusim.games.strategy_text import parse_strategy
from tichusim.stats import mean_ci


def swap_samples(a: str, b: str, deals: int, seed: int, kings: list | None = None) -> list:
    """Each player's paired differences (A in his place less B there), one per deal;
    ``kings``, when given, gets each deal's King (the same in the four plays). ``a`` and
    ``b`` are the command line's strategy texts: a name, base[key=value,...] or a .toml file."""
    a, b = parse_strategy(a), parse_strategy(b)
    base, _ = tichusim.simulate(deals, seed=seed, variant="wuwang", strategies=b)
    if kings is not None:
        kings.append(base["king"].to_numpy())
    per_player = []
    for player in range(3):
        strategies = [b] * 3
        strategies[player] = a
        rounds, _ = tichusim.simulate(deals, seed=seed, variant="wuwang", strategies=strategies)
        column = f"score_player{player}"
        per_player.append(rounds[column].to_numpy(float) - base[column].to_numpy(float))
    return per_player


def by_role(per_player: list, king: np.ndarray) -> tuple:
    """The paired differences of the changed player as King and as an opponent (§4)."""
    d = np.stack(per_player, axis=1)
    is_king = np.arange(3)[None, :] == king[:, None]
    return mean_ci(d[is_king]), mean_ci(d[~is_king])


def swap_gain(a: str, b: str, deals: int, seed: int) -> tuple:
    per_player = swap_samples(a, b, deals, seed)
    return mean_ci(np.mean(per_player, axis=0)), [mean_ci(d) for d in per_player]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", nargs="?", default="expert")
    ap.add_argument("b", nargs="?", default="heuristic")
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--versus", help="a second A, compared with A on the same deals")
    args = ap.parse_args()
    kings: list = []
    samples = {args.a: swap_samples(args.a, args.b, args.deals, args.seed, kings)}
    if args.versus:
        samples[args.versus] = swap_samples(args.versus, args.b, args.deals, args.seed)
    for a, per_player in samples.items():
        print(
            f"{a} in place of one {args.b} at Wu Wang ({args.deals:,} deals, seed "
            f"{args.seed}): {mean_ci(np.mean(per_player, axis=0)).pts()} points per round"
        )
        for player, d in enumerate(per_player):
            print(f"  player {player}: {mean_ci(d).pts()}")
        king, opponent = by_role(per_player, kings[0])
        print(f"  as King: {king.pts()}; as an opponent: {opponent.pts()}")
    if args.versus:
        diff = np.mean(samples[args.a], axis=0) - np.mean(samples[args.versus], axis=0)
        print(f"{args.a} less {args.versus}, paired: {mean_ci(diff).pts()} points per round")
        each = [x - y for x, y in zip(samples[args.a], samples[args.versus], strict=True)]
        king, opponent = by_role(each, kings[0])
        print(f"  as King: {king.pts()}; as an opponent: {opponent.pts()}")


if __name__ == "__main__":
    main()
