"""One progress bar for every long command: a tqdm bar on stderr, or nothing (``--quiet``).

Library functions take a ``progress(done, total, ...)`` callback and know nothing of bars; the
CLI and the runner wrap that callback around a ``Progress``.
"""

from __future__ import annotations

import sys

__all__ = ["Progress"]


class Progress:
    """A bar over ``total`` units (``unit``: "deal", "match", " rounds"...); ``enabled=False``
    draws nothing, so callers need no branch. Use as a context manager, or ``close()``."""

    def __init__(self, total: int, unit: str, *, enabled: bool = True, initial: int = 0,
                 desc: str | None = None, unit_scale: bool = False, leave: bool = False):  # fmt: skip
        self._bar = None
        if enabled:
            from tqdm import tqdm  # only when a bar is drawn

            self._bar = tqdm(total=total, initial=initial, unit=unit, unit_scale=unit_scale,
                             desc=desc, file=sys.stderr, leave=leave, dynamic_ncols=True,
                             smoothing=0.1)  # fmt: skip

    def to(self, done: int, note: str | None = None) -> None:
        """Move the bar to ``done`` units, with an optional note after it."""
        if self._bar is not None:
            self.advance(done - self._bar.n, note)

    def advance(self, count: int = 1, note: str | None = None) -> None:
        if self._bar is not None:
            if note is not None:
                self._bar.set_postfix_str(note, refresh=False)
            self._bar.update(count)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
