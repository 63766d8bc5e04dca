"""Compile and cache every kernel once (``tichusim warmup``), so later starts load them.

A cold compile costs seconds per kernel, paid by the first command that needs it. Each family
below reaches its jitted entry points with the argument types the library uses (a kernel
compiled for other types would compile again). The engines take the table, the strategies
and ``check`` as run-time values, so one small call covers every variant of a family.
``tests/compile/test_warmup.py`` checks that nothing is left to compile afterwards.

Families compile in up to ``jobs`` spawned processes at once, each family as soon as what it
reuses is in the cache (``NEEDS``), the ready ones in the order of ``ORDER``: the rules core
first (every other family's modules compile it as they load); then the 4-player engine and
Grand Seigneur's (they share nothing; Grand Seigneur's process compiles its stepping engine
too); the other two team games and the 4-player stepping engine reuse the strategies'
kernels the 4-player family caches, about two thirds into its compile, and start as soon as
those are in the cache and a process is free, not when every family of a stage has ended;
the analyses after the 4-player engine. Fixed stages (a stage waiting for its slowest
family, the analyses alone at the end) took measurably longer on two cores
(``benchmarks/bench_startup.py --only cold`` compares two trees side by side).
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import time
from concurrent import futures
from pathlib import Path

from ._compile import frame_stack

__all__ = ["COMPILE", "DEFAULT_JOBS", "NEEDS", "ORDER", "TITLES", "warmup"]

# engines in parallel processes, one per core (each compile is single-threaded; the cost is
# each process's memory); more than two would mostly wait for what they reuse
DEFAULT_JOBS = min(2, os.cpu_count() or 1)


def _cards() -> None:
    from .cards.combos import legal_plays

    legal_plays("Ma 2j 3s 4p 5t Ph Dr Dog 7j 7s 7p 7t")  # kernels.moves, combos


def _games(names) -> None:
    from .games import game, game_type
    from .games.arrow import tables

    for name in names:  # every game's batch kernels (rounds, games) and its logged round,
        played = game(  # and the kernels making its tables of the records
            name,
            6 if game_type(name).takes_players else None,
            {"game_rounds": 2} if game_type(name).chained_rounds else None,
        )
        tables(played.records(4, strategies="heuristic", check=True))
        played.records(2, games=True, strategies="lowest", target=100)
        played.transcript(0, 1)


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

    duplicate("lowest", "random", 2)  # compare's matches
    gt_odds("Dr Ph A A K 9 5 3", deals=2)  # the 4-player engine's fixed deals
    features([0x4000400040004000])  # kernels.tichu.handfeatures (strength scores)


def _search() -> None:
    from .analysis.advise import Position, advise

    last_card = {
        "hand": "Aj",
        "played": {"0": "Ma 2j 3j 4j 5j 6j 7j 8j 9j Tj Jj Qj Kj", "1": "9s"},
        "trick": "1: 9p; 2: pass; 3: Ks",
        "taken": {"0": 25},
    }
    advise(Position.parse(last_card), 2)


def _step_a_round(variant: str, players: int | None, strategies=None) -> None:
    from .games.scripted import strategy
    from .games.steps import Round

    # every seat from Python, or those None among ``strategies``
    r = Round(seed=0, key=0, strategies=strategies, variant=variant, players=players)
    r.advance()
    r.act(strategy("heuristic").decide(r.view(), r.legal()))


def _stepping() -> None:
    # every team table's (the Play tab seats a person at Nanjing and Tientsin); Grand
    # Seigneur's stepping engine: with its family above
    for name in ("nanjing", "tientsin", "wuwang"):
        _step_a_round(name, None)


def _learned() -> None:
    from .games import game, game_type
    from .games.scripted import strategy
    from .games.steps import Round

    # the team engines' second signature, with a table's learned models (a table without a
    # learned seat compiles none of the network: the families above)
    for name in ("nanjing", "tientsin", "wuwang"):
        played = game(name, 6 if game_type(name).takes_players else None)
        played.records(2, strategies="learned", check=True)
    for name in ("nanjing", "tientsin", "wuwang"):  # learned bots beside a person (Play)
        players = game(name).players
        _step_a_round(name, None, strategies=[None] + ["learned"] * (players - 1))
    r = Round(seed=0, key=0, variant="nanjing")  # and a learned strategy's decide
    r.advance()
    learned = strategy("learned")
    while not r.done and r.view().decision != "play":
        r.act(learned.decide(r.view(), r.legal()))
        r.advance()
    if not r.done:
        learned.decide(r.view(), r.legal())


def _review() -> None:
    from .logs import played_game
    from .review.review import review_round, settings_of
    from .review.settings import Effort

    # a review's kernels: the stepping engine with a learned table (the par) and the network's
    # scores of a decision's choices, with the fewest deals. The 4-player game's only, where
    # the played games come from (Brettspielwelt's logs, the Play tab's default table): the
    # other tables' rollouts and stepping engines would add three minutes to a cold warmup
    least = Effort("warmup", candidates=2, screen=2, measure=2, agree=None, par=1)
    record = played_game(0, 0, strategies="lowest").rounds[0]
    review_round(record, settings_of(least), seats=[0])


# how to compile each kernel family and what it is; NEEDS: the families whose kernels must be
# cached before one starts (one that reuses the 4-player family's strategies' kernels may
# start once those are cached, ``SHARED``); ORDER: which ready family starts first when a
# process frees, and the order with one process
COMPILE = {
    "cards": _cards,
    "nanjing": _nanjing,
    "tientsin": _tientsin,
    "wuwang": _wuwang,
    "seigneur": _seigneur,
    "analysis": _analysis,
    "stepping": _stepping,
    "search": _search,
    "learned": _learned,
    "review": _review,
}
TITLES = {
    "cards": "the card-combination kernels (the rules core every game shares)",
    "nanjing": "the 4-player game's engine (Nanjing)",
    "tientsin": "Tientsin's engine (6 players)",
    "wuwang": "Wu Wang's engine (3 players and the Minister)",
    "seigneur": "Grand Seigneur's engine, and its stepping engine",
    "analysis": "the analyses' kernels (gt-odds, compare, gt-table)",
    "stepping": "the engines that take decisions from Python, every team table's, and decide",
    "search": "the search's rollout kernels (search, advise)",
    "learned": "the team engines with a learned seat, and the learned play's decide",
    "review": "a review's kernels, the 4-player game's (tichusim review, the Review tab)",
}
NEEDS = {
    "cards": (),
    "seigneur": ("cards",),
    "nanjing": ("cards",),
    "tientsin": ("nanjing",),
    "wuwang": ("nanjing",),
    "stepping": ("nanjing",),
    "analysis": ("nanjing",),
    "search": ("nanjing",),
    "learned": ("nanjing", "stepping"),  # its Round loads the stepping engine from the cache
    "review": ("nanjing", "stepping"),
}
ORDER = (
    "cards",
    "nanjing",
    "seigneur",
    "tientsin",
    "stepping",
    "wuwang",
    "analysis",
    "search",
    "learned",
    "review",
)
# the families that reuse the 4-player family's strategies' kernels, and those kernels' cache
# entries ("kernels/...py:function", ``_compile.cache.cached``): its engine's own functions
# compile last, so the strategies' are in the cache about two thirds into its compile
REUSE = ("tientsin", "wuwang", "stepping")
SHARED = tuple(
    f"kernels/tichu/policies.py:{policy}"
    for policy in (
        "grand_tichu",
        "passes",
        "tichu",
        "play",
        "wish",
        "dog_target",
        "dragon",
        "bomb",
        "led_phoenix",
        "value_led_phoenix",
        "binding_wish",
    )
)


def compile_family(name: str) -> float:
    """Compile (or load) one family, without the notices of what it calls (``warmup``
    reports the family); its seconds, measured. Runs in a worker process with ``jobs``."""
    from ._compile.notice import compile_notices

    t0 = time.perf_counter()
    with compile_notices(False):
        COMPILE[name]()
    return time.perf_counter() - t0


def _ready(name: str, done: set, started: set, shared_cached) -> bool:
    """Whether family ``name`` may start: what it needs is compiled, or it reuses the 4-player
    family's strategies' kernels, needs only that family, and that one has started and cached
    them (``shared_cached()``)."""
    if all(need in done for need in NEEDS[name]):
        return True
    return (
        name in REUSE and NEEDS[name] == ("nanjing",) and "nanjing" in started and shared_cached()
    )


def _worker(settings: dict) -> None:
    """A compile process's set-up: ``settings`` in its environment before any kernel loads
    (``host``'s folder, the pack off), and the frame-stack change (a process ours alone)."""
    os.environ.update(settings)
    frame_stack.install()


def warmup(jobs: int = DEFAULT_JOBS, report=None, host: bool = False) -> float:
    """Compile (or load) every kernel, up to ``jobs`` families at once in spawned processes,
    each as soon as what it needs is cached (see the module's docstring); ``report(name,
    what, seconds)`` hears of each family as it ends, with the seconds it took. The seconds
    of all.

    ``host``: compile every kernel for this CPU, the kernel pack off, into a new folder that
    then replaces the kernel cache folder (``_compile.cache.cache_dir``): the pack's code is
    built for a level of the architecture (x86-64-v3: AVX2), and on a CPU with more (AVX-512)
    code built for it may be faster (``docs/compile.md``)."""
    from ._compile.cache import cache_dir, cached

    report = report or (lambda name, what, seconds: None)
    t0 = time.perf_counter()
    settings: dict[str, str] = {}
    if host:
        folder = cache_dir()
        building = folder.with_name(f"{folder.name}.host-{os.getpid()}")
        settings = {"TICHUSIM_CACHE_DIR": str(building), "TICHUSIM_KERNEL_PACK": "0"}
        jobs = max(jobs, 1)
    elif jobs < 2:
        for name in ORDER:  # every family's needs come before it
            report(name, TITLES[name], compile_family(name))
        return time.perf_counter() - t0
    ctx = multiprocessing.get_context("spawn")  # a fresh interpreter, no numba threads inherited
    pool = futures.ProcessPoolExecutor(
        jobs, mp_context=ctx, max_tasks_per_child=1, initializer=_worker, initargs=(settings,)
    )  # ours alone, as the CLI
    running: dict = {}
    started: set = set()
    done: set = set()
    try:
        while len(done) < len(ORDER):
            for name in ORDER:
                if (
                    len(running) < jobs
                    and name not in started
                    and _ready(name, done, started, lambda: cached(*SHARED))
                ):
                    running[pool.submit(compile_family, name)] = name
                    started.add(name)
            waiting = len(started) < len(ORDER)  # a family may become ready by the cache alone
            finished, _ = futures.wait(
                running, timeout=0.5 if waiting else None, return_when=futures.FIRST_COMPLETED
            )
            for future in finished:
                name = running.pop(future)
                report(name, TITLES[name], future.result())
                done.add(name)
    finally:
        pool.shutdown(cancel_futures=True)
    if host:
        _replace(folder, building)
    return time.perf_counter() - t0


def _replace(folder: Path, new: Path) -> None:
    """``new`` in place of the cache folder ``folder``: each renamed, then the old removed (a
    process loading at that moment finds one folder or the other, each whole)."""
    old = folder.with_name(f"{folder.name}.old-{os.getpid()}")
    if folder.exists():
        folder.rename(old)
    new.rename(folder)
    shutil.rmtree(old, ignore_errors=True)
