"""Compile and cache every kernel once (``tichusim warmup``), so later starts load them.

A cold compile costs seconds per kernel, paid by the first command that needs it. Each family
below reaches its jitted entry points with the argument types the library uses (a kernel
compiled for other types would compile again). The engines take the table, the strategies
and ``check`` as run-time values, so one small call covers every variant of a family.
``tests/test_warmup.py`` checks that nothing is left to compile afterwards.

Families compile in stages, the families of a stage in parallel processes (``jobs``): the
rules core first (every other family's modules compile it as they load, so it must be in the
cache before they start); then the 4-player engine beside Grand Seigneur's (they share
nothing; Grand Seigneur's process compiles its stepping engine too, which would otherwise
lengthen the next stage); then the other two team tables and the 4-player stepping engine,
which reuse what the first one cached (the strategies' kernels: half their cold compile), then
the analyses that call them.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import time

__all__ = ["COMPILE", "DEFAULT_JOBS", "STAGES", "estimate", "warmup"]

# engines in parallel processes, one per core (each compile is single-threaded; the cost is
# each process's memory)
DEFAULT_JOBS = min(2, os.cpu_count() or 1)  # two families per stage: more would idle


def _cards() -> None:
    from .cards.combos import legal_plays

    legal_plays("Ma 2j 3s 4p 5t Ph Dr Dog 7j 7s 7p 7t")  # kernels.moves, combos


def _games(names) -> None:
    from .games import game, game_type

    for name in names:  # every game's batch kernels (rounds, games) and its logged round
        table = game(name, 6 if game_type(name).takes_players else None,
                     {"game_rounds": 2} if game_type(name).chained_rounds else None)
        table.records(4, strategies="heuristic", check=True)
        table.records(2, games=True, strategies="lowest", target=100)
        table.transcript(0, 1)


def _nanjing() -> None:
    _games(("nanjing",))


def _tientsin() -> None:
    _games(("tientsin",))


def _wuwang() -> None:
    _games(("wuwang",))


def _seigneur() -> None:
    from .cards import seigneur as seigneur_rules

    seigneur_rules.legal_plays("5j 5j 6s 6s 7p Ph Dr Dr")  # kernels.seigneur.moves, combos
    seigneur_rules.classify("5j 5j 5s")
    _games(("grand-seigneur",))
    # its stepping engine and decide too (the stepping family's), while Nanjing still compiles
    # in the other process: the last stage is shorter by as much
    _step_a_round("grand-seigneur", 5)


def _analysis() -> None:
    from .analysis.duplicate import duplicate
    from .analysis.gtodds import gt_odds
    from .analysis.handclass import features

    duplicate("lowest", "random", 2)  # kernels.moves.has_bomb_each
    gt_odds("Dr Ph A A K 9 5 3", deals=2)  # the 4-player engine's fixed deals
    features([0x4000400040004000])  # kernels.tichu.handfeatures (strength scores)


def _step_a_round(variant: str, players: int | None) -> None:
    from .games.scripted import strategy
    from .games.steps import Round

    r = Round(seed=0, key=0, variant=variant, players=players)  # every seat from Python
    r.advance()
    r.act(strategy("heuristic").decide(r.view(), r.legal()))


def _stepping() -> None:
    _step_a_round("nanjing", None)  # Grand Seigneur's stepping engine: with its family above


# how to compile each kernel family of ``games.registry.FAMILIES`` (which names and times
# them); STAGES: what must be cached before what
COMPILE = {"cards": _cards, "nanjing": _nanjing, "tientsin": _tientsin, "wuwang": _wuwang,
           "seigneur": _seigneur, "analysis": _analysis, "stepping": _stepping}  # fmt: skip
STAGES = (("cards",), ("nanjing", "seigneur"), ("tientsin", "wuwang", "stepping"), ("analysis",))


def compile_family(name: str) -> float:
    """Compile (or load) one family; its seconds. Runs in a worker process with ``jobs``."""
    t0 = time.perf_counter()
    COMPILE[name]()
    return time.perf_counter() - t0


def estimate(jobs: int = DEFAULT_JOBS) -> int:
    """About how many seconds a cold ``warmup(jobs)`` takes (``FAMILIES``' figures)."""
    from .games.registry import FAMILIES

    total = 0
    done = set()
    for stage in STAGES:
        times = [FAMILIES[name].seconds_after if FAMILIES[name].reuses in done
                 else FAMILIES[name].seconds for name in stage]  # fmt: skip
        loads = [0] * max(1, jobs)  # each to the process free first, longest first (as below)
        for seconds in sorted(times, reverse=True):
            loads[loads.index(min(loads))] += seconds
        total += max(loads)
        done.update(stage)
    return total


def warmup(jobs: int = DEFAULT_JOBS, report=None) -> float:
    """Compile (or load) every kernel, families of a stage in up to ``jobs`` processes at
    once; ``report(name, what, seconds)`` hears of each family as it ends. The seconds of all."""
    from .games.registry import FAMILIES

    report = report or (lambda name, what, seconds: None)
    t0 = time.perf_counter()
    pool = None
    try:
        for stage in STAGES:
            if jobs < 2 or len(stage) < 2:
                for name in stage:
                    report(name, FAMILIES[name].title, compile_family(name))
                continue
            if pool is None:  # spawn: a fresh interpreter, no numba threads inherited
                ctx = multiprocessing.get_context("spawn")
                pool = cf.ProcessPoolExecutor(min(jobs, len(stage)), mp_context=ctx,
                                              max_tasks_per_child=1)  # fmt: skip
            longest_first = sorted(stage, key=lambda name: -FAMILIES[name].seconds)
            futures = {pool.submit(compile_family, name): name for name in longest_first}
            for future in cf.as_completed(futures):
                name = futures[future]
                report(name, FAMILIES[name].title, future.result())
    finally:
        if pool is not None:
            pool.shutdown()
    return time.perf_counter() - t0
