"""The learned player's speed and strength, against the targets it is held to:

* ``speed``: rounds per CPU-second with four ``learned`` seats and with four ``expert`` seats,
  measured alternately in this one process, one thread (target: learned ≥ 15,000 per core).
* ``duplicate``: ``learned`` against ``expert`` on duplicate deals (target: +55 points per
  round, 95% interval above zero); writes ``results/learned/duplicate.md`` and the ladder row.
* ``rollout``: ``search:rollout=learned`` against ``search``'s defaults on the same duplicate
  deals (both against ``expert``), with the rounds a second each plays (its decisions' time).
* ``selfplay``: ``learned`` at every seat, the statistics ``results/selfplay.md`` shows for
  the other strategies, as its ``learned`` section.
* ``profile``: where the network's time goes, per decision, on the play and bomb decisions
  of ``--profile-rounds`` rounds of four ``learned`` seats played in order through one
  scratch (as the engine plays them): the state part alone (``learned.state_term``: the
  state's bits and the seat's kept sum brought up to date), then the whole choice
  (``learned.choose``: every answer's first layer and the second and third layers).
* ``curve``: each weights file given by ``--weights`` (checkpoints, smaller data, other sizes)
  against ``expert`` on the same deals, with its meta (data size, model size).

``--learned`` names the strategy measured (default ``learned``: the shipped weights).
One thread per process (NUMBA_NUM_THREADS=1); matches spread over ``--workers`` processes.

    python benchmarks/bench_learned.py --only speed duplicate --deals 10000 --workers 2
    python benchmarks/bench_learned.py --only rollout --deals 200
    python benchmarks/bench_learned.py --only profile --profile-rounds 60
    python benchmarks/bench_learned.py --only curve --deals 4000 --weights a.npz b.npz
"""

import os

os.environ["NUMBA_NUM_THREADS"] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from bench_search import match_tables, selfplay_rows  # noqa: E402
from results_page import ROOT, Recorder, replace_section  # noqa: E402

import tichusim  # noqa: E402
from tichusim import Agent, Round  # noqa: E402
from tichusim.analysis.duplicate import duplicate, markdown_report  # noqa: E402
from tichusim.games.scripted import strategy  # noqa: E402
from tichusim.games.steps import CODES  # noqa: E402
from tichusim.kernels.jit import njit  # noqa: E402
from tichusim.kernels.tichu import learned as kernel  # noqa: E402
from tichusim.kernels.tichu import table_models  # noqa: E402
from tichusim.kernels.tichu.batch import kept_records  # noqa: E402
from tichusim.kernels.tichu.view import PRIVATE, PUBLIC  # noqa: E402
from tichusim.search.agent import Search  # noqa: E402
from tichusim.stats import Paired  # noqa: E402
from tichusim.strategies.learned import SHIPPED  # noqa: E402
from tichusim.strategies.learned import load as load_weights  # noqa: E402

OUT = ROOT / "results" / "learned"
PAGE = OUT / "README.md"
PARTS = ("speed", "duplicate", "rollout", "selfplay", "curve", "profile")


def speed(rec: Recorder, learned: str, rounds: int, repeats: int = 5) -> None:
    """Best of ``repeats`` alternating timings of ``rounds`` rounds each, per CPU-second."""
    best = {learned: 0.0, "expert": 0.0}
    for name in best:  # compile (or load) before any clock runs
        tichusim.simulate(64, seed=1, strategies=name)
    for repeat in range(repeats):
        for name in best:
            t0 = time.process_time()
            tichusim.simulate(rounds, seed=100 + repeat, strategies=name)
            best[name] = max(best[name], rounds / (time.process_time() - t0))
    rec.print(f"four seats of one strategy, {rounds:,} rounds, best of {repeats}, one thread:")
    for name, rate in best.items():
        rec.print(f"  {name:<24} {rate:>10,.0f} rounds per CPU-second")
    rec.print(
        f"  {learned} / expert: {best[learned] / best['expert']:.3f} "
        f"(target: {learned} >= 15,000 rounds per CPU-second)"
    )


