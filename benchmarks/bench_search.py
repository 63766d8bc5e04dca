"""The search strategy's speed and strength, against the targets it is held to:

* ``rollouts``: rollouts per CPU-second from mid-round states, ``expert`` at every seat
  (``evaluate_plays`` with 64 deals and up to 10 candidates at play decisions of ``expert``
  self-play; Python's part of each call included). Target: 150,000.
* ``decisions``: a searched decision's time at the default settings (median target 5 ms, p99
  50 ms), over the decisions with more than one legal answer and over all of them, and rounds
  per second with one searching team (target 10).
* ``stepping``: rounds per second with all four seats stepped from Python (``Round``), every
  decision answered by ``strategy("expert").decide``.
* ``duplicate``: ``search`` against ``expert``, duplicate deals (target: +10 points per round,
  95% interval above zero); ``--curve`` adds the strength at other numbers of deals per
  decision and with the candidate cap lifted (pruning).
* ``ingredients``: the same match with the pairing, then the inference, switched off, then
  without the Grand Tichu call searched, then with the Tichu calls searched too; each row
  with its change against the defaults, deal by deal.
* ``selfplay``: ``search`` at every seat, the statistics ``results/selfplay.md`` shows for the
  scripted strategies.
* ``stakes``: what the decisions ``search`` leaves to ``expert`` (the wish, the Dragon, the
  passing) are worth against plainer policies, and the noise a passing search would face.

Each part replaces its section of ``results/search/README.md`` (``--no-results``: print only);
``duplicate`` writes its match reports to ``results/search/`` and its row to
``results/ladder.md``, ``selfplay`` its column to ``results/selfplay.md`` (sections that
``scripts/ladder.py`` keeps). One thread per process (NUMBA_NUM_THREADS=1); ``duplicate``
spreads its deals over ``--workers`` processes (the same figures for any number).

    python benchmarks/bench_search.py --only rollouts decisions stepping
    python benchmarks/bench_search.py --only duplicate --deals 4000 --workers 2 --curve
    python benchmarks/bench_search.py --only ingredients --deals 1000 --workers 2
    python benchmarks/bench_search.py --only selfplay --rounds 1000
    python benchmarks/bench_search.py --only stakes --deals 20000
"""

import os

os.environ["NUMBA_NUM_THREADS"] = "1"

import argparse  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from results_page import ROOT, Recorder, replace_section  # noqa: E402

import tichusim  # noqa: E402
from tichusim.analysis.duplicate import duplicate, markdown_report  # noqa: E402
from tichusim.search.agent import Search  # noqa: E402
from tichusim.search.evaluate import evaluate_plays  # noqa: E402
from tichusim.search.prune import prune  # noqa: E402
from tichusim.stats import Paired  # noqa: E402

PAGE = ROOT / "results" / "search" / "README.md"
PARTS = ("rollouts", "decisions", "stepping", "duplicate", "ingredients", "selfplay", "stakes")


class Collector(tichusim.Agent):
    """``expert`` everywhere; keeps its play views that have more than one legal answer."""

    base = "expert"

    def __init__(self, **params):
        super().__init__(**params)
        self.states = []

    def play(self, view, legal):
        choice = tichusim.strategy("expert").decide(view, legal)
        if len(legal) > 1:
            self.states.append((view, legal, choice))
        return choice


def rollouts(rec: Recorder, rounds: int, seed: int) -> None:
    collectors = [Collector() for _ in range(4)]
    for key in range(rounds):
        tichusim.Round(seed=seed, key=key, strategies=collectors).advance()
    states = [s for c in collectors for s in c.states]
    view, legal, choice = states[0]
    evaluate_plays(view, prune(legal, 10, choice), 2, 0)  # compiles, if cold
    samples, count = 64, 0
    t0 = time.process_time()
    for i, (view, legal, choice) in enumerate(states):
        candidates = prune(legal, 10, choice)
        result = evaluate_plays(view, candidates, samples, seed=i)
        count += result.margin.size
    seconds = time.process_time() - t0
    rec.print(
        f"{len(states):,} mid-round states (play decisions of expert self-play, {rounds} rounds), "
        f"{samples} deals x up to 10 candidates each"
    )
    rec.print(
        f"rollouts, expert: {count:,} in {seconds:.2f} CPU-s = {count / seconds:,.0f} per "
        "CPU-second (target 150,000)"
    )
    for rollout in ("heuristic", "lowest"):  # what the rollout strategy's own speed allows
        evaluate_plays(view, prune(legal, 10, choice), 2, 0, rollout)
        count = 0
        t0 = time.process_time()
        for i, (view, legal, choice) in enumerate(states):
            result = evaluate_plays(view, prune(legal, 10, choice), samples, i, rollout)
            count += result.margin.size
        seconds = time.process_time() - t0
        rec.print(f"rollouts, {rollout}: {count / seconds:,.0f} per CPU-second")


