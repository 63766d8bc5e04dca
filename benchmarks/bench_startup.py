"""First use: how long a newcomer waits, and how much memory a process holds.

Every figure runs in fresh subprocesses of the tree given (``--tree``, default this checkout),
so two trees can be measured side by side in one session (a ``git worktree`` of the previous
commit): machines here are noisy, and a ratio measured alternately is the honest claim.

    python benchmarks/bench_startup.py                      # everything but the fresh clone
    python benchmarks/bench_startup.py --only import,cold    # some parts
    python benchmarks/bench_startup.py --tree /work/base --tree .   # two trees, alternately
    python benchmarks/bench_startup.py --only readme         # the README's main command

Parts:
- ``import``: wall time of ``import tichusim`` (best of 5, less the bare interpreter's start)
  and the resident memory it leaves;
- ``cold``: ``tichusim warmup`` on an empty numba cache (seconds until it ends);
- ``first``: ``tichusim run configs/quick.toml --rounds 20000`` on an empty cache without
  warmup: seconds to the finished run;
  both with the kernel pack (``tichusim/_compile/pack.py``: copied into the empty cache, the
  best level this CPU runs, or the level ``TICHUSIM_KERNEL_PACK`` names when this command is
  run with it, ``x86-64-v3`` say) and without (``TICHUSIM_KERNEL_PACK=0``: everything
  compiles);
- ``worker``: peak resident memory of ``tichusim run`` with 2 workers (4-player game, warm
  cache): all its processes together, the calling process, each worker process if any;
- ``processes``: worker processes as a process pool or a Dask cluster runs them (spawned,
  ``worker_init``, ``play_shard``), 2 at once, each playing one 50,000-round shard of
  ``quick.toml`` (warm cache): each one's peak resident memory, and at that peak its private
  memory (USS: what one more worker adds to a node; the libraries' code pages are mapped once
  for all workers) and its proportional share (PSS);
- ``readme``: the README's main command, as written, on a fresh clone with an empty cache,
  ``pip install`` included (needs the network to PyPI, as a new user has).

Each part's lines go to results/performance.md too, a section per part (for example
``bench_startup.py: cold``), with the date, commits and machine (``--no-results``: printed only).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
from results_page import Recorder, add_arguments

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("import", "cold", "first", "worker", "processes")


def _env(tree: Path, cache: Path | None, kernel_pack: bool = True) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    if cache is not None:  # the first for trees before tichusim had a folder of its own
        env["NUMBA_CACHE_DIR"] = env["TICHUSIM_CACHE_DIR"] = str(cache)
    env["TICHUSIM_KERNEL_PACK"] = _level() if kernel_pack else "0"  # a tree without one: none
    return env


def _level() -> str:
    """The kernel pack's setting when on: the level ``TICHUSIM_KERNEL_PACK`` names in this
    process's environment (``x86-64-v3``: the level most machines get), else the best."""
    value = os.environ.get("TICHUSIM_KERNEL_PACK", "1")
    return "1" if value == "0" else value


