"""Where compiled kernels are cached: one folder per version of the kernel sources; and
whether a kernel is in it yet (a cold cache means a compile of minutes, said on stderr).

Numba invalidates a cached function only when its *own* file changes, not when a kernel it
calls from another module does, so an edited ``engine.py`` could keep running stale inside a
cached ``batch.py``. Keying the cache folder by a hash of every kernel source (and of our changes
to numba's compiler, and whether they are on) avoids that.
A user's ``NUMBA_CACHE_DIR`` is respected.

The folder is set through ``NUMBA_CACHE_DIR`` so that numba, imported later (only when a kernel
is needed), reads it at its own import, and worker processes inherit it.
"""

import hashlib
import os
import sys
from pathlib import Path

__all__ = ["cache_dir", "cached", "configure"]

_PACKAGE = Path(__file__).parent
# the changes to numba's compiler that shape the compiled code, beside the kernels themselves
_COMPILER = ("_inliner.py", "_literals.py", "_linkage.py")
# the switches that turn two of them off: numba alone cannot load what they cached (a callee
# of ``_linkage``'s, with no machine code), so each setting has its own folder
_SWITCHES = ("TICHUSIM_OWN_CALLEES", "TICHUSIM_PLAIN_CALLS")


def _sources():
    kernels = _PACKAGE / "kernels"
    yield from ((p.relative_to(kernels).as_posix(), p) for p in sorted(kernels.rglob("*.py")))
    yield from ((name, _PACKAGE / name) for name in _COMPILER)


def configure() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    digest = hashlib.sha256()
    for name, path in _sources():
        digest.update(name.encode())
        digest.update(path.read_bytes())
    for switch in _SWITCHES:
        digest.update(f"{switch}={os.environ.get(switch, '1') != '0'}".encode())
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = str(base / "tichusim" / "numba" / digest.hexdigest()[:16])
    os.environ["NUMBA_CACHE_DIR"] = folder
    if "numba" in sys.modules:  # imported before tichusim: its config has read the variable
        sys.modules["numba"].config.CACHE_DIR = folder


def cache_dir() -> Path:
    return Path(os.environ["NUMBA_CACHE_DIR"])


def cached(*entries: str) -> bool:
    """Whether the cache holds every one of ``entries`` ("kernels/tichu/batch.py:play_logged",
    paths within the package): its index file, named as numba names it for a user-given cache
    folder (``<folder>_<sha1 of the folder>/<module>.<function>-<line>.py<version>.nbi``).

    A cheap look at the file names, without importing numba: it answers "a compile of minutes
    is coming" before it starts. With the default folder (keyed by the kernel sources) an
    index found is current; in a ``NUMBA_CACHE_DIR`` of the user's it may be stale, and a
    kernel found for other argument types compiles again: both compile without the notice.
    """
    tag = f"py{sys.version_info[0]}{sys.version_info[1]}"
    for entry in entries:
        path, function = entry.split(":")
        source = (_PACKAGE / path).resolve()
        folder = str(source.parent)
        sub = f"{source.parent.name}_{hashlib.sha1(folder.encode()).hexdigest()}"
        if not any((cache_dir() / sub).glob(f"{source.stem}.{function}-*.{tag}.nbi")):
            return False
    return True