def decisions(rec: Recorder, rounds: int, seed: int) -> None:
    search = Search()
    times: list[tuple[float, bool]] = []
    kinds: dict[str, list[float]] = {}
    inner = search._search

    def timed(view, legal):
        t0 = time.perf_counter()
        out = inner(view, legal)
        seconds = time.perf_counter() - t0
        times.append((seconds, len(legal) > 1))
        if len(legal) > 1:
            kinds.setdefault(view.decision, []).append(seconds)
        return out

    search._search = timed  # type: ignore[method-assign]
    tichusim.simulate(2, seed=seed + 1, strategies=[search, "expert"] * 2)  # compiles
    times.clear()
    kinds.clear()
    t0 = time.perf_counter()
    tichusim.simulate(rounds, seed=seed, strategies=[search, "expert"] * 2)
    wall = time.perf_counter() - t0
    real = [t for t, many in times if many]
    every = [t for t, _ in times]

    def p(xs, q):
        return float(np.quantile(xs, q)) * 1e3

    rec.print(
        f"search (defaults: {search.samples} deals, {search.cap} candidates, rollout "
        f"{search.rollout}) at seats 0 and 2, expert at 1 and 3, {rounds} rounds"
    )
    rec.print(
        f"decisions with more than one answer: {len(real):,}, median {p(real, 0.5):.2f} ms, "
        f"p99 {p(real, 0.99):.2f} ms (targets 5 ms, 50 ms)"
    )
    rec.print(
        f"every searched decision: {len(every):,}, median {p(every, 0.5):.2f} ms, p99 "
        f"{p(every, 0.99):.2f} ms"
    )
    for kind, xs in sorted(kinds.items()):
        rec.print(f"  {kind}: {len(xs):,}, median {p(xs, 0.5):.2f} ms, p99 {p(xs, 0.99):.2f} ms")
    rec.print(f"rounds per second with one searching team: {rounds / wall:.1f} (target 10)")


def stepping(rec: Recorder, rounds: int, seed: int) -> None:
    for name in ("heuristic", "expert"):
        strategy = tichusim.strategy(name)

        def go(n, strategy=strategy):
            decided = 0
            for key in range(n):
                r = tichusim.Round(seed=seed, key=key, strategies=[None] * 4)
                while True:
                    r.advance()
                    if r.done:
                        break
                    r.act(strategy.decide(r.view(), r.legal()))
                decided += r.decisions
            return decided

        go(2)
        t0 = time.perf_counter()
        decided = go(rounds)
        wall = time.perf_counter() - t0
        rec.print(
            f"4 seats stepped from Python, strategy({name!r}).decide: {rounds / wall:,.0f} "
            f"rounds/s, {decided / rounds:.1f} decisions per round, "
            f"{wall / decided * 1e6:.0f} us per decision"
        )


def _match(
    rec: Recorder, label: str, search: Search, deals: int, seed: int, workers: int, against=None
):
    """One duplicate match of ``search`` against ``expert``, printed as a row; with
    ``against`` (an earlier match on the same deals) the row adds the change of the margin,
    deal by deal: a paired interval for what the settings changed."""
    t0 = time.perf_counter()
    result = duplicate(search, "expert", deals, seed=seed, workers=workers)
    wall = time.perf_counter() - t0
    rows = result.per_strategy.set_index("strategy")
    mine = rows.loc[search.name]
    change = ""
    if against is not None and result.margins is not None and against.margins is not None:
        # deal k is the same in every match of one seed: a shorter match pairs with the
        # first deals of a longer one
        change = Paired.on_shared_deals(result.margins, against.margins).difference(0, 1).pts()
    rec.print(
        f"{label:<34} {result.diff.pts():>24} {mine.tichu_success.pct():>22} "
        f"{rows.loc['expert'].tichu_success.pct():>22} {wall:>7.0f} {change:>24}"
    )
    return result


def ingredients(rec: Recorder, deals: int, seed: int, workers: int) -> None:
    """What the pairing, the inference and the searched calls add, each changed alone, on
    the same deals."""
    rec.print(f"search vs expert, duplicate deals (seed {seed}), {workers} worker process(es)")
    _heading(rec)
    defaults = _match(rec, f"defaults, {deals:,} deals", Search(), deals, seed, workers)
    for label, kw in (
        ("paired=false (unpaired rollouts)", {"paired": False}),
        ("inference=false (no lacks, no calls)", {"inference": False}),
        ("searches=play+bomb (no call searched)", {"searches": "play+bomb"}),
        ("searches=play+bomb+grand_tichu+tichu", {"searches": "play+bomb+grand_tichu+tichu"}),
    ):
        _match(rec, f"{label}, {deals:,} deals", Search(**kw), deals, seed, workers, defaults)