def _timed(cmd: list[str], env: dict, cwd: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run(
        cmd, env=env, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    return time.perf_counter() - t0


def import_time(tree: Path) -> str:
    env = _env(tree, None)
    bare = min(_timed([sys.executable, "-c", "pass"], env, tree) for _ in range(5))
    full = min(_timed([sys.executable, "-c", "import tichusim"], env, tree) for _ in range(5))
    rss = subprocess.run(
        [
            sys.executable,
            "-c",
            "import tichusim, psutil; print(psutil.Process().memory_info().rss)",
        ],
        env=env,
        cwd=tree,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    mods = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, tichusim; print(' '.join(m for m in "
            "('numba', 'pandas', 'matplotlib', 'dask', 'pyarrow', 'pydantic') "
            "if m in sys.modules))",
        ],
        env=env,
        cwd=tree,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return (
        f"import tichusim: {full - bare:.2f} s (interpreter alone {bare:.2f} s), "
        f"{int(rss) / 2**20:.0f} MiB resident; loads: {mods or 'none of the heavy ones'}"
    )


def _cpu_timed(cmd: list[str], env: dict, cwd: Path) -> str:
    """Wall seconds of ``cmd``, with its processes' user and system CPU seconds: a compile
    with much system time is paging (the frame-stack slowdown ``tichusim/_compile/frame_stack.py``
    removes made 4-8 million mmap/munmap pairs and doubled a cold compile)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = _timed(cmd, env, cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (
        f"{wall:.1f} s (CPU: user {after.ru_utime - before.ru_utime:.0f} s, "
        f"system {after.ru_stime - before.ru_stime:.0f} s)"
    )


def _said(on: bool) -> str:
    if not on:
        return "TICHUSIM_KERNEL_PACK=0"
    return "kernel pack" if _level() == "1" else f"kernel pack, TICHUSIM_KERNEL_PACK={_level()}"


def _packed(measure):
    """``measure(tree, kernel_pack)`` as a part: with the kernel pack (what a user gets where
    it fits this CPU) and without it (the compile itself), one line each."""

    def part(tree: Path) -> str:
        return "\n".join(f"{measure(tree, on)} [{_said(on)}]" for on in (True, False))

    part.__doc__ = measure.__doc__
    return part


@_packed
def cold_warmup(tree: Path, kernel_pack: bool) -> str:
    with tempfile.TemporaryDirectory() as cache:
        took = _cpu_timed(
            [sys.executable, "-m", "tichusim.cli", "warmup"],
            _env(tree, Path(cache), kernel_pack),
            tree,
        )
    return f"tichusim warmup, empty cache: {took}"


@_packed
def first_result(tree: Path, kernel_pack: bool) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            sys.executable,
            "-m",
            "tichusim.cli",
            "run",
            "configs/quick.toml",
            "--rounds",
            "20000",
            "--out",
            str(Path(tmp) / "run"),
            "--quiet",
        ]
        took = _cpu_timed(cmd, _env(tree, Path(tmp) / "cache", kernel_pack), tree)
    return f"run quick.toml --rounds 20000, empty cache, no warmup: {took} to the result"


def worker_memory(tree: Path) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(tree, None)
        subprocess.run(
            [sys.executable, "-m", "tichusim.cli", "warmup"],
            env=env,
            cwd=tree,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        cmd = [
            sys.executable,
            "-m",
            "tichusim.cli",
            "run",
            "configs/quick.toml",
            "--rounds",
            "400000",
            "--workers",
            "2",
            "--out",
            str(Path(tmp) / "run"),
            "--quiet",
        ]
        proc = subprocess.Popen(cmd, env=env, cwd=tree, stdout=subprocess.DEVNULL)
        peak: dict[int, int] = {}
        main_peak = total_peak = 0

        def sample():
            nonlocal main_peak, total_peak
            parent = psutil.Process(proc.pid)
            while proc.poll() is None:
                try:
                    rss = parent.memory_info().rss
                    main_peak = max(main_peak, rss)
                    for child in parent.children(recursive=True):
                        mine = child.memory_info().rss
                        peak[child.pid] = max(peak.get(child.pid, 0), mine)
                        rss += mine
                    total_peak = max(total_peak, rss)
                except psutil.Error:
                    pass
                time.sleep(0.05)

        thread = threading.Thread(target=sample)
        thread.start()
        proc.wait()
        thread.join()
    workers = sorted(peak.values(), reverse=True)[:2]
    shown = (
        f"worker processes {', '.join(f'{w / 2**20:.0f}' for w in workers)} MiB peak"
        if workers
        else "no worker processes (threads)"
    )
    return (
        f"run with 2 workers: all processes together {total_peak / 2**20:.0f} MiB peak; "
        f"main process {main_peak / 2**20:.0f} MiB, {shown}"
    )


_POOL = """
import concurrent.futures as cf, multiprocessing, os, sys
from tichusim.runs.config import load_config
from tichusim.runs.shard import ShardTask, play_settings, play_shard, worker_init

n, rounds = int(sys.argv[1]), int(sys.argv[2])
play = play_settings(load_config("configs/quick.toml"))
with cf.ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("spawn"),
                            initializer=worker_init, initargs=(os.getpid(),)) as pool:
    tasks = [ShardTask(play, "bench", i, i * rounds, rounds, 1) for i in range(n)]
    print(len({r.worker for r in pool.map(play_shard, tasks)}))
"""


def process_memory(tree: Path, workers: int = 2, rounds: int = 50_000) -> str:
    env = _env(tree, None)
    subprocess.run(
        [sys.executable, "-m", "tichusim.cli", "warmup"],
        env=env,
        cwd=tree,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", _POOL, str(workers), str(rounds)],
        env=env,
        cwd=tree,
        stdout=subprocess.PIPE,
        text=True,
    )
    peak: dict[int, tuple] = {}  # pid -> (rss, uss, pss) when its rss peaked
    while proc.poll() is None:
        try:
            children = psutil.Process(proc.pid).children()
        except psutil.Error:  # it has just ended
            children = []
        for child in children:
            try:
                if "spawn_main" not in " ".join(child.cmdline()):
                    continue  # multiprocessing's resource tracker
                mem = child.memory_full_info()
            except psutil.Error:
                continue
            if mem.rss > peak.get(child.pid, (0,))[0]:
                peak[child.pid] = (mem.rss, mem.uss, mem.pss)
        time.sleep(0.1)
    distinct = proc.stdout.read().strip()
    if proc.returncode or distinct != str(workers):
        raise RuntimeError(f"the pool failed or did not use {workers} processes")
    rss, uss, pss = (
        ", ".join(f"{m / 2**20:.0f}" for m in column)
        for column in zip(*sorted(peak.values()), strict=False)
    )
    return (
        f"{workers} worker processes, a {rounds:,}-round shard each: peak resident "
        f"{rss} MiB; at that peak private (USS) {uss} MiB, PSS {pss} MiB"
    )


def readme_command(tree: Path) -> str:
    """The README's main command on a fresh clone of ``tree``'s HEAD, an empty numba cache."""
    text = (tree / "README.md").read_text()
    start = text.index("```bash", text.index("## Set-up")) + len("```bash")
    command = text[start : text.index("```", start)].strip().splitlines()[0]
    with tempfile.TemporaryDirectory() as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", str(tree), str(clone)], check=True)
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        env["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")  # tichusim's numba cache lives here
        env.pop("NUMBA_CACHE_DIR", None)
        env.pop("TICHUSIM_CACHE_DIR", None)
        t0 = time.perf_counter()
        subprocess.run(
            ["bash", "-c", command],
            cwd=clone,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        s = time.perf_counter() - t0
    return f"README main command on a fresh clone ({command!r}): {s:.0f} s"


MEASURES = {
    "import": import_time,
    "cold": cold_warmup,
    "first": first_result,
    "worker": worker_memory,
    "processes": process_memory,
    "readme": readme_command,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--tree",
        action="append",
        type=Path,
        help="a checkout to measure (repeat to compare; default: this one)",
    )
    ap.add_argument(
        "--only", default=",".join(PARTS), help=f"comma-separated parts of {', '.join(MEASURES)}"
    )
    add_arguments(ap)
    args = ap.parse_args()
    trees = [t.resolve() for t in (args.tree or [ROOT])]
    parts = [p.strip() for p in args.only.split(",") if p.strip()]
    unknown = [p for p in parts if p not in MEASURES]
    if unknown:
        ap.error(f"unknown part {unknown[0]!r} (known: {', '.join(MEASURES)})")
    print(f"machine: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}")
    for part in parts:
        rec = Recorder(f"bench_startup.py: {part}", args.results, trees=trees)
        for tree in trees:  # alternate trees part by part: the same moment of the machine
            rec.print(f"[{tree}] {MEASURES[part](tree)}")
        rec.save()


if __name__ == "__main__":
    main()
