"""Writing files that appear complete or not at all: write a temporary file, then rename."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def write_atomic(path: Path, data: bytes) -> str:
    """Write ``data`` to ``path`` durably and atomically; return its sha256.

    The bytes go to a hidden temporary file in the same folder (readers of the folder skip
    names starting with a dot), are fsynced, renamed over ``path``, and the folder is fsynced
    so the rename itself survives a power cut. After a crash ``path`` holds the old or the new
    content, never a mix.
    """
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fsync_dir(path.parent)
    return hashlib.sha256(data).hexdigest()


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
