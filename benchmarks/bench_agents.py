"""What a decision answered in Python costs: rounds/s per core of

(a) a Python strategy taking only the passing decision, heuristic at the other seats
    (target: 5,000 rounds/s);
(b) a Python agent taking every play decision at one seat with the first legal play
    (target: 1,000 rounds/s);
(c) all four seats stepped from Python (``Round``), every decision answered by
    ``tichusim.strategy("heuristic").decide``;

and the cost of one decision crossing into Python: the time over the same rounds played
without agents (all heuristic), divided by the decisions answered in Python.

One thread (NUMBA_NUM_THREADS=1, set here before numba loads), a warm kernel cache, one
warm-up call of each case before its clock starts.

    python benchmarks/bench_agents.py [--rounds 5000] [--seed 1]
"""

import os

os.environ["NUMBA_NUM_THREADS"] = "1"

import argparse  # noqa: E402
import time  # noqa: E402

import tichusim  # noqa: E402


class Passer(tichusim.Agent):
    """The passing only: the lowest card to each receiver in turn (trivial, so the time is
    the crossing's, not the strategy's)."""

    calls = 0

    def pass_cards(self, view, legal):
        Passer.calls += 1
        return legal.cards[: len(legal.receivers)]


class FirstPlay(tichusim.Agent):
    """Every play decision: the first legal play."""

    calls = 0

    def play(self, view, legal):
        FirstPlay.calls += 1
        return legal[0]


def clock(fn):
    fn()  # warm-up: loads the kernels, touches the pages
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def simulated(rounds: int, seed: int, agent):
    """``(seconds, Python decisions)`` of ``rounds`` rounds with ``agent`` at seat 0."""
    strategies = "heuristic" if agent is None else [agent, "heuristic", "heuristic", "heuristic"]

    def go():
        before = 0 if agent is None else type(agent).calls
        tichusim.simulate(rounds, seed=seed, strategies=strategies)
        return 0 if agent is None else type(agent).calls - before

    return clock(go)


def stepped(rounds: int, seed: int):
    """``(seconds, decisions)`` of ``rounds`` rounds with every seat stepped from Python."""
    heuristic = tichusim.strategy("heuristic")

    def go():
        decisions = 0
        for key in range(rounds):
            r = tichusim.Round(seed=seed, key=key, strategies=[None] * 4)
            while True:
                r.advance()
                if r.done:
                    break
                r.act(heuristic.decide(r.view(), r.legal()))
            decisions += r.decisions
        return decisions

    return clock(go)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--rounds", type=int, default=5000, help="rounds of (a); (b) a fifth, (c) a 25th"
    )
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    n = args.rounds
    cases = [
        ("(a) Python passing, 3 heuristic", n, lambda k: simulated(k, args.seed, Passer()), 5000),
        (
            "(b) Python plays (first legal), 3 heuristic",
            n // 5,
            lambda k: simulated(k, args.seed, FirstPlay()),
            1000,
        ),
        (
            "(c) 4 seats stepped, strategy('heuristic').decide",
            n // 25,
            lambda k: stepped(k, args.seed),
            None,
        ),
    ]
    print(f"tichusim {tichusim.__version__}, one thread, seed {args.seed}")
    print(
        f"{'case':<52} {'rounds':>7} {'rounds/s':>9} {'target':>7} {'decisions/round':>15} "
        f"{'us/decision':>11}"
    )
    for label, rounds, run, target in cases:
        base, _ = simulated(rounds, args.seed, None)  # the same rounds without Python
        seconds, decisions = run(rounds)
        per = (seconds - base) / decisions * 1e6 if decisions else float("nan")
        mark = "" if target is None else f"{target:,}"
        print(
            f"{label:<52} {rounds:>7,} {rounds / seconds:>9,.0f} {mark:>7} "
            f"{decisions / rounds:>15.1f} {per:>11.1f}"
        )
    print(
        "us/decision: (time - the same rounds all heuristic without Python) / decisions "
        "answered in Python"
    )


if __name__ == "__main__":
    main()
