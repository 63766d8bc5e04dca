"""Where our compiled kernels are cached: one folder per version of the kernel sources; and
whether a kernel is in it yet (a cold cache means a compile of minutes, said on stderr).

Numba invalidates a cached function only when its *own* file changes, not when a kernel it
calls from another module does, so an edited ``engine.py`` could keep running stale inside a
cached ``batch.py``. Keying the folder by a hash of every kernel source, of our compile
changes, of their switches and of the numba and llvmlite versions avoids that.

The folder is ``$TICHUSIM_CACHE_DIR`` if set, else ``tichusim/<hash>`` under
``$NUMBA_CACHE_DIR`` if the user set that, else ``~/.cache/tichusim/numba/<hash>`` (XDG). Only
our kernels' locator reads it (``kernels/jit.py``): a user's own functions cache wherever
numba puts them, and nothing here sets an environment variable. This module does not import
numba, so the CLI can look before a compile starts.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import os
import sys
from pathlib import Path

__all__ = ["cache_dir", "cached", "key", "subfolder"]

_COMPILE = Path(__file__).parent  # this package: the changes to numba's compiler
_PACKAGE = _COMPILE.parent
# the switches of those changes: numba alone cannot load what ``linkage`` cached (a callee's
# module, without machine code), so each setting has its own folder
_SWITCHES = (
    "TICHUSIM_NUMBA_CHANGES",
    "TICHUSIM_NUMBA_INLINER",
    "TICHUSIM_OWN_CALLEES",
    "TICHUSIM_PLAIN_CALLS",
)


def _sources():
    """The kernels and every module of this package (what shapes the compiled code), by their
    paths in the package; not ``pack``, which copies compiled kernels and compiles none."""
    for folder in (_PACKAGE / "kernels", _COMPILE):
        for path in sorted(folder.rglob("*.py")):
            if path != _COMPILE / "pack.py":
                yield path.relative_to(_PACKAGE).as_posix(), path


@functools.cache
def key() -> str:
    """The hash of what shapes the compiled kernels (see the module): names their folder."""
    digest = hashlib.sha256()
    for name, path in _sources():
        digest.update(name.encode())
        digest.update(path.read_bytes())
    for switch in _SWITCHES:
        digest.update(f"{switch}={os.environ.get(switch, '1') != '0'}".encode())
    for package in ("numba", "llvmlite"):
        digest.update(f"{package}={importlib.metadata.version(package)}".encode())
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    """Our kernels' cache folder in this process (see the module)."""
    if os.environ.get("TICHUSIM_CACHE_DIR"):
        return Path(os.environ["TICHUSIM_CACHE_DIR"])
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"]) / "tichusim" / key()
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "tichusim" / "numba" / key()


def subfolder(source: Path) -> str | None:
    """The folder, within the cache folder, of the kernels of the source file ``source``: its
    folder's path in the package (``tichusim_kernels_tichu`` for ``kernels/tichu/*.py``), the
    same wherever the package is installed, so a kernel pack (``pack``) fits any checkout.
    ``None`` for a file outside the package (numba's own name for it then)."""
    try:
        parts = source.resolve().parent.relative_to(_PACKAGE.resolve()).parts
    except ValueError:
        return None
    return "_".join((_PACKAGE.name, *parts))


def cached(*entries: str) -> bool:
    """Whether the cache holds every one of ``entries`` ("kernels/tichu/batch.py:play_logged",
    paths within the package): its index file, named as numba names it in a cache folder
    (``<folder>/<subfolder>/<module>.<function>-<line>.py<version>.nbi``).

    A cheap look at the file names, without importing numba: it answers "a compile of minutes
    is coming" before it starts. With a folder keyed by the kernel sources an index found is
    current; in a ``TICHUSIM_CACHE_DIR`` it may be stale, and a kernel found for other argument
    types compiles again: both compile without the notice. (A kernel pack not yet copied into
    the cache counts as not there.)
    """
    tag = f"py{sys.version_info[0]}{sys.version_info[1]}"
    for entry in entries:
        path, function = entry.split(":")
        source = _PACKAGE / path
        if not any((cache_dir() / subfolder(source)).glob(f"{source.stem}.{function}-*.{tag}.nbi")):
            return False
    return True