# the decisions search leaves to expert, each against a plainer policy for it: what the
# decision is worth at most to a better answer
STAKES = (
    ("wish", "expert:wish=none,name=expert-no-wish"),
    ("wish", "expert:wish=random,name=expert-random-wish"),
    ("dragon", "expert:dragon=right,name=expert-dragon-right"),
    ("pass", "expert:pass=keep-combos,name=expert-keep-combos"),
)
STAKES_HAND = "Dog Ma 2j 3s 5p 7t 8j 9s Jp Qt Kj Ks Ph Dr"  # docs/analyses.md's example


def stakes(rec: Recorder, deals: int, seed: int, samples: int = 48) -> None:
    """What the decisions ``search`` does not search are worth, and why the passing is not
    searched in play: ``expert`` against itself with one policy replaced (duplicate deals),
    then ``pass-advice`` on one hand, whose paired interval at its deals gives the standard
    error a comparison of two passes would have on a search's ``samples`` deals."""
    from tichusim.analysis.passadvice import pass_advice
    from tichusim.games.strategy_text import parse_strategy

    rec.print(f"expert vs expert with one policy replaced, {deals:,} duplicate deals (seed {seed})")
    for decision, other in STAKES:
        result = duplicate("expert", parse_strategy(other), deals, seed=seed)
        rec.print(f"  {decision:<7} expert - {result.b:<22} {result.diff.pts():>24}")
    advice = pass_advice(STAKES_HAND, deals=4000, seed=seed)
    finals = [c.diff for c in advice.candidates if c.deals == advice.deals and c.diff]
    se = np.mean([(d.high - d.low) / (2 * 1.96) for d in finals])
    sd = se * np.sqrt(advice.deals)
    pick = next(c for c in advice.candidates if "expert" in c.sources)
    rec.print(
        f"pass-advice {STAKES_HAND!r}: {advice.rounds:,} rounds in {advice.seconds:.1f} s; "
        f"expert's pass ({pick.cards}) vs the best ({advice.best.cards}): "
        f"{pick.diff.pts() if pick.diff else 'best'} over {pick.deals:,} deals"
    )
    rec.print(
        f"  a pass's paired difference: SD {sd:.0f} points per deal, so a standard error of "
        f"{sd / np.sqrt(samples):.0f} on {samples} deals and {sd / np.sqrt(advice.deals):.1f} "
        f"on {advice.deals:,}"
    )


def _heading(rec: Recorder) -> None:
    rec.print(
        f"{'search settings':<34} {'search - expert, pts/round':>24} "
        f"{'Tichu success (search)':>22} {'Tichu success (expert)':>22} {'seconds':>7} "
        f"{'change vs defaults':>24}"
    )


