"""One progress bar for every long command: a tqdm bar on stderr, or nothing (``--quiet``).

Library functions take a ``progress(done, total, ...)`` callback and know nothing of bars; the
CLI and the runner wrap that callback around a ``Progress``. One that compiles kernels first
calls ``progress(0, total, ...)`` when play starts: a bar made with ``at_first_update=True``
appears, and starts its clock, only then (after the compile and its notice,
``_compile.notice``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

__all__ = ["Progress"]


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
