"""Where compiled kernels are cached: one folder per version of the kernel sources.

Numba invalidates a cached function only when its *own* file changes, not when a kernel it
calls from another module does, so an edited ``engine.py`` could keep running stale inside a
cached ``batch.py``. Keying the cache folder by a hash of every kernel source avoids that.
A user's ``NUMBA_CACHE_DIR`` is respected.
"""

import hashlib
import os
from pathlib import Path

import numba


def configure() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    kernels = Path(__file__).parent / "kernels"
    digest = hashlib.sha256()
    for path in sorted(kernels.rglob("*.py")):
        digest.update(path.relative_to(kernels).as_posix().encode())
        digest.update(path.read_bytes())
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    numba.config.CACHE_DIR = str(base / "tichusim" / "numba" / digest.hexdigest()[:16])
