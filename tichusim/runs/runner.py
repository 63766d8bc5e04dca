"""Batch runs: a config's rounds or games cut into shards, played in parallel, streamed to a
run directory as Parquet, resumable after any stop.

A shard is a fixed slice of the run (rounds or games ``first .. first + count``). Its bytes
depend only on the config and its index, because every round's randomness derives from
``(seed, round key)``: so the data are the same whichever worker, process count or Dask
cluster plays it, and a resumed run equals an uninterrupted one. Workers return Parquet bytes;
the calling process alone writes files and the manifest (no shared filesystem needed, one
writer), at most a few shards at a time in memory.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import logging
import multiprocessing
import os
import signal
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._compile.notice import compile_notices
from ..games.agents import AgentError
from ..games.simulate import records
from ..progress import Progress
from .agent_sources import agent_sources, failing_agents
from .config import RunConfig, validate
from .files import write_atomic
from .manifest import (
    CONFIG,
    MANIFEST,
    TABLES,
    Manifest,
    RunDirError,
    code_digest,
    now,
    part_path,
)
from .shard import (
    MASKABLE,
    SIGINT_ONLY,
    ShardResult,
    ShardTask,
    play_settings,
    play_shard,
    worker_init,
)

if TYPE_CHECKING:
    from dask.distributed import Future

__all__ = [
    "AgentChangedError",
    "Played",
    "RunError",
    "RunInterrupted",
    "RunSummary",
    "Shards",
    "check_code",
    "choose_backend",
    "is_remote",
    "play_shards",
    "resume",
    "run",
]

ACCEPT_FLAG = "--accept-changed-agents"  # the command line's name for ``accept_changed_agents``


class RunError(RuntimeError):
    """A run could not go on (e.g. no Dask scheduler at the address)."""


class AgentChangedError(RunDirError):
    """A run would continue with a Python agent whose source file changed since the run
    started: its finished shards were played by the old source, the rest would be played by
    the new one."""


class RunInterrupted(Exception):
    """Ctrl-C stopped a run; finished shards are kept and ``resume`` picks up the rest."""

    def __init__(self, run_dir: Path, done: int, total: int):
        super().__init__(f"interrupted after {done} of {total} shards")
        self.run_dir, self.done, self.total = run_dir, done, total


@dataclass(frozen=True)
class RunSummary:
    run_dir: Path
    mode: str
    count: int  # rounds or games of the whole run
    rounds: int  # rows of the rounds table (games mode: all rounds of all games)
    played: int  # shards played in this call (the others were already done)
    rounds_played: int  # rounds in those shards
    seconds: float  # this call's time playing shards (after the kernels compiled or loaded)
    backend: str


# -- where shards run ---------------------------------------------------------------------


class _Inline:
    """Shards played one at a time in this process (``workers=1``), numba's parallel loops
    over its default threads (all cores unless ``NUMBA_NUM_THREADS`` says otherwise)."""

    window = 1
    threads = None

    def __init__(self):
        self.name = "this process"

    def submit(self, fn, arg):
        future: cf.Future = cf.Future()
        try:
            future.set_result(fn(arg))
        except Exception as exc:  # noqa: BLE001 (raised again by future.result(), as a pool's)
            future.set_exception(exc)
        return future

    def wait(self, futures):
        return set(futures)

    def close(self, cancel: bool = False):
        pass


class _Threads:
    """Threads of this process, each playing one shard at a time with numba single-threaded:
    the engines release the GIL, so the threads play at once, and the process holds numba, the
    kernels and pyarrow once for all of them (each worker process would hold its own copy).
    Faster than processes too, which pickle every shard's Parquet back (most with cheap
    strategies)."""

    threads = 1

    def __init__(self, workers: int):
        self.name = f"{workers} threads"
        self.window = 2 * workers  # keeps every thread busy while results are written
        self.pool = cf.ThreadPoolExecutor(workers, thread_name_prefix="tichusim-shard")

    def submit(self, fn, arg):
        return self.pool.submit(fn, arg)

    def wait(self, futures):
        return cf.wait(futures, return_when=cf.FIRST_COMPLETED).done

    def close(self, cancel: bool = False):
        # Queued shards are dropped; shards in progress finish (a few seconds at most) and
        # are redone on resume.
        self.pool.shutdown(wait=True, cancel_futures=cancel)


class _Processes:
    """A pool of spawned processes, each numba single-threaded, for runs where Python agents
    play: their decisions hold the GIL, which threads would share (with a Python agent at one
    seat, 2 processes play several times the rounds of 2 threads). Spawned: fork would
    hang after the OpenMP layer ran a parallel loop; one thread per process keeps cores
    unshared."""

    threads = 1

    def __init__(self, workers: int):
        self.name = f"{workers} local processes"
        self.window = 2 * workers  # keeps every worker busy while results are written
        ctx = multiprocessing.get_context("spawn")
        self.pool = cf.ProcessPoolExecutor(
            workers, mp_context=ctx, initializer=worker_init, initargs=(os.getpid(),)
        )

    def submit(self, fn, arg):
        # workers are spawned inside submit: with SIGINT blocked, which they inherit, so a
        # Ctrl-C while one is still importing cannot kill it (it would print a traceback)
        if not MASKABLE:
            return self.pool.submit(fn, arg)
        old = signal.pthread_sigmask(signal.SIG_BLOCK, SIGINT_ONLY)
        try:
            return self.pool.submit(fn, arg)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)

    def wait(self, futures):
        done = cf.wait(futures, return_when=cf.FIRST_COMPLETED).done
        for future in done:
            if isinstance(future.exception(), BrokenProcessPool):
                raise RunError(
                    "a worker process died (killed, out of memory, or a script calling "
                    'tichusim.run without an `if __name__ == "__main__":` guard)'
                )
        return done

    def close(self, cancel: bool = False):
        # Queued shards are dropped; shards in progress finish (a few seconds at most) and
        # are redone on resume. Killing workers instead could cut one mid-way through sending
        # its result, leaving the pool's reader thread blocked for ever on a partial message.
        self.pool.shutdown(wait=True, cancel_futures=cancel)


class _Dask:
    """Shards as tasks on a Dask cluster: an existing scheduler, or a ``LocalCluster`` with
    one single-threaded worker process per core."""

    threads = 1  # numba threads per task, whatever threads a cluster's workers have

    def __init__(self, address: str, n_workers: int | None):
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise RunError("dask: not installed (pip install 'tichusim[dask]')") from None
        self.cluster = None
        self.futures: list[Future] = []
        try:
            if address == "local":
                self.cluster = LocalCluster(
                    n_workers=n_workers or os.cpu_count(),
                    threads_per_worker=1,
                    processes=True,
                    env={"NUMBA_NUM_THREADS": "1"},
                    dashboard_address=None,
                    silence_logs=logging.ERROR,  # its shutdown chatter after a Ctrl-C
                )
                self.client = Client(self.cluster)
                self.name = f"dask LocalCluster ({len(self.cluster.workers)} workers)"
            else:
                self.client = Client(address, timeout=15)
                self.name = f"dask {address}"
        except OSError as exc:
            raise RunError(f"dask: cannot reach the scheduler at {address} ({exc})") from None
        slots = sum(self.client.nthreads().values())
        self.window = 2 * max(1, slots)

    def submit(self, fn, arg):
        key = f"tichusim-shard-{arg.run_id}-{arg.index}"
        future = self.client.submit(fn, arg, key=key, pure=False)
        self.futures.append(future)
        return future

    def wait(self, futures):
        from dask.distributed import wait

        return wait(futures, return_when="FIRST_COMPLETED").done

    def close(self, cancel: bool = False):
        if cancel:  # a shared cluster would otherwise go on with them
            self.client.cancel(self.futures)
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def choose_backend(
    workers: int | None,
    dask: str | None,
    dask_workers: int | None,
    shards: int,
    python: bool = False,
):
    """Dask if asked; else one worker per core: threads of this process, or processes when
    the shards' work holds the GIL (``python``: Python agents play, or logs are read;
    ``_Processes``); this process alone when there are no more shards than cores (then
    numba's threads within each shard do as well)."""
    if dask:
        return _Dask(dask, dask_workers or workers)
    cores = os.cpu_count() or 1
    if workers is None:
        workers = 1 if shards <= cores else cores
    workers = max(1, min(workers, shards))
    if workers == 1:
        return _Inline()
    return _Processes(workers) if python else _Threads(workers)


# -- run directories ------------------------------------------------------------------------


def _open_run_dir(config: RunConfig, run_dir: Path, log, accept_agents: bool) -> Manifest:
    """The manifest of ``run_dir`` for ``config``: a new run, or the same run continued."""
    if run_dir.exists() and not run_dir.is_dir():
        raise RunDirError(f"out: {run_dir} is not a directory")
    if (run_dir / MANIFEST).exists():
        manifest = Manifest.load(run_dir)
        _check_kind(manifest)
        if manifest.data.get("config_hash") != config.hash:
            raise RunDirError(
                f"out: {run_dir} holds a different run; choose another --out "
                f"(or resume that one with --resume {run_dir})"
            )
        check_code(manifest)
        _check_agents(manifest, config, accept_agents, log)
        log(f"continuing the run in {run_dir}")
        return manifest
    if run_dir.exists() and any(run_dir.iterdir()):
        raise RunDirError(f"out: {run_dir} is not empty and holds no run")
    for table in TABLES:
        (run_dir / table).mkdir(parents=True, exist_ok=True)
    write_atomic(run_dir / CONFIG, json.dumps(config.to_json(), indent=1).encode())
    manifest = Manifest.new(run_dir, config)
    manifest.save()
    return manifest


def _check_kind(manifest: Manifest) -> None:
    if manifest.kind != "run":
        raise RunDirError(
            f"{manifest.run_dir} holds games read in (tichusim import), not a run "
            f"(tichusim import --resume {manifest.run_dir} finishes it)"
        )


def check_code(manifest: Manifest, command: str = "run") -> None:
    """``RunDirError`` unless the code that would finish ``manifest``'s shards is the code
    that played the others (``code_digest``)."""
    if manifest.data.get("code") != code_digest():
        raise RunDirError(
            f"resume: {manifest.run_dir} was started by a different version of the simulation "
            f"code, whose remaining shards would not match; start a new {command}"
        )


def _check_agents(manifest: Manifest, config: RunConfig, accept: bool, log) -> None:
    """Continue a run only with the Python agents' sources it started with (their sha256 in
    the manifest), or with a change that is accepted: by ``accept`` (``ACCEPT_FLAG``), or, for
    the agent whose failure stopped the last session, as the fix that failure's message asked
    for. Raises ``AgentChangedError`` before anything is written. An accepted change is
    recorded (saved as the session begins): the agent's new sha256, and in its ``changes`` the
    old one, when, why, and the first session (``shards[].session``) played by the new source."""
    sessions = manifest.data["sessions"]
    failure = sessions[-1].get("agent_failure") if sessions else None
    fixes = set(failure["agents"]) if failure else set()
    recorded = {entry["agent"]: entry for entry in manifest.data.setdefault("agents", [])}
    changed = []
    for current in agent_sources(config):
        entry = recorded.get(current["agent"])
        if entry is None:  # a manifest without it: nothing to compare, recorded from now on
            manifest.data["agents"].append(current)
        elif entry["sha256"] != current["sha256"]:
            changed.append((entry, current))
    refused = [(e, c) for e, c in changed if not (accept or e["agent"] in fixes)]
    if refused:
        what = "; ".join(
            f"agent {c['agent']!r} (seat {', '.join(map(str, c['seats']))}): its source "
            f"{c['source']} changed since the run started (sha256 {_short(e['sha256'])} then, "
            f"{_short(c['sha256'])} now)"
            for e, c in refused
        )
        raise AgentChangedError(
            f"resume: {manifest.run_dir}: {what}; the finished shards were played by the old "
            f"source: restore it, or continue with the new one: {ACCEPT_FLAG} (the manifest "
            "keeps both hashes)"
        )
    done = sum(s["state"] == "done" for s in manifest.shards)
    for entry, current in changed:
        if entry["agent"] in fixes:  # sessions[-1]["agent_failure"] says what failed
            why = f"the fix of the failure that stopped session {len(sessions) - 1}"
        else:
            why = f"accepted explicitly ({ACCEPT_FLAG})"
        entry.setdefault("changes", []).append(
            {
                "sha256_before": entry["sha256"],
                "sha256": current["sha256"],
                "source": current["source"],
                "accepted": now(),
                "why": why,
                "shards_done": done,
                "from_session": len(sessions),
            }
        )
        entry.update(sha256=current["sha256"], source=current["source"])
        log(
            f"agent {entry['agent']!r}: its source changed since the run started; continuing "
            f"with the new source, {why}; the manifest keeps the old sha256"
        )


def _short(digest: str | None) -> str:
    return digest[:12] if digest else "none (no source file)"


def _clean(run_dir: Path, tables: tuple[str, ...]) -> None:
    """Remove temporary files left by a stop between writing and renaming."""
    for table in tables:
        for tmp in (run_dir / table).glob(".*.tmp"):
            tmp.unlink()


# -- running ----------------------------------------------------------------------------------


def run(
    config,
    *,
    out=None,
    workers: int | None = None,
    dask: str | None = None,
    progress: bool = True,
    log=None,
    accept_changed_agents: bool = False,
) -> RunSummary:
    """Play a run (a ``RunConfig``, or a mapping validated into one) into its directory.

    ``out`` overrides ``config.out``; ``workers`` is the number of local workers, threads of
    this process (processes when Python agents play); default: one per core, or this process
    alone when there are no more shards than cores; 1 plays in this process, numba's threads
    using every core; ``dask`` (or ``config.dask``) sends shards to a Dask scheduler address,
    or to a new ``LocalCluster`` for ``"local"``. A directory already holding this same run
    is continued (as by ``resume``, ``accept_changed_agents`` included); one holding anything
    else is refused. ``log`` receives one-line notes (default: none).
    """
    config = validate(config)
    log = log or (lambda message: None)
    if out is not None:
        config = config.with_overrides(out=os.fspath(out))
    if config.out is None:
        raise RunDirError("out: no output directory (set out in the config, or give --out)")
    run_dir = Path(config.out)
    manifest = _open_run_dir(config, run_dir, log, accept_changed_agents)
    return _play(config, manifest, workers, dask, progress, log)


def resume(
    run_dir,
    *,
    workers: int | None = None,
    dask: str | None = None,
    progress: bool = True,
    log=None,
    accept_changed_agents: bool = False,
) -> RunSummary:
    """Finish the run in ``run_dir``: shards whose files match their checksums are kept,
    the others (unfinished, missing or damaged) are played again.

    A Python agent whose source file changed since the run started (its sha256 in the
    manifest) is refused with ``AgentChangedError`` before anything is written, unless
    ``accept_changed_agents`` (the manifest then records the change), or unless that agent's
    failure stopped the run (the change is its fix, recorded as such)."""
    run_dir = Path(run_dir)
    log = log or (lambda message: None)
    manifest = Manifest.load(run_dir)
    _check_kind(manifest)
    try:
        config = validate(json.loads((run_dir / CONFIG).read_text()))
    except (OSError, ValueError) as exc:
        raise RunDirError(f"resume: {run_dir / CONFIG}: {exc}") from None
    if config.hash != manifest.data.get("config_hash"):
        raise RunDirError(f"resume: {run_dir / CONFIG} does not match the run's manifest")
    check_code(manifest)
    _check_agents(manifest, config, accept_changed_agents, log)
    return _play(config, manifest, workers, dask, progress, log)


@dataclass(frozen=True)
class Shards:
    """What the shards of a run directory are and how they are played, for ``play_shards``:
    ``work(task) -> ShardResult``, a module-level function any worker can run (a thread, a
    spawned process, a Dask task); ``task(shard, threads)``, the task of a manifest's shard
    entry (it has the ``run_id`` and ``index`` a Dask key names); ``warm(backend)`` loads or
    compiles the kernels before the clock starts; ``python``: the work holds the GIL
    (processes rather than threads); ``resume``, the command that finishes the directory, for
    messages; the bar counts ``total`` ``unit`` s (a shard entry's ``count``), with the
    rounds a second beside them when ``rate``; ``failing(error)``, the Python agents an
    ``AgentError`` names."""

    work: Callable[[Any], ShardResult]
    task: Callable[[dict, int | None], Any]
    warm: Callable[[Any], None]
    python: bool
    resume: str
    total: int
    unit: str
    rate: bool = False
    failing: Callable[[str], list] = lambda error: []


@dataclass(frozen=True)
class Played:
    """What ``play_shards`` did: the shard entries it played (now done), the backend, and its
    seconds of play (after the kernels compiled or loaded)."""

    shards: list[dict]
    backend: str
    seconds: float


def play_shards(
    manifest: Manifest,
    shards: Shards,
    *,
    workers: int | None,
    dask: str | None,
    dask_workers: int | None,
    progress: bool,
    log: Callable[[str], None],
) -> Played:
    """Play the shards of ``manifest`` that are not done (those whose files do not match
    their checksums again), writing each result as it comes, in a session of the manifest.
    Ctrl-C raises ``RunInterrupted``: the finished shards are kept."""
    run_dir = manifest.run_dir
    _clean(run_dir, manifest.tables)
    repaired = manifest.verify()
    for index, problem in repaired:
        log(f"shard {index}: {problem}; playing it again")
    todo = manifest.pending()
    t0 = time.perf_counter()
    backend = bar = None
    started = t0
    session = manifest.begin_session("")
    if repaired:
        session["repaired"] = [f"shard {i}: {problem}" for i, problem in repaired]
    outcome = "failed"
    try:
        backend = (
            choose_backend(workers, dask, dask_workers, len(todo), shards.python)
            if todo
            else _Inline()
        )
        session["backend"] = backend.name
        manifest.save()
        if todo:
            shards.warm(backend)
        started = time.perf_counter()  # the rate counts play, never a compile
        bar = _Bar(shards, manifest, progress)
        _execute(shards, manifest, backend, todo, bar, session)
        outcome = "complete"
    except KeyboardInterrupt:
        outcome = "interrupted"
        done = len(manifest.shards) - len(manifest.pending())
        raise RunInterrupted(run_dir, done, len(manifest.shards)) from None
    except RunError as exc:
        raise RunError(f"{exc}; finished shards are kept: {shards.resume} {run_dir}") from None
    except AgentError as exc:  # raised here or in a worker: the shard it was in is not written
        # which agent failed: a resume may then take its fixed source without the flag
        session["agent_failure"] = {"error": str(exc), "agents": shards.failing(str(exc))}
        raise AgentError(
            f"{exc}; finished shards are kept: fix the agent, then {shards.resume} {run_dir}"
        ) from None
    finally:
        if bar is not None:
            bar.close()
        if backend is not None:
            backend.close(cancel=outcome != "complete")
        manifest.end_session(session, outcome, time.perf_counter() - t0)
    return Played(todo, backend.name, time.perf_counter() - started)


def _play(config: RunConfig, manifest: Manifest, workers, dask, progress, log) -> RunSummary:
    play = play_settings(config)
    shards = Shards(
        work=play_shard,
        task=lambda shard, threads: ShardTask(
            play, manifest.run_id, shard["index"], shard["first"], shard["count"], threads
        ),
        warm=lambda backend: _compile(config, backend, progress),
        python=config.python_agents,
        resume="tichusim run --resume",
        total=config.count,
        unit=f" {config.mode}",
        rate=config.mode == "games",
        failing=lambda error: failing_agents(config, error),
    )
    address = dask or (config.dask.address if config.dask else None)
    dask_workers = config.dask.n_workers if config.dask else None
    played = play_shards(
        manifest,
        shards,
        workers=workers,
        dask=address,
        dask_workers=dask_workers,
        progress=progress,
        log=log,
    )
    rounds = sum(s["rows"]["rounds"] for s in manifest.shards)
    return RunSummary(
        manifest.run_dir,
        config.mode,
        config.count,
        rounds,
        len(played.shards),
        sum(s["rows"]["rounds"] for s in played.shards),  # the manifest's entries, now done
        played.seconds,
        played.backend,
    )


def _compile(config: RunConfig, backend, progress: bool) -> None:
    """Compile (or load) the kernels the shards use here, before the clock and the bar start:
    one round (or game) of the run's own settings reaches exactly their argument types, and
    local workers then load what it compiled instead of each compiling it (a remote cluster
    keeps caches of its own). A compile says so on stderr (``_compile.notice``), unless
    ``progress`` is off."""
    if not is_remote(backend):
        with nullcontext() if progress else compile_notices(False):
            records(count=1, **play_settings(config))


def is_remote(backend) -> bool:
    """Whether ``backend`` is a Dask cluster this process did not start (whose workers keep
    kernel caches of their own)."""
    return isinstance(backend, _Dask) and backend.cluster is None


def _execute(shards: Shards, manifest: Manifest, backend, todo, bar, session) -> None:
    """Keep ``backend.window`` shards in flight; write each result as it arrives."""
    queue = iter(todo)
    inflight: dict[Any, dict] = {}  # a backend's future (a pool's or Dask's) -> its shard

    def top_up():
        while len(inflight) < backend.window:
            shard = next(queue, None)
            if shard is None:
                return
            inflight[backend.submit(shards.work, shards.task(shard, backend.threads))] = shard

    top_up()
    while inflight:
        for future in backend.wait(list(inflight)):
            shard = inflight.pop(future)
            result = future.result()
            _store(manifest, result)
            session["shards"] += 1
            bar.update(shard["count"], result.rows["rounds"])
        top_up()


def _store(manifest: Manifest, result: ShardResult) -> None:
    """Every table's file in place (atomically), then the manifest says so: never the other
    way."""
    t0 = time.perf_counter()
    files = {}
    for table in manifest.tables:
        data = result.tables[table]
        path = part_path(table, result.index)
        digest = write_atomic(manifest.run_dir / path, data)
        files[table] = {"path": path, "bytes": len(data), "sha256": digest}
    seconds = result.seconds | {"write": round(time.perf_counter() - t0, 4)}
    manifest.record(result.index, files, result.rows, seconds, result.worker)
    manifest.save()


class _Bar:
    """A tqdm bar over the run's rounds (or games, or files), showing time left, and rounds/s
    when it counts something else."""

    def __init__(self, shards: Shards, manifest: Manifest, enabled: bool):
        done = [s for s in manifest.shards if s["state"] == "done"]
        self.rate = shards.rate
        self.rounds = 0
        self.t0 = time.perf_counter()
        self.bar = Progress(
            shards.total,
            shards.unit,
            enabled=enabled,
            unit_scale=True,
            initial=sum(s["count"] for s in done),
            desc=str(manifest.run_dir),
            leave=True,
        )

    def update(self, count: int, rounds: int) -> None:
        self.rounds += rounds
        note = None
        if self.rate:
            rate = self.rounds / max(time.perf_counter() - self.t0, 1e-9)
            note = f"{rate:,.0f} rounds/s"
        self.bar.advance(count, note)

    def close(self) -> None:
        self.bar.close()
