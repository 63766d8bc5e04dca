"""One progress bar for every long command: a tqdm bar on stderr, or nothing (``--quiet``);
and the notice of a cold compile (``Compiling``).

Library functions take a ``progress(done, total, ...)`` callback and know nothing of bars; the
CLI and the runner wrap that callback around a ``Progress``. One that compiles kernels first
calls ``progress(0, total, ...)`` when play starts: a bar made with ``at_first_update=True``
appears, and starts its clock, only then (after the compile and its notice).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

__all__ = ["Compiling", "Progress"]


class Progress:
    """A bar over ``total`` units (``unit``: "deal", "match", " rounds"...); ``enabled=False``
    draws nothing, so callers need no branch. Use as a context manager, or ``close()``."""

    def __init__(
        self,
        total: int,
        unit: str,
        *,
        enabled: bool = True,
        initial: int = 0,
        desc: str | None = None,
        unit_scale: bool = False,
        leave: bool = False,
        at_first_update: bool = False,
    ):
        self._bar: Any = None  # a tqdm bar (tqdm has no type hints), made by ``_make``
        self._make: Callable[[], None] | None = None
        if enabled:
            from tqdm import tqdm  # only when a bar is drawn

            def make():
                self._bar = tqdm(
                    total=total,
                    initial=initial,
                    unit=unit,
                    unit_scale=unit_scale,
                    desc=desc,
                    file=sys.stderr,
                    leave=leave,
                    dynamic_ncols=True,
                    smoothing=0.1,
                )

            self._make = make
            if not at_first_update:
                make()

    def _drawn(self) -> Any:
        """The bar, made at the first update if it waits for one; None when none is drawn."""
        if self._bar is None and self._make is not None:
            self._make()
        return self._bar

    def to(self, done: int, note: str | None = None) -> None:
        """Move the bar to ``done`` units, with an optional note after it."""
        bar = self._drawn()
        if bar is not None:
            self.advance(done - bar.n, note)

    def advance(self, count: int = 1, note: str | None = None) -> None:
        bar = self._drawn()
        if bar is not None:
            if note is not None:
                bar.set_postfix_str(note, refresh=False)
            bar.update(count)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Compiling:
    """Said on stderr while a block compiles kernels on a cold cache: one line before it
    starts (what, that it happens once, about how long), the elapsed seconds while it runs
    (on a terminal, redrawn in place) and the time it took. ``cold=False`` (the cache holds
    the kernels) or ``enabled=False`` says nothing, so callers need no branch; nor does a
    block inside ``Compiling.reported()``, whose caller reports the compile itself, nor one
    inside a block that announces the same kernels (a run's compile and its first round's)."""

    _reported = 0  # blocks inside ``reported()`` in this process
    _open: set[str] = set()  # what the blocks under way in this process announced

    def __init__(self, what: str, seconds: float, *, cold: bool = True, enabled: bool = True):
        self.what, self.seconds = what, seconds
        self.cold = cold
        self.active = cold and enabled and not Compiling._reported and what not in Compiling._open
        self._stop: threading.Event | None = None
        self.elapsed = 0.0

    @classmethod
    @contextmanager
    def reported(cls):
        """Notices off inside: ``tichusim warmup`` prints one line per family, and a family's
        calls would otherwise announce the kernels they compile under other names."""
        cls._reported += 1
        try:
            yield
        finally:
            cls._reported -= 1

    def __enter__(self) -> Compiling:
        import time

        self._t0 = time.perf_counter()
        if self.active:
            Compiling._open.add(self.what)
            sys.stderr.write(
                f"tichusim: compiling {self.what}: once, cached for later runs "
                f"(about {self.seconds:.0f} s on 2 cores)\n"
            )
            sys.stderr.flush()
            if sys.stderr.isatty():  # a counter a pipe or a log would not want
                self._stop = threading.Event()
                self._ticker = threading.Thread(target=self._tick, daemon=True)
                self._ticker.start()
        return self

    def say(self, line: str) -> None:
        """A line of its own on stderr while the block runs (over the elapsed counter)."""
        sys.stderr.write(("\r\033[K" if self._stop is not None else "") + line + "\n")
        sys.stderr.flush()

    def _tick(self) -> None:
        import time

        assert self._stop is not None  # started by ``__enter__`` after it made the event
        while not self._stop.wait(0.5):
            sys.stderr.write(f"\r  compiling... {time.perf_counter() - self._t0:.0f} s")
            sys.stderr.flush()

    def __exit__(self, *exc) -> None:
        import time

        self.elapsed = time.perf_counter() - self._t0
        if self._stop is not None:
            self._stop.set()
            self._ticker.join()
            sys.stderr.write("\r\033[K")
        if self.active:
            Compiling._open.discard(self.what)
        if self.active and exc[0] is None:
            sys.stderr.write(f"tichusim: compiled {self.what} in {self.elapsed:.0f} s\n")
            sys.stderr.flush()
