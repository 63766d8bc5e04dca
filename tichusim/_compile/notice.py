"""The notice of a cold compile: one of our kernels that compiles (not one loaded from the
cache) says so on stderr before the wait, and how long it took after.

``scope.TracksCompiles`` watches each top-level compile of our kernels (not a callee's,
compiled for its caller, which the caller's notice covers): numba announces a real compile,
after a cache miss, with its ``numba:compile`` event, which a listener here hears for that
compile only, so a user's own numba functions never print anything. A kernel compiled from
Python says ``tichusim: compiling kernels.tichu.batch.play_batch_nanjing: once, cached for
later runs`` and then ``compiled ... in N s``; the kernels compiled while modules load (a
declared signature compiles as its module loads, ``kernels/jit.py``, and a module may call a
kernel at its top) share one notice until another kernel's compile, or the process's end,
closes it. A notice speaks only once its compiles have run ``ANNOUNCE_AFTER`` seconds: the
many kernels that compile in a fraction of a second keep the terminal quiet. On a terminal an
elapsed counter runs while a kernel compiles.

The first notice of a process that compiles because the kernel pack is stale (built for
other kernel sources: ``pack``) says so on a line of its own, with how to rebuild it.

``compile_notices(False)`` switches the notice off, for the process or, as a context manager,
for a block (the command line's ``--quiet``; ``tichusim warmup`` reports its own times).
"""

from __future__ import annotations

import atexit
import sys
import threading
import time
from contextlib import contextmanager, nullcontext

__all__ = ["add_note", "compile_notices", "notices_on", "watching"]

_on = True  # the switch (``compile_notices``)
_notes: list[str] = []  # lines the next notice to speak says after its first (``add_note``)
ANNOUNCE_AFTER = 1.0  # seconds of compiling before a notice speaks (0: at once)


class compile_notices:  # lower case: a switch called as a function, or used with `with`
    """``compile_notices(False)`` switches the compile notice off for the rest of the process,
    ``compile_notices(True)`` back on; ``with compile_notices(False):`` for a block only."""

    def __init__(self, on: bool):
        global _on
        self._before, _on = _on, bool(on)

    def __enter__(self) -> compile_notices:
        return self

    def __exit__(self, *exc) -> None:
        global _on
        _on = self._before


def add_note(line: str) -> None:
    """A line the next notice that speaks adds below its first, once: why the kernels compile
    (``pack``: the kernel pack is stale)."""
    _notes.append(line)


def notices_on() -> bool:
    """Whether the compile notice is on now (``compile_notices``)."""
    return _on


def _modules_loading() -> bool:
    """Whether a module is loading: Python's import machinery is on the stack."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib._bootstrap"):
            return True
        frame = frame.f_back
    return False


def _say(line: str) -> None:
    """A line on stderr, above a progress bar if one is drawn (tqdm moves it)."""
    tqdm = sys.modules.get("tqdm")
    with tqdm.tqdm.external_write_mode(file=sys.stderr) if tqdm else nullcontext():
        sys.stderr.write(line + "\n")
        sys.stderr.flush()


def _name(dispatcher) -> str:
    function = dispatcher.py_func
    return f"{function.__module__.removeprefix('tichusim.')}.{function.__qualname__}"


class _Notice:
    """One notice: a kernel compiled from Python, or the kernels modules compile as they load
    (``on_load``), from the first line to the time taken. It speaks once its compiles have run
    ``ANNOUNCE_AFTER`` seconds, and then says the time they took when it closes."""

    def __init__(self, first: str, on_load: bool):
        self.on_load = on_load
        self.kernels = [first]
        self.t0 = self.t1 = time.perf_counter()
        self.announced = False
        self.spent = 0.0  # seconds its compiles have run so far
        self._started = self.t0
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._stop: threading.Event | None = None

    def _announce(self) -> None:
        with self._lock:
            if self.announced:
                return
            self.announced = True
        what = "the kernels of the modules loading" if self.on_load else self.kernels[0]
        _say(f"tichusim: compiling {what}: once, cached for later runs")
        while _notes:  # what the process has to add to its first notice (a stale pack)
            _say(f"tichusim: {_notes.pop(0)}")
        if sys.stderr.isatty():  # a counter a pipe or a log would not want
            self._stop = threading.Event()
            self._ticker = threading.Thread(target=self._tick, daemon=True)
            self._ticker.start()

    def compiling(self) -> None:
        """A kernel of this notice starts compiling: the notice speaks at once if it has
        spoken before or its compiles have run ``ANNOUNCE_AFTER`` seconds, else when they
        will have."""
        self._started = time.perf_counter()
        wait = ANNOUNCE_AFTER - self.spent
        if self.announced or wait <= 0:
            self._announce()
            return
        self._timer = threading.Timer(wait, self._announce)
        self._timer.daemon = True
        self._timer.start()

    def _tick(self) -> None:
        assert self._stop is not None  # started by ``_announce`` after it made the event
        while not self._stop.wait(0.5):
            sys.stderr.write(f"\r  compiling... {time.perf_counter() - self.t0:.0f} s")
            sys.stderr.flush()

    def compiled(self) -> None:
        """A kernel of this notice is compiled."""
        self.t1 = time.perf_counter()
        self.spent += self.t1 - self._started
        if self._timer is not None:
            self._timer.cancel()
            self._timer.join()
            self._timer = None
        if self._stop is not None:
            self._stop.set()
            self._ticker.join()
            self._stop = None
            sys.stderr.write("\r\033[K")

    def close(self) -> None:
        if not self.announced:  # its compiles were quick: nothing was said, nothing to add
            return
        if self.on_load:
            modules = ", ".join(dict.fromkeys(k.rpartition(".")[0] for k in self.kernels))
            what = f"{len(self.kernels)} kernels of {modules}"
        else:
            what = self.kernels[0]
        _say(f"tichusim: compiled {what} in {self.t1 - self.t0:.0f} s")


_open: _Notice | None = None  # the notice of the modules loading, until another closes it


def _close() -> None:
    global _open
    if _open is not None:
        _open, done = None, _open
        done.close()


@atexit.register
def _close_at_exit() -> None:
    """The notice of the modules loading, if still open, when the process ends (a closed
    stderr, as after ``| head``, has nothing to say it on)."""
    try:
        _close()
    except (OSError, ValueError):
        pass


@contextmanager
def watching(dispatcher):
    """Around a top-level compile of one of our kernels (``scope.TracksCompiles``): its notice
    if it compiles (not if the cache or an earlier compile has it), with the compile lock held
    (so this compile is numba's only one)."""
    from numba.core import event

    global _open
    on_load = _modules_loading()
    if not on_load:
        _close()  # a kernel called from Python: the modules' compiles are over
    if not _on:
        yield
        return
    notice: list[_Notice] = []

    class Listener(event.Listener):
        def on_start(self, heard):
            global _open
            if heard.data["dispatcher"] is not dispatcher:
                return
            if on_load and _open is not None:
                _open.kernels.append(_name(dispatcher))
            else:
                _open = _Notice(_name(dispatcher), on_load)
            notice.append(_open)
            _open.compiling()

        def on_end(self, heard):
            if heard.data["dispatcher"] is dispatcher and notice:
                notice[0].compiled()

    with event.install_listener("numba:compile", Listener()):
        try:
            yield
        except BaseException:
            if notice and not on_load:
                _open = None  # failed: no "compiled" line
            raise
    if notice and not on_load:
        _close()