def strength(rec: Recorder, deals: int, seed: int, workers: int, curve: bool) -> None:
    rec.print(f"search vs expert, duplicate deals (seed {seed}), {workers} worker process(es)")
    _heading(rec)
    main = _match(rec, f"defaults, {deals:,} deals", Search(), deals, seed, workers)
    out = PAGE.parent / "duplicate.md"
    command = f"python benchmarks/bench_search.py --only duplicate --deals {deals} --seed {seed}"
    out.write_text(markdown_report(main, command))
    ladder_row(main, command)
    if curve:
        few = max(200, deals // 4)
        for samples in (16, 64, 256, 1024):
            n = few if samples <= 64 else max(100, few // (4 if samples <= 256 else 8))
            label = f"samples={samples}, {n:,} deals"
            _match(rec, label, Search(samples=samples), n, seed, workers, main)
        label = f"candidates=40 (no pruning), {few:,} deals"
        _match(rec, label, Search(candidates=40), few, seed, workers, main)


def match_tables(result) -> list[str]:
    """A duplicate match's two ladder tables (the difference, then each side's calls), as
    ``results/ladder.md`` shows every match."""
    rows = result.per_strategy.set_index("strategy")
    a, b = rows.index[0], rows.index[1]
    lines = [
        "| A | B | A - B points/round | A points/round | B points/round |",
        "|---|---|---|---|---|",
        f"| {a} | {b} | {result.diff.pts()} | {rows.loc[a].points_per_round.pts()} | "
        f"{rows.loc[b].points_per_round.pts()} |",
        "",
        "| strategy (in match) | Tichu calls | Tichu success | Grand Tichu calls | "
        "Grand Tichu success | double victories |",
        "|---|---|---|---|---|---|",
    ]
    for name, other in ((a, b), (b, a)):
        r = rows.loc[name]
        lines.append(
            f"| {name} (vs {other}) | {r.tichu_rate.pct()} | {r.tichu_success.pct()} | "
            f"{r.grand_tichu_rate.pct()} | {r.grand_tichu_success.pct()} | "
            f"{r.double_victories.pct()} |"
        )
    return lines


def ladder_row(result, command: str) -> None:
    lines = [
        f"{result.deals:,} duplicate deals, seed 0; regenerate: `{command}` (slower than the "
        "scripted strategies' matches above, hence fewer deals).",
        "",
        *match_tables(result),
    ]
    _page_section(ROOT / "results" / "ladder.md", "search (benchmarks/bench_search.py)", lines)


def _page_section(page: Path, title: str, lines: list[str]) -> None:
    """A section of a results page in prose and tables (not a text block)."""
    replace_section(page, title, f"## {title}\n\n" + "\n".join(lines) + "\n")


def selfplay_rows(r, s) -> list[tuple[str, str]]:
    """The figures ``results/selfplay.md`` shows for a strategy at every seat, from a run's
    rounds and seats tables."""
    from tichusim.stats import mean_ci, wilson

    rounds = len(r)
    calls = s["tichu"].to_numpy()
    grand = s["grand_tichu"].to_numpy()
    first = s["finish"].to_numpy() == 1
    return [
        ("rounds played", f"{rounds:,}"),
        ("grand tichu calls per player and round", wilson(int(grand.sum()), len(grand)).pct()),
        (
            "grand tichu success (caller out first)",
            wilson(int((grand & first).sum()), int(grand.sum())).pct(),
        ),
        ("tichu calls per player and round", wilson(int(calls.sum()), len(calls)).pct()),
        (
            "tichu success (caller out first)",
            wilson(int((calls & first).sum()), int(calls.sum())).pct(),
        ),
        ("tricks per round", str(mean_ci(r["tricks"].to_numpy()).num())),
        ("double victories per round", wilson(int(r["double_victory"].sum()), rounds).pct()),
        ("bombs per round", str(mean_ci(r["bombs"].to_numpy()).num())),
    ]


def selfplay(rec: Recorder, rounds: int, seed: int) -> None:
    t0 = time.perf_counter()
    r, s = tichusim.simulate(rounds, seed=seed, strategies=Search())
    wall = time.perf_counter() - t0
    rows = selfplay_rows(r, s)
    lines = [
        f"Every seat `search` (its defaults), {rounds:,} rounds, seed {seed}, in "
        f"{wall:.0f} s; regenerate: `python benchmarks/bench_search.py --only selfplay "
        f"--rounds {rounds} --seed {seed}`. Brackets are 95% intervals; the scripted "
        "strategies' columns above were measured on 400,000 rounds.",
        "",
        "| figure | `search` |",
        "|---|---|",
        *(f"| {name} | {value} |" for name, value in rows),
    ]
    _page_section(ROOT / "results" / "selfplay.md", "search (benchmarks/bench_search.py)", lines)
    for line in lines[3:]:
        rec.print(line)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="+", choices=PARTS, default=list(PARTS[:3]))
    ap.add_argument("--rounds", type=int, default=60, help="rounds of each speed part")
    ap.add_argument("--deals", type=int, default=4000, help="duplicate deals (defaults)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--curve", action="store_true", help="duplicate: other settings too")
    ap.add_argument("--no-results", action="store_true", help="print only; write no page")
    args = ap.parse_args()
    results = None if args.no_results else PAGE
    PAGE.parent.mkdir(parents=True, exist_ok=True)
    for part in args.only:
        rec = Recorder(f"bench_search.py {part}", results=results)
        print(f"-- {part}")
        if part == "rollouts":
            rollouts(rec, args.rounds, args.seed)
        elif part == "decisions":
            decisions(rec, args.rounds, args.seed)
        elif part == "stepping":
            stepping(rec, args.rounds * 5, args.seed)
        elif part == "duplicate":
            strength(rec, args.deals, args.seed, args.workers, args.curve)
        elif part == "ingredients":
            ingredients(rec, args.deals, args.seed, args.workers)
        elif part == "stakes":
            stakes(rec, args.deals, args.seed)
        else:
            selfplay(rec, args.rounds, args.seed)
        rec.save()


if __name__ == "__main__":
    main()