def strength(rec: Recorder, learned: str, deals: int, seed: int, workers: int, write: bool) -> None:
    t0 = time.perf_counter()
    result = duplicate(learned, "expert", deals, seed=seed, workers=workers)
    wall = time.perf_counter() - t0
    command = f"python benchmarks/bench_learned.py --only duplicate --deals {deals} --seed {seed}"
    rec.print(f"{result} ({wall:.0f} s, {workers} worker process(es)); target +55")
    lines = [
        f"{result.deals:,} duplicate deals, seed {seed}; regenerate: `{command}`.",
        "",
        *match_tables(result),
    ]
    if write:
        (OUT / "duplicate.md").write_text(markdown_report(result, command))
        title = "learned (benchmarks/bench_learned.py)"
        text = f"## {title}\n\n" + "\n".join(lines) + "\n"
        replace_section(ROOT / "results" / "ladder.md", title, text)


def rollout(rec: Recorder, learned: str, deals: int, seed: int, workers: int) -> None:
    """``search`` with ``learned`` rollouts against its defaults, each against ``expert`` on
    the same deals: the change of the margin is paired deal by deal."""
    rec.print(f"search against expert, {deals:,} duplicate deals (seed {seed}):")
    results = {}
    for label, player in (
        ("search (expert rollouts)", Search()),
        (f"search:rollout={learned}", Search(rollout=learned)),
    ):
        t0 = time.perf_counter()
        result = duplicate(player, "expert", deals, seed=seed, workers=workers)
        wall = time.perf_counter() - t0
        results[label] = result
        # two tables per deal, one searching team of two seats each
        rec.print(
            f"  {label:<32} {result.diff.pts():>26} pts/round, {wall:.0f} s, "
            f"{deals * 2 / wall:.2f} rounds/s"
        )
    base, new = results.values()
    change = Paired.on_shared_deals(new.margins, base.margins).difference(0, 1)
    rec.print(f"  change, learned rollouts minus expert rollouts: {change.pts()} pts/round")


def selfplay(rec: Recorder, learned: str, rounds: int, seed: int, write: bool) -> None:
    t0 = time.perf_counter()
    r, s = tichusim.simulate(rounds, seed=seed, strategies=learned)
    wall = time.perf_counter() - t0
    rows = selfplay_rows(r, s)
    lines = [
        f"Every seat `{learned}`, {rounds:,} rounds, seed {seed}, in {wall:.0f} s; "
        f"regenerate: `python benchmarks/bench_learned.py --only selfplay --rounds {rounds} "
        f"--seed {seed}`. Brackets are 95% intervals.",
        "",
        f"| figure | `{learned}` |",
        "|---|---|",
        *(f"| {name} | {value} |" for name, value in rows),
    ]
    if write:
        title = "learned (benchmarks/bench_learned.py)"
        text = f"## {title}\n\n" + "\n".join(lines) + "\n"
        replace_section(ROOT / "results" / "selfplay.md", title, text)
    for line in lines[4:]:
        rec.print(line)


def _asked(rounds: int, learned: str):
    """The play and bomb decisions with two answers or more of ``rounds`` rounds of four
    ``learned`` seats, in the order they come: records and answers as the kernel takes them."""
    player = strategy(learned)
    pubs, privs, codes, masks, combos, start, with_none = [], [], [], [], [], [0], []

    class Recorder_(Agent):
        base = learned

        def play(self, view, legal):
            if len(legal) > 1:
                plays = [p for p in legal if p is not None]
                pubs.append(view.public[0])
                privs.append(view.private[0])
                codes.append(CODES[view.decision])
                masks.extend(int(p) for p in plays)
                combos.extend(p.combo.code for p in plays)
                start.append(len(masks))
                with_none.append(int(legal[-1] is None))
            return player.decide(view, legal)

        bomb = play

    for key in range(rounds):
        Round(seed=7, key=key, strategies=Recorder_()).advance()
    return (
        np.array(pubs, PUBLIC),
        np.array(privs, PRIVATE),
        np.array(codes, np.int64),
        np.array(masks, np.uint64),
        np.array(combos, np.int64),
        np.array(start, np.int64),
        np.array(with_none, np.int64),
    )


@njit(cache=False)
def _time_parts(whole, model, learn, pubs, privs, codes, masks, combos, start, with_none):
    """Every decision in order through one scratch: the state part alone, or the choice."""
    total = 0
    for i in range(codes.size):
        lo, hi = start[i], start[i + 1]
        if whole:
            n = hi - lo
            total += kernel.choose(
                model,
                learn,
                pubs[i],
                privs[i],
                codes[i],
                masks[lo:hi],
                combos[lo:hi],
                n,
                with_none[i],
            )
        else:
            kernel.state_term(model, learn, pubs[i], privs[i], codes[i])
    return total


