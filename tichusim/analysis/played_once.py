"""An analysis plays one round before its clock starts: that round compiles (or
loads) the kernels the analysis plays (with the compile notice on stderr, ``_compile.notice``,
when the cache lacks them), so neither the seconds an answer reports nor its progress bar
counts the compile, and the workers of a match load what this process compiled instead of
each compiling it. The analysis then calls its ``progress(0, ...)``: play starts, and a bar
made to wait for it appears.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["played_once"]


def played_once(play: Callable[[np.ndarray], object]) -> None:
    """``play(keys)``, the analysis's rounds, for the one round key 0: what the analysis will
    play is compiled (or loaded) before its clock and its progress bar start, and its workers
    load what this process compiled. What ``play`` returns is not used."""
    play(np.zeros(1, np.int64))
