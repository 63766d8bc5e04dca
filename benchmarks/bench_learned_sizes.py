"""Rounds per CPU-second with four ``learned`` seats beside ``expert``, by network size; and the
work a round gives the network.

One thread, the 4-player game, best of 3 (``bench_engine.kernel_rate`` with ``cpu=True``),
networks of random weights (no training: the speed of the forward pass, not of a player) of
hidden sizes ``--sizes``. A random network plays longer rounds than a trained one would, so
the decisions a round asks are counted too, under the random network and under ``expert``
(whose play a trained network imitates): the play and bomb decisions per round, those with
two answers or more (the ones that ask the network), and their answers.

    NUMBA_NUM_THREADS=1 python benchmarks/bench_learned_sizes.py --rounds 20000 --sizes 32x16
"""

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_engine import kernel_rate  # noqa: E402

from tichusim import Agent, Round  # noqa: E402
from tichusim.games.scripted import strategy  # noqa: E402
from tichusim.kernels.tichu.encoding import LAYOUT_HASH, N_FEATURES  # noqa: E402


def write_weights(path: Path, h1: int, h2: int) -> Path:
    """A weights file of a random network (``strategies/learned.py``'s format)."""
    rng = np.random.default_rng(h1 * 1000 + h2)

    def normal(*shape, s=0.3):
        return (rng.normal(size=shape) * s).astype(np.float32)

    np.savez(
        path,
        w1=normal(N_FEATURES, h1),
        b1=normal(h1, s=0.1),
        w2=normal(h1, h2),
        b2=normal(h2, s=0.1),
        w3=normal(h2),
        b3=normal(1, s=0.1),
        layout_hash=np.array(LAYOUT_HASH),
        format=np.array(1, np.int64),
    )
    return path


def decision_counts(text: str, rounds: int) -> str:
    """Per round, the play and bomb decisions of four ``text`` seats, those with two answers
    or more, and the answers of these (a Round stepped with an agent answering as ``text``)."""
    player = strategy(text)
    counts = np.zeros(3)

    class Counter(Agent):
        base = text

        def play(self, view, legal):
            counts[0] += 1
            if len(legal) > 1:
                counts[1] += 1
                counts[2] += len(legal)
            return player.decide(view, legal)

        bomb = play

    for key in range(rounds):
        Round(seed=3, key=key, strategies=Counter()).advance()
    asked, model, answers = counts
    return (
        f"{asked / rounds:.1f} play and bomb decisions per round, {model / rounds:.1f} with "
        f"two answers or more, {answers / max(model, 1):.1f} answers each"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20_000)
    ap.add_argument("--sizes", default="32x16,64x32,128x64")
    ap.add_argument("--count-rounds", type=int, default=100)
    args = ap.parse_args()
    sizes = [tuple(int(n) for n in s.split("x")) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        cases = [("expert", "expert", 10 * args.rounds)]
        for h1, h2 in sizes:
            path = write_weights(Path(tmp) / f"w{h1}x{h2}.npz", h1, h2)
            cases.append((f"learned {h1}/{h2}", f"learned[weights={path}]", args.rounds))
        for label, text, rounds in cases:
            rate = kernel_rate(text, rounds, 1, cpu=True)
            print(
                f"{label:>20}: {rate:>9,.0f} rounds per CPU-second ({1e6 / rate:.1f} us/round)",
                flush=True,
            )
        for label, text, _ in cases[:2]:
            print(f"{label:>20}: {decision_counts(text, args.count_rounds)}", flush=True)


if __name__ == "__main__":
    main()
