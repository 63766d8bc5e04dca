"""Does a table's own call fit pay? `expert` with its table's call coefficients against
`expert-nanjing`, the same player with Nanjing's (the coefficients every table used before
the per-table fits), at Tientsin or Wu Wang.

    python scripts/table_calls.py --variant tientsin [--rounds 200000] [--seed 2026]
                                  [--deals 20000] [--match-seed 3]

Self-play (`--rounds` independent rounds, `--seed`), each player at every seat: Tichu and
Grand Tichu calls per player-round and their success (the caller out first), per role at Wu
Wang (King, opponent, and the Minister, for whom the King calls). Strength, on `--deals` deals
(`--match-seed`): at Tientsin a duplicate match (`tichusim compare`), at Wu Wang the new
player in place of one old one (`scripts/wuwang_swap.py`: no teams to swap). 95% intervals
(Wilson for rates, normal for means).
"""

import argparse
import sys
from pathlib import Path

import tichusim
from tichusim.analysis.duplicate import duplicate
from tichusim.games import game
from tichusim.stats import wilson
from tichusim.strategies import expert_params
from tichusim.strategies.tichu import CALL_FEATURES, build

sys.path.insert(0, str(Path(__file__).resolve().parent))
from wuwang_swap import swap_gain  # noqa: E402


def nanjing_calls(name: str = "expert-nanjing"):
    """`expert` with Nanjing's call coefficients at any table (a params override wins over
    the table's own)."""
    params = {
        f"tichu_value_{f}": c
        for f, c in zip(CALL_FEATURES, expert_params.TICHU_VALUE["nanjing"], strict=False)
    }
    params |= {
        f"gt_value_{f}": c
        for f, c in zip(CALL_FEATURES, expert_params.GT_VALUE["nanjing"], strict=False)
    }
    return build({"base": "expert", "params": params, "name": name})


def _rate(hits, n) -> str:
    return wilson(int(hits), int(n)).pct()


def selfplay(strategy, variant: str, rounds: int, seed: int) -> list[tuple[str, str, str]]:
    """(who, Tichu calls and success, Grand Tichu calls and success) per role."""
    _, seats = tichusim.simulate(rounds, seed=seed, variant=variant, strategies=strategy)
    groups = {"every player": seats["seat"] < game(variant).players}  # not the Minister
    if "role" in seats:
        groups |= {role: seats["role"] == role for role in ("king", "opponent", "minister")}
    out = []
    for who, rows in groups.items():
        s = seats[rows]
        cells = []
        for call in ("tichu", "grand_tichu"):
            called = s[call].to_numpy(bool)
            won = s["call_success"].fillna(False).to_numpy(bool) & called
            cells.append(
                f"{_rate(called.sum(), len(s))} called, "
                f"{_rate(won.sum(), called.sum()) if called.any() else '-'} succeed"
            )
        out.append((who, *cells))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", required=True, choices=("tientsin", "wuwang"))
    ap.add_argument("--rounds", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--match-seed", type=int, default=3)
    args = ap.parse_args()
    new, old = "expert", nanjing_calls()
    print(f"## {args.variant}: self-play, {args.rounds:,} rounds, seed {args.seed}\n")
    print("| player | who | Tichu | Grand Tichu |\n|---|---|---|---|")
    for label, strategy in (
        (f"expert ({args.variant}'s fit)", new),
        ("expert-nanjing (Nanjing's)", old),
    ):
        for who, tichu, gt in selfplay(strategy, args.variant, args.rounds, args.seed):
            print(f"| {label} | {who} | {tichu} | {gt} |")
    print()
    if args.variant == "wuwang":
        gain, players = swap_gain(new, old, args.deals, args.match_seed)
        back, _ = swap_gain(old, new, args.deals, args.match_seed)
        print(
            f"expert in place of one expert-nanjing ({args.deals:,} deals, seed "
            f"{args.match_seed}): {gain.pts()} points per round; players "
            + ", ".join(e.pts() for e in players)
        )
        print(f"expert-nanjing in place of one expert: {back.pts()}")
    else:
        result = duplicate(new, old, args.deals, seed=args.match_seed, variant=args.variant)
        print(
            f"duplicate expert - expert-nanjing ({args.deals:,} deals, seed "
            f"{args.match_seed}): {result.diff.pts()} points per round"
        )
        print(result.per_strategy.to_string(index=False))


if __name__ == "__main__":
    main()
