"""The server's bounded worker pool: answers run on a few threads (the kernels release the
GIL, so the page and the API stay responsive while they play), at most ``queue`` wait, and a
request past that is refused at once (503) rather than left to pile up.

A job goes ``queued`` -> ``compiling`` (its kernels are compiled or loaded: the first answer
of a kind on this server) or ``running`` -> ``done`` / ``error``; its progress is what the
library's ``progress`` callback last said. The finished jobs kept are bounded too (``keep``),
and all of it lives in memory only. ``close`` stops the jobs at their next progress call and
drops the queued ones, so Ctrl-C stops the server within one batch.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from ..games.errors import BadInput, one_line

__all__ = ["Busy", "Job", "Jobs", "Stopped"]


class Busy(Exception):
    """The queue is full: the request is refused, nothing is queued."""


class Stopped(Exception):
    """The server is stopping: a job ends at its next progress call."""


@dataclass
class Job:
    id: str
    kind: str
    command: str
    total: int
    state: str = "queued"
    done: int = 0
    note: str | None = None
    result: dict | None = None
    error: str | None = None
    started: float | None = None
    seconds: float | None = None
    future: Future | None = field(default=None, repr=False)

    def to_dict(self) -> dict:
        out: dict = {
            "job": self.id,
            "kind": self.kind,
            "state": self.state,
            "done": self.done,
            "total": self.total,
            "note": self.note,
            "command": self.command,
        }
        if self.started is not None:
            out["elapsed"] = round((self.seconds or time.perf_counter() - self.started), 3)
        if self.state == "done":
            out["result"] = self.result
        if self.state == "error":
            out["error"] = self.error
        return out


class Jobs:
    """``workers`` threads, at most ``queue`` jobs waiting, the last ``keep`` finished kept."""

    def __init__(self, workers: int = 1, queue: int = 8, keep: int = 200):
        if workers < 1 or queue < 0 or keep < 1:
            raise ValueError("workers and keep at least 1, queue at least 0")
        self.workers, self.queue, self.keep = workers, queue, keep
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="tichusim-web")
        self._lock = threading.Lock()
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._open = 0  # queued or running
        self._warm: set[str] = set()  # kinds whose kernels this server has compiled or loaded
        self._stopping = threading.Event()

    def warm(self, kind: str) -> bool:
        return kind in self._warm

    @property
    def busy(self) -> int:
        """Jobs queued or running."""
        return self._open

    def submit(self, kind: str, run: Callable, command: str = "", total: int = 0) -> Job:
        """Queue ``run(progress)``; ``Busy`` when ``workers + queue`` jobs are open."""
        with self._lock:
            if self._stopping.is_set():
                raise Busy("the server is stopping")
            if self._open >= self.workers + self.queue:
                raise Busy(
                    f"the server is busy: {self._open} answers running or queued (at most "
                    f"{self.workers + self.queue}); try again in a moment"
                )
            job = Job(uuid.uuid4().hex[:16], kind, command, total)
            self._open += 1
            self._jobs[job.id] = job
            self._forget()
        job.future = self._pool.submit(self._run, job, run)
        return job

    def _forget(self) -> None:
        """Drop the oldest finished jobs past ``keep`` (under the lock)."""
        finished = [k for k, j in self._jobs.items() if j.state in ("done", "error")]
        for k in finished[: max(0, len(finished) - self.keep)]:
            del self._jobs[k]

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def _run(self, job: Job, run: Callable) -> None:
        job.started = time.perf_counter()
        job.state = "running" if self.warm(job.kind) else "compiling"

        def progress(done: int, total: int, note: str | None = None) -> None:
            if self._stopping.is_set():
                raise Stopped
            self._warm.add(job.kind)  # progress starts once the kernels are there
            job.state, job.done, job.total, job.note = "running", done, total, note

        try:
            if self._stopping.is_set():
                raise Stopped
            result = run(progress)
        except BadInput as exc:
            job.state, job.error = "error", str(exc)
        except Stopped:
            job.state, job.error = "error", "the server stopped before the answer"
        except Exception as exc:  # a bug: said on the page in one line, the server goes on
            job.state, job.error = "error", one_line(f"internal error: {type(exc).__name__}: {exc}")
        else:
            self._warm.add(job.kind)
            job.result, job.state = result, "done"
        finally:
            job.seconds = time.perf_counter() - job.started
            with self._lock:
                self._open -= 1

    def close(self) -> None:
        """Stop: queued jobs are dropped, running ones end at their next progress call."""
        self._stopping.set()
        self._pool.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            for job in self._jobs.values():
                if job.future is not None and job.future.cancelled():
                    job.state, job.error = "error", "the server stopped before the answer"
                    self._open -= 1