def table_models_for(identity: str) -> np.ndarray:
    """The one model row of the weights ``identity`` (registered), as the kernels take it."""
    return table_models._models((kernel.identity_number(identity),))[0]


def profile(rec: Recorder, learned: str, rounds: int, repeats: int = 5) -> None:
    """Microseconds per decision of the network's parts, best of ``repeats`` (CPU time)."""
    asked = _asked(rounds, learned)
    n, answers = asked[2].size, asked[3].size + int(asked[6].sum())
    weights = load_weights(SHIPPED)
    model = table_models_for(weights.identity)
    learn = kept_records()[0]["learn"][0]
    best = {}
    for whole in (False, True):
        _time_parts(whole, model, learn, *asked)  # compile, and the seats' sums kept
        best[whole] = float("inf")
        for _ in range(repeats):
            t0 = time.process_time()
            _time_parts(whole, model, learn, *asked)
            best[whole] = min(best[whole], time.process_time() - t0)
    state, choose = (best[w] / n * 1e6 for w in (False, True))
    rec.print(
        f"the shipped network, {n:,} decisions of {rounds} rounds ({n / rounds:.1f} a round), "
        f"{answers / n:.1f} answers each, best of {repeats}, one thread:"
    )
    per_answer = (choose - state) / (answers / n)
    rec.print(f"  state part (bits, kept sum updated)      {state:7.3f} us per decision")
    rec.print(f"  the whole choice                         {choose:7.3f} us per decision")
    rec.print(f"  the answers' layers                      {per_answer:7.3f} us per answer")


def _described(path: Path) -> tuple[str, str]:
    """A weights file's hidden sizes and what it was trained on (its ``meta``): the decisions
    it saw (training decisions times epochs, or the steps of 256 decisions)."""
    with np.load(path, allow_pickle=False) as weights:
        meta = json.loads(str(weights["meta"])) if "meta" in weights else {}
        hidden = f"{weights['w1'].shape[1]}/{weights['w2'].shape[1]}"
    data = meta.get("data", {})
    train = meta.get("config", {}).get("train", {})
    if data and train:
        seen = f"{data['train_decisions']:,} x {train['epochs']} epochs"
    elif "step" in meta:
        seen = f"{meta['step'] * 256:,} decision passes"
    else:
        seen = str(meta.get("decisions", "?"))
    return hidden, seen


def curve(rec: Recorder, files: list[Path], deals: int, seed: int, workers: int) -> None:
    """Each weights file against ``expert`` on the same deals (the same seed)."""
    rec.print(f"weights against expert, {deals:,} duplicate deals (seed {seed}):")
    rec.print(f"  {'weights':<28} {'hidden':>7} {'trained on':>34} {'learned - expert':>24}")
    for path in files:
        hidden, seen = _described(path)
        result = duplicate(f"learned[weights={path}]", "expert", deals, seed=seed, workers=workers)
        name = f"{path.parent.name}/{path.name}"
        rec.print(f"  {name:<28} {hidden:>7} {seen:>34} {result.diff.pts():>24}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="+", choices=PARTS, default=["speed", "duplicate"])
    ap.add_argument("--learned", default="learned", help="the strategy measured")
    ap.add_argument("--rounds", type=int, default=20_000, help="rounds of speed and selfplay")
    ap.add_argument("--deals", type=int, default=10_000, help="duplicate deals")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--profile-rounds", type=int, default=60, help="rounds of profile")
    ap.add_argument("--weights", type=Path, nargs="*", default=[], help="curve: weights files")
    ap.add_argument("--no-results", action="store_true", help="print only; write no page")
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for part in args.only:
        rec = Recorder(f"bench_learned.py {part}", results=None if args.no_results else PAGE)
        print(f"-- {part}")
        if part == "speed":
            speed(rec, args.learned, args.rounds)
        elif part == "duplicate":
            strength(rec, args.learned, args.deals, args.seed, args.workers, not args.no_results)
        elif part == "rollout":
            rollout(rec, args.learned, args.deals, args.seed, args.workers)
        elif part == "profile":
            profile(rec, args.learned, args.profile_rounds)
        elif part == "selfplay":
            selfplay(rec, args.learned, args.rounds, args.seed, not args.no_results)
        else:
            curve(rec, args.weights, args.deals, args.seed, args.workers)
        rec.save()


if __name__ == "__main__":
    main()
