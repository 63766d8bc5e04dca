"""What a worker runs: one shard's work (a thread of the run's process, a spawned process
when Python agents play, or a Dask task), and a worker process's set-up (``worker_init``).
It imports its game's kernels, the tables and Parquet, nothing else (no pydantic, pandas or
the runner), so a worker process stays small.

A shard's bytes are a pure function of its task (``runner``'s docstring says why).
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import time
from dataclasses import dataclass

from ..games.arrow import tables
from ..games.simulate import records
from . import parquet

__all__ = [
    "MASKABLE",
    "SIGINT_ONLY",
    "ShardResult",
    "ShardTask",
    "play_settings",
    "play_shard",
    "worker_name",
    "worker_init",
]


@dataclass(frozen=True)
class ShardTask:
    play: dict  # records()'s settings from the validated config: plain data, any worker takes it
    run_id: str
    index: int
    first: int
    count: int
    threads: int | None  # numba threads in the worker; None leaves numba's default


@dataclass(frozen=True)
class ShardResult:
    """A shard's work, done: each table's Parquet bytes and rows, by the table's name; where
    the worker spent its time, and which worker it was."""

    index: int
    tables: dict[str, bytes]
    rows: dict
    seconds: dict
    worker: str

    @property
    def rounds(self) -> bytes:
        return self.tables["rounds"]

    @property
    def seats(self) -> bytes:
        return self.tables["seats"]


def play_settings(config) -> dict:
    """What ``records`` needs of a validated ``RunConfig`` (all but the count and first)."""
    return {
        "variant": config.variant,
        "games": config.mode == "games",
        "seed": config.seed,
        "strategies": config.strategies,
        "players": config.players,
        "options": config.options,
        "target": config.target,
        "check": config.check,
    }


# rounds (or games) played and encoded at a time: a worker holds one slice's records and
# tables, not the shard's (a 50,000-round shard of the 4-player game: 37 MiB of records and
# 25 MiB of tables at once); each slice is a row group of the shard's files
SLICE = {False: 10_000, True: 1_000}  # keyed by ``games``


def play_shard(task: ShardTask) -> ShardResult:
    """Simulate one shard and encode its two tables (a pure function of ``task``), a slice of
    it at a time (``SLICE``)."""
    if task.threads:
        import numba

        numba.set_num_threads(task.threads)
    files = {"rounds": parquet.Encoder(), "seats": parquet.Encoder()}
    rows = dict.fromkeys(files, 0)
    seconds = {"simulate": 0.0, "encode": 0.0}
    step = SLICE[bool(task.play["games"])]
    for lo in range(0, task.count, step):
        t0 = time.perf_counter()
        rec = records(count=min(step, task.count - lo), first=task.first + lo, **task.play)
        t1 = time.perf_counter()
        pair = tables(rec, run_id=task.run_id, shard=task.index)
        del rec  # the records' arrays, copied into the tables: not held while encoding
        for (name, encoder), table in zip(files.items(), pair, strict=False):
            encoder.add(table)
            rows[name] += table.num_rows
        del pair
        seconds["simulate"] += t1 - t0
        seconds["encode"] += time.perf_counter() - t1
    return ShardResult(
        task.index,
        {name: encoder.bytes() for name, encoder in files.items()},
        rows=rows,
        seconds={k: round(v, 4) for k, v in seconds.items()},
        worker=worker_name(),
    )


def worker_name() -> str:
    """This worker, as a shard's entry names it: ``host:pid``."""
    return f"{socket.gethostname()}:{os.getpid()}"


SIGINT_ONLY = {signal.SIGINT}
MASKABLE = hasattr(signal, "pthread_sigmask")  # POSIX


def worker_init(parent: int):
    """Ctrl-C reaches the terminal's whole process group; only the parent handles it. The
    worker was started with SIGINT blocked (see ``_Processes.submit``): ignore, then unblock.
    A worker must not outlive its parent (killed with SIGKILL, it cannot shut the pool
    down): the orphans would wait on the pool's queue for ever, holding the terminal's pipes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if MASKABLE:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGINT_ONLY)
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the request above took effect
        os._exit(1)
